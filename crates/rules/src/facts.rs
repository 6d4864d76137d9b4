//! What a setup screen asks of Mysterium's rules before there is a game: how many play in
//! each edition, which numbers at the table end with the straw poll, colours per psychic
//! player, the expansions and promo cards a collection may hold, the sand timer's bounds,
//! the ages a tie-break takes, and the classic track's side and bands by the number at the
//! table (the ranges the table's own track is read into).

use std::collections::BTreeMap;

use serde::Serialize;

use crate::expansions::{Expansion, PROMOS};
use crate::levels::{LevelBands, TrackSide};
use crate::setup::{AGES, BOX_SAND_TIMER, Edition, SAND_TIMER_SECONDS, colours_each, track_side};

/// Mysterium's facts, as `/api/info` publishes them.
#[derive(Debug, Serialize)]
pub struct Facts {
    expansions: Vec<&'static str>,
    promos: Vec<u8>,
    /// How many play each edition, the ghost included, by the edition's name.
    players: BTreeMap<&'static str, Vec<usize>>,
    /// The classic game's numbers at the table that end with the straw poll, where the
    /// rulebook's printing matters.
    straw_poll: Vec<usize>,
    /// Colours per psychic player by the number at the table (the classic game's counts
    /// hold the new edition's).
    colours_each: BTreeMap<usize, usize>,
    /// The classic box's sand timer, and the lengths a house rule may give it.
    sand_timer: SandTimer,
    /// The ages the straw poll's tie-break takes.
    ages: Bounds<u8>,
    track_sides: BTreeMap<usize, Option<TrackSide>>,
    /// Where each side's bands may start, as far as the rulebooks know.
    track_bands: BTreeMap<&'static str, LevelBands>,
}

#[derive(Debug, Serialize)]
struct SandTimer {
    #[serde(rename = "box")]
    in_the_box: u16,
    least: u16,
    most: u16,
}

#[derive(Debug, Serialize)]
struct Bounds<N> {
    least: N,
    most: N,
}

/// Mysterium's facts.
pub fn facts() -> Facts {
    let classic = || Edition::Classic.players();
    Facts {
        expansions: Expansion::names(),
        promos: PROMOS.collect(),
        players: Edition::ALL
            .map(|e| (e.name(), e.players().collect()))
            .into_iter()
            .collect(),
        straw_poll: classic()
            .filter(|&n| Edition::Classic.straw_poll(n))
            .collect(),
        colours_each: classic().map(|n| (n, colours_each(n))).collect(),
        sand_timer: SandTimer {
            in_the_box: BOX_SAND_TIMER,
            least: *SAND_TIMER_SECONDS.start(),
            most: *SAND_TIMER_SECONDS.end(),
        },
        ages: Bounds {
            least: *AGES.start(),
            most: *AGES.end(),
        },
        track_sides: classic()
            .map(|n| (n, track_side(Edition::Classic, n)))
            .collect(),
        track_bands: [TrackSide::FourFive, TrackSide::SixSeven]
            .map(|side| (side.label(), LevelBands::rulebook(side)))
            .into_iter()
            .collect(),
    }
}
