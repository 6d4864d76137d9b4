//! The journal: each game's start and every accepted command (and undo and redo) in a
//! SQLite file, committed to disk before the command is acknowledged, so a crash, a
//! closed lid or a dead battery resumes the game exactly.
//!
//! A damaged row, or one written by a newer Séance, is reported with what it holds; the
//! game is recovered up to it, and the rows from it on are kept (moved aside only when
//! the table chooses to go on), never dropped or overwritten. Finished games stay as
//! history.

mod check;
mod export;
mod recover;
mod turns;

pub use check::{Trouble, check};
pub use export::{
    Exported, ExportedEntry, FILE_FORMAT, FILE_VERSION, HistoryFile, IMPORT_CHUNK, Imported, Ready,
    Unfit, read, ready,
};
pub use recover::{Recovered, recover};

use std::fmt;
use std::fs::{File, OpenOptions};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{SystemTime, UNIX_EPOCH};

use rusqlite::{Connection, OptionalExtension, TransactionBehavior, params};
use seance_timeline::{Entry, Listed, Roles, RuleSet, Status, Timeline};
use serde::Serialize;
use turns::{Turn, Turns};

/// The database layout this build writes (`PRAGMA user_version`). 2 added `edition`, 3
/// each entry's `sender`.
pub const SCHEMA: i64 = 3;
/// The entry format this build writes and reads. It goes up whenever the rules decide a
/// command's events otherwise, so that an import holds only this build's entries to being
/// decided again the same (an earlier entry's events are folded as they were written): 2
/// since a Mystery Rummy round keeps its vote's caller and no tokens come back where there
/// are none.
pub const FORMAT: i64 = 2;

const CREATE: &str = "
CREATE TABLE IF NOT EXISTS games (
    id          INTEGER PRIMARY KEY,
    ruleset     TEXT    NOT NULL,
    start       TEXT    NOT NULL,
    status      TEXT    NOT NULL,
    players     TEXT    NOT NULL,
    created_at  INTEGER NOT NULL,
    updated_at  INTEGER NOT NULL,
    edition     TEXT
);
CREATE TABLE IF NOT EXISTS entries (
    game    INTEGER NOT NULL REFERENCES games(id),
    seq     INTEGER NOT NULL,
    format  INTEGER NOT NULL,
    entry   TEXT    NOT NULL,
    sender  TEXT,
    PRIMARY KEY (game, seq)
);
CREATE TABLE IF NOT EXISTS identity (
    one     INTEGER PRIMARY KEY CHECK (one = 1),
    id      TEXT    NOT NULL,
    commits INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX IF NOT EXISTS games_latest ON games (updated_at DESC, id DESC);
CREATE TABLE IF NOT EXISTS timers (
    game        INTEGER PRIMARY KEY REFERENCES games(id),
    duration_ms INTEGER NOT NULL,
    left_ms     INTEGER NOT NULL,
    running     INTEGER NOT NULL,
    at          INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS set_aside (
    game    INTEGER NOT NULL,
    seq     INTEGER NOT NULL,
    format  INTEGER NOT NULL,
    entry   TEXT    NOT NULL,
    why     TEXT    NOT NULL,
    at      INTEGER NOT NULL
);";

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
            JournalError::Sql(e) => write!(f, "the journal could not be written or read: {e}"),
        }
    }
}

impl std::error::Error for JournalError {}

impl From<rusqlite::Error> for JournalError {
    fn from(e: rusqlite::Error) -> Self {
        match e.sqlite_error_code() {
            Some(rusqlite::ErrorCode::DiskFull) => JournalError::DiskFull,
            _ => JournalError::Sql(e),
        }
    }
}

/// A game as the home screen lists it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameRecord {
    pub id: i64,
    pub ruleset: String,
    pub status: Standing,
    pub players: Vec<String>,
    /// The rule set's edition, where it has more than one (Mysterium: `classic`, `new`).
    pub edition: Option<String>,
    pub created_at: i64,
    pub updated_at: i64,
}

