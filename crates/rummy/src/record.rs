//! A finished game of Mystery Rummy as the history keeps it: the players' totals and the
//! winner, how many rounds it took, and each player's votes, how many named Jack. Written
//! once when the game ends, so the history and its statistics never score a game again.
//! Its lines in the history's CSV table are here; what the records add up to is
//! `statistics`.

use seance_history::{Among, Chronicle, Row};
use seance_timeline::{Listed, RuleSet};
use serde::{Deserialize, Serialize};

use crate::scorepad::Scorepad;
use crate::statistics::Statistics;

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Record {
    /// In seating order.
    pub players: Vec<String>,
    pub totals: Vec<i32>,
    pub winner: usize,
    pub rounds: usize,
    /// Each player's votes, in seating order.
    pub votes: Vec<Votes>,
}

/// One player's votes over a game: how many they cast, and how many named the suspect who
/// was Jack (a vote in a round the Ripper escaped names nobody rightly).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Votes {
    pub cast: u32,
    pub right: u32,
}

impl Record {
    /// `pad` as the history keeps it, once there is a winner.
    pub fn of(pad: &Scorepad) -> Option<Record> {
        let scored = pad.scored();
        let standings = crate::scorepad::standings_of(pad.players.len(), &scored);
        let mut votes = vec![Votes::default(); pad.players.len()];
        for (played, scored) in pad.rounds.iter().zip(&scored) {
            for (vote, votes) in played.votes.iter().zip(&mut votes) {
                if let Some(suspect) = *vote {
                    votes.cast += 1;
                    votes.right += u32::from(scored.verdict.jack == Some(suspect));
                }
            }
        }
        Some(Record {
            players: pad.players.clone(),
            totals: standings.totals,
            winner: standings.winner?,
            rounds: pad.rounds.len(),
            votes,
        })
    }
}

impl Chronicle for Record {
    const RULE_SET: RuleSet = RuleSet::MysteryRummy;
    type Statistics = Statistics;

    fn title(&self) -> &'static str {
        Scorepad::titled(None).source
    }

    fn players(&self) -> Vec<&str> {
        self.players.iter().map(String::as_str).collect()
    }

    /// A line per player, in seating order.
    fn rows(&self) -> Vec<Row> {
        self.players
            .iter()
            .enumerate()
            .map(|(p, name)| {
                let votes = self.votes.get(p).copied().unwrap_or_default();
                Row {
                    player: name.clone(),
                    part: "player".into(),
                    total: self.totals.get(p).copied().unwrap_or(0).to_string(),
                    winner: (self.winner == p).to_string(),
                    votes_right_of_cast: format!("{}/{}", votes.right, votes.cast),
                    ..Row::default()
                }
            })
            .collect()
    }

    fn statistics(games: &[&seance_history::Game<Record>], among: &Among) -> Statistics {
        Statistics::of(games, among)
    }
}
