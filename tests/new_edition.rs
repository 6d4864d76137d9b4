//! Mysterium's new edition in real Chromium, with phones: a game won (the box told once,
//! one set per category, the app keeping the secrets and knocking the answers, the
//! culprit on the ghost's phone only, a tied vote then a majority) and a game lost in the
//! three-player variant (the ghost's own cards and medium tokens, the mixed variant, the
//! drawn token's trace sealed through the passed tablet, a consensus on the wrong trace).

use fantoccini::Client;
use seance_e2e::{
    Browsers, Table, act, api, attr, chromium, ghost_phone, go, keep_lines, lines_never_say,
    phone_on_seats, played, present, screenshot, sounds, tap, under_the_knock, wait_for,
    wait_for_text,
};
use serde_json::Value;

use crate::Test;

pub fn tests(p: u16) -> Vec<Test> {
    vec![
        (
            "new edition: a game won with a ghost's phone and three mediums' phones",
            Box::pin(won(p)),
        ),
        (
            "new edition: a three-player game lost on the wrong trace",
            Box::pin(lost(p)),
        ),
    ]
}

/// Sets up a new-edition game from the home screen, telling Séance the box (two sets per
/// category) on the way; returns the game's id.
async fn set_up(tablet: &Client, players: &str, secrets: &str, deal: &str) -> u64 {
    tap(tablet, "#new-game").await;
    tap(tablet, "#setup-edition [data-value='new']").await;
    tap(tablet, &format!("#setup-players [data-value='{players}']")).await;
    tap(tablet, &format!("#setup-secrets [data-value='{secrets}']")).await;
    tap(tablet, &format!("#setup-deal [data-value='{deal}']")).await;
    for category in ["characters", "locations", "objects"] {
        for (k, name, cards) in [(0, "green", "1-8"), (1, "red", "9-16")] {
            if k == 1 {
                tap(tablet, &format!("[data-add='{category}']")).await;
            }
            let field = |what: &str| format!("#set-{category}-{k}-{what}");
            wait_for(tablet, &field("name"))
                .await
                .send_keys(name)
                .await
                .unwrap();
            wait_for(tablet, &field("cards"))
                .await
                .send_keys(cards)
                .await
                .unwrap();
        }
    }
    if deal == "sets" {
        wait_for_text(tablet, "#first-game", "green").await;
    }
    screenshot(tablet, &format!("new-edition-setup-{players}p-1280x800")).await;
    tap(tablet, "#start-game").await;
    wait_for(tablet, "#begin").await;
    tablet
        .current_url()
        .await
        .unwrap()
        .fragment()
        .unwrap()
        .trim_start_matches("/game/")
        .parse()
        .unwrap()
}

async fn view(tablet: &Client, id: u64, role: &str) -> Value {
    api(
        tablet,
        "GET",
        &format!("/mysterium/{id}?role={role}"),
        Value::Null,
    )
    .await["view"]
        .clone()
}

async fn seat(driver: u16, table: &Table, id: u64, seat: &str) -> Client {
    let phone = phone_on_seats(&Browsers::chromium(driver), table, &format!("#/join/{id}")).await;
    tap(&phone, &format!("button[data-seat='{seat}']")).await;
    wait_for(&phone, "#phone[data-version]").await;
    phone
}

async fn won(driver: u16) {
    let table = Table::start(0);
    let tablet = chromium(driver, 1280, 800).await;
    go(&tablet, &table.local_url).await;
    let id = set_up(&tablet, "4", "app_kept", "sets").await;
    wait_for_text(&tablet, "#stage", "cards · the ").await;
    // The table's first game of this edition: the green-backed sets, as 004 recommends.
    assert_eq!(
        view(&tablet, id, "table").await["layout"]["sets"],
        serde_json::json!(["green", "green", "green"])
    );
    wait_for_text(&tablet, "#crows-left", "3").await;
    wait_for_text(&tablet, "#crow", "Candles").await;
    assert!(
        !present(&tablet, "#sand-timer").await,
        "no sand timer by default"
    );
    // What the ghost will see, read while the seat is free.
    let secrets = view(&tablet, id, "ghost").await["assignments"].clone();
    let ghost = ghost_phone(&Browsers::chromium(driver), &table, &tablet, id).await;
    let mut mediums = Vec::new();
    for i in 0..3 {
        mediums.push(seat(driver, &table, id, &format!("psychic:{i}")).await);
    }
    tap(&tablet, "#begin").await;
    for screen in mediums.iter().chain([&tablet, &ghost]) {
        keep_lines(screen).await;
    }

    for round in 0..3 {
        for i in 0..3 {
            act(&tablet, &format!("[data-vision='{i}']")).await;
        }
        for (i, phone) in mediums.iter().enumerate() {
            act(
                phone,
                &format!("#phone-pawn [data-card='{}']", secrets[i][round]),
            )
            .await;
        }
        act(&tablet, "#convinced").await;
        if round == 0 {
            // The table asks the ghost; the ghost's own phone knocks the answer, and has no
            // knock of its own besides (one could contradict an answer).
            wait_for_text(&tablet, "[data-manifest='0']", "Ask the ghost").await;
            wait_for_text(&ghost, "[data-manifest='0']", "Knock the answer").await;
            assert!(!present(&ghost, ".knocks").await);
        }
        for i in 0..3 {
            act(&tablet, &format!("[data-manifest='{i}']")).await;
        }
        let (cues, _) = sounds(&tablet).await;
        assert!(
            played(&cues, "knock", Some(1)),
            "the app knocks once for yes: {cues:?}"
        );
        // The knock seen on the table covers nothing of the game: no medium's name.
        assert_eq!(
            under_the_knock(&tablet).await,
            Vec::<String>::new(),
            "the knock covers these"
        );
    }
    wait_for(&tablet, "#stage.revelation").await;
    let culprit = attr(&ghost, "#phone-culprit-is", "data-culprit")
        .await
        .unwrap();
    screenshot(&ghost, "new-edition-ghost-culprit-390x844").await;
    let seen = view(&tablet, id, "table").await;
    assert!(
        seen["culprit"].is_null() && seen["culprit_sealed"] == true,
        "{seen}"
    );
    assert!(
        !present(&mediums[0], "#phone-culprit-is").await,
        "a medium's phone shows no culprit"
    );
    act(&ghost, "#phone-share-vision").await;
    // Each votes for a different trace: no majority, vote again.
    for (i, phone) in mediums.iter().enumerate() {
        tap(
            phone,
            &format!("#phone-vote .group[data-group='{}']", i + 1),
        )
        .await;
        act(phone, "#phone-seal").await;
    }
    wait_for_text(&tablet, "#majority", "No majority").await;
    screenshot(&tablet, "new-edition-no-majority-1280x800").await;
    for phone in &mediums {
        tap(
            phone,
            &format!("#phone-vote .group[data-group='{culprit}']"),
        )
        .await;
        act(phone, "#phone-seal").await;
    }
    wait_for(&tablet, "[data-outcome='won']").await;
    wait_for_text(&tablet, "#outcome", "mediums have found the culprit").await;
    screenshot(&tablet, "new-edition-won-1280x800").await;
    // Every line read in the game is in the new edition's words (004): no sand timer, no
    // tokens, no track or finishing bonus, mediums and traces; and no screen says there is
    // no agreement before anyone has spoken.
    let never = [
        "sand",
        "token",
        "clairvoyancy",
        "(+",
        "psychic",
        "group",
        "crow",
        "No agreement",
    ];
    let mut read = 0;
    for (who, screen) in [("the table", &tablet), ("the ghost's phone", &ghost)]
        .into_iter()
        .chain(mediums.iter().map(|m| ("a medium's phone", m)))
    {
        read += lines_never_say(screen, who, &never).await;
    }
    assert!(read > 20, "only {read} lines read");
}

