//! The expansions' cards in classic's draws: *Hidden Signs*, *Secrets & Lies* and the promo
//! cards, as far as the table owns them (kept in its settings like the new edition's box),
//! each card by its box's code. The lists follow a public open-source Mysterium setup
//! helper: HS1–6 characters, HS7–12 locations, HS13–18 objects; SL1–6, SL7–12 and SL13–18
//! likewise, and SL19–36 stories, which may take the objects' place as the third category;
//! P1 a character, P2 a location, P3 and P4 objects, P5 a story.
//!
//! A story is an object in the bookkeeping: the third card a psychic seeks, collected,
//! lined up and counted the same way. Only its cards and its word differ.

use crate::refusals;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::cards::{Card, Category, Origin};
use seance_timeline::{Param, Refusal, ensure};

/// A published expansion of Mysterium's classic edition.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Expansion {
    HiddenSigns,
    SecretsAndLies,
    /// A name Séance does not know: refused when the collection is checked, with the names
    /// it knows.
    Unknown(String),
}

impl Expansion {
    /// Each known expansion, its name in the API and its box's title in the language files.
    const KNOWN: [(Expansion, &'static str, &'static str); 2] = [
        (
            Expansion::HiddenSigns,
            "hidden_signs",
            "expansion.hidden_signs",
        ),
        (
            Expansion::SecretsAndLies,
            "secrets_and_lies",
            "expansion.secrets_and_lies",
        ),
    ];

    /// The expansions Séance knows, by their names in the API.
    pub fn names() -> Vec<&'static str> {
        Expansion::KNOWN.iter().map(|&(_, name, _)| name).collect()
    }

    fn name(&self) -> &str {
        match self {
            Expansion::Unknown(name) => name,
            known => Expansion::KNOWN
                .iter()
                .find(|(e, ..)| e == known)
                .map_or("", |(_, name, _)| name),
        }
    }
}

impl Serialize for Expansion {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.name())
    }
}

impl<'de> Deserialize<'de> for Expansion {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Expansion, D::Error> {
        let name = String::deserialize(d)?;
        Ok(Expansion::KNOWN
            .into_iter()
            .find(|(_, known, _)| *known == name)
            .map_or(Expansion::Unknown(name), |(e, ..)| e))
    }
}

/// The promo cards, P1 to P5.
pub const PROMOS: std::ops::RangeInclusive<u8> = 1..=5;

/// What the table owns beyond the base box.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Collection {
    pub expansions: Vec<Expansion>,
    /// The promo cards owned, by number.
    pub promos: Vec<u8>,
}

/// The third category a game's psychics seek.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Third {
    #[default]
    Objects,
    /// *Secrets & Lies*'s story cards in the objects' place.
    Stories,
}

impl Third {
    pub fn is_objects(&self) -> bool {
        *self == Third::Objects
    }
}

/// What a printed card is: one of the three categories, or a story.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    Character,
    Location,
    Object,
    Story,
}

/// Every card Séance knows for classic: the box it comes from, its numbers, its kind.
const CARDS: [(Origin, u8, u8, Kind); 14] = [
    (Origin::Base, 1, 18, Kind::Character),
    (Origin::Base, 19, 36, Kind::Location),
    (Origin::Base, 37, 54, Kind::Object),
    (Origin::HiddenSigns, 1, 6, Kind::Character),
    (Origin::HiddenSigns, 7, 12, Kind::Location),
    (Origin::HiddenSigns, 13, 18, Kind::Object),
    (Origin::SecretsAndLies, 1, 6, Kind::Character),
    (Origin::SecretsAndLies, 7, 12, Kind::Location),
    (Origin::SecretsAndLies, 13, 18, Kind::Object),
    (Origin::SecretsAndLies, 19, 36, Kind::Story),
    (Origin::Promo, 1, 1, Kind::Character),
    (Origin::Promo, 2, 2, Kind::Location),
    (Origin::Promo, 3, 4, Kind::Object),
    (Origin::Promo, 5, 5, Kind::Story),
];

impl Collection {
    pub fn is_empty(&self) -> bool {
        self.expansions.is_empty() && self.promos.is_empty()
    }

    pub fn owns(&self, expansion: &Expansion) -> bool {
        self.expansions.contains(expansion)
    }

    /// Only expansions Séance knows, and promo numbers that exist.
    pub fn validate(&self) -> Result<(), Refusal> {
        for expansion in &self.expansions {
            if let Expansion::Unknown(name) = expansion {
                let known = Expansion::KNOWN
                    .iter()
                    .map(|&(.., term)| Param::Term(term))
                    .collect();
                return Err(Refusal::new(refusals::NO_SUCH_EXPANSION)
                    .with("name", name.as_str())
                    .with("known", Param::List(known)));
            }
        }
        for &promo in &self.promos {
            ensure(PROMOS.contains(&promo), || {
                Refusal::new(refusals::NO_SUCH_PROMO)
                    .with("n", promo)
                    .with("most", *PROMOS.end())
            })?;
        }
        Ok(())
    }

