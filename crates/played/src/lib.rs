//! Games played by the rules to their ends, for the tests of what keeps and shows finished
//! games: Mysterium of either edition at any size, a history file of them as a table would
//! have saved it, and Mystery Rummy's rounds with their votes; and a refusal's English
//! words checked for the rule sets' tests ([`worded`]); two commands sent at once
//! ([`check_at_once`]); a crate's imports and their circles, for
//! the tests that hold the crates to layers ([`layers`]); a small disk of a test's own, to
//! fill or make read-only ([`SmallDisk`]); and, with the feature `fake-rule-set`, a third
//! rule set for the registries' test (`fake`).

mod at_once;
mod disk;
#[cfg(feature = "fake-rule-set")]
pub mod fake;
pub mod layers;

pub use at_once::check_at_once;
pub use disk::SmallDisk;

use seance_rules::{
    Action, CardBox, CardSet, Command, Deal, Difficulty, Entry, Event, Listed, Phase, SecretMode,
    Setup, Timeline,
};
use seance_timeline::Who;
use serde_json::{Value, json};

/// When the evening's first game began (seconds since 1970), in the past.
pub const DAY: i64 = 1_790_000_000;

/// A Mysterium game played by the rules (app-kept, pass-and-play): its start, its entries,
/// and how it went.
pub struct Played {
    pub start: Vec<Event>,
    pub entries: Vec<Entry>,
    pub timeline: Timeline,
}

impl Played {
    fn play(&mut self, command: Command) {
        let shown = format!("{command:?}");
        let entry = self
            .timeline
            .decide(command)
            .unwrap_or_else(|e| panic!("{shown} refused: {e}"));
        self.entries.push(entry.clone());
        self.timeline.push(entry).unwrap();
    }
}

/// A classic game of ghost `ghost` and `psychics` at `difficulty` (the ghost keeping group 1
/// for the culprit): every psychic wrong until hour `right_from`, right from then on; in
/// the revelation, everyone votes for the culprit's group, or (`right_vote` false) for
/// another.
pub fn mysterium(
    ghost: &str,
    psychics: &[&str],
    difficulty: Difficulty,
    right_from: u8,
    right_vote: bool,
) -> Played {
    let setup = Setup::with_dealt_colours(ghost, psychics, difficulty, SecretMode::AppKept);
    play(setup, right_from, right_vote)
}

/// A box of the new edition with two sets in each category, numbered alike in every
/// category (1–8 and 9–16), so that a card is told apart by its category as well as its
/// number.
pub fn card_box() -> CardBox {
    let set = |name: &str, first: u8| CardSet {
        name: name.into(),
        cards: (first..first + 8).collect(),
    };
    let sets = || vec![set("green", 1), set("red", 9)];
    CardBox {
        characters: sets(),
        locations: sets(),
        objects: sets(),
    }
}

/// A new-edition game of ghost `ghost` and `mediums`, played as [`mysterium`]'s; in the
/// revelation the mediums agree on the culprit's trace, or (`right_pick` false) another.
pub fn new_edition(ghost: &str, mediums: &[&str], right_from: u8, right_pick: bool) -> Played {
    let deal = Deal::Sets {
        characters: None,
        locations: None,
        objects: None,
    };
    let setup = Setup::new_edition(ghost, mediums, SecretMode::AppKept, card_box(), deal);
    play(setup, right_from, right_pick)
}

