//! A whole Mystery Rummy game in real Chromium: the table sets it up, two players vote on
//! their phones and the third on the table with hidden entry; the rounds are entered by
//! tapping as the cards are read; the rulebook's tie makes Druitt Jack; a round where the
//! Ripper escapes brings a tie at 100 and another round; a correction changes the winner,
//! and undo takes it back.

use fantoccini::{Client, Locator};
use seance_e2e::{
    Browsers, Page, Table, accessibility_violations, act, api, chromium, go, misfits,
    phone_on_seats, present, screenshot, tap, taps, text, wait_for, wait_for_text,
};

use crate::Test;

pub fn tests(p: u16) -> Vec<Test> {
    vec![
        (
            "rummy: a whole scorepad game with two phones voting and one vote on the table",
            Box::pin(whole_game(p)),
        ),
        (
            "rummy: a round with every vote on the passed tablet",
            Box::pin(votes_on_the_tablet(p)),
        ),
    ]
}

/// No phones: Ann calls the vote on the table, and the tablet goes from voter to voter by
/// itself, each picking a suspect and sealing; then the round is scored. The whole round
/// in 15 taps at most.
async fn votes_on_the_tablet(driver: u16) {
    let table = Table::start(0);
    let tablet = chromium(driver, 1280, 800).await;
    go(&tablet, &table.local_url).await;
    wait_for(&tablet, "#home").await;
    let setup = serde_json::json!({"setup": {"players": ["Ann", "Ben", "Cleo"]}});
    let id = api(&tablet, "POST", "/rummy", setup).await["id"]
        .as_u64()
        .unwrap();
    go(&tablet, &format!("{}#/rummy/{id}", table.origin())).await;
    wait_for(&tablet, "#rummy[data-version] #call-vote").await;
    let before = taps(&tablet).await;
    tap(&tablet, "#call-vote").await;
    tap(&tablet, "[data-caller='0']").await;
    for (voter, suspect) in [("Ann", 0), ("Ben", 5), ("Cleo", 0)] {
        wait_for_text(&tablet, "#hidden h2", voter).await;
        tap(
            &tablet,
            &format!("#hidden .suspect[data-suspect='{suspect}']"),
        )
        .await;
        act(&tablet, "#hidden-seal").await;
    }
    wait_for(&tablet, "#rummy:not(:has(#hidden))").await;
    let voted = table_view(&tablet, id).await;
    assert_eq!(
        voted["view"]["vote"]["voted"],
        serde_json::json!([true, true, true])
    );
    let votes = taps(&tablet).await - before;
    // Ann's five Druitt Evidence and three Letters (one tap, the set's size), two Victims in
    // play: Druitt is Jack, Ann and Cleo right.
    end_round(&tablet, "last_card").await;
    count(&tablet, "victims-in-play", 2).await;
    count(&tablet, "evidence-0", 5).await;
    count(&tablet, "letters", 3).await;
    act(&tablet, "#score-round").await;
    wait_for_text(&tablet, "#jack", "Montague Druitt").await;
    let round = taps(&tablet).await - before;
    eprintln!("taps for a round with three votes on the tablet: {round} (the votes {votes})");
    assert!(votes <= 2 + 2 * 3, "{votes} taps for the votes");
    assert!(round <= 15, "{round} taps for the round");
    assert_eq!(
        [total(&tablet, 0).await, total(&tablet, 2).await],
        ["39", "10"]
    );
    tablet.close().await.unwrap();
}

/// Scorepad `id` as the table sees it, over the API.
async fn table_view(tablet: &Client, id: u64) -> serde_json::Value {
    api(
        tablet,
        "GET",
        &format!("/rummy/{id}?role=table"),
        serde_json::Value::Null,
    )
    .await
}

/// Taps `+` on stepper `id` `n` times.
async fn plus(client: &Client, id: &str, n: usize) {
    for _ in 0..n {
        tap(client, &format!("[data-plus='{id}']")).await;
    }
}

/// Types `value` into the number field `#id`, as a player would.
async fn type_in(client: &Client, id: &str, value: &str) {
    let field = wait_for(client, &format!("#{id}")).await;
    field.clear().await.unwrap();
    field.send_keys(value).await.unwrap();
}

/// The game's number in the page's address (`#/rummy/12`, after `prefix`).
async fn fragment_number(client: &Client, prefix: &str) -> u64 {
    let url = client.current_url().await.unwrap();
    url.fragment()
        .unwrap()
        .trim_start_matches(prefix)
        .parse()
        .unwrap()
}