    /// The cards of `category` this table draws from, the base box's first: with `third`
    /// stories, the stories of *Secrets & Lies* (and P5) stand for the objects.
    pub fn pool(&self, category: Category, third: Third) -> Vec<Card> {
        let kind = match (category, third) {
            (Category::Character, _) => Kind::Character,
            (Category::Location, _) => Kind::Location,
            (Category::Object, Third::Objects) => Kind::Object,
            (Category::Object, Third::Stories) => Kind::Story,
        };
        let owned = |origin: Origin, number: u8| match origin {
            Origin::Base => true,
            Origin::HiddenSigns => self.owns(&Expansion::HiddenSigns),
            Origin::SecretsAndLies => self.owns(&Expansion::SecretsAndLies),
            Origin::Promo => self.promos.contains(&number),
        };
        CARDS
            .iter()
            .filter(|&&(_, _, _, k)| k == kind)
            .flat_map(|&(origin, first, last, _)| (first..=last).map(move |n| Card::new(origin, n)))
            .filter(|card| owned(card.origin, card.number))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn everything() -> Collection {
        Collection {
            expansions: vec![Expansion::HiddenSigns, Expansion::SecretsAndLies],
            promos: PROMOS.collect(),
        }
    }

    fn codes(cards: &[Card]) -> Vec<String> {
        cards.iter().map(Card::to_string).collect()
    }

    #[test]
    fn each_category_holds_the_cards_the_boxes_print() {
        let all = everything();
        let characters = codes(&all.pool(Category::Character, Third::Objects));
        assert_eq!(characters.len(), 18 + 6 + 6 + 1);
        assert_eq!(characters[..2], ["1", "2"]);
        assert!(characters.contains(&"HS6".into()) && characters.contains(&"SL1".into()));
        assert!(characters.contains(&"P1".into()) && !characters.contains(&"HS7".into()));
        let locations = codes(&all.pool(Category::Location, Third::Objects));
        assert_eq!(locations.len(), 18 + 6 + 6 + 1);
        assert!(locations.contains(&"36".into()) && locations.contains(&"SL12".into()));
        let objects = codes(&all.pool(Category::Object, Third::Objects));
        assert_eq!(objects.len(), 18 + 6 + 6 + 2);
        assert!(objects.contains(&"P3".into()) && objects.contains(&"P4".into()));
        let stories = codes(&all.pool(Category::Object, Third::Stories));
        assert_eq!(stories.len(), 18 + 1);
        assert_eq!(stories[0], "SL19");
        assert_eq!(stories[17], "SL36");
        assert_eq!(stories[18], "P5");
    }

    #[test]
    fn the_base_box_alone_is_cards_1_to_54() {
        let none = Collection::default();
        let numbers = |c| -> Vec<u8> {
            none.pool(c, Third::Objects)
                .iter()
                .map(|card| card.number)
                .collect()
        };
        assert_eq!(numbers(Category::Character), (1..=18).collect::<Vec<_>>());
        assert_eq!(numbers(Category::Location), (19..=36).collect::<Vec<_>>());
        assert_eq!(numbers(Category::Object), (37..=54).collect::<Vec<_>>());
        // One promo alone adds itself only.
        let p2 = Collection {
            promos: vec![2],
            ..Collection::default()
        };
        assert_eq!(
            codes(&p2.pool(Category::Location, Third::Objects)).last(),
            Some(&"P2".to_owned())
        );
        assert_eq!(p2.pool(Category::Character, Third::Objects).len(), 18);
    }

    #[test]
    fn an_unknown_expansion_or_promo_is_refused_with_what_is_known() {
        let read: Collection =
            serde_json::from_str(r#"{"expansions": ["hidden_signs", "the_deck"], "promos": [1]}"#)
                .unwrap();
        let known = vec![
            Param::Term("expansion.hidden_signs"),
            Param::Term("expansion.secrets_and_lies"),
        ];
        assert_eq!(
            read.validate(),
            Err(Refusal::new(refusals::NO_SUCH_EXPANSION)
                .with("name", "the_deck")
                .with("known", Param::List(known)))
        );
        let promo = Collection {
            promos: vec![6],
            ..Collection::default()
        };
        assert_eq!(
            promo.validate().unwrap_err().code,
            crate::refusals::NO_SUCH_PROMO
        );
        assert!(everything().validate().is_ok());
        // Written as it was read.
        let text = serde_json::to_string(&everything()).unwrap();
        assert_eq!(
            text,
            r#"{"expansions":["hidden_signs","secrets_and_lies"],"promos":[1,2,3,4,5]}"#
        );
    }

    #[test]
    fn a_card_is_its_number_or_its_code() {
        let cards: Vec<Card> = serde_json::from_str(r#"[12, "HS7", "sl24", "P3"]"#).unwrap();
        assert_eq!(
            cards,
            [
                Card::from(12),
                Card::new(Origin::HiddenSigns, 7),
                Card::new(Origin::SecretsAndLies, 24),
                Card::new(Origin::Promo, 3)
            ]
        );
        assert_eq!(
            serde_json::to_string(&cards).unwrap(),
            r#"[12,"HS7","SL24","P3"]"#
        );
        for bad in [r#""HS""#, r#""X7""#, r#""HS-1""#, r#""HS999""#, "-3"] {
            assert!(serde_json::from_str::<Card>(bad).is_err(), "{bad}");
        }
    }
}
