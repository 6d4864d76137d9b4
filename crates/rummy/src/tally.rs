//! What the players read off the cards at the end of a round, as the scorepad asks for
//! it: how many Evidence, Joker and Letters cards, and which Suspect cards, for the cards
//! whose points are known ([`Printed`]); the points as printed for the rest (the Alibi in
//! play, Victims, Scenes, the cards left in hand). Checked against the deck (002,
//! "Composition du paquet") and turned into points here, so a corrected card value scores
//! every round again.

use serde::{Deserialize, Serialize};

use crate::round::{Ending, MOST_POINTS, PlayerCards, Round};
use crate::suspects::{LETTER, MOST_PRINTED, Printed, SUSPECTS};

/// The deck (002): five Evidence cards of each suspect, four Letters, two Jokers.
const EVIDENCE_PER_SUSPECT: u32 = 5;
const LETTERS_IN_THE_DECK: u32 = 4;
const JOKERS_IN_THE_DECK: u32 = 2;
/// A set is at least three Evidence cards of one colour (Jokers included, 002 "Série").
const SET: u32 = 3;

/// One player's cards at the end of a round.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct PlayerTally {
    /// Evidence cards in front of the player, by suspect.
    pub evidence: [u8; 6],
    /// Jokers the player played as Evidence, by suspect.
    pub joker_cards: [u8; 6],
    /// Points of Jokers as entered before Séance counted them (older journals only); a new
    /// round counts Jokers in `joker_cards`.
    #[serde(rename = "jokers", skip_serializing_if = "no_points")]
    pub joker_points: [u32; 6],
    /// The Suspect cards in front of the player.
    pub suspect_cards: [bool; 6],
    pub letters: u8,
    /// Points of the Alibi in play when it lies in front of this player, as printed.
    pub alibi: u32,
    /// Points of the Victim and Scene cards in front of the player, as printed.
    pub victims_and_scenes: u32,
    /// Points of the cards left in hand that cost points: Evidence and Alibi cards that
    /// could not be played for want of a set in play, Scenes, Victims.
    pub hand: u32,
    pub holds_ripper_escapes: bool,
}

fn no_points(points: &[u32; 6]) -> bool {
    points.iter().all(|&p| p == 0)
}

/// A round as entered at its end.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RoundTally {
    pub ending: Ending,
    /// The suspect whose Alibi is in play, if any (only one at a time); the player it lies
    /// in front of carries its points.
    #[serde(default)]
    pub alibi: Option<usize>,
    #[serde(default)]
    pub victims_in_play: u8,
    pub players: Vec<PlayerTally>,
}

