//! A full disk, for real: a small tmpfs mounted for the test (root only, as CI runs; a
//! developer's run without root says it was skipped). A command that does not fit is
//! refused as a full disk, with nothing lost; a journal with no room for the check's copy
//! is read where it lies, and one with no room at all is told as a full disk, not as damaged;
//! a read-only disk is told as a folder Séance may not write, never as a damaged journal.

mod common;

use std::path::Path;
use std::time::Duration;

use seance_journal::{Journal, JournalError, Trouble, check};
use seance_played::SmallDisk;
use seance_rules::*;

#[test]
fn a_full_disk_refuses_the_command_loses_nothing_and_is_told_as_a_full_disk() {
    let Some(disk) = SmallDisk::mount("1m") else {
        return;
    };
    let path = disk.path().join("seance.sqlite3");
    let mut journal = Journal::open(&path).unwrap();
    let (mut timeline, start) = seance_rules::begin(common::setup(), 1).unwrap();
    let game = journal.create(&start, timeline.game()).unwrap();
    // All but a few pages taken: some commands fit, then none.
    disk.fill_leaving(96 * 1024);
    // Visions given and undone until the disk refuses one.
    let mut refused = None;
    for _ in 0..10_000 {
        let entry = if timeline.can_undo() {
            Entry::Undo
        } else {
            timeline.decide(Command::GiveVision { psychic: 0 }).unwrap()
        };
        let mut next = timeline.clone();
        next.push(entry.clone()).unwrap();
        match journal.append(game, next.version(), &entry, Status::Playing, None) {
            Ok(()) => timeline = next,
            Err(e) => {
                refused = Some(e);
                break;
            }
        }
    }
    let refused = refused.expect("the disk filled up");
    assert!(matches!(refused, JournalError::DiskFull), "{refused:?}");
    assert!(
        refused.to_string().starts_with("the disk is full"),
        "{refused}"
    );
    // Everything acknowledged is there, once space is freed.
    drop(journal);
    std::fs::remove_file(disk.path().join("filler")).unwrap();
    let loaded = Journal::open(&path).unwrap().load::<Game>(game).unwrap();
    assert!(loaded.damage.is_none());
    assert_eq!(loaded.timeline.version(), timeline.version());
    assert!(timeline.version() > 0);
    // With not a byte left, not even SQLite's index of the log fits: the check says the
    // disk is full, and writes nothing.
    disk.fill();
    let before = std::fs::read(&path).unwrap();
    let found = check(&path, Duration::from_secs(5)).unwrap_err();
    // The room to free is what a check's copy takes: the journal (under 1 MiB here).
    assert_eq!(found, Trouble::DiskFull { megabytes: 1 });
    assert_eq!(
        found.to_string(),
        "the disk is full: the journal could not even be checked. Nothing was written to it. Free at least 1 MB on the disk and start Séance again; nothing is lost."
    );
    assert_eq!(std::fs::read(&path).unwrap(), before);
    std::fs::remove_file(disk.path().join("filler")).unwrap();
    assert_eq!(check(&path, Duration::from_secs(5)), Ok(()), "space freed");
}

/// A sound journal larger than the space left: with no room for a copy, it is read where it
/// lies, found sound, and left as it was (no index left beside it).
#[test]
fn a_journal_larger_than_the_space_left_is_checked_where_it_lies() {
    let Some(disk) = SmallDisk::mount("32m") else {
        return;
    };
    let path = disk.path().join("seance.sqlite3");
    let (timeline, start) = seance_rules::begin(common::setup(), 1).unwrap();
    // Games until the journal, closed (its log emptied into it), is over 8 MiB.
    while std::fs::metadata(&path).map_or(0, |m| m.len()) < 8 * 1024 * 1024 {
        let mut journal = Journal::open(&path).unwrap();
        for _ in 0..200 {
            journal.create(&start, timeline.game()).unwrap();
        }
    }
    // Two megabytes left: less than the journal, more than nothing.
    disk.fill_leaving(2 * 1024 * 1024);
    let files = |dir: &Path| {
        let mut names: Vec<_> = (std::fs::read_dir(dir).unwrap())
            .map(|e| e.unwrap().file_name())
            .collect();
        names.sort();
        names
    };
    let (before, bytes) = (files(disk.path()), std::fs::read(&path).unwrap());
    assert_eq!(check(&path, Duration::from_secs(5)), Ok(()));
    assert_eq!(files(disk.path()), before, "nothing left beside it");
    assert_eq!(std::fs::read(&path).unwrap(), bytes);
}

/// A data folder on a disk made read-only (as a folder of another user's): the check and
/// the opening both say the folder may not be written, and where; nothing of the journal is
/// called damaged, no copy of it is advised, and nothing is written.
#[test]
fn a_read_only_folder_is_told_as_a_folder_that_may_not_be_written() {
    let Some(disk) = SmallDisk::mount("8m") else {
        return;
    };
    let path = disk.path().join("seance.sqlite3");
    let (timeline, start) = seance_rules::begin(common::setup(), 1).unwrap();
    Journal::open(&path)
        .unwrap()
        .create(&start, timeline.game())
        .unwrap();
    disk.read_only(true);
    let bytes = std::fs::read(&path).unwrap();
    let unwritable = Trouble::Unwritable {
        folder: disk.path().to_owned(),
    };
    let found = check(&path, Duration::from_secs(5)).unwrap_err();
    assert_eq!(found, unwritable);
    let told = found.to_string();
    assert!(
        told.starts_with("Séance may not write in its data folder"),
        "{told}"
    );
    assert!(told.contains(&disk.path().display().to_string()), "{told}");
    assert!(
        !told.contains("put its") && !told.contains("damaged pages"),
        "{told}"
    );
    let opened = Journal::open(&path)
        .err()
        .expect("a read-only journal is not opened");
    assert!(
        matches!(opened, JournalError::Unwritable { .. }),
        "{opened:?}"
    );
    assert_eq!(opened.trouble(&path), Some(unwritable));
    assert_eq!(std::fs::read(&path).unwrap(), bytes, "nothing written");
    // Writable again, it is the sound journal it was.
    disk.read_only(false);
    assert_eq!(check(&path, Duration::from_secs(5)), Ok(()));
    assert_eq!(
        Journal::open(&path)
            .unwrap()
            .load::<Game>(1)
            .unwrap()
            .timeline
            .version(),
        0
    );
}
