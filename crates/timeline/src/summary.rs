//! A finished game as a play log keeps it: what game it was, who played, in which part,
//! who won, and their scores and ranks where the game keeps any. Each rule set says it of
//! its own games ([`crate::Listed::title`], [`crate::Listed::summary`]); the shells send it
//! on (BG Stats) without working it out.

use serde::Serialize;

/// The game as a play log (BG Stats) knows it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Title {
    pub name: &'static str,
    /// The game's own identity in the player's logs: each edition its own game.
    pub source: &'static str,
    /// Its BoardGameGeek id, where Séance knows it for sure.
    pub bgg_id: Option<u32>,
    /// The edition, where it has no BoardGameGeek id of its own.
    pub board: Option<&'static str>,
}

/// One player's line of a finished game.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct PlayerLine {
    pub name: String,
    /// The part they had, in the rule set's own word for a play log (BG Stats's `role`:
    /// `ghost`, `medium`); none in a game without parts (Mystery Rummy).
    pub role: Option<&'static str>,
    /// Whether the game began with them (in Mystery Rummy, the player on the first dealer's
    /// left).
    pub started: bool,
    pub winner: bool,
    /// Points, in a game that scores them.
    pub score: Option<i64>,
    /// 1 for the highest score (tied players share a rank), in a game that scores.
    pub rank: Option<usize>,
}

/// A finished game: its players in seating order (Mysterium's ghost first), and whether
/// they played together (all win or all lose) or each for themselves.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Summary {
    pub players: Vec<PlayerLine>,
    pub cooperative: bool,
}

impl Summary {
    /// Players with `scores`, each ranked by how many scored more, the game begun by
    /// `first`; the `winner` is the rules' own (a tie at the top is played out, so the
    /// highest score alone does not say).
    pub fn scored(names: &[String], scores: &[i64], first: usize, winner: usize) -> Summary {
        let players = names
            .iter()
            .zip(scores)
            .enumerate()
            .map(|(p, (name, &score))| PlayerLine {
                name: name.clone(),
                role: None,
                started: first == p,
                winner: winner == p,
                score: Some(score),
                rank: Some(1 + scores.iter().filter(|&&s| s > score).count()),
            })
            .collect();
        Summary {
            players,
            cooperative: false,
        }
    }
}
