//! The journal on a real SQLite file.

mod common;

use common::setup;
use rusqlite::Connection;
use seance_journal::{Append, GameState, Journal, JournalError, Listing, Standing, TimerRecord};
use seance_rules::*;

/// A journal with one game and `commands` visions given, and the live timeline.
fn journal_with_game(path: &std::path::Path, commands: usize) -> (Journal, i64, Timeline) {
    let mut journal = Journal::open(path).unwrap();
    let (mut timeline, start) = seance_rules::begin(setup(), 99).unwrap();
    let id = journal.create(&start, timeline.game()).unwrap();
    for psychic in 0..commands {
        let entry = timeline.decide(Command::GiveVision { psychic }).unwrap();
        timeline.push(entry.clone()).unwrap();
        journal
            .append(
                id,
                timeline.version(),
                &entry,
                timeline.game().status(),
                None,
            )
            .unwrap();
    }
    (journal, id, timeline)
}

/// How many rows of `table` belong to game `id`, read from the file itself.
fn rows(raw: &Connection, table: &str, id: i64) -> i64 {
    raw.query_row(
        &format!("SELECT COUNT(*) FROM {table} WHERE game = ?1"),
        [id],
        |r| r.get(0),
    )
    .unwrap()
}

#[test]
fn a_game_reads_back_exactly_with_undo_and_redo() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("seance.sqlite3");
    let (mut journal, id, mut timeline) = journal_with_game(&path, 3);
    for entry in [Entry::Undo, Entry::Undo, Entry::Redo] {
        timeline.push(entry.clone()).unwrap();
        journal
            .append(id, timeline.version(), &entry, Status::Playing, None)
            .unwrap();
    }
    drop(journal);
    let loaded = Journal::open(&path).unwrap().load::<Game>(id).unwrap();
    assert!(loaded.damage.is_none());
    assert_eq!(loaded.timeline.game(), timeline.game());
    assert_eq!(loaded.timeline.version(), 6);
    assert!(
        loaded.timeline.can_redo(),
        "the redo stack survives a restart"
    );
}

#[test]
fn an_entry_out_of_order_is_refused_and_changes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let (mut journal, id, timeline) = journal_with_game(&dir.path().join("j.sqlite3"), 2);
    let again = journal
        .append(id, 2, &Entry::Undo, Status::Playing, None)
        .unwrap_err();
    assert!(matches!(again, JournalError::OutOfOrder { seq: 2, .. }));
    assert!(again.to_string().contains("reload"));
    assert!(matches!(
        journal.append(id, 9, &Entry::Undo, Status::Playing, None),
        Err(JournalError::OutOfOrder { .. })
    ));
    assert!(matches!(
        journal.append(77, 1, &Entry::Undo, Status::Playing, None),
        Err(JournalError::NoSuchGame(77))
    ));
    assert_eq!(
        journal.load::<Game>(id).unwrap().timeline.game(),
        timeline.game()
    );
}

#[test]
fn entries_of_several_games_share_one_commit_and_each_has_its_own_answer() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("j.sqlite3");
    let (mut journal, first, mut one) = journal_with_game(&path, 1);
    let (mut other, start) = seance_rules::begin(setup(), 7).unwrap();
    let second = journal.create(&start, other.game()).unwrap();
    let before = journal.commits().unwrap();
    let decide = |timeline: &mut Timeline, psychic| {
        let entry = timeline.decide(Command::GiveVision { psychic }).unwrap();
        timeline.push(entry.clone()).unwrap();
        entry
    };
    let (to_first, to_second) = (decide(&mut one, 1), decide(&mut other, 0));
    let group = [
        Append::new(first, 2, &to_first, Status::Playing, Some("ghost")),
        Append::new(first, 9, &Entry::Undo, Status::Playing, None),
        Append::new(second, 1, &to_second, Status::Playing, None),
        Append::new(77, 1, &Entry::Undo, Status::Playing, None),
    ];
    let done = journal.append_all(&group).unwrap();
    assert!(done[0].is_ok() && done[2].is_ok(), "{done:?}");
    assert!(matches!(
        done[1],
        Err(JournalError::OutOfOrder { seq: 9, .. })
    ));
    assert!(matches!(done[3], Err(JournalError::NoSuchGame(77))));
    assert_eq!(
        journal.commits().unwrap(),
        before + 1,
        "one commit for the group"
    );
    for (id, timeline) in [(first, &one), (second, &other)] {
        let loaded = journal.load::<Game>(id).unwrap();
        assert_eq!(loaded.timeline.game(), timeline.game());
    }
    // A group none of which can be written commits nothing.
    let refused = journal.append_all(&group[1..2]).unwrap();
    assert!(refused[0].is_err());
    assert_eq!(journal.commits().unwrap(), before + 1);
}

