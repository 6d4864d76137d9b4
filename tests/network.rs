//! The table's network as a game night has it, not loopback's: a phone at the table's name
//! on the network (no secure context) whose Wi-Fi drops every byte and every close for
//! 20 s (it says so within its heartbeat's 6 s, and a pawn tapped meanwhile says it is
//! sending and lands exactly once, though the table moved another pawn meanwhile), in each
//! engine; a join code typed
//! as people type it, a phone in its browser's language asking each of its first questions
//! once, and a phone whose page is reloaded
//! holding its alerts until a tap (the audio context's own state, not only what it says).

use std::time::{Duration, Instant};

use fantoccini::Client;
use seance_e2e::lan::{NAME, Proxy};
use seance_e2e::{
    Browsers, Engine, Page, Table, Wifi, api, attr, go, pawn_cards, present, scan, screenshot,
    seated, sounds, tap, version, wait_for, wait_for_text,
};
use serde_json::json;

use crate::Test;
use crate::table::visions_given;

pub fn tests(p: u16) -> Vec<Test> {
    vec![(
        "network: a join code typed with spaces, a phone keyboard's dash and in lower case opens the table",
        Box::pin(typed_code(p)),
    )]
}

/// The tests each engine runs: a Wi-Fi drop, a phone opens in its browser's language, and
/// (WebKit, whose audio waits for a tap) its alerts after a reload.
pub fn in_engine(browsers: Browsers) -> Vec<Test> {
    let mut tests: Vec<Test> = vec![
        (
            match browsers.engine() {
                Engine::Chromium => {
                    "network: a Wi-Fi drop is seen within 6 s, and a pawn tapped in it lands once"
                }
                Engine::WebKit => {
                    "webkit: a Wi-Fi drop is seen within 6 s, and a pawn tapped in it lands once"
                }
                Engine::Firefox => {
                    "firefox: a Wi-Fi drop is seen within 6 s, and a pawn tapped in it lands once"
                }
            },
            Box::pin(wifi_drop(browsers.clone())),
        ),
        (
            match browsers.engine() {
                Engine::Chromium => "network: a French phone opens in French on an English table",
                Engine::WebKit => "webkit: a French phone opens in French on an English table",
                Engine::Firefox => "firefox: an Italian phone opens in Italian on an English table",
            },
            Box::pin(browser_language(browsers.clone())),
        ),
    ];
    if browsers.engine() == Engine::WebKit {
        tests.push((
            "webkit: after a reload, a phone's chime waits for a tap, and says so",
            Box::pin(alerts_after_reload(browsers)),
        ));
    }
    tests
}

/// A classic game of four psychics set up over the table's API, every vision given, the
/// sand timer long: each psychic may place their pawn.
async fn interpretation(tablet: &Client, table: &Table) -> u64 {
    visions_given(tablet, table, 4, 600).await
}

/// Whether `css` is shown on `client` (there, and not hidden).
async fn shown(client: &Client, css: &str) -> bool {
    present(client, &format!("{css}:not([hidden])")).await
}