fn play(setup: Setup, right_from: u8, right_vote: bool) -> Played {
    let (timeline, start) = seance_rules::begin(setup, 11).unwrap();
    let mut g = Played {
        start,
        entries: Vec::new(),
        timeline,
    };
    while g.timeline.game().phase == Phase::Visions {
        let game = g.timeline.game().clone();
        let searching: Vec<usize> = (0..game.psychics.len())
            .filter(|&i| game.psychics[i].seeking().is_some())
            .collect();
        for &p in &searching {
            g.play(Command::GiveVision { psychic: p });
        }
        for &p in &searching {
            let seeking = game.psychics[p].seeking().unwrap();
            let secret = game.assignments.as_ref().unwrap()[p][seeking.index()];
            let card = if game.hour >= right_from {
                secret
            } else {
                *game
                    .uncollected(seeking)
                    .iter()
                    .find(|&&c| c != secret)
                    .unwrap()
            };
            g.play(Command::PlaceIntuition { psychic: p, card });
        }
        g.play(Command::EndInterpretation);
        for &p in &searching {
            g.play(Command::Manifest {
                psychic: p,
                right: None,
            });
        }
    }
    // The revelation as the rules open it, step by step: the culprit chosen (classic; the
    // new edition draws it), levels stated, the cards revealed and the votes cast, or the
    // group agreed on.
    let table = Who::Table { phones: Vec::new() };
    while g.timeline.game().phase == Phase::Revelation {
        let game = g.timeline.game();
        let culprit = game.culprit.unwrap_or(1);
        let group = if right_vote {
            culprit
        } else {
            culprit % game.groups.len() as u8 + 1
        };
        // What the table may do now, the first step of the revelation first.
        let (_, command) = game
            .allowed(&table)
            .into_iter()
            .filter_map(|action| match action {
                Action::ChooseCulprit { .. } => Some((0, Command::ChooseCulprit { group: 1 })),
                // The highest level their space may be read as, once.
                Action::StateLevel { psychic, levels } if game.level_of(psychic).is_none() => {
                    let level = *levels.last()?;
                    Some((1, Command::StateLevel { psychic, level }))
                }
                Action::Vote { psychic, .. } => Some((2, Command::Vote { psychic, group })),
                Action::PickGroup { .. } => Some((3, Command::PickGroup { group })),
                Action::ShareVision => Some((4, Command::ShareVision)),
                Action::RevealVisionCard => Some((5, Command::RevealVisionCard)),
                // The count read out at once.
                Action::ShowCount { lines } => Some((
                    6,
                    Command::ShowCount {
                        lines: *lines.last()?,
                    },
                )),
                _ => None,
            })
            .min_by_key(|&(step, _)| step)
            .expect("the revelation goes on until the game ends");
        g.play(command);
    }
    g
}

/// The journal's entry format this build writes (`seance_journal::FORMAT`, which the
/// server's history test holds this to): the entries here are this build's rules' own.
pub const ENTRY_FORMAT: i64 = 2;

/// A history file of `games`, each with when it began and how many minutes it lasted.
pub fn history_file(games: &[(&Played, i64, i64)]) -> Value {
    let games: Vec<Value> = games
        .iter()
        .enumerate()
        .map(|(i, (g, began, minutes))| {
            json!({
                "origin": format!("another-table/{}", i + 1),
                "ruleset": seance_rules::RuleSet::Mysterium.name(),
                "began": began,
                "ended": began + minutes * 60,
                "start": g.start,
                "entries": g.entries.iter().map(|e| json!({"format": ENTRY_FORMAT, "entry": e, "sender": "table"})).collect::<Vec<_>>(),
            })
        })
        .collect();
    json!({"format": "seance-history", "version": 1, "exported_at": 1_795_900_000, "games": games})
}

/// A round of Mystery Rummy for Ann and Ben ([`rummy_round_of`]).
pub fn rummy_round(caller: &Value) -> Vec<Value> {
    rummy_round_of(2, caller)
}

/// Who the rules let call the vote now, in a scorepad's snapshot.
pub fn vote_caller(snapshot: &Value) -> Value {
    snapshot["allowed"]
        .as_array()
        .unwrap()
        .iter()
        .find(|a| a["type"] == "call_vote")
        .unwrap()["players"][0]
        .clone()
}

/// An evening of three Mysterium games: won at Medium by five players, right every turn;
/// lost on time at Easy by four, never right; lost on the wrong group at Hard by five,
/// right from hour II. Ghosts Laura, Stephanie, Laura.
pub fn evening() -> [Played; 3] {
    let five = ["Stephanie", "Alex", "Carl", "Paul"];
    [
        mysterium("Laura", &five, Difficulty::Medium, 1, true),
        mysterium(
            "Stephanie",
            &["Laura", "Alex", "Carl"],
            Difficulty::Easy,
            8,
            true,
        ),
        mysterium("Laura", &five, Difficulty::Hard, 2, false),
    ]
}

