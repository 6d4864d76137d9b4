//! What the table may choose for a journal the check found in trouble: every game that can
//! still be read is copied, row by row, into a new journal that takes the old one's place
//! (with its sand timers and the entries it had set aside); the old files are kept beside
//! it, byte for byte, so nothing is hidden or lost (a `-wal` that turns up later can still
//! be put back with them). The new journal has an identity of its own: a game lost with the
//! old one may have its number taken by a new game, so no phone keeps an old seat.

use std::path::{Path, PathBuf};

use rusqlite::{Connection, Transaction, params};

use crate::check::{Copy, mark, wal, with_suffix as with_name};
use crate::{Journal, JournalError};

/// What a recovery did: how many games and entries came through, how many rows could not
/// be read, and where the old files were kept.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Recovered {
    pub games: usize,
    pub entries: usize,
    pub unreadable: usize,
    pub kept_as: PathBuf,
}

/// Recovers the journal at `path` into a new one at the same place; `stamp` names where the
/// old files are kept (`seance.sqlite3.damaged-<stamp>`).
pub fn recover(path: &Path, stamp: &str) -> Result<Recovered, JournalError> {
    let open = |e: std::io::Error| JournalError::Open {
        path: path.to_owned(),
        why: e.to_string(),
    };
    let kept_as = with_name(path, &format!(".damaged-{stamp}"));
    if kept_as.exists() {
        // Never written over: that would lose the only copy of a damaged journal.
        return Err(open(std::io::Error::new(
            std::io::ErrorKind::AlreadyExists,
            format!("{} already exists", kept_as.display()),
        )));
    }
    let fresh = with_name(path, ".recovering");
    let _ = std::fs::remove_file(&fresh);
    let _ = std::fs::remove_file(wal(&fresh));
    // The new journal, made by this build, so its tables are the ones it reads.
    drop(Journal::open(&fresh)?);
    let mut out = Connection::open(&fresh)?;
    let mut counts = Counts::default();
    // Nothing to read in an empty file, or one that is no database: a new journal alone.
    if readable(path) {
        let copy = Copy::of(path).map_err(|e| match e.kind() {
            std::io::ErrorKind::StorageFull => JournalError::DiskFull,
            _ => open(e),
        })?;
        let old = Connection::open(&copy.db)?;
        let tx = out.transaction()?;
        copy_games(&old, &tx, &mut counts)?;
        copy_records(&old, &tx)?;
        copy_kept(&old, &tx, &mut counts)?;
        tx.commit()?;
    }
    // Whole in one file before it takes the old one's place.
    out.pragma_update(None, "journal_mode", "DELETE")?;
    drop(out);
    put_in_place(path, &fresh, &kept_as).map_err(open)?;
    Ok(Recovered {
        games: counts.games,
        entries: counts.entries,
        unreadable: counts.unreadable,
        kept_as,
    })
}

/// What came through so far, and how many rows could not be read.
#[derive(Default)]
struct Counts {
    games: usize,
    entries: usize,
    unreadable: usize,
}

/// Every game of `old` that can be read, with its entries, into `tx`.
fn copy_games(old: &Connection, tx: &Transaction, counts: &mut Counts) -> rusqlite::Result<()> {
    for id in ids(old, "games", "id") {
        let row = old.query_row(
            "SELECT ruleset, start, status, players, created_at, updated_at, edition FROM games WHERE id = ?1",
            [id],
            |r| {
                Ok((
                    r.get::<_, String>(0)?,
                    r.get::<_, String>(1)?,
                    r.get::<_, String>(2)?,
                    r.get::<_, String>(3)?,
                    r.get::<_, i64>(4)?,
                    r.get::<_, i64>(5)?,
                    r.get::<_, Option<String>>(6)?,
                ))
            },
        );
        let Ok((ruleset, start, status, players, created, updated, edition)) = row else {
            counts.unreadable += 1;
            continue;
        };
        tx.execute(
            "INSERT INTO games (id, ruleset, start, status, players, created_at, updated_at, edition) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
            params![id, ruleset, start, status, players, created, updated, edition],
        )?;
        counts.games += 1;
        copy_entries(old, tx, id, counts)?;
    }
    Ok(())
}

/// Game `id`'s entries up to the first that cannot be read: the rest would not follow on
/// from it.
fn copy_entries(
    old: &Connection,
    tx: &Transaction,
    id: i64,
    counts: &mut Counts,
) -> rusqlite::Result<()> {
    for seq in 1.. {
        let entry = old.query_row(
            "SELECT format, entry, sender FROM entries WHERE game = ?1 AND seq = ?2",
            params![id, seq],
            |r| {
                Ok((
                    r.get::<_, i64>(0)?,
                    r.get::<_, String>(1)?,
                    r.get::<_, Option<String>>(2)?,
                ))
            },
        );
        match entry {
            Ok((format, entry, sender)) => {
                tx.execute(
                    "INSERT INTO entries (game, seq, format, entry, sender) VALUES (?1, ?2, ?3, ?4, ?5)",
                    params![id, seq, format, entry, sender],
                )?;
                counts.entries += 1;
            }
            Err(rusqlite::Error::QueryReturnedNoRows) => break,
            Err(_) => {
                counts.unreadable += 1;
                break;
            }
        }
    }
    Ok(())
}

