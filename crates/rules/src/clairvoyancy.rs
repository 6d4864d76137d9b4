//! Clairvoyancy: the tokens psychics put on each other's intuition pawns, and how the
//! spectral manifestation and finishing move them along the track (000 p.10, 003 p.10).
//!
//! - A psychic may put one token, ✓ or ✗, on another psychic's pawn: never their own,
//!   at most one per pawn, as many pawns as they like, only tokens they still hold; they
//!   may turn over or withdraw them until the sand timer runs out (turning one over is
//!   one act, and one step to undo).
//! - Right intuition: everyone with a ✓ on that pawn moves +1. Wrong: everyone with a ✗.
//! - Used tokens are discarded and all come back at the start of turn 4 (and for the
//!   straw poll).
//! - Finding one's object moves the finder +1 per hour left on the clock.
//!
//! Whether a token may be put down now is a decision, checked in `decide.rs`.

use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Face {
    /// ✓: "I agree with this intuition".
    Agree,
    /// ✗: "I disagree".
    Disagree,
}

impl Face {
    /// The face as printed on the token: the same in every language.
    pub fn sign(self) -> &'static str {
        match self {
            Face::Agree => "✓",
            Face::Disagree => "✗",
        }
    }
}

/// Tokens in hand, by face.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Faces {
    pub agree: u8,
    pub disagree: u8,
}

impl Faces {
    /// Each colour has 3 ✓ and 3 ✗ (001). With 4 tokens the split is not in the text;
    /// 2 and 2 is assumed, and a table whose tokens differ says so at setup.
    pub fn default_for(tokens: u8) -> Faces {
        Faces {
            agree: tokens / 2,
            disagree: tokens - tokens / 2,
        }
    }

    /// Both faces together, in a type that cannot overflow whatever a client sent.
    pub fn total(self) -> u16 {
        u16::from(self.agree) + u16::from(self.disagree)
    }

    pub fn of(&mut self, face: Face) -> &mut u8 {
        match face {
            Face::Agree => &mut self.agree,
            Face::Disagree => &mut self.disagree,
        }
    }
}

/// A token from `by` on `on`'s intuition pawn.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Placement {
    pub by: usize,
    pub on: usize,
    pub face: Face,
}

/// Who moves +1 when the ghost says whether `on`'s intuition was `right`.
pub fn manifestation_moves(placements: &[Placement], on: usize, right: bool) -> Vec<usize> {
    let rewarded = if right { Face::Agree } else { Face::Disagree };
    placements
        .iter()
        .filter(|p| p.on == on && p.face == rewarded)
        .map(|p| p.by)
        .collect()
}

/// Spaces gained for finding one's object during `hour` (I–VII): one per hour left.
pub fn finishing_bonus(hour: u8) -> u8 {
    crate::clock::HOURS.saturating_sub(hour)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finding_the_object_in_hour_four_is_worth_three() {
        // 003 p.10: Paul finds his combination in the fourth hour and moves 3 spaces.
        assert_eq!(finishing_bonus(4), 3);
        assert_eq!(finishing_bonus(7), 0);
        assert_eq!(finishing_bonus(1), 6);
    }

    #[test]
    fn the_rulebook_token_example_moves_the_right_psychics() {
        // 003 p.10: Carl is right. Stephanie and Alex put ✓ on his pawn and move; Paul,
        // who played a ✗, does not.
        let (carl, stephanie, alex, paul) = (0, 1, 2, 3);
        let placements = [
            Placement {
                by: stephanie,
                on: carl,
                face: Face::Agree,
            },
            Placement {
                by: alex,
                on: carl,
                face: Face::Agree,
            },
            Placement {
                by: paul,
                on: carl,
                face: Face::Disagree,
            },
        ];
        assert_eq!(
            manifestation_moves(&placements, carl, true),
            vec![stephanie, alex]
        );
        // Had Carl been wrong, only Paul would move.
        assert_eq!(manifestation_moves(&placements, carl, false), vec![paul]);
        // Tokens on another pawn do not count for Carl.
        assert!(manifestation_moves(&placements, alex, true).is_empty());
    }

    #[test]
    fn six_tokens_are_three_of_each() {
        assert_eq!(
            Faces::default_for(6),
            Faces {
                agree: 3,
                disagree: 3
            }
        );
        assert_eq!(Faces::default_for(4).total(), 4);
        assert_eq!(Faces::default_for(0).total(), 0);
    }
}
