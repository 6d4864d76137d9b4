//! The history as one file, to keep as a back-up or take to another table: every finished
//! game that is not deleted, with its start and every entry as the journal holds them, so
//! a game imported elsewhere is the same game (its summary, its statistics, opened again).
//!
//! An import trusts nothing in the file: each game is replayed by its own rules before
//! anything is written ([`ready`]), each command decided again and its events compared, and
//! what the history keeps of it is worked out again. Only then is the file written, in
//! commits of [`IMPORT_CHUNK`] games, so that no other game waits long for the journal. A
//! game already in the journal (its origin: the journal it was first played in, and its
//! number there) is skipped, so importing a file twice adds nothing, and a file imported
//! again after a failure adds what is missing.
//!
//! A game's start and entries are kept as the file's own text ([`RawValue`]), read by the
//! rules one at a time: a file costs about its size in memory, not a tree of values.

use rusqlite::params;
use seance_timeline::{Entry, EntryOf, Listed, Roles, Timeline};
use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;

use crate::writes::{commit, write};
use crate::{FORMAT, Journal, JournalError, Shelf, now};

/// What the file says it is.
pub const FILE_FORMAT: &str = "seance-history";
/// The file version this build writes, and the newest it reads.
pub const FILE_VERSION: u32 = 1;

/// Games written in one commit by an import: a few tens of milliseconds of the journal.
pub const IMPORT_CHUNK: usize = 25;

#[derive(Debug, Serialize, Deserialize)]
pub struct HistoryFile {
    pub format: String,
    pub version: u32,
    /// Seconds since 1970.
    pub exported_at: i64,
    pub games: Vec<Exported>,
}

/// One finished game in the file.
#[derive(Debug, Serialize, Deserialize)]
pub struct Exported {
    /// `<journal identity>/<number>`: where it was first played.
    pub origin: String,
    pub ruleset: String,
    pub began: i64,
    pub ended: i64,
    #[serde(default)]
    pub archived: bool,
    /// Its start's events.
    pub start: Box<RawValue>,
    pub entries: Vec<ExportedEntry>,
}

#[derive(Debug, Serialize, Deserialize)]
pub struct ExportedEntry {
    pub format: i64,
    pub entry: Box<RawValue>,
    #[serde(default)]
    pub sender: Option<String>,
}

/// Why a file cannot be imported; nothing was written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Unfit {
    /// Not a Séance history file (not JSON, or not of this shape).
    NotAHistory,
    /// Written by a newer Séance: its file version, or an entry format, is past this one's.
    Newer { version: u32 },
    /// Game `game` (1 for the file's first) is of a rule set this build does not know.
    UnknownRuleset { game: usize },
    /// Game `game` does not replay by its rules, or has not ended.
    Damaged { game: usize },
}

/// A game of the file replayed by its rules, ready to be written.
pub struct Ready {
    exported: Exported,
    status: &'static str,
    players: String,
    edition: Option<&'static str>,
    record: String,
}

/// What an import did.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct Imported {
    pub added: usize,
    /// Games already in this journal.
    pub skipped: usize,
}

impl std::ops::AddAssign for Imported {
    fn add_assign(&mut self, chunk: Imported) {
        self.added += chunk.added;
        self.skipped += chunk.skipped;
    }
}

/// Reads a file's text as a history, refusing what is not one or is newer than this build.
pub fn read(text: &[u8]) -> Result<HistoryFile, Unfit> {
    // The version first: a newer file may have a shape this build cannot read.
    #[derive(Deserialize)]
    struct Head {
        format: String,
        version: u32,
    }
    let head: Head = serde_json::from_slice(text).map_err(|_| Unfit::NotAHistory)?;
    if head.format != FILE_FORMAT {
        return Err(Unfit::NotAHistory);
    }
    if head.version > FILE_VERSION {
        return Err(Unfit::Newer {
            version: head.version,
        });
    }
    let file: HistoryFile = serde_json::from_slice(text).map_err(|_| Unfit::NotAHistory)?;
    if file
        .games
        .iter()
        .flat_map(|g| &g.entries)
        .any(|e| e.format > FORMAT)
    {
        return Err(Unfit::Newer {
            version: head.version,
        });
    }
    Ok(file)
}

