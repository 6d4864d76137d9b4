//! The scorepad of Mystery Rummy: Jack the Ripper (Mystérami: Jack l'Éventreur, 002),
//! replacing the pen and paper its rulebook asks for. The players read the cards; this
//! keeps the secret votes, works out who is Jack, each player's score and how it was
//! reached, and when the game is over. A pure core like Mysterium's: commands in, events
//! out, the game a fold of its events.
//!
//! The modules stand in layers, each using those below it (no circle of more than two): the
//! vocabulary (suspects, rounds and their tallies, setup, roles, commands, events), the
//! scorepad as a fold of its events, deciding (`decide`), what each role may do, see and
//! read (`allowed`, `view`, `log`), what each command depends on (`at_once`), and on top
//! the rule set's face, here.

mod allowed;
mod at_once;
mod command;
mod decide;
mod event;
mod jack;
mod log;
mod record;
pub mod refusals;
mod role;
mod round;
mod scorepad;
mod setup;
mod standings;
mod statistics;
mod suspects;
mod tally;
mod view;

pub use allowed::Action;
pub use at_once::Thing;
pub use command::Command;
pub use event::Event;
pub use jack::{JackStep, Verdict, who_is_jack};
pub use log::Told;
pub use record::{Record, Votes};
pub use role::{Role, Seat};
pub use round::{Ending, Line, PlayerCards, PlayerScore, Round, ScoreError, Scored, score};
pub use scorepad::{RoundPlayed, Scorepad, Vote};
pub use setup::{Facts, PLAYERS, Setup, deal};
pub use standings::{Standings, standings};
pub use statistics::{Accuracy, Statistics, Top};
pub use suspects::{
    JOKER, Known, LETTER, MOST_PRINTED, Printed, RIPPER_ESCAPES, SUSPECTS, Suspect, Suspicion,
};
pub use tally::{Correcting, LIMITS, Limits, PlayerTally, RoundTally};
pub use view::{Dealt, RoundView, View, VoteView};

use seance_timeline::{
    Extra, Listed, Published, Refusal, Roles, RuleSet, Settled, Status, Summary, Timed, Title, Who,
};

/// A Mystery Rummy game's history.
pub type Timeline = seance_timeline::Timeline<Scorepad>;
/// An entry of a Mystery Rummy game's history.
pub type Entry = seance_timeline::Entry<Command, Event>;

/// A new game: its timeline, and the events of its start for the journal.
pub fn begin(setup: Setup, seed: u64) -> Result<(Timeline, Vec<Event>), seance_timeline::Refusal> {
    let start = Scorepad::start(setup, seed)?;
    Ok(Timeline::begin(start).expect("a fresh start folds"))
}

/// Mystery Rummy's core: how a game starts and folds, and what each command causes.
impl seance_timeline::Rules for Scorepad {
    const RULE_SET: RuleSet = RuleSet::MysteryRummy;
    type Setup = Setup;
    type Command = Command;
    type Event = Event;

    fn start(setup: Setup, seed: u64) -> Result<Vec<Event>, Refusal> {
        Scorepad::start(setup, seed)
    }

    fn again(&self) -> Setup {
        Setup {
            players: self.players.clone(),
            printed: self.printed,
        }
    }

    fn begin(start: &Event) -> Result<Scorepad, String> {
        Scorepad::begin(start)
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
}

/// Who may do what at a Mystery Rummy table, and what the table and each player see.
impl Roles for Scorepad {
    type Role = Role;
    type Action = Action;
    type Told = Told;
    type View = View;

    fn seats(&self) -> Vec<Seat> {
        (0..self.players.len()).map(Seat::Player).collect()
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

    fn view(&self, role: Role) -> Result<View, Refusal> {
        if !self.has(role) {
            return Err(Refusal::new(refusals::NO_SUCH_PLAYER)
                .with("last", self.players.len().saturating_sub(1)));
        }
        Ok(Scorepad::view(self, role))
    }

    fn told(&self, event: &Event, role: Role) -> Option<Told> {
        log::told(event, role)
    }
}

/// What each command depends on, so players vote at once (`at_once`).
impl seance_timeline::AtOnce for Scorepad {
    type Thing = Thing;

    fn depends(&self, command: &Command) -> Vec<Thing> {
        Scorepad::depends(self, command)
    }

    fn changes(&self, event: &Event) -> Vec<Thing> {
        Scorepad::changes(self, event)
    }

    fn changed(&self, thing: &Thing) -> Refusal {
        Scorepad::changed(self, thing)
    }
}

/// Mystery Rummy has no sand timer.
impl Timed for Scorepad {}

/// A table tells Mystery Rummy nothing once for every game: all is in each game's setup.
impl Settled for Scorepad {
    type Settings = ();

    fn settled(_: &()) -> Result<(), Refusal> {
        Ok(())
    }
}

/// What a setup screen asks before there is a game.
impl Published for Scorepad {
    type Facts = Facts;

    fn facts() -> Facts {
        setup::facts()
    }
}

/// A Mystery Rummy game in the lists and the history: each player's total, ranked.
impl Listed for Scorepad {
    type Record = Record;

    fn status(&self) -> Status {
        if self.standings().winner.is_some() {
            Status::Over
        } else {
            Status::Playing
        }
    }

    fn players(&self) -> Vec<String> {
        self.players.clone()
    }

    fn titled(_: Option<&str>) -> Title {
        Title {
            name: "Mystery Rummy: Jack the Ripper",
            source: RuleSet::MysteryRummy.name(),
            // Left out: its BoardGameGeek id could not be confirmed from here, and a wrong
            // one would log the play under another game; BG Stats matches it by name.
            bgg_id: None,
            board: None,
        }
    }

    /// The winner as the standings say; the game begun by the player on its first dealer's
    /// left.
    fn summary(&self) -> Option<Summary> {
        let standings = self.standings();
        let winner = standings.winner?;
        let totals: Vec<i64> = standings.totals.iter().map(|&t| t.into()).collect();
        Some(Summary::scored(
            &self.players,
            &totals,
            self.begins(0),
            winner,
        ))
    }

    fn record(&self) -> Option<Record> {
        Record::of(self)
    }
}
