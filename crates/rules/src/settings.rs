//! What a table tells Mysterium once for every game, kept in the table's settings: the card
//! sets in its box of the new edition, the expansions and promo cards it owns for classic's
//! draws, and the bands printed on its clairvoyancy track.

use seance_timeline::{Refusal, Settled};
use serde::{Deserialize, Serialize};

use crate::card_sets::CardBox;
use crate::expansions::Collection;
use crate::game::Game;
use crate::levels::TrackBands;

#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Settings {
    /// The card sets in the table's box of the new edition, as the players entered them
    /// (the rulebook prints no numbers).
    pub card_box: CardBox,
    /// The expansions and promo cards the table owns, for classic's draws.
    pub collection: Collection,
    /// The bands printed on the table's clairvoyancy track, told once for every game.
    pub track_bands: TrackBands,
}

impl Settled for Game {
    type Settings = Settings;
    /// Kept among the table's settings before each rule set had its own.
    const FORMERLY_THE_TABLE_S: &'static [&'static str] =
        &["card_box", "collection", "track_bands"];

    fn settled(settings: &Settings) -> Result<(), Refusal> {
        settings.card_box.validate()?;
        settings.collection.validate()?;
        settings.track_bands.validate()
    }
}
