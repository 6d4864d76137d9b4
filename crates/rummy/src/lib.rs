//! The scorepad of Mystery Rummy: Jack the Ripper (Mystérami: Jack l'Éventreur, 002),
//! replacing the pen and paper its rulebook asks for. The players read the cards; this
//! keeps the secret votes, works out who is Jack, each player's score and how it was
//! reached, and when the game is over. A pure core like Mysterium's: commands in, events
//! out, the game a fold of its events.
//!
//! The modules stand in layers, each using those below it (no circle of more than two): the
//! vocabulary (suspects, rounds and their tallies, setup, roles, commands, events), the
//! scorepad as a fold of its events, deciding (`decide`), what each role may do, see and
//! read (`allowed`, `view`, `log`), and on top the rule set's face, here.

mod allowed;
mod command;
mod decide;
mod event;
mod jack;
mod log;
mod record;
mod role;
mod round;
mod scorepad;
mod setup;
mod standings;
mod suspects;
mod tally;
mod view;

pub use allowed::Action;
pub use command::Command;
pub use event::Event;
pub use jack::{JackStep, Verdict, who_is_jack};
pub use log::Told;
pub use record::{Record, Votes};
pub use role::Role;
pub use round::{Ending, Line, PlayerCards, PlayerScore, Round, ScoreError, Scored, score};
pub use scorepad::{Played, Scorepad, Vote};
pub use setup::{PLAYERS, Setup, deal};
pub use standings::{Standings, standings};
pub use suspects::{
    JOKER, Known, LETTER, MOST_PRINTED, Printed, RIPPER_ESCAPES, SUSPECTS, Suspect, Suspicion,
};
pub use tally::{Correcting, LIMITS, Limits, PlayerTally, RoundTally};
pub use view::{RoundView, View, VoteView};

use seance_timeline::{Extra, Refusal, Who};

/// A Mystery Rummy game's history.
pub type Timeline = seance_timeline::Timeline<Scorepad>;
/// An entry of a Mystery Rummy game's history.
pub type Entry = seance_timeline::Entry<Command, Event>;

/// A new game: its timeline, and the events of its start for the journal.
pub fn begin(setup: Setup, seed: u64) -> Result<(Timeline, Vec<Event>), seance_timeline::Refusal> {
    let start = Scorepad::start(setup, seed)?;
    Ok(Timeline::begin(start).expect("a fresh start folds"))
}

/// Mystery Rummy's face to the shells: the timeline, the server and the history.
impl seance_timeline::Rules for Scorepad {
    const RULESET: &'static str = "mystery-rummy";
    type Command = Command;
    type Event = Event;
    type Role = Role;
    type Action = Action;
    type Told = Told;

    fn replay<'a>(events: impl IntoIterator<Item = &'a Event>) -> Result<Scorepad, String> {
        Scorepad::replay(events)
    }

    fn apply(&mut self, event: &Event) -> Result<(), String> {
        Scorepad::apply(self, event)
    }

    fn valid_start(start: &[Event]) -> Result<(), Refusal> {
        // A start without its setup does not replay: the replay refuses it.
        match start.first() {
            Some(Event::Started { setup, .. }) => setup.validate(),
            _ => Ok(()),
        }
    }

    fn decide(&self, command: &Command, _position: u64) -> Result<Vec<Event>, Refusal> {
        Scorepad::decide(self, command)
    }

    fn permit(&self, who: &Who<Role>, command: &Command) -> Result<(), Refusal> {
        Scorepad::permit(self, who, command)
    }

    fn allowed(&self, who: &Who<Role>) -> Vec<Action> {
        Scorepad::allowed(self, who)
    }

    fn may(&self, who: &Who<Role>, extra: Extra) -> Result<(), Refusal> {
        Scorepad::may(self, who, extra)
    }

    fn told(&self, event: &Event, role: Role) -> Option<Told> {
        log::told(event, role)
    }

    fn status(&self) -> &'static str {
        if self.standings().winner.is_some() {
            "over"
        } else {
            "playing"
        }
    }

    fn players(&self) -> Vec<String> {
        self.players.clone()
    }

    type Record = Record;
    fn record(&self) -> Option<Self::Record> {
        Record::of(self)
    }

    /// Each player's total, ranked; the winner as the standings say.
    fn summary(&self) -> Option<seance_timeline::Summary> {
        let standings = self.standings();
        let winner = standings.winner?;
        let totals: Vec<i64> = standings.totals.iter().map(|&t| t.into()).collect();
        Some(seance_timeline::Summary::scored(
            &self.players,
            &totals,
            winner,
        ))
    }
}
