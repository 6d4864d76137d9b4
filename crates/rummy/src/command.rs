//! What a Mystery Rummy table or player asks of the scorepad.

use serde::{Deserialize, Serialize};

use crate::suspects::Printed;
use crate::tally::RoundTally;

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
