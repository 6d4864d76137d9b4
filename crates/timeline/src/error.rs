//! Why something was refused: a stable code per rule and the facts its message needs. The
//! words live in the UI's language files (`refusal.<code>`), one place per language, so a
//! French table reads French; a rule set never writes a sentence. And the bound every rule
//! set puts on a name.

use crate::refusals;
use std::fmt;

use serde::Serialize;
use serde::ser::SerializeMap;

/// A refusal: `code` names the rule (`"one_vision_per_turn"`), distinct per rule; `params`
/// are what its message fills in (a name, a number, the choices left).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Refusal {
    pub code: &'static str,
    pub params: Params,
    /// The words of the game's edition, where they differ from the rule set's usual ones:
    /// the language files' `dialect:refusal.<code>` (the new edition's candles, not crows).
    #[serde(skip)]
    pub dialect: Option<&'static str>,
}

/// A refusal's facts by name, in the order given.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Params(Vec<(&'static str, Param)>);

/// One fact of a refusal.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Param {
    Number(i64),
    /// Said as it is: a player's name, a colour, a set's name.
    Text(String),
    /// Said as a list (names joined by the language's comma).
    List(Vec<Param>),
    /// A player by name, with the colour that tells apart the two a player plays in a small
    /// game (a key of the language files, `colour.red`); the UI words the pair.
    Person {
        name: String,
        colour: Option<&'static str>,
    },
    /// A word of the game, said in the table's language: a key of the language files
    /// (`level.high`, `category.place`).
    Term(&'static str),
}

impl Refusal {
    pub fn new(code: &'static str) -> Refusal {
        Refusal {
            code,
            params: Params::default(),
            dialect: None,
        }
    }

    /// The refusal as said in the words of `dialect` (see [`Listed::dialect`](crate::Listed::dialect)).
    pub fn in_dialect(mut self, dialect: Option<&'static str>) -> Refusal {
        self.dialect = dialect;
        self
    }

    /// The refusal with one more fact for its message.
    pub fn with(mut self, name: &'static str, value: impl Into<Param>) -> Refusal {
        self.params.0.push((name, value.into()));
        self
    }

    /// The fact called `name`, if given.
    pub fn param(&self, name: &str) -> Option<&Param> {
        self.params
            .0
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, v)| v)
    }

    pub fn params(&self) -> impl Iterator<Item = (&'static str, &Param)> {
        self.params.0.iter().map(|(n, v)| (*n, v))
    }

    /// The `{blanks}` of `phrase` (its words in a language file) this refusal has no
    /// param for: none, when its words fit it.
    pub fn unfilled<'a>(&self, phrase: &'a str) -> Vec<&'a str> {
        phrase
            .split('{')
            .skip(1)
            .filter_map(|rest| rest.split_once('}').map(|(name, _)| name))
            .filter(|name| self.param(name).is_none())
            .collect()
    }
}

impl Serialize for Params {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(self.0.len()))?;
        for (name, value) in &self.0 {
            map.serialize_entry(name, value)?;
        }
        map.end()
    }
}

impl Serialize for Param {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            Param::Number(n) => serializer.serialize_i64(*n),
            Param::Text(s) => serializer.serialize_str(s),
            Param::List(items) => items.serialize(serializer),
            // A name alone is sent as a name; with a colour, as the pair.
            Param::Person { name, colour: None } => serializer.serialize_str(name),
            Param::Person {
                name,
                colour: Some(colour),
            } => {
                let mut map = serializer.serialize_map(Some(2))?;
                map.serialize_entry("name", name)?;
                map.serialize_entry("colour", colour)?;
                map.end()
            }
            Param::Term(key) => {
                let mut map = serializer.serialize_map(Some(1))?;
                map.serialize_entry("term", key)?;
                map.end()
            }
        }
    }
}

macro_rules! numbers {
    ($($t:ty),*) => {$(
        impl From<$t> for Param {
            fn from(n: $t) -> Param {
                Param::Number(i64::try_from(n).unwrap_or(i64::MAX))
            }
        }
    )*};
}
numbers!(u8, u16, u32, u64, usize, i32, i64);

impl From<&str> for Param {
    fn from(s: &str) -> Param {
        Param::Text(s.to_owned())
    }
}

impl From<String> for Param {
    fn from(s: String) -> Param {
        Param::Text(s)
    }
}

impl From<Vec<String>> for Param {
    fn from(items: Vec<String>) -> Param {
        Param::List(items.into_iter().map(Param::Text).collect())
    }
}

impl From<Vec<Param>> for Param {
    fn from(items: Vec<Param>) -> Param {
        Param::List(items)
    }
}

impl fmt::Display for Param {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Param::Number(n) => write!(f, "{n}"),
            Param::Text(s) => f.write_str(s),
            Param::List(items) => {
                for (i, item) in items.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    write!(f, "{item}")?;
                }
                Ok(())
            }
            Param::Person { name, colour: None } => f.write_str(name),
            Param::Person {
                name,
                colour: Some(colour),
            } => write!(f, "{name} ({})", colour.trim_start_matches("colour.")),
            Param::Term(key) => f.write_str(key),
        }
    }
}

/// For logs and tests: the code and its facts (`one_vision_per_turn name=Anna`); people
/// read the language files' words instead.
impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.code)?;
        for (name, value) in self.params() {
            write!(f, " {name}={value}")?;
        }
        Ok(())
    }
}

impl std::error::Error for Refusal {}

/// The longest name a player may have, in characters: room on every screen, and a bound
/// on what one request can make every view carry.
pub const NAME_CHARS: usize = 40;

/// Refuses a name longer than [`NAME_CHARS`], counted as sent: spaces around it are kept in
/// every view as much as letters are (the screens trim what they send).
pub fn check_name(name: &str) -> Result<(), Refusal> {
    let chars = name.chars().count();
    ensure(chars <= NAME_CHARS, || {
        Refusal::new(refusals::NAME_TOO_LONG)
            .with("most", NAME_CHARS)
            .with("chars", chars)
    })
}

/// `Err(refusal())` unless `condition` holds.
pub fn ensure(condition: bool, refusal: impl FnOnce() -> Refusal) -> Result<(), Refusal> {
    if condition { Ok(()) } else { Err(refusal()) }
}
