//! The sand timer run for the rules: it runs while the rules say so (Mysterium's
//! interpretation phase) and only then, journaled every [`CHECKPOINT`] while it runs and
//! at a clean stop, and when it runs out that goes to the rules like any command
//! ([`Timed::time_up`](seance_timeline::Timed::time_up)). The table pauses, resumes and
//! resets it, or sets a house rule's length the rules allow. The clock itself is
//! `timer.rs`.

use std::sync::Arc;
use std::time::{Duration, Instant};

use seance_timeline::{Act, Extra, Refusal, Who};
use serde::Deserialize;

use super::timer::{SandTimer, TimerView};
use super::{GameError, Games, Live};
use crate::group_commit::Writer;
use crate::sync::Hold;
use seance_timeline::RuleBook;

/// How often a running sand timer's time left is journaled, so a table that stops finds it
/// paused within this of where it was.
const CHECKPOINT: Duration = Duration::from_secs(5);

/// What the table does with the sand timer.
#[derive(Debug, Clone, Copy, Deserialize)]
#[serde(tag = "action", rename_all = "snake_case")]
pub enum TimerAction {
    Pause,
    Resume,
    /// Back to the full duration, stopped.
    Reset,
    /// A house-rule duration.
    Duration {
        seconds: u64,
    },
}

fn no_timer() -> GameError {
    GameError::Forbidden(Refusal::new(seance_timeline::refusals::NO_TIMER))
}

impl<G: RuleBook> Live<G> {
    /// Journals the sand timer as it is now; a failure is logged, as the entry that moved
    /// it is already on disk and the timer follows from it.
    pub(super) fn keep_timer(&self, id: i64, writer: &Writer) {
        if let Some(timer) = &self.timer
            && let Err(e) = writer
                .journal()
                .save_timer(id, &timer.record(Instant::now()))
        {
            tracing::warn!("game {id}: the sand timer could not be journaled: {e}");
        }
    }
}

impl<G: RuleBook> Games<G> {
    /// Waits for the run to end, journaling its time left every [`CHECKPOINT`] meanwhile,
    /// then [`Games::expire`]s it.
    pub(super) fn expire_at(self: &Arc<Self>, id: i64, (generation, ends): (u64, Instant)) {
        let games = Arc::clone(self);
        tokio::spawn(async move {
            while ends > Instant::now() + CHECKPOINT {
                tokio::time::sleep(CHECKPOINT).await;
                let games = Arc::clone(&games);
                let runs = tokio::task::spawn_blocking(move || games.checkpoint(id, generation))
                    .await
                    .unwrap_or(false);
                if !runs {
                    return;
                }
            }
            tokio::time::sleep_until(ends.into()).await;
            let _ = tokio::task::spawn_blocking(move || games.expire(id, generation)).await;
        });
    }

    /// Journals the time left of run `generation`, if it still runs; says whether it does.
    fn checkpoint(&self, id: i64, generation: u64) -> bool {
        self.with(id, |writer, live| {
            let runs = live.timer.as_ref().is_some_and(|t| t.runs(generation));
            if runs {
                live.keep_timer(id, writer);
            }
            Ok(runs)
        })
        .unwrap_or(false)
    }

    /// The table is stopping: every running sand timer is journaled with its exact time
    /// left, to come back paused there.
    pub fn keep_timers(&self) {
        for (id, game) in self.live.hold().iter() {
            let game = game.hold();
            if game.timer.as_ref().is_some_and(SandTimer::is_running) {
                game.keep_timer(*id, &self.writer);
            }
        }
    }

    /// The sand timer has run out — unless this run was paused or reset meanwhile: carry
    /// that to the rules like any command.
    fn expire(self: &Arc<Self>, id: i64, generation: u64) {
        let ended = self.with(id, |writer, live| {
            let expired = live
                .timer
                .as_ref()
                .is_some_and(|t| t.expired(generation, Instant::now()));
            if live.damage.is_some() || !expired {
                return Ok(false);
            }
            let Some(command) = G::time_up() else {
                return Ok(false);
            };
            let entry = live.timeline.decide(command).map_err(GameError::Rule)?;
            self.commit(id, writer, live, entry, None).map(|_| true)
        });
        match ended {
            Ok(true) => {
                self.touch(id);
            }
            Ok(false) => {}
            Err(e) => tracing::warn!(
                "game {id}: the sand timer ran out but could not end the interpretation: {e:?}"
            ),
        }
    }

    /// Pause, resume, reset or a house-rule duration, if `who` may; returns the timer as it
    /// is now.
    pub fn timer(
        self: &Arc<Self>,
        id: i64,
        who: &Who<G::Role>,
        action: TimerAction,
    ) -> Result<TimerView, GameError> {
        self.may(id, who, Extra::Timer)?;
        let view = self.with(id, |writer, live| {
            let now = Instant::now();
            let runs = live.timeline.game().timer_runs();
            // Changed aside, journaled, then kept: as a command is.
            let mut timer = live.timer.clone().ok_or_else(no_timer)?;
            let mut started = None;
            match action {
                TimerAction::Pause => timer.pause(now),
                TimerAction::Reset => timer.reset(),
                TimerAction::Resume => {
                    if !runs {
                        return Err(GameError::Rule(live.timeline.game().timer_waits()));
                    }
                    started = timer.run(now);
                }
                TimerAction::Duration { seconds } => {
                    timer.set_duration(G::sand_timer_of(seconds).map_err(GameError::Rule)?);
                }
            }
            // Journaled like a change to the game, so at a person's pace.
            self.paced(id, who, Act::Change)?;
            writer.journal().save_timer(id, &timer.record(now))?;
            let view = timer.view(now);
            live.timer = Some(timer);
            if let Some(run) = started {
                self.expire_at(id, run);
            }
            Ok(view)
        })?;
        self.touch(id);
        Ok(view)
    }
}
