//! What the server needs to know of each rule set to carry its games: where they live in
//! the API, its seats by name, and its views. Who may do what, and the sand timer, are the
//! rule set's own answers ([`Rules`]); this only routes.

use std::sync::Arc;

use seance_rules::{Edition, Game, Refusal, Role, Rules};
use seance_rummy::Scorepad;
use serde::Serialize;
use serde::de::DeserializeOwned;

use crate::Shared;
use crate::bgstats::Title;
use crate::games::Games;

/// A rule set the server carries games of.
pub trait Kept: Rules + PartialEq + Send + Sync + 'static {
    type View: Serialize + Send + 'static;
    type Setup: DeserializeOwned + Send + 'static;

    /// The events that start a game, decided by the rules.
    fn start(setup: Self::Setup, seed: u64) -> Result<Vec<Self::Event>, Refusal>;
    /// The setup of a rematch: this game's players, seats and settings as they stand.
    fn again(&self) -> Self::Setup;
    /// This rule set's games.
    fn games(shared: &Shared) -> &Arc<Games<Self>>;
    /// The game as BG Stats knows it.
    fn title(&self) -> Title;
    /// The seats this game has, by name.
    fn seats(&self) -> Vec<String>;
    /// A phone's page of game `id`'s seats (after the join link: `#/join/3`).
    fn seats_page(id: i64) -> String;
    /// The role's view; refused for a seat the game does not have.
    fn view(&self, role: Self::Role) -> Result<Self::View, Refusal>;
}

impl Kept for Game {
    fn title(&self) -> Title {
        match self.setup.edition {
            Edition::Classic => Title {
                name: "Mysterium",
                source: Self::RULESET,
                bgg_id: Some(181_304),
                board: None,
            },
            // Its own game in the player's logs. No BoardGameGeek id of its own could be
            // confirmed from here, and the classic game's would file it as that game: the
            // edition is named as the play's board instead.
            Edition::New => Title {
                name: "Mysterium",
                source: "mysterium-new",
                bgg_id: None,
                board: Some("New edition"),
            },
        }
    }
    type View = seance_rules::View;
    type Setup = seance_rules::Setup;

    fn start(setup: Self::Setup, seed: u64) -> Result<Vec<Self::Event>, Refusal> {
        Game::start(setup, seed)
    }

    fn again(&self) -> Self::Setup {
        self.setup.clone()
    }

    fn games(shared: &Shared) -> &Arc<Games<Self>> {
        &shared.games
    }

    fn seats(&self) -> Vec<String> {
        std::iter::once("ghost".to_string())
            .chain((0..self.psychics.len()).map(|i| format!("psychic:{i}")))
            .collect()
    }

    fn seats_page(id: i64) -> String {
        format!("#/join/{id}")
    }

    fn view(&self, role: Role) -> Result<seance_rules::View, Refusal> {
        let psychics = self.psychics.len();
        if let Role::Psychic(i) = role
            && i >= psychics
        {
            return Err(Refusal::new("no_such_psychic").with("last", psychics.saturating_sub(1)));
        }
        Ok(Game::view(self, role))
    }
}

impl Kept for Scorepad {
    fn title(&self) -> Title {
        Title {
            name: "Mystery Rummy: Jack the Ripper",
            source: Self::RULESET,
            // Left out: its BoardGameGeek id could not be confirmed from here, and a wrong
            // one would log the play under another game; BG Stats matches it by name.
            bgg_id: None,
            board: None,
        }
    }
    type View = seance_rummy::View;
    type Setup = seance_rummy::Setup;

    fn start(setup: Self::Setup, seed: u64) -> Result<Vec<Self::Event>, Refusal> {
        Scorepad::start(setup, seed)
    }

    fn again(&self) -> Self::Setup {
        seance_rummy::Setup {
            players: self.players.clone(),
            printed: self.printed,
        }
    }

    fn games(shared: &Shared) -> &Arc<Games<Self>> {
        &shared.rummy
    }

    fn seats(&self) -> Vec<String> {
        (0..self.players.len())
            .map(|p| format!("player:{p}"))
            .collect()
    }

    fn seats_page(id: i64) -> String {
        format!("#/rummy/{id}/join")
    }

    fn view(&self, role: Self::Role) -> Result<Self::View, Refusal> {
        if !self.has(role) {
            return Err(
                Refusal::new("no_such_player").with("last", self.players.len().saturating_sub(1))
            );
        }
        Ok(Scorepad::view(self, role))
    }
}
