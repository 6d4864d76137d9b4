//! The new edition's card sets (RULES.md §2; 004 p.3): the box as the players describe it,
//! by the numbers printed on the cards' backs, and the cards laid out from it — one set of
//! eight per category, or the mixed variant's eight drawn at random from every set.
//!
//! The rulebook names no set and prints no number, so Séance knows only what the players
//! tell it of their own box.

use serde::{Deserialize, Serialize};

use crate::cards::{Card, Category, Layout};
use seance_timeline::{Draw, RuleError, ensure};

/// Medium cards in a set, and so laid out per category.
pub const SET_SIZE: usize = 8;

/// One set of a category: a name the players know it by (its back, say "green") and the
/// numbers on its eight medium cards, which its ghost cards share.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CardSet {
    pub name: String,
    pub cards: Vec<Card>,
}

/// What the players' box holds, by category.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct CardBox {
    pub characters: Vec<CardSet>,
    pub locations: Vec<CardSet>,
    pub objects: Vec<CardSet>,
}

/// How the cards are chosen for a game.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Deal {
    /// One set per category, named by the players or, when left out, drawn at random.
    Sets {
        #[serde(default)]
        characters: Option<String>,
        #[serde(default)]
        locations: Option<String>,
        #[serde(default)]
        objects: Option<String>,
    },
    /// The variant for replay value: eight cards per category drawn from all the sets.
    Mixed,
}

impl CardBox {
    pub fn of(&self, category: Category) -> &[CardSet] {
        match category {
            Category::Character => &self.characters,
            Category::Location => &self.locations,
            Category::Object => &self.objects,
        }
    }

    /// Eight distinct numbers per set, each number once in its category, names unique.
    pub fn validate(&self) -> Result<(), RuleError> {
        for category in Category::ALL {
            let mut seen: Vec<Card> = Vec::new();
            let mut names: Vec<String> = Vec::new();
            for set in self.of(category) {
                let name = set.name.trim();
                let what = category.name();
                ensure(!name.is_empty(), "card_box", || {
                    format!("every {what} set needs a name, such as the colour of its backs")
                })?;
                ensure(!names.contains(&name.to_lowercase()), "card_box", || {
                    format!("two {what} sets are called {name:?}: give each its own name")
                })?;
                names.push(name.to_lowercase());
                ensure(set.cards.len() == SET_SIZE, "card_box", || {
                    format!(
                        "the {name} {what} set has {} numbers; a set has {SET_SIZE} medium cards: enter the number on the back of each",
                        set.cards.len()
                    )
                })?;
                for &card in &set.cards {
                    ensure(card > 0, "card_box", || {
                        format!(
                            "the {name} {what} set has a card numbered 0: card numbers start at 1"
                        )
                    })?;
                    ensure(!seen.contains(&card), "card_box", || {
                        format!(
                            "{what} card {card} is entered twice: each number is on one card; check the backs"
                        )
                    })?;
                    seen.push(card);
                }
            }
        }
        Ok(())
    }

    /// The cards laid out for `deal`, and the sets they come from (one set per category).
    pub fn lay_out(&self, deal: &Deal, draw: &mut Draw) -> Result<Layout, RuleError> {
        let mut lay = |category: Category| -> Result<(Vec<Card>, Option<String>), RuleError> {
            let sets = self.of(category);
            let what = category.name();
            ensure(!sets.is_empty(), "card_box", || {
                format!(
                    "Séance does not know your box's {what} sets yet: enter each set's name and the numbers on its backs"
                )
            })?;
            let (mut cards, name) = match deal {
                Deal::Sets { .. } => {
                    let set = match deal.named(category) {
                        Some(name) => sets
                            .iter()
                            .find(|s| s.name.trim().eq_ignore_ascii_case(name.trim()))
                            .ok_or_else(|| {
                                let known: Vec<&str> =
                                    sets.iter().map(|s| s.name.as_str()).collect();
                                RuleError::new(
                                    "card_box",
                                    format!(
                                        "there is no {what} set called {name:?} in your box; its {what} sets are: {}",
                                        known.join(", ")
                                    ),
                                )
                            })?,
                        None => &sets[draw.below(sets.len() as u64) as usize],
                    };
                    (set.cards.clone(), Some(set.name.clone()))
                }
                Deal::Mixed => {
                    let all: Vec<Card> = sets.iter().flat_map(|s| s.cards.clone()).collect();
                    (draw.pick(&all, SET_SIZE), None)
                }
            };
            cards.sort_unstable();
            Ok((cards, name))
        };
        let (characters, c) = lay(Category::Character)?;
        let (locations, l) = lay(Category::Location)?;
        let (objects, o) = lay(Category::Object)?;
        Ok(Layout {
            characters,
            locations,
            objects,
            sets: [c, l, o].into_iter().flatten().collect(),
        })
    }
}

