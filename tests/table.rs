//! The table screen through whole games, in a real Chromium: set up on the screens, played
//! by tapping as a table would, Phase 2 with the tablet passed for secret entry. Where a
//! test needs the ghost's secrets it reads them as the ghost does, off the hidden panel.

use std::time::{Duration, Instant};

use fantoccini::{Client, Locator};
use seance_e2e::{
    Browsers, Engine, Page, Table, accessibility_violations, act, api, attr, chromium, command,
    french_typography, ghost_cards, go, ink_height, keep_lines, lines_never_say, misfits, new_game,
    played, present, said, says, scan, screenshot, sounds, speak, tap, tap_to, taps, text, version,
    wait_for, wait_for_text,
};
use serde_json::{Value, json};

use crate::Test;

pub fn tests(p: u16) -> Vec<Test> {
    vec![
        (
            "table: a whole 5-player game from setup to a win",
            Box::pin(five_players_win(Browsers::chromium(p), 1280, 800)),
        ),
        (
            "table: a whole 7-player game with names that collide, the board told once",
            Box::pin(seven_players_win(p)),
        ),
        (
            "table: the sand timer reads from two metres in every mode",
            Box::pin(timer_ink(p)),
        ),
        (
            "table: a game lost on time (paper secrets)",
            Box::pin(lost_on_time(p)),
        ),
        (
            "table: a 2-player game with four groups",
            Box::pin(two_players(p)),
        ),
        (
            "table: a game with every expansion, stories for objects, shows and judges the cards' codes",
            Box::pin(expansions(p)),
        ),
        (
            "table: a straw poll decided by a tie-break",
            Box::pin(tie_break(p)),
        ),
        (
            "table: the sand timer runs, pauses and ends on two screens at once",
            Box::pin(timer_on_two_screens(p)),
        ),
        (
            "table: a reload mid-turn comes back to the same state",
            Box::pin(reload_mid_turn(p)),
        ),
        (
            "table: every screen in three languages, tablet and phone, with no serious accessibility problem",
            Box::pin(screens_in_three_languages(p)),
        ),
        (
            "table: an unfinished game is put away, and phones no longer offer it",
            Box::pin(put_away(p)),
        ),
        (
            "table: a game that cannot be read from its start is told so and set aside",
            Box::pin(damaged_start(p)),
        ),
    ]
}

/// The table's whole game in WebKit (Safari's engine: the table is often an iPad on the
/// table link), held upright and on its side.
pub fn in_engine(browsers: Browsers) -> Vec<Test> {
    if browsers.engine() != Engine::WebKit {
        return Vec::new();
    }
    vec![
        (
            "webkit: a whole 5-player game on an iPad held upright (820×1180)",
            Box::pin(five_players_win(browsers.clone(), 820, 1180)),
        ),
        (
            "webkit: a whole 5-player game on an iPad on its side (1180×820)",
            Box::pin(five_players_win(browsers, 1180, 820)),
        ),
    ]
}

/// A game whose start was damaged on disk: its screen says what is wrong in the table's
/// words, and the table sets it aside; the other game plays on.
async fn damaged_start(driver: u16) {
    let table = Table::start(0);
    let tablet = chromium(driver, 1280, 800).await;
    let damaged = visions_over_api(&tablet, &table, 120).await;
    let sound = visions_over_api(&tablet, &table, 120).await;
    let data_dir = table.crash();
    rusqlite::Connection::open(data_dir.path().join("seance.sqlite3"))
        .unwrap()
        .execute(
            "UPDATE games SET start = 'not json' WHERE id = ?1",
            [damaged as i64],
        )
        .unwrap();
    let table = Table::start_in(0, data_dir);
    go(&tablet, &table.local_url).await;
    wait_for(&tablet, "#home").await;
    go(&tablet, &format!("{}/#/game/{damaged}", table.origin())).await;
    wait_for_text(
        &tablet,
        "#unreadable .banner",
        &format!("Game {damaged} cannot be read from its start"),
    )
    .await;
    screenshot(&tablet, "game-start-damaged-en-1280x800").await;
    tap(&tablet, "#set-aside-start").await;
    wait_for(&tablet, &format!("[data-archive='{sound}']")).await;
    assert!(!present(&tablet, &format!("[data-archive='{damaged}']")).await);
    tablet.close().await.unwrap();
}

/// The table puts an old unfinished game away from the list of games: the phones' list
/// of games offers only the live one; brought back, it is offered again.
async fn put_away(driver: u16) {
    let table = Table::start(0);
    let tablet = chromium(driver, 1280, 800).await;
    let old = visions_over_api(&tablet, &table, 120).await;
    let live = visions_over_api(&tablet, &table, 120).await;
    go(&tablet, &format!("{}/#/games", table.origin())).await;
    tap(&tablet, &format!("[data-archive='{old}']")).await;
    wait_for_text(&tablet, "#toast", "Put away: Laura, Stephanie").await;
    let offered = |client: &Client, list: &'static str| {
        let client = client.clone();
        async move {
            let hrefs = client
                .script(&format!("return [...document.querySelectorAll('{list} a')].map((a) => a.getAttribute('href'))")).await;
            serde_json::from_value::<Vec<String>>(hrefs).unwrap()
        }
    };
    wait_for(&tablet, &format!("[data-archive='{live}']")).await;
    assert_eq!(
        offered(&tablet, "#game-list").await,
        [format!("#/game/{live}")]
    );
    tap(&tablet, "#games-archived").await;
    wait_for(&tablet, &format!("#archived-list [data-restore='{old}']")).await;
    screenshot(&tablet, "games-put-away-en-1280x800").await;

    let phone = chromium(driver, 390, 844).await;
    scan(&phone, &table).await;
    go(&phone, &format!("{}/#/join", table.origin())).await;
    wait_for(&phone, "#join-list a").await;
    assert_eq!(
        offered(&phone, "#join-list").await,
        [format!("#/join/{live}")]
    );

    tap(&tablet, &format!("[data-restore='{old}']")).await;
    wait_for_text(&tablet, "#toast", "Back in play").await;
    wait_for(&tablet, &format!("#game-list [data-archive='{old}']")).await;
    phone.refresh().await.unwrap();
    wait_for(&phone, &format!("#join-list a[href='#/join/{old}']")).await;
    for client in [tablet, phone] {
        client.close().await.unwrap();
    }
}