/// The evening's history file: the games began an hour apart and lasted 45, 70 and 52
/// minutes.
pub fn evening_file([won, on_time, wrong_group]: &[Played; 3]) -> Value {
    history_file(&[
        (won, DAY, 45),
        (on_time, DAY + 3600, 70),
        (wrong_group, DAY + 7200, 52),
    ])
}

/// A whole game of Mystery Rummy for `players` (2 to 4), to its end: each round the first
/// player names Jack (five Druitt Evidence of theirs lie on the table) and the others Jill
/// (the second player's three Jill Evidence), so the first wins. Its timeline.
pub fn rummy(players: &[&str]) -> seance_rummy::Timeline {
    let setup = seance_rummy::Setup {
        players: players.iter().map(|p| p.to_string()).collect(),
        printed: Default::default(),
    };
    let (mut timeline, _) = seance_rummy::begin(setup, 5).unwrap();
    let table = Who::Table { phones: Vec::new() };
    while timeline.game().record().is_none() {
        let allowed = json!({ "allowed": timeline.game().allowed(&table) });
        for command in rummy_round_of(players.len(), &vote_caller(&allowed)) {
            let command = serde_json::from_value(command).unwrap();
            let entry = timeline.decide(command).unwrap();
            timeline.push(entry).unwrap();
        }
    }
    timeline
}

/// A round of Mystery Rummy for `players` as the table sends it, two Victims in play, the
/// vote called by `caller`: the first player votes for Druitt, who is Jack (their five
/// Druitt Evidence lie on the table), the others for Jill (the second player's three). A
/// caller past the second has a set of Letters.
pub fn rummy_round_of(players: usize, caller: &Value) -> Vec<Value> {
    let mut commands = vec![json!({"type": "call_vote", "by": caller})];
    for player in 0..players {
        let suspect = if player == 0 { 0 } else { 5 };
        commands.push(json!({"type": "vote", "player": player, "suspect": suspect}));
    }
    let mut tally = vec![
        json!({"evidence": [5, 0, 0, 0, 0, 0]}),
        json!({"evidence": [0, 0, 0, 0, 0, 3], "suspect_cards": [false, false, false, false, false, true]}),
    ];
    tally.resize(players, json!({}));
    if let Some(caller) = caller.as_u64().filter(|&c| c >= 2) {
        tally[caller as usize] = json!({"letters": 3});
    }
    commands.push(
        json!({"type": "end_round", "tally": {"ending": {"how": "last_card"},
        "victims_in_play": 2, "players": tally}}),
    );
    commands
}

/// Asserts that `result` (a rule set's answer to a command or a setup) is a refusal with
/// `code`, worded in English with a param for each blank ([`worded`]); gives the refusal,
/// for its params to be checked.
#[macro_export]
macro_rules! assert_refused {
    ($result:expr, $code:expr $(,)?) => {{
        let refusal = match $result {
            Ok(done) => panic!("expected the refusal {}, got {:?}", $code, done),
            Err(refusal) => refusal,
        };
        assert_eq!(refusal.code, $code, "{refusal}");
        $crate::worded(&refusal);
        refusal
    }};
}

/// Panics unless `refusal` has its words in the English file and a param for each blank.
pub fn worded(refusal: &seance_timeline::Refusal) {
    static ENGLISH: std::sync::LazyLock<std::collections::HashMap<String, String>> =
        std::sync::LazyLock::new(|| {
            let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../ui/i18n/en.json");
            serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
        });
    let phrase = ENGLISH
        .get(&format!("refusal.{}", refusal.code))
        .unwrap_or_else(|| panic!("no English words for {refusal}"));
    let unfilled = refusal.unfilled(phrase);
    assert!(
        unfilled.is_empty(),
        "{refusal} leaves {unfilled:?} blank in {phrase:?}"
    );
}
