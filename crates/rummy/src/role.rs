//! Who is at a Mystery Rummy table: the table itself, and each player by their place
//! (from 0, in seating order). A player's seat is named in words as `player:2`, and the
//! table as `table`: the names its phones and the journal use.

use std::fmt;
use std::str::FromStr;

use seance_timeline::{NoSuchRole, RoleName};
use serde::Serialize;

/// Serialised in a log as `"table"` or `{"player": 2}`; in words as `table`, `player:2`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Role {
    Table,
    Player(usize),
}

/// A seat a phone may hold: a player's. Serialised in views as `{"player": 2}`; in words
/// as its role.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Seat {
    Player(usize),
}

impl From<Seat> for Role {
    fn from(Seat::Player(p): Seat) -> Role {
        Role::Player(p)
    }
}

impl RoleName for Role {
    type Seat = Seat;
    const NAMES: &'static str = "table or player:N";
    const TABLE: Role = Role::Table;

    fn seat(self) -> Option<Seat> {
        match self {
            Role::Table => None,
            Role::Player(p) => Some(Seat::Player(p)),
        }
    }
}

seance_timeline::seat_named_as_role!(Seat, Role);

impl fmt::Display for Role {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Role::Table => f.write_str("table"),
            Role::Player(p) => write!(f, "player:{p}"),
        }
    }
}

impl FromStr for Role {
    type Err = NoSuchRole;

    fn from_str(text: &str) -> Result<Role, NoSuchRole> {
        match text {
            "table" => Ok(Role::Table),
            _ => text
                .strip_prefix("player:")
                .and_then(seance_timeline::place_named)
                .map(Role::Player)
                .ok_or(NoSuchRole),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_role_reads_back_as_it_is_written() {
        for role in [Role::Table, Role::Player(0), Role::Player(3)] {
            assert_eq!(role.to_string().parse(), Ok(role));
        }
        for wrong in [
            "",
            "Table",
            "player",
            "player:",
            "player:-1",
            "player:01",
            "player:+1",
            "ghost",
            "psychic:1",
        ] {
            assert_eq!(wrong.parse::<Role>(), Err(NoSuchRole), "{wrong}");
        }
    }
}