#[test]
fn an_entry_that_moves_the_sand_timer_keeps_it_in_its_own_commit() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("j.sqlite3");
    let (mut journal, id, mut timeline) = journal_with_game(&path, 1);
    let entry = timeline.decide(Command::GiveVision { psychic: 1 }).unwrap();
    timeline.push(entry.clone()).unwrap();
    let running = TimerRecord {
        duration_ms: 120_000,
        left_ms: 120_000,
        running: true,
    };
    let refused = Append::new(id, 9, &entry, Status::Playing, None).with_timer(Some(running));
    let before = journal.commits().unwrap();
    let done = journal.append_all(&[refused]).unwrap();
    assert!(done[0].is_err());
    assert_eq!(
        journal.load::<Game>(id).unwrap().timer,
        None,
        "refused with its entry"
    );
    let moved = Append::new(id, 2, &entry, Status::Playing, None).with_timer(Some(running));
    journal
        .append_all(&[moved])
        .unwrap()
        .pop()
        .unwrap()
        .unwrap();
    assert_eq!(
        journal.commits().unwrap(),
        before + 1,
        "one commit for both"
    );
    drop(journal);
    let loaded = Journal::open(&path).unwrap().load::<Game>(id).unwrap();
    assert_eq!(loaded.timer, Some(running));
    assert_eq!(loaded.timeline.version(), 2);
}

#[test]
fn a_damaged_entry_is_reported_its_game_recovered_and_nothing_dropped() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("j.sqlite3");
    let (mut journal, id, _) = journal_with_game(&path, 3);
    let raw = Connection::open(&path).unwrap();
    raw.execute(
        "UPDATE entries SET entry = '{\"kind\": \"comm' WHERE seq = 2",
        [],
    )
    .unwrap();

    let loaded = journal.load::<Game>(id).unwrap();
    let damage = loaded.damage.expect("the damage is reported");
    assert_eq!(damage.seq, 2);
    assert!(damage.why.contains("unreadable"), "{}", damage.why);
    assert_eq!(loaded.timeline.version(), 1, "recovered up to the damage");
    let stored = rows(&raw, "entries", id);
    assert_eq!(stored, 3, "nothing is dropped by reading");

    // Going on means setting the damaged part aside, where it is kept.
    assert!(matches!(
        journal.append(id, 2, &Entry::Undo, Status::Playing, None),
        Err(JournalError::OutOfOrder { .. })
    ));
    assert_eq!(journal.set_aside(id, 2, &damage.why).unwrap(), 2);
    let kept = rows(&raw, "set_aside", id);
    assert_eq!(kept, 2);
    journal
        .append(id, 2, &Entry::Undo, Status::Playing, None)
        .unwrap();
    assert_eq!(journal.load::<Game>(id).unwrap().timeline.version(), 2);
}

