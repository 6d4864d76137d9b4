//! Mysterium games played by the rules to their ends, a history file of them as a table
//! would have saved it, and a round of Mystery Rummy with its votes: for the server's history tests and the end-to-end history screens
//! (which include this file by its path).

use seance_rules::{
    Command, Difficulty, Entry, Event, Level, Phase, Rules, SecretMode, Setup, Timeline,
};
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

/// Ghost `ghost` and `psychics` at `difficulty`: every psychic wrong until hour
/// `right_from`, right from then on; in the revelation, everyone votes for the culprit's
/// group, or (`right_vote` false) for another.
pub fn mysterium(
    ghost: &str,
    psychics: &[&str],
    difficulty: Difficulty,
    right_from: u8,
    right_vote: bool,
) -> Played {
    let setup = Setup::with_dealt_colours(ghost, psychics, difficulty, SecretMode::AppKept);
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
    if g.timeline.game().phase == Phase::Revelation {
        g.play(Command::ChooseCulprit { group: 1 });
        let vote = if right_vote { 1 } else { 2 };
        let psychics = g.timeline.game().psychics.len();
        for psychic in 0..psychics {
            if g.timeline.game().level_of(psychic).is_none() {
                g.play(Command::StateLevel {
                    psychic,
                    level: Level::High,
                });
            }
        }
        while g.timeline.game().phase != Phase::Ended {
            g.play(Command::RevealVisionCard);
            for psychic in 0..psychics {
                if g.timeline.game().level_of(psychic).unwrap().card() == g.timeline.game().revealed
                {
                    g.play(Command::Vote {
                        psychic,
                        group: vote,
                    });
                }
            }
        }
    }
    g
}

/// A history file of `games`, each with when it began and how many minutes it lasted.
pub fn history_file(games: &[(&Played, i64, i64)]) -> Value {
    let games: Vec<Value> = games
        .iter()
        .enumerate()
        .map(|(i, (g, began, minutes))| {
            json!({
                "origin": format!("another-table/{}", i + 1),
                "ruleset": seance_rules::Game::RULESET,
                "began": began,
                "ended": began + minutes * 60,
                "start": g.start,
                "entries": g.entries.iter().map(|e| json!({"format": 1, "entry": e, "sender": "table"})).collect::<Vec<_>>(),
            })
        })
        .collect();
    json!({"format": "seance-history", "version": 1, "exported_at": 1_795_900_000, "games": games})
}

/// A round of Mystery Rummy for Ann and Ben as the table sends it, the vote called by
/// `caller`: Ann votes for Druitt, who is Jack (five Druitt Evidence lie on the table), Ben
/// for Jill.
pub fn rummy_round(caller: &Value) -> [Value; 4] {
    [
        json!({"type": "call_vote", "by": caller}),
        json!({"type": "vote", "player": 0, "suspect": 0}),
        json!({"type": "vote", "player": 1, "suspect": 5}),
        json!({"type": "end_round", "tally": {"ending": {"how": "last_card"}, "players": [
            {"evidence": [5, 0, 0, 0, 0, 0]},
            {"evidence": [0, 0, 0, 0, 0, 3], "suspect_cards": [false, false, false, false, false, true]}]}}),
    ]
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
