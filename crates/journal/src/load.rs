//! A game read back from its entries, recovered up to the first that does not make sense;
//! and what the table may do then: set the damaged part aside (kept, never dropped) and go
//! on from before it.

use rusqlite::{OptionalExtension, params};
use seance_timeline::{Roles, Timeline};

use crate::timers::TimerRecord;
use crate::writes::{commit, write};
use crate::{FORMAT, Journal, JournalError, now};

/// Where a stored game stopped making sense, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Damage {
    pub seq: u64,
    pub why: String,
}

/// A game read back: its timeline up to any damage, the damage if there is some, and its
/// sand timer if one was written.
pub struct Loaded<G: Roles> {
    pub timeline: Timeline<G>,
    pub damage: Option<Damage>,
    pub timer: Option<TimerRecord>,
}

impl Journal {
    /// Reads a game back, recovering it up to the first entry that does not make sense.
    pub fn load<G: Roles>(&self, game: i64) -> Result<Loaded<G>, JournalError> {
        let kept: Option<(String, String)> = self
            .conn
            .query_row(
                "SELECT ruleset, start FROM games WHERE id = ?1",
                [game],
                |r| Ok((r.get(0)?, r.get(1)?)),
            )
            .optional()?;
        let (ruleset, start) = kept.ok_or(JournalError::NoSuchGame(game))?;
        if ruleset != G::RULE_SET.name() {
            return Err(JournalError::Ruleset { game, ruleset });
        }
        let damaged = |why: String| JournalError::StartDamaged { game, why };
        let start: Vec<G::Event> =
            serde_json::from_str(&start).map_err(|e| damaged(e.to_string()))?;
        let mut timeline = Timeline::<G>::resume(start, []).map_err(|e| damaged(e.to_string()))?;
        let mut stmt = self.conn.prepare(
            "SELECT seq, format, entry, sender FROM entries WHERE game = ?1 ORDER BY seq",
        )?;
        let rows = stmt.query_map([game], |r| {
            Ok((
                r.get::<_, i64>(0)? as u64,
                r.get::<_, i64>(1)?,
                r.get::<_, String>(2)?,
                r.get::<_, Option<String>>(3)?,
            ))
        })?;
        for row in rows {
            let (seq, format, text, sender) = row?;
            let damage = |why: String| Damage { seq, why };
            let problem = if seq != timeline.version() + 1 {
                Some(damage(format!(
                    "entry {} is missing",
                    timeline.version() + 1
                )))
            } else if format > FORMAT {
                Some(damage(format!(
                    "written by a newer Séance (entry format {format}); update Séance to read it"
                )))
            } else {
                match serde_json::from_str(&text) {
                    Err(e) => Some(damage(format!("unreadable: {e}"))),
                    // Words in the file: a sender no role is named as is nobody said.
                    Ok(entry) => timeline
                        .push_by(entry, sender.and_then(|s| s.parse().ok()))
                        .err()
                        .map(|e| damage(e.to_string())),
                }
            };
            if problem.is_some() {
                return Ok(Loaded {
                    timeline,
                    damage: problem,
                    timer: self.timer(game)?,
                });
            }
        }
        Ok(Loaded {
            timeline,
            damage: None,
            timer: self.timer(game)?,
        })
    }

    /// Sets aside a game whose start cannot be read: its start is kept in `set_aside` (as
    /// entry 0, with the reason) and the game leaves every list, as a deleted one does;
    /// nothing of it is removed from the journal.
    pub fn set_aside_start(&mut self, game: i64, why: &str) -> Result<(), JournalError> {
        let tx = write(&mut self.conn, &self.turns)?;
        // Once: a game already set aside stays as it is.
        tx.execute(
            "INSERT INTO set_aside (game, seq, format, entry, why, at) SELECT id, 0, ?2, start, ?3, ?4 FROM games WHERE id = ?1 AND shelf IS NOT 'deleted'",
            params![game, FORMAT, why, now()],
        )?;
        let updated = tx.execute("UPDATE games SET shelf = 'deleted' WHERE id = ?1", [game])?;
        if updated == 0 {
            return Err(JournalError::NoSuchGame(game));
        }
        commit(&self.path, &self.identity, tx)
    }

    /// Moves the entries from `seq` on into `set_aside` (kept, with the reason), so the
    /// game can go on from before them.
    pub fn set_aside(&mut self, game: i64, seq: u64, why: &str) -> Result<usize, JournalError> {
        let tx = write(&mut self.conn, &self.turns)?;
        tx.execute(
            "INSERT INTO set_aside (game, seq, format, entry, why, at) SELECT game, seq, format, entry, ?3, ?4 FROM entries WHERE game = ?1 AND seq >= ?2",
            params![game, seq as i64, why, now()],
        )?;
        let moved = tx.execute(
            "DELETE FROM entries WHERE game = ?1 AND seq >= ?2",
            params![game, seq as i64],
        )?;
        commit(&self.path, &self.identity, tx)?;
        Ok(moved)
    }
}
