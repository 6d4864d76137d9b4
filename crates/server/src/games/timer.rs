//! The sand timer's clock. The rules say when it runs (the core's interpretation phase);
//! this keeps its time on the server's monotonic clock, so every screen shows the same
//! second and a screen that slept wakes to the right time. It is journaled as a
//! [`TimerRecord`]: a table that stopped while it ran finds it paused where it was.

use std::time::{Duration, Instant};

use seance_journal::TimerRecord;
use serde::Serialize;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum State {
    /// Not started (or reset): the full duration is left.
    Idle,
    Running {
        ends: Instant,
    },
    Paused {
        left: Duration,
    },
}

#[derive(Debug, Clone)]
pub struct SandTimer {
    duration: Duration,
    state: State,
    /// Changes whenever the timer is stopped or restarted, so a pending expiry of an
    /// earlier run knows it is stale.
    generation: u64,
    /// Paused because the table stopped while it ran (a crash, a closed window): screens
    /// say so until it runs again.
    interrupted: bool,
}

/// What screens show: they count down from `remaining_ms` on their own clock while
/// `running`, and ask again when they wake.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct TimerView {
    pub duration_ms: u64,
    pub remaining_ms: u64,
    pub running: bool,
    /// Paused by the table stopping, not by a person.
    pub interrupted: bool,
}

impl SandTimer {
    /// Stopped, at the length the game was set up with.
    pub fn new(duration: Duration) -> SandTimer {
        SandTimer {
            duration,
            state: State::Idle,
            generation: 0,
            interrupted: false,
        }
    }

    /// The timer as it was written: one that was running comes back paused where it was,
    /// and says it was interrupted.
    pub fn restore(record: TimerRecord) -> SandTimer {
        let duration = Duration::from_millis(record.duration_ms);
        let left = Duration::from_millis(record.left_ms).min(duration);
        let state = if record.running || left < duration {
            State::Paused { left }
        } else {
            State::Idle
        };
        SandTimer {
            duration,
            state,
            generation: 0,
            interrupted: record.running,
        }
    }

    /// What to journal of it now.
    pub fn record(&self, now: Instant) -> TimerRecord {
        TimerRecord {
            duration_ms: self.duration.as_millis() as u64,
            left_ms: self.remaining(now).as_millis() as u64,
            running: self.is_running(),
        }
    }

    /// The run `generation` is the current one and still running.
    pub fn runs(&self, generation: u64) -> bool {
        generation == self.generation && self.is_running()
    }

    pub fn is_running(&self) -> bool {
        matches!(self.state, State::Running { .. })
    }

    pub fn remaining(&self, now: Instant) -> Duration {
        match self.state {
            State::Idle => self.duration,
            State::Running { ends } => ends.saturating_duration_since(now),
            State::Paused { left } => left,
        }
    }

    pub fn view(&self, now: Instant) -> TimerView {
        TimerView {
            duration_ms: self.duration.as_millis() as u64,
            remaining_ms: self.remaining(now).as_millis() as u64,
            running: self.is_running(),
            interrupted: self.interrupted,
        }
    }

    pub fn is_idle(&self) -> bool {
        self.state == State::Idle
    }

    /// Starts (or resumes) the countdown; returns the run's generation and end for the
    /// expiry to wait on. `None` if it was already running.
    pub fn run(&mut self, now: Instant) -> Option<(u64, Instant)> {
        if self.is_running() {
            return None;
        }
        let ends = now + self.remaining(now);
        self.state = State::Running { ends };
        self.interrupted = false;
        self.generation += 1;
        Some((self.generation, ends))
    }

    pub fn pause(&mut self, now: Instant) {
        if let State::Running { .. } = self.state {
            self.state = State::Paused {
                left: self.remaining(now),
            };
            self.generation += 1;
        }
    }

