//! Each rule set's games as its router holds them: the routes of a rule set reach its own
//! store ([`Carried`]), named by its [`RuleSet`]'s key (`/api/games`, `/api/rummy`). What the
//! rules answer (who may do what, the views, the sand timer) is theirs ([`RuleBook`]).

use std::sync::Arc;

use axum::extract::FromRef;
use seance_timeline::{RuleBook, RuleSet};

use crate::games::Games;
use crate::shared::Shared;

/// A rule set's router's state: its games, and what every request shares.
pub(crate) struct Carried<G: RuleBook> {
    pub games: Arc<Games<G>>,
    pub shared: Arc<Shared>,
}

impl<G: RuleBook> Clone for Carried<G> {
    fn clone(&self) -> Self {
        Carried {
            games: self.games.clone(),
            shared: self.shared.clone(),
        }
    }
}

impl<G: RuleBook> FromRef<Carried<G>> for Arc<Shared> {
    fn from_ref(carried: &Carried<G>) -> Arc<Shared> {
        carried.shared.clone()
    }
}

impl<G: RuleBook> FromRef<Carried<G>> for Arc<Games<G>> {
    fn from_ref(carried: &Carried<G>) -> Arc<Games<G>> {
        carried.games.clone()
    }
}

/// A phone's page of the seats of game `id` of `rule_set` (after the join link:
/// `#/join/3`), as the UI routes it.
pub fn seats_page(rule_set: RuleSet, id: i64) -> String {
    match rule_set {
        RuleSet::Mysterium => format!("#/join/{id}"),
        RuleSet::MysteryRummy => format!("#/rummy/{id}/join"),
    }
}
