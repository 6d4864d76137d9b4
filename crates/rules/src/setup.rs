//! Setting up a game of either edition: who plays, and what follows from them. Classic
//! (RULES.md §1; 000 p.8–9, 003 p.8–9, 001): the difficulty sets the cards laid out per
//! category and the crows; the player count the clairvoyancy tokens and the track side.
//! New edition (RULES.md §2; 004 p.3): the card sets, 3 candles, no track, no sand timer
//! unless the table adds one.

use crate::refusals;
use serde::{Deserialize, Serialize};

use crate::card_sets::{CardBox, Deal, SET_SIZE};
use crate::clairvoyancy::Faces;
use crate::expansions::{Collection, Expansion, Third};
use crate::levels::{LevelBands, TrackBands, TrackSide};
use seance_timeline::{Param, Refusal, check_name, ensure};

/// Which rulebook the table plays by.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Edition {
    /// The 2015 rules: difficulty, sand timer, crows, clairvoyancy, straw poll.
    #[default]
    Classic,
    /// Candles, the pocket watch and card sets.
    New,
}

impl Edition {
    pub const ALL: [Edition; 2] = [Edition::Classic, Edition::New];

    /// Whether a game of `players` ends with the straw poll: where it has a clairvoyancy
    /// track (classic, 4 players or more), whose levels say who votes when. Only then do
    /// the ages and the rulebook's printing matter.
    pub fn straw_poll(self, players: usize) -> bool {
        track_side(self, players).is_some()
    }

    /// Its own words where they are not the classic game's (the language files' `new:`
    /// keys).
    pub fn dialect(self) -> Option<&'static str> {
        match self {
            Edition::Classic => None,
            Edition::New => Some("new"),
        }
    }

    /// Its name, as the journal, the API and the screens spell it.
    pub fn name(self) -> &'static str {
        match self {
            Edition::Classic => "classic",
            Edition::New => "new",
        }
    }

    /// How many play, the ghost included: 2 to 7 in the classic game, 3 to 7 in the new
    /// edition.
    pub fn players(self) -> std::ops::RangeInclusive<usize> {
        match self {
            Edition::Classic => 2..=7,
            Edition::New => 3..=7,
        }
    }
}

/// Which printing of the classic rulebook breaks a straw poll's persisting tie. The
/// printings agree up to the psychics furthest on the track; when those psychics, level on
/// their space, voted for different tied groups:
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Printing {
    /// The original rulebook (000 p.12, 003 p.12): "the eldest player" decides, wherever
    /// they stand on the track.
    #[default]
    Original,
    /// The later English printing (001): the eldest of the psychics level on that space.
    Later,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Difficulty {
    Easy,
    Medium,
    Hard,
}

/// Who keeps the ghost's secrets.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SecretMode {
    /// The app draws each psychic's character, location and object, shows them to the
    /// ghost only, and judges intuitions entered as card numbers.
    AppKept,
    /// The ghost draws with the real cards; the app records what the ghost says.
    Paper,
}

