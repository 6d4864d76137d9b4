//! The rules of Mysterium, both editions (classic, and the new edition's candles, pocket
//! watch and card sets), as a pure core: a [`Command`] is checked against the
//! [`Game`] and turned into [`Event`]s; the game is a fold of its events; a [`View`] shows
//! one role only what it may see. Randomness comes from the game's seed and the position
//! in its history, and every random outcome is recorded in an event, so a journal replays
//! exactly. No I/O, no clock: the shells bring time and storage.
//!
//! The modules stand in layers, each using those below it (no circle of more than two): the
//! vocabulary (cards, the clock, setup, roles, commands, events), the game as a fold of its events
//! (`game`, `fold`), checking (`check`) and deciding (`decide`, with the count in `straw_poll`), what
//! each role may do, see and read (`allowed`, `view`, `log`), what each command depends on
//! (`at_once`), and on top the rule set's face, here.

mod allowed;
mod at_once;
mod card_sets;
mod cards;
mod check;
mod clairvoyancy;
mod clock;
mod command;
mod decide;
mod event;
mod expansions;
mod facts;
mod fold;
mod game;
mod levels;
mod log;
mod majority;
mod reading;
mod record;
pub mod refusals;
mod role;
mod settings;
mod setup;
mod statistics;
mod straw_poll;
mod view;

pub use allowed::Action;
pub use at_once::Thing;
pub use card_sets::{CardBox, CardSet, Deal, SET_SIZE};
pub use cards::{Card, Category, Layout, Origin};
pub use clairvoyancy::{Face, Faces, Placement, finishing_bonus};
pub use clock::HOURS;
pub use command::Command;
pub use event::{Event, Group};
pub use expansions::{Collection, Expansion, PROMOS, Third};
pub use facts::Facts;
pub use game::{
    Decision, Game, GroupPick, Manifestation, Outcome, Phase, Psychic, SHARED_VISION_CARDS,
};
pub use levels::{Bound, Level, LevelBands, Printed, TrackBands, TrackSide};
pub use log::{Sealed, Told};
pub use majority::majority;
pub use record::{Reached, Record};
pub use seance_timeline::{
    Extra, Listed, Param, Published, Refusal, Roles, RuleBook, RuleSet, Rules, Settled, Status,
    Timed, TimelineError, Who,
};

use std::time::Duration;

use seance_timeline::{PlayerLine, Summary, Title};
pub use settings::Settings;
pub use setup::{
    AGES, BOX_SAND_TIMER, Colour, CrowRule, Difficulty, Edition, PlayerSetup, Printing,
    SAND_TIMER_SECONDS, SecretMode, Setup, colours_each, sand_timer, track_side,
};
pub use statistics::{Challenge, Ghost, Hour, Reach, Statistics};
pub use straw_poll::{Ballot, Count, CountStep, Decider};

/// A Mysterium game's history.
pub type Timeline = seance_timeline::Timeline<Game>;
/// An entry of a Mysterium game's history.
pub type Entry = seance_timeline::Entry<Command, Event>;
pub use role::{Role, Seat};
pub use view::{PsychicView, View};

/// A new Mysterium game: its timeline, and the events of its start for the journal.
pub fn begin(setup: Setup, seed: u64) -> Result<(Timeline, Vec<Event>), Refusal> {
    let start = Game::start(setup, seed)?;
    Ok(Timeline::begin(start).expect("a fresh start folds"))
}

/// Mysterium's core: how a game starts and folds, and what each command causes.
impl seance_timeline::Rules for Game {
    const RULE_SET: RuleSet = RuleSet::Mysterium;
    type Setup = Setup;
    type Command = Command;
    type Event = Event;

    fn start(setup: Setup, seed: u64) -> Result<Vec<Event>, Refusal> {
        Game::start(setup, seed)
    }

    fn again(&self) -> Setup {
        self.setup.clone()
    }

    fn begin(start: &Event) -> Result<Game, String> {
        Game::begin(start)
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

    fn decide(&self, command: &Command, position: u64) -> Result<Vec<Event>, Refusal> {
        Game::decide(self, command, position)
    }
}

/// Who may do what in Mysterium, and what the table, the ghost and each psychic see.
impl Roles for Game {
    type Role = Role;
    type Action = Action;
    type Told = Told;
    type View = View;

    fn seats(&self) -> Vec<Seat> {
        std::iter::once(Seat::Ghost)
            .chain((0..self.psychics.len()).map(Seat::Psychic))
            .collect()
    }

    fn permit(&self, who: &Who<Role>, command: &Command) -> Result<(), Refusal> {
        Game::permit(self, who, command)
    }

