//! Counting the straw poll (000 p.12, 003 p.12, 001), with every step recorded so the
//! table can show why a group was chosen.
//!
//! - A group with more votes than any other is chosen.
//! - Otherwise, among the tied groups, the vote of the psychic furthest on the
//!   clairvoyancy track decides. If psychics level on the furthest space voted for
//!   different tied groups, the tie persists, and the printings part ([`Printing`]):
//!   the original rulebook (000, 003) gives it to "the eldest player", wherever they
//!   stand on the track; the later printing (001) to the eldest of those level psychics.
//!   Age is asked only when it decides and was not entered.
//! - **Séance's rule for the cases the rulebooks leave open**: when the furthest psychics
//!   all voted for groups outside the tie, their votes cannot break it, so the decision
//!   passes down the track to the next furthest psychics whose vote is among the tied
//!   groups. Likewise the eldest player decides only with a vote for a group still tied
//!   (one of those the disagreeing furthest psychics chose); an elder who voted elsewhere
//!   passes it to the next eldest, and the count says so. A tied group has at least one
//!   vote, so someone always decides.
//! - The later printing speaks of the "highest Clairvoyancy Level"; Séance reads it, as
//!   the original's "le plus avancé sur la piste", as the furthest space.

use serde::{Deserialize, Serialize};

use crate::setup::Printing;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Ballot {
    pub psychic: usize,
    pub group: u8,
}

/// Why a psychic's vote broke the tie.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Decider {
    /// The furthest on the track among those who voted for a tied group.
    Furthest,
    /// The eldest of the psychics level on that space (the later printing, 001).
    Eldest,
    /// The eldest player whose vote is for a group still tied (the original rulebook,
    /// 000 and 003).
    EldestPlayer,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "step", rename_all = "snake_case")]
