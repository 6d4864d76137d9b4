//! What happened in a Mystery Rummy game, as its journal keeps it.

use serde::{Deserialize, Serialize};

use crate::setup::Setup;
use crate::suspects::Printed;
use crate::tally::RoundTally;

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
        /// Who called the vote, if one was called (written since the rule that only a
        /// player with a set may call one is checked).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        called_by: Option<usize>,
    },
    RoundCorrected {
        round: usize,
        tally: RoundTally,
    },
    PrintedSet {
        printed: Printed,
    },
}