impl Deal {
    fn named(&self, category: Category) -> Option<&String> {
        match self {
            Deal::Sets {
                characters,
                locations,
                objects,
            } => [characters, locations, objects][category.index()].as_ref(),
            Deal::Mixed => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn set(name: &str, first: Card) -> CardSet {
        CardSet {
            name: name.into(),
            cards: (first..first + 8).collect(),
        }
    }

    fn two_sets_each() -> CardBox {
        CardBox {
            characters: vec![set("green", 1), set("red", 9)],
            locations: vec![set("green", 1), set("red", 9)],
            objects: vec![set("green", 1), set("red", 9)],
        }
    }

    #[test]
    fn a_named_set_is_laid_out_whole_and_a_missing_name_is_drawn_from_the_seed() {
        let b = two_sets_each();
        let deal = Deal::Sets {
            characters: Some("Green".into()),
            locations: None,
            objects: Some("red".into()),
        };
        let layout = b.lay_out(&deal, &mut Draw::new(5, 0)).unwrap();
        assert_eq!(layout.characters, (1..=8).collect::<Vec<_>>());
        assert_eq!(layout.objects, (9..=16).collect::<Vec<_>>());
        assert_eq!(layout.sets[0], "green");
        assert!(["green", "red"].contains(&layout.sets[1].as_str()));
        let again = b.lay_out(&deal, &mut Draw::new(5, 0)).unwrap();
        assert_eq!(layout, again, "the same seed draws the same set");
        let drawn: std::collections::HashSet<String> = (0..40)
            .map(|seed| b.lay_out(&deal, &mut Draw::new(seed, 0)).unwrap().sets[1].clone())
            .collect();
        assert_eq!(drawn.len(), 2, "either set may be drawn");
    }

    #[test]
    fn the_mixed_variant_draws_eight_per_category_across_the_sets() {
        let b = two_sets_each();
        let mixed: Vec<Layout> = (0..20)
            .map(|seed| b.lay_out(&Deal::Mixed, &mut Draw::new(seed, 0)).unwrap())
            .collect();
        for layout in &mixed {
            for c in Category::ALL {
                let cards = layout.of(c);
                assert_eq!(cards.len(), SET_SIZE);
                assert!(cards.windows(2).all(|w| w[0] < w[1]), "distinct, in order");
                assert!(cards.iter().all(|c| (1..=16).contains(c)));
            }
            assert!(layout.sets.is_empty());
        }
        assert!(
            mixed.iter().any(
                |l| l.characters.iter().any(|&c| c <= 8) && l.characters.iter().any(|&c| c > 8)
            ),
            "cards of both sets are mixed"
        );
    }

    #[test]
    fn a_box_that_cannot_be_right_says_what_to_check() {
        let mut b = two_sets_each();
        b.locations[1].cards[0] = 2;
        assert!(
            b.validate()
                .unwrap_err()
                .message
                .contains("location card 2 is entered twice")
        );
        let mut b = two_sets_each();
        b.objects[0].cards.pop();
        assert!(b.validate().unwrap_err().message.contains("has 7 numbers"));
        let mut b = two_sets_each();
        b.characters[1].name = "GREEN ".into();
        assert!(
            b.validate()
                .unwrap_err()
                .message
                .contains("two character sets")
        );
        assert!(two_sets_each().validate().is_ok());
        let empty = CardBox::default();
        let err = empty
            .lay_out(&Deal::Mixed, &mut Draw::new(1, 0))
            .unwrap_err();
        assert!(
            err.message
                .contains("does not know your box's character sets")
        );
        let err = two_sets_each()
            .lay_out(
                &Deal::Sets {
                    characters: Some("blue".into()),
                    locations: None,
                    objects: None,
                },
                &mut Draw::new(1, 0),
            )
            .unwrap_err();
        assert!(err.message.contains("green, red"), "{err}");
    }
}