async fn lost(driver: u16) {
    let table = Table::start(0);
    let tablet = chromium(driver, 1280, 800).await;
    go(&tablet, &table.local_url).await;
    let id = set_up(&tablet, "3", "paper", "mixed").await;
    tap(&tablet, "#begin").await;
    // Two medium players with two colours each: four mediums; Stephanie's phone holds red.
    wait_for(&tablet, "[data-psychic='3']").await;
    let red = seat(driver, &table, id, "psychic:0").await;
    for round in 0..3 {
        for i in 0..4 {
            act(&tablet, &format!("[data-vision='{i}']")).await;
        }
        let layout = view(&tablet, id, "table").await["layout"].clone();
        let cards: Vec<u64> = ["characters", "locations", "objects"]
            .map(|c| layout[c].as_array().unwrap().clone())[round]
            .iter()
            .map(|c| c.as_u64().unwrap())
            .collect();
        // Each medium's pawn on a card of its own; the ghost knocks yes for all.
        act(&red, &format!("#phone-pawn [data-card='{}']", cards[0])).await;
        for (i, card) in cards.iter().enumerate().take(4).skip(1) {
            act(
                &tablet,
                &format!("[data-psychic='{i}'] [data-card='{card}']"),
            )
            .await;
        }
        act(&tablet, "#convinced").await;
        for i in 0..4 {
            act(&tablet, &format!("[data-right='{i}']")).await;
        }
    }
    // Paper mode: the ghost draws a real medium token, and with no phone seals that
    // medium's trace through the passed tablet; Séance draws nothing.
    wait_for_text(&tablet, "#stage", "draws one medium token in secret").await;
    assert!(
        view(&tablet, id, "ghost").await["culprit"].is_null(),
        "nothing drawn by the app"
    );
    let culprit = 3;
    tap(&tablet, "#seal-culprit").await;
    tap(&tablet, "#hidden-ready").await;
    wait_for_text(&tablet, "#hidden", "Whose token did you draw?").await;
    tap(&tablet, &format!("#hidden .group[data-group='{culprit}']")).await;
    tap(&tablet, "#hidden-seal").await;
    // Back on the table, the ghost may look again at the trace sealed.
    tap(&tablet, "#ghost-look").await;
    tap(&tablet, "#hidden-ready").await;
    let sealed = attr(&tablet, "#ghost-culprit", "data-culprit").await;
    assert_eq!(sealed.as_deref(), Some("3"));
    tap(&tablet, "#hidden-done").await;
    act(&tablet, "#share-vision").await;
    assert!(
        !present(&tablet, "#majority").await,
        "two players agree or do not"
    );
    // The table speaks the edition's own words in Italian.
    tap(&tablet, ".languages [lang='it']").await;
    wait_for_text(&tablet, "#crow", "Candele").await;
    wait_for_text(&tablet, "#line-up", "Le Tracce").await;
    screenshot(&tablet, "new-edition-traces-it-1280x800").await;
    // A tap picks a trace and decides nothing; the second button ends the game with it.
    let wrong = culprit % 4 + 1;
    tap(&tablet, &format!("[data-pick='{wrong}']")).await;
    wait_for_text(&tablet, "#pick-confirm", &format!("Traccia {wrong}")).await;
    assert!(
        !present(&tablet, "[data-outcome]").await,
        "one tap ends nothing"
    );
    act(&tablet, "#pick-confirm").await;
    wait_for(&tablet, "[data-outcome='lost_wrong_group']").await;
    wait_for_text(&tablet, "#stage", "Traccia").await;
    tap(&tablet, ".languages [lang='en']").await;
}
