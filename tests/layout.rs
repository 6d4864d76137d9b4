//! Every stage of a game fits the table's screen: at 1280×800 and 800×1280 nothing is cut,
//! ellipsized or below the fold and the page does not scroll; at 390×844 (a phone watching
//! the table) it may scroll down, and nothing is cut or off the side. From 2 to 7 players,
//! in the three languages (each in every size where the board is fullest, with 2, 3 and 7
//! players; one a size in turn with 4 to 6, so that every language is still seen at every
//! size among them: [`languages`]), judged on bounding boxes (`support/fits.js`). Each screen's
//! screenshot is kept as `layout-<players>p-<stage>-<lang>-<size>.png`. A first game's
//! steps on the board (`guide-interpretation`) must fit as well, and the new edition's
//! stages (`new-*`) from 3 players to 7. Who is who and a token's face read
//! without colour (`support/apart.js`).

use crate::Test;
use fantoccini::Client;
use seance_e2e::*;
use serde_json::{Value, json};

const SIZES: [(u32, u32); 3] = [(1280, 800), (800, 1280), (390, 844)];
/// The stages of Phase 2 before its end, which take a tablet's whole screen.
const PHASE_TWO: [&str; 4] = ["revelation", "vote", "new-traces", "new-decision"];
pub const LANGUAGES: [&str; 3] = ["en", "fr", "it"];
/// Long names and short ones, as a table has them, and names that begin alike (their
/// marks must still tell them apart).
pub const NAMES: [&str; 6] = [
    "Christine",
    "Chris",
    "Jean-Baptiste",
    "Giuseppina",
    "Anna",
    "Annabelle",
];

pub fn tests(p: u16) -> Vec<Test> {
    const CLASSIC: [[&str; 2]; 6] = [
        [
            "layout: classic phase 1 fits with 2 players",
            "layout: classic phase 2 fits with 2 players",
        ],
        [
            "layout: classic phase 1 fits with 3 players",
            "layout: classic phase 2 fits with 3 players",
        ],
        [
            "layout: classic phase 1 fits with 4 players",
            "layout: classic phase 2 fits with 4 players",
        ],
        [
            "layout: classic phase 1 fits with 5 players",
            "layout: classic phase 2 fits with 5 players",
        ],
        [
            "layout: classic phase 1 fits with 6 players",
            "layout: classic phase 2 fits with 6 players",
        ],
        [
            "layout: classic phase 1 fits with 7 players",
            "layout: classic phase 2 fits with 7 players",
        ],
    ];
    let mut tests: Vec<Test> = Vec::new();
    for (players, [one, two]) in (2..=7).zip(CLASSIC) {
        tests.push((one, Box::pin(classic(p, players, Phase::One))));
        tests.push((two, Box::pin(classic(p, players, Phase::Two))));
    }
    tests.push((
        "layout: the new edition fits with 3 players (two colours each)",
        Box::pin(new_edition(p, 3)),
    ));
    for (players, name) in [
        (4, "layout: the new edition fits with 4 players"),
        (5, "layout: the new edition fits with 5 players"),
        (6, "layout: the new edition fits with 6 players"),
        (7, "layout: the new edition fits with 7 players"),
    ] {
        tests.push((name, Box::pin(new_edition(p, players))));
    }
    tests.push((
        "layout: the Mystery Rummy scorepad fits with 2 and 4 players",
        Box::pin(rummy(p)),
    ));
    tests
}

/// The part of a classic game looked at (each its own test, within the time a test has).
#[derive(Clone, Copy, PartialEq)]
enum Phase {
    One,
    Two,
}

/// A browser per size, and what did not fit on them.
struct Screens {
    table: Table,
    clients: Vec<(Client, u32, u32)>,
    problems: Vec<String>,
    /// A first game: the phase's steps on the table screen.
    guide: bool,
    /// The most players the rule set looked at allows.
    most: usize,
}

impl Screens {
    async fn open(driver: u16, most: usize) -> Screens {
        let table = Table::start(0);
        let mut clients = Vec::new();
        for (width, height) in SIZES {
            let client = chromium(driver, width, height).await;
            go(&client, &table.local_url).await;
            wait_for(&client, "#home").await;
            clients.push((client, width, height));
        }
        Screens {
            table,
            clients,
            problems: Vec::new(),
            guide: false,
            most,
        }
    }

    /// The table's API, through the first browser.
    async fn api(&self, method: &str, path: &str, body: Value) -> Value {
        api(&self.clients[0].0, method, path, body).await
    }

    /// Sends `command` to game `id` at its current version.
    async fn send(&self, id: u64, json: Value) -> Value {
        command(&self.clients[0].0, id, json).await
    }

