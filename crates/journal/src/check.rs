//! The journal checked at start, before it is opened: without writing a byte to it (SQLite
//! checks a copy, made beside it in the data folder, with its write-ahead log), so what is
//! found is told exactly and the file stays as it was until the table chooses. A disk with
//! no room for the copy has the journal read where it lies, read-only, asking no more room
//! than SQLite's index of its log; one with not even that is told as full, never as damage.
//!
//! The journal's *mark*, a small file beside it rewritten after every commit, says how many
//! commits the journal had: a journal found with fewer lost its recent history (its `-wal`
//! went missing or was damaged), which SQLite alone would silently roll back.

use std::fmt;
use std::fs::OpenOptions;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use rusqlite::{Connection, ErrorCode, OpenFlags};

/// What the check found wrong, worded for the person at the table with what to do; none of
/// the advice hides or loses a game.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Trouble {
    /// The file is empty (0 bytes).
    Empty,
    /// The file is not a SQLite database.
    NotAJournal,
    /// Written by a newer Séance.
    Newer { schema: i64 },
    /// SQLite's own integrity check found damaged pages: the first few of its findings.
    DamagedPages { found: Vec<String> },
    /// The journal holds `found` commits but had `written`: its latest changes are gone.
    HistoryMissing { written: u64, found: u64 },
    /// The disk is full: even a check could not be made. `megabytes` is the room a check
    /// takes (a copy of the journal and its log), at least 1.
    DiskFull { megabytes: u64 },
    /// Séance may not write in the journal's folder (read-only, or another's): nothing of
    /// the journal is wrong.
    Unwritable { folder: PathBuf },
}

impl Trouble {
    /// The disk under the journal at `path` is full: told with the room to free.
    pub fn disk_full(path: &Path) -> Trouble {
        let size = |p: &Path| std::fs::metadata(p).map_or(0, |m| m.len());
        let bytes = size(path).saturating_add(size(&wal(path)));
        Trouble::DiskFull {
            megabytes: bytes.div_ceil(1024 * 1024).max(1),
        }
    }

    /// The folder of the journal at `path` may not be written.
    pub fn unwritable(path: &Path) -> Trouble {
        Trouble::Unwritable {
            folder: path.parent().unwrap_or(path).to_owned(),
        }
    }

    /// What a failure to read or copy the journal at `path` says: a folder that may not be
    /// written, a full disk, or a file that is not a journal.
    fn of_io(path: &Path, e: &io::Error) -> Trouble {
        match e.kind() {
            _ if crate::open::forbidden(e) => Trouble::unwritable(path),
            io::ErrorKind::StorageFull => Trouble::disk_full(path),
            _ => Trouble::NotAJournal,
        }
    }
}

/// The files of the journal at `path`.
pub(crate) fn wal(path: &Path) -> PathBuf {
    with_suffix(path, "-wal")
}

pub(crate) fn mark(path: &Path) -> PathBuf {
    with_suffix(path, ".mark")
}

pub(crate) fn with_suffix(path: &Path, suffix: &str) -> PathBuf {
    let mut name = path.as_os_str().to_owned();
    name.push(suffix);
    PathBuf::from(name)
}

/// Rewrites the mark after a commit. Not synced: a mark that lags the journal after a power
/// cut is only a check missed, never a false alarm.
pub(crate) fn write_mark(path: &Path, identity: &str, commits: u64) {
    // Written over in place at one length (the count padded): emptying the file first
    // would have ext4 flush it to the disk at close (auto_da_alloc), a write per commit.
    let line = format!("{identity} {commits:020}\n");
    let written = crate::open_private(&mark(path), OpenOptions::new().write(true).create(true))
        .and_then(|mut f| {
            f.write_all(line.as_bytes())?;
            // Only a mark of another length (an earlier build's) is cut to this one's.
            if f.metadata()?.len() > line.len() as u64 {
                f.set_len(line.len() as u64)?;
            }
            Ok(())
        });
    if let Err(e) = written {
        // The journal itself is committed; only the next check is weaker.
        eprintln!("seance: the journal's mark could not be written: {e}");
    }
}

fn read_mark(path: &Path) -> Option<(String, u64)> {
    let text = std::fs::read_to_string(mark(path)).ok()?;
    let (identity, commits) = text.trim().split_once(' ')?;
    Some((identity.to_owned(), commits.parse().ok()?))
}

