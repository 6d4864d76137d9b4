//! A change made: decided by the rules (on the version its device saw, unless what it
//! depends on changed since), written to the journal, and only then applied and
//! acknowledged; an undo or a redo the same way. A repeated tap is acknowledged once.

use std::sync::Arc;
use std::time::Instant;

use seance_journal::{Append, JournalError};
use seance_timeline::{Act, Entry, EntryOf, Extra, RuleBook, Timeline, TimelineError, Who};

use super::timer::SandTimer;
use super::{Acted, GameError, Games, Live, RECENT};
use crate::group_commit::Writer;
use crate::sync::Hold;

/// A command made: its version, and whether the other screens wait for the table to show
/// it ([`Games::shown`]).
#[derive(Debug, Clone, Copy)]
pub struct Made {
    pub version: u64,
    pub held: bool,
}

/// What a change came with: its action id, and whether the table shows it first.
struct Sent {
    action: Option<String>,
    held: bool,
}

/// The undo and redo requests, which share every step but the entry.
#[derive(Debug, Clone, Copy)]
pub enum Rewind {
    Undo,
    Redo,
}

impl<G: RuleBook> Games<G> {
    /// Decides, journals, applies: in that order, so an acknowledged command is on disk.
    /// The rules first say whether `who` may send it at all. A command whose `action` id
    /// the same device already had done (a repeated tap, a retried request) is then
    /// acknowledged with the version it made, and not done again.
    pub fn command(
        self: &Arc<Self>,
        id: i64,
        version: u64,
        who: &Who<G::Role>,
        command: G::Command,
        action: Option<String>,
    ) -> Result<Made, GameError> {
        let permitted = |timeline: &Timeline<G>| {
            timeline
                .game()
                .permit(who, &command)
                .map_err(GameError::Forbidden)
        };
        // What the table reads out is the table's to show first.
        let held = matches!(who, Who::Table { .. }) && G::shown_by_the_table(&command);
        let sent = Sent { action, held };
        let made = self.write(id, sent, who, permitted, |timeline| {
            // Sent on an older version, it lands unless what it depends on changed since.
            (timeline.rebase(&command, version, who.role())).map_err(GameError::Conflict)?;
            timeline.decide(command.clone()).map_err(GameError::Rule)
        })?;
        if made.held {
            self.release_later(id, made.version);
        } else {
            self.touch(id);
        }
        Ok(made)
    }

    pub fn rewind(
        self: &Arc<Self>,
        id: i64,
        version: u64,
        who: &Who<G::Role>,
        how: Rewind,
    ) -> Result<u64, GameError> {
        let extra = match how {
            Rewind::Undo => Extra::Undo,
            Rewind::Redo => Extra::Redo,
        };
        self.may(id, who, extra)?;
        let sent = Sent {
            action: None,
            held: false,
        };
        let made = self.write(
            id,
            sent,
            who,
            |_| Ok(()),
            |timeline| {
                timeline.rewind_seen(version).map_err(GameError::Conflict)?;
                match how {
                    Rewind::Undo if !timeline.can_undo() => {
                        Err(GameError::Timeline(TimelineError::NothingToUndo))
                    }
                    Rewind::Redo if !timeline.can_redo() => {
                        Err(GameError::Timeline(TimelineError::NothingToRedo))
                    }
                    Rewind::Undo => Ok(Entry::Undo),
                    Rewind::Redo => Ok(Entry::Redo),
                }
            },
        )?;
        self.touch(id);
        Ok(made.version)
    }

    /// Adds an entry to the game's history from `who`, once `permitted` says `who` may ask
    /// for it at all and within its pace: on disk first, then in memory. `entry` says
    /// whether it may still be done on the game as it stands (`Timeline::rebase`). The
    /// screens are told by the caller.
    fn write(
        self: &Arc<Self>,
        id: i64,
        Sent { action, held }: Sent,
        who: &Who<G::Role>,
        permitted: impl FnOnce(&Timeline<G>) -> Result<(), GameError>,
        entry: impl FnOnce(&Timeline<G>) -> Result<EntryOf<G>, GameError>,
    ) -> Result<Made, GameError> {
        let by = who.role();
        self.with(id, |writer, live| {
            permitted(&live.timeline)?;
            if let Some(done) = action
                .as_ref()
                .and_then(|a| live.acted.iter().find(|d| d.by == by && &d.action == a))
            {
                // Sent again (its answer lost): still held, the table still says when shown.
                let held = self.held.hold().get(&id) == Some(&done.made);
                return Ok(Made {
                    version: done.made,
                    held,
                });
            }
            if let Some(d) = &live.damage {
                return Err(GameError::Journal(JournalError::Damaged {
                    game: id,
                    seq: d.seq,
                }));
            }
            let now = live.timeline.version();
            let entry = entry(&live.timeline)?;
            let made = self.commit(id, writer, live, entry, Some(who))?;
            // Held before the game's lock is let go, so that no change told meanwhile tells
            // it; a command that changed nothing holds nothing.
            let held = held && made > now;
            if held {
                self.held.hold().insert(id, made);
            }
            if let Some(action) = action {
                live.acted.push_back(Acted { by, action, made });
                if live.acted.len() > RECENT {
                    live.acted.pop_front();
                }
            }
            Ok(Made {
                version: made,
                held,
            })
        })
    }

    /// Journals `entry`, then applies it, then lets the sand timer follow the phase, unless
    /// it changes nothing. `who` sent it, at their pace (none: the sand running out).
    pub(super) fn commit(
        self: &Arc<Self>,
        id: i64,
        writer: &Writer,
        live: &mut Live<G>,
        entry: EntryOf<G>,
        who: Option<&Who<G::Role>>,
    ) -> Result<u64, GameError> {
        let next = live.timeline.after(entry).map_err(GameError::Timeline)?;
        // A command that changes nothing (a level stated again, say) is acknowledged as
        // done and neither written nor kept: a repeated tap adds nothing to the history.
        if matches!(next.entry(), Entry::Command { .. }) && next.game() == live.timeline.game() {
            return Ok(live.timeline.version());
        }
        // Only what is written is counted: a refusal, a repeat, costs nothing.
        if let Some(who) = who {
            self.paced(id, who, Act::Change)?;
        }
        let by = who.map(Who::role);
        // Most commands leave the sand alone; one that moves it writes it with itself.
        let runs = next.game().timer_runs();
        let follow = |timer: &SandTimer, now| timer.follow(runs, now);
        let now = Instant::now();
        let kept = (live.timer.as_ref())
            .and_then(|t| follow(t, now))
            .map(|(timer, _)| timer.record(now));
        writer.append(
            Append::new(
                id,
                live.timeline.version() + 1,
                next.entry(),
                next.game().status(),
                by.map(|role| role.to_string()).as_deref(),
            )
            .with_record(next.game().record())
            .with_timer(kept),
        )?;
        live.timeline.record(next, by);
        // Started once written: a wait for the disk takes no sand.
        if let Some((timer, started)) = live.timer.as_ref().and_then(|t| follow(t, Instant::now()))
        {
            live.timer = Some(timer);
            if let Some(run) = started {
                self.expire_at(id, run);
            }
        }
        Ok(live.timeline.version())
    }
}
