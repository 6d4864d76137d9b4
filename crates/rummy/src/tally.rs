//! What the players read off the cards at the end of a round, as the scorepad asks for
//! it: how many Evidence, Joker and Letters cards, and which Suspect cards, for the cards
//! whose points are known ([`Printed`]); the points as printed for the rest (the Alibi in
//! play, Victims, Scenes, the cards left in hand). Checked against the deck (002,
//! "Composition du paquet") and turned into points here, so a corrected card value scores
//! every round again.

use crate::refusals;
use seance_timeline::{Refusal, ensure};
use serde::{Deserialize, Serialize};

use crate::round::{Ending, MOST_POINTS, PlayerCards, Round};
use crate::suspects::{LETTER, MOST_PRINTED, Printed, SUSPECTS};

/// The deck (002): five Evidence cards of each suspect, four Letters, two Jokers.
const EVIDENCE_PER_SUSPECT: u32 = 5;
const LETTERS_IN_THE_DECK: u32 = 4;
const JOKERS_IN_THE_DECK: u32 = 2;
/// A set is at least three Evidence cards of one colour in front of one player (Jokers
/// included, 002 "Série"); other players may only add to a set in play (002 l.96, l.216).
const SET: u32 = 3;
/// Five Victim cards (002).
const VICTIMS: u8 = 5;

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
    /// The Suspect cards left in the player's hand. The rulebook does not say what one
    /// costs; Séance reads it like the Alibi (002 l.240, l.279), as it too is played only on
    /// a set in play (l.116): its points when no set of its suspect is in play, nothing
    /// when one could have taken it.
    pub suspect_cards_in_hand: [bool; 6],
    pub letters: u8,
    /// Points of the Alibi in play when it lies in front of this player, as printed.
    pub alibi: u32,
    /// Points of the Victim and Scene cards in front of the player, as printed.
    pub victims_and_scenes: u32,
    /// Points of the other cards left in hand that cost points: Evidence and Alibi cards
    /// that could not be played for want of a set in play (002 l.240, the −9 of l.279),
    /// Scenes, Victims.
    pub hand: u32,
    pub holds_ripper_escapes: bool,
}

impl PlayerTally {
    /// The Evidence and Jokers in front of the player on suspect `s`: a set of theirs, or
    /// cards added to another's.
    fn on_suspect(&self, s: usize) -> u32 {
        u32::from(self.evidence[s]) + u32::from(self.joker_cards[s])
    }
}

fn no_points(points: &[u32; 6]) -> bool {
    points.iter().all(|&p| p == 0)
}

/// How many of each card one round's form may count: the deck's (002), and the most
/// points a card prints.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Limits {
    /// Evidence cards of one suspect.
    pub evidence: u32,
    pub jokers: u32,
    pub letters: u32,
    pub victims: u8,
    /// The most points a card prints (the Alibi, Evidence, a Suspect card).
    pub points: u32,
}

/// The deck's limits, as a round's form counts them.
pub const LIMITS: Limits = Limits {
    evidence: EVIDENCE_PER_SUSPECT,
    jokers: JOKERS_IN_THE_DECK,
    letters: LETTERS_IN_THE_DECK,
    victims: VICTIMS,
    points: MOST_PRINTED,
};