/// The six psychic colours.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Colour {
    Red,
    Yellow,
    Blue,
    Purple,
    White,
    Green,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlayerSetup {
    pub name: String,
    /// One colour; two when each psychic player runs two psychics (classic: 2 or 3
    /// players; new edition: 3).
    pub colours: Vec<Colour>,
    /// Asked only to break a tie in the straw poll; the app asks when it matters.
    #[serde(default)]
    pub age: Option<u8>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Setup {
    #[serde(default)]
    pub edition: Edition,
    pub ghost: String,
    /// The psychic players, in seating order.
    pub players: Vec<PlayerSetup>,
    /// Classic only.
    #[serde(default)]
    pub difficulty: Option<Difficulty>,
    /// Classic only: the rulebook printing the table plays by.
    #[serde(default)]
    pub printing: Printing,
    pub secrets: SecretMode,
    /// New edition only: what the box holds, and how the cards are chosen from it.
    #[serde(default)]
    pub card_box: Option<CardBox>,
    #[serde(default)]
    pub deal: Option<Deal>,
    /// The level bands as read off the table's own track; the rulebooks' facts otherwise.
    #[serde(default)]
    pub bands: Option<LevelBands>,
    /// Both sides of the table's track as printed, when the table told them (Settings):
    /// the side in play settles every level unless `bands` says otherwise.
    #[serde(default, skip_serializing_if = "TrackBands::is_empty")]
    pub track_bands: TrackBands,
    /// ✓ and ✗ tokens per psychic, when the table's tokens differ from the default.
    #[serde(default)]
    pub token_faces: Option<Faces>,
    /// The sand timer's length in seconds, as a house rule: classic's box has one of 120
    /// seconds; the new edition has none unless the table adds one.
    #[serde(default)]
    pub sand_timer: Option<u16>,
    /// Classic only: the expansions and promo cards whose cards join the draws.
    #[serde(default, skip_serializing_if = "Collection::is_empty")]
    pub collection: Collection,
    /// Classic only: objects, or *Secrets & Lies*'s stories in their place.
    #[serde(default, skip_serializing_if = "Third::is_objects")]
    pub third: Third,
}

/// House-rule sand timers run this many seconds.
pub const SAND_TIMER_SECONDS: std::ops::RangeInclusive<u16> = 1..=600;
/// The sand timer in classic's box: two minutes.
pub const BOX_SAND_TIMER: u16 = 120;

/// A sand timer of `seconds` as a house rule, if it is one a table may choose.
pub fn sand_timer(seconds: u64) -> Result<std::time::Duration, Refusal> {
    match u16::try_from(seconds) {
        Ok(s) if SAND_TIMER_SECONDS.contains(&s) => Ok(std::time::Duration::from_secs(seconds)),
        _ => Err(Refusal::new(refusals::SAND_TIMER)
            .with("least", *SAND_TIMER_SECONDS.start())
            .with("most", *SAND_TIMER_SECONDS.end())
            .with("seconds", seconds)),
    }
}
/// The ages the straw poll's tie-break accepts.
pub const AGES: std::ops::RangeInclusive<u8> = 1..=120;

impl Colour {
    /// The colour as a refusal says it, in the table's language.
    pub fn term(self) -> Param {
        Param::Term(self.key())
    }

    /// The colour's key in the language files.
    pub fn key(self) -> &'static str {
        match self {
            Colour::Red => "colour.red",
            Colour::Yellow => "colour.yellow",
            Colour::Blue => "colour.blue",
            Colour::Purple => "colour.purple",
            Colour::White => "colour.white",
            Colour::Green => "colour.green",
        }
    }

    pub const ALL: [Colour; 6] = [
        Colour::Red,
        Colour::Yellow,
        Colour::Blue,
        Colour::Purple,
        Colour::White,
        Colour::Green,
    ];
}

/// How often the ghost may use a crow, or in the new edition a candle (discard and redraw
/// up to 7 vision cards).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "per", content = "count")]
pub enum CrowRule {
    Turn(u8),
    Game(u8),
}

/// Cards laid out per category by difficulty (rows) and players 2–7 (columns).
const LAYOUT: [[usize; 6]; 3] = [[4, 5, 5, 6, 6, 7], [5, 6, 6, 7, 8, 8], [6, 7, 7, 8, 9, 9]];

/// The clairvoyancy track's side with `players` at the table (the ghost included), if the
/// track is used: classic games of 4 players or more (000 p.8; 2 and 3 players play
/// without it, 000 l.692).
pub fn track_side(edition: Edition, players: usize) -> Option<TrackSide> {
    match (edition, players) {
        (Edition::New, _) | (Edition::Classic, 0..=3) => None,
        (Edition::Classic, 4 | 5) => Some(TrackSide::FourFive),
        (Edition::Classic, _) => Some(TrackSide::SixSeven),
    }
}

impl Setup {
    /// A classic setup with colours dealt in order: one each, or two each with 2 or 3
    /// players.
    pub fn with_dealt_colours(
        ghost: &str,
        players: &[&str],
        difficulty: Difficulty,
        secrets: SecretMode,
    ) -> Setup {
        Setup::dealt(Edition::Classic, ghost, players, Some(difficulty), secrets)
    }

    /// A new-edition setup with colours dealt in order, the cards chosen by `deal` from
    /// `card_box`.
    pub fn new_edition(
        ghost: &str,
        players: &[&str],
        secrets: SecretMode,
        card_box: CardBox,
        deal: Deal,
    ) -> Setup {
        Setup {
            card_box: Some(card_box),
            deal: Some(deal),
            ..Setup::dealt(Edition::New, ghost, players, None, secrets)
        }
    }

