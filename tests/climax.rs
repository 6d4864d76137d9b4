//! The climax kept, in real Chromium: a table screen, the ghost and two psychics on phones
//! and a watcher, through a classic game of 5 and of 7 players and a new-edition game of 5,
//! each in its own language. Every screen's text is sampled every 100 ms through Phase 2:
//! none may tell the outcome before the table shows the count's last line, and every phone
//! and the watcher must show each line of the count within a second of the table. Then the
//! ending on every phone. On the way: a knock seen on the table, a watcher's running sand
//! timer. Screenshots of the count at its start, middle and verdict, table and phone.

use std::collections::HashMap;
use std::time::Duration;

use fantoccini::Client;
use seance_e2e::{
    Browsers, Page, Table, act, api, attr, chromium, command, ghost_cards, ghost_phone, go,
    new_edition_setup, new_game, phone_on_seats, present, revelation_step, said, says, screenshot,
    speak, tap, text, under_the_knock, wait_for, wait_for_text,
};
use serde_json::{Value, json};

use crate::Test;

pub fn tests(p: u16) -> Vec<Test> {
    vec![
        (
            "climax: classic with 5 players tells the count in step and nothing before",
            Box::pin(climax(p, Game::Classic(5), "en")),
        ),
        (
            "climax: classic with 7 players tells the count in step and nothing before",
            Box::pin(climax(p, Game::Classic(7), "fr")),
        ),
        (
            "climax: the new edition with 5 players tells the count in step and nothing before",
            Box::pin(climax(p, Game::New(5), "it")),
        ),
    ]
}

#[derive(Clone, Copy)]
enum Game {
    Classic(usize),
    New(usize),
}

const NAMES: [&str; 6] = ["Stephanie", "Alex", "Carl", "Paul", "Mathieu", "Léa"];
const COLOURS: [&str; 6] = ["red", "yellow", "blue", "purple", "white", "green"];

impl Game {
    fn setup(self) -> Value {
        let (players, mut setup) = match self {
            Game::Classic(n) => (
                n,
                json!({"ghost": "Laura", "difficulty": "easy", "secrets": "app_kept"}),
            ),
            Game::New(n) => (n, new_edition_setup()),
        };
        setup["players"] = (0..players - 1)
            .map(|i| json!({"name": NAMES[i], "colours": [COLOURS[i]]}))
            .collect();
        setup
    }

    fn new_edition(self) -> bool {
        matches!(self, Game::New(_))
    }
}

