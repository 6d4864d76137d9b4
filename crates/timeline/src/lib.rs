//! A game's history as the journal keeps it, for any of Séance's rule sets: accepted
//! commands with their events, and undo and redo as entries of their own. Undo goes back
//! one command at a time to the start; redo replays what was undone until a new command
//! is accepted; each change remembers the role that sent it. A rule set plugs in by
//! implementing [`Rules`] (a fold of its events and a decision on each command) and
//! [`Roles`] (who may do what, and sees what) and [`AtOnce`] (what each command depends
//! on, so commands sent at once land together); its whole face to the shells is
//! [`RuleBook`]: those with [`Timed`] and [`Listed`]. Randomness comes from the game's
//! recorded seed ([`Draw`]).

mod at_once;
mod book;
mod error;
mod pace;
pub mod refusals;
mod rng;
mod rule_set;
mod summary;
mod who;

use std::collections::VecDeque;
use std::fmt;

use serde::{Deserialize, Serialize};

pub use at_once::AtOnce;
pub use book::{Listed, Published, Record, Roles, RuleBook, Rules, Settled, Timed};
pub use error::{NAME_CHARS, Param, Params, Refusal, check_name, ensure};
pub use pace::{Act, Allowance, Pace};
pub use rng::Draw;
pub use rule_set::{NoSuchRuleSet, RuleSet};
pub use summary::{PlayerLine, Summary, Title};
pub use who::{Extra, Knock, NoSuchRole, RoleName, Seat, SeatName, Who, place_named};

/// Where a game stands, as the list of games shows it and the journal keeps it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Status {
    Playing,
    /// A cooperative game the players won together.
    Won,
    /// A cooperative game the players lost together.
    Lost,
    /// A game of each for themselves, played to its end.
    Over,
}

impl Status {
    /// Every status.
    pub const ALL: [Status; 4] = [Status::Playing, Status::Won, Status::Lost, Status::Over];

    /// The status named `name` in the journal, if any.
    pub fn named(name: &str) -> Option<Status> {
        Status::ALL.into_iter().find(|s| s.name() == name)
    }

    /// Its name in the journal and the API.
    pub fn name(self) -> &'static str {
        match self {
            Status::Playing => "playing",
            Status::Won => "won",
            Status::Lost => "lost",
            Status::Over => "over",
        }
    }

    /// Whether the game is still being played.
    pub fn in_play(self) -> bool {
        self == Status::Playing
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Entry<C, E> {
    Command { command: C, events: Vec<E> },
    Undo,
    Redo,
}

/// An entry of `G`'s history.
pub type EntryOf<G> = Entry<<G as Rules>::Command, <G as Rules>::Event>;

/// A recent change to the game, as the screens' logs tell it: the events a command caused,
/// or those an undo took back or a redo brought back.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Change<E, R> {
    /// The version the change made.
    pub version: u64,
    pub kind: ChangeKind,
    /// Who sent it: the table (or a watcher), or a seat's phone; none when nobody did (the
    /// sand running out) or nobody said.
    pub by: Option<R>,
    pub events: Vec<E>,
    /// An undo's: the version of the change it took back.
    pub undid: Option<u64>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ChangeKind {
    Done,
    Undone,
    Redone,
}

/// How many changes a timeline remembers for the logs.
pub const RECENT: usize = 16;

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TimelineError {
    NothingToUndo,
    NothingToRedo,
    /// A stored history that does not fold into a game.
    Damaged(String),
}

impl fmt::Display for TimelineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TimelineError::NothingToUndo => {
                f.write_str("nothing to undo: the game is at its start")
            }
            TimelineError::NothingToRedo => {
                f.write_str("nothing to redo: no undone command is waiting")
            }
            TimelineError::Damaged(why) => write!(f, "the game's history is damaged: {why}"),
        }
    }
}

impl std::error::Error for TimelineError {}

/// Moves `game` (the state after `start` and `done`) by `entry`: its events applied, or for
/// an undo the history replayed without the last command.
fn advance<G: Rules>(
    game: &mut G,
    start: &[G::Event],
    done: &[Vec<G::Event>],
    undone: &[Vec<G::Event>],
    entry: &EntryOf<G>,
) -> Result<(), TimelineError> {
    let events = match entry {
        Entry::Command { events, .. } => events,
        Entry::Undo => {
            let (_, kept) = done.split_last().ok_or(TimelineError::NothingToUndo)?;
            *game = G::replay(start.iter().chain(kept.iter().flatten()))
                .map_err(TimelineError::Damaged)?;
            return Ok(());
        }
        Entry::Redo => undone.last().ok_or(TimelineError::NothingToRedo)?,
    };
    for event in events {
        game.apply(event).map_err(TimelineError::Damaged)?;
    }
    Ok(())
}

/// An entry with the game as it would leave it: [`Timeline::after`], then
/// [`Timeline::record`].
pub struct Next<G: Rules> {
    entry: EntryOf<G>,
    game: G,
}