/// Sets a game up through the screens: `names[0]` is the ghost, the rest psychic players.
/// Returns the game's number, on the visions of hour I.
pub(crate) async fn set_up(client: &Client, table: &Table, names: &[&str], paper: bool) -> u64 {
    go(client, &table.local_url).await;
    tap_to(client, "#new-game", "#setup").await;
    tap(
        client,
        &format!("#setup-players button[data-value='{}']", names.len()),
    )
    .await;
    wait_for(client, &format!("#name-{}", names.len() - 2)).await;
    // Each field may offer last game's name: typed over, as a person would.
    let ghost = wait_for(client, "#ghost-name").await;
    ghost.clear().await.unwrap();
    ghost.send_keys(names[0]).await.unwrap();
    for (i, name) in names[1..].iter().enumerate() {
        let input = wait_for(client, &format!("#name-{i}")).await;
        input.clear().await.unwrap();
        input.send_keys(name).await.unwrap();
    }
    if paper {
        tap(client, "#setup-secrets button[data-value='paper']").await;
    }
    tap(client, "#start-game").await;
    tap(client, "#begin").await;
    wait_for(client, "#stage.visions").await;
    let url = client.current_url().await.unwrap();
    url.fragment()
        .unwrap()
        .rsplit('/')
        .next()
        .unwrap()
        .parse()
        .unwrap()
}

/// The ghost's cards, read as the ghost reads them: off the panel the others look away from.
async fn ghost_secrets(client: &Client) -> Vec<Vec<String>> {
    tap(client, "#ghost-look").await;
    tap(client, "#hidden-ready").await;
    wait_for(client, "#ghost-secrets").await;
    let cells = client
        .script("return [...document.querySelectorAll('#ghost-secrets tbody tr')].map(r => [...r.querySelectorAll('td')].map(d => d.textContent))").await;
    tap(client, "#hidden-done").await;
    wait_for(client, "#game[data-version]").await;
    serde_json::from_value(cells).unwrap()
}

/// Psychics the screen offers a vision to now.
pub(crate) async fn offered(client: &Client, what: &str) -> Vec<usize> {
    let script = format!(
        "return [...document.querySelectorAll('button[{what}]')].map(b => Number(b.getAttribute('{what}')))"
    );
    serde_json::from_value(client.script(&script).await).unwrap()
}

/// One turn tapped on the table: visions, the intuitions on `cards[i]` (none if `None`),
/// time up, and the answers (`right` in paper mode; the app judges otherwise).
async fn turn(client: &Client, cards: &[Option<String>], paper_right: Option<bool>) {
    // Every vision in one tap, as a table does when the ghost has handed them all out.
    if present(client, "#every-vision").await {
        act(client, "#every-vision").await;
    }
    for i in offered(client, "data-vision").await {
        act(client, &format!("button[data-vision='{i}']")).await;
    }
    for (i, card) in cards.iter().enumerate() {
        if let Some(card) = card
            && present(
                client,
                &format!("[data-psychic='{i}'] .chip[data-card='{card}']"),
            )
            .await
        {
            act(
                client,
                &format!("[data-psychic='{i}'] .chip[data-card='{card}']"),
            )
            .await;
        }
    }
    act(client, "#timer-end").await;
    wait_for(client, "#stage.manifestation").await;
    match paper_right {
        None => {
            if present(client, "#every-answer").await {
                act(client, "#every-answer").await;
            }
            for i in offered(client, "data-manifest").await {
                act(client, &format!("[data-manifest='{i}']")).await;
            }
        }
        Some(right) => {
            let what = if right { "data-right" } else { "data-wrong" };
            for i in offered(client, what).await {
                act(client, &format!("[{what}='{i}']")).await;
            }
        }
    }
}

/// Plays hours until Phase 2 with every intuition right, read off the ghost's panel.
async fn find_everything(client: &Client) {
    let secrets = ghost_secrets(client).await;
    right_turns(client, &secrets, 3).await;
    wait_for(client, "#game[data-phase='revelation']").await;
}

/// `n` turns with every pawn on the card its psychic seeks, read off the ghost's `secrets`.
async fn right_turns(client: &Client, secrets: &[Vec<String>], n: usize) {
    for _ in 0..n {
        let found = found_counts(client).await;
        let cards: Vec<Option<String>> = secrets
            .iter()
            .zip(found)
            .map(|(s, n)| s.get(n).cloned())
            .collect();
        turn(client, &cards, None).await;
    }
}

async fn found_counts(client: &Client) -> Vec<usize> {
    let script = "return [...document.querySelectorAll('.psychic')].map(t => t.querySelectorAll('.progress .found').length)";
    serde_json::from_value(client.script(script).await).unwrap()
}

/// Passes the tablet to the ghost, who seals `group`.
async fn seal_culprit(client: &Client, group: u8) {
    tap(client, "#seal-culprit").await;
    tap(client, "#hidden-ready").await;
    tap(client, &format!("#hidden .group[data-group='{group}']")).await;
    tap(client, "#hidden-seal").await;
    wait_for(client, "#shared-vision, #agree").await;
}

