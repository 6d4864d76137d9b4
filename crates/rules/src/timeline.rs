//! A game's history as the journal keeps it: accepted commands with their events, and
//! undo and redo as entries of their own. Undo goes back one command at a time to the
//! start; redo replays what was undone until a new command is accepted.

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::command::Command;
use crate::error::RuleError;
use crate::event::Event;
use crate::game::Game;
use crate::setup::Setup;

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Entry {
    Command {
        command: Command,
        events: Vec<Event>,
    },
    Undo,
    Redo,
}

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

#[derive(Debug, Clone)]
pub struct Timeline {
    start: Vec<Event>,
    done: Vec<Vec<Event>>,
    undone: Vec<Vec<Event>>,
    entries: u64,
    game: Game,
}

impl Timeline {
    /// A new game's timeline and the events of its start (for the journal).
    pub fn start(setup: Setup, seed: u64) -> Result<(Timeline, Vec<Event>), RuleError> {
        let start = Game::start(setup, seed)?;
        let timeline = Timeline::resume(start.clone(), []).expect("a fresh start folds");
        Ok((timeline, start))
    }

    /// Rebuilds a timeline from its start events and journal entries.
    pub fn resume(
        start: Vec<Event>,
        entries: impl IntoIterator<Item = Entry>,
    ) -> Result<Timeline, TimelineError> {
        let game = Game::replay(&start).map_err(TimelineError::Damaged)?;
        let mut timeline = Timeline {
            start,
            done: Vec::new(),
            undone: Vec::new(),
            entries: 0,
            game,
        };
        for entry in entries {
            timeline.push(entry)?;
        }
        Ok(timeline)
    }

    pub fn game(&self) -> &Game {
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
    pub fn decide(&self, command: Command) -> Result<Entry, RuleError> {
        let events = self.game.decide(&command, self.entries + 1)?;
        Ok(Entry::Command { command, events })
    }

    /// Adds an entry (one just decided, or one read back from the journal).
    pub fn push(&mut self, entry: Entry) -> Result<(), TimelineError> {
        match entry {
            Entry::Command { events, .. } => {
                for event in &events {
                    self.game.apply(event).map_err(TimelineError::Damaged)?;
                }
                self.done.push(events);
                self.undone.clear();
            }
            Entry::Undo => {
                let events = self.done.pop().ok_or(TimelineError::NothingToUndo)?;
                self.undone.push(events);
                self.refold()?;
            }
            Entry::Redo => {
                let events = self.undone.pop().ok_or(TimelineError::NothingToRedo)?;
                for event in &events {
                    self.game.apply(event).map_err(TimelineError::Damaged)?;
                }
                self.done.push(events);
            }
        }
        self.entries += 1;
        Ok(())
    }

    fn refold(&mut self) -> Result<(), TimelineError> {
        self.game = Game::replay(self.start.iter().chain(self.done.iter().flatten()))
            .map_err(TimelineError::Damaged)?;
        Ok(())
    }

    /// Every event in effect, from the start.
    pub fn events(&self) -> impl Iterator<Item = &Event> {
        self.start.iter().chain(self.done.iter().flatten())
    }
}
