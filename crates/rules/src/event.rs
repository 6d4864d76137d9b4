//! What happened. A game is the fold of its events; every random outcome is recorded
//! here, so replaying events needs no randomness.

use serde::{Deserialize, Serialize};

use crate::cards::{Card, Layout};
use crate::clairvoyancy::Face;
use crate::levels::Level;
use crate::setup::Setup;
use crate::straw_poll::Count;

/// A numbered group of the line-up: a psychic's three cards, or (2 players) a random one.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Group {
    pub number: u8,
    pub cards: [Card; 3],
    pub psychic: Option<usize>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Event {
    Started {
        /// Boxed: a setup with a box of card sets is far larger than any other event.
        setup: Box<Setup>,
        seed: u64,
        layout: Layout,
    },
    /// App-kept secrets: each psychic's character, location and object.
    SecretsDrawn {
        assignments: Vec<[Card; 3]>,
    },
    VisionGiven {
        psychic: usize,
    },
    TimerStarted,
    CrowUsed,
    IntuitionPlaced {
        psychic: usize,
        card: Card,
    },
    TokenPlaced {
        by: usize,
        on: usize,
        face: Face,
    },
    TokenWithdrawn {
        by: usize,
        on: usize,
    },
    TimerEnded,
    /// The ghost's answer, the card collected if right, and who moved +1 on the track.
    Manifested {
        psychic: usize,
        right: bool,
        card: Option<Card>,
        moved: Vec<usize>,
    },
    /// `psychic` found their object: +`bonus` spaces, one per hour left.
    Finished {
        psychic: usize,
        bonus: u8,
    },
    TurnEnded,
    HourStruck {
        hour: u8,
    },
    TokensRecovered,
    LostOnTime,
    LinedUp {
        groups: Vec<Group>,
    },
    LevelStated {
        psychic: usize,
        level: Level,
    },
    CulpritChosen {
        group: u8,
    },
    /// New edition: the app drew the culprit's trace at random (the ghost's secret).
    CulpritDrawn {
        group: u8,
    },
    /// New edition: the ghost has given the shared vision, its three cards at once.
    VisionShared,
    VisionCardRevealed {
        count: u8,
    },
    Voted {
        psychic: usize,
        group: u8,
    },
    EldestAsked {
        among: Vec<usize>,
    },
    EldestDeclared {
        psychic: usize,
    },
    /// Every vote is in: the count is made, sealed until the table shows it.
    Counted {
        count: Count,
    },
    /// The table has shown the first `lines` lines of the count.
    CountShown {
        lines: u8,
    },
    /// New edition: the count the table has shown gave no majority; the votes are taken
    /// back.
    NoMajority {
        count: Count,
    },
    GroupPicked {
        group: u8,
    },
    Ended {
        chosen: u8,
        culprit: u8,
        won: bool,
    },
}