/// The tablet passed from voter to voter at one card of the shared vision: the first of
/// them taps their button, then each taps their group and seals it (two taps), the tablet
/// going on to the next voter by itself. `last`: the votes end there, and the count waits
/// under a cover until the tablet is back on the table.
async fn votes(client: &Client, ballots: &[(usize, u8)], last: bool) {
    let mut names = Vec::new();
    for &(psychic, _) in ballots {
        let button = text(client, &format!("button[data-vote='{psychic}']")).await;
        names.push(button.trim_end_matches(" votes").to_string());
    }
    tap(client, &format!("button[data-vote='{}']", ballots[0].0)).await;
    for (&(_, group), name) in ballots.iter().zip(names) {
        wait_for_text(client, "#hidden h2", &format!("{name}, your secret vote")).await;
        let page = client.source().await.unwrap();
        assert!(
            !page.contains("data-vote") && !page.contains("line-up") && !page.contains("\"vote\""),
            "while the tablet is passed nothing else of the game is on the page"
        );
        tap(client, &format!("#hidden .group[data-group='{group}']")).await;
        tap(client, "#hidden-seal").await;
    }
    if last {
        wait_for_text(client, "#hidden", "sealed").await;
    } else {
        wait_for(client, "#line-up").await;
    }
}

/// The texts of `css` the screen shows now.
async fn texts(client: &Client, css: &str) -> Vec<String> {
    let all = format!("[...document.querySelectorAll(\"{css}\")].map(e => e.textContent)");
    texts_of(client, &all).await
}

/// The strings `expression` makes of the page.
async fn texts_of(client: &Client, expression: &str) -> Vec<String> {
    let script = format!("return {expression}");
    serde_json::from_value(client.script(&script).await).unwrap()
}

/// Every one of `marks` told apart from the others.
fn unique(marks: &[String]) -> bool {
    let mut sorted = marks.to_vec();
    sorted.sort();
    sorted.dedup();
    sorted.len() == marks.len()
}

async fn seven_players_win(driver: u16) {
    let table = Table::start(0);
    let client = chromium(driver, 1280, 800).await;
    // The board told once, in Settings: the 6-7 side's Intermediate from space 4, High from
    // 8. Not counted in the game's taps: it is told once for every game after.
    go(&client, &table.local_url).await;
    tap(&client, "a[href='#/settings']").await;
    // The 4-5 side's High band, then on to the next field as a person does: the save
    // leaves the field moved to focused, and every digit typed next lands in it.
    wait_for(&client, "#band-4-5-high")
        .await
        .send_keys("9\u{E004}")
        .await
        .unwrap();
    wait_for(&client, "fieldset[data-side='4-5'][data-told='true']").await;
    let focused = client.script("return document.activeElement.id").await;
    assert_eq!(focused, json!("band-6-7-intermediate"), "focus kept");
    for space in ["4", "8"] {
        let field = client.active_element().await.unwrap();
        field.send_keys(&format!("{space}\u{E004}")).await.unwrap();
    }
    wait_for(&client, "fieldset[data-side='6-7'][data-told='true']").await;
    let told = api(&client, "GET", "/settings", Value::Null).await;
    assert_eq!(
        told["rule_sets"]["mysterium-classic"]["track_bands"],
        json!({"4-5": {"intermediate": 5, "high": 9}, "6-7": {"intermediate": 4, "high": 8}})
    );
    // A returning table's setup folds the told track to a line, and Begin is in sight.
    tap(&client, "a[href='#']").await;
    tap_to(&client, "#new-game", "#setup").await;
    tap(&client, "#setup-players button[data-value='7']").await;
    // A choice draws the setup again; its bar still says the connection is there.
    wait_for(&client, "#connection[data-state='open']").await;
    assert!(text(&client, "#connection").await.contains("Connected"));
    assert!(
        text(&client, "#setup-track summary")
            .await
            .contains("Intermediate from 4, High from 8")
    );
    assert_eq!(attr(&client, "#setup-track", "open").await, None);
    let fold = client
        .script("const r = document.getElementById('start-game').getBoundingClientRect(); return r.bottom <= innerHeight && r.top >= 0").await;
    assert_eq!(fold, json!(true), "Begin is above the fold");
    screenshot(&client, "setup-7p-told-en-1280x800").await;
    let detours = taps(&client).await;
    let names = [
        "Laura",
        "Christine",
        "Chris",
        "Jean-Baptiste",
        "Giuseppina",
        "Maximilian",
        "Bo",
    ];
    set_up(&client, &table, &names, false).await;
    let secrets = ghost_secrets(&client).await;
    // Every marker on the track told apart, and no level left to read off the board.
    let marks = texts(&client, "#track .marker").await;
    assert_eq!(marks.len(), 6);
    assert!(unique(&marks), "{marks:?}");
    assert!(
        marks.contains(&"Ce".to_string()) && marks.contains(&"Cs".to_string()),
        "{marks:?}"
    );
    assert!(!present(&client, "#track .band-uncertain").await);
    // Each band's line differs from the others by its width or style, not by hue alone.
    let faces = texts_of(
        &client,
        "[...document.querySelectorAll('#track .legend .key')].map(k => { const s = getComputedStyle(k); return s.borderBottomStyle + ' ' + s.borderBottomWidth; })",
    )
    .await;
    assert_eq!(faces.len(), 3, "{faces:?}");
    assert!(unique(&faces), "{faces:?}");
    assert!(
        !text(&client, "#game")
            .await
            .contains("read it off the track")
    );
    // Hour I: the visions in one tap, a crow, the sand paused and resumed, no pawn placed,
    // every answer in one tap.
    act(&client, "#every-vision").await;
    act(&client, "#crow").await;
    tap(&client, "#timer-pause").await;
    tap(&client, "#timer-resume").await;
    wait_for(&client, "#timer-pause").await;
    act(&client, "#timer-end").await;
    act(&client, "#every-answer").await;
    wait_for_text(&client, "#clock", "II").await;
    // Hour II: every pawn right, and Christine's ✓ on Chris's pawn.
    act(&client, "#every-vision").await;
    for (i, s) in secrets.iter().enumerate() {
        act(
            &client,
            &format!("[data-psychic='{i}'] .chip[data-card='{}']", s[0]),
        )
        .await;
    }
    let tokens = texts(&client, "[data-psychic='1'] .token .initials").await;
    assert_eq!(tokens.len(), 5);
    assert!(unique(&tokens), "{tokens:?}");
    act(&client, "[data-psychic='1'] .token[data-by='0']").await;
    act(&client, "#timer-end").await;
    act(&client, "#every-answer").await;
    wait_for_text(&client, "#clock", "III").await;
    right_turns(&client, &secrets, 2).await;
    // Everyone finished in hour IV (+3), Christine one further: Intermediate on the told
    // board, the others Low. Nobody is asked for a level.
    wait_for(&client, "#game[data-phase='revelation']").await;
    assert!(
        !present(&client, "#levels").await,
        "no level to read off the track"
    );
    seal_culprit(&client, 2).await;
    act(&client, "#reveal-card").await;
    wait_for_text(&client, "#shared-vision", "Low level: vote now").await;
    let low = offered(&client, "data-vote").await;
    assert_eq!(low, vec![1, 2, 3, 4, 5]);
    let ballots: Vec<(usize, u8)> = low.iter().map(|&i| (i, 2)).collect();
    votes(&client, &ballots, false).await;
    act(&client, "#reveal-card").await;
    wait_for_text(&client, "#shared-vision", "Intermediate level: vote now").await;
    votes(&client, &[(0, 2)], true).await;
    tap(&client, "#hidden-done").await;
    wait_for(&client, "#stage[data-outcome='won']").await;
    screenshot(&client, "table-7p-won-en-1280x800").await;
    let game = taps(&client).await - detours;
    eprintln!("taps for a whole 7-player game on the tablet alone: {game}");
    assert!(game <= 90, "{game} taps");
    client.close().await.unwrap();
}

