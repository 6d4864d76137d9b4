//! Psychic cards by what is printed on their backs: in the classic box characters 1–18,
//! locations 19–36, objects 37–54 (the ghost's cards carry the same numbers), the
//! expansions' by their box's code (`HS7`, `SL24`, `P3`: `expansions`); in the new edition
//! whatever numbers the players' sets carry (`card_sets`).

use std::fmt;

use seance_timeline::Param;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// The box a card comes from, as its code prints it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Origin {
    /// The base game's (or the new edition's): a number alone.
    Base,
    /// *Hidden Signs*: `HS1`–`HS18`.
    HiddenSigns,
    /// *Secrets & Lies*: `SL1`–`SL36`.
    SecretsAndLies,
    /// The promo cards: `P1`–`P5`.
    Promo,
}

impl Origin {
    const CODED: [(Origin, &'static str); 3] = [
        (Origin::HiddenSigns, "HS"),
        (Origin::SecretsAndLies, "SL"),
        (Origin::Promo, "P"),
    ];

    fn code(self) -> &'static str {
        Origin::CODED
            .iter()
            .find(|(o, _)| *o == self)
            .map_or("", |(_, code)| code)
    }
}

/// A card as printed: a number, or an expansion's code. Carried as the number itself for
/// the base game's cards (as every journal before the expansions has it), as its code
/// (`"HS7"`) for an expansion's.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Card {
    pub origin: Origin,
    pub number: u8,
}

impl Card {
    pub const fn new(origin: Origin, number: u8) -> Card {
        Card { origin, number }
    }
}

impl From<u8> for Card {
    fn from(number: u8) -> Card {
        Card::new(Origin::Base, number)
    }
}

impl fmt::Display for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.origin.code(), self.number)
    }
}

impl std::str::FromStr for Card {
    type Err = ();

    /// `12`, `HS7`, `SL24`, `P3` (case as printed, or not).
    fn from_str(text: &str) -> Result<Card, ()> {
        let upper = text.trim().to_ascii_uppercase();
        let (origin, digits) = Origin::CODED
            .iter()
            .find_map(|&(origin, code)| upper.strip_prefix(code).map(|rest| (origin, rest)))
            .unwrap_or((Origin::Base, upper.as_str()));
        let digits_only = !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit());
        digits_only
            .then(|| digits.parse().ok())
            .flatten()
            .map(|number| Card::new(origin, number))
            .ok_or(())
    }
}

impl Serialize for Card {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self.origin {
            Origin::Base => s.serialize_u8(self.number),
            _ => s.collect_str(self),
        }
    }
}

impl<'de> Deserialize<'de> for Card {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Card, D::Error> {
        #[derive(Deserialize)]
        #[serde(untagged)]
        enum Printed {
            Number(u8),
            Code(String),
        }
        match Printed::deserialize(d)? {
            Printed::Number(n) => Ok(Card::from(n)),
            Printed::Code(code) => code.parse().map_err(|()| {
                serde::de::Error::custom(format!(
                    "{code:?} is not a card: a card is its number (12) or its expansion's code (HS7, SL24, P3)"
                ))
            }),
        }
    }
}

impl From<Card> for Param {
    fn from(card: Card) -> Param {
        match card.origin {
            Origin::Base => Param::Number(card.number.into()),
            _ => Param::Text(card.to_string()),
        }
    }
}

/// What a psychic seeks, in order: character, then location, then object (or, with
/// *Secrets & Lies*, a story in the object's place: the same step of the game, its own
/// cards and word, `Third`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Category {
    Character,
    Location,
    Object,
}

impl Category {
    pub const ALL: [Category; 3] = [Category::Character, Category::Location, Category::Object];

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

/// The psychic cards laid out on the table, by category. `objects` holds the third
/// category's, stories when they stand in for objects (`Third`).
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