    /// A new Mysterium game from `setup` with `players` at the table (the ghost included),
    /// over the API: its number, and each psychic's secret cards as the ghost sees them.
    /// With 2 or 3 players each psychic player plays two colours: the test's own reading of
    /// the rulebooks, checking the rules' rather than borrowing it.
    async fn start(&self, mut setup: Value, players: usize) -> (u64, Value) {
        let colours = ["red", "yellow", "blue", "purple", "white", "green"];
        let each = if players <= 3 { 2 } else { 1 };
        setup["players"] = (0..players - 1)
            .map(|i| json!({"name": NAMES[i], "colours": colours[i * each..i * each + each]}))
            .collect();
        let id = self
            .api(
                "POST",
                "/mysterium",
                json!({"setup": setup, "seed": players}),
            )
            .await["id"]
            .as_u64()
            .unwrap();
        let secrets = self
            .api("GET", &format!("/mysterium/{id}?role=ghost"), Value::Null)
            .await["view"]["assignments"]
            .clone();
        (id, secrets)
    }

    /// Looks at `hash` on every screen in every language, once `ready` is drawn: the
    /// screens side by side (each its own browser), the languages in turn on each.
    async fn look(&mut self, players: usize, stage: &str, hash: &str, ready: &str) {
        let look = Look {
            origin: self.table.origin(),
            guide: self.guide,
            players,
            stage,
            hash,
            ready,
        };
        let [(a, aw, ah), (b, bw, bh), (c, cw, ch)] = &self.clients[..] else {
            unreachable!("a screen of each size")
        };
        let (a, b, c) = tokio::join!(
            look.on(a, *aw, *ah, languages(players, 0, self.most)),
            look.on(b, *bw, *bh, languages(players, 1, self.most)),
            look.on(c, *cw, *ch, languages(players, 2, self.most))
        );
        self.problems.extend(a.into_iter().chain(b).chain(c));
    }

    /// The table screen at 1280×800 as players with each common colour blindness see it,
    /// kept as `layout-<players>p-<stage>-<deficiency>-1280x800.png` for people to look
    /// at; what it must not lose is checked by `support/apart.js`.
    async fn colour_blind(&self, players: usize, stage: &str) {
        let (client, ..) = &self.clients[0];
        for (deficiency, matrix) in [
            (
                "deuteranopia",
                "0.625 0.375 0 0 0 0.7 0.3 0 0 0 0 0.3 0.7 0 0 0 0 0 1 0",
            ),
            (
                "protanopia",
                "0.567 0.433 0 0 0 0.558 0.442 0 0 0 0 0.242 0.758 0 0 0 0 0 1 0",
            ),
            (
                "tritanopia",
                "0.95 0.05 0 0 0 0 0.433 0.567 0 0 0 0.475 0.525 0 0 0 0 0 1 0",
            ),
        ] {
            client
                .script(&format!(
                        "const ns = 'http://www.w3.org/2000/svg';
                         const svg = document.createElementNS(ns, 'svg');
                         svg.setAttribute('width', '0'); svg.setAttribute('height', '0'); svg.style.position = 'absolute';
                         svg.innerHTML = '<filter id=\"{deficiency}\"><feColorMatrix type=\"matrix\" values=\"{matrix}\"/></filter>';
                         document.body.append(svg);
                         document.documentElement.style.filter = 'url(#{deficiency})';"
                    )).await;
            screenshot(
                client,
                &format!("layout-{players}p-{stage}-{deficiency}-1280x800"),
            )
            .await;
        }
    }

    async fn finish(self) {
        for (client, ..) in self.clients {
            client.close().await.unwrap();
        }
        assert!(self.problems.is_empty(), "{}", self.problems.join("\n"));
    }
}

/// The languages the screen of `size` (an index of [`SIZES`]) is looked at in with
/// `players` at the table: all three where the board is fullest (the `most` its rules
/// allow: 7 for Mysterium) or each psychic plays two colours (2 and 3); from 4 to one fewer
/// than the most, one a size, in turn, so that each of those counts is seen at every size
/// and every language at every size among them.
fn languages(players: usize, size: usize, most: usize) -> Vec<&'static str> {
    if (4..most).contains(&players) {
        vec![LANGUAGES[(players + size) % LANGUAGES.len()]]
    } else {
        LANGUAGES.to_vec()
    }
}

/// A stage of a game looked at: `hash` on the table at `origin`, once `ready` is drawn.
struct Look<'a> {
    origin: &'a str,
    /// A first game's steps shown on the board.
    guide: bool,
    players: usize,
    stage: &'a str,
    hash: &'a str,
    ready: &'a str,
}

