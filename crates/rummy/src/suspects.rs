//! The six suspects and the numbers printed on their cards: the suspicion number (1 most
//! likely … 6 least), which breaks ties for who is Jack, and the points of their Evidence
//! and Suspect cards, and a Joker's points. The rulebook's text confirms only some of them
//! (002: Druitt is 1 and Jill 6; an Evidence card of Druitt or Jill is worth 2, Jill's
//! Suspect card 4). The others are the likely defaults, marked unconfirmed, for the players
//! to check against their cards and correct ([`Printed`]): the text gives Chapman's only
//! as a total ("5 Evidence + Suspect = 14"), and no Joker's.

use crate::refusals;
use seance_timeline::{Refusal, ensure};
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Suspect {
    pub name: &'static str,
    pub suspicion: Known<u8>,
    pub evidence: Known<u32>,
    pub suspect_card: Known<u32>,
}

/// A default number, and whether the rulebook's text confirms it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Known<T> {
    pub value: T,
    pub confirmed: bool,
}

const fn known<T>(value: T, confirmed: bool) -> Known<T> {
    Known { value, confirmed }
}

/// In the deck list's order, which is also the default suspicion order.
pub const SUSPECTS: [Suspect; 6] = [
    Suspect {
        name: "Montague Druitt",
        suspicion: known(1, true),
        evidence: known(2, true),
        suspect_card: known(4, false),
    },
    Suspect {
        name: "Prince Eddy",
        suspicion: known(2, false),
        evidence: known(2, false),
        suspect_card: known(4, false),
    },
    Suspect {
        name: "Sir Gull",
        suspicion: known(3, false),
        evidence: known(2, false),
        suspect_card: known(4, false),
    },
    Suspect {
        name: "Dr. Pedachenko",
        suspicion: known(4, false),
        evidence: known(2, false),
        suspect_card: known(4, false),
    },
    Suspect {
        name: "George Chapman",
        suspicion: known(5, false),
        evidence: known(2, false),
        suspect_card: known(4, false),
    },
    Suspect {
        name: "Jill l'Éventreur",
        suspicion: known(6, true),
        evidence: known(2, true),
        suspect_card: known(4, true),
    },
];

/// A Joker plays as any suspect's Evidence (002); its printed points are not in the text.
pub const JOKER: Known<u32> = known(2, false);
/// The most points any card prints (in its top right corner).
pub const MOST_PRINTED: u32 = 20;
/// Each Letters card is worth 3 and is never doubled (002, stated).
pub const LETTER: u32 = 3;
/// Ripper Escapes is worth 35 to whoever plays it (002, stated).
pub const RIPPER_ESCAPES: u32 = 35;

/// The suspicion numbers in use at a table, by suspect (index into [`SUSPECTS`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Suspicion(pub [u8; 6]);

impl Default for Suspicion {
    fn default() -> Self {
        Suspicion(SUSPECTS.map(|s| s.suspicion.value))
    }
}

impl Suspicion {
    /// Each number 1–6 once: otherwise a tie could not be broken.
    pub fn validate(&self) -> Result<(), Refusal> {
        let mut seen = self.0;
        seen.sort_unstable();
        ensure(seen == [1, 2, 3, 4, 5, 6], || {
            Refusal::new(refusals::SUSPICION_NUMBERS)
        })
    }
}

/// The numbers printed on the cards, as the players have checked them: the suspicion
/// numbers and the points of each suspect's Evidence and Suspect cards.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Printed {
    pub suspicion: Suspicion,
    pub evidence: [u32; 6],
    pub suspect_card: [u32; 6],
    #[serde(default = "joker")]
    pub joker: u32,
}

fn joker() -> u32 {
    JOKER.value
}

impl Default for Printed {
    fn default() -> Self {
        Printed {
            suspicion: Suspicion::default(),
            evidence: SUSPECTS.map(|s| s.evidence.value),
            suspect_card: SUSPECTS.map(|s| s.suspect_card.value),
            joker: JOKER.value,
        }
    }
}

impl Printed {
    pub fn validate(&self) -> Result<(), Refusal> {
        self.suspicion.validate()?;
        ensure(
            self.evidence
                .iter()
                .chain(&self.suspect_card)
                .chain([&self.joker])
                .all(|p| (1..=MOST_PRINTED).contains(p)),
            || Refusal::new(refusals::PRINTED_POINTS).with("most", MOST_PRINTED),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_known_numbers_are_confirmed_and_the_rest_marked() {
        let confirmed: Vec<&str> = SUSPECTS
            .iter()
            .filter(|s| s.suspicion.confirmed)
            .map(|s| s.name)
            .collect();
        assert_eq!(confirmed, ["Montague Druitt", "Jill l'Éventreur"]);
        // Chapman's values come only as a total (5 Evidence + Suspect = 14).
        assert!(!SUSPECTS[4].evidence.confirmed && !SUSPECTS[4].suspect_card.confirmed);
        const { assert!(!JOKER.confirmed) };
        Printed::default().validate().unwrap();
        let twice = Suspicion([1, 1, 3, 4, 5, 6]).validate().unwrap_err();
        assert_eq!(twice.code, crate::refusals::SUSPICION_NUMBERS);
        let mut free = Printed::default();
        free.evidence[2] = 0;
        let zero = free.validate().unwrap_err();
        assert_eq!(zero.code, crate::refusals::PRINTED_POINTS);
        assert_eq!(
            zero.param("most"),
            Some(&seance_timeline::Param::Number(20))
        );
    }
}