/// The sand timer's digits measured on the screen as 17 mm at least on a 10-inch 1280×800
/// tablet (about 100 px of ink) while the sand runs: as it is, in a first game (its steps
/// on the board) and lying flat.
async fn timer_ink(driver: u16) {
    let table = Table::start(0);
    let client = chromium(driver, 1280, 800).await;
    sand_running(&client, &table).await;
    for (mode, guide, flat) in [
        ("normal", "off", "off"),
        ("first-game", "on", "off"),
        ("flat", "off", "on"),
    ] {
        client
            .script(&format!("localStorage.setItem('seance.guide', '{guide}'); localStorage.setItem('seance.flat', '{flat}')")).await;
        client.refresh().await.unwrap();
        wait_for(&client, "#sand-timer[data-state='running']").await;
        let ink = ink_height(&client, "#timer-digits").await;
        eprintln!("the sand timer's digits, {mode}: {ink} px of ink");
        screenshot(&client, &format!("timer-{mode}-1280x800")).await;
        assert!(ink >= 100, "{mode}: {ink} px of ink");
    }
    client.close().await.unwrap();
}

async fn five_players_win(browsers: Browsers, width: u32, height: u32) {
    let table = Table::start(0);
    let client = browsers.open(width, height).await;
    let shot = |name: &str| browsers.shot(&format!("{name}-{width}x{height}"));
    let names = ["Laura", "Stephanie", "Alex", "Carl", "Paul"];
    set_up(&client, &table, &names, false).await;
    assert!(
        text(&client, "#psychics").await.contains("Stephanie"),
        "the names typed at setup are on the tiles"
    );
    let secrets = ghost_secrets(&client).await;
    assert_eq!(secrets.len(), 4);
    keep_lines(&client).await;
    // "?" tells the phase's steps and what each mark means; a first game keeps the steps
    // on the board. (A detour: not counted in the game's taps.)
    let detour = taps(&client).await;
    tap(&client, "#help").await;
    wait_for_text(&client, "#help-panel", "lay them face up").await;
    assert!(present(&client, "#help-panel [data-legend='token']").await);
    screenshot(&client, &shot("table-help-en")).await;
    let found = accessibility_violations(&client).await;
    assert!(found.is_empty(), "the help: {found:?}");
    tap(&client, "#guide-on").await;
    tap(&client, "#help-close").await;
    wait_for_text(&client, "#guide", "draw back up to 7 cards").await;
    assert!(!present(&client, "#help-panel").await);
    tap(&client, "#help").await;
    tap(&client, "#guide-on").await;
    tap(&client, "#help-close").await;
    wait_for(&client, "#stage:not(:has(#guide))").await;
    let mut detours = taps(&client).await - detour;
    // Hour I by hand: Alex puts a ✓ on Stephanie's pawn and Carl a ✗ on Paul's.
    // The ghost hands out the four visions; the table says so in one tap.
    act(&client, "#every-vision").await;
    wait_for(&client, "#sand-timer[data-state='running']").await;
    for (i, s) in secrets.iter().enumerate() {
        act(
            &client,
            &format!("[data-psychic='{i}'] .chip[data-card='{}']", s[0]),
        )
        .await;
    }
    act(&client, "[data-psychic='0'] .token[data-by='1']").await;
    act(&client, "[data-psychic='3'] .token[data-by='2']").await;
    act(&client, "[data-psychic='3'] .token[data-by='2']").await;
    // Two taps: ✓ then ✗ (waiting for the final face, not an element a render replaces).
    wait_for(
        &client,
        "[data-psychic='3'] .token[data-by='2'][data-face='disagree']",
    )
    .await;
    let found = misfits(&client, false).await;
    assert!(found.is_empty(), "hour I: {found:?}");
    act(&client, "#timer-end").await;
    // Stephanie's answer alone, then the three others in one tap.
    act(&client, "[data-manifest='0']").await;
    assert!(text(&client, "#answers").await.contains("+1 for Alex"));
    assert_eq!(text(&client, "#every-answer").await, "Reveal all 3 answers");
    act(&client, "#every-answer").await;
    // Hour II: the strike, and what the ghost said in hour I.
    wait_for_text(&client, "#clock", "II").await;
    assert!(
        text(&client, "#last-turn")
            .await
            .contains("Stephanie took card")
    );
    // Undo is one tap away and puts the last answer back; redo restores it (a detour too).
    act(&client, "#undo").await;
    wait_for(&client, "#stage.manifestation").await;
    act(&client, "#redo").await;
    wait_for(&client, "#stage.visions").await;
    detours += 2;
    right_turns(&client, &secrets, 2).await;
    wait_for(&client, "#game[data-phase='revelation']").await;
    // Everyone found everything in hour III (+4); Alex's ✓ put him on 5, Intermediate.
    assert_eq!(text(&client, "#line-up").await.matches('·').count(), 8);
    seal_culprit(&client, 1).await;
    act(&client, "#reveal-card").await;
    wait_for_text(&client, "#shared-vision", "Low level: vote now").await;
    assert_eq!(offered(&client, "data-vote").await, vec![0, 2, 3]);
    votes(&client, &[(0, 1), (2, 1), (3, 1)], false).await;
    act(&client, "#reveal-card").await;
    wait_for_text(&client, "#shared-vision", "Intermediate level: vote now").await;
    // A watcher's phone at the table.
    let id = client.script("return location.hash.split('/')[2]").await;
    let watcher = browsers.open(390, 844).await;
    go(&watcher, &table.phone_url).await;
    wait_for(&watcher, "#join-game").await;
    let game = format!("{}/#/game/{}", table.origin(), id.as_str().unwrap());
    go(&watcher, &game).await;
    wait_for(&watcher, "#watching").await;
    // The last vote: while the tablet is still to be passed back, nobody sees the count
    // and nothing of it is shown, nor said to be coming.
    votes(&client, &[(1, 1)], true).await;
    tokio::time::sleep(Duration::from_millis(2600)).await;
    let watching = text(&watcher, "#app").await;
    assert!(
        !present(&watcher, "#count").await && !says(&watching, &said("en", "count.reading", &[])),
        "the watcher says the count is coming under the cover: {watching}"
    );
    let covered = api(
        &client,
        "GET",
        &format!("/mysterium/{}", id.as_str().unwrap()),
        Value::Null,
    )
    .await;
    assert_eq!(covered["view"]["counting"], true);
    assert_eq!(
        covered["view"]["count"]["ballots"],
        json!([]),
        "the count was read out under the cover"
    );
    tap(&client, "#hidden-done").await;
    // The count is played out vote by vote, giving nothing away before its end; then the
    // outcome, the chosen group and the culprit's.
    wait_for_text(&client, "#count", "Stephanie voted for group 1").await;
    wait_for_text(&watcher, "#count", "Stephanie voted for group 1").await;
    watcher.close().await.unwrap();
    assert!(
        present(&client, "#count-all").await,
        "still being played out"
    );
    // Paused, the count waits for the table; it goes on with a tap.
    tap(&client, "#count-pause").await;
    let lines = "return document.querySelectorAll('#count li').length";
    tokio::time::sleep(Duration::from_millis(300)).await;
    let paused = client.script(lines).await;
    tokio::time::sleep(Duration::from_millis(2600)).await;
    assert_eq!(client.script(lines).await, paused);
    detours += 2;
    for giveaway in ["#outcome", "[data-chosen='true']", "[data-culprit='true']"] {
        assert!(
            !present(&client, giveaway).await,
            "{giveaway} before the count's end"
        );
    }
    assert_eq!(
        text(&client, "#stage").await.matches("The count").count(),
        1,
        "said once"
    );
    tap(&client, "#count-pause").await;
    wait_for(&client, "#stage[data-outcome='won']").await;
    assert!(present(&client, "[data-chosen='true'][data-culprit='true']").await);
    // In words as well as by the frame: chosen, and the culprit's.
    assert_eq!(
        text(&client, "#line-up [data-chosen='true'] .tag.chosen").await,
        "Chosen"
    );
    assert_eq!(
        text(&client, "#line-up [data-culprit='true'] .tag.culprit").await,
        "The culprit's"
    );
    assert!(
        text(&client, "#outcome")
            .await
            .contains("found the culprit")
    );
    assert!(
        text(&client, "#count")
            .await
            .contains("Group 1 has more votes")
    );
    let summary = text(&client, "#summary").await;
    assert!(
        summary.contains("Paul") && summary.contains("hour III"),
        "{summary}"
    );
    screenshot(&client, &shot("table-won-en")).await;
    let found = misfits(&client, false).await;
    assert!(found.is_empty(), "the win: {found:?}");
    // Read again on the table, the outcome waiting for its end once more.
    tap(&client, "#count-again").await;
    wait_for(&client, "#stage[data-outcome='counting']").await;
    assert!(!present(&client, "#outcome").await);
    wait_for(&client, "#stage[data-outcome='won']").await;
    detours += 1;
    // What the whole game cost in taps on the tablet alone, from the home screen to the
    // win: at most 60 (83 before the visions, the answers and the votes took one tap or two).
    let game = taps(&client).await - detours;
    eprintln!("taps for a whole 5-player game on the tablet alone: {game}");
    assert!(game <= 60, "{game} taps");
    // Every line the table told was in the classic rulebook's words, none of the new
    // edition's.
    let never = ["medium", "candle", "trace", "pocket watch", "convinced"];
    let read = lines_never_say(&client, "the table", &never).await;
    assert!(read > 20, "only {read} lines read");
    // The next game's setup offers the same table in the same seats, and every recent
    // name as a suggestion.
    tap(&client, "a[href='#/new']").await;
    wait_for(&client, "#recent-names option[value='Stephanie']").await;
    let offered = client
        .script("return ['ghost-name', 'name-0', 'name-3'].map((id) => document.getElementById(id).value)").await;
    assert_eq!(offered, serde_json::json!(["Laura", "Stephanie", "Paul"]));
    client.close().await.unwrap();
}

