//! The journal's check at start, on real damaged files: each kind of damage told exactly,
//! and the file byte for byte as it was.

mod common;

use std::path::{Path, PathBuf};
use std::time::Duration;

use common::setup;
use seance_journal::{Journal, Listing, TimerRecord, Trouble, check, recover};
use seance_rules::*;

const BUDGET: Duration = Duration::from_secs(5);

/// Adds `games` games to `journal`, each with three visions given.
fn play(journal: &mut Journal, games: usize) {
    for seed in 0..games {
        let (mut timeline, start) = seance_rules::begin(setup(), seed as u64).unwrap();
        let id = journal.create(&start, timeline.game()).unwrap();
        for psychic in 0..3 {
            let entry = timeline.decide(Command::GiveVision { psychic }).unwrap();
            timeline.push(entry.clone()).unwrap();
            let status = timeline.game().status();
            journal
                .append(id, timeline.version(), &entry, status, None)
                .unwrap();
        }
    }
}

/// Every file of the data folder with its bytes: what "untouched" is checked against.
fn files(dir: &Path) -> Vec<(PathBuf, Vec<u8>)> {
    let mut all: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .map(|p| (p.clone(), std::fs::read(&p).unwrap()))
        .collect();
    all.sort();
    all
}

/// Checks the journal in `dir`, and that the check changed no file there.
fn checked(dir: &Path) -> Result<(), Trouble> {
    let before = files(dir);
    let found = check(&dir.join("seance.sqlite3"), BUDGET);
    assert_eq!(files(dir), before, "the check wrote nothing");
    found
}

/// A journal whose first `kept` games were checkpointed into the file, and whose next
/// `logged` live only in its write-ahead log, copied as a crash would leave it.
fn crashed(kept: usize, logged: usize) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("seance.sqlite3");
    play(&mut Journal::open(&path).unwrap(), kept);
    let mut journal = Journal::open(&path).unwrap();
    play(&mut journal, logged);
    let copy = tempfile::tempdir().unwrap();
    for (file, bytes) in files(dir.path()) {
        let name = file.file_name().unwrap();
        if !name.to_string_lossy().ends_with("-shm") {
            std::fs::write(copy.path().join(name), bytes).unwrap();
        }
    }
    drop(journal);
    copy
}

#[test]
fn a_sound_journal_and_one_not_yet_made_pass() {
    let dir = tempfile::tempdir().unwrap();
    assert_eq!(checked(dir.path()), Ok(()));
    play(
        &mut Journal::open(&dir.path().join("seance.sqlite3")).unwrap(),
        3,
    );
    assert_eq!(checked(dir.path()), Ok(()));
    let live = crashed(2, 2);
    assert_eq!(
        checked(live.path()),
        Ok(()),
        "a crash with its log is sound"
    );
    // A copy left by a check that was killed is cleared by the next.
    let stale = dir.path().join("seance.sqlite3.check-99999");
    std::fs::create_dir(&stale).unwrap();
    std::fs::write(stale.join("journal"), b"an old copy").unwrap();
    assert_eq!(check(&dir.path().join("seance.sqlite3"), BUDGET), Ok(()));
    assert!(!stale.exists());
}

#[test]
fn an_empty_file_is_told_as_empty() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("seance.sqlite3"), b"").unwrap();
    let found = checked(dir.path()).unwrap_err();
    assert_eq!(found, Trouble::Empty);
    assert_eq!(
        found.to_string(),
        "the journal is empty (0 bytes), as after a copy that failed. Nothing was written to it. If you have a copy of the data folder, put its seance.sqlite3 back. To play meanwhile, start Séance with another data folder (--data-dir): every game stays in this one."
    );
}

#[test]
fn a_file_that_is_not_a_journal_is_told_so() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("seance.sqlite3"), b"my notes\n".repeat(100)).unwrap();
    assert_eq!(checked(dir.path()), Err(Trouble::NotAJournal));
}

#[test]
fn a_flipped_page_is_found_by_sqlite_s_own_check() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("seance.sqlite3");
    play(&mut Journal::open(&path).unwrap(), 40);
    let mut bytes = std::fs::read(&path).unwrap();
    assert!(bytes.len() > 4096 * 8, "{} bytes", bytes.len());
    // 64 bytes over the header of the fourth page: a b-tree page no longer makes sense.
    for b in &mut bytes[4096 * 3..4096 * 3 + 64] {
        *b ^= 0xa5;
    }
    std::fs::write(&path, &bytes).unwrap();
    let found = checked(dir.path()).unwrap_err();
    let Trouble::DamagedPages { found: lines } = &found else {
        panic!("{found:?}");
    };
    assert!(!lines.is_empty() && lines.len() <= 8, "{lines:?}");
    let told = found.to_string();
    assert!(
        told.starts_with("the journal has damaged pages (SQLite's check found: ")
            && told.ends_with("Nothing was written to it. Keep a copy of the data folder as it is. To play meanwhile, start Séance with another data folder (--data-dir): every game stays in this one."),
        "{told}"
    );
}

#[test]
fn a_missing_write_ahead_log_is_told_as_missing_history() {
    let dir = crashed(2, 3);
    std::fs::remove_file(dir.path().join("seance.sqlite3-wal")).unwrap();
    // 2 games of 4 commits each were in the file; 3 more lived only in the log.
    let found = checked(dir.path()).unwrap_err();
    assert_eq!(
        found,
        Trouble::HistoryMissing {
            written: 20,
            found: 8
        }
    );
    assert_eq!(
        found.to_string(),
        "the journal's latest changes are missing: it holds 8 commits, but 20 were written. Its write-ahead log (seance.sqlite3-wal) is missing or damaged. Nothing was written to it. If the data folder was copied or restored, copy seance.sqlite3-wal beside it from the same place. To play meanwhile, start Séance with another data folder (--data-dir): every game stays in this one."
    );
}

