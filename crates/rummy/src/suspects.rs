//! The six suspects and their suspicion numbers (1 most likely … 6 least), which break ties
//! for who is Jack. The rulebook's text gives only two (002 scoring example: Druitt 1,
//! Jill 6); the others follow the deck list's order and are marked unconfirmed, for the
//! players to check against their cards and correct.

use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Suspect {
    pub name: &'static str,
    /// The default suspicion number.
    pub suspicion: u8,
    /// Whether the rulebook's text confirms that number.
    pub confirmed: bool,
}

pub const SUSPECTS: [Suspect; 6] = [
    Suspect {
        name: "Montague Druitt",
        suspicion: 1,
        confirmed: true,
    },
    Suspect {
        name: "Prince Eddy",
        suspicion: 2,
        confirmed: false,
    },
    Suspect {
        name: "Sir Gull",
        suspicion: 3,
        confirmed: false,
    },
    Suspect {
        name: "Dr. Pedachenko",
        suspicion: 4,
        confirmed: false,
    },
    Suspect {
        name: "George Chapman",
        suspicion: 5,
        confirmed: false,
    },
    Suspect {
        name: "Jill l'Éventreur",
        suspicion: 6,
        confirmed: true,
    },
];

/// The suspicion numbers in use at a table, by suspect (index into [`SUSPECTS`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Suspicion(pub [u8; 6]);

impl Default for Suspicion {
    fn default() -> Self {
        Suspicion(SUSPECTS.map(|s| s.suspicion))
    }
}

impl Suspicion {
    /// Each number 1–6 once: otherwise a tie could not be broken.
    pub fn validate(&self) -> Result<(), String> {
        let mut seen = self.0;
        seen.sort_unstable();
        if seen == [1, 2, 3, 4, 5, 6] {
            Ok(())
        } else {
            Err(format!(
                "suspicion numbers must be 1 to 6, each once (as printed on the suspects' cards); got {:?}",
                self.0
            ))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_known_numbers_are_confirmed_and_the_rest_marked() {
        let confirmed: Vec<&str> = SUSPECTS
            .iter()
            .filter(|s| s.confirmed)
            .map(|s| s.name)
            .collect();
        assert_eq!(confirmed, ["Montague Druitt", "Jill l'Éventreur"]);
        Suspicion::default().validate().unwrap();
        assert!(
            Suspicion([1, 1, 3, 4, 5, 6])
                .validate()
                .unwrap_err()
                .contains("each once")
        );
    }
}