async fn lost_on_time(driver: u16) {
    let table = Table::start(0);
    let client = chromium(driver, 1280, 800).await;
    set_up(&client, &table, &["Gus", "Ana", "Bo", "Cy"], true).await;
    for hour in 1..=7 {
        if hour == 4 {
            wait_for_text(&client, "#tokens-back", "takes back").await;
        }
        turn(&client, &[None, None, None], Some(false)).await;
    }
    wait_for(&client, "#stage[data-outcome='lost_on_time']").await;
    assert!(text(&client, "#outcome").await.contains("Dawn breaks"));
    assert!(
        !present(&client, "#ghost-look").await,
        "paper mode has no app-kept cards"
    );
    client.close().await.unwrap();
}

async fn two_players(driver: u16) {
    let table = Table::start(0);
    let client = chromium(driver, 1280, 800).await;
    set_up(&client, &table, &["Gus", "Ana"], false).await;
    assert_eq!(
        offered(&client, "data-vision").await,
        vec![0, 1],
        "one player, two psychics"
    );
    assert!(
        !present(&client, "#track").await,
        "no track with two players"
    );
    find_everything(&client).await;
    let groups = client
        .find_all(Locator::Css("#line-up .group-card"))
        .await
        .unwrap();
    assert_eq!(
        groups.len(),
        4,
        "two psychics' groups and two drawn at random"
    );
    seal_culprit(&client, 3).await;
    assert!(
        !present(&client, "#reveal-card").await,
        "the shared vision lies face up"
    );
    // The one psychic player chooses alone.
    wait_for_text(&client, "#agree", "Choose the culprit's group").await;
    assert!(!text(&client, "#agree").await.contains("together"));
    tap(&client, "#line-up [data-pick='3']").await;
    act(&client, "#pick-confirm").await;
    wait_for(&client, "#stage[data-outcome='won']").await;
    client.close().await.unwrap();
}

