//! What each scorepad command depends on and each event changes, so players vote at once:
//! one player's sealed vote does not depend on another's; the call of the vote, the end of
//! the round and the scorepad's rounds and printed numbers are what everything else
//! depends on. A command sent on a version the game has moved past lands when none of its
//! things changed since (`Timeline::rebase`).

use crate::command::Command;
use crate::event::Event;
use crate::refusals;
use crate::scorepad::Scorepad;
use seance_timeline::Refusal;

/// Something of a scorepad a command may depend on and an event may change.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Thing {
    /// The rounds played and the numbers printed on the cards: the scores, and whether
    /// the game is over. Every command depends on them.
    Scores,
    /// Whether this round's vote was called, and by whom.
    Call,
    /// A player's sealed vote this round.
    Ballot(usize),
}

impl Scorepad {
    /// What `command` depends on.
    pub fn depends(&self, command: &Command) -> Vec<Thing> {
        let mut things = vec![Thing::Scores];
        match *command {
            Command::CallVote { .. } => things.push(Thing::Call),
            Command::Vote { player, .. } => things.extend([Thing::Call, Thing::Ballot(player)]),
            // The round's end keeps every ballot, as it stands.
            Command::EndRound { .. } => {
                things.push(Thing::Call);
                things.extend((0..self.players.len()).map(Thing::Ballot));
            }
            Command::CorrectRound { .. } | Command::SetPrinted { .. } => {}
        }
        things
    }

    /// What `event` changes.
    pub fn changes(&self, event: &Event) -> Vec<Thing> {
        match *event {
            Event::VoteCalled { .. } => vec![Thing::Call],
            Event::Voted { player, .. } => vec![Thing::Ballot(player)],
            Event::RoundEnded { .. } => std::iter::once(Thing::Scores)
                .chain(std::iter::once(Thing::Call))
                .chain((0..self.players.len()).map(Thing::Ballot))
                .collect(),
            Event::Started { .. } | Event::RoundCorrected { .. } | Event::PrintedSet { .. } => {
                vec![Thing::Scores]
            }
        }
    }

    /// The refusal of a command whose `thing` changed meanwhile.
    pub fn changed(&self, thing: &Thing) -> Refusal {
        match *thing {
            Thing::Scores => Refusal::new(refusals::SCORES_MEANWHILE),
            Thing::Call => Refusal::new(refusals::CALLED_MEANWHILE),
            Thing::Ballot(player) => {
                Refusal::new(refusals::BALLOT_MEANWHILE).with("name", self.name(player))
            }
        }
    }
}
