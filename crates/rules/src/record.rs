//! A finished game of Mysterium as the history keeps it: the edition and difficulty, how it
//! ended and in which hour, the ghost, and how far each psychic got (cards found, the hour
//! they found their last, the space reached on the clairvoyancy track). Written once when
//! the game ends, so the history and its statistics never replay a game. Its lines in the
//! history's CSV table are here; what the records add up to is `statistics`.

use seance_history::{Among, Chronicle, Row};
use seance_timeline::{Listed, RuleSet};
use serde::{Deserialize, Serialize};

use crate::game::{Game, Outcome};
use crate::setup::{Colour, Difficulty, Edition, track_side};
use crate::statistics::Statistics;

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Record {
    pub edition: Edition,
    /// Classic only.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub difficulty: Option<Difficulty>,
    pub outcome: Outcome,
    /// The hour on the clock when Phase 1 ended (VII when time ran out).
    pub hour: u8,
    pub ghost: String,
    /// Everyone at the table, the ghost included.
    pub players: usize,
    /// Each psychic (a colour: a player of a 2- or 3-player game has two), in seating order.
    pub psychics: Vec<Reached>,
}

/// How far one psychic got.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Reached {
    pub name: String,
    pub colour: Colour,
    /// Cards found, 0 to 3.
    pub found: u8,
    /// The hour they found their last card in.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub finished: Option<u8>,
    /// The space reached on the clairvoyancy track, in a game that had one (classic, 4
    /// players or more).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub track: Option<u8>,
}

impl Record {
    /// `game` as the history keeps it, once it is over.
    pub fn of(game: &Game) -> Option<Record> {
        let track = game.setup.track_side().is_some();
        Some(Record {
            edition: game.setup.edition,
            difficulty: game.setup.difficulty,
            outcome: game.outcome?,
            hour: game.hour,
            ghost: game.setup.ghost.clone(),
            players: 1 + game.setup.players.len(),
            psychics: game
                .psychics
                .iter()
                .map(|p| Reached {
                    name: p.name.clone(),
                    colour: p.colour,
                    found: u8::try_from(p.found.len()).unwrap_or(u8::MAX),
                    finished: p.finished,
                    track: track.then_some(p.track),
                })
                .collect(),
        })
    }
}

impl Chronicle for Record {
    const RULE_SET: RuleSet = RuleSet::Mysterium;
    type Statistics = Statistics;

    /// The record as the game was: records written before Séance told games without a
    /// track apart (2 and 3 players) gave their psychics a track space of 0.
    fn mended(mut self) -> Record {
        if track_side(self.edition, self.players).is_none() {
            for p in &mut self.psychics {
                p.track = None;
            }
        }
        self
    }

    fn title(&self) -> &'static str {
        Game::titled(Some(self.edition.name())).source
    }

    fn dialect(&self) -> Option<&'static str> {
        self.edition.dialect()
    }

    /// The ghost first, then each psychic player once (a player of two colours is one).
    fn players(&self) -> Vec<&str> {
        let mut names = vec![self.ghost.as_str()];
        for p in &self.psychics {
            if !names.contains(&p.name.as_str()) {
                names.push(&p.name);
            }
        }
        names
    }

    /// The ghost's line, then a line per psychic (per colour).
    fn rows(&self) -> Vec<Row> {
        let game = Row {
            edition: Row::word(&self.edition),
            difficulty: self.difficulty.as_ref().map(Row::word).unwrap_or_default(),
            outcome: Row::word(&self.outcome),
            hour: self.hour.to_string(),
            winner: (self.outcome == Outcome::Won).to_string(),
            ..Row::default()
        };
        let ghost = Row {
            player: self.ghost.clone(),
            part: "ghost".into(),
            ..game.clone()
        };
        let psychics = self.psychics.iter().map(|p| Row {
            player: p.name.clone(),
            part: "psychic".into(),
            colour: Row::word(&p.colour),
            cards_found: p.found.to_string(),
            finished_in_hour: p.finished.map(|h| h.to_string()).unwrap_or_default(),
            clairvoyancy: p.track.map(|t| t.to_string()).unwrap_or_default(),
            ..game.clone()
        });
        std::iter::once(ghost).chain(psychics).collect()
    }

    fn statistics(games: &[&seance_history::Game<Record>], among: &Among) -> Statistics {
        Statistics::of(games, among)
    }
}
