//! A round's scores (002, "Les points"), from what the players read off their cards.
//!
//! Ripper caught (a player's last card went out, Police Chief Resigns included): each
//! player scores the cards in front of them, Jack's doubled and Letters never, the Alibi in
//! play included (its suspect cannot be Jack, so it is never doubled); loses the cards left
//! in hand that cost points (Evidence and Alibi cards that could not be played on a set in
//! play, Scenes, Victims) and 2 per Victim in play when holding Ripper Escapes; and gains
//! 10 for a right vote. Ripper escaped (Ripper Escapes played, the draw pile out a second
//! time, or nobody who can be Jack): no Jack, 35 for whoever played Ripper Escapes, and
//! only Victim and Scene cards score — nothing else, no hand penalty.

use serde::{Deserialize, Serialize};

use crate::jack::JackStep;
use crate::jack::{Verdict, who_is_jack};
use crate::suspects::{MOST_PRINTED, RIPPER_ESCAPES, Suspicion};

const PER_VICTIM_HELD: i32 = 2;
const RIGHT_VOTE: i32 = 10;
/// No cards are worth more: the whole deck of 62 at the most any card prints.
pub const MOST_POINTS: u32 = 62 * MOST_PRINTED;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "how", rename_all = "snake_case")]
pub enum Ending {
    /// A player discarded their last card.
    LastCard,
    /// Police Chief Resigns forced a player's last card out.
    PoliceChiefResigns,
    /// Ripper Escapes was played (only once all five Victims are in play).
    RipperEscapes { by: usize },
    /// The draw pile ran out a second time.
    DrawPileOutTwice,
}

impl Ending {
    /// Every way a round of `players` may end, Ripper Escapes once for each who may have
    /// played it: the round's form offers these.
    pub fn every(players: usize) -> Vec<Ending> {
        let escapes = (0..players).map(|by| Ending::RipperEscapes { by });
        [Ending::LastCard, Ending::PoliceChiefResigns]
            .into_iter()
            .chain(escapes)
            .chain([Ending::DrawPileOutTwice])
            .collect()
    }

    /// Whether the round ended with the Ripper caught: scored with a Jack, unless nobody on
    /// the table can be Jack.
    pub fn catches(self) -> bool {
        matches!(self, Ending::LastCard | Ending::PoliceChiefResigns)
    }
}

/// What one player reads off the cards at the end of a round.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlayerCards {
    /// Points in front of the player on each suspect: evidence, jokers played on them, and
    /// the suspect's card.
    pub on_suspects: [u32; 6],
    pub letters: u32,
    /// Points of the Alibi in play, when it lies in front of this player.
    #[serde(default)]
    pub alibi: u32,
    pub victims_and_scenes: u32,
    /// Points of the cards left in hand that cost points.
    #[serde(default)]
    pub hand: u32,
    #[serde(default)]
    pub holds_ripper_escapes: bool,
    /// The suspect named in this round's vote, if there was one.
    #[serde(default)]
    pub vote: Option<usize>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Round {
    pub ending: Ending,
    /// The suspect whose Alibi is in play (only one at a time).
    pub alibi: Option<usize>,
    pub victims_in_play: u8,
    pub players: Vec<PlayerCards>,
}

/// One line of a player's score, so the table can see how it was reached.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "line", rename_all = "snake_case")]
pub enum Line {
    Suspect {
        suspect: usize,
        points: i32,
        doubled: bool,
    },
    Letters {
        points: i32,
    },
    /// The Alibi in play, in front of this player.
    Alibi {
        suspect: usize,
        points: i32,
    },
    VictimsAndScenes {
        points: i32,
    },
    Hand {
        points: i32,
    },
    RipperEscapesHeld {
        victims: u8,
        points: i32,
    },
    Vote {
        suspect: usize,
        points: i32,
    },
    RipperEscapes {
        points: i32,
    },
}