    fn dealt(
        edition: Edition,
        ghost: &str,
        players: &[&str],
        difficulty: Option<Difficulty>,
        secrets: SecretMode,
    ) -> Setup {
        let each = colours_each(players.len() + 1);
        let mut colours = Colour::ALL.iter().copied().cycle();
        Setup {
            edition,
            ghost: ghost.into(),
            players: players
                .iter()
                .map(|name| PlayerSetup {
                    name: name.to_string(),
                    colours: colours.by_ref().take(each).collect(),
                    age: None,
                })
                .collect(),
            difficulty,
            printing: Printing::default(),
            secrets,
            card_box: None,
            deal: None,
            bands: None,
            track_bands: TrackBands::default(),
            token_faces: None,
            sand_timer: None,
            collection: Collection::default(),
            third: Third::default(),
        }
    }

    /// The words of this game where they differ from classic Mysterium's (the language
    /// files' `new:` and `stories:` keys): the new edition's, or *Secrets & Lies*'s stories.
    pub fn dialect(&self) -> Option<&'static str> {
        match (self.edition, self.third) {
            (Edition::Classic, Third::Stories) => Some("stories"),
            (edition, _) => edition.dialect(),
        }
    }

    /// Players at the table, the ghost included.
    pub fn player_count(&self) -> usize {
        1 + self.players.len()
    }

    pub fn validate(&self) -> Result<(), Refusal> {
        let n = self.player_count();
        let players = self.edition.players();
        ensure(players.contains(&n), || {
            Refusal::new(refusals::PLAYER_COUNT)
                .with("fewest", *players.start())
                .with("most", *players.end())
                .with("n", n)
        })?;
        ensure(!self.ghost.trim().is_empty(), || {
            Refusal::new(refusals::GHOST_NAME)
        })?;
        for name in std::iter::once(&self.ghost).chain(self.players.iter().map(|p| &p.name)) {
            check_name(name)?;
        }
        if let Some(age) = self
            .players
            .iter()
            .filter_map(|p| p.age)
            .find(|a| !AGES.contains(a))
        {
            return Err(Refusal::new(refusals::AGE)
                .with("least", *AGES.start())
                .with("most", *AGES.end())
                .with("age", age));
        }
        self.validate_edition()?;
        let colours_each = colours_each(n);
        let mut names = vec![self.ghost.trim().to_lowercase()];
        let mut colours = Vec::new();
        for p in &self.players {
            let name = p.name.trim();
            ensure(!name.is_empty(), || Refusal::new(refusals::PSYCHIC_NAME))?;
            ensure(!names.contains(&name.to_lowercase()), || {
                Refusal::new(refusals::SAME_NAME).with("name", name)
            })?;
            names.push(name.to_lowercase());
            ensure(p.colours.len() == colours_each, || {
                let refusal = if colours_each == 2 {
                    Refusal::new(refusals::TWO_COLOURS)
                } else {
                    Refusal::new(refusals::ONE_COLOUR)
                };
                refusal.with("n", n).with("name", name)
            })?;
            for c in &p.colours {
                ensure(!colours.contains(c), || {
                    Refusal::new(refusals::COLOUR_TWICE).with("colour", c.term())
                })?;
                colours.push(*c);
            }
        }
        if let Some(bands) = &self.bands {
            bands.validate()?;
            if let Some(side) = self.track_side() {
                bands.fits(side)?;
            }
        }
        self.track_bands.validate()?;
        if let Some(seconds) = self.sand_timer {
            sand_timer(seconds.into())?;
        }
        if let Some(faces) = self.token_faces {
            ensure(
                faces.total() == u16::from(self.tokens_per_psychic()),
                || {
                    Refusal::new(refusals::TOKEN_FACES)
                        .with("n", n)
                        .with("tokens", self.tokens_per_psychic())
                        .with("total", faces.total())
                },
            )?;
        }
        Ok(())
    }

    /// What only one edition has: classic's difficulty; the new edition's card sets.
    fn validate_edition(&self) -> Result<(), Refusal> {
        match self.edition {
            Edition::Classic => {
                ensure(self.difficulty.is_some(), || {
                    Refusal::new(refusals::DIFFICULTY)
                })?;
                ensure(self.card_box.is_none() && self.deal.is_none(), || {
                    Refusal::new(refusals::SETS_ARE_NEW_EDITION)
                })?;
                self.collection.validate()?;
                ensure(
                    self.third.is_objects() || self.collection.owns(&Expansion::SecretsAndLies),
                    || Refusal::new(refusals::STORIES_NEED_SECRETS_AND_LIES),
                )
            }
            Edition::New => {
                ensure(self.difficulty.is_none(), || {
                    Refusal::new(refusals::NO_DIFFICULTY)
                })?;
                ensure(self.bands.is_none() && self.token_faces.is_none(), || {
                    Refusal::new(refusals::NO_TRACK)
                })?;
                ensure(self.printing == Printing::default(), || {
                    Refusal::new(refusals::PRINTING_IS_CLASSIC)
                })?;
                ensure(
                    self.collection.is_empty() && self.third.is_objects(),
                    || Refusal::new(refusals::EXPANSIONS_ARE_CLASSIC),
                )?;
                let Some(card_box) = &self.card_box else {
                    return Err(Refusal::new(refusals::CARD_BOX));
                };
                ensure(self.deal.is_some(), || Refusal::new(refusals::DEAL))?;
                card_box.validate()
            }
        }
    }

    /// Psychic cards laid out per category (000 p.8 table; 5 players, Medium → 7); a set
    /// of eight in the new edition.
    pub fn cards_per_category(&self) -> usize {
        match self.difficulty {
            Some(d) => LAYOUT[d as usize][self.player_count() - 2],
            None => SET_SIZE,
        }
    }

    /// Crows by difficulty (classic); 3 candles for the game (new edition).
    pub fn crows(&self) -> CrowRule {
        match self.difficulty {
            Some(Difficulty::Easy) => CrowRule::Turn(1),
            Some(Difficulty::Medium) | None => CrowRule::Game(3),
            Some(Difficulty::Hard) => CrowRule::Game(1),
        }
    }

    /// Clairvoyancy tokens per psychic: none with 2–3 players, 4 with 4–5, 6 with 6–7;
    /// none in the new edition.
    pub fn tokens_per_psychic(&self) -> u8 {
        match (self.edition, self.player_count()) {
            (Edition::New, _) | (_, 0..=3) => 0,
            (_, 4 | 5) => 4,
            _ => 6,
        }
    }

    /// The sand timer's run in seconds: the box's 2 minutes or the house rule's (classic);
    /// the house rule's only (new edition).
    pub fn timer_seconds(&self) -> Option<u16> {
        match self.edition {
            Edition::Classic => Some(self.sand_timer.unwrap_or(BOX_SAND_TIMER)),
            Edition::New => self.sand_timer,
        }
    }

    /// Each psychic's ✓ and ✗ tokens at the start and whenever they are recovered.
    pub fn starting_faces(&self) -> Faces {
        self.token_faces
            .unwrap_or_else(|| Faces::default_for(self.tokens_per_psychic()))
    }

    /// The clairvoyancy track's side, if the track is used (classic, 4+ players).
    pub fn track_side(&self) -> Option<TrackSide> {
        track_side(self.edition, self.player_count())
    }

    pub fn bands(&self) -> Option<LevelBands> {
        self.track_side().map(|side| {
            self.bands
                .or_else(|| self.track_bands.side(side))
                .unwrap_or_else(|| LevelBands::rulebook(side))
        })
    }

    /// Each psychic in play as (player index, colour), in seating order.
    pub fn psychic_seats(&self) -> Vec<(usize, Colour)> {
        self.players
            .iter()
            .enumerate()
            .flat_map(|(i, p)| p.colours.iter().map(move |&c| (i, c)))
            .collect()
    }
}

