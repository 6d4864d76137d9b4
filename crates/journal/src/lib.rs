//! The journal: each game's start and every accepted command (and undo and redo) in a
//! SQLite file, committed to disk before the command is acknowledged, so a crash, a
//! closed lid or a dead battery resumes the game exactly.
//!
//! A damaged row, or one written by a newer Séance, is reported with what it holds; the
//! game is recovered up to it, and the rows from it on are kept (moved aside only when
//! the table chooses to go on), never dropped or overwritten. Finished games stay as
//! history.

mod check;
mod error;
mod export;
mod lists;
mod load;
mod open;
mod recover;
mod timers;
mod turns;
mod writes;

pub use check::{Trouble, check};
pub use error::JournalError;
pub use export::{
    Exported, ExportedEntry, FILE_FORMAT, FILE_VERSION, HistoryFile, IMPORT_CHUNK, Imported, Ready,
    Unfit, read, ready,
};
pub use lists::{Ended, GameRecord, GameState, Listing, Shelf, Standing};
pub use load::{Damage, Loaded};
pub use open::{FORMAT, SCHEMA, create_private, create_private_dir, keep_private, open_private};
pub use recover::{Recovered, recover};
pub use timers::TimerRecord;
pub use writes::Append;

use std::path::PathBuf;
use std::sync::Arc;
use std::time::{SystemTime, UNIX_EPOCH};

use rusqlite::Connection;
use turns::Turns;

pub struct Journal {
    conn: Connection,
    /// The file, whose mark is rewritten after each commit ([`check`]).
    path: PathBuf,
    identity: String,
    /// Shared with every connection opened [`Journal::beside`] this one.
    turns: Arc<Turns>,
}

pub(crate) fn now() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_secs() as i64)
        .unwrap_or(0)
}

impl Journal {
    /// Moves every commit from the write-ahead log into the journal's own file and empties
    /// the log: at a clean stop the file alone is the whole history (a backup of it, a
    /// copy to another machine). `false` when a reader kept some of it in the log.
    pub fn checkpoint(&self) -> Result<bool, JournalError> {
        // SQLite answers (busy, log frames, frames moved): busy is 1 when it could not
        // move everything.
        let busy: i64 = self
            .conn
            .query_row("PRAGMA wal_checkpoint(TRUNCATE)", [], |r| r.get(0))?;
        Ok(busy == 0)
    }

    /// This journal's own identity: made with the file, kept with it. What belongs to one
    /// journal (the phones' seats) records it, and a journal moved away or replaced is seen
    /// to be another.
    pub fn identity(&self) -> &str {
        &self.identity
    }

    /// How many commits the journal has made: the count its mark beside it checks.
    pub fn commits(&self) -> Result<u64, JournalError> {
        let commits: i64 =
            self.conn
                .query_row("SELECT commits FROM identity WHERE one = 1", [], |r| {
                    r.get(0)
                })?;
        Ok(commits as u64)
    }
}