/// Every screen's text, the count's lines and whether an outcome mark is drawn, sampled
/// every 100 ms on the page's own clock (one machine: one clock for all).
const SAMPLE: &str = "window.samples = [];
  new MutationObserver(() => {
    window.verdictAt ??= document.querySelector(\"[data-chosen='true'], [data-culprit='true'], #outcome, #phone-outcome\") ? Date.now() : undefined;
  }).observe(document.body, { subtree: true, childList: true, attributes: true });
  setInterval(() => window.samples.push([Date.now(), document.body.innerText,
    [...document.querySelectorAll('#count li')].map((li) => li.innerText),
    document.querySelector(\"[data-chosen='true'], [data-culprit='true'], #outcome, #phone-outcome\") !== null,
    document.querySelector('#phone-culprit-is, #ghost-culprit') !== null, document.querySelector('#count') !== null]), 100);";

struct Sample {
    at: f64,
    text: String,
    lines: Vec<String>,
    marked: bool,
    /// The ghost's culprit on screen.
    culprit: bool,
    /// The count (its heading at least) on screen.
    count: bool,
}

async fn samples(client: &Client) -> Vec<Sample> {
    let raw = client.script("return window.samples").await;
    raw.as_array()
        .unwrap()
        .iter()
        .map(|s| Sample {
            at: s[0].as_f64().unwrap(),
            text: s[1].as_str().unwrap().to_owned(),
            lines: serde_json::from_value(s[2].clone()).unwrap(),
            marked: s[3].as_bool().unwrap(),
            culprit: s[4].as_bool().unwrap(),
            count: s[5].as_bool().unwrap(),
        })
        .collect()
}

/// The words that tell the end in `lang` (in the edition's own words where it has them):
/// each phrase of the outcome and of the log's end, with the groups chosen and the
/// culprit's filled in.
fn verdict_words(lang: &str, new: bool, chosen: &Value, culprit: &Value) -> Vec<String> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../ui/i18n/");
    let words: HashMap<String, String> =
        serde_json::from_str(&std::fs::read_to_string(format!("{path}{lang}.json")).unwrap())
            .unwrap();
    let keys = [
        "outcome.won",
        "outcome.won_why",
        "outcome.lost_wrong_group",
        "outcome.lost_wrong_group_why",
        "log.ended_won",
        "log.ended_lost",
    ];
    keys.iter()
        .map(|k| {
            let own = format!("new:{k}");
            words
                .get(&own)
                .filter(|_| new)
                .unwrap_or_else(|| &words[*k])
                .clone()
        })
        .map(|phrase| {
            phrase
                .replace("{chosen}", &chosen.to_string())
                .replace("{culprit}", &culprit.to_string())
        })
        .collect()
}

/// A phone that joins game `id`, speaking `lang`, and takes `seat`, or only watches (`None`).
async fn phone(driver: u16, table: &Table, lang: &str, id: u64, seat: Option<&str>) -> Client {
    let client = phone_on_seats(&Browsers::chromium(driver), table, &format!("#/join/{id}")).await;
    speak(&client, lang).await;
    client.refresh().await.unwrap();
    wait_for(&client, "button[data-seat]").await;
    match seat {
        Some(seat) => {
            tap(&client, &format!("button[data-seat='{seat}']")).await;
            wait_for(&client, &format!("#phone[data-role='{seat}']")).await;
        }
        None => {
            tap(&client, "#watch").await;
            wait_for(&client, "#watching").await;
        }
    }
    client
}

async fn view(tablet: &Client, id: u64) -> Value {
    api(tablet, "GET", &format!("/mysterium/{id}"), Value::Null).await
}

async fn climax(driver: u16, game: Game, lang: &str) {
    let table = Table::start(0);
    let tablet = chromium(driver, 1280, 800).await;
    go(&tablet, &table.local_url).await;
    wait_for(&tablet, "#home").await;
    speak(&tablet, lang).await;
    let id = new_game(&tablet, game.setup(), 7).await;
    let secrets = ghost_cards(&tablet, id).await;
    let psychics = secrets.as_array().unwrap().len();
    // A new query makes a whole new page, which takes the language.
    go(
        &tablet,
        &format!("{}/?climax={lang}#/game/{id}", table.origin()),
    )
    .await;
    tap(&tablet, "#begin").await;
    let ghost = ghost_phone(&Browsers::chromium(driver), &table, &tablet, id).await;
    speak(&ghost, lang).await;
    ghost.refresh().await.unwrap();
    wait_for(&ghost, "#phone[data-role='ghost'][data-version]").await;
    let seated = [
        phone(driver, &table, lang, id, Some("psychic:0")).await,
        phone(driver, &table, lang, id, Some("psychic:1")).await,
    ];
    let watcher = phone(driver, &table, lang, id, None).await;

    // Phase 1 as the table enters it, every psychic right each turn.
    for k in 0..3 {
        for (i, cards) in secrets.as_array().unwrap().iter().enumerate() {
            command(&tablet, id, json!({"type": "give_vision", "psychic": i})).await;
            let card = &cards[k];
            let place = json!({"type": "place_intuition", "psychic": i, "card": card});
            command(&tablet, id, place).await;
        }
        if k == 0 && !game.new_edition() {
            // The sand runs on the watcher's screen as on every other.
            let first = text(&watcher, "#timer-digits").await;
            tokio::time::sleep(Duration::from_millis(2200)).await;
            let later = text(&watcher, "#timer-digits").await;
            assert_ne!(first, later, "the watcher's sand timer stands still");
        }
        command(&tablet, id, json!({"type": "end_interpretation"})).await;
        for i in 0..psychics {
            command(&tablet, id, json!({"type": "manifest", "psychic": i})).await;
        }
    }
    wait_for(&tablet, "#game[data-phase='revelation']").await;

    // A knock from the ghost's phone is seen on the table, in words and marks; in the new
    // edition, whose answers knock as they are recorded, the phone has no knock of its own.
    if game.new_edition() {
        assert!(
            !present(&ghost, ".knocks").await,
            "the new edition's ghost knocks"
        );
    } else {
        knocked(&tablet, &ghost).await;
    }
    screenshot(&tablet, &format!("climax-knock-{lang}-1280x800")).await;

    let screens: [&Client; 5] = [&tablet, &ghost, &seated[0], &seated[1], &watcher];
    for screen in screens {
        screen.script(SAMPLE).await;
    }

    // Phase 2: the culprit sealed on the ghost's phone (classic), the seated psychics'
    // votes on their phones for it, the others' at the table for another group.
    let culprit: u64 = if game.new_edition() {
        attr(&ghost, "#phone-culprit-is", "data-culprit")
            .await
            .unwrap()
            .parse()
            .unwrap()
    } else {
        tap(&ghost, "#phone-culprit .group[data-group='2']").await;
        act(&ghost, "#phone-seal").await;
        2
    };
    let mut shots = 0;
    loop {
        let now = view(&tablet, id).await;
        let view = &now["view"];
        if view["phase"] == "ended" {
            break;
        }
        if view["counting"] == true {
            // The table reads on by itself; a look at the start, the middle and the end.
            let shown = view["count"]["ballots"].as_array().unwrap().len()
                + view["count"]["steps"].as_array().unwrap().len();
            let moment = match (shots, shown) {
                (0, 1..) => Some("start"),
                (1, 4..) => Some("middle"),
                _ => None,
            };
            if let Some(moment) = moment {
                shots += 1;
                screenshot(&tablet, &format!("climax-{moment}-{lang}-1280x800")).await;
                screenshot(&seated[0], &format!("climax-{moment}-{lang}-390x844")).await;
            }
            tokio::time::sleep(Duration::from_millis(150)).await;
            continue;
        }
        if let Some(me) = (0..2).find(|&i| view["psychics"][i]["voting_now"] == true) {
            let phone = &seated[me];
            // The seal button is in sight without scrolling.
            let seal = wait_for(phone, "#phone-seal").await;
            screenshot(phone, &format!("climax-vote-{lang}-390x844")).await;
            let bottom = phone
                .execute(
                    "return arguments[0].getBoundingClientRect().bottom <= window.innerHeight",
                    vec![serde_json::to_value(&seal).unwrap()],
                )
                .await
                .unwrap();
            assert_eq!(bottom, true, "the seal button is below the fold");
            tap(
                phone,
                &format!("#phone-vote .group[data-group='{culprit}']"),
            )
            .await;
            act(phone, "#phone-seal").await;
            continue;
        }
        let (kind, mut sent) = revelation_step(&now);
        if kind == "vote" {
            // One for the culprit's group, the others elsewhere.
            let psychic = sent["psychic"].as_u64().unwrap();
            let other = culprit % 4 + 1;
            sent["group"] = json!(if psychic == 2 { culprit } else { other });
        }
        command(&tablet, id, sent).await;
    }
    wait_for(&tablet, "#stage.ending").await;
    screenshot(&tablet, &format!("climax-verdict-{lang}-1280x800")).await;
    wait_for(&seated[0], "#phone-ending").await;
    screenshot(&seated[0], &format!("climax-verdict-{lang}-390x844")).await;
    tokio::time::sleep(Duration::from_millis(500)).await;

    let end = view(&tablet, id).await["view"].clone();
    let words = verdict_words(lang, game.new_edition(), &end["chosen"], &end["culprit"]);
    // When the table showed each line of the count, and its last: the verdict's moment.
    let table_samples = samples(&tablet).await;
    let lines = table_samples.last().unwrap().lines.clone();
    assert!(lines.len() >= 3, "a count on the table: {lines:?}");
    let first_with = |samples: &[Sample], line: &str| {
        samples
            .iter()
            .find(|s| s.lines.iter().any(|l| l == line))
            .map(|s| s.at)
    };
    let verdict_at = first_with(&table_samples, lines.last().unwrap()).unwrap();
    // The votes counted: the table's count appears, its lines yet to come.
    let counted_at = table_samples.iter().find(|s| s.count).unwrap().at;
    // The table's first line of the count: no other screen says the count is coming before.
    let begun_at = first_with(&table_samples, &lines[0]).unwrap();
    let reading = said(lang, "count.reading", &[]);
    let names = ["table", "ghost", "psychic 0", "psychic 1", "watcher"];
    // The table shows the verdict first: no other screen's comes earlier (each screen's
    // moment is when the verdict entered its page, on the one machine's clock).
    let mut verdicts = Vec::new();
    for screen in screens {
        let at = screen.script("return window.verdictAt ?? null").await;
        verdicts.push(at.as_f64().expect("every screen showed the verdict"));
    }
    for (at, name) in verdicts.iter().zip(names).skip(1) {
        assert!(
            *at >= verdicts[0],
            "{name} showed the verdict {} ms before the table",
            verdicts[0] - at
        );
    }
    for (screen, name) in screens.iter().zip(names) {
        let seen = samples(screen).await;
        // Nothing tells the end before the table shows the count's last line (a sample's
        // worth of slack for two screens sampled apart).
        for sample in seen.iter().filter(|s| s.at < verdict_at - 250.0) {
            assert!(!sample.marked, "{name} marked the outcome before the count");
            // Not even the ghost's own culprit, once the count is on its way.
            assert!(
                !(sample.culprit && sample.at > counted_at + 500.0),
                "{name} showed the culprit's group during the count"
            );
            if let Some(word) = words.iter().find(|w| sample.text.contains(w.as_str())) {
                panic!(
                    "{name} said {word:?} {} ms before the table's verdict:\n{}",
                    verdict_at - sample.at,
                    sample.text
                );
            }
        }
        if name != "table" {
            for sample in seen.iter().filter(|s| s.at < begun_at - 250.0) {
                assert!(
                    !sample.count && !says(&sample.text, &reading),
                    "{name} said the count {} ms before the table showed it:\n{}",
                    begun_at - sample.at,
                    sample.text
                );
            }
        }
        // Each line of the count within a second of the table's.
        for line in &lines {
            let table_at = first_with(&table_samples, line).unwrap();
            let at =
                first_with(&seen, line).unwrap_or_else(|| panic!("{name} never showed {line:?}"));
            assert!(
                (at - table_at).abs() <= 1000.0,
                "{name} showed {line:?} {} ms from the table",
                at - table_at
            );
        }
    }
    // The ending on every phone: the outcome, why, the count, and each psychic's part.
    for phone in &seated {
        wait_for(phone, "#phone-ending #phone-part").await;
        let shown = phone
            .script("return document.querySelectorAll('#phone-ending #count li').length")
            .await;
        assert_eq!(shown, json!(lines.len()));
    }
    wait_for(&ghost, "#phone-ending #phone-outcome").await;
    wait_for(&watcher, "#outcome").await;
    wait_for_text(&seated[0], "#phone-part", "3").await;
    for client in [tablet, ghost, watcher] {
        client.close().await.unwrap();
    }
    for client in seated {
        client.close().await.unwrap();
    }
}

/// A knock from the ghost's phone, seen on the table in words and marks, covering nothing of
/// the game.
async fn knocked(tablet: &Client, ghost: &Client) {
    tap(ghost, "#knock-2").await;
    wait_for(tablet, "#knock-seen[data-times='2']").await;
    let marks = text(tablet, "#knock-seen .marks").await;
    assert_eq!(marks.matches('●').count(), 2, "{marks}");
    let heard = text(tablet, "#last-change").await;
    assert_eq!(heard, text(tablet, "#knock-seen .words").await);
    // It covers nothing of the game: no group, and (classic) no marker on the track.
    assert_eq!(
        under_the_knock(tablet).await,
        Vec::<String>::new(),
        "the knock covers these"
    );
}
