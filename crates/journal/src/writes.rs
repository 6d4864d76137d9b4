//! Writing: a game's start and its entries, each committed to the disk before it is
//! acknowledged, in turns among the connections to the one file, several games' entries in
//! one commit when they come together (a group commit).

use rusqlite::{Connection, TransactionBehavior, params};
use seance_timeline::{Entry, Listed, Status};
use serde::Serialize;
use std::path::Path;

use crate::check;
use crate::timers::{TimerRecord, keep_timer};
use crate::turns::{Turn, Turns};
use crate::{FORMAT, Journal, JournalError, now};

impl Journal {
    /// Records a new game's start (under its rule set), `game` being what the start folds
    /// into (for the list of games); returns its id.
    pub fn create<G: Listed>(&mut self, start: &[G::Event], game: &G) -> Result<i64, JournalError> {
        let t = now();
        let tx = write(&mut self.conn, &self.turns)?;
        tx.execute(
            "INSERT INTO games (ruleset, start, status, players, created_at, updated_at, edition) VALUES (?1, ?2, ?3, ?4, ?5, ?5, ?6)",
            params![
                G::RULE_SET.name(),
                serde_json::to_string(start).expect("events serialize"),
                game.status().name(),
                serde_json::to_string(&game.players()).expect("names serialize"),
                t,
                game.edition()
            ],
        )?;
        let id = tx.last_insert_rowid();
        commit(&self.path, &self.identity, tx)?;
        Ok(id)
    }

    /// Durably appends entry `seq` (1, 2, …) of `game`, sent by `sender` (`table` or a
    /// seat's name; none for the sand running out); `status` is the game's after it
    /// ([`Listed::status`]).
    pub fn append<C: Serialize, E: Serialize>(
        &mut self,
        game: i64,
        seq: u64,
        entry: &Entry<C, E>,
        status: Status,
        sender: Option<&str>,
    ) -> Result<(), JournalError> {
        let mut done = self.append_all(&[Append::new(game, seq, entry, status, sender)])?;
        done.pop().expect("one result for one entry")
    }

    /// Durably appends entries of several games in one commit, one write to the disk
    /// (a group commit): each is checked as [`Journal::append`] checks it, and one refused
    /// leaves the others. The error is the commit's, when none could be written.
    pub fn append_all(
        &mut self,
        appends: &[Append],
    ) -> Result<Vec<Result<(), JournalError>>, JournalError> {
        let mut tx = write(&mut self.conn, &self.turns)?;
        let mut done = Vec::with_capacity(appends.len());
        for append in appends {
            let one = tx.savepoint()?;
            let written = append.write(&one);
            if written.is_ok() {
                one.commit()?;
            }
            done.push(written);
        }
        if done.iter().any(Result::is_ok) {
            commit(&self.path, &self.identity, tx)?;
        }
        Ok(done)
    }
}

/// An entry for [`Journal::append_all`], made ready before the journal is taken.
#[derive(Debug)]
pub struct Append {
    game: i64,
    seq: u64,
    entry: String,
    status: String,
    record: Option<String>,
    sender: Option<String>,
    timer: Option<TimerRecord>,
}

impl Append {
    /// Entry `seq` of `game`, as [`Journal::append`] takes it.
    pub fn new<C: Serialize, E: Serialize>(
        game: i64,
        seq: u64,
        entry: &Entry<C, E>,
        status: Status,
        sender: Option<&str>,
    ) -> Append {
        Append {
            game,
            seq,
            entry: serde_json::to_string(entry).expect("entries serialize"),
            status: status.name().to_owned(),
            record: None,
            sender: sender.map(str::to_owned),
            timer: None,
        }
    }

    /// With what the history keeps of the game after it ([`Listed::record`]): written
    /// when the entry ends the game, cleared when it takes the end back (an undo).
    pub fn with_record(self, record: Option<impl Serialize>) -> Append {
        Append {
            record: record.map(|r| serde_json::to_string(&r).expect("records serialize")),
            ..self
        }
    }

    /// With the sand timer as the entry leaves it (the phase started or stopped it), kept
    /// in the entry's own commit: no second write to wait for.
    pub fn with_timer(self, timer: Option<TimerRecord>) -> Append {
        Append { timer, ..self }
    }

    /// Writes it if it is its game's next entry.
    fn write(&self, conn: &Connection) -> Result<(), JournalError> {
        let game = self.game;
        // Cached: these run on every command, under the journal's lock.
        let last: Option<i64> = conn
            .prepare_cached("SELECT MAX(seq) FROM entries WHERE game = ?1")?
            .query_row([game], |r| r.get(0))?;
        if last.unwrap_or(0) as u64 + 1 != self.seq {
            return Err(JournalError::OutOfOrder {
                game,
                seq: self.seq,
            });
        }
        let updated = conn
            .prepare_cached(
                "UPDATE games SET status = ?2, updated_at = ?3, record = ?4 WHERE id = ?1",
            )?
            .execute(params![game, self.status, now(), self.record])?;
        if updated == 0 {
            return Err(JournalError::NoSuchGame(game));
        }
        conn.prepare_cached(
            "INSERT INTO entries (game, seq, format, entry, sender) VALUES (?1, ?2, ?3, ?4, ?5)",
        )?
        .execute(params![
            game,
            self.seq as i64,
            FORMAT,
            self.entry,
            self.sender
        ])?;
        if let Some(timer) = &self.timer {
            keep_timer(conn, game, timer)?;
        }
        Ok(())
    }
}

/// A write transaction, in its turn among the file's writers.
pub(crate) struct Writing<'a> {
    // Dropped first: a transaction left uncommitted is rolled back before the turn passes.
    tx: rusqlite::Transaction<'a>,
    _turn: Turn<'a>,
}

impl<'a> std::ops::Deref for Writing<'a> {
    type Target = rusqlite::Transaction<'a>;
    fn deref(&self) -> &Self::Target {
        &self.tx
    }
}

impl std::ops::DerefMut for Writing<'_> {
    fn deref_mut(&mut self) -> &mut Self::Target {
        &mut self.tx
    }
}

impl Writing<'_> {
    /// Commits without counting the commit nor rewriting the mark.
    pub(crate) fn commit_uncounted(self) -> Result<(), JournalError> {
        Ok(self.tx.commit()?)
    }
}

/// A write transaction that takes the lock at its start: each rule set's games have their
/// own connection to the file, and a transaction that read first and wrote later would fail
/// at once, unretried, if the other wrote in between.
pub(crate) fn write<'a>(
    conn: &'a mut Connection,
    turns: &'a Turns,
) -> Result<Writing<'a>, JournalError> {
    let turn = turns.take();
    Ok(Writing {
        tx: conn.transaction_with_behavior(TransactionBehavior::Immediate)?,
        _turn: turn,
    })
}

/// Commits `tx`, having counted the commit; then rewrites the journal's mark ([`check`]).
pub(crate) fn commit(
    path: &Path,
    identity: &str,
    writing: Writing<'_>,
) -> Result<(), JournalError> {
    // The turn, the struct's last field, passes only once the transaction is done with.
    let commits: i64 = writing
        .prepare_cached(
            "UPDATE identity SET commits = commits + 1 WHERE one = 1 RETURNING commits",
        )?
        .query_row([], |r| r.get(0))?;
    writing.tx.commit()?;
    check::write_mark(path, identity, commits as u64);
    Ok(())
}