#[test]
fn a_game_whose_start_is_damaged_is_told_so_and_set_aside_whole() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("j.sqlite3");
    let (mut journal, id, _) = journal_with_game(&path, 2);
    let raw = Connection::open(&path).unwrap();
    raw.execute(
        "UPDATE games SET start = '[{\"type\": \"st' WHERE id = ?1",
        [id],
    )
    .unwrap();
    let Err(JournalError::StartDamaged { game, why }) = journal.load::<Game>(id) else {
        panic!("the damaged start is told as such");
    };
    assert_eq!(game, id);
    let listed = |journal: &Journal| {
        journal
            .games(&Listing::default())
            .unwrap()
            .iter()
            .any(|g| g.id == id)
    };
    assert!(listed(&journal));
    journal.set_aside_start(id, &why).unwrap();
    journal.set_aside_start(id, &why).unwrap();
    assert!(!listed(&journal), "out of every list");
    let (seq, kept, said): (i64, String, String) = raw
        .query_row(
            "SELECT seq, entry, why FROM set_aside WHERE game = ?1",
            [id],
            |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
        )
        .unwrap();
    assert_eq!((seq, kept.as_str(), said), (0, "[{\"type\": \"st", why));
    let entries = rows(&raw, "entries", id);
    assert_eq!(entries, 2, "nothing of it is removed");
    let kept = rows(&raw, "set_aside", id);
    assert_eq!(kept, 1, "set aside once");
    assert!(matches!(
        journal.set_aside_start(99, "none"),
        Err(JournalError::NoSuchGame(99))
    ));
}

#[test]
fn an_entry_from_a_newer_version_is_reported_not_guessed() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("j.sqlite3");
    let (journal, id, _) = journal_with_game(&path, 2);
    Connection::open(&path)
        .unwrap()
        .execute("UPDATE entries SET format = 7 WHERE seq = 2", [])
        .unwrap();
    let damage = journal.load::<Game>(id).unwrap().damage.unwrap();
    assert_eq!(damage.seq, 2);
    assert!(damage.why.contains("newer Séance"), "{}", damage.why);
}

#[test]
fn a_journal_from_a_newer_version_is_left_untouched() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("j.sqlite3");
    drop(journal_with_game(&path, 1));
    Connection::open(&path)
        .unwrap()
        .pragma_update(None, "user_version", 9)
        .unwrap();
    let before = std::fs::read(&path).unwrap();
    let err = Journal::open(&path).err().unwrap();
    assert!(matches!(err, JournalError::Newer { schema: 9, .. }));
    assert!(err.to_string().contains("update Séance"));
    assert_eq!(std::fs::read(&path).unwrap(), before);
}

#[test]
fn a_file_that_is_not_a_journal_is_left_untouched() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("j.sqlite3");
    let junk = b"these are my notes, not a database\n".repeat(200);
    std::fs::write(&path, &junk).unwrap();
    let err = Journal::open(&path).err().unwrap();
    assert!(err.to_string().contains("left as it was"), "{err}");
    assert_eq!(std::fs::read(&path).unwrap(), junk);
}

