//! A game of Mystery Rummy on the scorepad, as a pure core: a [`Command`] is checked
//! against the game and turned into [`Event`]s; the [`Scorepad`] is a fold of them. The
//! rounds are kept as entered and scored again whenever they are looked at, so a corrected
//! round or card value changes everything after it. The first dealer is drawn from the
//! recorded seed.

use seance_timeline::{Draw, Extra, Refusal, Who, check_name, ensure};
use serde::{Deserialize, Serialize};

use crate::round::{Scored, score};
use crate::standings::{Standings, standings};
use crate::suspects::{Printed, SUSPECTS};
use crate::tally::RoundTally;
use crate::view::Role;

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Setup {
    /// In seating order, clockwise.
    pub players: Vec<String>,
    /// The numbers printed on the cards; the known defaults unless the players corrected them.
    #[serde(default)]
    pub printed: Printed,
}

impl Setup {
    pub fn validate(&self) -> Result<(), Refusal> {
        let n = self.players.len();
        ensure((2..=4).contains(&n), || {
            Refusal::new("rummy_players")
                .with("fewest", 2)
                .with("most", 4)
                .with("n", n)
        })?;
        ensure(self.players.iter().all(|p| !p.trim().is_empty()), || {
            Refusal::new("player_name")
        })?;
        self.players.iter().try_for_each(|name| check_name(name))?;
        self.printed.validate()
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Command {
    /// A player with a set in front of them calls this round's vote, at the start of their turn.
    CallVote {
        by: usize,
    },
    /// A player secretly names a suspect; sealed until the end of the round.
    Vote {
        player: usize,
        suspect: usize,
    },
    EndRound {
        tally: RoundTally,
    },
    /// Replaces a past round as entered; everything after it is scored again.
    CorrectRound {
        round: usize,
        tally: RoundTally,
    },
    /// The players corrected a number printed on the cards.
    SetPrinted {
        printed: Printed,
    },
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Event {
    Started {
        setup: Setup,
        seed: u64,
        /// Who deals the first round, drawn at random.
        dealer: usize,
    },
    VoteCalled {
        by: usize,
    },
    Voted {
        player: usize,
        suspect: usize,
    },
    RoundEnded {
        tally: RoundTally,
        votes: Vec<Option<usize>>,
    },
    RoundCorrected {
        round: usize,
        tally: RoundTally,
    },
    PrintedSet {
        printed: Printed,
    },
}

/// A round played: as entered, with the votes cast in it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Played {
    pub tally: RoundTally,
    pub votes: Vec<Option<usize>>,
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
    pub rounds: Vec<Played>,
    pub vote: Option<Vote>,
}

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

    /// Cards dealt to each player: 10 with two players, 9 with three, 8 with four.
    pub fn deal(&self) -> u8 {
        12 - self.players.len() as u8
    }

    /// Who deals round `round` (from 0): the deal passes to the left.
    pub fn dealer(&self, round: usize) -> usize {
        (self.first_dealer + round) % self.players.len()
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

    fn name(&self, player: usize) -> &str {
        &self.players[player]
    }

    fn player(&self, player: usize) -> Result<(), Refusal> {
        let n = self.players.len();
        ensure(player < n, || {
            Refusal::new("no_such_player").with("last", n.saturating_sub(1))
        })
    }

    pub fn decide(&self, command: &Command) -> Result<Vec<Event>, Refusal> {
        self.check(self.standings().winner, command)?;
        let event = match command {
            &Command::CallVote { by } => Event::VoteCalled { by },
            &Command::Vote { player, suspect } => Event::Voted { player, suspect },
            Command::EndRound { tally } => {
                self.check_tally(tally)?;
                Event::RoundEnded {
                    tally: tally.clone(),
                    votes: self
                        .vote
                        .as_ref()
                        .map_or_else(|| vec![None; self.players.len()], |v| v.votes.clone()),
                }
            }
            Command::CorrectRound { round, tally } => {
                self.check_tally(tally)?;
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
            .map_err(|_| Refusal::new("round_does_not_score"))?;
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
            return Err(Refusal::new("rummy_game_over").with("winner", self.name(winner)));
        }
        match command {
            &Command::CallVote { by } => {
                self.player(by)?;
                match &self.vote {
                    Some(vote) => {
                        Err(Refusal::new("one_vote_per_round").with("name", self.name(vote.by)))
                    }
                    None => Ok(()),
                }
            }
            &Command::Vote { player, suspect } => {
                self.player(player)?;
                ensure(suspect < SUSPECTS.len(), || {
                    Refusal::new("no_such_suspect").with("last", SUSPECTS.len() - 1)
                })?;
                let Some(vote) = &self.vote else {
                    return Err(Refusal::new("no_vote_called"));
                };
                ensure(vote.votes[player].is_none(), || {
                    Refusal::new("vote_sealed").with("name", self.name(player))
                })
            }
            Command::EndRound { .. } => self.check_round_over(),
            Command::CorrectRound { round, .. } => ensure(*round < self.rounds.len(), || {
                Refusal::new("no_such_round").with("n", self.rounds.len())
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
            Refusal::new("votes_missing").with("names", waiting)
        })
    }

    fn check_tally(&self, tally: &RoundTally) -> Result<(), Refusal> {
        let n = self.players.len();
        ensure(tally.players.len() == n, || {
            Refusal::new("tally_players")
                .with("n", n)
                .with("given", tally.players.len())
        })?;
        tally.check()
    }

    /// A correction may not end the game before the last round played.
    fn ends_in_order(&self) -> Result<(), Refusal> {
        let scored = self.scored();
        for r in 1..scored.len() {
            if let Some(winner) = standings_of(self.players.len(), &scored[..r]).winner {
                return Err(Refusal::new("ends_early")
                    .with("winner", self.name(winner))
                    .with("round", r)
                    .with("rounds", scored.len()));
            }
        }
        Ok(())
    }

    pub fn replay<'a>(events: impl IntoIterator<Item = &'a Event>) -> Result<Scorepad, String> {
        let mut events = events.into_iter();
        let Some(Event::Started {
            setup,
            seed,
            dealer,
        }) = events.next()
        else {
            return Err("a game's history must begin with its start".into());
        };
        setup.validate().map_err(|e| e.to_string())?;
        if *dealer >= setup.players.len() {
            return Err(format!("there is no player {dealer} to deal"));
        }
        let mut pad = Scorepad {
            players: setup.players.clone(),
            seed: *seed,
            first_dealer: *dealer,
            printed: setup.printed,
            rounds: Vec::new(),
            vote: None,
        };
        for (i, event) in events.enumerate() {
            pad.apply(event)
                .map_err(|why| format!("event {}: {why}", i + 2))?;
        }
        Ok(pad)
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
            Event::RoundEnded { tally, votes } if tally.players.len() == n && votes.len() == n => {
                let played = Played {
                    tally: tally.clone(),
                    votes: votes.clone(),
                };
                score_round(&played, &self.printed)?;
                self.rounds.push(played);
                self.vote = None;
            }
            Event::RoundCorrected { round, tally }
                if *round < self.rounds.len() && tally.players.len() == n =>
            {
                let played = Played {
                    tally: tally.clone(),
                    votes: self.rounds[*round].votes.clone(),
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

fn score_round(played: &Played, printed: &Printed) -> Result<Scored, String> {
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

impl seance_timeline::Rules for Scorepad {
    const RULESET: &'static str = "mystery-rummy";
    type Command = Command;
    type Event = Event;
    type Role = crate::view::Role;
    type Action = crate::allowed::Action;
    type Told = crate::log::Told;

    fn replay<'a>(events: impl IntoIterator<Item = &'a Event>) -> Result<Scorepad, String> {
        Scorepad::replay(events)
    }

    fn apply(&mut self, event: &Event) -> Result<(), String> {
        Scorepad::apply(self, event)
    }

    fn valid_start(start: &[Event]) -> Result<(), Refusal> {
        // A start without its setup does not replay: the replay refuses it.
        match start.first() {
            Some(Event::Started { setup, .. }) => setup.validate(),
            _ => Ok(()),
        }
    }

    fn decide(&self, command: &Command, _position: u64) -> Result<Vec<Event>, Refusal> {
        Scorepad::decide(self, command)
    }

    fn permit(&self, who: &Who<Role>, command: &Command) -> Result<(), Refusal> {
        Scorepad::permit(self, who, command)
    }

    fn allowed(&self, who: &Who<Role>) -> Vec<crate::allowed::Action> {
        Scorepad::allowed(self, who)
    }

    fn may(&self, who: &Who<Role>, extra: Extra) -> Result<(), Refusal> {
        Scorepad::may(self, who, extra)
    }

    fn told(&self, event: &Event, role: Role) -> Option<crate::log::Told> {
        crate::log::told(event, role)
    }

    fn status(&self) -> &'static str {
        if self.standings().winner.is_some() {
            "over"
        } else {
            "playing"
        }
    }

    fn players(&self) -> Vec<String> {
        self.players.clone()
    }

    type Record = crate::record::Record;
    fn record(&self) -> Option<Self::Record> {
        crate::record::Record::of(self)
    }

    /// Each player's total, ranked; the winner as the standings say.
    fn summary(&self) -> Option<seance_timeline::Summary> {
        let standings = self.standings();
        let winner = standings.winner?;
        let totals: Vec<i64> = standings.totals.iter().map(|&t| t.into()).collect();
        Some(seance_timeline::Summary::scored(
            &self.players,
            &totals,
            winner,
        ))
    }
}
