//! Writes to the journal one at a time, in the order they asked, whichever connection makes
//! them: a ticket lock shared by every connection a process opens to one file. SQLite's own
//! lock makes a waiting connection sleep and try again (longer each time), so a writer that
//! takes the journal again and again, a history brought in a chunk at a time, kept a
//! table's command waiting for seconds; in turns, it waits for one chunk at most.

use std::sync::{Condvar, Mutex, MutexGuard, PoisonError};

/// The turns of one journal file's writers.
#[derive(Debug, Default)]
pub(crate) struct Turns {
    /// The ticket being served, and the next one to hand out.
    tickets: Mutex<(u64, u64)>,
    served: Condvar,
}

/// A writer's turn, passed on to the next in line when dropped.
#[derive(Debug)]
pub(crate) struct Turn<'a>(&'a Turns);

impl Turns {
    fn tickets(&self) -> MutexGuard<'_, (u64, u64)> {
        // Two counters are never left half-changed: a panic elsewhere leaves them sound.
        self.tickets.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Waits for every writer that asked before, then holds the journal.
    pub(crate) fn take(&self) -> Turn<'_> {
        let mut tickets = self.tickets();
        let mine = tickets.1;
        tickets.1 = tickets.1.wrapping_add(1);
        while tickets.0 != mine {
            tickets = (self.served.wait(tickets)).unwrap_or_else(PoisonError::into_inner);
        }
        Turn(self)
    }
}

impl Drop for Turn<'_> {
    fn drop(&mut self) {
        let mut tickets = self.0.tickets();
        tickets.0 = tickets.0.wrapping_add(1);
        self.0.served.notify_all();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;
    use std::time::Duration;

    #[test]
    fn writers_are_served_in_the_order_they_asked() {
        let turns = Arc::new(Turns::default());
        let order = Arc::new(Mutex::new(Vec::new()));
        let first = turns.take();
        let waiting: Vec<_> = (0..5)
            .map(|k| {
                let (mine, order) = (turns.clone(), order.clone());
                let writer = std::thread::spawn(move || {
                    let _turn = mine.take();
                    order.lock().unwrap().push(k);
                });
                // Each asks once the one before is in line.
                while turns.tickets().1 < k + 2 {
                    std::thread::sleep(Duration::from_millis(1));
                }
                writer
            })
            .collect();
        drop(first);
        for writer in waiting {
            writer.join().unwrap();
        }
        assert_eq!(*order.lock().unwrap(), [0, 1, 2, 3, 4]);
    }
}
