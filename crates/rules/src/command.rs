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
    /// The group the psychics agreed on (classic: 2 or 3 players; new edition: a
    /// consensus).
    PickGroup { group: u8 },
}

impl Command {
    /// What the command did, in a few words for people, naming the psychics of `game` (the
    /// game it was decided on). A sealed choice stays sealed: a vote or the culprit is
    /// said to have been cast, never for which group.
    pub fn describe(&self, game: &crate::game::Game) -> String {
        let name = |i: usize| {
            game.psychics
                .get(i)
                .map_or_else(|| format!("psychic {i}"), |p| p.name.clone())
        };
        match *self {
            Command::GiveVision { psychic } => format!("{} received a vision", name(psychic)),
            Command::StartTimer => "the sand timer was turned".into(),
            Command::UseCrow => "the ghost used a crow".into(),
            Command::PlaceIntuition { psychic, card } => {
                format!("{}'s pawn moved to card {card}", name(psychic))
            }
            Command::PlaceToken { by, on, face } => {
                let sign = if face == Face::Agree { "✓" } else { "✗" };
                format!("{} put a {sign} on {}'s pawn", name(by), name(on))
            }
            Command::WithdrawToken { by, on } => {
                format!(
                    "{} took their token back from {}'s pawn",
                    name(by),
                    name(on)
                )
            }
            Command::EndInterpretation => "the sand ran out".into(),
            Command::Manifest { psychic, .. } => format!("the ghost answered {}", name(psychic)),
            Command::StateLevel { psychic, .. } => {
                format!("{}'s level was read off the track", name(psychic))
            }
            Command::ChooseCulprit { .. } => "the ghost sealed the culprit".into(),
            Command::RevealVisionCard => "a card of the shared vision was turned over".into(),
            Command::ShareVision => "the ghost gave the shared vision".into(),
            Command::Vote { psychic, .. } => format!("{} voted", name(psychic)),
            Command::DeclareEldest { psychic } => format!("{} was named the eldest", name(psychic)),
            Command::PickGroup { group } => format!("the psychics picked group {group}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::setup::{Difficulty, SecretMode, Setup};

    #[test]
    fn a_description_names_the_psychics_and_keeps_sealed_choices_sealed() {
        let setup = Setup::with_dealt_colours(
            "Laura",
            &["Stephanie", "Alex", "Carl"],
            Difficulty::Easy,
            SecretMode::AppKept,
        );
        let (timeline, _) = crate::begin(setup, 1).unwrap();
        let game = timeline.game();
        let token = Command::PlaceToken {
            by: 1,
            on: 2,
            face: Face::Disagree,
        };
        assert_eq!(token.describe(game), "Alex put a ✗ on Carl's pawn");
        let vote = Command::Vote {
            psychic: 0,
            group: 3,
        }
        .describe(game);
        assert_eq!(vote, "Stephanie voted");
        let culprit = Command::ChooseCulprit { group: 2 }.describe(game);
        assert!(!culprit.contains('2'), "{culprit}");
    }
}