pub enum CountStep {
    /// Votes per group, for every group that received any.
    Tally {
        votes: Vec<(u8, usize)>,
    },
    Majority {
        group: u8,
    },
    Tie {
        groups: Vec<u8>,
    },
    /// The psychics on `space`, the furthest still considered, voted outside the tie.
    OutsideTie {
        space: u8,
        psychics: Vec<usize>,
    },
    Decided {
        group: u8,
        by: usize,
        space: u8,
        because: Decider,
    },
    /// The original printing: these psychics, older than the one who decides, voted for no
    /// group still tied (Séance's rule: the decision passes to the next eldest).
    EldersOutsideTie {
        psychics: Vec<usize>,
    },
    /// Age decides among these psychics and was not entered; `because` says which
    /// printing's eldest is asked for.
    AskEldest {
        among: Vec<usize>,
        because: Decider,
    },
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Count {
    pub ballots: Vec<Ballot>,
    pub steps: Vec<CountStep>,
    /// `None` while the eldest must be named.
    pub chosen: Option<u8>,
}

/// What the count needs to know of a psychic besides the vote.
pub struct Voter {
    pub track: u8,
    pub age: Option<u8>,
}

/// Counts `ballots` by the rulebook `printing`; `voters[i]` describes psychic `i`;
/// `eldest` is the answer to an earlier [`CountStep::AskEldest`], if any.
pub fn count(
    ballots: &[Ballot],
    voters: &[Voter],
    printing: Printing,
    eldest: Option<usize>,
) -> Count {
    let first = crate::majority::majority(ballots);
    if first.chosen.is_some() {
        return first;
    }
    let mut steps = first.steps;
    let Some(CountStep::Tie { groups: tied }) = steps.last().cloned() else {
        unreachable!("a count without a majority ends on a tie")
    };
    let done = |steps, chosen| Count {
        ballots: ballots.to_vec(),
        steps,
        chosen,
    };

    let mut spaces: Vec<u8> = ballots.iter().map(|b| voters[b.psychic].track).collect();
    spaces.sort_unstable_by(|a, b| b.cmp(a));
    spaces.dedup();
    for space in spaces {
        let level: Vec<&Ballot> = ballots
            .iter()
            .filter(|b| voters[b.psychic].track == space)
            .collect();
        let inside: Vec<&Ballot> = level
            .iter()
            .copied()
            .filter(|b| tied.contains(&b.group))
            .collect();
        let Some(first) = inside.first() else {
            let psychics = level.iter().map(|b| b.psychic).collect();
            steps.push(CountStep::OutsideTie { space, psychics });
            continue;
        };
        if inside.iter().all(|b| b.group == first.group) {
            steps.push(CountStep::Decided {
                group: first.group,
                by: first.psychic,
                space,
                because: Decider::Furthest,
            });
            return done(steps, Some(first.group));
        }
        // The tie persists: who may break it depends on the printing.
        let chosen = eldest_decides(inside, &mut steps, ballots, voters, printing, eldest);
        return done(steps, chosen);
    }
    unreachable!("a tied group has at least one vote, so some psychic's vote is inside the tie")
}

/// The furthest psychics voted for different tied groups: the eldest breaks the tie, among
/// those the `printing` names, or is asked for.
fn eldest_decides(
    inside: Vec<&Ballot>,
    steps: &mut Vec<CountStep>,
    ballots: &[Ballot],
    voters: &[Voter],
    printing: Printing,
    eldest: Option<usize>,
) -> Option<u8> {
    let (candidates, because): (Vec<&Ballot>, Decider) = match printing {
        Printing::Later => (inside, Decider::Eldest),
        Printing::Original => {
            let still_tied: Vec<u8> = inside.iter().map(|b| b.group).collect();
            let anywhere = ballots
                .iter()
                .filter(|b| still_tied.contains(&b.group))
                .collect();
            (anywhere, Decider::EldestPlayer)
        }
    };
    let among: Vec<usize> = candidates.iter().map(|b| b.psychic).collect();
    let eldest = eldest
        .filter(|e| among.contains(e))
        .or_else(|| eldest_by_age(&among, voters));
    match eldest.and_then(|e| candidates.iter().find(|b| b.psychic == e)) {
        Some(b) => {
            let elders = elders_outside(b.psychic, &candidates, ballots, voters);
            if because == Decider::EldestPlayer && !elders.is_empty() {
                steps.push(CountStep::EldersOutsideTie { psychics: elders });
            }
            steps.push(CountStep::Decided {
                group: b.group,
                by: b.psychic,
                space: voters[b.psychic].track,
                because,
            });
            Some(b.group)
        }
        None => {
            steps.push(CountStep::AskEldest { among, because });
            None
        }
    }
}

/// The psychics known to be older than `decider` whose votes are not among `candidates`.
fn elders_outside(
    decider: usize,
    candidates: &[&Ballot],
    ballots: &[Ballot],
    voters: &[Voter],
) -> Vec<usize> {
    let Some(age) = voters[decider].age else {
        return Vec::new();
    };
    ballots
        .iter()
        .filter(|b| !candidates.iter().any(|c| c.psychic == b.psychic))
        .filter(|b| voters[b.psychic].age.is_some_and(|a| a > age))
        .map(|b| b.psychic)
        .collect()
}

/// The eldest of `among` when every age is known and one is strictly the greatest.
fn eldest_by_age(among: &[usize], voters: &[Voter]) -> Option<usize> {
    let ages: Option<Vec<(u8, usize)>> = among
        .iter()
        .map(|&p| voters[p].age.map(|a| (a, p)))
        .collect();
    let mut ages = ages?;
    ages.sort_unstable_by(|a, b| b.cmp(a));
    match ages[..] {
        [(a, p), (b, _), ..] if a > b => Some(p),
        [(_, p)] => Some(p),
        _ => None,
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    fn voters(tracks: &[u8]) -> Vec<Voter> {
        tracks
            .iter()
            .map(|&track| Voter { track, age: None })
            .collect()
    }

    /// A ballot for each of `groups`, psychic 0 first: what the counts' tests vote.
    pub(crate) fn ballots(groups: &[u8]) -> Vec<Ballot> {
        groups
            .iter()
            .enumerate()
            .map(|(psychic, &group)| Ballot { psychic, group })
            .collect()
    }

    #[test]
    fn a_plurality_wins() {
        let c = count(
            &ballots(&[2, 2, 1, 3]),
            &voters(&[4, 5, 6, 11]),
            Printing::Original,
            None,
        );
        assert_eq!(c.chosen, Some(2));
        assert_eq!(c.steps[1], CountStep::Majority { group: 2 });
    }

    #[test]
    fn the_furthest_psychic_breaks_a_tie() {
        // The rulebook's track: Stephanie 4, Alex 5, Carl 6, Paul 11. Paul, on 11, decides.
        let c = count(
            &ballots(&[1, 1, 3, 3]),
            &voters(&[4, 5, 6, 11]),
            Printing::Original,
            None,
        );
        assert_eq!(c.chosen, Some(3));
        assert!(matches!(
            c.steps.last(),
            Some(CountStep::Decided {
                by: 3,
                because: Decider::Furthest,
                ..
            })
        ));
    }

    #[test]
    fn level_furthest_psychics_who_agree_decide_together() {
        let c = count(
            &ballots(&[1, 2, 2, 1]),
            &voters(&[3, 8, 8, 2]),
            Printing::Original,
            None,
        );
        assert_eq!(c.chosen, Some(2));
    }

    #[test]
    fn the_later_printing_asks_the_eldest_of_the_level_furthest() {
        let mut v = voters(&[3, 8, 8, 2]);
        let b = ballots(&[2, 1, 2, 1]);
        let later = |v: &[Voter], eldest| count(&b, v, Printing::Later, eldest);
        // Psychics 1 and 2 share space 8 and voted 1 and 2: age decides, and is unknown.
        let asked = later(&v, None);
        assert_eq!(asked.chosen, None);
        assert_eq!(
            asked.steps.last(),
            Some(&CountStep::AskEldest {
                among: vec![1, 2],
                because: Decider::Eldest
            })
        );
        // Named by the table…
        assert_eq!(later(&v, Some(1)).chosen, Some(1));
        // …or known from the ages entered at setup.
        v[1].age = Some(30);
        v[2].age = Some(41);
        let known = later(&v, None);
        assert_eq!(known.chosen, Some(2));
        assert!(matches!(
            known.steps.last(),
            Some(CountStep::Decided {
                by: 2,
                because: Decider::Eldest,
                ..
            })
        ));
        // Equal ages cannot decide: ask.
        v[1].age = Some(41);
        assert_eq!(later(&v, None).chosen, None);
    }

    #[test]
    fn the_original_printing_gives_a_persisting_tie_to_the_eldest_player() {
        // 000 p.12, 003 p.12: "it is broken in favour of the group for which the eldest
        // player voted". Psychics 1 and 2 level on 8 voted 1 and 2; the eldest of all,
        // psychic 3 on space 2, voted 1, so group 1 it is, where 001's reading (the eldest
        // of the two on space 8, psychic 2) would choose group 2.
        let mut v = voters(&[3, 8, 8, 2]);
        for (p, age) in [30, 40, 50, 70].into_iter().enumerate() {
            v[p].age = Some(age);
        }
        let b = ballots(&[2, 1, 2, 1]);
        let original = count(&b, &v, Printing::Original, None);
        assert_eq!(original.chosen, Some(1));
        assert_eq!(
            original.steps.last(),
            Some(&CountStep::Decided {
                group: 1,
                by: 3,
                space: 2,
                because: Decider::EldestPlayer
            })
        );
        assert_eq!(count(&b, &v, Printing::Later, None).chosen, Some(2));
        // Without ages the table is asked among every psychic whose vote is still tied.
        let asked = count(&b, &voters(&[3, 8, 8, 2]), Printing::Original, None);
        assert_eq!(
            asked.steps.last(),
            Some(&CountStep::AskEldest {
                among: vec![0, 1, 2, 3],
                because: Decider::EldestPlayer
            })
        );
    }

    #[test]
    fn an_eldest_player_who_voted_outside_the_tie_passes_it_on() {
        // Groups 1 and 2 tie (two votes each); psychics 1 and 2 on 8 split them. The eldest
        // of all, psychic 4, voted 3: outside the tie, so the next eldest, psychic 0, decides.
        let mut v = voters(&[3, 8, 8, 2, 1]);
        for (p, age) in [60, 20, 30, 40, 80].into_iter().enumerate() {
            v[p].age = Some(age);
        }
        let c = count(&ballots(&[2, 1, 2, 1, 3]), &v, Printing::Original, None);
        assert_eq!(c.chosen, Some(2));
        assert!(
            c.steps
                .contains(&CountStep::EldersOutsideTie { psychics: vec![4] })
        );
        assert!(matches!(
            c.steps.last(),
            Some(CountStep::Decided {
                by: 0,
                because: Decider::EldestPlayer,
                ..
            })
        ));
    }

    #[test]
    fn a_furthest_vote_outside_the_tie_passes_the_decision_down() {
        // Groups 1 and 2 tie with two votes; the furthest psychic (11) voted for 3.
        let c = count(
            &ballots(&[1, 1, 2, 2, 3]),
            &voters(&[1, 2, 6, 3, 11]),
            Printing::Original,
            None,
        );
        assert_eq!(c.chosen, Some(2));
        assert!(c.steps.contains(&CountStep::OutsideTie {
            space: 11,
            psychics: vec![4]
        }));
        assert!(matches!(
            c.steps.last(),
            Some(CountStep::Decided {
                by: 2,
                space: 6,
                ..
            })
        ));
    }

    #[test]
    fn a_three_way_tie_is_broken_like_a_two_way_one() {
        let c = count(
            &ballots(&[1, 2, 3]),
            &voters(&[0, 9, 4]),
            Printing::Original,
            None,
        );
        assert_eq!(
            c.steps[1],
            CountStep::Tie {
                groups: vec![1, 2, 3]
            }
        );
        assert_eq!(c.chosen, Some(2));
    }
}
