//! A Mystery Rummy game's setup: its players, in seating order, and the numbers printed on
//! the cards.

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

impl Setup {
    pub fn validate(&self) -> Result<(), Refusal> {
        let n = self.players.len();
        ensure((2..=4).contains(&n), || {
            Refusal::new("rummy_players")
                .with("fewest", 2)
                .with("most", 4)
                .with("n", n)
        })?;
        ensure(self.players.iter().all(|p| !p.trim().is_empty()), || {
            Refusal::new("player_name")
        })?;
        self.players.iter().try_for_each(|name| check_name(name))?;
        self.printed.validate()
    }
}
