//! Games over the API. A command goes to the rules core; if accepted it is committed to
//! the journal, and only then applied and acknowledged. Every change is announced, and
//! each screen then builds its own role's view: secrets are filtered here, at the source.

use std::collections::HashMap;
use std::path::Path;
use std::sync::Mutex;

use seance_journal::{Damage, GameRecord, Journal, JournalError};
use seance_rules::{Command, Entry, Role, RuleError, Setup, Timeline, TimelineError};
use serde::Serialize;
use tokio::sync::broadcast;

/// Why a request about a game was refused.
#[derive(Debug)]
pub enum GameError {
    /// Against the rules: nothing changed.
    Rule(RuleError),
    /// Sent for a version the game has moved past.
    Stale {
        sent: u64,
        now: u64,
    },
    Timeline(TimelineError),
    Journal(JournalError),
}

impl From<JournalError> for GameError {
    fn from(e: JournalError) -> Self {
        GameError::Journal(e)
    }
}

/// What a screen receives: a role's view and what it can do.
#[derive(Debug, Serialize)]
pub struct Snapshot {
    pub game: i64,
    pub version: u64,
    pub can_undo: bool,
    pub can_redo: bool,
    /// A damaged tail found on loading, kept until the table sets it aside.
    pub damage: Option<String>,
    pub view: seance_rules::View,
}

struct Live {
    timeline: Timeline,
    damage: Option<Damage>,
}

pub struct Games {
    state: Mutex<(Journal, HashMap<i64, Live>)>,
    changes: broadcast::Sender<i64>,
}

/// The undo and redo requests, which share every step but the entry.
#[derive(Debug, Clone, Copy)]
pub enum Rewind {
    Undo,
    Redo,
}

impl Games {
    pub fn open(path: &Path) -> Result<Games, JournalError> {
        Ok(Games {
            state: Mutex::new((Journal::open(path)?, HashMap::new())),
            changes: broadcast::channel(256).0,
        })
    }

    /// Announces the id of every game that changes.
    pub fn subscribe(&self) -> broadcast::Receiver<i64> {
        self.changes.subscribe()
    }

    pub fn list(&self) -> Result<Vec<GameRecord>, GameError> {
        Ok(self.state.lock().expect("games lock").0.games()?)
    }

    pub fn create(&self, setup: Setup, seed: u64) -> Result<i64, GameError> {
        let (timeline, start) = Timeline::start(setup, seed).map_err(GameError::Rule)?;
        let mut state = self.state.lock().expect("games lock");
        let id = state.0.create(&start)?;
        state.1.insert(
            id,
            Live {
                timeline,
                damage: None,
            },
        );
        Ok(id)
    }

    /// Runs `f` on the game, loading it from the journal on first use.
    fn with<T>(
        &self,
        id: i64,
        f: impl FnOnce(&mut Journal, &mut Live) -> Result<T, GameError>,
    ) -> Result<T, GameError> {
        let mut guard = self.state.lock().expect("games lock");
        let (journal, live) = &mut *guard;
        let game = match live.entry(id) {
            std::collections::hash_map::Entry::Occupied(game) => game.into_mut(),
            std::collections::hash_map::Entry::Vacant(slot) => {
                let loaded = journal.load(id)?;
                if let Some(d) = &loaded.damage {
                    tracing::warn!(
                        "game {id}: entry {} is damaged ({}); recovered the game before it",
                        d.seq,
                        d.why
                    );
                }
                slot.insert(Live {
                    timeline: loaded.timeline,
                    damage: loaded.damage,
                })
            }
        };
        f(journal, game)
    }

    pub fn snapshot(&self, id: i64, role: Role) -> Result<Snapshot, GameError> {
        self.with(id, |_, live| {
            let psychics = live.timeline.game().psychics.len();
            if let Role::Psychic(i) = role
                && i >= psychics
            {
                let why = format!(
                    "there is no psychic {i}: this game's are numbered 0 to {}",
                    psychics - 1
                );
                return Err(GameError::Rule(RuleError::new("no_such_psychic", why)));
            }
            Ok(snapshot(id, live, role))
        })
    }

    /// Decides, journals, applies: in that order, so an acknowledged command is on disk.
    pub fn command(&self, id: i64, version: u64, command: Command) -> Result<u64, GameError> {
        self.write(id, version, |timeline| {
            timeline.decide(command).map_err(GameError::Rule)
        })
    }

    pub fn rewind(&self, id: i64, version: u64, how: Rewind) -> Result<u64, GameError> {
        self.write(id, version, |timeline| match how {
            Rewind::Undo if !timeline.can_undo() => {
                Err(GameError::Timeline(TimelineError::NothingToUndo))
            }
            Rewind::Redo if !timeline.can_redo() => {
                Err(GameError::Timeline(TimelineError::NothingToRedo))
            }
            Rewind::Undo => Ok(Entry::Undo),
            Rewind::Redo => Ok(Entry::Redo),
        })
    }

    fn write(
        &self,
        id: i64,
        version: u64,
        entry: impl FnOnce(&Timeline) -> Result<Entry, GameError>,
    ) -> Result<u64, GameError> {
        let version = self.with(id, |journal, live| {
            if let Some(d) = &live.damage {
                return Err(GameError::Journal(JournalError::Damaged {
                    game: id,
                    seq: d.seq,
                }));
            }
            let now = live.timeline.version();
            if version != now {
                return Err(GameError::Stale { sent: version, now });
            }
            let entry = entry(&live.timeline)?;
            let mut next = live.timeline.clone();
            next.push(entry.clone()).map_err(GameError::Timeline)?;
            journal.append(id, next.version(), &entry, next.game().outcome)?;
            live.timeline = next;
            Ok(live.timeline.version())
        })?;
        let _ = self.changes.send(id);
        Ok(version)
    }

    /// Keeps a damaged tail aside so the game can go on from before it.
    pub fn set_aside_damage(&self, id: i64) -> Result<u64, GameError> {
        let version = self.with(id, |journal, live| {
            if let Some(d) = live.damage.take() {
                journal.set_aside(id, d.seq, &d.why)?;
            }
            Ok(live.timeline.version())
        })?;
        let _ = self.changes.send(id);
        Ok(version)
    }
}

fn snapshot(id: i64, live: &Live, role: Role) -> Snapshot {
    Snapshot {
        game: id,
        version: live.timeline.version(),
        can_undo: live.timeline.can_undo(),
        can_redo: live.timeline.can_redo(),
        damage: live
            .damage
            .as_ref()
            .map(|d| format!("entry {} is damaged: {}", d.seq, d.why)),
        view: live.timeline.game().view(role),
    }
}

/// `table`, `ghost` or `psychic:N`.
pub fn parse_role(text: &str) -> Option<Role> {
    match text {
        "table" => Some(Role::Table),
        "ghost" => Some(Role::Ghost),
        _ => text
            .strip_prefix("psychic:")?
            .parse()
            .ok()
            .map(Role::Psychic),
    }
}
