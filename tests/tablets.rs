//! The table's screens on the tablets people bring, and the phones' headers, in Chromium and
//! in WebKit (Safari's engine: every iPad's and iPhone's). At 1024×768, 768×1024, 1180×820,
//! 820×1180, 1366×1024, 1280×800 and 800×1280, in English, French and Italian, every table
//! screen (a new game's setup, Phase 1 and Phase 2 at 7 players in both editions, the
//! ending, Mystery Rummy) fits, judged on bounding boxes by `support/fits.js`: nothing cut,
//! nothing over what is beside it (in the bar, its words included, or on the page), nothing
//! off the side or below the fold (a setup is a form, and a scorepad with its rounds a
//! record: they may scroll down). On phones (360×740, 390×844, 430×932) every header is 100
//! px high at most, a watcher's too, with the reconnect banner and the toast laid over the
//! page below it (the page stays where it was), and the help's close is in sight. Each
//! engine goes through the sizes in one page (its window resized) and the languages by
//! reloading it; every game is set up over the API. A tablet on the table link speaks its
//! browser's language until the table chooses one. Screenshots:
//! `tablet-<stage>-<lang>-<size>.png` (1024×768 in French and 768×1024 in Italian, and
//! wherever something did not fit) and `phones-…`, after the engine's name for WebKit.

use crate::Test;
// The layout tests' names (long, short, and alike) and languages.
use crate::layout::{LANGUAGES, NAMES};
use fantoccini::Client;
use seance_e2e::*;
use serde_json::{Value, json};
use std::time::Instant;

const TABLETS: [(u32, u32); 7] = [
    (1024, 768),
    (768, 1024),
    (1180, 820),
    (820, 1180),
    (1366, 1024),
    (1280, 800),
    (800, 1280),
];
const PHONES: [(u32, u32); 3] = [(360, 740), (390, 844), (430, 932)];

pub fn tests(port: u16) -> Vec<Test> {
    named(Browsers::chromium(port), "")
}

pub fn in_engine(browsers: Browsers) -> Vec<Test> {
    if browsers.engine() != Engine::WebKit {
        return Vec::new();
    }
    named(browsers, "webkit: ")
}

fn named(browsers: Browsers, engine: &'static str) -> Vec<Test> {
    let name = |what: &str| -> &'static str { format!("{engine}{what}").leak() };
    // One test a language: each stays well within its time on a loaded machine (all three
    // at once took over 120 s in WebKit with every core busy).
    let mut tests: Vec<Test> = Vec::new();
    for lang in LANGUAGES {
        let language = spoken(lang);
        tests.push((
            name(&format!(
                "tablets: Phase 1 fits seven tablet sizes in {language}"
            )),
            Box::pin(tablets(browsers.clone(), &PHASE_ONE, lang)),
        ));
        tests.push((
            name(&format!(
                "tablets: the setups, Phase 2, the ending and Mystery Rummy fit seven tablet sizes in {language}"
            )),
            Box::pin(tablets(browsers.clone(), &THE_REST, lang)),
        ));
    }
    tests.push((
        name("tablets: phones' headers stay low, their notices over the page, the help's close in sight"),
        Box::pin(phones(browsers.clone())),
    ));
    tests.push((
        name("tablets: a tablet on the table link speaks its browser's language until the table chooses"),
        Box::pin(languages(browsers)),
    ));
    tests
}

/// A table screen looked at: its name, and where a game stands for it.
#[derive(Clone, Copy, PartialEq)]
enum Stage {
    /// A new Mysterium game's setup (a form: it may scroll down).
    Setup,
    /// A new Mystery Rummy game's setup.
    RummySetup,
    /// The cards to lay out, before the first vision.
    Layout,
    /// The first vision given.
    Visions,
    /// The sand running, every token down.
    Interpretation,
    /// The first answer given.
    Manifestation,
    /// The new edition's interpretation: no sand timer, the table says when all are sure.
    NewInterpretation,
    /// The line-up, Phase 2's start.
    Revelation,
    /// The secret votes.
    Vote,
    /// The new edition's mediums deciding on a trace.
    NewDecision,
    /// The culprit found.
    Ended,
    /// A new scorepad.
    Rummy,
    /// A scorepad with a round scored, its details under it (a record that grows: it may
    /// scroll down).
    RummyRound,
}

