//! The new edition's card sets (RULES.md §2; 004 p.3): the box as the players describe it,
//! by the numbers printed on the cards' backs, and the cards laid out from it — one set of
//! eight per category, or the mixed variant's eight drawn at random from every set.
//!
//! The rulebook names no set and prints no number, so Séance knows only what the players
//! tell it of their own box.

use crate::refusals;
use serde::{Deserialize, Serialize};

use crate::cards::{Card, Category, Layout};
use seance_timeline::{Draw, Param, Refusal, check_name, ensure};

/// Medium cards in a set, and so laid out per category.
pub const SET_SIZE: usize = 8;

/// One set of a category: a name the players know it by (its back, say "green") and the
/// numbers on its eight medium cards, which its ghost cards share.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CardSet {
    pub name: String,
    pub cards: Vec<u8>,
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

    /// Eight distinct numbers per set, each number once in its category, names unique and
    /// no longer than a player's.
    pub fn validate(&self) -> Result<(), Refusal> {
        for category in Category::ALL {
            let mut seen: Vec<u8> = Vec::new();
            let mut names: Vec<String> = Vec::new();
            for set in self.of(category) {
                let name = set.name.trim();
                let what = category.term();
                ensure(!name.is_empty(), || {
                    Refusal::new(refusals::SET_NAME).with("category", what.clone())
                })?;
                check_name(&set.name)?;
                ensure(!names.contains(&name.to_lowercase()), || {
                    Refusal::new(refusals::SAME_SET_NAME)
                        .with("category", what.clone())
                        .with("name", name)
                })?;
                names.push(name.to_lowercase());
                ensure(set.cards.len() == SET_SIZE, || {
                    Refusal::new(refusals::SET_SIZE)
                        .with("category", what.clone())
                        .with("name", name)
                        .with("n", set.cards.len())
                        .with("size", SET_SIZE)
                })?;
                for &card in &set.cards {
                    ensure(card > 0, || {
                        Refusal::new(refusals::CARD_ZERO)
                            .with("category", what.clone())
                            .with("name", name)
                    })?;
                    ensure(!seen.contains(&card), || {
                        Refusal::new(refusals::CARD_TWICE)
                            .with("category", what.clone())
                            .with("card", card)
                    })?;
                    seen.push(card);
                }
            }
        }
        Ok(())
    }

    /// The cards laid out for `deal`, and the sets they come from (one set per category).
    pub fn lay_out(&self, deal: &Deal, draw: &mut Draw) -> Result<Layout, Refusal> {
        let mut lay = |category: Category| -> Result<(Vec<Card>, Option<String>), Refusal> {
            let sets = self.of(category);
            ensure(!sets.is_empty(), || {
                Refusal::new(refusals::NO_SETS).with("category", category.term())
            })?;
            let (mut cards, name) = match deal {
                Deal::Sets { .. } => {
                    let set = match deal.named(category) {
                        Some(name) => check_name(name).and_then(|()| {
                            sets.iter()
                                .find(|s| s.name.trim().eq_ignore_ascii_case(name.trim()))
                                .ok_or_else(|| {
                                    let known =
                                        sets.iter().map(|s| Param::Text(s.name.clone())).collect();
                                    Refusal::new(refusals::NO_SUCH_SET)
                                        .with("category", category.term())
                                        .with("name", name.as_str())
                                        .with("sets", Param::List(known))
                                })
                        })?,
                        None => &sets[draw.below(sets.len() as u64) as usize],
                    };
                    (
                        set.cards.iter().map(|&n| Card::from(n)).collect(),
                        Some(set.name.clone()),
                    )
                }
                Deal::Mixed => {
                    let all: Vec<Card> = sets
                        .iter()
                        .flat_map(|s| s.cards.iter().map(|&n| Card::from(n)))
                        .collect();
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

    fn numbers(cards: &[Card]) -> Vec<u8> {
        cards.iter().map(|c| c.number).collect()
    }

    fn set(name: &str, first: u8) -> CardSet {
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
        assert_eq!(numbers(&layout.characters), (1..=8).collect::<Vec<_>>());
        assert_eq!(numbers(&layout.objects), (9..=16).collect::<Vec<_>>());
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
                assert!(numbers(cards).iter().all(|c| (1..=16).contains(c)));
            }
            assert!(layout.sets.is_empty());
        }
        assert!(
            mixed
                .iter()
                .any(|l| numbers(&l.characters).iter().any(|&c| c <= 8)
                    && numbers(&l.characters).iter().any(|&c| c > 8)),
            "cards of both sets are mixed"
        );
    }

    #[test]
    fn a_box_that_cannot_be_right_says_what_to_check() {
        let mut b = two_sets_each();
        b.locations[1].cards[0] = 2;
        let twice = b.validate().unwrap_err();
        assert_eq!(twice.code, crate::refusals::CARD_TWICE);
        assert_eq!(twice.param("category"), Some(&Category::Location.term()));
        assert_eq!(twice.param("card"), Some(&Param::Number(2)));
        let mut b = two_sets_each();
        b.objects[0].cards.pop();
        let short = b.validate().unwrap_err();
        assert_eq!(short.code, crate::refusals::SET_SIZE);
        assert_eq!(short.param("n"), Some(&Param::Number(7)));
        let mut b = two_sets_each();
        b.characters[1].name = "g".repeat(41);
        let long = b.validate().unwrap_err();
        assert_eq!(long.code, seance_timeline::refusals::NAME_TOO_LONG);
        assert_eq!(long.param("chars"), Some(&Param::Number(41)));
        b.characters[1].name = "g".repeat(40);
        assert!(b.validate().is_ok(), "40 characters are a name");
        b.characters[1].name = "GREEN ".into();
        assert_eq!(
            b.validate().unwrap_err().code,
            crate::refusals::SAME_SET_NAME
        );
        assert!(two_sets_each().validate().is_ok());
        let empty = CardBox::default();
        let err = empty
            .lay_out(&Deal::Mixed, &mut Draw::new(1, 0))
            .unwrap_err();
        assert_eq!(err.code, crate::refusals::NO_SETS);
        assert_eq!(err.param("category"), Some(&Category::Character.term()));
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
        assert_eq!(err.code, crate::refusals::NO_SUCH_SET);
        let known = Param::List(vec!["green".into(), "red".into()]);
        assert_eq!(err.param("sets"), Some(&known), "{err}");
    }
}
