//! What can go wrong with the journal, worded for the person at the table with what to do.

use std::fmt;
use std::path::{Path, PathBuf};

use crate::{SCHEMA, Trouble};

#[derive(Debug)]
pub enum JournalError {
    /// The file cannot be opened as a journal; it is left as it is.
    Open {
        path: PathBuf,
        why: String,
    },
    /// Written by a newer Séance; nothing was changed.
    Newer {
        path: PathBuf,
        schema: i64,
    },
    NoSuchGame(i64),
    /// The game is kept under another rule set than the one asked for.
    Ruleset {
        game: i64,
        ruleset: String,
    },
    /// The entry's number is not the next one (another writer, or a stale caller).
    OutOfOrder {
        game: i64,
        seq: u64,
    },
    /// The game has a damaged tail that must be set aside before it goes on.
    Damaged {
        game: i64,
        seq: u64,
    },
    /// The game cannot be read from its start: nothing of it can be played, and the table
    /// may set it aside ([`Journal::set_aside_start`]).
    StartDamaged {
        game: i64,
        why: String,
    },
    /// The disk is full: nothing was written, nothing lost.
    DiskFull,
    /// The journal's folder may not be written (read-only, or another user's).
    Unwritable {
        folder: PathBuf,
    },
    Sql(rusqlite::Error),
}

impl fmt::Display for JournalError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            JournalError::Open { path, why } => write!(
                f,
                "{} could not be opened as a Séance journal ({why}); it was left as it was. To play meanwhile, start Séance with another data folder (--data-dir): every game stays in this one",
                path.display()
            ),
            JournalError::DiskFull => write!(
                f,
                "the disk is full, so the journal could not be written: nothing was lost, and the last change was not made. Free some space on the disk and try again"
            ),
            JournalError::Newer { path, schema } => write!(
                f,
                "{} was written by a newer Séance (journal version {schema}, this one reads {SCHEMA}); update Séance — nothing was changed",
                path.display()
            ),
            JournalError::NoSuchGame(id) => {
                write!(f, "there is no game {id}; list the games to find it")
            }
            JournalError::Ruleset { game, ruleset } => write!(
                f,
                "game {game} is a {ruleset} game; open it from the list of games"
            ),
            JournalError::OutOfOrder { game, seq } => write!(
                f,
                "game {game} already has an entry {seq}: the game changed meanwhile; reload it"
            ),
            JournalError::Damaged { game, seq } => write!(
                f,
                "game {game} has a damaged entry {seq}; set the damaged part aside to go on from before it"
            ),
            JournalError::StartDamaged { game, why } => write!(
                f,
                "game {game} cannot be read from its start ({why}); set it aside: it leaves every list and stays in the journal"
            ),
            JournalError::Unwritable { folder } => write!(
                f,
                "Séance may not write in its data folder ({}): make it writable by the user who starts Séance, or start Séance with another data folder (--data-dir)",
                folder.display()
            ),
            JournalError::Sql(e) => write!(f, "the journal could not be written or read: {e}"),
        }
    }
}

impl std::error::Error for JournalError {}

impl JournalError {
    /// The trouble this is at start, for the journal at `path`, where the table can put it
    /// right and look again (a full disk, a folder that may not be written); none when it
    /// is a fault of its own.
    pub fn trouble(&self, path: &Path) -> Option<Trouble> {
        match self {
            JournalError::DiskFull => Some(Trouble::disk_full(path)),
            JournalError::Unwritable { folder } => Some(Trouble::Unwritable {
                folder: folder.clone(),
            }),
            _ => None,
        }
    }
}

impl From<rusqlite::Error> for JournalError {
    fn from(e: rusqlite::Error) -> Self {
        match e.sqlite_error_code() {
            Some(rusqlite::ErrorCode::DiskFull) => JournalError::DiskFull,
            _ => JournalError::Sql(e),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_full_disk_is_told_as_a_full_disk() {
        let full = rusqlite::Error::SqliteFailure(
            rusqlite::ffi::Error::new(rusqlite::ffi::SQLITE_FULL),
            None,
        );
        let told = JournalError::from(full);
        assert!(matches!(told, JournalError::DiskFull), "{told:?}");
        assert!(told.to_string().starts_with("the disk is full"));
        let busy = rusqlite::Error::SqliteFailure(
            rusqlite::ffi::Error::new(rusqlite::ffi::SQLITE_BUSY),
            None,
        );
        assert!(matches!(JournalError::from(busy), JournalError::Sql(_)));
    }
}
