//! The rules of Mysterium, both editions (classic, and the new edition's candles, pocket
//! watch and card sets), as a pure core: a [`Command`] is checked against the
//! [`Game`] and turned into [`Event`]s; the game is a fold of its events; a [`View`] shows
//! one role only what it may see. Randomness comes from the game's seed and the position
//! in its history, and every random outcome is recorded in an event, so a journal replays
//! exactly. No I/O, no clock: the shells bring time and storage.

mod allowed;
mod card_sets;
mod cards;
mod clairvoyancy;
mod command;
mod decide;
mod event;
mod expansions;
mod game;
mod levels;
mod log;
mod majority;
mod reading;
mod record;
mod setup;
mod straw_poll;
mod view;

pub use allowed::Action;
pub use card_sets::{CardBox, CardSet, Deal, SET_SIZE};
pub use cards::{Card, Category, Layout, Origin};
pub use clairvoyancy::{Face, Faces, Placement, finishing_bonus};
pub use command::Command;
pub use event::{Event, Group};
pub use expansions::{Collection, Expansion, PROMOS, Third};
pub use game::{Game, Manifestation, Outcome, Phase, Psychic};
pub use levels::{Bound, Level, LevelBands, Printed, TrackBands, TrackSide};
pub use log::{Sealed, Told};
pub use majority::majority;
pub use record::{Reached, Record};
pub use seance_timeline::{Extra, Param, Refusal, Rules, TimelineError, Who};
pub use setup::{
    AGES, Colour, CrowRule, Difficulty, Edition, PlayerSetup, Printing, SAND_TIMER_SECONDS,
    SecretMode, Setup, colours_each, track_side,
};
pub use straw_poll::{Ballot, Count, CountStep, Decider};

/// A Mysterium game's history.
pub type Timeline = seance_timeline::Timeline<Game>;
/// An entry of a Mysterium game's history.
pub type Entry = seance_timeline::Entry<Command, Event>;
pub use view::{PsychicView, Role, View};

/// A new Mysterium game: its timeline, and the events of its start for the journal.
pub fn begin(setup: Setup, seed: u64) -> Result<(Timeline, Vec<Event>), Refusal> {
    let start = Game::start(setup, seed)?;
    Ok(Timeline::begin(start).expect("a fresh start folds"))
}