impl<G: Rules> Next<G> {
    pub fn entry(&self) -> &EntryOf<G> {
        &self.entry
    }

    pub fn game(&self) -> &G {
        &self.game
    }
}

#[derive(Debug, Clone)]
pub struct Timeline<G: Roles> {
    start: Vec<G::Event>,
    done: Vec<Vec<G::Event>>,
    /// The version each change in `done` was made at (a command's, or a redo's).
    done_at: Vec<u64>,
    undone: Vec<Vec<G::Event>>,
    entries: u64,
    game: G,
    recent: VecDeque<Change<G::Event, G::Role>>,
}

impl<G: Roles> Timeline<G> {
    /// A new game's timeline from the events of its start, given back for the journal.
    pub fn begin(start: Vec<G::Event>) -> Result<(Self, Vec<G::Event>), TimelineError> {
        Ok((Timeline::resume(start.clone(), [])?, start))
    }

    /// Rebuilds a timeline from its start events and journal entries.
    pub fn resume(
        start: Vec<G::Event>,
        entries: impl IntoIterator<Item = EntryOf<G>>,
    ) -> Result<Self, TimelineError> {
        let game = G::replay(&start).map_err(TimelineError::Damaged)?;
        let mut timeline = Timeline {
            start,
            done: Vec::new(),
            done_at: Vec::new(),
            undone: Vec::new(),
            entries: 0,
            game,
            recent: VecDeque::new(),
        };
        for entry in entries {
            timeline.push(entry)?;
        }
        Ok(timeline)
    }

    pub fn game(&self) -> &G {
        &self.game
    }

    /// The number of entries so far: the state version clients send back.
    pub fn version(&self) -> u64 {
        self.entries
    }

    pub fn can_undo(&self) -> bool {
        !self.done.is_empty()
    }

    pub fn can_redo(&self) -> bool {
        !self.undone.is_empty()
    }

    /// The entry `command` would add, without adding it.
    pub fn decide(&self, command: G::Command) -> Result<EntryOf<G>, Refusal> {
        let events = self.game.decide(&command, self.entries + 1)?;
        Ok(Entry::Command { command, events })
    }

    /// Adds an entry (one just decided, or one read back from the journal), its sender
    /// unsaid.
    pub fn push(&mut self, entry: EntryOf<G>) -> Result<(), TimelineError> {
        self.push_by(entry, None)
    }

    /// [`Timeline::push`] of an entry `by` sent, which its change in [`Timeline::recent`]
    /// remembers.
    pub fn push_by(&mut self, entry: EntryOf<G>, by: Option<G::Role>) -> Result<(), TimelineError> {
        // In place: a game read back from the journal replays every entry, copying nothing.
        advance(
            &mut self.game,
            &self.start,
            &self.done,
            &self.undone,
            &entry,
        )?;
        self.remember(entry, by);
        Ok(())
    }

    /// The game as `entry` would leave it, the timeline untouched: what a server journals
    /// before it [`Timeline::record`]s the entry, without copying the whole history.
    pub fn after(&self, entry: EntryOf<G>) -> Result<Next<G>, TimelineError> {
        let mut game = self.game.clone();
        advance(&mut game, &self.start, &self.done, &self.undone, &entry)?;
        Ok(Next { entry, game })
    }

    /// Adds the entry [`Timeline::after`] looked at, `by` its sender, with no change made
    /// meanwhile.
    pub fn record(&mut self, Next { entry, game }: Next<G>, by: Option<G::Role>) {
        self.game = game;
        self.remember(entry, by);
    }

    /// Keeps `entry`, whose events are already in the game, in the history.
    fn remember(&mut self, entry: EntryOf<G>, by: Option<G::Role>) {
        self.entries += 1;
        let mut undid = None;
        let (kind, events) = match entry {
            Entry::Command { events, .. } => {
                self.done.push(events.clone());
                self.done_at.push(self.entries);
                self.undone.clear();
                (ChangeKind::Done, events)
            }
            Entry::Undo => {
                let events = self.done.pop().expect("advance() found an entry to undo");
                undid = self.done_at.pop();
                self.undone.push(events.clone());
                (ChangeKind::Undone, events)
            }
            Entry::Redo => {
                let events = self.undone.pop().expect("advance() found an entry to redo");
                self.done.push(events.clone());
                self.done_at.push(self.entries);
                (ChangeKind::Redone, events)
            }
        };
        if self.recent.len() == RECENT {
            self.recent.pop_front();
        }
        self.recent.push_back(Change {
            version: self.entries,
            kind,
            by,
            events,
            undid,
        });
    }

    /// The last [`RECENT`] changes, oldest first.
    pub fn recent(&self) -> impl Iterator<Item = &Change<G::Event, G::Role>> {
        self.recent.iter()
    }

    /// Every event in effect, from the start.
    pub fn events(&self) -> impl Iterator<Item = &G::Event> {
        self.start.iter().chain(self.done.iter().flatten())
    }
}
