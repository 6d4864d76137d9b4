//! Opening the journal: its file made its owner's alone, its tables made or brought up to
//! this build's layout, its identity; and more connections to the same file, taking turns.

use std::fs::{File, OpenOptions};
use std::path::Path;
use std::sync::Arc;

use rusqlite::{Connection, ErrorCode};

use crate::check;
use crate::{Journal, JournalError};

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
    /// Opens (or creates) the journal at `path`.
    pub fn open(path: &Path) -> Result<Journal, JournalError> {
        let folder = path.parent().unwrap_or(path);
        let unwritable = || JournalError::Unwritable {
            folder: folder.to_owned(),
        };
        // SQLite says only that it could not open or write: the folder, tried, says why.
        let open_err = |e: rusqlite::Error| match JournalError::from(e) {
            JournalError::Sql(e)
                if matches!(
                    e.sqlite_error_code(),
                    Some(ErrorCode::ReadOnly | ErrorCode::PermissionDenied | ErrorCode::CannotOpen)
                ) && forbids(folder) =>
            {
                unwritable()
            }
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
                Err(e) if e.kind() == std::io::ErrorKind::StorageFull => {
                    return Err(JournalError::DiskFull);
                }
                Err(e) if forbidden(&e) => return Err(unwritable()),
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
        let identity = upgrade(&conn).map_err(open_err)?;
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
}

/// Whether `e` is the system refusing a write: a read-only disk, or another's folder.
pub(crate) fn forbidden(e: &std::io::Error) -> bool {
    matches!(
        e.kind(),
        std::io::ErrorKind::PermissionDenied | std::io::ErrorKind::ReadOnlyFilesystem
    )
}

/// Whether the system refuses a new file in `folder` (one made and taken away again).
fn forbids(folder: &Path) -> bool {
    let probe = folder.join(format!(".seance-write-{}", std::process::id()));
    match File::create(&probe) {
        Ok(_) => {
            let _ = std::fs::remove_file(&probe);
            false
        }
        Err(e) => forbidden(&e),
    }
}

/// Makes the file at `conn` this build's journal, whatever build wrote it last: WAL with
/// FULL sync (a commit is on disk when it returns), its tables, the columns later builds
/// added; returns its identity.
fn upgrade(conn: &Connection) -> rusqlite::Result<String> {
    conn.pragma_update(None, "journal_mode", "WAL")?;
    conn.pragma_update(None, "synchronous", "FULL")?;
    conn.pragma_update(None, "foreign_keys", "ON")?;
    conn.execute_batch(CREATE)?;
    let has = |table: &str, column: &str| {
        conn.query_row(
            "SELECT COUNT(*) FROM pragma_table_info(?1) WHERE name = ?2",
            [table, column],
            |r| r.get::<_, i64>(0),
        )
        .map(|n| n > 0)
    };
    // A journal of schema 1: its games were all of editions that need no label.
    // Older entries say nothing of who sent them. What the history keeps of a finished
    // game, which shelf it is on, and where an imported game came from: older builds read
    // past all three. Commits are counted from now on; older builds write past the count.
    let added = [
        ("games", "edition", "TEXT"),
        ("entries", "sender", "TEXT"),
        ("games", "record", "TEXT"),
        ("games", "shelf", "TEXT"),
        ("games", "origin", "TEXT"),
        ("identity", "commits", "INTEGER NOT NULL DEFAULT 0"),
    ];
    for (table, column, kind) in added {
        if !has(table, column)? {
            conn.execute_batch(&format!("ALTER TABLE {table} ADD COLUMN {column} {kind}"))?;
        }
    }
    // Made once, when the file is new (or older than identities): a table any build
    // reads past, so the schema stays the same.
    conn.execute(
        "INSERT OR IGNORE INTO identity (one, id) VALUES (1, lower(hex(randomblob(16))))",
        [],
    )?;
    conn.pragma_update(None, "user_version", SCHEMA)?;
    conn.query_row("SELECT id FROM identity WHERE one = 1", [], |r| r.get(0))
}
