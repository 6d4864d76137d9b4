//! How far each role of each game has gone into its pace ([`Pace`]), kept beside the games
//! rather than in a game kept in memory: a game let go (reading 65 others pushes it out)
//! and read back must not give its seats a new burst. Bounded: an allowance back to full is
//! the same as none, so those are let go first.

use std::collections::HashMap;
use std::hash::Hash;
use std::time::{Duration, Instant};

use seance_timeline::{Act, Allowance, Pace, Refusal};

use crate::sync::Hold;
use std::sync::Mutex;

/// How many allowances are kept: a role of a game in memory acting both ways, four
/// times over. Past it, the full ones are let go, then the nearest to full.
const KEPT: usize = super::IN_MEMORY * 8 * 2 * 4;

pub struct Paces<R> {
    spent: Mutex<HashMap<(i64, R, Act), Allowance>>,
    /// The clock the allowances are timed by.
    started: Instant,
}

impl<R: Copy + Eq + Hash> Paces<R> {
    pub fn new() -> Paces<R> {
        Paces {
            spent: Mutex::new(HashMap::new()),
            started: Instant::now(),
        }
    }

    /// Counts `role`'s `act` in game `id` against `pace`, or refuses it.
    pub fn take(&self, id: i64, role: R, act: Act, pace: Pace) -> Result<(), Refusal> {
        self.take_at(id, role, act, pace, self.started.elapsed())
    }

    fn take_at(
        &self,
        id: i64,
        role: R,
        act: Act,
        pace: Pace,
        now: Duration,
    ) -> Result<(), Refusal> {
        let mut spent = self.spent.hold();
        if spent.len() >= KEPT && !spent.contains_key(&(id, role, act)) {
            spent.retain(|_, allowance| !allowance.is_full(now));
            if spent.len() >= KEPT
                && let Some(nearest) = spent.iter().min_by_key(|(_, a)| **a).map(|(k, _)| *k)
            {
                spent.remove(&nearest);
            }
        }
        spent.entry((id, role, act)).or_default().take(pace, now)
    }

    #[cfg(test)]
    fn len(&self) -> usize {
        self.spent.hold().len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SECOND: Duration = Duration::from_secs(1);

    #[test]
    fn a_role_of_a_game_keeps_its_pace_and_another_has_its_own() {
        let paces = Paces::new();
        let pace = Pace {
            burst: 2,
            every: SECOND,
        };
        for _ in 0..2 {
            paces.take_at(1, 'a', Act::Change, pace, SECOND).unwrap();
        }
        assert!(paces.take_at(1, 'a', Act::Change, pace, SECOND).is_err());
        paces.take_at(1, 'a', Act::Knock, pace, SECOND).unwrap();
        paces.take_at(1, 'b', Act::Change, pace, SECOND).unwrap();
        paces.take_at(2, 'a', Act::Change, pace, SECOND).unwrap();
    }

    #[test]
    fn past_the_bound_the_full_allowances_go_first_then_the_nearest_to_full() {
        let paces = Paces::new();
        let pace = Pace {
            burst: 2,
            every: SECOND,
        };
        // One spent role, then the rest of the bound in roles that act once.
        for _ in 0..2 {
            paces.take_at(0, 0, Act::Change, pace, SECOND).unwrap();
        }
        for id in 1..KEPT as i64 {
            paces.take_at(id, 0, Act::Change, pace, SECOND).unwrap();
        }
        assert_eq!(paces.len(), KEPT);
        // A second later the ones that acted once are full again and let go; the spent one
        // is kept and still refused.
        paces.take_at(-1, 0, Act::Change, pace, 2 * SECOND).unwrap();
        assert_eq!(paces.len(), 2);
        paces.take_at(0, 0, Act::Change, pace, 2 * SECOND).unwrap();
        assert!(paces.take_at(0, 0, Act::Change, pace, 2 * SECOND).is_err());
        // With none full, the nearest to full goes: the bound holds.
        for id in 1..=KEPT as i64 {
            paces.take_at(id, 1, Act::Change, pace, 2 * SECOND).unwrap();
        }
        assert_eq!(paces.len(), KEPT);
    }
}