#[test]
fn a_damaged_write_ahead_log_is_told_as_missing_history() {
    let dir = crashed(2, 3);
    let wal = dir.path().join("seance.sqlite3-wal");
    let mut bytes = std::fs::read(&wal).unwrap();
    // The last frames' bytes flipped: SQLite stops at the first frame whose checksum fails.
    let n = bytes.len();
    for b in &mut bytes[n - 2000..n - 1000] {
        *b ^= 0xff;
    }
    std::fs::write(&wal, &bytes).unwrap();
    let found = checked(dir.path()).unwrap_err();
    let Trouble::HistoryMissing { written, found } = found else {
        panic!("{found:?}");
    };
    assert_eq!(written, 20);
    assert!((8..20).contains(&found), "{found}");
}

#[test]
fn a_newer_journal_is_told_with_its_version() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("seance.sqlite3");
    play(&mut Journal::open(&path).unwrap(), 1);
    let conn = rusqlite::Connection::open(&path).unwrap();
    conn.pragma_update(None, "user_version", 99).unwrap();
    drop(conn);
    let found = checked(dir.path()).unwrap_err();
    assert_eq!(found, Trouble::Newer { schema: 99 });
    assert!(
        found
            .to_string()
            .contains("journal version 99; this one reads 3")
    );
}

/// Recovers the journal in `dir`: the new one is sound and holds `games` games, each
/// loading whole, and the old file is kept beside it byte for byte.
fn recovered(dir: &Path, games: usize) -> seance_journal::Recovered {
    let path = dir.join("seance.sqlite3");
    let before = std::fs::read(&path).unwrap();
    let done = recover(&path, "test").unwrap();
    assert_eq!(
        std::fs::read(&done.kept_as).unwrap(),
        before,
        "kept as it was"
    );
    assert_eq!(checked(dir), Ok(()), "the new journal is sound");
    let journal = Journal::open(&path).unwrap();
    let listed = journal.games(&Listing::default()).unwrap();
    assert_eq!(listed.len(), games);
    for game in listed {
        let loaded = journal.load::<Game>(game.id).unwrap();
        assert!(loaded.damage.is_none());
    }
    done
}

#[test]
fn recovering_after_missing_history_goes_on_from_what_the_file_holds() {
    let dir = crashed(2, 3);
    std::fs::remove_file(dir.path().join("seance.sqlite3-wal")).unwrap();
    let identity = {
        let copy = tempfile::tempdir().unwrap();
        std::fs::copy(dir.path().join("seance.sqlite3"), copy.path().join("j")).unwrap();
        Journal::open(&copy.path().join("j"))
            .unwrap()
            .identity()
            .to_owned()
    };
    let done = recovered(dir.path(), 2);
    assert_eq!((done.games, done.entries, done.unreadable), (2, 6, 0));
    let path = dir.path().join("seance.sqlite3");
    assert_ne!(
        Journal::open(&path).unwrap().identity(),
        identity,
        "another journal to the phones' seats: a lost game's number may be taken again"
    );
    // Recovering never writes over files kept before.
    std::fs::write(&path, b"").unwrap();
    assert!(recover(&path, "test").is_err());
    assert_eq!(std::fs::read(&path).unwrap(), b"");
}

#[test]
fn recovering_a_flipped_page_keeps_every_game_that_reads() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("seance.sqlite3");
    play(&mut Journal::open(&path).unwrap(), 40);
    let mut bytes = std::fs::read(&path).unwrap();
    for b in &mut bytes[4096 * 3..4096 * 3 + 64] {
        *b ^= 0xa5;
    }
    std::fs::write(&path, &bytes).unwrap();
    let path2 = dir.path().join("seance.sqlite3");
    let before = std::fs::read(&path2).unwrap();
    let done = recover(&path2, "test").unwrap();
    assert_eq!(std::fs::read(&done.kept_as).unwrap(), before);
    assert_eq!(checked(dir.path()), Ok(()));
    assert!(done.games > 0 && done.games <= 40, "{done:?}");
    let journal = Journal::open(&path2).unwrap();
    for game in journal.games(&Listing::default()).unwrap() {
        assert!(journal.load::<Game>(game.id).unwrap().damage.is_none());
    }
}

#[test]
fn recovering_an_empty_file_starts_a_new_journal_and_keeps_the_file() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("seance.sqlite3"), b"").unwrap();
    let done = recovered(dir.path(), 0);
    assert_eq!((done.games, done.entries), (0, 0));
    assert!(done.kept_as.ends_with("seance.sqlite3.damaged-test"));
}

#[test]
fn recovering_keeps_the_sand_timers_of_the_games_that_came_through() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("seance.sqlite3");
    let mut journal = Journal::open(&path).unwrap();
    play(&mut journal, 2);
    let paused = TimerRecord {
        duration_ms: 90_000,
        left_ms: 41_000,
        running: false,
    };
    journal.save_timer(2, &paused).unwrap();
    drop(journal);
    recovered(dir.path(), 2);
    let journal = Journal::open(&path).unwrap();
    assert_eq!(journal.load::<Game>(2).unwrap().timer, Some(paused));
    assert_eq!(journal.load::<Game>(1).unwrap().timer, None);
}
