//! What the players read off the cards at the end of a round, as the scorepad asks for
//! it: how many Evidence and Letters cards, and which Suspect cards, for the cards whose
//! points are known ([`Printed`]); the points as printed for the rest (Jokers, Victims,
//! Scenes, the cards left in hand). Turned into points here, so a corrected card value
//! scores every round again.

use serde::{Deserialize, Serialize};

use crate::round::{Ending, PlayerCards, Round};
use crate::suspects::{LETTER, Printed, SUSPECTS};

/// There are four Letters cards (002).
const LETTERS_IN_THE_DECK: u32 = 4;

/// One player's cards at the end of a round.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct PlayerTally {
    /// Evidence cards in front of the player, by suspect.
    pub evidence: [u8; 6],
    /// The Suspect cards in front of the player.
    pub suspect_cards: [bool; 6],
    /// Points of the Jokers the player played on each suspect, as printed.
    pub jokers: [u32; 6],
    pub letters: u8,
    /// Points of the Victim and Scene cards in front of the player, as printed.
    pub victims_and_scenes: u32,
    /// Points of the cards left in hand that cost points: Evidence that could not be played
    /// on a set in play, Scenes, Victims.
    pub hand: u32,
    pub holds_ripper_escapes: bool,
}

/// A round as entered at its end.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RoundTally {
    pub ending: Ending,
    /// The suspect whose Alibi is in play, if any (only one at a time).
    #[serde(default)]
    pub alibi: Option<usize>,
    #[serde(default)]
    pub victims_in_play: u8,
    pub players: Vec<PlayerTally>,
}

impl RoundTally {
    /// What no deck allows: a Suspect card in front of two players, more than four Letters.
    pub fn check(&self) -> Result<(), String> {
        for (s, suspect) in SUSPECTS.iter().enumerate() {
            if self.players.iter().filter(|p| p.suspect_cards[s]).count() > 1 {
                return Err(format!(
                    "{}'s Suspect card can be in front of one player only",
                    suspect.name
                ));
            }
        }
        let letters: u32 = self.players.iter().map(|p| u32::from(p.letters)).sum();
        if letters > LETTERS_IN_THE_DECK {
            return Err(format!(
                "there are four Letters cards in the deck, not {letters}"
            ));
        }
        Ok(())
    }

    /// The round in points, with the votes cast (by player).
    pub fn round(&self, printed: &Printed, votes: &[Option<usize>]) -> Round {
        Round {
            ending: self.ending,
            alibi: self.alibi,
            victims_in_play: self.victims_in_play,
            players: self
                .players
                .iter()
                .enumerate()
                .map(|(i, p)| PlayerCards {
                    on_suspects: std::array::from_fn(|s| {
                        u32::from(p.evidence[s]) * printed.evidence[s]
                            + p.jokers[s]
                            + if p.suspect_cards[s] {
                                printed.suspect_card[s]
                            } else {
                                0
                            }
                    }),
                    letters: u32::from(p.letters) * LETTER,
                    victims_and_scenes: p.victims_and_scenes,
                    hand: p.hand,
                    holds_ripper_escapes: p.holds_ripper_escapes,
                    vote: votes.get(i).copied().flatten(),
                })
                .collect(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_become_points_with_the_printed_values() {
        let mut ann = PlayerTally {
            letters: 2,
            victims_and_scenes: 5,
            ..Default::default()
        };
        ann.evidence[4] = 5;
        ann.suspect_cards[4] = true;
        ann.jokers[0] = 3;
        let tally = RoundTally {
            ending: Ending::LastCard,
            alibi: None,
            victims_in_play: 2,
            players: vec![ann, PlayerTally::default()],
        };
        let round = tally.round(&Printed::default(), &[Some(4), None]);
        // 002: 5 Chapman evidence + his Suspect card = 14.
        assert_eq!(round.players[0].on_suspects[4], 14);
        assert_eq!(round.players[0].on_suspects[0], 3);
        assert_eq!(round.players[0].letters, 6);
        assert_eq!(round.players[0].vote, Some(4));
        let mut corrected = Printed::default();
        corrected.evidence[4] = 3;
        assert_eq!(tally.round(&corrected, &[]).players[0].on_suspects[4], 19);
    }

    #[test]
    fn a_tally_no_deck_allows_is_refused() {
        let mut a = PlayerTally::default();
        a.suspect_cards[1] = true;
        let mut tally = RoundTally {
            ending: Ending::LastCard,
            alibi: None,
            victims_in_play: 0,
            players: vec![a.clone(), a],
        };
        assert!(tally.check().unwrap_err().contains("Prince Eddy"));
        tally.players[1].suspect_cards[1] = false;
        tally.players[0].letters = 3;
        tally.players[1].letters = 2;
        assert!(tally.check().unwrap_err().contains("four Letters"));
    }
}
