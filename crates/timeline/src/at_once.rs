//! A table acts at once: psychics move their pawns while the ghost hands out visions, so a
//! command often arrives after changes its sender had not yet seen. The rules say what each
//! command depends on and what each event changes ([`AtOnce`]); a command sent on an older
//! version is done on the game as it stands when nothing it depends on changed since
//! ([`Timeline::rebase`]), and refused, saying what changed, only when something did.

use crate::{ChangeKind, Refusal, Roles, Rules, Timeline, refusals};

/// What a rule set's commands depend on, and what its events change.
pub trait AtOnce: Rules {
    /// Something a command may depend on and an event may change: a psychic's pawn, the
    /// phase of the turn, a player's sealed vote.
    type Thing: PartialEq;

    /// What `command` depends on in this game: whether it may be done, and what it does.
    /// Sent on an older version, it is done as the game stands now only if no event since
    /// changed any of these; so two commands that do not share a thing land in either order
    /// to the same game.
    fn depends(&self, command: &Self::Command) -> Vec<Self::Thing>;
    /// What `event` changed, in this game.
    fn changes(&self, event: &Self::Event) -> Vec<Self::Thing>;
    /// The refusal of a command whose `thing` changed meanwhile, in a person's words.
    fn changed(&self, thing: &Self::Thing) -> Refusal;
}

impl<G: Roles + AtOnce> Timeline<G> {
    /// Whether `command`, sent by a screen that showed version `seen`, may be decided on the
    /// game as it stands: at once if nothing changed since; else if every change since was
    /// a command (no undo or redo), still remembered, and none of their events changed what
    /// `command` depends on. A change `by` the same role is no conflict: one person tapping
    /// twice before the first answer came means the second after the first. A screen
    /// further behind, an undo meanwhile or a real conflict is refused, saying which.
    pub fn rebase(&self, command: &G::Command, seen: u64, by: G::Role) -> Result<(), Refusal> {
        let now = self.version();
        if seen == now {
            return Ok(());
        }
        if seen > now {
            return Err(self.stale(seen));
        }
        let since: Vec<_> = self.recent().filter(|c| c.version > seen).collect();
        // Only the changes still remembered can be looked through.
        if since.len() as u64 != now - seen {
            return Err(self.stale(seen));
        }
        let depends = self.game().depends(command);
        for change in since {
            if change.kind != ChangeKind::Done {
                return Err(Refusal::new(refusals::UNDONE_MEANWHILE));
            }
            if change.by.as_ref() == Some(&by) {
                continue;
            }
            for event in &change.events {
                let changes = self.game().changes(event);
                if let Some(thing) = changes.iter().find(|t| depends.contains(t)) {
                    return Err(self.game().changed(thing));
                }
            }
        }
        Ok(())
    }

    /// The refusal of an undo or redo sent by a screen that showed version `seen`: each
    /// depends on everything, as it takes back or brings back the latest change.
    pub fn rewind_seen(&self, seen: u64) -> Result<(), Refusal> {
        if seen == self.version() {
            Ok(())
        } else {
            Err(self.stale(seen))
        }
    }

    /// The refusal of a screen that showed version `seen`, which the game is not at: it
    /// looks again.
    fn stale(&self, seen: u64) -> Refusal {
        Refusal::new(refusals::STALE)
            .with("sent", seen)
            .with("now", self.version())
    }
}