/// The table ticks its whole collection and plays with stories: the layout, the ghost's
/// secrets and the line-up show the codes printed on the cards, the third category is
/// called a story, and the collection is kept for the next setup.
async fn expansions(driver: u16) {
    let table = Table::start(0);
    let client = chromium(driver, 1280, 800).await;
    go(&client, &table.local_url).await;
    tap_to(&client, "#new-game", "#setup").await;
    tap(&client, "#setup-players button[data-value='5']").await;
    // Folded under one line, as a returning table leaves them.
    tap(&client, "#setup-more summary").await;
    for css in [
        "#setup-collection [data-expansion='hidden_signs']",
        "#setup-collection [data-expansion='secrets_and_lies']",
        "#setup-collection [data-promo='5']",
        "#setup-third [data-value='stories']",
    ] {
        tap(&client, css).await;
        wait_for(&client, &format!("{css}[aria-pressed='true']")).await;
    }
    screenshot(&client, "setup-expansions-en-1280x800").await;
    // Kept in the settings: the next setup has them ticked already.
    let settings = api(&client, "GET", "/settings", Value::Null).await;
    assert_eq!(
        settings["rule_sets"]["mysterium-classic"]["collection"],
        json!({"expansions": ["hidden_signs", "secrets_and_lies"], "promos": [5]})
    );
    // The 4-5 side's High band typed, and Begin tapped at once: the game takes it.
    wait_for(&client, "#band-4-5-high")
        .await
        .send_keys("9")
        .await
        .unwrap();
    tap(&client, "#start-game").await;
    wait_for_text(&client, "#stage.layout", "story cards").await;
    assert!(
        !present(&client, "#track .band-uncertain").await,
        "the band typed just before Begin is the game's"
    );
    let laid = text(&client, "#stage.layout [data-category='objects']").await;
    assert!(laid.contains("SL"), "{laid}");
    let characters = text(&client, "#stage.layout [data-category='characters']").await;
    screenshot(&client, "layout-expansions-en-1280x800").await;
    tap(&client, "#begin").await;
    wait_for(&client, "#stage.visions").await;
    let secrets = ghost_secrets(&client).await;
    assert!(
        secrets
            .iter()
            .all(|s| s[2].starts_with("SL") || s[2] == "P5"),
        "each psychic's story is one of Secrets & Lies's (or P5): {secrets:?}"
    );
    // The third step is a story's on every tile's progress.
    tap(&client, "#help").await;
    wait_for_text(&client, "#help-panel", "Character, location, story").await;
    tap(&client, "#help-close").await;
    find_everything(&client).await;
    let line_up = text(&client, "#line-up").await;
    assert!(
        secrets.iter().all(|s| characters.contains(&s[0])),
        "the characters sought were laid out: {characters}"
    );
    for s in &secrets {
        assert!(line_up.contains(&s[2]), "{line_up} shows {}", s[2]);
    }
    screenshot(&client, "revelation-stories-en-1280x800").await;
    client.close().await.unwrap();
}

/// Plays a 5-player game over the API to the revelation, with Alex's ✓ on Stephanie in
/// hour I: Alex ends on space 5 (Intermediate), the others on 4 (Low).
async fn revelation_over_api(client: &Client, table: &Table) -> u64 {
    go(client, &table.local_url).await;
    wait_for(client, "#home").await;
    let setup = json!({"ghost": "Laura", "difficulty": "easy", "secrets": "app_kept", "players": [
        {"name": "Stephanie", "colours": ["red"]}, {"name": "Alex", "colours": ["blue"]},
        {"name": "Carl", "colours": ["green"]}, {"name": "Paul", "colours": ["white"]}]});
    let id = new_game(client, setup, 11).await;
    let send = async |json: Value| {
        command(client, id, json).await;
    };
    let secrets = ghost_cards(client, id).await;
    for k in 0..3 {
        for i in 0..4 {
            send(json!({"type": "give_vision", "psychic": i})).await;
            send(json!({"type": "place_intuition", "psychic": i, "card": secrets[i][k]})).await;
        }
        if k == 0 {
            send(json!({"type": "place_token", "by": 1, "on": 0, "face": "agree"})).await;
        }
        send(json!({"type": "end_interpretation"})).await;
        for i in 0..4 {
            send(json!({"type": "manifest", "psychic": i})).await;
        }
    }
    id
}

