//! Each game's sand timer, kept beside its entries: a crash resumes it with the time it had
//! left (written every few seconds while it runs).

use rusqlite::{Connection, OptionalExtension, params};

use crate::writes::write;
use crate::{Journal, JournalError, now};

/// A game's sand timer as last written: its length, the time it had left, and whether it
/// was running then (while it runs, the time left is written every few seconds).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TimerRecord {
    pub duration_ms: u64,
    pub left_ms: u64,
    pub running: bool,
}

impl Journal {
    /// Keeps game `game`'s sand timer as it is now (durably, like an entry).
    pub fn save_timer(&mut self, game: i64, timer: &TimerRecord) -> Result<(), JournalError> {
        let writing = write(&mut self.conn, &self.turns)?;
        keep_timer(&writing, game, timer)?;
        // Not counted among the commits the mark checks: a timer's time left is no history.
        writing.commit_uncounted()
    }

    pub(crate) fn timer(&self, game: i64) -> Result<Option<TimerRecord>, JournalError> {
        let read = |ms: i64| u64::try_from(ms).unwrap_or(0);
        Ok(self
            .conn
            .query_row(
                "SELECT duration_ms, left_ms, running FROM timers WHERE game = ?1",
                [game],
                |r| {
                    Ok(TimerRecord {
                        duration_ms: read(r.get(0)?),
                        left_ms: read(r.get(1)?),
                        running: r.get(2)?,
                    })
                },
            )
            .optional()?)
    }
}

/// Game `game`'s sand timer is `timer` from now on.
pub(crate) fn keep_timer(
    conn: &Connection,
    game: i64,
    timer: &TimerRecord,
) -> Result<(), JournalError> {
    let clamp = |ms: u64| i64::try_from(ms).unwrap_or(i64::MAX);
    conn.execute(
        "INSERT OR REPLACE INTO timers (game, duration_ms, left_ms, running, at) VALUES (?1, ?2, ?3, ?4, ?5)",
        params![
            game,
            clamp(timer.duration_ms),
            clamp(timer.left_ms),
            timer.running,
            now()
        ],
    )?;
    Ok(())
}
