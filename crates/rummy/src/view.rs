//! What each screen of a Mystery Rummy game may see: the table sees everything but the
//! votes of the round in play (only who has voted); a player's phone sees its own vote
//! too. Votes are revealed with the round's scores. Everything a screen shows is worked
//! out here — the dealer, who is Jack and why, each line of each score, the totals, the
//! end of the game — so screens never work a rule out.

use serde::Serialize;

use crate::role::{Role, Seat};
use crate::round::{Ending, Scored};
use crate::scorepad::{Scorepad, standings_of};
use crate::suspects::{JOKER, Known, LETTER, Printed, RIPPER_ESCAPES, SUSPECTS, Suspect};
use crate::tally::{Correcting, LIMITS, Limits, RoundTally};
use seance_timeline::RoleName;

#[derive(Debug, Clone, Serialize)]
pub struct View {
    pub players: Vec<String>,
    /// Whose view this is: a player's seat, on their phone; `None` for the table's.
    pub me: Option<Seat>,
    /// The round in play, from 1.
    pub round: usize,
    pub deal: u8,
    pub dealer: usize,
    /// How this round's dealer came to deal.
    pub dealt: Dealt,
    pub vote: Option<VoteView>,
    pub rounds: Vec<RoundView>,
    pub totals: Vec<i32>,
    pub winner: Option<usize>,
    /// Someone reached 100 and the highest totals tie: another round is played.
    pub another_round: bool,
    pub printed: Printed,
    /// The defaults, with which of them the rulebook confirms.
    pub suspects: [Suspect; 6],
    /// A Joker's default points, with whether the rulebook confirms them.
    pub joker: Known<u32>,
    pub letter: u32,
    pub ripper_escapes: u32,
    /// How many of each card a round's form may count.
    pub limits: Limits,
    /// The ways a round may end, as the round's form offers them.
    pub endings: Vec<Ending>,
}

/// How a round's dealer came to deal: the rulebook draws the first at random; it says
/// nothing of later rounds, where Séance passes the deal to the left.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Dealt {
    Drawn,
    Passed,
}

#[derive(Debug, Clone, Serialize)]
pub struct VoteView {
    pub by: usize,
    pub voted: Vec<bool>,
    /// This phone's own vote.
    pub mine: Option<usize>,
}

#[derive(Debug, Clone, Serialize)]
pub struct RoundView {
    pub dealer: usize,
    pub tally: RoundTally,
    /// The round as its form opens again to be corrected.
    pub correcting: Correcting,
    pub votes: Vec<Option<usize>>,
    pub scored: Scored,
    /// The totals after this round.
    pub totals: Vec<i32>,
}

impl Scorepad {
    pub fn view(&self, role: Role) -> View {
        let you = match role {
            Role::Player(p) => Some(p),
            Role::Table => None,
        };
        let scored = self.scored();
        let standings = standings_of(self.players.len(), &scored);
        let mut totals = vec![0; self.players.len()];
        let rounds = self
            .rounds
            .iter()
            .zip(scored)
            .enumerate()
            .map(|(r, (played, scored))| {
                for (total, p) in totals.iter_mut().zip(&scored.players) {
                    *total += p.points;
                }
                RoundView {
                    dealer: self.dealer(r),
                    tally: played.tally.clone(),
                    correcting: played.tally.correcting(&self.printed),
                    votes: played.votes.clone(),
                    scored,
                    totals: totals.clone(),
                }
            })
            .collect();
        View {
            players: self.players.clone(),
            me: role.seat(),
            round: self.rounds.len() + 1,
            deal: self.deal(),
            dealer: self.dealer(self.rounds.len()),
            dealt: if self.rounds.is_empty() {
                Dealt::Drawn
            } else {
                Dealt::Passed
            },
            vote: self.vote.as_ref().map(|v| VoteView {
                by: v.by,
                voted: v.votes.iter().map(Option::is_some).collect(),
                mine: you.and_then(|p| v.votes.get(p).copied().flatten()),
            }),
            rounds,
            totals: standings.totals,
            winner: standings.winner,
            another_round: standings.another_round,
            printed: self.printed,
            suspects: SUSPECTS,
            joker: JOKER,
            letter: LETTER,
            ripper_escapes: RIPPER_ESCAPES,
            limits: LIMITS,
            endings: Ending::every(self.players.len()),
        }
    }

    /// Whether `role` is a seat of this game.
    pub fn has(&self, role: Role) -> bool {
        match role {
            Role::Table => true,
            Role::Player(p) => p < self.players.len(),
        }
    }
}