    fn allowed(&self, who: &Who<Role>) -> Vec<Action> {
        Game::allowed(self, who)
    }

    fn may(&self, who: &Who<Role>, extra: Extra) -> Result<(), Refusal> {
        Game::may(self, who, extra)
    }

    /// The ghost's view holds every psychic's cards and the culprit.
    fn by_invitation(seat: Seat) -> bool {
        seat == Seat::Ghost
    }

    /// The count is read out on the table screen: its lines and the verdict.
    fn shown_by_the_table(command: &Command) -> bool {
        command.on_the_table()
    }

    fn view(&self, role: Role) -> Result<View, Refusal> {
        let psychics = self.psychics.len();
        if let Role::Psychic(i) = role
            && i >= psychics
        {
            return Err(
                Refusal::new(refusals::NO_SUCH_PSYCHIC).with("last", psychics.saturating_sub(1))
            );
        }
        Ok(Game::view(self, role))
    }

    fn told(&self, event: &Event, role: Role) -> Option<Told> {
        log::told(self, event, role)
    }
}

/// What each command depends on, so a table acts at once (`at_once`).
impl seance_timeline::AtOnce for Game {
    type Thing = Thing;

    fn depends(&self, command: &Command) -> Vec<Thing> {
        Game::depends(self, command)
    }

    fn changes(&self, event: &Event) -> Vec<Thing> {
        Game::changes(self, event)
    }

    fn changed(&self, thing: &Thing) -> Refusal {
        Game::changed(self, thing)
    }
}

/// The sand timer of an interpretation phase, and the end it calls.
impl Timed for Game {
    fn sand_timer(&self) -> Option<Duration> {
        self.setup
            .timer_seconds()
            .map(|s| Duration::from_secs(s.into()))
    }

    fn sand_timer_of(seconds: u64) -> Result<Duration, Refusal> {
        sand_timer(seconds)
    }

    fn timer_runs(&self) -> bool {
        self.phase == Phase::Interpretation
    }

    fn timer_waits(&self) -> Refusal {
        Refusal::new(refusals::TIMER_WAITS_FOR_VISIONS)
    }

    fn time_up() -> Option<Command> {
        Some(Command::EndInterpretation)
    }
}

/// What a setup screen asks before there is a game.
impl Published for Game {
    type Facts = Facts;

    fn facts() -> Facts {
        facts::facts()
    }
}

/// A Mysterium game in the lists and the history: won or lost by everyone together.
impl Listed for Game {
    type Record = Record;

    fn status(&self) -> Status {
        match self.outcome {
            None => Status::Playing,
            Some(Outcome::Won) => Status::Won,
            Some(_) => Status::Lost,
        }
    }

    fn players(&self) -> Vec<String> {
        let mut names = vec![self.setup.ghost.clone()];
        names.extend(self.setup.players.iter().map(|p| p.name.clone()));
        names
    }

    fn edition(&self) -> Option<&'static str> {
        Some(self.setup.edition.name())
    }

    fn dialect(&self) -> Option<&'static str> {
        self.setup.dialect()
    }

    /// Each edition its own game in a player's logs; a game of no edition the journal names
    /// is a classic one (kept before editions were).
    fn titled(edition: Option<&str>) -> Title {
        let edition = Edition::ALL.into_iter().find(|e| Some(e.name()) == edition);
        match edition.unwrap_or(Edition::Classic) {
            Edition::Classic => Title {
                name: "Mysterium",
                source: RuleSet::Mysterium.name(),
                bgg_id: Some(181_304),
                board: None,
            },
            // No BoardGameGeek id of its own could be confirmed from here, and the classic
            // game's would file it as that game: the edition is named as the play's board.
            Edition::New => Title {
                name: "Mysterium",
                source: "mysterium-new",
                bgg_id: None,
                board: Some("New edition"),
            },
        }
    }

    /// Everyone wins or loses together, the ghost with the psychics (the new edition's
    /// mediums); nobody scores, and no player begins.
    fn summary(&self) -> Option<Summary> {
        let won = self.outcome? == Outcome::Won;
        let played = |name: &String, role| PlayerLine {
            name: name.clone(),
            role: Some(role),
            started: false,
            winner: won,
            score: None,
            rank: None,
        };
        // Each edition's word for those who read the visions.
        let seeing = match self.setup.edition {
            Edition::Classic => "psychic",
            Edition::New => "medium",
        };
        let players = std::iter::once(played(&self.setup.ghost, "ghost"))
            .chain(self.setup.players.iter().map(|p| played(&p.name, seeing)))
            .collect();
        Some(Summary {
            players,
            cooperative: true,
        })
    }

    fn record(&self) -> Option<Record> {
        Record::of(self)
    }
}