/// A phone that takes player `p`'s seat in game `id`.
async fn phone(driver: u16, table: &Table, id: u64, p: usize) -> Client {
    let phone = phone_on_seats(
        &Browsers::chromium(driver),
        table,
        &format!("#/rummy/{id}/join"),
    )
    .await;
    tap(&phone, &format!("button[data-seat='player:{p}']")).await;
    wait_for(&phone, "#phone[data-version] #phone-me").await;
    phone
}

/// Opens "End the round", picks how it ended (unless it is the one already pressed), and
/// leaves the form open for the cards.
async fn end_round(tablet: &Client, how: &str) {
    tap(tablet, "#end-round").await;
    let choice = format!("#tally-ending [data-value='{how}']");
    if !present(tablet, &format!("{choice}[aria-pressed='true']")).await {
        tap(tablet, &choice).await;
    }
}

/// Taps how many cards of a kind lie on the table: the count in row `id`.
async fn count(client: &Client, id: &str, n: usize) {
    tap(client, &format!("#{id} [data-count='{n}']")).await;
}

async fn cards_of(tablet: &Client, p: usize) {
    tap(tablet, &format!("#tally-who [data-value='{p}']")).await;
    wait_for(tablet, &format!("#tally-player[data-player='{p}']")).await;
}

async fn total(client: &Client, p: usize) -> String {
    text(client, &format!("[data-total='{p}']")).await
}