/// A past round as its form opens again to be corrected.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Correcting {
    /// The round as entered, Jokers counted as cards: those journaled as points (older
    /// journals) become Jokers again where a Joker's printed points divide them.
    pub tally: RoundTally,
    /// Some Jokers' points were not a number of Jokers: the table counts them again.
    pub recount: bool,
    /// Who the Alibi in play lies in front of, if anyone.
    pub alibi_holder: Option<usize>,
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
    /// This round as its form opens again, with Jokers counted in cards at `printed`.
    pub fn correcting(&self, printed: &Printed) -> Correcting {
        let mut tally = self.clone();
        let mut recount = false;
        for player in &mut tally.players {
            for (s, points) in std::mem::take(&mut player.joker_points)
                .into_iter()
                .enumerate()
            {
                match points.checked_rem(printed.joker) {
                    Some(0) => {
                        let cards = points / printed.joker;
                        player.joker_cards[s] = player.joker_cards[s]
                            .saturating_add(u8::try_from(cards).unwrap_or(u8::MAX));
                    }
                    _ => recount = true,
                }
            }
        }
        let alibi_holder = tally.players.iter().position(|p| p.alibi > 0);
        Correcting {
            tally,
            recount,
            alibi_holder,
        }
    }

    /// Whether player `p` has a set in front of them, a set of Letters included: three or
    /// more cards of one suspect (Jokers included), or of Letters (002 "Série").
    pub fn has_set(&self, p: usize) -> bool {
        self.players.get(p).is_some_and(|p| {
            u32::from(p.letters) >= SET || (0..SUSPECTS.len()).any(|s| p.on_suspect(s) >= SET)
        })
    }

    /// What no deck allows, and no play could have led to (002): more cards of a kind than
    /// the deck has, Evidence or Letters with nobody holding a set of three of them, a
    /// Suspect or Alibi card with no set of its suspect in play, more than one Alibi, points
    /// no card prints, Evidence with no Victim in play, an escape before the fifth Victim.
    pub fn check(&self) -> Result<(), Refusal> {
        let (jokers, laid) = self.check_suspects()?;
        ensure(jokers <= JOKERS_IN_THE_DECK, || {
            Refusal::new(refusals::JOKERS_IN_DECK)
                .with("most", JOKERS_IN_THE_DECK)
                .with("n", jokers)
        })?;
        let letters = self.check_letters()?;
        // Nobody lays Evidence, Letters included, before a Victim is in play, and a Victim
        // played stays there (002 l.142, l.216).
        let evidence = letters + laid;
        ensure(evidence == 0 || self.victims_in_play > 0, || {
            Refusal::new(refusals::EVIDENCE_BEFORE_VICTIM).with("n", evidence)
        })?;
        self.check_escape()?;
        self.check_alibi()?;
        let players = &self.players;
        ensure(players.iter().all(|p| no_points(&p.joker_points)), || {
            Refusal::new(refusals::JOKER_CARDS)
        })?;
        ensure(
            players
                .iter()
                .all(|p| p.victims_and_scenes <= MOST_POINTS && p.hand <= MOST_POINTS),
            || Refusal::new(refusals::MOST_POINTS).with("most", MOST_POINTS),
        )
    }

    /// Each suspect's Evidence, sets, Suspect card and Alibi; gives back the Jokers and the
    /// Evidence (Jokers included) laid on every suspect.
    fn check_suspects(&self) -> Result<(u32, u32), Refusal> {
        let players = &self.players;
        let mut jokers = 0;
        // Evidence and Jokers laid, on every suspect.
        let mut laid = 0;
        for (s, suspect) in SUSPECTS.iter().enumerate() {
            let name = suspect.name;
            let evidence = self.across(&|p| u32::from(p.evidence[s]));
            ensure(evidence <= EVIDENCE_PER_SUSPECT, || {
                Refusal::new(refusals::EVIDENCE_IN_DECK)
                    .with("suspect", name)
                    .with("most", EVIDENCE_PER_SUSPECT)
                    .with("n", evidence)
            })?;
            jokers += self.across(&|p| u32::from(p.joker_cards[s]));
            let set = self.across(&|p| p.on_suspect(s));
            laid += set;
            let largest = self.most(&|p| p.on_suspect(s));
            ensure(set == 0 || largest >= SET, || {
                Refusal::new(refusals::SET_OF_THREE)
                    .with("suspect", name)
                    .with("n", largest)
                    .with("least", SET)
            })?;
            let suspect_cards = players.iter().filter(|p| p.suspect_cards[s]).count();
            let in_hands = players
                .iter()
                .filter(|p| p.suspect_cards_in_hand[s])
                .count();
            ensure(suspect_cards + in_hands <= 1, || {
                Refusal::new(refusals::ONE_SUSPECT_CARD).with("suspect", name)
            })?;
            ensure(suspect_cards == 0 || set > 0, || {
                Refusal::new(refusals::SUSPECT_CARD_ON_SET).with("suspect", name)
            })?;
            ensure(self.alibi != Some(s) || set > 0, || {
                Refusal::new(refusals::ALIBI_ON_SET).with("suspect", name)
            })?;
        }
        Ok((jokers, laid))
    }

    /// The Letters: no more than the deck's, and in a set of three; gives back how many.
    fn check_letters(&self) -> Result<u32, Refusal> {
        let letters = self.across(&|p| u32::from(p.letters));
        ensure(letters <= LETTERS_IN_THE_DECK, || {
            Refusal::new(refusals::LETTERS_IN_DECK)
                .with("most", LETTERS_IN_THE_DECK)
                .with("n", letters)
        })?;
        let largest = self.most(&|p| u32::from(p.letters));
        ensure(letters == 0 || largest >= SET, || {
            Refusal::new(refusals::LETTERS_SET)
                .with("n", largest)
                .with("least", SET)
        })?;
        Ok(letters)
    }

    /// The Victims and the Ripper Escapes card: no more Victims than the deck's, one card,
    /// played only once all five Victims are in play.
    fn check_escape(&self) -> Result<(), Refusal> {
        let players = &self.players;
        // One Ripper Escapes card: held by one player at most, and by nobody once played.
        let escapes = players.iter().filter(|p| p.holds_ripper_escapes).count();
        ensure(escapes <= 1, || Refusal::new(refusals::ONE_RIPPER_ESCAPES))?;
        ensure(self.victims_in_play <= VICTIMS, || {
            Refusal::new(refusals::VICTIMS_IN_DECK)
                .with("most", VICTIMS)
                .with("n", self.victims_in_play)
        })?;
        if let Ending::RipperEscapes { by } = self.ending {
            ensure(escapes == 0, || {
                Refusal::new(refusals::RIPPER_ESCAPES_PLAYED)
            })?;
            ensure(by < players.len(), || {
                Refusal::new(refusals::NO_SUCH_PLAYER).with("last", players.len().saturating_sub(1))
            })?;
            ensure(self.victims_in_play == VICTIMS, || {
                Refusal::new(refusals::ESCAPE_BEFORE_VICTIMS)
                    .with("victims", VICTIMS)
                    .with("n", self.victims_in_play)
            })?;
        }
        Ok(())
    }

    /// The Alibi in play: of a suspect, in front of exactly one player, at printed points.
    fn check_alibi(&self) -> Result<(), Refusal> {
        let players = &self.players;
        ensure(self.alibi.is_none_or(|a| a < SUSPECTS.len()), || {
            Refusal::new(refusals::NO_SUCH_SUSPECT).with("last", SUSPECTS.len() - 1)
        })?;
        let holders = players.iter().filter(|p| p.alibi > 0).count();
        match (self.alibi, holders) {
            (None, 0) | (Some(_), 1) => {}
            (None, _) => return Err(Refusal::new(refusals::ALIBI_WHOSE)),
            (Some(_), 0) => return Err(Refusal::new(refusals::ALIBI_WHERE)),
            (Some(_), _) => return Err(Refusal::new(refusals::ONE_ALIBI)),
        }
        ensure(players.iter().all(|p| p.alibi <= MOST_PRINTED), || {
            Refusal::new(refusals::ALIBI_POINTS).with("most", MOST_PRINTED)
        })
    }

    /// A sum over every player.
    fn across(&self, f: &dyn Fn(&PlayerTally) -> u32) -> u32 {
        self.players.iter().map(f).sum::<u32>()
    }

    /// The most in front of one player: a set, when there are three or more.
    fn most(&self, f: &dyn Fn(&PlayerTally) -> u32) -> u32 {
        self.players.iter().map(f).max().unwrap_or(0)
    }

    /// The round in points, with the votes cast (by player).
    pub fn round(&self, printed: &Printed, votes: &[Option<usize>]) -> Round {
        // A suspect's set in play: what a Suspect card in hand could have been played on.
        let in_play: [bool; 6] =
            std::array::from_fn(|s| self.players.iter().any(|p| p.on_suspect(s) > 0));
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
                    hand: (0..SUSPECTS.len())
                        .filter(|&s| p.suspect_cards_in_hand[s] && !in_play[s])
                        .fold(p.hand, |hand, s| {
                            hand.saturating_add(printed.suspect_card[s])
                        }),
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
    fn every_ending_the_form_offers_is_one_a_tally_takes() {
        // Each kind named: a kind added to the rules and not offered fails here.
        let kind = |ending: &Ending| match ending {
            Ending::LastCard => 0,
            Ending::PoliceChiefResigns => 1,
            Ending::RipperEscapes { .. } => 2,
            Ending::DrawPileOutTwice => 3,
        };
        for players in 2..=6 {
            let offered = Ending::every(players);
            let kinds: std::collections::BTreeSet<_> = offered.iter().map(kind).collect();
            assert_eq!(kinds.len(), 4);
            // One more player's Ripper Escapes than there are: the one ending not offered.
            for ending in Ending::every(players + 1) {
                let round = RoundTally {
                    ending,
                    victims_in_play: VICTIMS,
                    ..tally(vec![PlayerTally::default(); players])
                };
                assert_eq!(
                    round.check().is_ok(),
                    offered.contains(&ending),
                    "{ending:?}"
                );
            }
        }
    }

    #[test]
    fn a_round_opened_again_counts_journaled_joker_points_as_jokers_where_they_divide() {
        let mut ann = PlayerTally::default();
        ann.joker_cards[DRUITT] = 1;
        ann.joker_points[DRUITT] = 2;
        ann.joker_points[CHAPMAN] = 4;
        let mut ben = PlayerTally {
            alibi: 3,
            ..Default::default()
        };
        ben.joker_points[CHAPMAN] = 3;
        let old = tally(vec![ann, ben]);
        let joker = Printed {
            joker: 2,
            ..Printed::default()
        };
        let again = old.correcting(&joker);
        let [ann, ben] = &again.tally.players[..] else {
            unreachable!()
        };
        assert_eq!((ann.joker_cards[DRUITT], ann.joker_cards[CHAPMAN]), (2, 2));
        assert_eq!(ann.joker_points, [0; 6], "no points left to count twice");
        // 3 points are no number of 2-point Jokers: the table counts them again.
        assert!(again.recount);
        assert_eq!(ben.joker_cards[CHAPMAN], 0);
        assert_eq!(again.alibi_holder, Some(1));
        let clean = tally(vec![PlayerTally::default(); 2]).correcting(&joker);
        assert!(!clean.recount && clean.alibi_holder.is_none());
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
            t.check().unwrap_err().code
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
        assert!(refused(vec![card.clone(), also], None) == crate::refusals::ONE_SUSPECT_CARD);
        let mut held = PlayerTally::default();
        held.suspect_cards_in_hand[DRUITT] = true;
        assert!(refused(vec![card, held], None) == crate::refusals::ONE_SUSPECT_CARD);
        let six = with(&|p| p.evidence[DRUITT] = 6);
        assert!(
            refused(vec![six, PlayerTally::default()], None) == crate::refusals::EVIDENCE_IN_DECK
        );
        let split = |n| with(&|p| p.evidence[DRUITT] = n);
        assert!(refused(vec![split(3), split(3)], None) == crate::refusals::EVIDENCE_IN_DECK);
        let too_many = with(&|p| p.joker_cards[DRUITT] = 3);
        assert!(
            refused(vec![too_many, PlayerTally::default()], None)
                == crate::refusals::JOKERS_IN_DECK
        );
        let two_letters = with(&|p| p.letters = 2);
        assert!(
            refused(vec![two_letters, PlayerTally::default()], None)
                == crate::refusals::LETTERS_SET
        );
        let letters = |n| PlayerTally {
            letters: n,
            ..Default::default()
        };
        assert!(refused(vec![letters(3), letters(2)], None) == crate::refusals::LETTERS_IN_DECK);
        let lone = with(&|p| p.evidence[CHAPMAN] = 2);
        assert!(refused(vec![lone, PlayerTally::default()], None) == crate::refusals::SET_OF_THREE);
        // Three of a colour, but split: nobody holds a set (002 l.96, l.216).
        let (mut two, mut one) = (PlayerTally::default(), PlayerTally::default());
        two.evidence[CHAPMAN] = 2;
        one.evidence[CHAPMAN] = 1;
        assert!(refused(vec![two.clone(), one.clone()], None) == crate::refusals::SET_OF_THREE);
        let mut joker = one.clone();
        joker.joker_cards[CHAPMAN] = 1;
        assert!(refused(vec![two, joker], None) == crate::refusals::SET_OF_THREE);
        assert!(refused(vec![letters(2), letters(2)], None) == crate::refusals::LETTERS_SET);
        let no_set = with(&|p| p.suspect_cards[CHAPMAN] = true);
        assert!(
            refused(vec![no_set, PlayerTally::default()], None)
                == crate::refusals::SUSPECT_CARD_ON_SET
        );
        let plain = with(&|_| {});
        assert!(
            refused(vec![plain.clone(), PlayerTally::default()], Some(CHAPMAN))
                == crate::refusals::ALIBI_ON_SET
        );
        assert!(
            refused(vec![plain.clone(), PlayerTally::default()], Some(DRUITT))
                == crate::refusals::ALIBI_WHERE
        );
        let alibi = with(&|p| p.alibi = 3);
        let another = PlayerTally {
            alibi: 3,
            ..Default::default()
        };
        assert!(refused(vec![alibi.clone(), another], Some(DRUITT)) == crate::refusals::ONE_ALIBI);
        assert!(
            refused(vec![alibi.clone(), PlayerTally::default()], None)
                == crate::refusals::ALIBI_WHOSE
        );
        let mut ok = tally(vec![alibi, PlayerTally::default()]);
        ok.alibi = Some(DRUITT);
        ok.check().unwrap();
        // A set with another player's cards added to it, Letters too; a set of one
        // Evidence and two Jokers.
        let added = with(&|p| p.evidence[DRUITT] = 2);
        let mut set = with(&|p| p.letters = 3);
        set.evidence[CHAPMAN] = 1;
        set.joker_cards[CHAPMAN] = 2;
        tally(vec![
            set,
            PlayerTally {
                letters: 1,
                ..added
            },
        ])
        .check()
        .unwrap();
        let huge = with(&|p| p.hand = u32::MAX);
        assert!(refused(vec![huge, PlayerTally::default()], None) == crate::refusals::MOST_POINTS);
        let holding = PlayerTally {
            holds_ripper_escapes: true,
            ..Default::default()
        };
        assert!(
            refused(vec![holding.clone(), holding.clone()], None)
                == crate::refusals::ONE_RIPPER_ESCAPES
        );
        let mut played = tally(vec![holding, PlayerTally::default()]);
        played.ending = Ending::RipperEscapes { by: 1 };
        played.victims_in_play = 5;
        assert!(played.check().unwrap_err().code == crate::refusals::RIPPER_ESCAPES_PLAYED);
        let legacy = with(&|p| p.joker_points[DRUITT] = 2);
        assert!(
            refused(vec![legacy, PlayerTally::default()], None) == crate::refusals::JOKER_CARDS
        );
    }

    #[test]
    fn a_suspect_card_left_in_hand_costs_its_points_only_with_no_set_to_take_it() {
        let mut ann = PlayerTally {
            hand: 4,
            ..Default::default()
        };
        ann.evidence[DRUITT] = 3;
        ann.suspect_cards_in_hand[DRUITT] = true;
        ann.suspect_cards_in_hand[CHAPMAN] = true;
        let tally = tally(vec![ann, PlayerTally::default()]);
        tally.check().unwrap();
        let printed = Printed::default();
        let round = tally.round(&printed, &[]);
        // Druitt's could have gone on Ann's own set; nobody played Chapman's Evidence.
        assert_eq!(round.players[0].hand, 4 + printed.suspect_card[CHAPMAN]);
        assert_eq!(round.players[1].hand, 0);
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