    /// The timer as a game's phase leaves it, when that moves it: it runs while the rules
    /// say so (Mysterium's interpretation phase), and only then. With the run to wait on
    /// when it starts.
    pub fn follow(&self, runs: bool, now: Instant) -> Option<(SandTimer, Option<(u64, Instant)>)> {
        let mut next = self.clone();
        if !runs && !self.is_idle() {
            next.reset();
            Some((next, None))
        } else if runs && self.is_idle() {
            let run = next.run(now);
            Some((next, run))
        } else {
            None
        }
    }

    /// Back to the full duration, stopped.
    pub fn reset(&mut self) {
        self.state = State::Idle;
        self.interrupted = false;
        self.generation += 1;
    }

    /// A house rule: takes effect at once when the timer is not running.
    pub fn set_duration(&mut self, duration: Duration) {
        self.duration = duration;
        if !self.is_running() {
            self.reset();
        }
    }

    /// Whether the run `generation` is the current one and has reached its end.
    pub fn expired(&self, generation: u64, now: Instant) -> bool {
        generation == self.generation
            && matches!(self.state, State::Running { ends } if ends <= now)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn it_counts_down_pauses_resumes_and_expires_on_the_monotonic_clock() {
        let t0 = Instant::now();
        let mut timer = SandTimer::new(Duration::from_secs(120));
        assert_eq!(
            timer.view(t0),
            TimerView {
                duration_ms: 120_000,
                remaining_ms: 120_000,
                running: false,
                interrupted: false
            }
        );
        let (first, ends) = timer.run(t0).unwrap();
        assert_eq!(ends, t0 + Duration::from_secs(120));
        assert!(timer.run(t0).is_none(), "already running");
        assert_eq!(
            timer.view(t0 + Duration::from_secs(30)).remaining_ms,
            90_000
        );
        timer.pause(t0 + Duration::from_secs(30));
        assert_eq!(
            timer.view(t0 + Duration::from_secs(500)).remaining_ms,
            90_000,
            "paused time stands still"
        );
        let (second, ends) = timer.run(t0 + Duration::from_secs(40)).unwrap();
        assert_eq!(ends, t0 + Duration::from_secs(130));
        assert!(
            !timer.expired(first, ends),
            "a run stopped earlier never expires"
        );
        assert!(!timer.expired(second, ends - Duration::from_millis(1)));
        assert!(timer.expired(second, ends));
        timer.reset();
        assert!(!timer.expired(second, ends));
        assert!(timer.is_idle());
    }

    #[test]
    fn a_running_timer_comes_back_paused_where_it_was_written() {
        let t0 = Instant::now();
        let mut timer = SandTimer::new(Duration::from_secs(90));
        timer.run(t0);
        let written = timer.record(t0 + Duration::from_secs(25));
        assert_eq!(
            written,
            TimerRecord {
                duration_ms: 90_000,
                left_ms: 65_000,
                running: true
            }
        );
        let mut back = SandTimer::restore(written);
        let later = t0 + Duration::from_secs(600);
        let view = back.view(later);
        assert_eq!((view.remaining_ms, view.running), (65_000, false));
        assert!(view.interrupted, "the screens say why it is paused");
        assert!(back.run(later).is_some());
        assert!(
            !back.view(later).interrupted,
            "running again, nothing to say"
        );
        // Paused by a person, or never started: back as it was, nothing interrupted.
        timer.pause(t0 + Duration::from_secs(30));
        let paused = SandTimer::restore(timer.record(later));
        assert_eq!(paused.view(later).remaining_ms, 60_000);
        assert!(!paused.view(later).interrupted);
        let idle = SandTimer::restore(SandTimer::new(Duration::from_secs(90)).record(later));
        assert!(idle.is_idle());
    }

    #[test]
    fn a_house_rule_duration_applies_when_stopped() {
        let now = Instant::now();
        let mut timer = SandTimer::new(Duration::from_secs(120));
        timer.set_duration(Duration::from_secs(90));
        assert_eq!(timer.view(now).remaining_ms, 90_000);
        timer.run(now);
        timer.set_duration(Duration::from_secs(30));
        assert_eq!(
            timer.view(now).remaining_ms,
            90_000,
            "a running timer keeps its run"
        );
        timer.reset();
        assert_eq!(timer.view(now).remaining_ms, 30_000);
    }
}