async fn tie_break(driver: u16) {
    let table = Table::start(0);
    let client = chromium(driver, 1280, 800).await;
    let id = revelation_over_api(&client, &table).await;
    go(&client, &format!("{}#/game/{id}", table.origin())).await;
    wait_for(&client, "#line-up").await;
    seal_culprit(&client, 3).await;
    act(&client, "#reveal-card").await;
    // Low: Stephanie 2, Carl 3, Paul 3; Intermediate: Alex 2. Two each: Alex, furthest on
    // the track, voted 2, so 2 is chosen — and the culprit was in 3.
    votes(&client, &[(0, 2), (2, 3), (3, 3)], false).await;
    act(&client, "#reveal-card").await;
    votes(&client, &[(1, 2)], true).await;
    tap(&client, "#hidden-done").await;
    // The whole count is the table's answer to the tap: read once it has come.
    act(&client, "#count-all").await;
    let count = wait_for_text(&client, "#count", "A tie between groups 2, 3").await;
    assert!(
        count.contains("Alex is furthest on the track (space 5)"),
        "{count}"
    );
    wait_for(&client, "#stage[data-outcome='lost_wrong_group']").await;
    assert!(
        text(&client, "#outcome-why, .outcome-why")
            .await
            .contains("group 3")
    );
    client.close().await.unwrap();
}

/// A 5-player game made over the API with every vision but Paul's given; Paul's comes
/// from the caller, which starts the sand timer of `seconds`.
async fn visions_over_api(client: &Client, table: &Table, seconds: u64) -> u64 {
    visions_given(client, table, 3, seconds).await
}

/// A 5-player game (Laura the ghost; Stephanie, Alex, Carl and Paul) made over the API with
/// the first `given` visions given, its sand timer of `seconds` started by the last.
pub async fn visions_given(client: &Client, table: &Table, given: u64, seconds: u64) -> u64 {
    go(client, &table.local_url).await;
    wait_for(client, "#home").await;
    let setup = json!({"ghost": "Laura", "difficulty": "medium", "secrets": "app_kept", "players": [
        {"name": "Stephanie", "colours": ["red"]}, {"name": "Alex", "colours": ["blue"]},
        {"name": "Carl", "colours": ["green"]}, {"name": "Paul", "colours": ["white"]}]});
    let id = new_game(client, setup, 5).await;
    api(
        client,
        "POST",
        &format!("/mysterium/{id}/timer"),
        json!({"action": "duration", "seconds": seconds}),
    )
    .await;
    for i in 0..given {
        api(
            client,
            "POST",
            &format!("/mysterium/{id}/commands"),
            json!({"version": i, "command": {"type": "give_vision", "psychic": i}}),
        )
        .await;
    }
    id
}

async fn timer_on_two_screens(driver: u16) {
    let table = Table::start(0);
    let first = chromium(driver, 1280, 800).await;
    let id = visions_over_api(&first, &table, 6).await;
    let second = chromium(driver, 1280, 800).await;
    go(&second, &table.local_url).await;
    wait_for(&second, "#home").await;
    // The second screen lies flat between the players: its digits read from both sides.
    tap(&second, "a[href='#/settings']").await;
    tap(&second, "#lying-flat").await;
    for screen in [&first, &second] {
        go(screen, &format!("{}#/game/{id}", table.origin())).await;
        wait_for(screen, "#sand-timer[data-state='idle']").await;
    }
    assert_eq!(text(&second, "#timer-digits").await, "0:06");
    // The ambience plays on the first screen: the last half-minute turns it tense.
    tap(&first, "#ambience").await;
    wait_for(&first, "#ambience[aria-pressed='true']").await;
    // The last vision, on the first screen, turns the sand timer on both.
    act(&first, "button[data-vision='3']").await;
    // Six seconds are all in the last ten: the timer warns from the start.
    wait_for(&second, "#sand-timer[data-state='warning']").await;
    assert_eq!(
        sounds(&first).await.1,
        "tension",
        "six seconds left: the ambience is tense"
    );
    // A pause on one is a pause on the other, at the same second.
    tap(&second, "#timer-pause").await;
    wait_for(&first, "#sand-timer[data-state='paused']").await;
    let held = text(&first, "#timer-digits").await;
    tokio::time::sleep(Duration::from_millis(1500)).await;
    assert_eq!(
        text(&first, "#timer-digits").await,
        held,
        "paused time stands still"
    );
    assert_eq!(text(&second, "#timer-digits").await, held);
    assert_eq!(
        text(&second, "#sand-timer .digits.across").await,
        held,
        "the far side reads the same time"
    );
    assert!(!present(&first, "#sand-timer .digits.across").await);
    tap(&first, "#timer-resume").await;
    wait_for(
        &second,
        "#sand-timer[data-state='running'], #sand-timer[data-state='warning']",
    )
    .await;
    for screen in [&first, &second] {
        wait_for(screen, "#game[data-phase='manifestation']").await;
    }
    let mark = async |client: &Client, name: &str| -> f64 {
        let script = format!("return Number(document.documentElement.dataset.{name} ?? 0)");
        client.script(&script).await.as_f64().unwrap()
    };
    let ended = [
        mark(&first, "timerEndedAt").await,
        mark(&second, "timerEndedAt").await,
    ];
    let (cues, mood) = sounds(&first).await;
    let ticks = cues.iter().filter(|c| c["name"] == "tick").count();
    assert!(ticks >= 5, "the last seconds tick: {cues:?}");
    assert!(played(&cues, "ring", None), "and the end rings");
    assert_eq!(
        mood, "seance",
        "the tension eases once the sand has run out"
    );
    assert!(ended.iter().all(|&t| t > 0.0), "both screens heard the end");
    assert!(
        (ended[0] - ended[1]).abs() < 250.0,
        "both screens ended together: {ended:?}"
    );
    first.close().await.unwrap();
    second.close().await.unwrap();
}