#[test]
fn finished_games_stay_as_history() {
    let dir = tempfile::tempdir().unwrap();
    let (mut journal, first, _) = journal_with_game(&dir.path().join("j.sqlite3"), 1);
    journal
        .append(first, 2, &Entry::Undo, Status::Lost, None)
        .unwrap();
    let (timeline, start) = seance_rules::begin(setup(), 5).unwrap();
    let second = journal.create(&start, timeline.game()).unwrap();
    let games = journal.games(&Listing::default()).unwrap();
    assert_eq!(games.len(), 2);
    let by_id = |id| games.iter().find(|g| g.id == id).unwrap();
    assert_eq!(by_id(first).status, Standing::Is(Status::Lost));
    assert_eq!(by_id(second).status, Standing::Is(Status::Playing));
    assert_eq!(
        by_id(second).players,
        ["Laura", "Stephanie", "Alex", "Carl"]
    );
    assert!(matches!(
        journal.load::<Game>(42),
        Err(JournalError::NoSuchGame(42))
    ));
    // A page at a time, and by state: a long history is never read whole.
    let ids = |journal: &Journal, listing: Listing| -> Vec<i64> {
        journal
            .games(&listing)
            .unwrap()
            .iter()
            .map(|g| g.id)
            .collect()
    };
    let playing = Listing {
        state: Some(GameState::Playing),
        ..Listing::default()
    };
    let finished = Listing {
        state: Some(GameState::Finished),
        ..Listing::default()
    };
    let archived = Listing {
        state: Some(GameState::Archived),
        ..Listing::default()
    };
    assert_eq!(ids(&journal, playing.clone()), [second]);
    assert_eq!(ids(&journal, finished.clone()), [first]);
    assert!(ids(&journal, archived.clone()).is_empty());
    // Put away, the game in play leaves the games in play and keeps its last played time.
    let played = by_id(second).updated_at;
    journal.set_status(second, &Standing::Archived).unwrap();
    assert!(ids(&journal, playing.clone()).is_empty());
    assert_eq!(
        ids(&journal, finished.clone()),
        [first],
        "put away is not finished"
    );
    assert_eq!(ids(&journal, archived.clone()), [second]);
    let listed = journal.games(&archived).unwrap();
    assert_eq!(listed[0].updated_at, played);
    // Brought back, it is in play again.
    journal
        .set_status(second, &Standing::Is(Status::Playing))
        .unwrap();
    assert_eq!(ids(&journal, playing), [second]);
    assert!(ids(&journal, archived).is_empty());
    assert!(matches!(
        journal.set_status(42, &Standing::Archived),
        Err(JournalError::NoSuchGame(42))
    ));
    // Every standing reads back as it was written; a newer build's is listed as it is.
    let standings = Status::ALL.map(Standing::Is).into_iter();
    let newer = Standing::Newer("abandoned".into());
    for standing in standings.chain([Standing::Archived, newer]) {
        journal.set_status(second, &standing).unwrap();
        let listed = journal.games(&Listing::default()).unwrap();
        let game = listed.iter().find(|g| g.id == second).unwrap();
        assert_eq!(game.status, standing);
    }
    journal
        .set_status(second, &Standing::Is(Status::Playing))
        .unwrap();
    let first_page = Listing {
        limit: 1,
        ..Listing::default()
    };
    let page = ids(&journal, first_page.clone());
    let next = ids(
        &journal,
        Listing {
            offset: 1,
            ..first_page
        },
    );
    assert_eq!(page.len() + next.len(), 2);
    assert_ne!(page, next);
}

#[test]
fn a_journal_of_the_first_schema_gains_editions_and_keeps_its_games() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("j.sqlite3");
    let (_, old_id, old) = journal_with_game(&path, 2);
    // Back to schema 1, as the first release wrote it: no `edition` column.
    {
        let conn = Connection::open(&path).unwrap();
        conn.execute_batch("ALTER TABLE games DROP COLUMN edition")
            .unwrap();
        conn.pragma_update(None, "user_version", 1).unwrap();
    }
    let mut journal = Journal::open(&path).unwrap();
    assert_eq!(
        journal.load::<Game>(old_id).unwrap().timeline.game(),
        old.game()
    );
    let card_box = CardBox {
        characters: vec![CardSet {
            name: "green".into(),
            cards: (1..=8).collect(),
        }],
        locations: vec![CardSet {
            name: "green".into(),
            cards: (1..=8).collect(),
        }],
        objects: vec![CardSet {
            name: "green".into(),
            cards: (1..=8).collect(),
        }],
    };
    let setup = Setup::new_edition(
        "Laura",
        &["Stephanie", "Alex", "Carl"],
        SecretMode::AppKept,
        card_box,
        Deal::Mixed,
    );
    let (timeline, start) = seance_rules::begin(setup, 5).unwrap();
    let new_id = journal.create(&start, timeline.game()).unwrap();
    let editions: Vec<(i64, Option<String>)> = journal
        .games(&Listing::default())
        .unwrap()
        .into_iter()
        .map(|g| (g.id, g.edition))
        .collect();
    assert!(editions.contains(&(old_id, None)), "{editions:?}");
    assert!(
        editions.contains(&(new_id, Some("new".into()))),
        "{editions:?}"
    );
    let loaded = journal.load::<Game>(new_id).unwrap().timeline;
    assert_eq!(loaded.game(), timeline.game());
}

#[test]
fn a_journal_keeps_its_identity_and_another_file_has_another() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("seance.sqlite3");
    let first = Journal::open(&path).unwrap().identity().to_owned();
    assert_eq!(first.len(), 32, "{first}");
    assert_eq!(Journal::open(&path).unwrap().identity().to_owned(), first);
    let other = Journal::open(&dir.path().join("other.sqlite3"))
        .unwrap()
        .identity()
        .to_owned();
    assert_ne!(other, first);
}
