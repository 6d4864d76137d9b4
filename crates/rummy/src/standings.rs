//! Running totals and the end of the game (002): after a round in which someone reached
//! 100 points or more, the highest total wins; a tie for the highest plays another round.

use serde::Serialize;

const TARGET: i32 = 100;

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Standings {
    pub totals: Vec<i32>,
    pub winner: Option<usize>,
    /// Someone reached 100 but the highest totals tie: play another round.
    pub another_round: bool,
}

/// `rounds[r][p]` is player `p`'s score in round `r`.
pub fn standings(players: usize, rounds: &[Vec<i32>]) -> Standings {
    let mut totals = vec![0; players];
    for round in rounds {
        for (total, points) in totals.iter_mut().zip(round) {
            *total += points;
        }
    }
    let best = totals.iter().copied().max().unwrap_or(0);
    let leaders: Vec<usize> = (0..players).filter(|&p| totals[p] == best).collect();
    let over = best >= TARGET;
    Standings {
        winner: (over && leaders.len() == 1).then(|| leaders[0]),
        another_round: over && leaders.len() > 1,
        totals,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_game_ends_after_a_round_that_reaches_a_hundred() {
        let s = standings(3, &[vec![40, 20, 30], vec![50, 35, 20]]);
        assert_eq!((s.winner, s.another_round), (None, false));
        let s = standings(3, &[vec![40, 20, 30], vec![50, 35, 20], vec![12, 60, 5]]);
        assert_eq!(s.totals, [102, 115, 55]);
        assert_eq!(
            s.winner,
            Some(1),
            "the highest total wins, not the first to 100"
        );
    }

    #[test]
    fn a_tie_at_the_top_plays_another_round() {
        let rounds = vec![vec![60, 60], vec![45, 45]];
        let s = standings(2, &rounds);
        assert_eq!((s.winner, s.another_round), (None, true));
        let mut more = rounds.clone();
        more.push(vec![10, 3]);
        assert_eq!(standings(2, &more).winner, Some(0));
    }

    #[test]
    fn a_corrected_round_changes_everything_after_it() {
        let mut rounds = vec![vec![60, 10], vec![45, 20]];
        assert_eq!(standings(2, &rounds).winner, Some(0));
        rounds[0] = vec![30, 10];
        let s = standings(2, &rounds);
        assert_eq!((s.totals.clone(), s.winner), (vec![75, 30], None));
    }
}
