//! A full disk, for real: a small tmpfs mounted for the test (root only, as CI runs; a
//! developer's run without root says it was skipped). A command that does not fit is
//! refused as a full disk, with nothing lost; a journal with no room for the check's copy
//! is read where it lies, and one with no room at all is told as a full disk, not as damaged.

mod common;

use std::path::Path;
use std::process::Command as Run;
use std::time::Duration;

use seance_journal::{Journal, JournalError, Trouble, check};
use seance_rules::*;

/// A tmpfs of `size` mounted on a new folder, unmounted when dropped.
struct Small(tempfile::TempDir);

impl Small {
    fn mount(size: &str) -> Option<Small> {
        let dir = tempfile::tempdir().unwrap();
        let mounted = Run::new("mount")
            .args(["-t", "tmpfs", "-o", &format!("size={size}"), "tmpfs"])
            .arg(dir.path())
            .status()
            .is_ok_and(|s| s.success());
        mounted.then_some(Small(dir))
    }

    fn path(&self) -> &Path {
        self.0.path()
    }
}

impl Drop for Small {
    fn drop(&mut self) {
        let _ = Run::new("umount").arg(self.0.path()).status();
    }
}

/// A small disk of `size` for a test, or none where mounting one needs root (CI runs as
/// root; a developer's run says the test was skipped).
fn small_disk(size: &str) -> Option<Small> {
    let root = Run::new("id")
        .arg("-u")
        .output()
        .is_ok_and(|o| o.stdout.trim_ascii() == b"0");
    if !root {
        eprintln!("skipped: mounting a small disk needs root (CI runs as root)");
        return None;
    }
    Some(Small::mount(size).expect("a small tmpfs mounted"))
}

/// Fills what is left of the disk at `dir`.
fn fill(dir: &Path) {
    fill_leaving(dir, 0);
}

/// Fills the disk at `dir` but for about `free` bytes.
fn fill_leaving(dir: &Path, free: u64) {
    let mut filler = std::fs::File::create(dir.join("filler")).unwrap();
    let block = vec![7u8; 4096];
    while std::io::Write::write_all(&mut filler, &block).is_ok() {}
    let _ = filler.sync_all();
    filler
        .set_len(filler.metadata().unwrap().len().saturating_sub(free))
        .unwrap();
}

#[test]
fn a_full_disk_refuses_the_command_loses_nothing_and_is_told_as_a_full_disk() {
    let Some(disk) = small_disk("1m") else {
        return;
    };
    let path = disk.path().join("seance.sqlite3");
    let mut journal = Journal::open(&path).unwrap();
    let (mut timeline, start) = seance_rules::begin(common::setup(), 1).unwrap();
    let game = journal.create(&start, timeline.game()).unwrap();
    // All but a few pages taken: some commands fit, then none.
    fill_leaving(disk.path(), 96 * 1024);
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
    fill(disk.path());
    let before = std::fs::read(&path).unwrap();
    let found = check(&path, Duration::from_secs(5)).unwrap_err();
    assert_eq!(found, Trouble::DiskFull);
    assert_eq!(
        found.to_string(),
        "the disk is full: the journal could not even be checked. Nothing was written to it. Free some space on the disk and start Séance again; nothing is lost."
    );
    assert_eq!(std::fs::read(&path).unwrap(), before);
    std::fs::remove_file(disk.path().join("filler")).unwrap();
    assert_eq!(check(&path, Duration::from_secs(5)), Ok(()), "space freed");
}

/// A sound journal larger than the space left: with no room for a copy, it is read where it
/// lies, found sound, and left as it was (no index left beside it).
#[test]
fn a_journal_larger_than_the_space_left_is_checked_where_it_lies() {
    let Some(disk) = small_disk("32m") else {
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
    fill_leaving(disk.path(), 2 * 1024 * 1024);
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