/// Colours per psychic player: two with 2 or 3 players (classic: 2 or 4 psychics; the new
/// edition's three-player variant: played as four mediums), else one.
pub fn colours_each(players: usize) -> usize {
    if players <= 3 { 2 } else { 1 }
}

#[cfg(test)]
mod tests {
    use super::*;

    pub fn setup(players: usize, difficulty: Difficulty) -> Setup {
        let names = ["P0", "P1", "P2", "P3", "P4", "P5", "P6"];
        Setup::with_dealt_colours(
            "Laura",
            &names[..players - 1],
            difficulty,
            SecretMode::AppKept,
        )
    }

    #[test]
    fn the_layout_table_matches_the_rulebook() {
        // 000 p.8, 003 p.8: rows Easy/Medium/Hard, columns 2..7 players.
        let expected = [
            (Difficulty::Easy, [4, 5, 5, 6, 6, 7]),
            (Difficulty::Medium, [5, 6, 6, 7, 8, 8]),
            (Difficulty::Hard, [6, 7, 7, 8, 9, 9]),
        ];
        for (difficulty, row) in expected {
            for (players, cards) in (2..=7).zip(row) {
                assert_eq!(
                    setup(players, difficulty).cards_per_category(),
                    cards,
                    "{players} players, {difficulty:?}"
                );
            }
        }
        // The worked example: five players at Medium lay out 7 character cards.
        assert_eq!(setup(5, Difficulty::Medium).cards_per_category(), 7);
    }