/// Checks the journal at `path` without writing to it; SQLite's integrity check stops after
/// `budget` (a long check is cut short rather than keep the table waiting). A journal that
/// does not exist yet is sound.
pub fn check(path: &Path, budget: Duration) -> Result<(), Trouble> {
    let size = match std::fs::metadata(path) {
        Ok(meta) => meta.len(),
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(()),
        Err(e) => return Err(Trouble::of_io(path, &e)),
    };
    if size == 0 {
        return Err(Trouble::Empty);
    }
    let mut header = [0u8; 16];
    let read =
        std::fs::File::open(path).and_then(|mut f| io::Read::read_exact(&mut f, &mut header));
    if let Err(e) = &read
        && e.kind() != io::ErrorKind::UnexpectedEof
    {
        return Err(Trouble::of_io(path, e));
    }
    if read.is_err() || &header != b"SQLite format 3\0" {
        return Err(Trouble::NotAJournal);
    }
    match Copy::of(path) {
        Ok(copy) => match checked(path, &copy.db, Reading::Copy, budget) {
            // The copy fit, but not SQLite's index of it: the copy's room is freed, and the
            // journal read where it lies.
            Err(Trouble::DiskFull { .. }) => {
                drop(copy);
                in_place(path, budget)
            }
            found => found,
        },
        Err(e) if e.kind() == io::ErrorKind::StorageFull => in_place(path, budget),
        Err(e) => Err(Trouble::of_io(path, &e)),
    }
}

/// The check made on the journal where it lies, read-only, on a disk with no room for a
/// copy. SQLite then keeps its log and the log's index beside it (`-wal`, `-shm`: some 32
/// KiB, all the room this asks), taken away again where they were not there before.
fn in_place(path: &Path, budget: Duration) -> Result<(), Trouble> {
    let beside = ["-wal", "-shm"].map(|suffix| with_suffix(path, suffix));
    let had = beside.each_ref().map(|file| file.exists());
    let found = checked(path, path, Reading::InPlace, budget);
    for (file, had) in beside.iter().zip(had) {
        if !had {
            let _ = std::fs::remove_file(file);
        }
    }
    found
}

/// Where the check reads the journal.
#[derive(Debug, Clone, Copy)]
enum Reading {
    /// A copy beside it, which SQLite may write to.
    Copy,
    /// The journal itself, read-only, on a disk with no room for a copy.
    InPlace,
}

impl Reading {
    fn flags(self) -> OpenFlags {
        match self {
            Reading::Copy => OpenFlags::SQLITE_OPEN_READ_WRITE,
            Reading::InPlace => OpenFlags::SQLITE_OPEN_READ_ONLY,
        }
    }

    /// What a failure of SQLite's says: SQLite failing to make or grow its log's index, or
    /// to write beside the journal (or its copy), is the disk being full: reading writes
    /// nothing else (any other I/O error is told as it is).
    fn trouble(self, path: &Path, e: &rusqlite::Error) -> Trouble {
        use rusqlite::ffi;
        let no_room = [
            ffi::SQLITE_IOERR_SHMOPEN,
            ffi::SQLITE_IOERR_SHMSIZE,
            ffi::SQLITE_IOERR_SHMMAP,
            ffi::SQLITE_IOERR_WRITE,
            ffi::SQLITE_IOERR_TRUNCATE,
        ];
        match e.sqlite_error() {
            Some(error) if no_room.contains(&error.extended_code) => Trouble::disk_full(path),
            _ => sql_trouble(path, e),
        }
    }
}

/// The check of the journal at `path`, made on `db` (a copy of it, or itself).
fn checked(path: &Path, db: &Path, reading: Reading, budget: Duration) -> Result<(), Trouble> {
    let trouble = |e: rusqlite::Error| reading.trouble(path, &e);
    let mut conn = Connection::open_with_flags(db, reading.flags()).map_err(trouble)?;
    let schema: i64 = conn
        .query_row("PRAGMA user_version", [], |r| r.get(0))
        .map_err(trouble)?;
    if schema > crate::SCHEMA {
        return Err(Trouble::Newer { schema });
    }
    let found = integrity(&mut conn, budget, |e| reading.trouble(path, e))?;
    if !found.is_empty() {
        return Err(Trouble::DamagedPages { found });
    }
    if let Some((identity, written)) = read_mark(path) {
        let kept = conn.query_row("SELECT id, commits FROM identity WHERE one = 1", [], |r| {
            Ok((r.get::<_, String>(0)?, r.get::<_, i64>(1)?))
        });
        let found = match kept {
            Ok((id, commits)) if id == identity => Some(commits as u64),
            // Another journal, or one that cannot tell (a copy from before commits were
            // counted): no alarm.
            Ok(_) => None,
            // No tables at all where the mark names a journal: its log held everything,
            // even its first commit.
            Err(_) => conn
                .query_row("SELECT COUNT(*) FROM sqlite_master", [], |r| {
                    r.get::<_, i64>(0)
                })
                .ok()
                .filter(|&tables| tables == 0)
                .map(|_| 0),
        };
        if let Some(found) = found.filter(|&found| found < written) {
            return Err(Trouble::HistoryMissing { written, found });
        }
    }
    Ok(())
}

