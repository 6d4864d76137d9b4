//! The seats as their changes make them, in memory: the seats taken by game (a token
//! each), the tokens freed, each game's rematch, the table's open invitations; each change
//! as a line of the seats file says it (the file itself is `file.rs`), and only the latest
//! games kept.

use std::collections::BTreeMap;
use std::time::Instant;

use serde::{Deserialize, Serialize};

/// Games whose seats are kept: the latest, by number. A phone of an older game joins
/// again; memory and the file stay bounded however long a table plays.
pub(super) const KEPT_GAMES: usize = 256;

/// How many freed tokens a game remembers: more than its seats change hands in an evening.
const FREED_KEPT: usize = 32;

/// A seat a phone holds: its token, and the journal's commits when it was taken.
#[derive(Clone)]
pub(super) struct Held {
    pub token: String,
    pub at: u64,
}

/// The seats taken by game and seat name (`ghost`, `psychic:N`, `player:N`), the tokens
/// freed by game (they open nothing, but a phone still holding one is no guesser: it
/// retries until told), each game's rematch (phones of the one find the next), and the
/// table's open invitations by game and seat (in memory only: the table asks anew after a
/// restart).
#[derive(Default)]
pub(super) struct State {
    pub taken: BTreeMap<i64, BTreeMap<String, Held>>,
    pub freed: BTreeMap<i64, Vec<String>>,
    pub rematches: BTreeMap<i64, (i64, u64)>,
    pub invitations: BTreeMap<(i64, String), (String, Instant)>,
}

/// A line after the first: a change, with the journal's commits when it was made.
#[derive(Serialize, Deserialize)]
pub(super) struct Line {
    pub at: u64,
    #[serde(flatten)]
    pub change: Change,
}

#[derive(Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub(super) enum Change {
    Take {
        game: i64,
        seat: String,
        token: String,
    },
    Free {
        game: i64,
        seat: String,
    },
    /// A token freed before the file was last written whole.
    Freed {
        game: i64,
        token: String,
    },
    Rematch {
        game: i64,
        next: i64,
    },
}

impl State {
    pub fn apply(&mut self, Line { at, change }: Line) {
        match change {
            Change::Take { game, seat, token } => {
                self.taken
                    .entry(game)
                    .or_default()
                    .insert(seat, Held { token, at });
            }
            Change::Free { game, seat } => {
                if let Some(held) = self.taken.get_mut(&game).and_then(|g| g.remove(&seat)) {
                    self.forget(game, held.token);
                }
            }
            Change::Freed { game, token } => self.forget(game, token),
            Change::Rematch { game, next } => {
                self.rematches.insert(game, (next, at));
            }
        }
    }

    fn forget(&mut self, game: i64, token: String) {
        let freed = self.freed.entry(game).or_default();
        freed.push(token);
        if freed.len() > FREED_KEPT {
            freed.remove(0);
        }
    }

    /// Keeps memory bounded through a long evening too, not only from start to start.
    pub fn bounded(&mut self) {
        if self.taken.len() > 2 * KEPT_GAMES {
            self.prune();
        }
    }

    /// Keeps the latest [`KEPT_GAMES`] games' seats, tokens freed and rematches.
    pub fn prune(&mut self) {
        let mut games: Vec<i64> = self
            .taken
            .keys()
            .chain(self.freed.keys())
            .chain(self.rematches.keys())
            .copied()
            .collect();
        games.sort_unstable();
        games.dedup();
        let Some(&oldest) = games.iter().rev().nth(KEPT_GAMES - 1) else {
            return;
        };
        self.taken.retain(|&game, _| game >= oldest);
        self.freed.retain(|&game, _| game >= oldest);
        self.rematches.retain(|&game, _| game >= oldest);
    }

    /// The lines that make this state again.
    pub fn lines(&self) -> Vec<Line> {
        let takes = self.taken.iter().flat_map(|(&game, seats)| {
            seats.iter().map(move |(seat, held)| Line {
                at: held.at,
                change: Change::Take {
                    game,
                    seat: seat.clone(),
                    token: held.token.clone(),
                },
            })
        });
        let freed = self.freed.iter().flat_map(|(&game, tokens)| {
            tokens.iter().map(move |token| Line {
                at: 0,
                change: Change::Freed {
                    game,
                    token: token.clone(),
                },
            })
        });
        let rematches = self.rematches.iter().map(|(&game, &(next, at))| Line {
            at,
            change: Change::Rematch { game, next },
        });
        takes.chain(freed).chain(rematches).collect()
    }

    pub fn holds(&self, game: i64, name: &str) -> bool {
        self.taken.get(&game).is_some_and(|g| g.contains_key(name))
    }
}
