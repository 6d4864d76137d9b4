//! Who may do what now. A player calls the vote and casts their own sealed vote; the
//! rounds, their corrections and the numbers printed on the cards are entered on the
//! table. [`Scorepad::permit`] says which device may send a command, and
//! [`Scorepad::allowed`] lists what is open to a device now by asking the same checks
//! [`Scorepad::decide`] holds commands to.

use crate::refusals;
use serde::Serialize;

use seance_timeline::{Extra, Refusal, Who, ensure};

use crate::command::Command;
use crate::role::{Role, Seat};
use crate::scorepad::Scorepad;
use crate::suspects::SUSPECTS;

/// A command open now, with the choices it takes.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Action {
    /// One of these players calls this round's vote.
    CallVote { players: Vec<usize> },
    /// `player` names one of these suspects.
    Vote { player: usize, suspects: Vec<usize> },
    /// The round may be scored (its tally is checked when it is sent).
    EndRound,
    /// These rounds, from 0, may be corrected.
    CorrectRound { rounds: Vec<usize> },
    /// The numbers printed on the cards may be corrected.
    SetPrinted,
    /// Play again: the same players and cards, a new first dealer.
    Rematch,
}

/// The player a command is done for, and whether it is their sealed choice; `None` for
/// what is entered on the table.
fn seat(command: &Command) -> Option<(usize, bool)> {
    match *command {
        Command::CallVote { by } => Some((by, false)),
        Command::Vote { player, .. } => Some((player, true)),
        Command::EndRound { .. } | Command::CorrectRound { .. } | Command::SetPrinted { .. } => {
            None
        }
    }
}

/// [`Scorepad::permit`] for a command done for `seat` (see [`seat`]).
fn permit(who: &Who<Role>, seat: Option<(usize, bool)>) -> Result<(), Refusal> {
    match who {
        Who::Watcher => Err(Refusal::new(seance_timeline::refusals::WATCHER)),
        Who::Seat(Seat::Player(p)) => ensure(seat.is_some_and(|(s, _)| s == *p), || {
            Refusal::new(refusals::PLAYER_ACTS_FOR_SELF)
        }),
        Who::Table { .. } => ensure(
            !seat.is_some_and(|(s, sealed)| sealed && who.on_phone(&Seat::Player(s))),
            || Refusal::new(seance_timeline::refusals::VOTE_ON_PHONE),
        ),
    }
}

impl Scorepad {
    /// Whether `who` may send `command` at all: a player's phone calls the vote and casts
    /// its own vote; the table enters everything else, and votes for a player only while
    /// no phone holds their seat; a watcher does nothing.
    pub fn permit(&self, who: &Who<Role>, command: &Command) -> Result<(), Refusal> {
        permit(who, seat(command))
    }

    /// Undo and redo are the table's, and a rematch once someone has won; Mystery Rummy
    /// has no sand timer and no knocks.
    pub fn may(&self, who: &Who<Role>, extra: Extra) -> Result<(), Refusal> {
        let table = || {
            ensure(matches!(who, Who::Table { .. }), || {
                Refusal::new(seance_timeline::refusals::TABLE_ONLY)
            })
        };
        match extra {
            Extra::Undo | Extra::Redo => table(),
            Extra::Rematch => table().and_then(|()| {
                ensure(self.standings().winner.is_some(), || {
                    Refusal::new(seance_timeline::refusals::REMATCH_IN_PLAY)
                })
            }),
            Extra::Timer => Err(Refusal::new(seance_timeline::refusals::NO_TIMER)),
            Extra::Knock => Err(Refusal::new(refusals::NO_KNOCKS)),
        }
    }

    /// Everything `who` may do now, with its choices: the commands [`Scorepad::permit`]
    /// and the checks of [`Scorepad::decide`] accept.
    pub fn allowed(&self, who: &Who<Role>) -> Vec<Action> {
        let winner = self.standings().winner;
        let ok = |c: &Command| self.permit(who, c).is_ok() && self.check(winner, c).is_ok();
        let players = 0..self.players.len();
        let mut actions = vec![Action::CallVote {
            players: players
                .clone()
                .filter(|&by| ok(&Command::CallVote { by }))
                .collect(),
        }];
        actions.extend(players.map(|player| {
            Action::Vote {
                player,
                suspects: (0..SUSPECTS.len())
                    .filter(|&suspect| ok(&Command::Vote { player, suspect }))
                    .collect(),
            }
        }));
        // The table's own entries: their content is checked when sent.
        if permit(who, None).is_ok() {
            if winner.is_none() && self.check_round_over().is_ok() {
                actions.push(Action::EndRound);
            }
            actions.push(Action::CorrectRound {
                rounds: (0..self.rounds.len()).collect(),
            });
            actions.push(Action::SetPrinted);
        }
        if self.may(who, Extra::Rematch).is_ok() {
            actions.push(Action::Rematch);
        }
        actions.retain(|a| match a {
            Action::CallVote { players } => !players.is_empty(),
            Action::Vote { suspects, .. } => !suspects.is_empty(),
            Action::CorrectRound { rounds } => !rounds.is_empty(),
            Action::EndRound | Action::SetPrinted | Action::Rematch => true,
        });
        actions
    }
}
