//! Phones at the table, in each engine people's browsers run (Chromium, WebKit as on every
//! iPhone, Firefox): a tablet and five phones (the ghost and four psychics) play whole
//! turns from the phones — visions, pawns, clairvoyancy tokens, the ghost's answers and
//! knocks — and Phase 2 with the culprit and the staged secret votes cast on the phones; a
//! phone reloads and finds its seat; the server is lost and comes back; a freed seat's
//! phone is told. Each phone's bar fits one line and nothing covers what it must show.

use std::time::Duration;

use fantoccini::Client;
use seance_e2e::{
    Browsers, Engine, Page, Table, accessibility_violations, act, attr, cdp, chromium_at_name, go,
    misfits, phone_on_seats_speaking, played, present, said, says, screenshot, screenshot_qr,
    sounds, speak, speak_browsers, tap, taps, text, wait_for, wait_for_said, wait_for_text,
};
use serde_json::json;

use crate::Test;
use crate::table::{offered, set_up};

pub fn tests(p: u16) -> Vec<Test> {
    let mut tests = in_engine(Browsers::chromium(p));
    tests.push((
        "phones: a phone at the table's network address is told its screen may sleep",
        Box::pin(told_it_may_sleep(p)),
    ));
    tests
}

/// Over the table's network address or name (http, not a secure origin) no browser gives a
/// page the wake lock: the phone keeps its screen on with the silent video instead
/// (`awake.rs`). Where that will not play either (here its files are blocked, as for a
/// browser that cannot play them), the phone says so once, on its screen under its bar, with
/// what to do; closed, it is not said again, and its menu keeps saying it.
async fn told_it_may_sleep(driver: u16) {
    let table = Table::start(0);
    let browsers = Browsers::chromium(driver);
    let tablet = browsers.open(1280, 800).await;
    let id = set_up(&tablet, &table, &["Laura", "Stephanie", "Alex"], false).await;
    let phone = chromium_at_name(driver, "seance-table.local").await;
    cdp(&phone, "Network.enable", json!({})).await;
    cdp(
        &phone,
        "Network.setBlockedURLs",
        json!({"urls": ["*/awake/silence.*"]}),
    )
    .await;
    let address = table.phone_url.replace("127.0.0.1", "seance-table.local");
    go(&phone, &address).await;
    wait_for(&phone, "#home").await;
    let origin = address.split("/?").next().unwrap();
    go(&phone, &format!("{origin}/#/join/{id}")).await;
    tap(&phone, "button[data-seat='psychic:0']").await;
    let seated = "#phone[data-role='psychic:0'][data-version]";
    wait_for(&phone, seated).await;
    // Tried at once (the seat's tap let the page play sound), or at the next tap.
    tap(&phone, "#phone-me").await;
    wait_for(&phone, "html[data-awake='missing']").await;
    let said = wait_for_text(&phone, "#awake-notice", "may go to sleep").await;
    assert!(said.contains("auto-lock"), "{said}");
    // In the page, above the phone's body: not in its bar, which stays one line.
    let placed = phone
        .script("const n = document.getElementById('awake-notice');
             return [n.closest('.phone-top') !== null, n.nextElementSibling.classList.contains('phone-body')];").await;
    assert_eq!(placed, json!([false, true]));
    let height = bar_height(&phone).await;
    assert!(height <= 100.0, "the bar is {height} px high");
    screenshot(&phone, "phone-may-sleep-en-390x844").await;
    // The notice fits (the bar's own fit is judged with the whole game's phones).
    let found = misfits(&phone, true).await;
    assert!(
        !found.iter().any(|m| m.contains("awake")),
        "the phone with its notice: {found:?}"
    );
    tap(&phone, "#phone-menu > summary").await;
    wait_for_text(&phone, "#phone-awake", "cannot keep the screen on").await;
    screenshot(&phone, "phone-menu-may-sleep-en-390x844").await;
    tap(&phone, "#phone-menu > summary").await;
    // Closed, it is said no more: not as the screen is drawn again, nor after a reload and
    // the tap that tries again; the menu still says it.
    tap(&phone, "#awake-notice button").await;
    assert!(!present(&phone, "#awake-notice").await);
    phone.refresh().await.unwrap();
    wait_for(&phone, seated).await;
    tap(&phone, "#phone-me").await;
    wait_for(&phone, "html[data-awake='missing']").await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert!(!present(&phone, "#awake-notice").await, "said once");
    tap(&phone, "#phone-menu > summary").await;
    wait_for_text(&phone, "#phone-awake", "cannot keep the screen on").await;

    // A tablet on the table link at that name says it too, above the board.
    let proxy = seance_e2e::lan::Proxy::start().await;
    let far = browsers.open_at_name(1280, 800, &proxy).await;
    cdp(&far, "Network.enable", json!({})).await;
    cdp(
        &far,
        "Network.setBlockedURLs",
        json!({"urls": ["*/awake/silence.*"]}),
    )
    .await;
    go(
        &far,
        &table.local_url.replace("127.0.0.1", "seance-table.local"),
    )
    .await;
    wait_for(&far, "#home").await;
    go(&far, &format!("{origin}/#/game/{id}")).await;
    wait_for(&far, "#game[data-version]").await;
    // A tap on nothing that acts (the line under the bar), which lets the page play sound.
    tap(&far, "#last-change").await;
    wait_for(&far, "html[data-awake='missing']").await;
    wait_for_text(
        &far,
        "#game > #awake-notice + .board, #awake-notice",
        "may go to sleep",
    )
    .await;
    assert!(present(&far, "#game > #awake-notice + .board").await);
    screenshot(&far, "table-may-sleep-en-1280x800").await;
    for client in [tablet, phone, far] {
        client.close().await.unwrap();
    }
}

/// The language the phones' browsers are set to in `engine`'s whole game, and what Séance
/// speaks on them: one engine's in English, the others' in French and Italian (the table
/// speaks English in all).
fn phones_speak(engine: Engine) -> (&'static str, &'static str) {
    match engine {
        Engine::Chromium => ("en-US", "en"),
        Engine::WebKit => ("fr-FR", "fr"),
        Engine::Firefox => ("it-IT", "it"),
    }
}

/// The phones' whole game in `browsers`' engine.
pub fn in_engine(browsers: Browsers) -> Vec<Test> {
    let name = match browsers.engine() {
        Engine::Chromium => {
            "phones: the table, the ghost and four psychics play turns and a straw poll on their phones"
        }
        Engine::WebKit => {
            "webkit: phones play turns and a straw poll, lose the server and find it again"
        }
        Engine::Firefox => {
            "firefox: phones play turns and a straw poll, lose the server and find it again"
        }
    };
    vec![(name, Box::pin(table_and_five_phones(browsers)))]
}

/// A phone at the table, its browser in the engine's phones' language: opens the join
/// link, then takes `seat` in game `id`; the ghost's by the invitation `tablet` shows the
/// ghost alone.
async fn phone(browsers: &Browsers, table: &Table, tablet: &Client, id: u64, seat: &str) -> Client {
    let (locale, lang) = phones_speak(browsers.engine());
    let client = phone_on_seats_speaking(browsers, table, &format!("#/join/{id}"), locale).await;
    if seat == "ghost" {
        screenshot(
            &client,
            &browsers.shot(&format!("phone-seats-{lang}-390x844")),
        )
        .await;
        let found = accessibility_violations(&client).await;
        assert!(found.is_empty(), "the seats screen: {found:?}");
        // A phone fetches its own screens only, all under the page's version.
        let fetched = client
            .script("return performance.getEntriesByType('resource').map((e) => new URL(e.name).pathname)").await;
        let fetched: Vec<&str> = fetched
            .as_array()
            .unwrap()
            .iter()
            .filter_map(|p| p.as_str())
            .filter(|p| !p.starts_with("/api/"))
            .collect();
        assert!(
            fetched
                .iter()
                .any(|p| p.ends_with("/screens/mysterium/seats.js")),
            "{fetched:?}"
        );
        for table_only in [
            "screens/mysterium.js",
            "screens/mysterium/setup.js",
            "screens/games.js",
            "screens/rummy.js",
        ] {
            assert!(
                !fetched.iter().any(|p| p.ends_with(table_only)),
                "{table_only}: {fetched:?}"
            );
        }
        assert!(fetched.iter().all(|p| p.starts_with("/v/")), "{fetched:?}");
        // Chromium reads the manifest the page links without a fault: added to the home
        // screen, Séance opens again with the join code, and may be installed as an app.
        if browsers.engine() == Engine::Chromium {
            let manifest = cdp(&client, "Page.getAppManifest", json!({})).await;
            assert_eq!(manifest["errors"], json!([]), "{manifest}");
            let parsed: serde_json::Value =
                serde_json::from_str(manifest["data"].as_str().unwrap()).unwrap();
            assert_eq!(parsed["start_url"], format!("/?code={}", table.code()));
            let installable = cdp(&client, "Page.getInstallabilityErrors", json!({})).await;
            assert_eq!(
                installable["installabilityErrors"],
                json!([]),
                "{installable}"
            );
        }
        // The join code does not give the ghost's seat: the phone says where it is given.
        assert!(
            attr(&client, "button[data-seat='ghost']", "disabled")
                .await
                .is_some()
        );
        wait_for_said(
            &client,
            "#invitation-hint",
            lang,
            "join.invitation_hint",
            &[],
        )
        .await;
        take_invited(tablet, &client, table, id).await;
        return client;
    }
    tap(&client, &format!("button[data-seat='{seat}']")).await;
    wait_for(&client, &format!("#phone[data-role='{seat}']")).await;
    client
}

/// The ghost's seat as the table gives it: Phones, "Invite a phone" on the ghost's row,
/// the tablet passed to the ghost, whose phone scans the code shown them alone.
async fn take_invited(tablet: &Client, phone: &Client, table: &Table, id: u64) {
    tap(tablet, "#phones").await;
    wait_for_text(tablet, "#hidden [data-seat='ghost']", "by invitation").await;
    tap(tablet, "[data-invite='ghost']").await;
    assert!(
        !present(tablet, "#invitation-qr").await,
        "not before the ghost holds the tablet"
    );
    tap(tablet, "#hidden-ready").await;
    wait_for(tablet, "#invitation-qr").await;
    let link = screenshot_qr(tablet, "invitation-1280x800").await;
    assert!(
        link.starts_with(&format!("{}#/join/{id}/ghost/", table.join_url)),
        "{link}"
    );
    // The phone opens it on this machine, as it would at the LAN address.
    go(phone, &link.replacen(&table.join_url, &table.phone_url, 1)).await;
    wait_for(phone, "#phone[data-role='ghost'][data-version]").await;
    wait_for_text(tablet, "#hidden h2", "on your phone now").await;
    tap(tablet, "#hidden-done").await;
    wait_for_text(tablet, "#hidden [data-seat='ghost']", "on a phone").await;
    tap(tablet, "#hidden-done").await;
}

/// The card the ghost's phone says psychic `i` is to be led to now.
async fn secret_card(ghost: &Client, i: usize) -> String {
    text(
        ghost,
        &format!("#phone-psychics [data-psychic='{i}'] .secret-card"),
    )
    .await
}

/// One turn from the phones: the ghost gives the visions, each psychic puts their pawn
/// on their card, the table calls time, the ghost reveals the answers.
async fn turn(
    browsers: &Browsers,
    tablet: &Client,
    ghost: &Client,
    psychics: &[Client],
    tokens: bool,
) {
    // Each phone says what its player does now.
    wait_for(ghost, "#phone-now[data-now='give']").await;
    let searching = offered(ghost, "data-vision").await;
    wait_for(
        &psychics[searching[0]],
        "#phone-now[data-now='wait_vision']",
    )
    .await;
    let mut cards = Vec::new();
    for &i in &searching {
        cards.push((i, secret_card(ghost, i).await));
        act(ghost, &format!("button[data-vision='{i}']")).await;
    }
    wait_for(&psychics[searching[0]], "#phone-now[data-now='place_pawn']").await;
    // A vision given starts the psychic's turn afresh: last hour's news is gone.
    assert!(!present(&psychics[searching[0]], "#phone-news").await);
    for (i, card) in cards {
        act(
            &psychics[i],
            &format!("#phone-pawn .chip[data-card='{card}']"),
        )
        .await;
    }
    if tokens {
        // Alex agrees with Stephanie; Carl disagrees with Paul, then changes his mind.
        act(
            &psychics[1],
            "#phone-tokens [data-on='0'] .token[data-kind='agree']",
        )
        .await;
        act(
            &psychics[2],
            "#phone-tokens [data-on='3'] .token[data-kind='disagree']",
        )
        .await;
        act(
            &psychics[2],
            "#phone-tokens [data-on='3'] .token[data-kind='disagree']",
        )
        .await;
        act(
            &psychics[2],
            "#phone-tokens [data-on='3'] .token[data-kind='disagree']",
        )
        .await;
        wait_for(
            tablet,
            "[data-psychic='0'] .token[data-by='1'][data-face='agree']",
        )
        .await;
        // The table's tiles mark the psychics who play on their phones.
        for i in 0..4 {
            let badge =
                format!("#psychics [data-psychic='{i}'][data-on-phone='true'] .on-phone-badge");
            assert!(present(tablet, &badge).await, "psychic {i} on a phone");
        }
        screenshot(tablet, &browsers.shot("phones-tablet-turn-1280x800")).await;
        // The ghost's phone runs the sand timer too.
        tap(ghost, "#timer-pause").await;
        wait_for(tablet, "#sand-timer[data-state='paused']").await;
        tap(ghost, "#timer-resume").await;
        wait_for(tablet, "#sand-timer[data-state='running']").await;
        // A phone that reloads mid-turn comes back to its seat and its pawn.
        psychics[3].refresh().await.unwrap();
        wait_for(
            &psychics[3],
            "#phone[data-role='psychic:3'] #phone-pawn .chip[aria-pressed='true']",
        )
        .await;
        let (_, lang) = phones_speak(browsers.engine());
        screenshot(
            &psychics[1],
            &browsers.shot(&format!("phone-psychic-{lang}-390x844")),
        )
        .await;
        // Each row's ✓ and ✗ sit side by side at 390 px, a face pressed or not.
        let split = psychics[1]
            .script("return [...document.querySelectorAll('#phone-tokens .phone-row')].filter(row => {
                   const [agree, disagree] = row.querySelectorAll('.token');
                   return agree && disagree && agree.getBoundingClientRect().top !== disagree.getBoundingClientRect().top;
                 }).map(row => row.textContent)").await;
        assert_eq!(split, serde_json::json!([]), "✓ and ✗ wrapped apart");
        screenshot(
            ghost,
            &browsers.shot(&format!("phone-ghost-{lang}-390x844")),
        )
        .await;
        for (name, client) in [("ghost", ghost), ("psychic", &psychics[1])] {
            let found = accessibility_violations(client).await;
            assert!(found.is_empty(), "the {name}'s phone: {found:?}");
        }
    }
    act(tablet, "#timer-end").await;
    // The table called time; the ghost's phone learns it a moment later.
    wait_for(ghost, "#phone-now[data-now='answer']").await;
    // A psychic's phone says the ghost reveals the answers (Séance keeps the secrets: in
    // one tap), not that it answers each psychic in turn.
    wait_for(&psychics[0], "#phone-now[data-now='wait_reveal']").await;
    // Every answer in one tap, as on the table, while more than one is to come.
    let answers = offered(ghost, "data-manifest").await;
    if answers.len() > 1 {
        act(ghost, "#every-answer").await;
        wait_for(ghost, "#phone-psychics:not(:has([data-manifest]))").await;
    } else {
        for i in answers {
            act(ghost, &format!("[data-manifest='{i}']")).await;
        }
    }
}