impl RoundTally {
    /// What no deck allows, and no play could have led to (002): more cards of a kind than
    /// the deck has, a set of fewer than three, a Suspect or Alibi card with no set of its
    /// suspect in play, more than one Alibi, points no card prints.
    pub fn check(&self) -> Result<(), String> {
        let players = &self.players;
        let across = |f: &dyn Fn(&PlayerTally) -> u32| players.iter().map(f).sum::<u32>();
        let mut jokers = 0;
        for (s, suspect) in SUSPECTS.iter().enumerate() {
            let name = suspect.name;
            let evidence = across(&|p| u32::from(p.evidence[s]));
            if evidence > EVIDENCE_PER_SUSPECT {
                return Err(format!(
                    "the deck has five Evidence cards of {name}, not {evidence}"
                ));
            }
            let on_suspect = across(&|p| u32::from(p.joker_cards[s]));
            jokers += on_suspect;
            let set = evidence + on_suspect;
            if (1..SET).contains(&set) {
                return Err(format!(
                    "{name} has {set} Evidence card(s) on the table: a set is at least three (Jokers included)"
                ));
            }
            let suspect_cards = players.iter().filter(|p| p.suspect_cards[s]).count();
            if suspect_cards > 1 {
                return Err(format!(
                    "{name}'s Suspect card can be in front of one player only"
                ));
            }
            if suspect_cards == 1 && set == 0 {
                return Err(format!(
                    "{name}'s Suspect card is played only on a set of {name}'s Evidence: enter the set, or take the card out"
                ));
            }
            if self.alibi == Some(s) && set == 0 {
                return Err(format!(
                    "{name}'s Alibi is played only on a set of {name}'s Evidence: enter the set, or the Alibi in play"
                ));
            }
        }
        if jokers > JOKERS_IN_THE_DECK {
            return Err(format!("the deck has two Jokers, not {jokers}"));
        }
        let letters = across(&|p| u32::from(p.letters));
        if letters > LETTERS_IN_THE_DECK {
            return Err(format!("the deck has four Letters cards, not {letters}"));
        }
        if (1..SET).contains(&letters) {
            return Err(format!(
                "{letters} Letters card(s) on the table: Letters are played as a set of at least three"
            ));
        }
        // One Ripper Escapes card: held by one player at most, and by nobody once played.
        let escapes = players.iter().filter(|p| p.holds_ripper_escapes).count();
        if escapes > 1 {
            return Err("there is one Ripper Escapes card: only one player can hold it".into());
        }
        if escapes == 1 && matches!(self.ending, Ending::RipperEscapes { .. }) {
            return Err("Ripper Escapes was played to end the round: nobody still holds it".into());
        }
        let holders = players.iter().filter(|p| p.alibi > 0).count();
        match (self.alibi, holders) {
            (None, 0) | (Some(_), 1) => {}
            (None, _) => {
                return Err(
                    "the Alibi's points are entered with the Alibi in play: say whose Alibi it is"
                        .into(),
                );
            }
            (Some(_), 0) => {
                return Err("say in front of whom the Alibi in play lies, and its points".into());
            }
            (Some(_), _) => {
                return Err("there is one Alibi in play at a time, in front of one player".into());
            }
        }
        if players.iter().any(|p| p.alibi > MOST_PRINTED) {
            return Err(format!("an Alibi card prints 1 to {MOST_PRINTED} points"));
        }
        if players.iter().any(|p| !no_points(&p.joker_points)) {
            return Err("count the Jokers on each suspect (`joker_cards`); their points come from the card numbers".into());
        }
        if players
            .iter()
            .any(|p| p.victims_and_scenes > MOST_POINTS || p.hand > MOST_POINTS)
        {
            return Err(format!(
                "no cards are worth more than {MOST_POINTS} points: check the Victims and Scenes and the hand"
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
                        let card = if p.suspect_cards[s] {
                            printed.suspect_card[s]
                        } else {
                            0
                        };
                        (u32::from(p.evidence[s]) * printed.evidence[s])
                            .saturating_add(u32::from(p.joker_cards[s]) * printed.joker)
                            .saturating_add(p.joker_points[s])
                            .saturating_add(card)
                    }),
                    letters: u32::from(p.letters) * LETTER,
                    alibi: p.alibi,
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

    const DRUITT: usize = 0;
    const CHAPMAN: usize = 4;

    fn tally(players: Vec<PlayerTally>) -> RoundTally {
        RoundTally {
            ending: Ending::LastCard,
            alibi: None,
            victims_in_play: 2,
            players,
        }
    }

    #[test]
    fn counts_become_points_with_the_printed_values() {
        let mut ann = PlayerTally {
            letters: 3,
            victims_and_scenes: 5,
            ..Default::default()
        };
        ann.evidence[CHAPMAN] = 5;
        ann.suspect_cards[CHAPMAN] = true;
        ann.evidence[DRUITT] = 2;
        ann.joker_cards[DRUITT] = 1;
        let tally = tally(vec![ann, PlayerTally::default()]);
        tally.check().unwrap();
        let round = tally.round(&Printed::default(), &[Some(4), None]);
        // 002: 5 Chapman evidence + his Suspect card = 14.
        assert_eq!(round.players[0].on_suspects[CHAPMAN], 14);
        assert_eq!(round.players[0].on_suspects[DRUITT], 2 * 2 + 2);
        assert_eq!(round.players[0].letters, 9);
        assert_eq!(round.players[0].vote, Some(4));
        let mut corrected = Printed::default();
        corrected.evidence[CHAPMAN] = 3;
        corrected.joker = 5;
        let again = tally.round(&corrected, &[]);
        assert_eq!(again.players[0].on_suspects[CHAPMAN], 19);
        assert_eq!(again.players[0].on_suspects[DRUITT], 2 * 2 + 5);
    }

    #[test]
    fn a_tally_no_deck_allows_is_refused() {
        let refused = |players: Vec<PlayerTally>, alibi: Option<usize>| {
            let mut t = tally(players);
            t.alibi = alibi;
            t.check().unwrap_err()
        };
        let with = |f: &dyn Fn(&mut PlayerTally)| {
            let mut p = PlayerTally::default();
            p.evidence[DRUITT] = 3;
            f(&mut p);
            p
        };
        let card = with(&|p| p.suspect_cards[DRUITT] = true);
        let mut also = PlayerTally::default();
        also.suspect_cards[DRUITT] = true;
        assert!(refused(vec![card, also], None).contains("one player only"));
        let six = with(&|p| p.evidence[DRUITT] = 6);
        assert!(refused(vec![six, PlayerTally::default()], None).contains("five Evidence"));
        let split = |n| with(&|p| p.evidence[DRUITT] = n);
        assert!(refused(vec![split(3), split(3)], None).contains("five Evidence"));
        let too_many = with(&|p| p.joker_cards[DRUITT] = 3);
        assert!(refused(vec![too_many, PlayerTally::default()], None).contains("two Jokers"));
        let two_letters = with(&|p| p.letters = 2);
        assert!(
            refused(vec![two_letters, PlayerTally::default()], None).contains("at least three")
        );
        let letters = |n| PlayerTally {
            letters: n,
            ..Default::default()
        };
        assert!(refused(vec![letters(3), letters(2)], None).contains("four Letters"));
        let lone = with(&|p| p.evidence[CHAPMAN] = 2);
        assert!(refused(vec![lone, PlayerTally::default()], None).contains("at least three"));
        let no_set = with(&|p| p.suspect_cards[CHAPMAN] = true);
        assert!(refused(vec![no_set, PlayerTally::default()], None).contains("only on a set"));
        let plain = with(&|_| {});
        assert!(
            refused(vec![plain.clone(), PlayerTally::default()], Some(CHAPMAN))
                .contains("only on a set")
        );
        assert!(
            refused(vec![plain.clone(), PlayerTally::default()], Some(DRUITT))
                .contains("in front of whom")
        );
        let alibi = with(&|p| p.alibi = 3);
        let another = PlayerTally {
            alibi: 3,
            ..Default::default()
        };
        assert!(refused(vec![alibi.clone(), another], Some(DRUITT)).contains("one Alibi in play"));
        assert!(refused(vec![alibi.clone(), PlayerTally::default()], None).contains("whose Alibi"));
        let mut ok = tally(vec![alibi, PlayerTally::default()]);
        ok.alibi = Some(DRUITT);
        ok.check().unwrap();
        let huge = with(&|p| p.hand = u32::MAX);
        assert!(refused(vec![huge, PlayerTally::default()], None).contains("more than"));
        let holding = PlayerTally {
            holds_ripper_escapes: true,
            ..Default::default()
        };
        assert!(
            refused(vec![holding.clone(), holding.clone()], None).contains("one Ripper Escapes")
        );
        let mut played = tally(vec![holding, PlayerTally::default()]);
        played.ending = Ending::RipperEscapes { by: 1 };
        played.victims_in_play = 5;
        assert!(
            played
                .check()
                .unwrap_err()
                .contains("nobody still holds it")
        );
        let legacy = with(&|p| p.joker_points[DRUITT] = 2);
        assert!(refused(vec![legacy, PlayerTally::default()], None).contains("count the Jokers"));
    }

    #[test]
    fn a_tally_journaled_with_joker_points_keeps_them() {
        let old = r#"{"ending":{"how":"last_card"},"players":[{"evidence":[3,0,0,0,0,0],"jokers":[3,0,0,0,0,0]},{}]}"#;
        let tally: RoundTally = serde_json::from_str(old).unwrap();
        let round = tally.round(&Printed::default(), &[]);
        assert_eq!(round.players[0].on_suspects[DRUITT], 3 * 2 + 3);
        let again = serde_json::to_string(&tally).unwrap();
        assert!(again.contains("\"jokers\":[3,0,0,0,0,0]"), "{again}");
        let new = serde_json::to_string(&tally.players[1]).unwrap();
        assert!(!new.contains("\"jokers\""), "{new}");
    }
}
