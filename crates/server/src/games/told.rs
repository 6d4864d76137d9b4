//! Who hears of a change, and when: each game's screens are woken by a channel of its own,
//! and a change the table reads out (the count, the verdict) is held for the table to show
//! first, then told to every other screen.

use std::sync::Arc;
use std::time::Duration;

use seance_timeline::RuleBook;
use tokio::sync::broadcast;

use super::Games;
use crate::sync::Hold;

/// The longest the other screens wait for the table to show a change it shows first (a
/// table screen asleep in the background, or gone, shows nothing).
pub const HELD_MOST: Duration = Duration::from_secs(1);

impl<G: RuleBook> Games<G> {
    /// Hears of every change to game `id`.
    pub fn subscribe(&self, id: i64) -> broadcast::Receiver<()> {
        let mut changes = self.changes.hold();
        // Games nobody watches any more keep no channel.
        changes.retain(|_, watchers| watchers.receiver_count() > 0);
        changes
            .entry(id)
            .or_insert_with(|| broadcast::channel(16).0)
            .subscribe()
    }

    /// Tells every screen watching `id` to look again.
    pub fn touch(&self, id: i64) {
        // Held for the table: told when the table has shown it.
        if self.held.hold().contains_key(&id) {
            return;
        }
        if let Some(watchers) = self.changes.hold().get(&id) {
            // No receiver left is not an error: nobody watches now.
            let _ = watchers.send(());
        }
    }

    /// Change `version` of game `id`, held for the table: the other screens are told when
    /// it says it has shown it ([`Games::shown`]), or after [`HELD_MOST`].
    pub(super) fn release_later(self: &Arc<Self>, id: i64, version: u64) {
        let games = Arc::clone(self);
        tokio::spawn(async move {
            tokio::time::sleep(HELD_MOST).await;
            games.shown(id, version);
        });
    }

    /// The table has shown game `id` up to `version`: every other screen is told.
    pub fn shown(&self, id: i64, version: u64) {
        let released = {
            let mut held = self.held.hold();
            let done = held.get(&id).is_some_and(|&h| h <= version);
            if done {
                held.remove(&id);
            }
            done
        };
        if released {
            self.touch(id);
        }
    }
}