/// A 5-player game on screen with the box's two minutes of sand running: the last vision
/// given by a tap on the table.
async fn sand_running(client: &Client, table: &Table) {
    let id = visions_over_api(client, table, 120).await;
    go(client, &format!("{}#/game/{id}", table.origin())).await;
    act(client, "button[data-vision='3']").await;
}

async fn reload_mid_turn(driver: u16) {
    let table = Table::start(0);
    let client = chromium(driver, 1280, 800).await;
    sand_running(&client, &table).await;
    let card = attr(&client, "[data-psychic='2'] .chip[data-card]", "data-card")
        .await
        .unwrap();
    act(
        &client,
        &format!("[data-psychic='2'] .chip[data-card='{card}']"),
    )
    .await;
    act(&client, "[data-psychic='2'] .token[data-by='0']").await;
    let before = version(&client).await;
    // Past the first second, so the digits must have moved on from 2:00.
    tokio::time::sleep(Duration::from_millis(1500)).await;
    client.refresh().await.unwrap();
    wait_for(&client, "#sand-timer[data-state='running']").await;
    assert_eq!(version(&client).await, before);
    wait_for(
        &client,
        &format!("[data-psychic='2'] .chip[data-card='{card}'][aria-pressed='true']"),
    )
    .await;
    wait_for(
        &client,
        "[data-psychic='2'] .token[data-by='0'][data-face='agree']",
    )
    .await;
    let left = text(&client, "#timer-digits").await;
    assert!(
        left.starts_with("1:5"),
        "the sand kept running across the reload: {left}"
    );
    client.close().await.unwrap();
}

/// Every stage of a game, in each language, at tablet and phone sizes: screenshots for
/// people to look at, nothing sticking out sideways, targets of 44 px, and axe-core.
async fn screens_in_three_languages(driver: u16) {
    let table = Table::start(0);
    let mut problems = Vec::new();
    for (width, height) in [(1280u32, 800u32), (390, 844)] {
        let client = chromium(driver, width, height).await;
        let mid = visions_over_api(&client, &table, 120).await;
        api(
            &client,
            "POST",
            &format!("/mysterium/{mid}/commands"),
            json!({"version": 3, "command": {"type": "give_vision", "psychic": 3}}),
        )
        .await;
        let late = revelation_over_api(&client, &table).await;
        for lang in ["en", "fr", "it"] {
            speak(&client, lang).await;
            let stages: [(&str, &str, &str); 4] = [
                ("setup", "#/new", "#setup"),
                ("interpretation", &format!("#/game/{mid}"), "#sand-timer"),
                ("revelation", &format!("#/game/{late}"), "#line-up"),
                ("games", "#/games", "#game-list a"),
            ];
            for (name, hash, ready) in stages {
                // A reload, so the page takes the language (a change of #hash alone would not).
                go(&client, &format!("{}/{hash}", table.origin())).await;
                client.refresh().await.unwrap();
                wait_for(&client, ready).await;
                let shot = format!("table-{name}-{lang}-{width}x{height}");
                screenshot(&client, &shot).await;
                let fit = client
                    .script("return { overflow: document.documentElement.scrollWidth > window.innerWidth,
                          small: [...document.querySelectorAll('button, a, select, input')].filter(e => {
                            const r = e.getBoundingClientRect(); return r.width > 0 && (r.width < 44 || r.height < 44); })
                            .map(e => e.id || e.textContent) }").await;
                if fit["overflow"] == json!(true) {
                    problems.push(format!("{shot}: sticks out sideways"));
                }
                if fit["small"] != json!([]) {
                    problems.push(format!("{shot}: targets under 44 px: {}", fit["small"]));
                }
                if lang == "fr" {
                    problems.extend(
                        french_typography(&client)
                            .await
                            .into_iter()
                            .map(|p| format!("{shot}: {p}")),
                    );
                    let alex = "return [...document.querySelectorAll('[aria-label]')].some((e) => e.getAttribute('aria-label').includes(\"d'Alex\"))";
                    if name == "interpretation" && client.script(alex).await != json!(true) {
                        problems.push(format!("{shot}: Alex's pawn is not named \"d'Alex\""));
                    }
                }
                if lang == "en" {
                    problems.extend(
                        accessibility_violations(&client)
                            .await
                            .into_iter()
                            .map(|v| format!("{shot}: {v}")),
                    );
                }
            }
            // The timer's digits are read from across the table.
            go(&client, &format!("{}/#/game/{mid}", table.origin())).await;
            // A change of #hash alone: the screen draws once the game's view arrives.
            wait_for(&client, "#timer-digits").await;
            let share = client
                .script("const r = document.getElementById('timer-digits').getBoundingClientRect();
                     const size = parseFloat(getComputedStyle(document.getElementById('timer-digits')).fontSize);
                     return size * 0.72 / window.innerHeight").await
                .as_f64()
                .unwrap();
            if width > height && share < 0.15 {
                problems.push(format!(
                    "{lang} {width}px: the timer's digits are {:.0} % of the height",
                    share * 100.0
                ));
            }
        }
        // The hidden panels too, in English.
        speak(&client, "en").await;
        go(&client, &format!("{}/#/game/{mid}", table.origin())).await;
        tap(&client, "#ghost-look").await;
        tap(&client, "#hidden-ready").await;
        wait_for(&client, "#ghost-secrets").await;
        screenshot(&client, &format!("table-ghost-secrets-en-{width}x{height}")).await;
        problems.extend(
            accessibility_violations(&client)
                .await
                .into_iter()
                .map(|v| format!("ghost panel {width}px: {v}")),
        );
        tap(&client, "#hidden-done").await;
        let start = Instant::now();
        wait_for(&client, "#game[data-version]").await;
        assert!(start.elapsed() < Duration::from_secs(20));
        client.close().await.unwrap();
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}
