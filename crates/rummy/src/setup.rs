//! A Mystery Rummy game's setup: its players, in seating order, and the numbers printed on
//! the cards.

use std::collections::BTreeMap;

use crate::refusals;
use seance_timeline::{Refusal, check_name, ensure};
use serde::{Deserialize, Serialize};

use crate::suspects::Printed;

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Setup {
    /// In seating order, clockwise.
    pub players: Vec<String>,
    /// The numbers printed on the cards; the known defaults unless the players corrected them.
    #[serde(default)]
    pub printed: Printed,
}

/// How many play Mystery Rummy: 2 to 4.
pub const PLAYERS: std::ops::RangeInclusive<usize> = 2..=4;

/// Cards dealt to each of `players`: 10 with two players, 9 with three, 8 with four.
pub fn deal(players: usize) -> u8 {
    12u8.saturating_sub(players.min(12) as u8)
}

/// What a setup screen asks of Mystery Rummy's rules before there is a game, as
/// `/api/info` publishes it: how many play, and the cards each is dealt by their number.
#[derive(Debug, Serialize)]
pub struct Facts {
    players: Vec<usize>,
    deal: BTreeMap<usize, u8>,
}

/// Mystery Rummy's facts.
pub fn facts() -> Facts {
    Facts {
        players: PLAYERS.collect(),
        deal: PLAYERS.map(|n| (n, deal(n))).collect(),
    }
}

impl Setup {
    pub fn validate(&self) -> Result<(), Refusal> {
        let n = self.players.len();
        ensure(PLAYERS.contains(&n), || {
            Refusal::new(refusals::RUMMY_PLAYERS)
                .with("fewest", *PLAYERS.start())
                .with("most", *PLAYERS.end())
                .with("n", n)
        })?;
        ensure(self.players.iter().all(|p| !p.trim().is_empty()), || {
            Refusal::new(refusals::PLAYER_NAME)
        })?;
        self.players.iter().try_for_each(|name| check_name(name))?;
        self.printed.validate()
    }
}
