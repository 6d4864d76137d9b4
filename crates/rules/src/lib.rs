//! The rules of Mysterium, both editions (classic, and the new edition's candles, pocket
//! watch and card sets), as a pure core: a [`Command`] is checked against the
//! [`Game`] and turned into [`Event`]s; the game is a fold of its events; a [`View`] shows
//! one role only what it may see. Randomness comes from the game's seed and the position
//! in its history, and every random outcome is recorded in an event, so a journal replays
//! exactly. No I/O, no clock: the shells bring time and storage.
//!
//! The modules stand in layers, each using those below it (no circle of more than two): the
//! vocabulary (cards, the clock, setup, roles, commands, events), the game as a fold of its events
//! (`game`), deciding (`decide`, with the count in `straw_poll`), what each role may do,
//! see and read (`allowed`, `view`, `log`), and on top the rule set's face, here.

mod allowed;
mod card_sets;
mod cards;
mod clairvoyancy;
mod clock;
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
mod role;
mod setup;
mod straw_poll;
mod view;

pub use allowed::Action;
pub use card_sets::{CardBox, CardSet, Deal, SET_SIZE};
pub use cards::{Card, Category, Layout, Origin};
pub use clairvoyancy::{Face, Faces, Placement, finishing_bonus};
pub use clock::HOURS;
pub use command::Command;
pub use event::{Event, Group};
pub use expansions::{Collection, Expansion, PROMOS, Third};
pub use game::{Game, GroupPick, Manifestation, Outcome, Phase, Psychic, SHARED_VISION_CARDS};
pub use levels::{Bound, Level, LevelBands, Printed, TrackBands, TrackSide};
pub use log::{Sealed, Told};
pub use majority::majority;
pub use record::{Reached, Record};
pub use seance_timeline::{Extra, Param, Refusal, Rules, TimelineError, Who};
pub use setup::{
    AGES, Colour, CrowRule, Difficulty, Edition, PlayerSetup, Printing, SAND_TIMER_SECONDS,
    SecretMode, Setup, colours_each, sand_timer, track_side,
};
pub use straw_poll::{Ballot, Count, CountStep, Decider};

/// A Mysterium game's history.
pub type Timeline = seance_timeline::Timeline<Game>;
/// An entry of a Mysterium game's history.
pub type Entry = seance_timeline::Entry<Command, Event>;
pub use role::Role;
pub use view::{PsychicView, View};

/// A new Mysterium game: its timeline, and the events of its start for the journal.
pub fn begin(setup: Setup, seed: u64) -> Result<(Timeline, Vec<Event>), Refusal> {
    let start = Game::start(setup, seed)?;
    Ok(Timeline::begin(start).expect("a fresh start folds"))
}

/// Mysterium's face to the shells: the timeline, the server and the history.
impl seance_timeline::Rules for Game {
    const RULESET: &'static str = "mysterium-classic";
    type Command = Command;
    type Event = Event;
    type Role = Role;
    type Action = Action;
    type Told = Told;

    fn replay<'a>(events: impl IntoIterator<Item = &'a Event>) -> Result<Game, String> {
        Game::replay(events)
    }

    fn apply(&mut self, event: &Event) -> Result<(), String> {
        Game::apply(self, event)
    }

    fn valid_start(start: &[Event]) -> Result<(), Refusal> {
        // A start without its setup does not replay: the replay refuses it.
        match start.first() {
            Some(Event::Started { setup, .. }) => setup.validate(),
            _ => Ok(()),
        }
    }

    fn decide(&self, command: &Self::Command, position: u64) -> Result<Vec<Event>, Refusal> {
        Game::decide(self, command, position)
    }

    fn permit(&self, who: &Who<Self::Role>, command: &Self::Command) -> Result<(), Refusal> {
        Game::permit(self, who, command)
    }

    fn allowed(&self, who: &Who<Self::Role>) -> Vec<Self::Action> {
        Game::allowed(self, who)
    }

    fn may(&self, who: &Who<Self::Role>, extra: Extra) -> Result<(), Refusal> {
        Game::may(self, who, extra)
    }

    fn told(&self, event: &Event, role: Self::Role) -> Option<Self::Told> {
        log::told(self, event, role)
    }

    fn sand_timer(&self) -> Option<std::time::Duration> {
        self.setup
            .timer_seconds()
            .map(|s| std::time::Duration::from_secs(s.into()))
    }

    fn sand_timer_of(seconds: u64) -> Result<std::time::Duration, Refusal> {
        sand_timer(seconds)
    }

    fn timer_runs(&self) -> bool {
        self.phase == Phase::Interpretation
    }

    fn time_up() -> Option<Self::Command> {
        Some(Command::EndInterpretation)
    }

    fn status(&self) -> &'static str {
        match self.outcome {
            None => "playing",
            Some(Outcome::Won) => "won",
            Some(_) => "lost",
        }
    }

    fn edition(&self) -> Option<&'static str> {
        Some(self.setup.edition.name())
    }

    fn dialect(&self) -> Option<&'static str> {
        self.setup.dialect()
    }

    /// The ghost's view holds every psychic's cards and the culprit.
    fn by_invitation(role: Role) -> bool {
        role == Role::Ghost
    }

    fn players(&self) -> Vec<String> {
        let mut names = vec![self.setup.ghost.clone()];
        names.extend(self.setup.players.iter().map(|p| p.name.clone()));
        names
    }

    type Record = Record;
    fn record(&self) -> Option<Self::Record> {
        Record::of(self)
    }

    /// Everyone wins or loses together, the ghost with the psychics; nobody scores.
    fn summary(&self) -> Option<seance_timeline::Summary> {
        use seance_timeline::{Part, Played};
        let won = self.outcome? == Outcome::Won;
        let played = |name: &String, part| Played {
            name: name.clone(),
            part,
            winner: won,
            score: None,
            rank: None,
        };
        let players = std::iter::once(played(&self.setup.ghost, Part::Ghost))
            .chain(
                self.setup
                    .players
                    .iter()
                    .map(|p| played(&p.name, Part::Psychic)),
            )
            .collect();
        Some(seance_timeline::Summary {
            players,
            cooperative: true,
        })
    }
}