async fn wifi_drop(browsers: Browsers) {
    let table = Table::start(0);
    let tablet = browsers.open(1280, 800).await;
    let id = interpretation(&tablet, &table).await;
    let port: u16 = table.origin().rsplit(':').next().unwrap().parse().unwrap();
    let wifi = Wifi::to(port).await;
    let proxy = Proxy::through(&wifi).await;
    let origin = format!("http://{NAME}:{port}");
    let phone = seated(&browsers, Some(&proxy), &table, &origin, id, "psychic:0").await;
    let pawn = "#phone-pawn button[data-card]";
    wait_for(&phone, pawn).await;
    let card = attr(&phone, pawn, "data-card").await.unwrap();
    let before = version(&phone).await;

    // The signal goes: nothing closes, nothing arrives. The page notes when, and when its
    // banner shows, on its own clock.
    wifi.drop_bytes(true);
    let dropped = Instant::now();
    phone
        .script("window.droppedAt = performance.now();
             new MutationObserver(() => {
               if (!window.saidAt && !document.getElementById('offline').hidden) window.saidAt = performance.now();
             }).observe(document.getElementById('offline'), { attributes: true });").await;
    tokio::time::sleep(Duration::from_secs(2)).await;
    tap(&phone, &format!("#phone-pawn button[data-card='{card}']")).await;
    // Said at once: the tap is on its way.
    let tapped = Instant::now();
    while !shown(&phone, "#sending").await {
        assert!(
            tapped.elapsed() < Duration::from_secs(2),
            "the pawn tapped in the drop says nothing"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    // A beat missed and the next late: the phone says it has lost the table.
    wait_for(&phone, "#offline:not([hidden])").await;
    let said = phone
        .script("return window.saidAt - window.droppedAt")
        .await
        .as_f64()
        .unwrap();
    eprintln!("the drop was said {said:.0} ms into it");
    assert!(said < 6000.0, "the banner {said:.0} ms into the drop");
    assert!(shown(&phone, "#sending").await, "still sending, said so");
    wait_for_text(&phone, "#sending", "as soon as the table answers").await;
    screenshot(&phone, "network-drop-sending-en-390x844").await;
    assert_eq!(version(&phone).await, before, "nothing landed in the drop");
    // Meanwhile the table moves another psychic's pawn: the phone's, sent on the version
    // before it, touches nothing it changed, and lands all the same.
    let layout = api(&tablet, "GET", &format!("/mysterium/{id}"), json!(null)).await;
    let theirs = &layout["view"]["layout"]["characters"][1];
    let moved = json!({"command": {"type": "place_intuition", "psychic": 1, "card": theirs}, "version": before});
    api(&tablet, "POST", &format!("/mysterium/{id}/commands"), moved).await;
    let held = Duration::from_secs(20).saturating_sub(dropped.elapsed());
    tokio::time::sleep(held).await;

    // The signal is back: the pawn lands, once.
    wifi.drop_bytes(false);
    let back = Instant::now();
    wait_for(
        &phone,
        &format!("#phone-pawn button[data-card='{card}'][aria-pressed='true']"),
    )
    .await;
    while shown(&phone, "#sending").await || shown(&phone, "#offline").await {
        assert!(
            back.elapsed() < Duration::from_secs(10),
            "still sending or offline after the drop"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    eprintln!("the pawn landed {:?} after the drop ended", back.elapsed());
    // The first request, held, reached the table, and so did the one sent again: one
    // change, the second acknowledged as the first.
    tokio::time::sleep(Duration::from_secs(1)).await;
    assert!(wifi.commands() >= 2, "{} commands carried", wifi.commands());
    let now = api(&tablet, "GET", &format!("/mysterium/{id}"), json!(null)).await;
    assert_eq!(
        now["version"],
        json!(before + 2),
        "the table's change and the phone's, once"
    );
    assert_eq!(
        now["view"]["psychics"][0]["intuition"],
        json!(card.parse::<u64>().unwrap())
    );
    assert_eq!(now["view"]["psychics"][1]["intuition"], *theirs);
    assert_eq!(version(&phone).await, before + 2);

    // A shorter drop, whose held request the table still reads once let through (the first
    // one's had waited past the table's 10 s for a request's head): the pawn moved in it
    // arrives twice, the second time acknowledged as done, never refused as stale.
    let other = pawn_cards(&phone)
        .await
        .into_iter()
        .find(|c| *c != card)
        .unwrap();
    wifi.drop_bytes(true);
    tokio::time::sleep(Duration::from_secs(1)).await;
    tap(&phone, &format!("#phone-pawn button[data-card='{other}']")).await;
    wait_for(&phone, "#offline:not([hidden])").await;
    tokio::time::sleep(Duration::from_secs(2)).await;
    wifi.drop_bytes(false);
    wait_for(
        &phone,
        &format!("#phone-pawn button[data-card='{other}'][aria-pressed='true']"),
    )
    .await;
    tokio::time::sleep(Duration::from_secs(1)).await;
    eprintln!(
        "commands carried: {}, refused as stale: {}",
        wifi.commands(),
        wifi.stale()
    );
    assert!(wifi.commands() >= 4, "{} commands carried", wifi.commands());
    assert_eq!(
        wifi.stale(),
        0,
        "a command was refused as stale or conflicting"
    );
    assert_eq!(version(&phone).await, before + 3, "one change, not two");
    for client in [tablet, phone] {
        client.close().await.unwrap();
    }
}

async fn typed_code(driver: u16) {
    let table = Table::start(0);
    let phone = Browsers::chromium(driver).open(390, 844).await;
    go(&phone, table.origin()).await;
    wait_for(&phone, "#code-input").await;
    // As read off the table's screen and typed: lower case, spaces and the dash a phone's
    // keyboard makes of "--" (an en dash, which no header may carry), and the look-alike
    // letters a person may type for the digits.
    let (first, last) = table.code().split_at(5);
    let typed = format!("{first} – {last}")
        .to_lowercase()
        .replace('1', "l")
        .replace('0', "o");
    wait_for(&phone, "#code-input")
        .await
        .send_keys(&typed)
        .await
        .unwrap();
    tap(&phone, "#code-entry button[type='submit']").await;
    wait_for(&phone, "#home").await;
    // Every use of the code works: the socket, and the QR code's image asked with it.
    wait_for(&phone, "#connection[data-state='open']").await;
    let qr_loaded = "return [...document.images].filter((i) => i.src.includes('/api/qr.png')).every((i) => i.complete && i.naturalWidth > 0)";
    let deadline = Instant::now() + Duration::from_secs(10);
    while phone.script(qr_loaded).await != json!(true) {
        assert!(Instant::now() < deadline, "the QR code did not load");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let kept = phone
        .script("return localStorage.getItem('seance.code')")
        .await;
    assert_eq!(
        kept,
        json!(format!("{first}-{last}")),
        "kept as the table shows it"
    );
    phone.close().await.unwrap();
}

async fn browser_language(browsers: Browsers) {
    let (lang, speaks, title) = match browsers.engine() {
        Engine::Firefox => ("it-IT", "it", "Prendi il tuo posto"),
        _ => ("fr-FR", "fr", "Prenez votre place"),
    };
    let table = Table::start(0);
    let tablet = browsers.open(1280, 800).await;
    let id = interpretation(&tablet, &table).await;
    let phone = browsers.open_speaking(390, 844, lang).await;
    scan(&phone, &table).await;
    let deadline = Instant::now() + Duration::from_secs(10);
    while !present(&phone, &format!("html[lang='{speaks}'] #home")).await {
        let said = phone
            .script("return [navigator.languages, document.documentElement.lang]")
            .await;
        assert!(
            Instant::now() < deadline,
            "the phone speaks {said}, not {speaks}"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    go(&phone, &format!("{}/#/join/{id}", table.origin())).await;
    wait_for_text(&phone, "#seats h1", title).await;
    // Opened again, its questions are asked once each as the page is read (`ask.js`), the
    // app taking their answers: the table's facts and the game, read as the seat picker
    // reads it.
    phone.refresh().await.unwrap();
    wait_for_text(&phone, "#seats h1", title).await;
    let asked = phone
        .script("return performance.getEntriesByType('resource').map((e) => new URL(e.name).pathname + new URL(e.name).search).filter((p) => p.startsWith('/api/') && !p.startsWith('/api/manifest'))")
        .await;
    assert_eq!(
        asked,
        json!(["/api/info", format!("/api/mysterium/{id}?role=table")]),
        "each question asked once"
    );
    // The table changes its language: it speaks it, the phone keeps its browser's.
    let other = if speaks == "it" { "fr" } else { "it" };
    let mut settings = api(&tablet, "GET", "/settings", json!(null)).await;
    settings["language"] = json!(other);
    api(&tablet, "PUT", "/settings", settings).await;
    wait_for(&tablet, &format!("html[lang='{other}']")).await;
    tokio::time::sleep(Duration::from_secs(1)).await;
    wait_for_text(&phone, &format!("html[lang='{speaks}'] #seats h1"), title).await;
    // Chosen on the phone, its choice wins over the browser's.
    tap(&phone, "nav.languages button[lang='en']").await;
    wait_for_text(&phone, "#seats h1", "Take your seat").await;
    phone.refresh().await.unwrap();
    wait_for_text(&phone, "#seats h1", "Take your seat").await;
    for client in [tablet, phone] {
        client.close().await.unwrap();
    }
}

/// The audio context's state on `phone`, as its sound player says it on the page's root.
async fn audio(phone: &Client) -> Option<String> {
    let said = phone
        .script("return document.documentElement.dataset.audio ?? null")
        .await;
    said.as_str().map(str::to_owned)
}

async fn alerts_after_reload(browsers: Browsers) {
    let table = Table::start(0);
    let tablet = browsers.open(1280, 800).await;
    let id = visions_given(&tablet, &table, 3, 2).await;
    let phone = seated(&browsers, None, &table, table.origin(), id, "psychic:1").await;
    // Reloaded (a phone that slept, a tab brought back): no tap on this page yet.
    phone.refresh().await.unwrap();
    wait_for(&phone, "#phone[data-role='psychic:1'][data-version]").await;
    // The last vision starts the sand, which runs out: something for every psychic. The
    // chime cannot sound yet, and is not counted as played.
    let version =
        api(&tablet, "GET", &format!("/mysterium/{id}"), json!(null)).await["version"].clone();
    api(
        &tablet,
        "POST",
        &format!("/mysterium/{id}/commands"),
        json!({"version": version, "command": {"type": "give_vision", "psychic": 3}}),
    )
    .await;
    wait_for(&phone, "#phone[data-phase='manifestation']").await;
    // Past the time a chime is given to start (a second).
    tokio::time::sleep(Duration::from_millis(1500)).await;
    wait_for(&phone, "#alerts-held").await;
    let (cues, _) = sounds(&phone).await;
    assert!(
        !cues.iter().any(|c| c["name"] == "chime"),
        "a chime counted while the audio context was {:?}: {cues:?}",
        audio(&phone).await
    );
    assert_ne!(audio(&phone).await.as_deref(), Some("running"));
    screenshot(&phone, "webkit-phone-alerts-held-en-390x844").await;
    // One tap lets the alerts out: the context runs, and the line goes.
    tap(&phone, "#alerts-held").await;
    let deadline = Instant::now() + Duration::from_secs(3);
    while audio(&phone).await.as_deref() != Some("running") {
        assert!(
            Instant::now() < deadline,
            "the audio context is {:?} after the tap",
            audio(&phone).await
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let deadline = Instant::now() + Duration::from_secs(5);
    while present(&phone, "#alerts-held").await {
        assert!(
            Instant::now() < deadline,
            "the tap did not let the alerts out"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    for client in [tablet, phone] {
        client.close().await.unwrap();
    }
}