impl Look<'_> {
    /// What does not fit on one screen (`client`, `width`×`height`) in each of `languages`;
    /// each look kept as a screenshot.
    async fn on(
        &self,
        client: &Client,
        width: u32,
        height: u32,
        languages: Vec<&str>,
    ) -> Vec<String> {
        let Look {
            origin,
            guide,
            players,
            stage,
            hash,
            ready,
        } = *self;
        let mut problems = Vec::new();
        for lang in languages {
            speak(client, lang).await;
            let guide = if guide { "on" } else { "off" };
            client
                .script(&format!("localStorage.setItem('seance.guide', '{guide}')"))
                .await;
            // A new query makes a whole new page, which takes the language.
            let url = format!("{}/?look={stage}-{lang}{hash}", origin);
            go(client, &url).await;
            wait_for(client, ready).await;
            let shot = format!("layout-{players}p-{stage}-{lang}-{width}x{height}");
            screenshot(client, &shot).await;
            let scroll = width < 700;
            for problem in misfits(client, scroll).await {
                problems.push(format!("{shot}: {problem}"));
            }
            // Read across the table: on a tablet, whatever the board says (a tile's names of
            // the three kinds of card aside); on a phone, a token's letters.
            if scroll {
                let small = client
                    .script(
                        "return [...document.querySelectorAll('.token .initials')]
                           .map((e) => parseFloat(getComputedStyle(e).fontSize)).filter((px) => px < 16)",
                    )
                    .await;
                if small.as_array().is_some_and(|s| !s.is_empty()) {
                    problems.push(format!("{shot}: tokens' letters in {small} px type"));
                }
            } else {
                let small = small_type(client, ".board", ".progress .what", 16.0).await;
                problems.extend(
                    small
                        .into_iter()
                        .map(|p| format!("{shot}: under 16 px: {p}")),
                );
            }
            // Phase 2 on a tablet takes the whole screen: no band across it a tenth of
            // its height or more with nothing in it.
            if !scroll && PHASE_TWO.contains(&stage) {
                let band: [u32; 2] =
                    serde_json::from_value(client.script(include_str!("support/filled.js")).await)
                        .unwrap();
                if (band[1] - band[0]) * 10 >= height {
                    problems.push(format!(
                        "{shot}: nothing drawn from {} px to {} px down",
                        band[0], band[1]
                    ));
                }
            }
            let apart = client.script(include_str!("support/apart.js")).await;
            for problem in serde_json::from_value::<Vec<String>>(apart).unwrap() {
                problems.push(format!("{shot}: {problem}"));
            }
        }
        problems
    }
}

/// Waits while the table screens read the count out, as they do by themselves; the
/// snapshot once they have.
async fn read_on(screens: &Screens, id: u64, mut snapshot: Value) -> Value {
    while snapshot["view"]["counting"] == true {
        tokio::time::sleep(std::time::Duration::from_millis(200)).await;
        snapshot = screens
            .api("GET", &format!("/mysterium/{id}"), Value::Null)
            .await;
    }
    snapshot
}