const PHASE_ONE: [Stage; 5] = [
    Stage::Layout,
    Stage::Visions,
    Stage::Interpretation,
    Stage::Manifestation,
    Stage::NewInterpretation,
];
const THE_REST: [Stage; 8] = [
    Stage::Setup,
    Stage::RummySetup,
    Stage::Revelation,
    Stage::Vote,
    Stage::NewDecision,
    Stage::Ended,
    Stage::Rummy,
    Stage::RummyRound,
];

impl Stage {
    fn name(self) -> &'static str {
        match self {
            Stage::Setup => "setup",
            Stage::RummySetup => "rummy-setup",
            Stage::Layout => "layout",
            Stage::Visions => "visions",
            Stage::Interpretation => "interpretation",
            Stage::Manifestation => "manifestation",
            Stage::NewInterpretation => "new-interpretation",
            Stage::Revelation => "revelation",
            Stage::Vote => "vote",
            Stage::NewDecision => "new-decision",
            Stage::Ended => "ended",
            Stage::Rummy => "rummy",
            Stage::RummyRound => "rummy-round",
        }
    }

    /// What the screen draws once it shows this stage.
    fn ready(self) -> &'static str {
        match self {
            Stage::Setup => "#setup",
            Stage::RummySetup => "#rummy-setup",
            Stage::Layout => "#begin",
            Stage::Visions => "#stage.visions",
            Stage::Interpretation => "#timer-digits",
            Stage::Manifestation => "#stage.manifestation",
            Stage::NewInterpretation => "#convinced",
            Stage::Revelation => "#line-up",
            Stage::Vote => ".vote-now",
            Stage::NewDecision => "#agree",
            Stage::Ended => "#stage.ending",
            Stage::Rummy => "#rummy[data-version] #rummy-round",
            Stage::RummyRound => "#rummy[data-version] #round-details",
        }
    }
}

/// Sends `command` to a Mystery Rummy game at its current version.
async fn rummy_command(client: &Client, id: u64, command: Value) -> Value {
    let path = format!("/rummy/{id}");
    let version = api(client, "GET", &path, Value::Null).await["version"].clone();
    let body = json!({"version": version, "command": command});
    api(client, "POST", &format!("{path}/commands"), body).await["snapshot"].clone()
}

/// A new Mysterium game of 7 (the most tiles, the longest bar: the app keeps the secrets,
/// so the ghost's cards are in it), over the API through `client`, played on to `stage`:
/// its number.
async fn classic(client: &Client, stage: Stage) -> u64 {
    let colours = ["red", "yellow", "blue", "purple", "white", "green"];
    let players: Vec<Value> = (0..6)
        .map(|i| json!({"name": NAMES[i], "colours": [colours[i]]}))
        .collect();
    let setup = json!({"ghost": "Laura", "difficulty": "hard", "secrets": "app_kept",
        "track_bands": {"6-7": {"intermediate": 4, "high": 8}}, "players": players});
    let id = new_game(client, setup, 7).await;
    let timer = json!({"action": "duration", "seconds": 600});
    api(client, "POST", &format!("/mysterium/{id}/timer"), timer).await;
    if stage == Stage::Layout {
        return id;
    }
    let secrets = ghost_cards(client, id).await;
    let get =
        |id: u64| async move { api(client, "GET", &format!("/mysterium/{id}"), Value::Null).await };
    for k in 0..3 {
        for i in 0..6 {
            command(client, id, json!({"type": "give_vision", "psychic": i})).await;
            let card = &secrets[i][k];
            let pawn = json!({"type": "place_intuition", "psychic": i, "card": card});
            command(client, id, pawn).await;
            if stage == Stage::Visions {
                return id;
            }
        }
        // A token from each psychic on every pawn the rules offer: ✓ from the even, ✗ from
        // the odd.
        let mut snapshot = get(id).await;
        while let Some(token) = unplaced(&snapshot) {
            let mut place = first_choice(&token);
            if token["by"].as_u64().unwrap() % 2 == 1 {
                place["face"] = token["faces"].as_array().unwrap().last().unwrap().clone();
            }
            snapshot = command(client, id, place).await;
        }
        if stage == Stage::Interpretation {
            return id;
        }
        command(client, id, json!({"type": "end_interpretation"})).await;
        for i in 0..6 {
            command(client, id, json!({"type": "manifest", "psychic": i})).await;
            if stage == Stage::Manifestation {
                return id;
            }
        }
    }
    if stage == Stage::Revelation {
        return id;
    }
    // Phase 2, each step the first the rules offer (the count shown whole), to the end.
    let mut snapshot = get(id).await;
    while snapshot["view"]["phase"] != "ended" {
        let next = next_in_revelation(&snapshot);
        if next["type"] == "vote" && stage == Stage::Vote {
            return id;
        }
        snapshot = command(client, id, onward(&next)).await;
    }
    id
}

