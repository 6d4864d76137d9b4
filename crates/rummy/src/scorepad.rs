//! A game of Mystery Rummy on the scorepad: the [`Scorepad`] is a fold of its [`Event`]s.
//! The rounds are kept as entered and scored again whenever they are looked at, so a
//! corrected round or card value changes everything after it.

use crate::refusals;
use seance_timeline::{Refusal, ensure};
use serde::Serialize;

use crate::event::Event;
use crate::round::{Scored, score};
use crate::standings::{Standings, standings};
use crate::suspects::{Printed, SUSPECTS};
use crate::tally::RoundTally;

/// A round played: as entered, with the votes cast in it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct RoundPlayed {
    pub tally: RoundTally,
    pub votes: Vec<Option<usize>>,
    /// Who called the round's vote (none in a journal older than the record of it).
    pub called_by: Option<usize>,
}

/// The vote of the round in play.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Vote {
    pub by: usize,
    pub votes: Vec<Option<usize>>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Scorepad {
    pub players: Vec<String>,
    pub seed: u64,
    pub first_dealer: usize,
    pub printed: Printed,
    pub rounds: Vec<RoundPlayed>,
    pub vote: Option<Vote>,
}

impl Scorepad {
    /// Cards dealt to each player this game.
    pub fn deal(&self) -> u8 {
        crate::setup::deal(self.players.len())
    }

    /// Who deals round `round` (from 0): the deal passes to the left.
    pub fn dealer(&self, round: usize) -> usize {
        (self.first_dealer + round) % self.players.len()
    }

    /// Who plays first in round `round`: the player on the dealer's left (the rulebook's
    /// "Tour de jeu"; the next in seating order, as the deal passes).
    pub fn begins(&self, round: usize) -> usize {
        (self.dealer(round) + 1) % self.players.len()
    }

    /// Each round played, scored with the numbers printed on the cards as they are now.
    pub fn scored(&self) -> Vec<Scored> {
        self.rounds
            .iter()
            .map(|r| score_round(r, &self.printed).expect("rounds are checked when entered"))
            .collect()
    }

    /// The running totals and the end of the game after the rounds played.
    pub fn standings(&self) -> Standings {
        standings_of(self.players.len(), &self.scored())
    }

    pub(crate) fn name(&self, player: usize) -> &str {
        &self.players[player]
    }

    pub(crate) fn player(&self, player: usize) -> Result<(), Refusal> {
        let n = self.players.len();
        ensure(player < n, || {
            Refusal::new(refusals::NO_SUCH_PLAYER).with("last", n.saturating_sub(1))
        })
    }

    /// The game its start event sets up; refused for any other event, or a setup that
    /// does not hold together.
    pub fn begin(start: &Event) -> Result<Scorepad, String> {
        let Event::Started {
            setup,
            seed,
            dealer,
        } = start
        else {
            return Err("a game's history must begin with its start".into());
        };
        setup.validate().map_err(|e| e.to_string())?;
        if *dealer >= setup.players.len() {
            return Err(format!("there is no player {dealer} to deal"));
        }
        Ok(Scorepad {
            players: setup.players.clone(),
            seed: *seed,
            first_dealer: *dealer,
            printed: setup.printed,
            rounds: Vec::new(),
            vote: None,
        })
    }

    /// Applies an event; one that does not fit the game so far is refused.
    pub fn apply(&mut self, event: &Event) -> Result<(), String> {
        let n = self.players.len();
        match event {
            Event::Started { .. } => return Err("the game has already started".into()),
            &Event::VoteCalled { by } if by < n && self.vote.is_none() => {
                self.vote = Some(Vote {
                    by,
                    votes: vec![None; n],
                });
            }
            &Event::Voted { player, suspect } if player < n && suspect < SUSPECTS.len() => {
                let vote = self.vote.as_mut().ok_or("a vote without a call")?;
                vote.votes[player] = Some(suspect);
            }
            Event::RoundEnded {
                tally,
                votes,
                called_by,
            } if tally.players.len() == n && votes.len() == n => {
                let played = RoundPlayed {
                    tally: tally.clone(),
                    votes: votes.clone(),
                    called_by: *called_by,
                };
                score_round(&played, &self.printed)?;
                self.rounds.push(played);
                self.vote = None;
            }
            Event::RoundCorrected { round, tally }
                if *round < self.rounds.len() && tally.players.len() == n =>
            {
                let played = RoundPlayed {
                    tally: tally.clone(),
                    ..self.rounds[*round].clone()
                };
                score_round(&played, &self.printed)?;
                self.rounds[*round] = played;
            }
            Event::PrintedSet { printed } => {
                printed.validate().map_err(|e| e.to_string())?;
                self.printed = *printed;
            }
            other => return Err(format!("{other:?} does not fit the game")),
        }
        Ok(())
    }
}

fn score_round(played: &RoundPlayed, printed: &Printed) -> Result<Scored, String> {
    score(
        &played.tally.round(printed, &played.votes),
        &printed.suspicion,
    )
    .map_err(|e| e.0)
}

/// The standings after the rounds `scored`.
pub(crate) fn standings_of(players: usize, scored: &[Scored]) -> Standings {
    let points: Vec<Vec<i32>> = scored
        .iter()
        .map(|s| s.players.iter().map(|p| p.points).collect())
        .collect();
    standings(players, &points)
}