async fn whole_game(driver: u16) {
    let table = Table::start(0);
    let tablet = chromium(driver, 1280, 800).await;
    go(&tablet, &table.local_url).await;
    tap(&tablet, "#new-game").await;
    tap(&tablet, "#ruleset [data-ruleset='mystery-rummy']").await;
    wait_for(&tablet, "#rummy-setup").await;
    tap(&tablet, "#rummy-players [data-value='3']").await;
    for (i, name) in ["Ann", "Ben", "Cleo"].iter().enumerate() {
        wait_for(&tablet, &format!("#rummy-name-{i}"))
            .await
            .send_keys(name)
            .await
            .unwrap();
    }
    screenshot(&tablet, "rummy-setup-en-1280x800").await;
    tap(&tablet, "#start-rummy").await;
    wait_for_text(&tablet, "#dealer", "9 cards").await;
    let id = fragment_number(&tablet, "/rummy/").await;

    let ann = phone(driver, &table, id, 0).await;
    let ben = phone(driver, &table, id, 1).await;
    screenshot(&ann, "rummy-phone-en-390x844").await;

    // Round 1: Ben calls the vote on his turn; Ann and Ben vote on their phones, Cleo on
    // the table, the tablet passed to her.
    act(&ben, "#phone-call-vote").await;
    wait_for(&tablet, "#vote[data-called='1']").await;
    tap(&ann, "#phone-vote .suspect[data-suspect='0']").await;
    act(&ann, "#phone-seal").await;
    wait_for_text(&ann, "#phone-vote", "Montague Druitt").await;
    tap(&ben, "#phone-vote .suspect[data-suspect='5']").await;
    act(&ben, "#phone-seal").await;
    wait_for(&tablet, "[data-voter='1'][data-voted='true']").await;
    assert!(
        text(&tablet, "[data-voter='0']").await.contains("voted"),
        "the table says who voted"
    );
    // Cleo's vote: picked and sealed, and the tablet is the scorepad again by itself.
    let before = taps(&tablet).await;
    tap(&tablet, "[data-vote-here='2']").await;
    tap(&tablet, "#hidden .suspect[data-suspect='0']").await;
    screenshot(&tablet, "rummy-hidden-vote-en-1280x800").await;
    act(&tablet, "#hidden-seal").await;
    wait_for(&tablet, "#rummy:not(:has(#hidden))").await;
    assert_eq!(
        taps(&tablet).await - before,
        3,
        "a vote on the table in 3 taps"
    );
    // Nothing of the votes reached the table: its view says who voted, never for whom.
    let seen = table_view(&tablet, id).await;
    assert_eq!(
        seen["view"]["vote"]["voted"],
        serde_json::json!([true, true, true])
    );
    assert!(seen["view"]["vote"]["mine"].is_null());
    let source = tablet.source().await.unwrap();
    assert!(
        !source.contains("Jill the Ripper") || !source.contains("data-voted"),
        "no vote on the table's page"
    );

    // 002's scoring example, read off the cards: 5 Druitt Evidence for Ann; 3 Jill Evidence
    // and her Suspect card for Ben; 4 points left in Cleo's hand. Besides, Cleo has a set
    // of 3 Sir Gull Evidence with his Alibi in front of her, printed 3; Ben kept Druitt's
    // Suspect card and Cleo Prince Eddy's in hand.
    let before = taps(&tablet).await;
    end_round(&tablet, "last_card").await;
    count(&tablet, "victims-in-play", 2).await;
    count(&tablet, "evidence-0", 5).await;
    cards_of(&tablet, 1).await;
    count(&tablet, "evidence-5", 3).await;
    tap(&tablet, "#suspect-card-5").await;
    tap(&tablet, "#suspect-in-hand-0").await;
    cards_of(&tablet, 2).await;
    type_in(&tablet, "hand", "4").await;
    tap(&tablet, "#suspect-in-hand-1").await;
    count(&tablet, "evidence-2", 3).await;
    tap(&tablet, "#tally-alibi [data-value='2']").await;
    tap(&tablet, "#tally-alibi-holder [data-value='2']").await;
    plus(&tablet, "alibi-points", 3).await;
    screenshot(&tablet, "rummy-tally-en-1280x800").await;
    let found = accessibility_violations(&tablet).await;
    assert!(found.is_empty(), "the tally form: {found:?}");
    act(&tablet, "#score-round").await;
    // A set each, Suspect cards and an Alibi besides, and the Victims in play (no Evidence
    // lies on the table without one): 16 taps at most (a set is one tap, a count one).
    let tally = taps(&tablet).await - before;
    eprintln!("taps for round 1's tally: {tally}");
    assert!(tally <= 16, "{tally} taps");
    wait_for_text(&tablet, "#jack", "Montague Druitt").await;
    assert!(
        text(&tablet, "#jack-steps").await.contains("tie"),
        "the tie is explained"
    );
    // Ann: Druitt 10 doubled + her right vote; Ben: Jill 10, wrong vote, and Druitt's card
    // could have gone on Ann's set: nothing; Cleo: −4 + 10, Sir Gull 6 and his Alibi 3,
    // never doubled, and −4 for Prince Eddy's card, which no set could take.
    assert_eq!(
        [
            total(&tablet, 0).await,
            total(&tablet, 1).await,
            total(&tablet, 2).await
        ],
        ["30", "10", "11"]
    );
    tap(&tablet, "#scoreboard [data-round='0'] button").await;
    wait_for_text(
        &tablet,
        "#round-details",
        "Sir Gull's Alibi (never doubled)",
    )
    .await;
    wait_for_text(&ann, "#round-details", "Voted Montague Druitt: right").await;
    screenshot(&tablet, "rummy-scored-en-1280x800").await;
    screenshot(&ben, "rummy-phone-scored-en-390x844").await;
    let found = accessibility_violations(&ben).await;
    assert!(found.is_empty(), "the phone: {found:?}");
    // Ben's own column first on his phone, every total in view, the table's in its order.
    let heads = "return [...document.querySelectorAll('#scoreboard thead th[data-player]')].map((th) => th.dataset.player)";
    assert_eq!(ben.script(heads).await, serde_json::json!(["1", "0", "2"]));
    assert_eq!(
        tablet.script(heads).await,
        serde_json::json!(["0", "1", "2"])
    );
    let found = misfits(&ben, true).await;
    assert!(found.is_empty(), "the phone's scoreboard: {found:?}");

    // Round 2: all five Victims in play, Ben plays Ripper Escapes: 35 and Victims and
    // Scenes only. Both reach 105: a tie at the top plays another round.
    end_round(&tablet, "ripper_escapes").await;
    tap(&tablet, "#tally-by [data-value='1']").await;
    count(&tablet, "victims-in-play", 5).await;
    count(&tablet, "evidence-2", 4).await;
    type_in(&tablet, "victims-and-scenes", "75").await;
    cards_of(&tablet, 1).await;
    type_in(&tablet, "victims-and-scenes", "60").await;
    act(&tablet, "#score-round").await;
    wait_for(&tablet, "#another-round").await;
    assert_eq!(
        [total(&tablet, 0).await, total(&tablet, 1).await],
        ["105", "105"]
    );
    wait_for_text(&tablet, "#round-details", "escapes").await;
    wait_for_text(&tablet, "#jack-steps", "nobody is Jack").await;
    wait_for_text(&tablet, "#deal-convention", "passes the deal to the left").await;
    wait_for_text(
        &ben,
        "#phone-deal-convention",
        "passes the deal to the left",
    )
    .await;

    // Round 3: the draw pile runs out twice; Ann's 3 points win.
    end_round(&tablet, "draw_pile_out_twice").await;
    type_in(&tablet, "victims-and-scenes", "3").await;
    act(&tablet, "#score-round").await;
    wait_for_text(&tablet, "#rummy-end", "Ann wins with 108").await;
    wait_for_text(&ben, "#phone", "Ann wins").await;
    screenshot(&tablet, "rummy-won-en-1280x800").await;
    // The ending fits the screen: nothing to scroll to.
    let tall = tablet
        .script("return document.documentElement.scrollHeight")
        .await;
    assert!(
        tall.as_u64().unwrap() <= 800,
        "the ending is {tall} px tall"
    );

    // A correction to round 3 changes the winner; undo takes it back.
    tap(&tablet, "#scoreboard [data-round='2'] button").await;
    tap(&tablet, "#correct-round").await;
    type_in(&tablet, "victims-and-scenes", "0").await;
    cards_of(&tablet, 1).await;
    type_in(&tablet, "victims-and-scenes", "5").await;
    act(&tablet, "#score-round").await;
    wait_for_text(&tablet, "#rummy-end", "Ben wins with 110").await;
    act(&tablet, "#undo").await;
    wait_for_text(&tablet, "#rummy-end", "Ann wins").await;

    // "?" tells a round from the deal to the score; the scorepad has no board for steps.
    tap(&tablet, "#help").await;
    wait_for_text(&tablet, "#help-panel", "Call a vote").await;
    assert!(!present(&tablet, "#guide-on").await);
    tap(&tablet, "#help-close").await;
    // The game is listed as Mystery Rummy and opens from the list.
    go(&tablet, &format!("{}/#/games", table.origin())).await;
    wait_for_text(
        &tablet,
        "#game-list [data-ruleset='mystery-rummy']",
        "Ann · Ben · Cleo",
    )
    .await;
    tap(&tablet, "#game-list [data-ruleset='mystery-rummy']").await;
    wait_for(&tablet, "#rummy-end").await;
    // In French, with the rulebook's words.
    tap(&tablet, ".languages button[lang='fr']").await;
    wait_for_text(&tablet, "#rummy-end", "l'emporte").await;
    screenshot(&tablet, "rummy-won-fr-1280x800").await;
    assert!(tablet.find(Locator::Css("#printed")).await.is_ok());

    // Play again: one tap; the table and both phones go on to the new game, round 1 with a
    // dealer drawn anew. The table offers each phone its seat, both ticked; it unticks
    // Ben's, whose phone is told its seat was given back (also after a reload), and takes
    // it again.
    for p in 0..2 {
        wait_for(
            &tablet,
            &format!("#rematch-seats [data-keep='player:{p}']:checked"),
        )
        .await;
    }
    tap(&tablet, "#rematch-seats [data-keep='player:1']").await;
    tap(&tablet, "#rematch").await;
    wait_for(&tablet, "#rummy-round #dealer").await;
    let next = fragment_number(&tablet, "/rummy/").await;
    assert_ne!(next, id);
    wait_for_text(&ann, "#phone-me", "Ann").await;
    wait_for_text(&ben, "#seats #given-back", "gave your seat back").await;
    screenshot(&ben, "rummy-phone-left-out-en-390x844").await;
    ben.refresh().await.unwrap();
    wait_for_text(&ben, "#seats #given-back", "gave your seat back").await;
    tap(&ben, "button[data-seat='player:1']").await;
    for (phone, name) in [(&ann, "Ann"), (&ben, "Ben")] {
        wait_for_text(phone, "#phone-me", name).await;
        assert_eq!(
            phone.current_url().await.unwrap().fragment(),
            Some(format!("/rummy/{next}/phone").as_str())
        );
    }
    assert!(!present(&ben, "#given-back").await);
    act(&ben, "#phone-call-vote").await;
    wait_for(&ann, "#phone-vote .suspect[data-suspect='0']").await;
    for client in [tablet, ann, ben] {
        client.close().await.unwrap();
    }
}