async fn table_and_five_phones(browsers: Browsers) {
    let browsers = &browsers;
    // The phones speak their browsers' language; the table, its own (English).
    let (_, lang) = phones_speak(browsers.engine());
    let table = Table::start(0);
    let tablet = browsers.open(1280, 800).await;
    let id = set_up(
        &tablet,
        &table,
        &["Laura", "Stephanie", "Alex", "Carl", "Paul"],
        false,
    )
    .await;
    let ghost = phone(browsers, &table, &tablet, id, "ghost").await;
    let mut psychics = Vec::new();
    for i in 0..4 {
        psychics.push(phone(browsers, &table, &tablet, id, &format!("psychic:{i}")).await);
    }
    // The table lists the seats on phones and no longer shows the ghost's cards itself; its
    // code leads a phone's camera straight to this game's seats.
    tap(&tablet, "#phones").await;
    assert_eq!(
        screenshot_qr(&tablet, &browsers.shot("phones-panel-1280x800")).await,
        format!("{}#/join/{id}", table.join_url)
    );
    wait_for_text(&tablet, "#hidden [data-seat='psychic:3']", "on a phone").await;
    tap(&tablet, "#hidden-done").await;
    assert!(!present(&tablet, "#ghost-look").await);

    turn(browsers, &tablet, &ghost, &psychics, true).await;
    wait_for_text(&tablet, "#clock", "II").await;
    let recalled = text(&tablet, "#last-turn").await;
    assert!(
        recalled.contains("Stephanie took card") && recalled.contains("+1 for Alex"),
        "{recalled}"
    );
    // Each psychic's phone says what befell them: Alex was right, and so was his ✓ on
    // Stephanie; Carl's ✗ on Paul, turned over and back, did not score.
    let scored = [("name", "Stephanie")];
    wait_for_said(
        &psychics[1],
        "#phone-news",
        lang,
        "news.token_scored",
        &scored,
    )
    .await;
    // "You were right: card", before the card's number.
    let right = &said(lang, "news.right", &[])[..1];
    let alex = text(&psychics[1], "#phone-news").await;
    assert!(says(&alex, right), "{alex}");
    let carl = text(&psychics[2], "#phone-news").await;
    assert!(
        says(&carl, right) && !says(&carl, &said(lang, "news.token_scored", &[])),
        "{carl}"
    );
    screenshot(
        &psychics[1],
        &browsers.shot(&format!("phone-psychic-news-{lang}-390x844")),
    )
    .await;
    for (name, client) in [("psychic", &psychics[1]), ("ghost", &ghost)] {
        let found = misfits(client, true).await;
        assert!(found.is_empty(), "the {name}'s phone: {found:?}");
    }

    // The ghost knocks on the phone; the table hears it.
    tap(&ghost, "#knock-2").await;
    let deadline = std::time::Instant::now() + Duration::from_secs(10);
    while tablet
        .script("return document.documentElement.dataset.knockAt ?? null")
        .await
        .is_null()
    {
        assert!(
            std::time::Instant::now() < deadline,
            "the table did not hear the knock"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert!(
        played(&sounds(&tablet).await.0, "knock", Some(2)),
        "two knocks: no"
    );
    wait_for_said(&ghost, "#toast", lang, "phone.knocked_no", &[]).await;
    assert_eq!(covered(&ghost).await, Vec::<String>::new(), "the toast");
    screenshot(
        &ghost,
        &browsers.shot(&format!("phone-ghost-toast-{lang}-390x844")),
    )
    .await;
    let before = taps(&psychics[3]).await;
    menus(browsers, lang, &ghost, &psychics).await;
    let detours = taps(&psychics[3]).await - before;
    let _table = server_lost_and_back(browsers, lang, table, &ghost, &psychics).await;
    assert!(
        !played(&sounds(&ghost).await.0, "knock", None),
        "the ghost's phone stays silent"
    );

    turn(browsers, &tablet, &ghost, &psychics, false).await;
    // The sand ran out again: Alex's phone chimed, Paul's, switched off, did not.
    if browsers.engine() != Engine::Chromium {
        assert!(chimed(browsers, &psychics[1]).await);
        assert!(!played(&sounds(&psychics[3]).await.0, "chime", None));
    }
    turn(browsers, &tablet, &ghost, &psychics, false).await;
    wait_for(&tablet, "#game[data-phase='revelation']").await;

    // Phase 2: the ghost seals the culprit on the phone; the table turns the cards; each
    // level votes on its phones, sealed; the table counts.
    wait_for_text(&tablet, "#stage", "in secret, on their phone").await;
    assert_eq!(
        text(&tablet, "#stage").await.matches("in secret").count(),
        1,
        "the ghost's part said once"
    );
    // Phase 1's last answer is still news on each psychic's phone, until they vote.
    for phone in &psychics {
        wait_for(phone, "#phone-news").await;
    }
    tap(&ghost, "#phone-culprit .group[data-group='2']").await;
    act(&ghost, "#phone-seal").await;
    act(&tablet, "#reveal-card").await;
    wait_for_text(&tablet, "#shared-vision", "votes on their phone").await;
    assert!(
        offered(&tablet, "data-vote").await.is_empty(),
        "the table enters no phone's vote"
    );
    // "…after card 2 of the shared vision", at Alex's level.
    let second = [("n", "2")];
    wait_for_said(
        &psychics[1],
        "#phone-now",
        lang,
        "phone.now.wait_card",
        &second,
    )
    .await;
    for i in [0, 2, 3] {
        tap(&psychics[i], "#phone-vote .group[data-group='2']").await;
        act(&psychics[i], "#phone-seal").await;
        wait_for_said(&psychics[i], "#phone-vote", lang, "phone.voted", &second).await;
    }
    let alex = text(&psychics[1], "#phone").await;
    assert!(
        !says(&alex, &said(lang, "phone.voted", &[])),
        "Alex's phone shows nothing of the others' votes: {alex}"
    );
    act(&tablet, "#reveal-card").await;
    tap(&psychics[1], "#phone-vote .group[data-group='2']").await;
    act(&psychics[1], "#phone-seal").await;
    wait_for(&tablet, "#stage[data-outcome='won']").await;
    wait_for_said(&psychics[0], "#phone-outcome", lang, "outcome.won", &[]).await;
    // The game over, the phones may sleep again.
    wait_for(&psychics[0], "html[data-awake='off']").await;
    screenshot(&tablet, &browsers.shot("phones-table-won-1280x800")).await;
    // What the game cost in taps, every screen together, the knock, the timer's pause and
    // resume and the menus aside: each phone's own taps take the tablet's place.
    let on_tablet = taps(&tablet).await;
    let mut all = on_tablet;
    for client in psychics.iter().chain([&ghost]) {
        all += taps(client).await;
    }
    eprintln!(
        "taps for a whole 5-player game with phones: {} in all, {on_tablet} on the tablet",
        all - 3 - detours
    );

    // The table frees Paul's seat: his phone is told, on the spot and after a reload, and
    // can take a seat again.
    tap(&tablet, "#phones").await;
    tap(&tablet, "#hidden button[data-free='psychic:3']").await;
    wait_for_text(&tablet, "#hidden [data-seat='psychic:3']", "free").await;
    let given_back = |paul| wait_for_said(paul, "#seats #given-back", lang, "join.given_back", &[]);
    given_back(&psychics[3]).await;
    screenshot(
        &psychics[3],
        &browsers.shot(&format!("phone-seat-given-back-{lang}-390x844")),
    )
    .await;
    psychics[3].refresh().await.unwrap();
    given_back(&psychics[3]).await;
    tap(&psychics[3], "button[data-seat='psychic:3']").await;
    wait_for(&psychics[3], "#phone[data-role='psychic:3'][data-version]").await;
    assert!(!present(&psychics[3], "#given-back").await);
    for client in [tablet, ghost].into_iter().chain(psychics) {
        client.close().await.unwrap();
    }
}

/// Whether `phone` chimed for its player: a chime counts as played only while the phone's
/// audio runs. Headless Firefox here has no audio device, so its audio never runs: there the
/// phone, unable to chime, must say so instead (its line asking for a tap to let alerts
/// out), never count a chime it did not play.
async fn chimed(browsers: &Browsers, phone: &Client) -> bool {
    let counted = played(&sounds(phone).await.0, "chime", None);
    if browsers.engine() != Engine::Firefox {
        return counted;
    }
    // The chime is given a second to start before it counts as unheard.
    let deadline = std::time::Instant::now() + Duration::from_secs(5);
    while std::time::Instant::now() < deadline {
        if played(&sounds(phone).await.0, "chime", None) || present(phone, "#alerts-held").await {
            return true;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    false
}

/// What a toast or the reconnect banner on `phone` covers of what it must show: its
/// player's name, its sand timer, its pawn and main buttons, at the top of its page (where
/// they sit; scrolled, they pass under the bar with the rest of the page).
async fn covered(phone: &Client) -> Vec<String> {
    let found = phone
        .script("window.scrollTo(0, 0);
             const shown = [...document.querySelectorAll('#phone-me, #sand-timer, #phone button.primary, #phone .knocks button, #phone-pawn .chip')]
               .filter((el) => !el.closest('.reserved'));
             const meet = (a, b) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
             return [...document.querySelectorAll('#toast:not([hidden]), #offline:not([hidden])')].flatMap((over) =>
               shown.filter((el) => meet(over.getBoundingClientRect(), el.getBoundingClientRect()))
                 .map((el) => `#${over.id} covers ${el.id || el.className} ${el.textContent.trim().slice(0, 20)}`))").await;
    serde_json::from_value(found).unwrap()
}

/// How tall `phone`'s bar is, in CSS pixels.
async fn bar_height(phone: &Client) -> f64 {
    phone
        .script("return document.querySelector('.phone-bar').getBoundingClientRect().height")
        .await
        .as_f64()
        .unwrap()
}

/// Each phone's menu: its language (the bar stays one line in each), the chime where the
/// phone cannot buzz, and whether its screen is kept awake, said in its words. Paul's
/// phone, its browser in `speaks`, is left speaking it again.
async fn menus(browsers: &Browsers, speaks: &str, ghost: &Client, psychics: &[Client]) {
    let buzzes = browsers.engine() == Engine::Chromium;
    let paul = &psychics[3];
    // The others first, each tap changing the language; its browser's last.
    let others = ["en", "fr", "it"].into_iter().filter(|&l| l != speaks);
    for lang in others.chain([speaks]) {
        tap(paul, "#phone-menu > summary").await;
        tap(paul, &format!("#phone-menu button[lang='{lang}']")).await;
        wait_for(paul, &format!("html[lang='{lang}'] #phone-menu[open]")).await;
        let height = bar_height(paul).await;
        assert!(height <= 100.0, "{lang}: the bar is {height} px high");
        // Chromium and Firefox keep a seat's screen on at this address (a secure one) with
        // the wake lock; WebKit gives it inside a tap only, or, where its MiniBrowser
        // refuses it even then, the silent video plays from the next tap: either way, the
        // menu says which.
        let awake = attr(paul, "#phone-awake", "data-awake").await.unwrap();
        if browsers.engine() != Engine::WebKit {
            assert_eq!(awake, "held", "{lang}");
        }
        assert!(["held", "video"].contains(&awake.as_str()), "{awake}");
        assert!(!text(paul, "#phone-awake").await.is_empty());
        assert_eq!(
            present(paul, "#phone-chime").await,
            !buzzes,
            "the chime is offered where the phone cannot buzz"
        );
        screenshot(paul, &browsers.shot(&format!("phone-menu-{lang}-390x844"))).await;
        tap(paul, "#phone-menu > summary").await;
    }
    for phone in psychics.iter().chain([ghost]) {
        let height = bar_height(phone).await;
        assert!(height <= 100.0, "the bar is {height} px high");
    }
    // Where it cannot buzz, the phone chimed when the sand ran out and when news came (its
    // first tap let its sound out); where it can, it buzzed instead. Paul switches his off.
    assert_eq!(chimed(browsers, &psychics[1]).await, !buzzes);
    if !buzzes {
        tap(paul, "#phone-menu > summary").await;
        tap(paul, "#phone-chime").await;
        wait_for(paul, "#phone-chime:not(:checked)").await;
        tap(paul, "#phone-menu > summary").await;
    }
    // Chosen in the menu, the language is the phone's own: forgotten, its browser's again.
    speak_browsers(paul).await;
    paul.refresh().await.unwrap();
    wait_for(
        paul,
        &format!("html[lang='{speaks}'] #phone[data-role='psychic:3'][data-version]"),
    )
    .await;
}

/// The table's server stops mid-game and comes back on its port: each phone, in its own
/// language (Stephanie's and Paul's chosen on them, the two their browsers, in `speaks`,
/// do not; the ghost's its browser's), says so without covering what it shows, its
/// buttons waiting; back, it says so and keeps its seat. Stephanie's and Paul's phones
/// then speak their browsers' language again.
async fn server_lost_and_back(
    browsers: &Browsers,
    speaks: &str,
    table: Table,
    ghost: &Client,
    psychics: &[Client],
) -> Table {
    let mut others = ["en", "fr", "it"].into_iter().filter(|&l| l != speaks);
    let chosen = [
        (&psychics[0], others.next().unwrap()),
        (&psychics[3], others.next().unwrap()),
    ];
    for (phone, lang) in chosen {
        speak(phone, lang).await;
        phone.refresh().await.unwrap();
        wait_for(phone, &format!("html[lang='{lang}'] #phone[data-version]")).await;
    }
    let port: u16 = table.origin().rsplit(':').next().unwrap().parse().unwrap();
    let dir = table.crash();
    for (phone, lang) in chosen.into_iter().chain([(ghost, speaks)]) {
        wait_for(phone, "#offline:not([hidden])").await;
        assert_eq!(covered(phone).await, Vec::<String>::new(), "{lang}");
        let height = bar_height(phone).await;
        assert!(height <= 100.0, "{lang}: the bar is {height} px high");
        screenshot(
            phone,
            &browsers.shot(&format!("phone-server-lost-{lang}-390x844")),
        )
        .await;
    }
    let table = Table::start_in(port, dir);
    wait_for_said(ghost, "#toast", speaks, "offline.back", &[]).await;
    for phone in [&psychics[0], &psychics[3], ghost] {
        wait_for(phone, "#toast:not([hidden])").await;
        assert!(!present(phone, "#offline:not([hidden])").await);
        assert_eq!(covered(phone).await, Vec::<String>::new());
    }
    for (phone, _) in chosen {
        speak_browsers(phone).await;
        phone.refresh().await.unwrap();
        wait_for(
            phone,
            &format!("html[lang='{speaks}'] #phone[data-role^='psychic:'][data-version]"),
        )
        .await;
    }
    table
}
