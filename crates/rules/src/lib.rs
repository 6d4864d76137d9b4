//! The rules of Mysterium (classic), as a pure core: a [`Command`] is checked against the
//! [`Game`] and turned into [`Event`]s; the game is a fold of its events; a [`View`] shows
//! one role only what it may see. Randomness comes from the game's seed and the position
//! in its history, and every random outcome is recorded in an event, so a journal replays
//! exactly. No I/O, no clock: the shells bring time and storage.

mod cards;
mod clairvoyancy;
mod command;
mod decide;
mod error;
mod event;
mod game;
mod levels;
mod rng;
mod setup;
mod straw_poll;
mod timeline;
mod view;

pub use cards::{Card, Category, Layout};
pub use clairvoyancy::{Face, Faces, Placement, finishing_bonus};
pub use command::Command;
pub use error::RuleError;
pub use event::{Event, Group};
pub use game::{Game, Manifestation, Outcome, Phase, Psychic};
pub use levels::{Bound, Level, LevelBands, TrackSide};
pub use setup::{Colour, CrowRule, Difficulty, PlayerSetup, SAND_TIMER_SECONDS, SecretMode, Setup};
pub use straw_poll::{Ballot, Count, CountStep, Decider};
pub use timeline::{Entry, Timeline, TimelineError};
pub use view::{PsychicView, Role, View};