/// Which games a list holds: a page of them, the latest first, so a journal's whole history
/// is never read at once.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Listing {
    pub state: Option<GameState>,
    /// Only games of this edition (`new`, `classic`).
    pub edition: Option<String>,
    pub limit: u32,
    pub offset: u32,
}

/// A game in play, one that has ended (won, lost, or a scorepad over), or one put away
/// unfinished.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GameState {
    Playing,
    Finished,
    Archived,
}

/// Where a game stands in the lists, as the journal names it (`playing`, `won`, `lost`,
/// `over`, `archived`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Standing {
    /// As its rules say ([`Status`]): in play, won, lost, or over (a game with a winner
    /// among its players).
    Is(Status),
    /// Put away unfinished: out of the lists of games in play until it is brought back, or
    /// played again.
    Archived,
    /// A newer build's, listed as it is.
    Newer(String),
}

impl Standing {
    /// Its name in the journal and the API.
    pub fn name(&self) -> &str {
        match self {
            Standing::Is(status) => status.name(),
            Standing::Archived => "archived",
            Standing::Newer(name) => name,
        }
    }

    /// The standing the journal names `name`.
    fn named(name: String) -> Standing {
        match Status::named(&name) {
            Some(status) => Standing::Is(status),
            None if name == Standing::Archived.name() => Standing::Archived,
            None => Standing::Newer(name),
        }
    }
}

impl Default for Listing {
    fn default() -> Self {
        Listing {
            state: None,
            edition: None,
            limit: 100,
            offset: 0,
        }
    }
}

/// Where a finished game is kept: in the history, archived out of it (still counted in
/// the statistics), or deleted (out of every list and count, kept in the journal so the
/// deletion can be undone).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Shelf {
    History,
    Archived,
    Deleted,
}

impl Shelf {
    fn column(self) -> Option<&'static str> {
        match self {
            Shelf::History => None,
            Shelf::Archived => Some("archived"),
            Shelf::Deleted => Some("deleted"),
        }
    }

    fn of(column: Option<String>) -> Shelf {
        match column.as_deref() {
            Some("archived") => Shelf::Archived,
            Some("deleted") => Shelf::Deleted,
            _ => Shelf::History,
        }
    }
}

/// A finished game as the history lists it: when it began and ended (the journal's clock),
/// its shelf, and its rule set's record of it ([`Listed::record`], as JSON).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Ended {
    pub id: i64,
    pub ruleset: String,
    pub began: i64,
    pub ended: i64,
    pub shelf: Shelf,
    pub record: String,
}

/// Where a stored game stopped making sense, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Damage {
    pub seq: u64,
    pub why: String,
}

/// A game's sand timer as last written: its length, the time it had left, and whether it
/// was running then (while it runs, the time left is written every few seconds).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TimerRecord {
    pub duration_ms: u64,
    pub left_ms: u64,
    pub running: bool,
}

/// A game read back: its timeline up to any damage, the damage if there is some, and its
/// sand timer if one was written.
pub struct Loaded<G: Roles> {
    pub timeline: Timeline<G>,
    pub damage: Option<Damage>,
    pub timer: Option<TimerRecord>,
}

pub struct Journal {
    conn: Connection,
    /// The file, whose mark is rewritten after each commit ([`check`]).
    path: PathBuf,
    identity: String,
    /// Shared with every connection opened [`Journal::beside`] this one.
    turns: Arc<Turns>,
}

fn now() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_secs() as i64)
        .unwrap_or(0)
}

/// Opens `path` as `options` say, readable and writable by its owner alone: a table's data
/// (its key, its seats, its games) is nobody else's on a shared computer. A file made new
/// is made so; one an earlier build left readable by all is made so too.
pub fn open_private(path: &Path, options: &mut OpenOptions) -> std::io::Result<File> {
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(options, 0o600);
    let file = options.open(path)?;
    #[cfg(unix)]
    file.set_permissions(std::os::unix::fs::PermissionsExt::from_mode(0o600))?;
    Ok(file)
}

/// Creates (or empties) `path`, its owner's alone.
pub fn create_private(path: &Path) -> std::io::Result<File> {
    open_private(
        path,
        OpenOptions::new().write(true).create(true).truncate(true),
    )
}

