//! Who is at the table: the table itself, the ghost, and each psychic by their place
//! (from 0, in the setup's order). A seat (every role but the table's, which no phone
//! holds) is named in words as `ghost` or `psychic:2`, and the table as `table`: the names
//! its phones and the journal use.

use std::fmt;
use std::str::FromStr;

use seance_timeline::{NoSuchRole, RoleName};
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Role {
    Table,
    Ghost,
    Psychic(usize),
}

/// A seat a phone may hold: the ghost's or a psychic's. Serialised in views as `"ghost"`
/// or `{"psychic": 2}`; in words as its role.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Seat {
    Ghost,
    Psychic(usize),
}

impl From<Seat> for Role {
    fn from(seat: Seat) -> Role {
        match seat {
            Seat::Ghost => Role::Ghost,
            Seat::Psychic(p) => Role::Psychic(p),
        }
    }
}

impl RoleName for Role {
    type Seat = Seat;
    const NAMES: &'static str = "table, ghost or psychic:N";
    const TABLE: Role = Role::Table;

    fn seat(self) -> Option<Seat> {
        match self {
            Role::Table => None,
            Role::Ghost => Some(Seat::Ghost),
            Role::Psychic(p) => Some(Seat::Psychic(p)),
        }
    }
}

seance_timeline::seat_named_as_role!(Seat, Role);

impl fmt::Display for Role {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Role::Table => f.write_str("table"),
            Role::Ghost => f.write_str("ghost"),
            Role::Psychic(i) => write!(f, "psychic:{i}"),
        }
    }
}

impl FromStr for Role {
    type Err = NoSuchRole;

    fn from_str(text: &str) -> Result<Role, NoSuchRole> {
        match text {
            "table" => Ok(Role::Table),
            "ghost" => Ok(Role::Ghost),
            _ => text
                .strip_prefix("psychic:")
                .and_then(seance_timeline::place_named)
                .map(Role::Psychic)
                .ok_or(NoSuchRole),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_seat_is_every_role_but_the_tables_named_as_its_role() {
        for seat in [Seat::Ghost, Seat::Psychic(0), Seat::Psychic(6)] {
            assert_eq!(seat.to_string().parse(), Ok(seat));
            assert_eq!(Role::from(seat).seat(), Some(seat));
            assert_eq!(seat.to_string(), Role::from(seat).to_string());
        }
        assert_eq!(Role::Table.seat(), None);
        assert_eq!("table".parse::<Seat>(), Err(NoSuchRole));
    }

    #[test]
    fn a_role_reads_back_as_it_is_written() {
        for role in [Role::Table, Role::Ghost, Role::Psychic(0), Role::Psychic(6)] {
            assert_eq!(role.to_string().parse(), Ok(role));
        }
        for wrong in [
            "",
            "Table",
            "psychic",
            "psychic:",
            "psychic:-1",
            "psychic:x",
            "psychic:01",
            "psychic:+1",
            "player:1",
        ] {
            assert_eq!(wrong.parse::<Role>(), Err(NoSuchRole), "{wrong}");
        }
    }
}
