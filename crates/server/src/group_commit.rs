//! Group commit: the commands of many games waiting for the disk share one write. Each
//! waits its turn at the journal; the first to get it writes everything queued meanwhile in
//! one commit ([`Journal::append_all`]) and hands each its own result, so fifty tables
//! wait on one sync to the disk, not on fifty in a row. Every command is still acknowledged
//! only once its own entry is on disk.

use std::sync::{Arc, Mutex, MutexGuard};

use seance_journal::{Append, Journal, JournalError};

use crate::sync::Hold;

/// Where a waiting entry's result is left for it.
type Slot = Arc<Mutex<Option<Result<(), JournalError>>>>;

pub struct Writer {
    journal: Mutex<Journal>,
    queue: Mutex<Vec<(Append, Slot)>>,
}

impl Writer {
    pub fn new(journal: Journal) -> Writer {
        Writer {
            journal: Mutex::new(journal),
            queue: Mutex::default(),
        }
    }

    /// The journal itself, for everything but appends.
    pub fn journal(&self) -> MutexGuard<'_, Journal> {
        self.journal.hold()
    }

    /// Appends `append` durably, with whatever else is waiting.
    pub fn append(&self, append: Append) -> Result<(), JournalError> {
        let mine: Slot = Arc::default();
        self.queue.hold().push((append, mine.clone()));
        let mut journal = self.journal.hold();
        // Written by the one who had the journal before: its results are in before it lets go.
        if let Some(done) = mine.hold().take() {
            return done;
        }
        let (appends, slots): (Vec<_>, Vec<_>) =
            std::mem::take(&mut *self.queue.hold()).into_iter().unzip();
        match journal.append_all(&appends) {
            Ok(results) => {
                for (slot, done) in slots.iter().zip(results) {
                    *slot.hold() = Some(done);
                }
            }
            // The group could not be committed: each is tried alone, to hear its own answer.
            Err(_) => {
                for (append, slot) in appends.iter().zip(&slots) {
                    let alone = journal
                        .append_all(std::slice::from_ref(append))
                        .and_then(|mut done| done.pop().expect("one result for one entry"));
                    *slot.hold() = Some(alone);
                }
            }
        }
        mine.hold().take().expect("its own entry was in the group")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use seance_rules::{Command, Difficulty, Entry, SecretMode, Setup, Status};
    use std::time::Duration;

    #[test]
    fn those_waiting_together_share_one_commit_and_each_hears_its_own_answer() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("seance.sqlite3");
        let mut journal = Journal::open(&path).unwrap();
        let setup = Setup::with_dealt_colours(
            "Laura",
            &["Stephanie", "Alex"],
            Difficulty::Easy,
            SecretMode::AppKept,
        );
        let mut games = Vec::new();
        for seed in 0..4 {
            let (timeline, start) = seance_rules::begin(setup.clone(), seed).unwrap();
            games.push((journal.create(&start, timeline.game()).unwrap(), timeline));
        }
        let writer = Arc::new(Writer::new(journal));
        let before = writer.journal().commits().unwrap();
        // While another write holds the journal, four games' entries queue, one of them
        // out of order.
        let held = writer.journal();
        let waiting: Vec<_> = games
            .iter()
            .enumerate()
            .map(|(k, (id, timeline))| {
                let entry: Entry = timeline.decide(Command::GiveVision { psychic: 0 }).unwrap();
                let seq = if k == 3 { 5 } else { 1 };
                let append = Append::new(*id, seq, &entry, Status::Playing, None);
                let writer = writer.clone();
                std::thread::spawn(move || writer.append(append))
            })
            .collect();
        while writer.queue.hold().len() < 4 {
            std::thread::sleep(Duration::from_millis(1));
        }
        drop(held);
        let done: Vec<_> = waiting.into_iter().map(|t| t.join().unwrap()).collect();
        assert!(done[..3].iter().all(Result::is_ok), "{done:?}");
        assert!(matches!(
            done[3],
            Err(JournalError::OutOfOrder { seq: 5, .. })
        ));
        assert_eq!(
            writer.journal().commits().unwrap(),
            before + 1,
            "one commit for the four"
        );
        for (id, _) in &games[..3] {
            let loaded = writer.journal().load::<seance_rules::Game>(*id).unwrap();
            assert_eq!(loaded.timeline.version(), 1);
        }
    }
}
