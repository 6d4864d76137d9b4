//! Deciding: a [`Command`] checked against the scorepad becomes [`Event`]s. The first
//! dealer is drawn from the recorded seed.

use crate::refusals;
use seance_timeline::{Draw, Refusal, ensure};

use crate::command::Command;
use crate::event::Event;
use crate::scorepad::{Scorepad, standings_of};
use crate::setup::Setup;
use crate::suspects::SUSPECTS;
use crate::tally::RoundTally;

impl Scorepad {
    /// The events that start a game: the setup, and the first dealer drawn.
    pub fn start(setup: Setup, seed: u64) -> Result<Vec<Event>, Refusal> {
        setup.validate()?;
        let dealer = Draw::new(seed, 0).below(setup.players.len() as u64) as usize;
        Ok(vec![Event::Started {
            setup,
            seed,
            dealer,
        }])
    }

    pub fn decide(&self, command: &Command) -> Result<Vec<Event>, Refusal> {
        self.check(self.standings().winner, command)?;
        let event = match command {
            &Command::CallVote { by } => Event::VoteCalled { by },
            &Command::Vote { player, suspect } => Event::Voted { player, suspect },
            Command::EndRound { tally } => {
                let called_by = self.vote.as_ref().map(|v| v.by);
                self.check_tally(tally, called_by)?;
                Event::RoundEnded {
                    tally: tally.clone(),
                    votes: self
                        .vote
                        .as_ref()
                        .map_or_else(|| vec![None; self.players.len()], |v| v.votes.clone()),
                    called_by,
                }
            }
            Command::CorrectRound { round, tally } => {
                let called_by = self.rounds.get(*round).and_then(|r| r.called_by);
                self.check_tally(tally, called_by)?;
                Event::RoundCorrected {
                    round: *round,
                    tally: tally.clone(),
                }
            }
            Command::SetPrinted { printed } => {
                printed.validate()?;
                Event::PrintedSet { printed: *printed }
            }
        };
        let mut after = self.clone();
        // `check_tally` holds a round to everything its scoring asks, so this is a last guard.
        after
            .apply(&event)
            .map_err(|_| Refusal::new(refusals::ROUND_DOES_NOT_SCORE))?;
        after.ends_in_order()?;
        Ok(vec![event])
    }

    /// Whether a command of this kind may be sent now, by the game's state alone: what
    /// [`Scorepad::allowed`] asks. A tally's content is checked by [`Scorepad::decide`].
    /// `winner` is the game's, if it is over (worked out once by the caller).
    pub(crate) fn check(&self, winner: Option<usize>, command: &Command) -> Result<(), Refusal> {
        if let Some(winner) = winner
            && !matches!(
                command,
                Command::CorrectRound { .. } | Command::SetPrinted { .. }
            )
        {
            return Err(Refusal::new(refusals::RUMMY_GAME_OVER).with("winner", self.name(winner)));
        }
        match command {
            &Command::CallVote { by } => {
                self.player(by)?;
                match &self.vote {
                    Some(vote) => {
                        Err(Refusal::new(refusals::ONE_VOTE_PER_ROUND)
                            .with("name", self.name(vote.by)))
                    }
                    None => Ok(()),
                }
            }
            &Command::Vote { player, suspect } => {
                self.player(player)?;
                ensure(suspect < SUSPECTS.len(), || {
                    Refusal::new(refusals::NO_SUCH_SUSPECT).with("last", SUSPECTS.len() - 1)
                })?;
                let Some(vote) = &self.vote else {
                    return Err(Refusal::new(refusals::NO_VOTE_CALLED));
                };
                ensure(vote.votes[player].is_none(), || {
                    Refusal::new(refusals::VOTE_SEALED).with("name", self.name(player))
                })
            }
            Command::EndRound { .. } => self.check_round_over(),
            Command::CorrectRound { round, .. } => ensure(*round < self.rounds.len(), || {
                Refusal::new(refusals::NO_SUCH_ROUND).with("n", self.rounds.len())
            }),
            Command::SetPrinted { .. } => Ok(()),
        }
    }

    /// A round is scored once every vote called in it is in.
    pub(crate) fn check_round_over(&self) -> Result<(), Refusal> {
        let Some(vote) = &self.vote else {
            return Ok(());
        };
        let waiting: Vec<String> = (0..self.players.len())
            .filter(|&p| vote.votes[p].is_none())
            .map(|p| self.name(p).to_owned())
            .collect();
        ensure(waiting.is_empty(), || {
            Refusal::new(refusals::VOTES_MISSING).with("names", waiting)
        })
    }

    /// A round's cards as the deck allows them, and a set in front of whoever called its
    /// vote, a set of Letters included (002 l.200).
    fn check_tally(&self, tally: &RoundTally, called_by: Option<usize>) -> Result<(), Refusal> {
        let n = self.players.len();
        ensure(tally.players.len() == n, || {
            Refusal::new(refusals::TALLY_PLAYERS)
                .with("n", n)
                .with("given", tally.players.len())
        })?;
        tally.check()?;
        match called_by {
            Some(by) => ensure(tally.has_set(by), || {
                Refusal::new(refusals::VOTE_CALLER_SET).with("name", self.name(by))
            }),
            None => Ok(()),
        }
    }

    /// A correction may not end the game before the last round played.
    fn ends_in_order(&self) -> Result<(), Refusal> {
        let scored = self.scored();
        for r in 1..scored.len() {
            if let Some(winner) = standings_of(self.players.len(), &scored[..r]).winner {
                return Err(Refusal::new(refusals::ENDS_EARLY)
                    .with("winner", self.name(winner))
                    .with("round", r)
                    .with("rounds", scored.len()));
            }
        }
        Ok(())
    }
}
