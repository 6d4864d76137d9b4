//! A person's pace at the table: how many changes one device may make in a row, and how
//! often after that. A device past it is refused ([`refusals::TOO_FAST`], with the seconds
//! to wait) and changes nothing, so no phone can grow a game's journal, nor make every
//! screen knock, faster than play can. The clock is the shell's: the core is handed the
//! time.

use std::time::Duration;

use crate::{Refusal, refusals};

/// What a device does that its pace counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Act {
    /// A change to the game, journaled: a command, an undo or a redo, the sand timer.
    Change,
    /// A knock, which every screen plays.
    Knock,
}

/// `burst` acts in a row, then one every `every`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Pace {
    pub burst: u32,
    pub every: Duration,
}

impl Pace {
    /// A seat's changes: the ghost's visions, a psychic placing and taking back tokens, a
    /// player's vote. A hundred in a row (more than a ghost's phone makes in a whole
    /// game), then one a second: a phone sending changes as fast as it can writes one a
    /// second, where honest play averages one a minute.
    pub const CHANGES: Pace = Pace {
        burst: 100,
        every: Duration::from_secs(1),
    };
    /// Knocks, which every screen plays: one a second, about the time one takes to hear.
    pub const KNOCKS: Pace = Pace {
        burst: 1,
        every: Duration::from_secs(1),
    };
}

/// How far one device has gone into its pace: the time its allowance is spent up to (the
/// generic cell rate algorithm, which needs no timer and no count).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord)]
pub struct Allowance {
    spent_to: Duration,
}

impl Allowance {
    /// Whether nothing of it is spent at `now`: the same as a new one, so it may be let go.
    pub fn is_full(&self, now: Duration) -> bool {
        self.spent_to <= now
    }

    /// Counts one act at `now` (the time since any fixed instant, never going back), or
    /// refuses it with the whole seconds to wait; a refused act counts for nothing.
    pub fn take(&mut self, pace: Pace, now: Duration) -> Result<(), Refusal> {
        let spent_to = self.spent_to.max(now);
        let slack = pace.every.saturating_mul(pace.burst.saturating_sub(1));
        let ahead = spent_to - now;
        if ahead > slack {
            let wait = (ahead - slack).as_nanos().div_ceil(1_000_000_000);
            let wait = u64::try_from(wait).unwrap_or(u64::MAX);
            return Err(Refusal::new(refusals::TOO_FAST).with("seconds", wait));
        }
        self.spent_to = spent_to.saturating_add(pace.every);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MS: fn(u64) -> Duration = Duration::from_millis;

    fn takes(pace: Pace, at: impl IntoIterator<Item = u64>) -> Vec<bool> {
        let mut allowance = Allowance::default();
        at.into_iter()
            .map(|ms| allowance.take(pace, MS(ms)).is_ok())
            .collect()
    }

    #[test]
    fn a_burst_then_one_each_step() {
        let pace = Pace::CHANGES;
        // A hundred at once, the next refused; a second later, one more.
        let at_once = takes(pace, [1000; 101]);
        assert_eq!(at_once.iter().filter(|ok| **ok).count(), 100);
        assert!(!at_once[100]);
        let mut allowance = Allowance::default();
        for _ in 0..100 {
            allowance.take(pace, MS(1000)).unwrap();
        }
        let refused = allowance.take(pace, MS(1000)).unwrap_err();
        assert_eq!(refused.code, refusals::TOO_FAST);
        assert_eq!(refused.param("seconds"), Some(&crate::Param::Number(1)));
        assert!(allowance.take(pace, MS(1999)).is_err());
        assert!(allowance.take(pace, MS(2000)).is_ok());
        assert!(
            allowance.take(pace, MS(2000)).is_err(),
            "refusals spent nothing"
        );
    }

    #[test]
    fn a_person_s_pace_is_never_refused() {
        // A tap every second for an hour.
        assert!(
            takes(Pace::CHANGES, (0..3600).map(|k| k * 1000))
                .iter()
                .all(|ok| *ok)
        );
        assert!(
            takes(Pace::KNOCKS, (0..100).map(|k| k * 1000))
                .iter()
                .all(|ok| *ok)
        );
    }

    #[test]
    fn a_flood_gets_its_burst_and_then_one_each_step() {
        // A thousand acts a second for a minute: the burst, then one a second.
        let taken = takes(Pace::CHANGES, 0..60_000)
            .iter()
            .filter(|ok| **ok)
            .count();
        assert_eq!(taken, 100 + 60 - 1);
        let knocks = takes(Pace::KNOCKS, 0..10_000)
            .iter()
            .filter(|ok| **ok)
            .count();
        assert_eq!(knocks, 10);
    }

    #[test]
    fn the_wait_is_told_in_whole_seconds() {
        let slow = Pace {
            burst: 1,
            every: Duration::from_secs(5),
        };
        let mut allowance = Allowance::default();
        allowance.take(slow, MS(0)).unwrap();
        let refused = allowance.take(slow, MS(1200)).unwrap_err();
        assert_eq!(refused.param("seconds"), Some(&crate::Param::Number(4)));
        // A wait of a nanosecond is still a second to a person.
        let almost = Duration::from_secs(5) - Duration::from_nanos(1);
        let refused = allowance.take(slow, almost).unwrap_err();
        assert_eq!(refused.param("seconds"), Some(&crate::Param::Number(1)));
    }
}
