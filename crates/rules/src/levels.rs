//! Clairvoyancy levels (Low, Intermediate, High) as bands of spaces on the track.
//!
//! The bands are printed on the physical track and are not in the rulebooks' text. The
//! only facts (003 p.12 example, 4–5 side): space 4 is Low, spaces 5 and 6 are
//! Intermediate, space 11 is High. So the first Intermediate space is exactly 5, and the
//! first High space lies somewhere in 7–11; nothing is known of the 6–7 side. A bound
//! that is not exact is never guessed: when a psychic's space falls where the bands are
//! uncertain, the table reads the level off its own track and says it.

use crate::refusals;
use serde::{Deserialize, Serialize};

use seance_timeline::{Param, Refusal, ensure};

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Level {
    Low,
    Intermediate,
    High,
}

impl Level {
    /// The shared-vision card after which psychics of this level vote (1, 2 or 3).
    pub fn card(self) -> u8 {
        self as u8 + 1
    }

    /// The level as a refusal says it, in the table's language.
    pub fn term(self) -> Param {
        Param::Term(["level.low", "level.intermediate", "level.high"][self as usize])
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TrackSide {
    #[serde(rename = "4-5")]
    FourFive,
    #[serde(rename = "6-7")]
    SixSeven,
}

/// The first space of a band: exactly `lo` when `lo == hi`, else somewhere in `lo..=hi`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Bound {
    pub lo: u8,
    pub hi: u8,
}

impl Bound {
    pub fn exact(space: u8) -> Bound {
        Bound {
            lo: space,
            hi: space,
        }
    }

    pub fn is_exact(self) -> bool {
        self.lo == self.hi
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct LevelBands {
    pub intermediate_from: Bound,
    pub high_from: Bound,
}

impl LevelBands {
    /// What the rulebooks establish for each side of the track.
    pub fn rulebook(side: TrackSide) -> LevelBands {
        match side {
            TrackSide::FourFive => LevelBands {
                intermediate_from: Bound::exact(5),
                high_from: Bound { lo: 7, hi: 11 },
            },
            TrackSide::SixSeven => LevelBands {
                intermediate_from: Bound { lo: 1, hi: 40 },
                high_from: Bound { lo: 2, hi: 60 },
            },
        }
    }

    pub fn validate(&self) -> Result<(), Refusal> {
        let (i, h) = (self.intermediate_from, self.high_from);
        ensure(i.lo <= i.hi && h.lo <= h.hi, || {
            Refusal::new(refusals::BAND_RANGE_ORDER)
        })?;
        ensure(i.lo >= 1 && h.lo > i.lo && h.hi > i.hi, || {
            Refusal::new(refusals::BAND_ORDER)
        })
    }

    /// The bands lie within what the rulebooks establish for `side` (a track read more
    /// closely narrows them, it never moves them): a game's own as well as the table's.
    pub fn fits(&self, side: TrackSide) -> Result<(), Refusal> {
        let known = LevelBands::rulebook(side);
        let within = |bound: Bound, known: Bound| known.lo <= bound.lo && bound.hi <= known.hi;
        ensure(
            within(self.intermediate_from, known.intermediate_from)
                && within(self.high_from, known.high_from),
            || {
                Refusal::new(refusals::BAND_NOT_PRINTED)
                    .with("side", side.label())
                    .with("intermediate_lo", known.intermediate_from.lo)
                    .with("intermediate_hi", known.intermediate_from.hi)
                    .with("high_lo", known.high_from.lo)
                    .with("high_hi", known.high_from.hi)
            },
        )
    }

    /// The level of a space, when the bands settle it.
    pub fn level(&self, space: u8) -> Option<Level> {
        if space < self.intermediate_from.lo {
            Some(Level::Low)
        } else if space >= self.intermediate_from.hi && space < self.high_from.lo {
            Some(Level::Intermediate)
        } else if space >= self.high_from.hi {
            Some(Level::High)
        } else {
            None
        }
    }

    /// Whether the table may say that `space` is of `level` (it fits what is known).
    pub fn allows(&self, space: u8, level: Level) -> bool {
        match level {
            Level::Low => space < self.intermediate_from.hi,
            Level::Intermediate => space >= self.intermediate_from.lo && space < self.high_from.hi,
            Level::High => space >= self.high_from.lo,
        }
    }
}

/// A side's bands as printed on the table's own track: its first Intermediate and first High
/// space.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Printed {
    pub intermediate: u8,
    pub high: u8,
}

/// The bands of both sides of the table's track, told once (kept in the table's settings)
/// and read by every game after; a side not told leaves the rulebooks' facts.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct TrackBands {
    #[serde(rename = "4-5", skip_serializing_if = "Option::is_none")]
    pub four_five: Option<Printed>,
    #[serde(rename = "6-7", skip_serializing_if = "Option::is_none")]
    pub six_seven: Option<Printed>,
}

impl TrackBands {
    pub fn is_empty(&self) -> bool {
        self.four_five.is_none() && self.six_seven.is_none()
    }

