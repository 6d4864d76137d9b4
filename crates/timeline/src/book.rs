//! What a rule set gives the shells, trait by trait: its core ([`Rules`]: a fold of its
//! events and a decision on each command), who may do what and sees what ([`Roles`]), its
//! sand timer ([`Timed`]), what the lists say of a game ([`Listed`]), what a setup screen
//! asks before there is a game ([`Published`]), what a table tells it once for every game
//! ([`Settled`]); [`RuleBook`] is all of them.

use std::fmt;
use std::time::Duration;

use serde::Serialize;
use serde::de::DeserializeOwned;

use crate::{
    Act, AtOnce, Extra, Pace, Refusal, RoleName, RuleSet, Seat, Status, Summary, Title, Who,
    refusals,
};

/// What commands and events need: to be journaled, compared, and carried across threads.
pub trait Record:
    Clone + fmt::Debug + PartialEq + Serialize + DeserializeOwned + Send + Sync + 'static
{
}

impl<T> Record for T where
    T: Clone + fmt::Debug + PartialEq + Serialize + DeserializeOwned + Send + Sync + 'static
{
}

/// The core of a rule set, all the timeline needs: how a game starts, its state as a fold
/// of its events, and the events each command causes (or why it is refused).
pub trait Rules: Clone + Sized {
    /// Which rule set this is, by which the journal, the API and the UI name it.
    const RULE_SET: RuleSet;
    /// How a new game is set up: the players and the table's choices.
    type Setup: Serialize + DeserializeOwned + Send + 'static;
    type Command: Record;
    type Event: Record;

    /// The events that start a game of `setup`, its draws seeded by `seed`.
    fn start(setup: Self::Setup, seed: u64) -> Result<Vec<Self::Event>, Refusal>;
    /// The setup of a rematch: this game's players, seats and settings as they stand.
    fn again(&self) -> Self::Setup;
    /// The game as its history's first event, its start, sets it up; refused for any
    /// other event, or a start that does not hold together.
    fn begin(start: &Self::Event) -> Result<Self, String>;
    /// Applies an event; one that does not fit the game so far is refused.
    fn apply(&mut self, event: &Self::Event) -> Result<(), String>;
    /// Folds a whole history, start first; fails on the first event that does not fit.
    fn replay<'a>(events: impl IntoIterator<Item = &'a Self::Event>) -> Result<Self, String>
    where
        Self::Event: 'a,
    {
        let mut events = events.into_iter();
        let start = events
            .next()
            .ok_or("a game's history must begin with its start")?;
        let mut game = Self::begin(start)?;
        for (i, event) in events.enumerate() {
            game.apply(event)
                .map_err(|why| format!("event {}: {why}", i + 2))?;
        }
        Ok(game)
    }
    /// Whether `start` (a game's first events, brought in from a file) holds a setup the
    /// rules would start a new game with.
    fn valid_start(start: &[Self::Event]) -> Result<(), Refusal>;
    /// The events `command` causes; `position` (the game's place in its history) seeds any
    /// draw, so a replay draws the same.
    fn decide(&self, command: &Self::Command, position: u64) -> Result<Vec<Self::Event>, Refusal>;
}

/// Who may do what now, and what each role sees: the face the shells show each device.
pub trait Roles: Rules {
    /// The table's, or a seat's (the ghost, a psychic, a player).
    type Role: RoleName;
    /// What may be done now, with the choices it takes, as a view carries it.
    type Action: Serialize + fmt::Debug + Clone + PartialEq + Send + 'static;
    /// An event as a view's log tells it.
    type Told: Serialize + fmt::Debug + Clone + PartialEq + Send + 'static;
    /// What one role sees of the game.
    type View: Serialize + Send + 'static;