    #[test]
    fn tokens_crows_and_track_follow_the_player_count() {
        let counts: Vec<_> = (2..=7)
            .map(|n| setup(n, Difficulty::Easy).tokens_per_psychic())
            .collect();
        assert_eq!(counts, [0, 0, 4, 4, 6, 6]);
        assert_eq!(setup(3, Difficulty::Easy).track_side(), None);
        assert_eq!(
            setup(5, Difficulty::Easy).track_side(),
            Some(TrackSide::FourFive)
        );
        assert_eq!(
            setup(6, Difficulty::Easy).track_side(),
            Some(TrackSide::SixSeven)
        );
        assert_eq!(setup(4, Difficulty::Easy).crows(), CrowRule::Turn(1));
        assert_eq!(setup(4, Difficulty::Medium).crows(), CrowRule::Game(3));
        assert_eq!(setup(4, Difficulty::Hard).crows(), CrowRule::Game(1));
        assert_eq!(setup(2, Difficulty::Easy).psychic_seats().len(), 2);
        assert_eq!(setup(3, Difficulty::Easy).psychic_seats().len(), 4);
        assert_eq!(setup(7, Difficulty::Easy).psychic_seats().len(), 6);
    }

    #[test]
    fn bad_setups_say_what_to_fix() {
        let mut s = setup(3, Difficulty::Easy);
        s.players[0].colours.pop();
        let one = s.validate().unwrap_err();
        assert_eq!(one.code, crate::refusals::TWO_COLOURS);
        assert_eq!(one.param("name"), Some(&Param::Text("P0".into())));
        let mut s = setup(5, Difficulty::Easy);
        s.players[1].colours = s.players[0].colours.clone();
        assert_eq!(
            s.validate().unwrap_err().code,
            crate::refusals::COLOUR_TWICE
        );
        let mut s = setup(5, Difficulty::Easy);
        s.players[1].name = "p0".into();
        assert_eq!(s.validate().unwrap_err().code, crate::refusals::SAME_NAME);
        let mut s = setup(7, Difficulty::Easy);
        s.players.push(PlayerSetup {
            name: "X".into(),
            colours: vec![Colour::Red],
            age: None,
        });
        let eight = s.validate().unwrap_err();
        assert_eq!(eight.code, crate::refusals::PLAYER_COUNT);
        assert_eq!(eight.param("n"), Some(&Param::Number(8)));
        let mut s = setup(4, Difficulty::Easy);
        s.token_faces = Some(Faces {
            agree: 3,
            disagree: 3,
        });
        assert_eq!(s.validate().unwrap_err().code, crate::refusals::TOKEN_FACES);
        // Numbers no box has are refused, never overflowed.
        s.token_faces = Some(Faces {
            agree: 200,
            disagree: 100,
        });
        assert_eq!(s.validate().unwrap_err().code, crate::refusals::TOKEN_FACES);
        let mut s = setup(5, Difficulty::Easy);
        s.players[2].name = "N".repeat(41);
        let long = s.validate().unwrap_err();
        assert_eq!(long.code, seance_timeline::refusals::NAME_TOO_LONG);
        assert_eq!(long.param("most"), Some(&Param::Number(40)), "{long}");
        s.players[2].name = "É".repeat(40);
        s.validate().unwrap();
        s.ghost = "x".repeat(2_000_000);
        assert_eq!(
            s.validate().unwrap_err().code,
            seance_timeline::refusals::NAME_TOO_LONG
        );
        let mut s = setup(5, Difficulty::Easy);
        for age in [0, 121, 255] {
            s.players[0].age = Some(age);
            assert_eq!(
                s.validate().unwrap_err().code,
                crate::refusals::AGE,
                "{age}"
            );
        }
        s.players[0].age = Some(97);
        s.validate().unwrap();
    }
}