impl Line {
    fn points(&self) -> i32 {
        match *self {
            Line::Suspect { points, .. }
            | Line::Letters { points }
            | Line::Alibi { points, .. }
            | Line::VictimsAndScenes { points }
            | Line::Hand { points }
            | Line::RipperEscapesHeld { points, .. }
            | Line::Vote { points, .. }
            | Line::RipperEscapes { points } => points,
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct PlayerScore {
    pub points: i32,
    pub lines: Vec<Line>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Scored {
    /// Who is Jack and why; `jack` is `None` when the Ripper escaped.
    pub verdict: Verdict,
    pub escaped: bool,
    pub players: Vec<PlayerScore>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ScoreError(pub String);

impl std::fmt::Display for ScoreError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for ScoreError {}

fn check(round: &Round) -> Result<(), ScoreError> {
    let fail = |why: String| Err(ScoreError(why));
    let n = round.players.len();
    if !(2..=4).contains(&n) {
        return fail(format!(
            "Mystery Rummy is for 2 to 4 players; this round has {n}"
        ));
    }
    if round.victims_in_play > 5 {
        return fail(format!(
            "there are five Victims, not {}",
            round.victims_in_play
        ));
    }
    if round.players.iter().any(|p| {
        p.on_suspects
            .iter()
            .chain([&p.letters, &p.alibi, &p.victims_and_scenes, &p.hand])
            .any(|&points| points > MOST_POINTS)
    }) {
        return fail(format!("no cards are worth more than {MOST_POINTS} points"));
    }
    if round.alibi.is_some_and(|a| a >= 6)
        || round.players.iter().any(|p| p.vote.is_some_and(|v| v >= 6))
    {
        return fail("suspects are numbered 0 to 5".into());
    }
    if let Ending::RipperEscapes { by } = round.ending {
        if by >= n {
            return fail(format!("players are numbered 0 to {}", n - 1));
        }
        if round.victims_in_play != 5 {
            return fail(format!(
                "Ripper Escapes can be played only once all five Victims are in play ({} are)",
                round.victims_in_play
            ));
        }
    }
    Ok(())
}

pub fn score(round: &Round, suspicion: &Suspicion) -> Result<Scored, ScoreError> {
    check(round)?;
    let mut on_table = [0u32; 6];
    for p in &round.players {
        for (s, points) in p.on_suspects.iter().enumerate() {
            on_table[s] += points;
        }
    }
    // An escape ending names no Jack: who leads on the table does not matter then.
    let verdict = if round.ending.catches() {
        who_is_jack(on_table, round.alibi, suspicion)
    } else {
        Verdict {
            jack: None,
            steps: vec![JackStep::Escaped],
        }
    };
    let jack = verdict.jack;
    let players = round
        .players
        .iter()
        .enumerate()
        .map(|(i, p)| {
            let lines = match jack {
                Some(jack) => caught_lines(p, jack, round.alibi, round.victims_in_play),
                None => escaped_lines(p, round.ending == Ending::RipperEscapes { by: i }),
            };
            PlayerScore {
                points: lines.iter().map(Line::points).sum(),
                lines,
            }
        })
        .collect();
    Ok(Scored {
        escaped: jack.is_none(),
        verdict,
        players,
    })
}

fn caught_lines(p: &PlayerCards, jack: usize, alibi: Option<usize>, victims: u8) -> Vec<Line> {
    let mut lines: Vec<Line> = (0..6)
        .filter(|&s| p.on_suspects[s] > 0)
        .map(|s| {
            let doubled = s == jack;
            let points = p.on_suspects[s] as i32 * if doubled { 2 } else { 1 };
            Line::Suspect {
                suspect: s,
                points,
                doubled,
            }
        })
        .collect();
    lines.push(Line::Letters {
        points: p.letters as i32,
    });
    if let Some(suspect) = alibi.filter(|_| p.alibi > 0) {
        lines.push(Line::Alibi {
            suspect,
            points: p.alibi as i32,
        });
    }
    lines.push(Line::VictimsAndScenes {
        points: p.victims_and_scenes as i32,
    });
    lines.push(Line::Hand {
        points: -(p.hand as i32),
    });
    if p.holds_ripper_escapes {
        lines.push(Line::RipperEscapesHeld {
            victims,
            points: -PER_VICTIM_HELD * victims as i32,
        });
    }
    if let Some(suspect) = p.vote {
        lines.push(Line::Vote {
            suspect,
            points: if suspect == jack { RIGHT_VOTE } else { 0 },
        });
    }
    lines.retain(|l| l.points() != 0 || matches!(l, Line::Vote { .. } | Line::Suspect { .. }));
    lines
}

fn escaped_lines(p: &PlayerCards, played_it: bool) -> Vec<Line> {
    let mut lines = vec![Line::VictimsAndScenes {
        points: p.victims_and_scenes as i32,
    }];
    if played_it {
        lines.push(Line::RipperEscapes {
            points: RIPPER_ESCAPES as i32,
        });
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    const DRUITT: usize = 0;
    const PEDACHENKO: usize = 3;
    const JILL: usize = 5;

    /// The rulebook's scoring example, split between two players.
    fn example(ending: Ending) -> Round {
        let mut ann = PlayerCards {
            letters: 2 * 3,
            victims_and_scenes: 5,
            ..Default::default()
        };
        ann.on_suspects[DRUITT] = 5 * 2;
        ann.vote = Some(DRUITT);
        let mut ben = PlayerCards {
            victims_and_scenes: 4,
            hand: 3 * 2 + 3,
            ..Default::default()
        };
        ben.on_suspects[JILL] = 3 * 2 + 4;
        ben.vote = Some(JILL);
        Round {
            ending,
            alibi: None,
            victims_in_play: 3,
            players: vec![ann, ben],
        }
    }

    #[test]
    fn jacks_cards_are_doubled_letters_never_and_a_right_vote_earns_ten() {
        let scored = score(&example(Ending::LastCard), &Suspicion::default()).unwrap();
        assert_eq!(scored.verdict.jack, Some(DRUITT));
        // Ann: Druitt 10 doubled = 20, Letters 6 (not doubled), Victims and Scenes 5, vote +10.
        assert_eq!(scored.players[0].points, 20 + 6 + 5 + 10);
        assert!(scored.players[0].lines.contains(&Line::Suspect {
            suspect: DRUITT,
            points: 20,
            doubled: true
        }));
        // Ben: Jill 10, Victims and Scenes 4, −9 in hand (3 Pedachenko evidence and his Alibi,
        // unplayable with no Pedachenko set in play), a wrong vote costs nothing.
        assert_eq!(scored.players[1].points, 10 + 4 - 9);
        assert!(scored.players[1].lines.contains(&Line::Vote {
            suspect: JILL,
            points: 0
        }));
    }

    #[test]
    fn the_police_chief_resigning_ends_a_round_like_a_last_card() {
        let a = score(&example(Ending::LastCard), &Suspicion::default()).unwrap();
        let b = score(&example(Ending::PoliceChiefResigns), &Suspicion::default()).unwrap();
        assert_eq!(a.players, b.players);
    }

    #[test]
    fn holding_ripper_escapes_costs_two_per_victim_in_play() {
        let mut round = example(Ending::LastCard);
        round.players[1].holds_ripper_escapes = true;
        let scored = score(&round, &Suspicion::default()).unwrap();
        assert_eq!(scored.players[1].points, 10 + 4 - 9 - 6);
    }

    #[test]
    fn when_the_ripper_escapes_only_victims_scenes_and_the_35_count() {
        let mut round = example(Ending::RipperEscapes { by: 1 });
        round.victims_in_play = 5;
        let scored = score(&round, &Suspicion::default()).unwrap();
        assert!(scored.escaped);
        assert_eq!(
            scored.players[0].points, 5,
            "no suspects, letters, vote or hand"
        );
        assert_eq!(scored.players[1].points, 4 + 35);

        let dry = score(&example(Ending::DrawPileOutTwice), &Suspicion::default()).unwrap();
        assert!(dry.escaped);
        assert_eq!(
            dry.players.iter().map(|p| p.points).collect::<Vec<_>>(),
            [5, 4]
        );
    }

    #[test]
    fn an_alibi_on_the_only_possible_suspect_is_an_escape() {
        let mut round = example(Ending::LastCard);
        round.players[0].on_suspects[DRUITT] = 0;
        round.alibi = Some(JILL);
        let scored = score(&round, &Suspicion::default()).unwrap();
        assert!(scored.escaped);
        assert_eq!(
            scored.players[1].points, 4,
            "hand penalties do not count in an escape"
        );
    }

    #[test]
    fn impossible_rounds_are_refused_with_the_reason() {
        let early = score(
            &example(Ending::RipperEscapes { by: 0 }),
            &Suspicion::default(),
        )
        .unwrap_err();
        assert!(early.0.contains("all five Victims"), "{early}");
        let mut crowd = example(Ending::LastCard);
        crowd
            .players
            .extend(std::iter::repeat_n(PlayerCards::default(), 3));
        assert!(
            score(&crowd, &Suspicion::default())
                .unwrap_err()
                .0
                .contains("2 to 4 players")
        );
        let mut vote = example(Ending::LastCard);
        vote.players[0].vote = Some(PEDACHENKO + 6);
        assert!(score(&vote, &Suspicion::default()).is_err());
    }
}
