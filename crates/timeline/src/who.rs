//! Who asks, as every rule set sees it: the table, a seat's phone or a watcher. The shells
//! map a device to one of these; the rule set alone says what each may do.

use crate::refusals;
use std::fmt;
use std::hash::Hash;
use std::str::FromStr;

use serde::Serialize;

/// A rule set's roles in words: the table is `table`, a seat is named as its phones and
/// the journal name it (`ghost`, `psychic:2`, `player:1`), written by `Display` and read
/// by `FromStr`.
pub trait RoleName:
    Copy + Eq + Hash + fmt::Debug + fmt::Display + FromStr + Serialize + Send + Sync + 'static
{
    /// A seat at the table: every role but the table's own, which no phone holds. Named in
    /// words as its role is.
    type Seat: SeatName + Into<Self>;

    /// The roles in words, for a request that names none of them.
    const NAMES: &'static str;
    /// The table's role, which holds no seat.
    const TABLE: Self;

    /// The seat this role is; `None` for the table.
    fn seat(self) -> Option<Self::Seat>;
}

/// A rule set's seat in words, as the shells keep the seats phones hold (`ghost`,
/// `psychic:2`, `player:1`): only a rule set's seat is one ([`seat_named_as_role!`]), not
/// any text.
pub trait SeatName:
    Copy + Eq + Ord + fmt::Debug + fmt::Display + FromStr + Send + Sync + 'static
{
}

/// Names a rule set's seat type `$seat` in words as its role `$role` is named: `Display`
/// and `FromStr` through the role (a seat is every role but the table's).
#[macro_export]
macro_rules! seat_named_as_role {
    ($seat:ty, $role:ty) => {
        impl ::std::fmt::Display for $seat {
            fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
                <$role>::from(*self).fmt(f)
            }
        }

        impl ::std::str::FromStr for $seat {
            type Err = $crate::NoSuchRole;

            fn from_str(text: &str) -> Result<$seat, $crate::NoSuchRole> {
                $crate::RoleName::seat(text.parse::<$role>()?).ok_or($crate::NoSuchRole)
            }
        }

        impl $crate::SeatName for $seat {}
    };
}

/// A place at the table (`2` in `psychic:2`) as Séance writes it: digits, no sign and no
/// leading zero, so that each seat has one name.
pub fn place_named(digits: &str) -> Option<usize> {
    digits
        .parse()
        .ok()
        .filter(|n: &usize| n.to_string() == digits)
}

/// A seat of the rule set whose roles are `R`.
pub type Seat<R> = <R as RoleName>::Seat;

/// A name that is none of a rule set's roles ([`RoleName::NAMES`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NoSuchRole;

/// The sender of a command, or the reader of a view's `allowed`, among rule set `R`'s
/// roles: a phone holds a seat, never the table's role.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Who<R: RoleName> {
    /// The table: it acts for every seat, except the sealed choices of the seats phones
    /// hold (`phones`).
    Table { phones: Vec<R::Seat> },
    /// A seat's phone: it acts for its own seat.
    Seat(R::Seat),
    /// The join code alone: sees the table's view, acts for nobody.
    Watcher,
}

impl<R: RoleName> Who<R> {
    /// The role its changes are told as sent by, and its pace kept for: a seat's, else the
    /// table's (a watcher sends nothing).
    pub fn role(&self) -> R {
        match self {
            Who::Seat(seat) => (*seat).into(),
            Who::Table { .. } | Who::Watcher => R::TABLE,
        }
    }

    /// Whether a phone holds `seat` (so that seat's sealed choices are made on it).
    pub fn on_phone(&self, seat: &R::Seat) -> bool {
        match self {
            Who::Table { phones } => phones.contains(seat),
            Who::Seat(mine) => mine == seat,
            Who::Watcher => false,
        }
    }
}

/// What the shells keep for a rule set beside its events: the history's undo and redo, the
/// sand timer's clock, the ghost's knocks. The rule set says who may ask for each.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Extra {
    /// Undo the last change.
    Undo,
    /// Redo what was undone.
    Redo,
    /// Pause, resume, reset or set the sand timer.
    Timer,
    /// Knock on the table (the ghost's yes or no).
    Knock,
    /// A new game with the same players and settings, once this one is over.
    Rematch,
}

/// The ghost's knocks on the table ([`Extra::Knock`]): once for yes, twice for no.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Knock {
    Yes,
    No,
}

impl Knock {
    /// How many times the table knocks.
    pub fn times(self) -> u8 {
        match self {
            Knock::Yes => 1,
            Knock::No => 2,
        }
    }
}

impl TryFrom<u8> for Knock {
    type Error = crate::Refusal;

    /// Refused for any other number of knocks than one or two.
    fn try_from(times: u8) -> Result<Knock, crate::Refusal> {
        [Knock::Yes, Knock::No]
            .into_iter()
            .find(|k| k.times() == times)
            .ok_or_else(|| crate::Refusal::new(refusals::KNOCK_TIMES))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_knock_is_once_or_twice() {
        for knock in [Knock::Yes, Knock::No] {
            assert_eq!(Knock::try_from(knock.times()), Ok(knock));
        }
        for times in [0, 3, u8::MAX] {
            assert!(Knock::try_from(times).is_err());
        }
    }
}
