//! What Mystery Rummy's finished games add up to, among everyone, a group or a player: the
//! rounds games took, the highest totals, each player's votes that named Jack, and their
//! wins. Counts only: the screens draw them and work nothing out.

use std::collections::BTreeMap;

use seance_history::{Among, Game, Rate};
use serde::Serialize;

use crate::record::Record;

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Statistics {
    pub games: u32,
    /// How many games took each number of rounds.
    pub rounds: Vec<(usize, u32)>,
    /// The highest totals, the best first (at most five).
    pub highest: Vec<Top>,
    /// Each player's votes, by name.
    pub accuracy: Vec<Accuracy>,
    /// Each player's wins, by name.
    pub wins: Vec<(String, Rate)>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Top {
    pub name: String,
    pub total: i32,
    pub game: i64,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Accuracy {
    pub name: String,
    pub cast: u32,
    pub right: u32,
}

/// The most totals [`Statistics::highest`] lists.
const HIGHEST: usize = 5;

impl Statistics {
    /// What `games` add up to; only `among`'s own figures.
    pub fn of(games: &[&Game<Record>], among: &Among) -> Statistics {
        let mut rounds: BTreeMap<usize, u32> = BTreeMap::new();
        let mut highest: Vec<Top> = Vec::new();
        let mut accuracy: BTreeMap<&str, Accuracy> = BTreeMap::new();
        let mut wins: BTreeMap<&str, Rate> = BTreeMap::new();
        for game in games {
            let r = &game.played;
            *rounds.entry(r.rounds).or_default() += 1;
            for (p, name) in r.players.iter().enumerate().filter(|(_, n)| among.about(n)) {
                highest.push(Top {
                    name: name.clone(),
                    total: r.totals.get(p).copied().unwrap_or(0),
                    game: game.id,
                });
                let votes = r.votes.get(p).copied().unwrap_or_default();
                let mine = accuracy.entry(name).or_insert_with(|| Accuracy {
                    name: name.clone(),
                    cast: 0,
                    right: 0,
                });
                mine.cast += votes.cast;
                mine.right += votes.right;
                wins.entry(name).or_default().add(r.winner == p);
            }
        }
        highest.sort_by(|a, b| b.total.cmp(&a.total).then_with(|| a.game.cmp(&b.game)));
        highest.truncate(HIGHEST);
        Statistics {
            games: games.len() as u32,
            rounds: rounds.into_iter().collect(),
            highest,
            accuracy: accuracy.into_values().collect(),
            wins: wins.into_iter().map(|(n, r)| (n.to_owned(), r)).collect(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::Votes;

    /// A game: each player's (name, total, votes cast, right), and the winner.
    fn game(id: i64, players: &[(&str, i32, u32, u32)], winner: usize) -> Game<Record> {
        let record = Record {
            players: players.iter().map(|p| p.0.into()).collect(),
            totals: players.iter().map(|p| p.1).collect(),
            winner,
            rounds: 3,
            votes: players
                .iter()
                .map(|p| Votes {
                    cast: p.2,
                    right: p.3,
                })
                .collect(),
        };
        Game::new(id, 0, 60, false, record)
    }

    #[test]
    fn the_highest_totals_are_the_best_five_earliest_first_on_a_tie() {
        let games: Vec<Game<Record>> = (1..=4)
            .map(|id| game(id, &[("Ann", 100, 2, 1), ("Ben", 90 + id as i32, 1, 0)], 0))
            .collect();
        let r = Statistics::of(&games.iter().collect::<Vec<_>>(), &Among::Everyone);
        let highest: Vec<_> = r
            .highest
            .iter()
            .map(|t| (t.name.as_str(), t.total, t.game))
            .collect();
        assert_eq!(
            highest,
            [
                ("Ann", 100, 1),
                ("Ann", 100, 2),
                ("Ann", 100, 3),
                ("Ann", 100, 4),
                ("Ben", 94, 4)
            ]
        );
        let ann = r.accuracy.iter().find(|a| a.name == "Ann").unwrap();
        assert_eq!((ann.cast, ann.right), (8, 4));
        assert_eq!(
            r.wins,
            [
                ("Ann".into(), Rate { games: 4, won: 4 }),
                ("Ben".into(), Rate { games: 4, won: 0 })
            ]
        );
        assert_eq!(r.rounds, [(3, 4)]);
    }
}