/// The page, reloaded, speaks `lang`.
async fn speak_afresh(client: &Client, lang: &str) {
    speak(client, lang).await;
    client.refresh().await.unwrap();
    wait_for(client, "#app > *").await;
}

/// `next` as a command with its first choice, a count read out to its last line.
fn onward(next: &Value) -> Value {
    let mut step = first_choice(next);
    if next["type"] == "show_count" {
        step["lines"] = next["lines"].as_array().unwrap().last().unwrap().clone();
    }
    step
}

/// A new-edition game of 7 (its own words: candles, traces, mediums), played on to
/// `stage`: its number.
async fn new_edition(client: &Client, stage: Stage) -> u64 {
    let colours = ["red", "yellow", "blue", "purple", "white", "green"];
    let players: Vec<Value> = (0..6)
        .map(|i| json!({"name": NAMES[i], "colours": [colours[i]]}))
        .collect();
    let mut setup = new_edition_setup();
    setup["players"] = players.into();
    let id = new_game(client, setup, 7).await;
    let secrets = ghost_cards(client, id).await;
    for k in 0..3 {
        for i in 0..6 {
            command(client, id, json!({"type": "give_vision", "psychic": i})).await;
            let pawn = json!({"type": "place_intuition", "psychic": i, "card": &secrets[i][k]});
            command(client, id, pawn).await;
        }
        if stage == Stage::NewInterpretation {
            return id;
        }
        command(client, id, json!({"type": "end_interpretation"})).await;
        for i in 0..6 {
            command(client, id, json!({"type": "manifest", "psychic": i})).await;
        }
    }
    // The revelation, each step the first the rules offer, until the mediums decide.
    let mut snapshot = api(client, "GET", &format!("/mysterium/{id}"), Value::Null).await;
    loop {
        let next = new_edition_step(&snapshot);
        if matches!(next["type"].as_str(), Some("pick_group" | "vote")) {
            return id;
        }
        snapshot = command(client, id, onward(&next)).await;
    }
}

/// A Mystery Rummy game of 4 (with a round scored, if `scored`): its number.
async fn rummy(client: &Client, scored: bool) -> u64 {
    let setup = json!({"setup": {"players": &NAMES[..4]}, "seed": 4});
    let id = api(client, "POST", "/rummy", setup).await["id"]
        .as_u64()
        .unwrap();
    if !scored {
        return id;
    }
    let set = |suspect: usize| {
        (0..6)
            .map(|s| if s == suspect { 3 } else { 0 })
            .collect::<Vec<_>>()
    };
    let tally = json!({"ending": {"how": "last_card"}, "alibi": null, "victims_in_play": 2,
        "players": [{"evidence": set(0), "hand": 5}, {"evidence": set(1), "hand": 12},
                    {"evidence": set(2), "suspect_cards": [false, false, true, false, false, false]},
                    {"hand": 3}]});
    rummy_command(client, id, json!({"type": "end_round", "tally": tally})).await;
    id
}

