//! Psychic cards by the numbers on their backs: in the classic box characters 1–18,
//! locations 19–36, objects 37–54 (the ghost's cards carry the same numbers); in the new
//! edition whatever the players' sets carry (`card_sets`).

use std::ops::RangeInclusive;

use seance_timeline::Param;
use serde::{Deserialize, Serialize};

pub type Card = u8;

/// What a psychic seeks, in order: character, then location, then object.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Category {
    Character,
    Location,
    Object,
}

impl Category {
    pub const ALL: [Category; 3] = [Category::Character, Category::Location, Category::Object];

    pub fn cards(self) -> RangeInclusive<Card> {
        match self {
            Category::Character => 1..=18,
            Category::Location => 19..=36,
            Category::Object => 37..=54,
        }
    }

    pub fn of(card: Card) -> Option<Category> {
        Category::ALL
            .into_iter()
            .find(|c| c.cards().contains(&card))
    }

    pub fn index(self) -> usize {
        self as usize
    }

    pub fn name(self) -> &'static str {
        ["character", "location", "object"][self.index()]
    }

    /// The category as a refusal says it, in the table's language.
    pub fn term(self) -> Param {
        Param::Term(["category.character", "category.location", "category.object"][self.index()])
    }
}

/// The psychic cards laid out on the table, by category.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Layout {
    pub characters: Vec<Card>,
    pub locations: Vec<Card>,
    pub objects: Vec<Card>,
    /// The new edition's sets in play (character, location, object), when one per category.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub sets: Vec<String>,
}

impl Layout {
    pub fn of(&self, category: Category) -> &[Card] {
        match category {
            Category::Character => &self.characters,
            Category::Location => &self.locations,
            Category::Object => &self.objects,
        }
    }
}