    /// The bands told for `side`, if they were.
    pub fn side(&self, side: TrackSide) -> Option<LevelBands> {
        let printed = match side {
            TrackSide::FourFive => self.four_five,
            TrackSide::SixSeven => self.six_seven,
        }?;
        Some(LevelBands {
            intermediate_from: Bound::exact(printed.intermediate),
            high_from: Bound::exact(printed.high),
        })
    }

    /// Each told side is in order and fits what the rulebooks establish for it.
    pub fn validate(&self) -> Result<(), Refusal> {
        for side in [TrackSide::FourFive, TrackSide::SixSeven] {
            let Some(told) = self.side(side) else {
                continue;
            };
            told.validate()?;
            told.fits(side)?;
        }
        Ok(())
    }
}

impl TrackSide {
    /// The side as printed on the board: "4-5" or "6-7".
    pub fn label(self) -> &'static str {
        match self {
            TrackSide::FourFive => "4-5",
            TrackSide::SixSeven => "6-7",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_rulebook_example_spaces_have_their_levels() {
        // 003 p.12: Stephanie on 4 votes Low; Alex and Carl on 5 and 6, Intermediate;
        // Paul on 11, High.
        let bands = LevelBands::rulebook(TrackSide::FourFive);
        assert_eq!(bands.level(4), Some(Level::Low));
        assert_eq!(bands.level(5), Some(Level::Intermediate));
        assert_eq!(bands.level(6), Some(Level::Intermediate));
        assert_eq!(bands.level(11), Some(Level::High));
        assert_eq!(bands.level(0), Some(Level::Low));
    }

    #[test]
    fn uncertain_spaces_are_not_guessed() {
        let bands = LevelBands::rulebook(TrackSide::FourFive);
        for space in 7..=10 {
            assert_eq!(bands.level(space), None, "space {space}");
            assert!(bands.allows(space, Level::Intermediate) && bands.allows(space, Level::High));
            assert!(!bands.allows(space, Level::Low));
        }
        assert!(!bands.allows(11, Level::Intermediate));
        assert!(!bands.allows(4, Level::Intermediate));
        let far = LevelBands::rulebook(TrackSide::SixSeven);
        assert_eq!(far.level(0), Some(Level::Low));
        assert_eq!(far.level(6), None);
    }

    #[test]
    fn checked_bands_settle_every_space() {
        let bands = LevelBands {
            intermediate_from: Bound::exact(5),
            high_from: Bound::exact(9),
        };
        bands.validate().unwrap();
        let levels: Vec<_> = (0..12).map(|s| bands.level(s).unwrap()).collect();
        assert_eq!(levels[4], Level::Low);
        assert_eq!(levels[8], Level::Intermediate);
        assert_eq!(levels[9], Level::High);
        let wrong = LevelBands {
            intermediate_from: Bound::exact(9),
            high_from: Bound::exact(5),
        };
        assert_eq!(
            wrong.validate().unwrap_err().code,
            crate::refusals::BAND_ORDER
        );
    }

    #[test]
    fn a_told_track_settles_its_side_within_the_rulebooks_facts() {
        let told = TrackBands {
            four_five: Some(Printed {
                intermediate: 5,
                high: 9,
            }),
            six_seven: None,
        };
        told.validate().unwrap();
        let bands = told.side(TrackSide::FourFive).unwrap();
        assert!((0..=20).all(|space| bands.level(space).is_some()));
        assert_eq!(bands.level(8), Some(Level::Intermediate));
        assert_eq!(told.side(TrackSide::SixSeven), None);
        // 003 p.12 puts space 5 in Intermediate and space 11 in High on the 4-5 side.
        for (intermediate, high) in [(6, 9), (5, 12), (4, 9)] {
            let off = TrackBands {
                four_five: Some(Printed { intermediate, high }),
                six_seven: None,
            };
            assert_eq!(
                off.validate().unwrap_err().code,
                crate::refusals::BAND_NOT_PRINTED
            );
        }
        let reversed = TrackBands {
            four_five: None,
            six_seven: Some(Printed {
                intermediate: 9,
                high: 6,
            }),
        };
        assert_eq!(
            reversed.validate().unwrap_err().code,
            crate::refusals::BAND_ORDER
        );
    }
}