/// SQLite's integrity check on the copy, cut short after `budget`: its first findings.
fn integrity(
    conn: &mut Connection,
    budget: Duration,
    trouble: impl Fn(&rusqlite::Error) -> Trouble,
) -> Result<Vec<String>, Trouble> {
    let deadline = Instant::now() + budget;
    conn.progress_handler(10_000, Some(move || Instant::now() > deadline))
        .map_err(|e| trouble(&e))?;
    let mut found = Vec::new();
    let run = conn
        .prepare("PRAGMA integrity_check(8)")
        .and_then(|mut stmt| {
            let mut rows = stmt.query([])?;
            while let Some(row) = rows.next()? {
                let line: String = row.get(0)?;
                if line != "ok" {
                    found.push(line);
                }
            }
            Ok(())
        });
    match run {
        Ok(()) => Ok(found),
        Err(e) if e.sqlite_error_code() == Some(ErrorCode::OperationInterrupted) => {
            eprintln!(
                "seance: the journal's check took over {} s and was cut short; nothing wrong was found meanwhile",
                budget.as_secs()
            );
            Ok(found)
        }
        Err(e) => Err(trouble(&e)),
    }
}

fn sql_trouble(path: &Path, e: &rusqlite::Error) -> Trouble {
    match e.sqlite_error_code() {
        Some(ErrorCode::DiskFull) => Trouble::disk_full(path),
        Some(ErrorCode::ReadOnly) => Trouble::unwritable(path),
        Some(ErrorCode::NotADatabase) => Trouble::NotAJournal,
        _ => Trouble::DamagedPages {
            found: vec![e.to_string()],
        },
    }
}

/// The journal and its write-ahead log copied beside it, removed when dropped.
pub(crate) struct Copy {
    dir: PathBuf,
    pub(crate) db: PathBuf,
}

impl Copy {
    pub(crate) fn of(path: &Path) -> io::Result<Copy> {
        // One table per data folder: a copy left by a check that was killed is stale.
        if let (Some(folder), Some(name)) = (path.parent(), path.file_name()) {
            let stale = format!("{}.check-", name.to_string_lossy());
            for entry in std::fs::read_dir(folder)?.filter_map(Result::ok) {
                if entry.file_name().to_string_lossy().starts_with(&stale) {
                    let _ = std::fs::remove_dir_all(entry.path());
                }
            }
        }
        let dir = with_suffix(path, &format!(".check-{}", std::process::id()));
        std::fs::create_dir_all(&dir)?;
        let copy = Copy {
            db: dir.join("journal"),
            dir,
        };
        std::fs::copy(path, &copy.db)?;
        match std::fs::copy(wal(path), wal(&copy.db)) {
            Err(e) if e.kind() != io::ErrorKind::NotFound => return Err(e),
            _ => {}
        }
        Ok(copy)
    }
}

impl Drop for Copy {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

impl fmt::Display for Trouble {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // Every case ends the same way: the file was left as it was.
        let untouched = "Nothing was written to it.";
        let elsewhere = "To play meanwhile, start Séance with another data folder (--data-dir): every game stays in this one.";
        match self {
            Trouble::Empty => write!(
                f,
                "the journal is empty (0 bytes), as after a copy that failed. {untouched} If you have a copy of the data folder, put its seance.sqlite3 back. {elsewhere}"
            ),
            Trouble::NotAJournal => write!(
                f,
                "the journal is not a SQLite database. {untouched} If you have a copy of the data folder, put its seance.sqlite3 back. {elsewhere}"
            ),
            Trouble::Newer { schema } => write!(
                f,
                "the journal was written by a newer Séance (journal version {schema}; this one reads {}). {untouched} Update Séance to go on with it.",
                crate::SCHEMA
            ),
            Trouble::DamagedPages { found } => write!(
                f,
                "the journal has damaged pages (SQLite's check found: {}). {untouched} Keep a copy of the data folder as it is. {elsewhere}",
                found.join("; ")
            ),
            Trouble::HistoryMissing { written, found } => write!(
                f,
                "the journal's latest changes are missing: it holds {found} commits, but {written} were written. Its write-ahead log (seance.sqlite3-wal) is missing or damaged. {untouched} If the data folder was copied or restored, copy seance.sqlite3-wal beside it from the same place. {elsewhere}"
            ),
            Trouble::DiskFull { megabytes } => write!(
                f,
                "the disk is full: the journal could not even be checked. {untouched} Free at least {megabytes} MB on the disk and start Séance again; nothing is lost."
            ),
            Trouble::Unwritable { folder } => write!(
                f,
                "Séance may not write in its data folder ({}): it is read-only, or another user's. {untouched} Nothing in it is damaged: make the folder writable by the user who starts Séance, or start Séance with another data folder (--data-dir), and start it again.",
                folder.display()
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_mark_is_written_over_in_place_and_reads_back_whatever_was_there() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("seance.sqlite3");
        // An earlier build's mark, shorter; then one longer than any this build writes.
        for before in ["a1b2 7\n", &format!("{} 99\n", "x".repeat(80))] {
            std::fs::write(mark(&path), before).unwrap();
            write_mark(&path, "a1b2", 8);
            assert_eq!(read_mark(&path), Some(("a1b2".to_owned(), 8)));
            write_mark(&path, "a1b2", 12_345);
            assert_eq!(read_mark(&path), Some(("a1b2".to_owned(), 12_345)));
        }
    }
}