/// Game `game` (its place in the file, from 1) replayed by the rules of `G`: refused unless
/// its setup is one the rules would start, every entry follows and the game has ended.
pub fn ready<G: Listed + Roles>(exported: Exported, game: usize) -> Result<Ready, Unfit> {
    let damaged = Unfit::Damaged { game };
    let start: Vec<G::Event> =
        serde_json::from_str(exported.start.get()).map_err(|_| damaged.clone())?;
    // Its setup is held to the rules a new game's is (names, colours, the timer's range).
    G::valid_start(&start).map_err(|_| damaged.clone())?;
    let mut timeline = Timeline::<G>::resume(start, []).map_err(|_| damaged.clone())?;
    for e in &exported.entries {
        let entry: EntryOf<G> = serde_json::from_str(e.entry.get()).map_err(|_| damaged.clone())?;
        // A command's events are the rules' own: decided again, they must be the same; an
        // earlier build's rules decided some otherwise, so its entries need only fold.
        if let Entry::Command { command, .. } = &entry
            && e.format == FORMAT
        {
            let decided = timeline.decide(command.clone());
            if decided.as_ref() != Ok(&entry) {
                return Err(damaged);
            }
        }
        timeline
            .push_by(entry, e.sender.as_deref().and_then(|s| s.parse().ok()))
            .map_err(|_| damaged.clone())?;
    }
    let played = timeline.game();
    let record = played.record().ok_or(damaged)?;
    Ok(Ready {
        status: played.status().name(),
        players: serde_json::to_string(&played.players()).expect("names serialize"),
        edition: played.edition(),
        record: serde_json::to_string(&record).expect("records serialize"),
        exported,
    })
}

impl Journal {
    /// Every finished game not deleted, as the file keeps it.
    pub fn export(&self) -> Result<HistoryFile, JournalError> {
        let kept = self.history(&[Shelf::History, Shelf::Archived], u32::MAX, 0)?;
        let mut games = Vec::with_capacity(kept.len());
        let mut entries = self
            .conn
            .prepare("SELECT format, entry, sender FROM entries WHERE game = ?1 ORDER BY seq")?;
        for game in kept.into_iter().rev() {
            let (start, origin): (String, Option<String>) = self.conn.query_row(
                "SELECT start, origin FROM games WHERE id = ?1",
                [game.id],
                |r| Ok((r.get(0)?, r.get(1)?)),
            )?;
            // The journal's own text; were it not JSON, the game is told as damaged there.
            let json = |text: String| {
                RawValue::from_string(text)
                    .unwrap_or_else(|_| RawValue::from_string("null".into()).expect("null is JSON"))
            };
            let rows = entries.query_map([game.id], |r| {
                Ok(ExportedEntry {
                    format: r.get(0)?,
                    entry: json(r.get(1)?),
                    sender: r.get(2)?,
                })
            })?;
            games.push(Exported {
                origin: origin.unwrap_or_else(|| format!("{}/{}", self.identity, game.id)),
                ruleset: game.ruleset,
                began: game.began,
                ended: game.ended,
                archived: game.shelf == Shelf::Archived,
                start: json(start),
                entries: rows.collect::<Result<_, _>>()?,
            });
        }
        Ok(HistoryFile {
            format: FILE_FORMAT.into(),
            version: FILE_VERSION,
            exported_at: now(),
            games,
        })
    }

    /// Writes the games `ready` made in one commit, skipping those already here. An import
    /// calls it a chunk at a time ([`IMPORT_CHUNK`]), taking the journal for each.
    pub fn import(&mut self, games: Vec<Ready>) -> Result<Imported, JournalError> {
        let own = format!("{}/", self.identity);
        let tx = write(&mut self.conn, &self.turns)?;
        let mut done = Imported {
            added: 0,
            skipped: 0,
        };
        for Ready {
            exported,
            status,
            players,
            edition,
            record,
        } in games
        {
            let here: bool = exported.origin.starts_with(&own)
                || tx.query_row(
                    "SELECT EXISTS (SELECT 1 FROM games WHERE origin = ?1)",
                    [&exported.origin],
                    |r| r.get(0),
                )?;
            if here {
                done.skipped += 1;
                continue;
            }
            tx.execute(
                "INSERT INTO games (ruleset, start, status, players, created_at, updated_at, edition, record, shelf, origin)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)",
                params![
                    exported.ruleset,
                    exported.start.get(),
                    status,
                    players,
                    exported.began,
                    exported.ended,
                    edition,
                    record,
                    exported.archived.then_some("archived"),
                    exported.origin
                ],
            )?;
            let id = tx.last_insert_rowid();
            for (seq, e) in exported.entries.iter().enumerate() {
                tx.execute(
                    "INSERT INTO entries (game, seq, format, entry, sender) VALUES (?1, ?2, ?3, ?4, ?5)",
                    params![id, seq as i64 + 1, e.format, e.entry.get(), e.sender],
                )?;
            }
            done.added += 1;
        }
        commit(&self.path, &self.identity, tx)?;
        // Its pages moved into the journal's file now, a chunk at a time, without waiting
        // on readers: left in the log, they would all be moved by a later command's commit.
        self.conn
            .query_row("PRAGMA wal_checkpoint(PASSIVE)", [], |_| Ok(()))?;
        Ok(done)
    }
}