/// What the history keeps of the games, from a journal that has it (a game whose record is
/// lost gets it again, from its entries, when the history is next read).
fn copy_records(old: &Connection, tx: &Transaction) -> rusqlite::Result<()> {
    if let Ok(mut stmt) = old.prepare("SELECT id, record, shelf, origin FROM games") {
        let rows = stmt.query_map([], |r| {
            Ok((
                r.get::<_, i64>(0)?,
                r.get::<_, Option<String>>(1)?,
                r.get::<_, Option<String>>(2)?,
                r.get::<_, Option<String>>(3)?,
            ))
        });
        for (id, record, shelf, origin) in rows.into_iter().flatten().flatten() {
            tx.execute(
                "UPDATE games SET record = ?2, shelf = ?3, origin = ?4 WHERE id = ?1",
                params![id, record, shelf, origin],
            )?;
        }
    }
    Ok(())
}

/// What else the journal keeps of its games (sand timers, entries set aside), as far as it
/// reads.
fn copy_kept(old: &Connection, tx: &Transaction, counts: &mut Counts) -> rusqlite::Result<()> {
    for (table, columns) in [
        ("timers", "game, duration_ms, left_ms, running, at"),
        ("set_aside", "game, seq, format, entry, why, at"),
    ] {
        let rows = old
            .prepare(&format!("SELECT {columns} FROM {table}"))
            .and_then(|mut stmt| {
                let n = stmt.column_count();
                stmt.query_map([], |r| {
                    (0..n)
                        .map(|i| r.get::<_, rusqlite::types::Value>(i))
                        .collect::<Result<Vec<_>, _>>()
                })?
                .collect::<Result<Vec<_>, _>>()
            });
        let Ok(rows) = rows else {
            counts.unreadable += 1;
            continue;
        };
        // Only for the games that came through: a lost game's number may be a new game's.
        let blanks: Vec<_> = (1..=columns.split(',').count())
            .map(|i| format!("?{i}"))
            .collect();
        let insert = format!(
            "INSERT OR IGNORE INTO {table} ({columns}) SELECT {} WHERE EXISTS (SELECT 1 FROM games WHERE id = ?1)",
            blanks.join(", ")
        );
        for row in rows {
            tx.execute(&insert, rusqlite::params_from_iter(row))?;
        }
    }
    Ok(())
}

/// The old files kept beside as `kept_as`, then the new journal `fresh` in their place.
fn put_in_place(path: &Path, fresh: &Path, kept_as: &Path) -> std::io::Result<()> {
    for (from, to) in [
        (path.to_owned(), kept_as.to_owned()),
        (wal(path), wal(kept_as)),
        (mark(path), mark(kept_as)),
    ] {
        match std::fs::rename(&from, &to) {
            Err(e) if e.kind() != std::io::ErrorKind::NotFound => return Err(e),
            _ => {}
        }
    }
    let _ = std::fs::remove_file(with_name(path, "-shm"));
    std::fs::rename(fresh, path)?;
    let _ = std::fs::remove_file(with_name(fresh, "-shm"));
    Ok(())
}

/// Whether the file is a SQLite database at all.
fn readable(path: &Path) -> bool {
    let mut header = [0u8; 16];
    std::fs::File::open(path)
        .and_then(|mut f| std::io::Read::read_exact(&mut f, &mut header))
        .is_ok()
        && &header == b"SQLite format 3\0"
}

/// The ids of `table` that can be read: by the table's own order if it reads whole, else
/// every number up to the largest (a damaged page hides some rows, not the others).
fn ids(old: &Connection, table: &str, column: &str) -> Vec<i64> {
    let listed = old
        .prepare(&format!("SELECT {column} FROM {table} ORDER BY {column}"))
        .and_then(|mut stmt| {
            stmt.query_map([], |r| r.get::<_, i64>(0))?
                .collect::<Result<Vec<_>, _>>()
        });
    match listed {
        Ok(ids) => ids,
        Err(_) => {
            let most: i64 = old
                .query_row(&format!("SELECT MAX({column}) FROM {table}"), [], |r| {
                    r.get(0)
                })
                .unwrap_or(0);
            (1..=most.min(1_000_000)).collect()
        }
    }
}
