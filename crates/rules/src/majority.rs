//! The mediums' decision in the new edition's revelation (RULES.md §2; 004 p.8): they
//! talk and agree on one trace; failing a consensus, the majority decides.
//!
//! The majority is counted here, and classic's straw poll begins with the same count.
//! **Séance's rule where the rulebook is silent**: when the votes tie, there is no
//! majority, so the votes are taken back and the mediums talk again, then agree or vote
//! again.

use std::collections::BTreeMap;

use crate::straw_poll::{Ballot, Count, CountStep};

/// Counts `ballots`: the group with more votes than any other, if there is one; otherwise
/// the steps end on the tie and nothing is chosen.
pub fn majority(ballots: &[Ballot]) -> Count {
    let mut tally: BTreeMap<u8, usize> = BTreeMap::new();
    for b in ballots {
        *tally.entry(b.group).or_default() += 1;
    }
    let most = tally.values().copied().max().unwrap_or(0);
    let tied: Vec<u8> = tally
        .iter()
        .filter(|(_, n)| **n == most)
        .map(|(&g, _)| g)
        .collect();
    let decided = match tied[..] {
        [group] => CountStep::Majority { group },
        _ => CountStep::Tie { groups: tied },
    };
    Count {
        ballots: ballots.to_vec(),
        chosen: match decided {
            CountStep::Majority { group } => Some(group),
            _ => None,
        },
        steps: vec![
            CountStep::Tally {
                votes: tally.into_iter().collect(),
            },
            decided,
        ],
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::straw_poll::tests::ballots;

    #[test]
    fn more_votes_than_any_other_decide_and_a_tie_decides_nothing() {
        let count = majority(&ballots(&[2, 3, 2]));
        assert_eq!(count.chosen, Some(2));
        assert_eq!(
            count.steps[0],
            CountStep::Tally {
                votes: vec![(2, 2), (3, 1)]
            }
        );
        // Two of five is a majority when no other trace has as many.
        assert_eq!(majority(&ballots(&[1, 1, 2, 3, 4])).chosen, Some(1));
        let tie = majority(&ballots(&[1, 2, 1, 2]));
        assert_eq!(tie.chosen, None);
        assert_eq!(tie.steps[1], CountStep::Tie { groups: vec![1, 2] });
    }
}
