//! What the table, the ghost and the psychics ask for. Psychics are named by their index
//! in the game (seating order); groups by their number (1..).

use serde::{Deserialize, Serialize};

use crate::cards::Card;
use crate::clairvoyancy::Face;
use crate::levels::Level;

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Command {
    /// The ghost has given `psychic` their vision for this turn.
    GiveVision { psychic: usize },
    /// The ghost has given every psychic still waiting their vision: one tap for the turn.
    GiveEveryVision,
    /// Start the sand timer before every vision is entered (a tap on the table).
    StartTimer,
    /// The ghost spends a crow (discard and redraw up to 7 vision cards).
    UseCrow,
    /// `psychic`'s intuition pawn is on `card`.
    PlaceIntuition { psychic: usize, card: Card },
    /// `by` puts a ✓ or ✗ token on `on`'s intuition pawn.
    PlaceToken { by: usize, on: usize, face: Face },
    /// `by` takes back their token from `on`'s pawn.
    WithdrawToken { by: usize, on: usize },
    /// The sand timer has run out.
    EndInterpretation,
    /// The ghost manifests to `psychic`. In paper mode the ghost says whether the intuition
    /// was `right`; in app-kept mode the app judges and `right` is left out.
    Manifest {
        psychic: usize,
        #[serde(default)]
        right: Option<bool>,
    },
    /// The ghost answers every psychic yet to hear, as the app judges (it keeps the
    /// secrets): the answers are no one's to choose, so they are revealed in one tap.
    ManifestEvery,
    /// The table reads `psychic`'s level off its track where the bands are uncertain.
    StateLevel { psychic: usize, level: Level },
    /// The ghost seals the culprit's group.
    ChooseCulprit { group: u8 },
    /// The next card of the shared vision is turned over (classic, 4+ players).
    RevealVisionCard,
    /// The ghost has given the shared vision (new edition: three cards at once).
    ShareVision,
    /// `psychic`'s secret vote (classic's straw poll, 4+ players; the new edition's
    /// majority, when the mediums do not agree).
    Vote { psychic: usize, group: u8 },
    /// Who is the eldest, when age decides the count and was not entered.
    DeclareEldest { psychic: usize },
    /// The table shows the count as far as its first `lines` lines: the next one, or all.
    ShowCount { lines: u8 },
    /// The group the psychics agreed on (classic: 2 or 3 players; new edition: a
    /// consensus).
    PickGroup { group: u8 },
}