async fn classic(driver: u16, players: usize, phase: Phase) {
    let mut screens = Screens::open(driver, 7).await;
    // The table has told its board's 6-7 side once (its 4-5 side not), so 6 and 7 players
    // are never asked for a level, and 4 and 5 players see where the bands are uncertain.
    let setup = json!({"ghost": "Laura", "difficulty": "hard", "secrets": "app_kept",
        "track_bands": {"6-7": {"intermediate": 4, "high": 8}}});
    let (id, secrets) = screens.start(setup, players).await;
    let hash = format!("#/game/{id}");
    screens
        .api(
            "POST",
            &format!("/mysterium/{id}/timer"),
            json!({"action": "duration", "seconds": 600}),
        )
        .await;
    let psychics = secrets.as_array().unwrap().len();
    let one = phase == Phase::One;
    if one {
        screens.look(players, "layout", &hash, "#begin").await;
    }

    // Three turns in which everyone finds their card, the first seen at each phase.
    for k in 0..3 {
        for i in 0..psychics {
            screens
                .send(id, json!({"type": "give_vision", "psychic": i}))
                .await;
            let card = &secrets[i][k];
            screens
                .send(
                    id,
                    json!({"type": "place_intuition", "psychic": i, "card": card}),
                )
                .await;
            if one && k == 0 && i == 0 {
                screens
                    .look(players, "visions", &hash, "#stage.visions")
                    .await;
            }
        }
        // The sand turns after the last vision.
        let mut snapshot = screens
            .api("GET", &format!("/mysterium/{id}"), Value::Null)
            .await;
        // A token from each psychic on every pawn the rules offer: ✓ from the even, ✗ from
        // the odd where offered.
        while let Some(token) = unplaced(&snapshot) {
            let mut place = first_choice(&token);
            if token["by"].as_u64().unwrap() % 2 == 1 {
                place["face"] = token["faces"].as_array().unwrap().last().unwrap().clone();
            }
            snapshot = screens.send(id, place).await;
        }
        if one && k == 0 {
            screens
                .look(players, "interpretation", &hash, "#timer-digits")
                .await;
            screens.colour_blind(players, "interpretation").await;
            // A first game: the steps take the hint's place, the timer one row.
            screens.guide = true;
            screens
                .look(players, "guide-interpretation", &hash, "#guide li")
                .await;
            screens.guide = false;
        }
        screens
            .send(id, json!({"type": "end_interpretation"}))
            .await;
        for i in 0..psychics {
            screens
                .send(id, json!({"type": "manifest", "psychic": i}))
                .await;
            if one && k == 0 && i == 0 {
                screens
                    .look(players, "manifestation", &hash, "#stage.manifestation")
                    .await;
            }
        }
        if one && k == 0 {
            screens
                .look(players, "next-hour", &hash, "#last-turn")
                .await;
        }
    }
    if one {
        return screens.finish().await;
    }
    screens.look(players, "revelation", &hash, "#line-up").await;
    // The revelation, each step the first the rules offer, to the end.
    let mut snapshot = screens
        .api("GET", &format!("/mysterium/{id}"), Value::Null)
        .await;
    let spaces = snapshot["view"]["spaces"].as_array().unwrap();
    assert!(
        players < 4 || (players >= 6) == spaces.iter().all(|space| !space.is_null()),
        "only the told side has no uncertain space: {spaces:?}"
    );
    let mut voting = false;
    while snapshot["view"]["phase"] != "ended" {
        snapshot = read_on(&screens, id, snapshot).await;
        if snapshot["view"]["phase"] == "ended" {
            break;
        }
        let next = next_in_revelation(&snapshot);
        assert!(
            players < 6 || next["type"] != "state_level",
            "the told board settles every level"
        );
        if next["type"] == "vote" && !voting {
            voting = true;
            screens.look(players, "vote", &hash, "#line-up").await;
        }
        snapshot = screens.send(id, first_choice(&next)).await;
    }
    screens.look(players, "ended", &hash, "#stage.ending").await;
    screens.finish().await;
}

/// The new edition's stages: its own words, no sand timer and no track, the traces and the
/// mediums' decision.
async fn new_edition(driver: u16, players: usize) {
    let mut screens = Screens::open(driver, 7).await;
    let (id, secrets) = screens.start(new_edition_setup(), players).await;
    let hash = format!("#/game/{id}");
    let mediums = secrets.as_array().unwrap().len();
    screens.look(players, "new-layout", &hash, "#begin").await;
    for k in 0..3 {
        for i in 0..mediums {
            screens
                .send(id, json!({"type": "give_vision", "psychic": i}))
                .await;
            screens
                .send(
                    id,
                    json!({"type": "place_intuition", "psychic": i, "card": &secrets[i][k]}),
                )
                .await;
            if k == 0 && i == 0 {
                screens
                    .look(players, "new-visions", &hash, "#stage.visions")
                    .await;
            }
        }
        if k == 0 {
            screens
                .look(players, "new-interpretation", &hash, "#convinced")
                .await;
        }
        screens
            .send(id, json!({"type": "end_interpretation"}))
            .await;
        for i in 0..mediums {
            screens
                .send(id, json!({"type": "manifest", "psychic": i}))
                .await;
            if k == 0 && i == 0 {
                screens
                    .look(players, "new-resolution", &hash, "#stage.manifestation")
                    .await;
            }
        }
    }
    screens.look(players, "new-traces", &hash, "#line-up").await;
    let mut snapshot = screens
        .api("GET", &format!("/mysterium/{id}"), Value::Null)
        .await;
    let mut deciding = false;
    while snapshot["view"]["phase"] != "ended" {
        snapshot = read_on(&screens, id, snapshot).await;
        if snapshot["view"]["phase"] == "ended" {
            break;
        }
        let next = new_edition_step(&snapshot);
        // The mediums decide: they agree on a trace, or vote.
        if matches!(next["type"].as_str(), Some("pick_group" | "vote")) && !deciding {
            deciding = true;
            screens.look(players, "new-decision", &hash, "#agree").await;
        }
        snapshot = screens.send(id, first_choice(&next)).await;
    }
    screens
        .look(players, "new-ended", &hash, "#stage.ending")
        .await;
    screens.finish().await;
}

async fn rummy(driver: u16) {
    let mut screens = Screens::open(driver, 4).await;
    for players in [2, 4] {
        let names = &NAMES[..players];
        let id = screens
            .api(
                "POST",
                "/rummy",
                json!({"setup": {"players": names}, "seed": players}),
            )
            .await["id"]
            .as_u64()
            .unwrap();
        screens
            .look(
                players,
                "rummy",
                &format!("#/rummy/{id}"),
                "#rummy[data-version]",
            )
            .await;
    }
    screens.finish().await;
}