/// Shows `hash` in the page as a person going there would, once `ready` is drawn (the
/// screen before it taken away first, so that what is found is the new one's; the page
/// loaded again if it is there already).
async fn show(client: &Client, hash: &str, ready: &str) {
    client
        .execute(
            "document.getElementById('app').replaceChildren();
             if (location.hash === arguments[0]) location.reload(); else location.hash = arguments[0];",
            vec![json!(hash)],
        )
        .await
        .unwrap();
    wait_for(client, ready).await;
    settle(client).await;
}

/// The window's frame (its width and height less the page's) as the window reports it: a
/// first guess for [`resize`], which corrects it (Chromium's headless window reports itself
/// at least 500 px wide, however narrow its page).
async fn frame(client: &Client) -> (i64, i64) {
    let sizes = client
        .script("return [window.outerWidth - window.innerWidth, window.outerHeight - window.innerHeight]").await;
    (sizes[0].as_i64().unwrap(), sizes[1].as_i64().unwrap())
}

/// Makes the page `width`×`height`: the window that plus `frame`, asked again (the frame
/// corrected by what the page became) until the page has it.
async fn resize(client: &Client, frame: &mut (i64, i64), width: u32, height: u32) {
    let (width, height) = (i64::from(width), i64::from(height));
    let mut page = (0, 0);
    for _ in 0..20 {
        client
            .set_window_size((width + frame.0) as u32, (height + frame.1) as u32)
            .await
            .unwrap();
        let sizes = client
            .script("return [window.innerWidth, window.innerHeight]")
            .await;
        page = (sizes[0].as_i64().unwrap(), sizes[1].as_i64().unwrap());
        if page == (width, height) {
            return;
        }
        frame.0 += width - page.0;
        frame.1 += height - page.1;
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    assert_eq!(page, (width, height), "the page's size");
}

/// Opens the bar's menu until `opened` shows, and says what does not fit with it open
/// (`scroll`: as [`misfits`] takes it).
async fn menu_misfits(client: &Client, opened: &str, scroll: bool) -> Vec<String> {
    tap_to(client, "#bar-menu-toggle", opened).await;
    settle(client).await;
    misfits(client, scroll).await
}

/// Waits for the page to be laid out and painted as it is now.
async fn settle(client: &Client) {
    client
        .execute_async(
            "const done = arguments[arguments.length - 1]; requestAnimationFrame(() => requestAnimationFrame(() => done(true)));",
            vec![],
        )
        .await
        .unwrap();
}

/// Every stage of `stages` on every tablet size, in `lang`, in one page of `browsers`'
/// engine; in English, the bar's folded languages opened once per size where they fold.
async fn tablets(browsers: Browsers, stages: &'static [Stage], lang: &'static str) {
    let started = Instant::now();
    let table = Table::start(0);
    let client = browsers.open(1366, 1280).await;
    let mut frame = frame(&client).await;
    go(&client, &table.local_url).await;
    wait_for(&client, "#home").await;
    let mut screens = Vec::new();
    for &stage in stages {
        let hash = match stage {
            Stage::Setup => "#/new".to_owned(),
            Stage::RummySetup => "#/new/rummy".to_owned(),
            Stage::Rummy => format!("#/rummy/{}", rummy(&client, false).await),
            Stage::RummyRound => format!("#/rummy/{}", rummy(&client, true).await),
            Stage::NewInterpretation | Stage::NewDecision => {
                format!("#/game/{}", new_edition(&client, stage).await)
            }
            stage => format!("#/game/{}", classic(&client, stage).await),
        };
        screens.push((stage, hash));
    }
    let set_up = started.elapsed();
    let mut problems = Vec::new();
    let mut looks = 0;
    speak_afresh(&client, lang).await;
    for (width, height) in TABLETS {
        resize(&client, &mut frame, width, height).await;
        for (stage, hash) in &screens {
            show(&client, hash, stage.ready()).await;
            let shot = browsers.shot(&format!("tablet-{}-{lang}-{width}x{height}", stage.name()));
            let scroll = matches!(stage, Stage::Setup | Stage::RummySetup | Stage::RummyRound);
            let found = misfits(&client, scroll).await;
            // Read from across the table: whatever the board says, in 16 px type at least
            // (a tile's names of the three kinds of card, over each, aside).
            let small = small_type(&client, ".board", ".progress .what", 16.0).await;
            problems.extend(
                small
                    .into_iter()
                    .map(|p| format!("{shot}: under 16 px: {p}")),
            );
            looks += 1;
            let kept = (lang, width) == ("fr", 1024) || (lang, width) == ("it", 768);
            if kept || !found.is_empty() {
                screenshot(&client, &shot).await;
            }
            problems.extend(found.into_iter().map(|p| format!("{shot}: {p}")));
            if lang == "fr" && width == 1024 {
                let words = french_typography(&client).await;
                problems.extend(words.into_iter().map(|p| format!("{shot}: {p}")));
            }
        }
        // Where the bar folds its languages behind one button, they open under it, on
        // the screen, and choose.
        if lang == "en" && width < 1280 && screens.iter().any(|(s, _)| *s == Stage::Layout) {
            if !present(&client, "#bar-menu-toggle").await {
                problems.push(format!(
                    "the bar's languages do not fold at {width}x{height}"
                ));
                continue;
            }
            let opened = "#bar-menu[data-open='true'] .languages button[lang='en']";
            for p in menu_misfits(&client, opened, false).await {
                problems.push(format!("the languages opened at {width}x{height}: {p}"));
            }
            screenshot(
                &client,
                &browsers.shot(&format!("tablet-languages-{width}x{height}")),
            )
            .await;
            tap_to(&client, "#bar-menu-toggle", "#bar-menu[data-open='false']").await;
        }
    }
    eprintln!(
        "{}: {looks} looks in {:.1} s (set up in {:.1} s)",
        browsers.shot(&format!("tablets-{lang}")),
        started.elapsed().as_secs_f64(),
        set_up.as_secs_f64()
    );
    client.close().await.unwrap();
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// How high the screen's header is (a seat's bar, or a game's), in CSS pixels; where the
/// page under it starts; and where the notices start and end.
async fn header(client: &Client) -> (f64, f64, Vec<(String, f64, f64)>) {
    let found = client
        .script("window.scrollTo(0, 0);
             const top = document.querySelector('#app .phone-top, #app .game-top');
             const head = top.getBoundingClientRect();
             const next = top.nextElementSibling?.getBoundingClientRect();
             const notices = [...document.querySelectorAll('#toast:not([hidden]), #offline:not([hidden])')]
               .map((n) => { const b = n.getBoundingClientRect(); return [n.id, b.top, b.bottom]; });
             return [head.height, next ? next.top : head.bottom, notices];").await;
    let notices = found[2]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| {
            (
                n[0].as_str().unwrap().to_owned(),
                n[1].as_f64().unwrap(),
                n[2].as_f64().unwrap(),
            )
        })
        .collect();
    (
        found[0].as_f64().unwrap(),
        found[1].as_f64().unwrap(),
        notices,
    )
}

/// A seat's token for `seat` of game `path` (`/mysterium/ID`, `/rummy/ID`), taken over the API
/// through the table's page (the ghost's with the table's invitation).
async fn take_seat(client: &Client, path: &str, seat: &str) -> Value {
    let mut body = json!({"seat": seat});
    if seat == "ghost" {
        let invited = api(
            client,
            "POST",
            &format!("{path}/seats/ghost/invitation"),
            Value::Null,
        )
        .await;
        let link = invited["link"].as_str().unwrap();
        body["invitation"] = json!(link.rsplit('/').next().unwrap());
    }
    api(client, "POST", &format!("{path}/seats"), body).await
}

/// The phones: a watcher of a Mysterium game and of a scorepad, a psychic's seat, the
/// ghost's and a scorepad player's, at each phone size in each language: their headers 100
/// px high at most and nothing out of place; the help's close in sight; a watcher's menu on
/// the screen. Then the table's server stops and comes back: the banner, then the toast,
/// come over the page below the psychic's bar, which stays as high as it was.
async fn phones(browsers: Browsers) {
    let started = Instant::now();
    let table = Table::start(0);
    // WebKit's X screen is made for the window's first size: the largest.
    let client = browsers.open(430, 932).await;
    let mut frame = frame(&client).await;
    go(&client, &table.local_url).await;
    wait_for(&client, "#home").await;
    let sand = classic(&client, Stage::Interpretation).await;
    let visions = classic(&client, Stage::Visions).await;
    let scorepad = rummy(&client, true).await;
    let mut seats = serde_json::Map::new();
    for (id, path, seat) in [
        (sand, format!("/mysterium/{sand}"), "psychic:2"),
        (visions, format!("/mysterium/{visions}"), "ghost"),
        (scorepad, format!("/rummy/{scorepad}"), "player:2"),
    ] {
        seats.insert(id.to_string(), take_seat(&client, &path, seat).await);
    }
    // The phone scans the join code: a phone, no longer the table, holding the three seats.
    scan(&client, &table).await;
    client
        .execute(
            "localStorage.setItem('seance.seats', JSON.stringify(arguments[0]))",
            vec![Value::Object(seats)],
        )
        .await
        .unwrap();
    let screens = [
        (
            "watcher",
            format!("#/game/{sand}"),
            "#game[data-version] #watching",
        ),
        (
            "watcher-rummy",
            format!("#/rummy/{scorepad}"),
            "#rummy[data-version] #watching",
        ),
        (
            "psychic",
            format!("#/phone/{sand}"),
            "#phone[data-version] #phone-me",
        ),
        (
            "ghost",
            format!("#/phone/{visions}"),
            "#phone[data-version] #phone-me",
        ),
        (
            "rummy-player",
            format!("#/rummy/{scorepad}/phone"),
            "#phone-me",
        ),
    ];
    let mut problems = Vec::new();
    let mut looks = 0;
    for lang in LANGUAGES {
        speak_afresh(&client, lang).await;
        for (width, height) in PHONES {
            resize(&client, &mut frame, width, height).await;
            for (name, hash, ready) in &screens {
                show(&client, hash, ready).await;
                let shot = browsers.shot(&format!("phones-{name}-{lang}-{width}x{height}"));
                let (high, _, _) = header(&client).await;
                if high > 100.0 {
                    problems.push(format!("{shot}: the header is {high} px high"));
                }
                let found = misfits(&client, true).await;
                looks += 1;
                if lang == "fr" && width == 360 || !found.is_empty() || high > 100.0 {
                    screenshot(&client, &shot).await;
                }
                problems.extend(found.into_iter().map(|p| format!("{shot}: {p}")));
                // The help: its close in sight at once, whatever the panel holds below.
                if *name == "psychic" {
                    tap(&client, "#help").await;
                    wait_for(&client, "#help-panel").await;
                    settle(&client).await;
                    let close = client
                        .script("const b = document.getElementById('help-close').getBoundingClientRect();
                             return b.top >= 0 && b.left >= 0 && b.bottom <= innerHeight && b.right <= innerWidth;").await;
                    if close != json!(true) {
                        problems.push(format!("{shot}: the help's close is out of sight"));
                        screenshot(&client, &format!("{shot}-help")).await;
                    }
                    for p in misfits(&client, true).await {
                        problems.push(format!("{shot}, the help open: {p}"));
                    }
                    tap_to(&client, "#help-close", "body:not(:has(#help-panel))").await;
                }
                // A watcher's menu: its languages and its own, under the bar, on the screen.
                if *name == "watcher" && lang == "en" {
                    if !present(&client, "#bar-menu-toggle").await {
                        problems.push(format!("{shot}: no menu in the bar"));
                        continue;
                    }
                    let opened = "#bar-menu[data-open='true'] #watching";
                    for p in menu_misfits(&client, opened, true).await {
                        problems.push(format!("{shot}, its menu open: {p}"));
                    }
                    screenshot(&client, &format!("{shot}-menu")).await;
                    tap_to(&client, "#bar-menu-toggle", "#bar-menu[data-open='false']").await;
                }
            }
        }
    }
    let looked = started.elapsed();

    // The table's server stops, on the psychic's phone (in Italian, the last language):
    // the banner comes over the page, below the bar, and the page stays where it was.
    let (psychic, hash, ready) = &screens[2];
    show(&client, hash, ready).await;
    let mut under = Vec::new();
    for (width, height) in PHONES {
        resize(&client, &mut frame, width, height).await;
        settle(&client).await;
        under.push(header(&client).await);
    }
    let port: u16 = table.origin().rsplit(':').next().unwrap().parse().unwrap();
    let data = table.crash();
    wait_for(&client, "#offline:not([hidden])").await;
    let over = |what: &str,
                size: (u32, u32),
                before: (f64, f64),
                now: (f64, f64, Vec<(String, f64, f64)>)| {
        let mut wrong = Vec::new();
        let (high, page, notices) = now;
        if high > 100.0 || (high - before.0).abs() > 1.0 {
            wrong.push(format!(
                "{what} at {size:?}: the header is {high} px high, was {}",
                before.0
            ));
        }
        if (page - before.1).abs() > 1.0 {
            wrong.push(format!(
                "{what} at {size:?}: the page moved from {} to {page} px",
                before.1
            ));
        }
        if notices.is_empty() {
            wrong.push(format!("{what} at {size:?}: nothing is said"));
        }
        for (id, top, bottom) in notices {
            if top < before.0 - 1.0 || bottom > size.1 as f64 {
                wrong.push(format!("{what} at {size:?}: #{id} is at {top}–{bottom} px, not below the bar on the screen"));
            }
        }
        wrong
    };
    for ((width, height), before) in PHONES.into_iter().zip(&under) {
        resize(&client, &mut frame, width, height).await;
        settle(&client).await;
        let now = header(&client).await;
        problems.extend(over("offline", (width, height), (before.0, before.1), now));
        problems.extend(
            misfits(&client, true)
                .await
                .into_iter()
                .map(|p| format!("offline at {width}x{height}: {p}")),
        );
        screenshot(
            &client,
            &browsers.shot(&format!("phones-{psychic}-offline-it-{width}x{height}")),
        )
        .await;
    }
    // Back: the toast says so, over the page too.
    let _table = Table::start_in(port, data);
    wait_for(&client, "#toast:not([hidden])").await;
    assert!(!present(&client, "#offline:not([hidden])").await);
    settle(&client).await;
    let (width, height) = PHONES[2];
    let now = header(&client).await;
    problems.extend(over(
        "the toast",
        (width, height),
        (under[2].0, under[2].1),
        now,
    ));
    screenshot(
        &client,
        &browsers.shot(&format!("phones-{psychic}-back-it-{width}x{height}")),
    )
    .await;
    eprintln!(
        "{}: {looks} looks in {:.1} s, the server lost and back in {:.1} s",
        browsers.shot("phones"),
        looked.as_secs_f64(),
        (started.elapsed() - looked).as_secs_f64()
    );
    client.close().await.unwrap();
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// A French tablet on the table link opens in French (the page as it comes, then its
/// words); once the table chooses Italian there, every screen of the table speaks Italian,
/// the French tablet reloaded and an English one.
async fn languages(browsers: Browsers) {
    let table = Table::start(0);
    let french = browsers.open_speaking(1024, 768, "fr-FR").await;
    go(&french, &table.local_url).await;
    wait_for(&french, "html[lang='fr'] #home").await;
    wait_for_said(&french, "#new-game", "fr", "home.new_game", &[]).await;
    tap(&french, ".bar .languages button[lang='it']").await;
    wait_for(
        &french,
        "html[lang='it'] #home button[lang='it'][aria-pressed='true']",
    )
    .await;
    wait_for_said(&french, "#new-game", "it", "home.new_game", &[]).await;
    french.refresh().await.unwrap();
    wait_for(&french, "html[lang='it'] #home").await;
    wait_for_said(&french, "#new-game", "it", "home.new_game", &[]).await;
    let english = browsers.open_speaking(1024, 768, "en-US").await;
    go(&english, &table.local_url).await;
    wait_for(&english, "html[lang='it'] #home").await;
    wait_for_said(&english, "#new-game", "it", "home.new_game", &[]).await;
    no_page_errors(&french, "choosing the table's language").await;
    for client in [french, english] {
        client.close().await.unwrap();
    }
}

/// A language's name in a test's name.
fn spoken(lang: &str) -> &'static str {
    match lang {
        "fr" => "French",
        "it" => "Italian",
        _ => "English",
    }
}