    /// The seats this game has (the table holds none).
    fn seats(&self) -> Vec<Seat<Self::Role>>;
    /// Whether `who` may send `command` at all (the seat it is done for, sealed choices on
    /// phones); [`Rules::decide`] says whether it may be done now.
    fn permit(&self, who: &Who<Self::Role>, command: &Self::Command) -> Result<(), Refusal>;
    /// Everything `who` may do now, with its choices: exactly the commands [`Roles::permit`]
    /// and [`Rules::decide`] accept, and the extras [`Roles::may`] grants.
    fn allowed(&self, who: &Who<Self::Role>) -> Vec<Self::Action>;
    /// Whether `who` may ask for `extra` (undo, the sand timer, a knock) in this game.
    fn may(&self, who: &Who<Self::Role>, extra: Extra) -> Result<(), Refusal>;
    /// Whether `seat` goes to a phone only by the table's invitation, not to anyone with the
    /// join code: its view holds what the other players must not know.
    fn by_invitation(_seat: Seat<Self::Role>) -> bool {
        false
    }
    /// How fast `who` may `act`: a seat's phone changes the game at a person's pace, and
    /// every device knocks at one; the table's own changes are the host's (its key), unpaced.
    fn pace(who: &Who<Self::Role>, act: Act) -> Option<Pace> {
        match (who, act) {
            (Who::Seat(_), Act::Change) => Some(Pace::CHANGES),
            (_, Act::Knock) => Some(Pace::KNOCKS),
            (Who::Table { .. } | Who::Watcher, Act::Change) => None,
        }
    }
    /// Whether `command` shows something on the table screen itself (a line of the count,
    /// the verdict after it): sent by the table, the other screens see it only once the
    /// table has.
    fn shown_by_the_table(_command: &Self::Command) -> bool {
        false
    }
    /// `role`'s view; refused for a seat this game does not have.
    fn view(&self, role: Self::Role) -> Result<Self::View, Refusal>;
    /// `event` as a screen of `role` may be told it in its log now, with the game where it
    /// stands, or nothing (a start, a secret that role does not see); a sealed choice is
    /// told without what was chosen.
    fn told(&self, event: &Self::Event, role: Self::Role) -> Option<Self::Told>;
}

/// The sand timer, for a rule set whose turns run against one: none unless it says.
pub trait Timed: Rules {
    /// The sand timer's run, for a game that has one.
    fn sand_timer(&self) -> Option<Duration> {
        None
    }
    /// A sand timer of `seconds`, as a house rule a table may choose mid-game, or why not.
    fn sand_timer_of(_seconds: u64) -> Result<Duration, Refusal> {
        Err(Refusal::new(refusals::NO_TIMER))
    }
    /// Whether the game is where the sand timer runs.
    fn timer_runs(&self) -> bool {
        false
    }
    /// Why the sand timer may not run now, where it does not.
    fn timer_waits(&self) -> Refusal {
        Refusal::new(refusals::NO_TIMER)
    }
    /// What the rules do when the sand runs out.
    fn time_up() -> Option<Self::Command> {
        None
    }
}

/// What the list of games, the history and the play logs say of a game.
pub trait Listed: Rules {
    /// What the history keeps of a finished game: the rule set's own facts, for its
    /// statistics.
    type Record: Serialize + DeserializeOwned;

    /// Whether the game is being played, or how it ended.
    fn status(&self) -> Status;
    /// Whether the game is still being played: neither won, lost nor over.
    fn in_play(&self) -> bool {
        self.status().in_play()
    }
    /// The players' names, for the list of games.
    fn players(&self) -> Vec<String>;
    /// Which edition of the rules, for a rule set that has more than one.
    fn edition(&self) -> Option<&'static str> {
        None
    }
    /// The words this game is told in where they differ from the rule set's usual ones:
    /// the prefix of the language files' own keys for it (`new` for `new:refusal.…`).
    fn dialect(&self) -> Option<&'static str> {
        None
    }
    /// A game of `edition` (its [`Listed::edition`], as the journal keeps it) as a play log
    /// and the lists of games know it: each edition its own game.
    fn titled(edition: Option<&str>) -> Title;
    /// The game as a play log knows it.
    fn title(&self) -> Title {
        Self::titled(self.edition())
    }
    /// The game as a play log keeps it, once it is over; `None` while it is played.
    fn summary(&self) -> Option<Summary>;
    /// What the history keeps of the game, written once it is over; `None` while it is
    /// played.
    fn record(&self) -> Option<Self::Record>;
}

/// What a setup screen asks of the rules before there is a game: how many play, and the
/// bounds of every number a setup takes (the shells publish it as it is: `/api/info`).
pub trait Published: Rules {
    type Facts: Serialize;

    fn facts() -> Self::Facts;
}

/// What a table tells a rule set once for all its games (Mysterium's card box, collection
/// and track bands): kept by the shells in the table's settings, checked by the rules.
pub trait Settled: Rules {
    type Settings: Record + Default;
    /// The settings' fields an older build kept among the table's own (at the top of its
    /// settings), read back as this rule set's.
    const FORMERLY_THE_TABLE_S: &'static [&'static str] = &[];

    /// Whether the table may keep `settings`; the refusal says what is wrong.
    fn settled(settings: &Self::Settings) -> Result<(), Refusal>;
}

/// A rule set's whole face to the shells: its core and every part they read.
pub trait RuleBook:
    Rules + Roles + AtOnce + Timed + Listed + Published + Settled + PartialEq + Send + Sync + 'static
{
}

impl<G> RuleBook for G where
    G: Rules
        + Roles
        + AtOnce
        + Timed
        + Listed
        + Published
        + Settled
        + PartialEq
        + Send
        + Sync
        + 'static
{
}