/// Makes `path` its owner's alone if it is there (a file an earlier build made readable
/// by all). As far as the system lets: a file it may not change still serves.
pub fn keep_private(path: &Path) {
    #[cfg(unix)]
    let _ = std::fs::set_permissions(path, std::os::unix::fs::PermissionsExt::from_mode(0o600));
    #[cfg(not(unix))]
    let _ = path;
}

/// Makes `dir` (and its parents) if it is not there yet, its owner's alone from the first
/// instant. A folder that was there (one a person chose) keeps its permissions.
pub fn create_private_dir(dir: &Path) -> std::io::Result<()> {
    let mut builder = std::fs::DirBuilder::new();
    builder.recursive(true);
    #[cfg(unix)]
    std::os::unix::fs::DirBuilderExt::mode(&mut builder, 0o700);
    builder.create(dir)
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

    /// Opens (or creates) the journal at `path`.
    pub fn open(path: &Path) -> Result<Journal, JournalError> {
        let open_err = |e: rusqlite::Error| match JournalError::from(e) {
            JournalError::Sql(e) => JournalError::Open {
                path: path.to_owned(),
                why: e.to_string(),
            },
            other => other,
        };
        // Its owner's alone, new or from an earlier build; SQLite gives its log the same
        // permissions. (A journal in memory has no file.)
        if path != Path::new(":memory:") {
            for suffix in ["", "-wal", "-shm", ".mark"] {
                keep_private(&check::with_suffix(path, suffix));
            }
            match open_private(path, OpenOptions::new().write(true).create_new(true)) {
                Err(e) if e.kind() != std::io::ErrorKind::AlreadyExists => {
                    return Err(JournalError::Open {
                        path: path.to_owned(),
                        why: e.to_string(),
                    });
                }
                _ => {}
            }
        }
        let conn = Connection::open(path).map_err(open_err)?;
        let schema: i64 = conn
            .query_row("PRAGMA user_version", [], |r| r.get(0))
            .map_err(open_err)?;
        if schema > SCHEMA {
            return Err(JournalError::Newer {
                path: path.to_owned(),
                schema,
            });
        }
        // WAL with FULL sync: a commit is on disk when it returns.
        conn.pragma_update(None, "journal_mode", "WAL")
            .map_err(open_err)?;
        conn.pragma_update(None, "synchronous", "FULL")
            .map_err(open_err)?;
        conn.pragma_update(None, "foreign_keys", "ON")
            .map_err(open_err)?;
        conn.execute_batch(CREATE).map_err(open_err)?;
        let has = |table: &str, column: &str| {
            conn.query_row(
                "SELECT COUNT(*) FROM pragma_table_info(?1) WHERE name = ?2",
                [table, column],
                |r| r.get::<_, i64>(0),
            )
            .map(|n| n > 0)
        };
        if !has("games", "edition").map_err(open_err)? {
            // A journal of schema 1: its games were all of editions that need no label.
            conn.execute_batch("ALTER TABLE games ADD COLUMN edition TEXT")
                .map_err(open_err)?;
        }
        if !has("entries", "sender").map_err(open_err)? {
            // Older entries say nothing of who sent them.
            conn.execute_batch("ALTER TABLE entries ADD COLUMN sender TEXT")
                .map_err(open_err)?;
        }
        // What the history keeps of a finished game, which shelf it is on, and where an
        // imported game came from (older builds read past all three).
        for (column, kind) in [("record", "TEXT"), ("shelf", "TEXT"), ("origin", "TEXT")] {
            if !has("games", column).map_err(open_err)? {
                conn.execute_batch(&format!("ALTER TABLE games ADD COLUMN {column} {kind}"))
                    .map_err(open_err)?;
            }
        }
        if !has("identity", "commits").map_err(open_err)? {
            // Counted from now on; older builds write past it (the default).
            conn.execute_batch(
                "ALTER TABLE identity ADD COLUMN commits INTEGER NOT NULL DEFAULT 0",
            )
            .map_err(open_err)?;
        }
        // Made once, when the file is new (or older than identities): a table any build
        // reads past, so the schema stays the same.
        conn.execute(
            "INSERT OR IGNORE INTO identity (one, id) VALUES (1, lower(hex(randomblob(16))))",
            [],
        )
        .map_err(open_err)?;
        conn.pragma_update(None, "user_version", SCHEMA)
            .map_err(open_err)?;
        let identity = conn
            .query_row("SELECT id FROM identity WHERE one = 1", [], |r| r.get(0))
            .map_err(open_err)?;
        Ok(Journal {
            conn,
            path: path.to_owned(),
            identity,
            turns: Arc::default(),
        })
    }

    /// Another connection to this journal's file, writing in turns with this one (and with
    /// every other opened beside it): one connection per rule set's games, one for the
    /// history, none kept waiting behind another's run of writes.
    pub fn beside(&self) -> Result<Journal, JournalError> {
        // Opening writes (the schema made sure of, the identity): in turn, like any write.
        let _turn = self.turns.take();
        Ok(Journal {
            turns: self.turns.clone(),
            ..Journal::open(&self.path)?
        })
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

    /// The rule set game `game` is kept under; a name this build knows no rule set by (a
    /// newer build's) is no game it can serve.
    pub fn ruleset(&self, game: i64) -> Result<RuleSet, JournalError> {
        let name: String = self
            .conn
            .query_row("SELECT ruleset FROM games WHERE id = ?1", [game], |r| {
                r.get(0)
            })
            .optional()?
            .ok_or(JournalError::NoSuchGame(game))?;
        name.parse().map_err(|_| JournalError::NoSuchGame(game))
    }

    /// When game `game` began and when it was last played, in seconds since 1970.
    pub fn played(&self, game: i64) -> Result<(i64, i64), JournalError> {
        self.conn
            .query_row(
                "SELECT created_at, updated_at FROM games WHERE id = ?1",
                [game],
                |r| Ok((r.get(0)?, r.get(1)?)),
            )
            .optional()?
            .ok_or(JournalError::NoSuchGame(game))
    }

    /// Sets game `game`'s standing in the lists (archived, or its own status to bring it
    /// back) and leaves when it was last played as it was.
    pub fn set_status(&mut self, game: i64, standing: &Standing) -> Result<(), JournalError> {
        let tx = write(&mut self.conn, &self.turns)?;
        let updated = tx.execute(
            "UPDATE games SET status = ?2 WHERE id = ?1",
            params![game, standing.name()],
        )?;
        if updated == 0 {
            return Err(JournalError::NoSuchGame(game));
        }
        commit(&self.path, &self.identity, tx)
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

    /// The games `listing` asks for, the latest first.
    pub fn games(&self, listing: &Listing) -> Result<Vec<GameRecord>, JournalError> {
        let mut stmt = self.conn.prepare(
            "SELECT id, ruleset, status, players, created_at, updated_at, edition FROM games
             WHERE (?1 IS NULL OR CASE status WHEN 'playing' THEN 'playing' WHEN 'archived' THEN 'archived'
                                             ELSE 'finished' END = ?1)
               AND (?2 IS NULL OR edition = ?2)
               AND shelf IS NOT 'deleted'
             ORDER BY updated_at DESC, id DESC LIMIT ?3 OFFSET ?4",
        )?;
        let state = listing.state.map(|s| match s {
            GameState::Playing => "playing",
            GameState::Finished => "finished",
            GameState::Archived => Standing::Archived.name(),
        });
        let rows = stmt.query_map(
            params![state, listing.edition, listing.limit, listing.offset],
            |r| {
                let players: String = r.get(3)?;
                Ok(GameRecord {
                    id: r.get(0)?,
                    ruleset: r.get(1)?,
                    status: Standing::named(r.get(2)?),
                    players: serde_json::from_str(&players).unwrap_or_default(),
                    edition: r.get(6)?,
                    created_at: r.get(4)?,
                    updated_at: r.get(5)?,
                })
            },
        )?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    /// The finished games on `shelves`, the latest first, `limit` from `offset` on.
    pub fn history(
        &self,
        shelves: &[Shelf],
        limit: u32,
        offset: u32,
    ) -> Result<Vec<Ended>, JournalError> {
        let wanted: Vec<&str> = shelves
            .iter()
            .map(|s| s.column().unwrap_or("history"))
            .collect();
        let mut stmt = self.conn.prepare(
            "SELECT id, ruleset, created_at, updated_at, shelf, record FROM games
             WHERE record IS NOT NULL AND status <> 'playing'
               AND coalesce(shelf, 'history') IN (SELECT value FROM json_each(?1))
             ORDER BY updated_at DESC, id DESC LIMIT ?2 OFFSET ?3",
        )?;
        let rows = stmt.query_map(
            params![
                serde_json::to_string(&wanted).expect("names"),
                limit,
                offset
            ],
            |r| {
                Ok(Ended {
                    id: r.get(0)?,
                    ruleset: r.get(1)?,
                    began: r.get(2)?,
                    ended: r.get(3)?,
                    shelf: Shelf::of(r.get(4)?),
                    record: r.get(5)?,
                })
            },
        )?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    /// Puts finished game `game` on `shelf`.
    pub fn shelve(&mut self, game: i64, shelf: Shelf) -> Result<(), JournalError> {
        let tx = write(&mut self.conn, &self.turns)?;
        let updated = tx.execute(
            "UPDATE games SET shelf = ?2 WHERE id = ?1 AND record IS NOT NULL",
            params![game, shelf.column()],
        )?;
        if updated == 0 {
            return Err(JournalError::NoSuchGame(game));
        }
        commit(&self.path, &self.identity, tx)
    }

    /// Finished games of `rule_set` with no record yet (ended before the history kept one).
    pub fn unrecorded(&self, rule_set: RuleSet) -> Result<Vec<i64>, JournalError> {
        let mut stmt = self.conn.prepare(
            "SELECT id FROM games WHERE ruleset = ?1 AND record IS NULL
               AND status NOT IN ('playing', 'archived') AND shelf IS NOT 'deleted'",
        )?;
        let rows = stmt.query_map([rule_set.name()], |r| r.get(0))?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    /// Writes the record of finished game `game`, one that ended before records were kept.
    pub fn set_record(&mut self, game: i64, record: impl Serialize) -> Result<(), JournalError> {
        let tx = write(&mut self.conn, &self.turns)?;
        tx.execute(
            "UPDATE games SET record = ?2 WHERE id = ?1",
            params![
                game,
                serde_json::to_string(&record).expect("records serialize")
            ],
        )?;
        commit(&self.path, &self.identity, tx)
    }

    /// Keeps game `game`'s sand timer as it is now (durably, like an entry).
    pub fn save_timer(&mut self, game: i64, timer: &TimerRecord) -> Result<(), JournalError> {
        let writing = write(&mut self.conn, &self.turns)?;
        keep_timer(&writing, game, timer)?;
        // Not counted among the commits the mark checks: a timer's time left is no history.
        Ok(writing.tx.commit()?)
    }

    fn timer(&self, game: i64) -> Result<Option<TimerRecord>, JournalError> {
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

/// A write transaction that takes the lock at its start: each rule set's games have their
/// own connection to the file, and a transaction that read first and wrote later would fail
/// at once, unretried, if the other wrote in between.
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

/// Game `game`'s sand timer is `timer` from now on.
fn keep_timer(conn: &Connection, game: i64, timer: &TimerRecord) -> Result<(), JournalError> {
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

/// A write transaction, in its turn among the file's writers.
struct Writing<'a> {
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

fn write<'a>(conn: &'a mut Connection, turns: &'a Turns) -> Result<Writing<'a>, JournalError> {
    let turn = turns.take();
    Ok(Writing {
        tx: conn.transaction_with_behavior(TransactionBehavior::Immediate)?,
        _turn: turn,
    })
}

/// Commits `tx`, having counted the commit; then rewrites the journal's mark ([`check`]).
fn commit(path: &Path, identity: &str, writing: Writing<'_>) -> Result<(), JournalError> {
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
