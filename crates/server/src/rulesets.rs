//! Every rule set the server carries, registered here and nowhere else: its games' store
//! ([`RuleSets`], one field each), the pages the UI shows its games on, and the one match
//! on a [`RuleSet`] in the server ([`rule_set!`]), which the compiler holds to every rule
//! set there is. Everything else is generic over a [`Registered`] rule set: its router, the
//! socket that follows its games, its plays for BG Stats, its games brought in with a
//! history. What the rules answer (who may do what, the views, the sand timer, the facts a
//! setup asks, the game as BG Stats knows it) is theirs ([`RuleBook`]).

use std::sync::Arc;

use seance_history::Chronicle;
use seance_journal::{Journal, JournalError};
use seance_timeline::{Published, RuleBook, RuleSet};
use serde::Serialize;

use crate::games::Games;
use crate::seats::Commits;

/// Each rule set's games, each on a connection of its own to the journal.
pub struct RuleSets {
    mysterium: Arc<Games<seance_rules::Game>>,
    rummy: Arc<Games<seance_rummy::Scorepad>>,
    #[cfg(feature = "fake-rule-set")]
    straws: Arc<Games<seance_played::fake::Straws>>,
}

/// A rule set the server carries: where its games are kept, and where the UI shows them.
pub trait Registered: RuleBook<Record: Chronicle> {
    const PAGES: Pages;

    fn games(sets: &RuleSets) -> &Arc<Games<Self>>;
}

impl Registered for seance_rules::Game {
    const PAGES: Pages = Pages {
        new: "#/new",
        game: "#/game/{id}",
        join: "#/join/{id}",
        phone: "#/phone/{id}",
    };

    fn games(sets: &RuleSets) -> &Arc<Games<Self>> {
        &sets.mysterium
    }
}

impl Registered for seance_rummy::Scorepad {
    const PAGES: Pages = Pages {
        new: "#/new/rummy",
        game: "#/rummy/{id}",
        join: "#/rummy/{id}/join",
        phone: "#/rummy/{id}/phone",
    };

    fn games(sets: &RuleSets) -> &Arc<Games<Self>> {
        &sets.rummy
    }
}

#[cfg(feature = "fake-rule-set")]
impl Registered for seance_played::fake::Straws {
    const PAGES: Pages = Pages {
        new: "#/new/straws",
        game: "#/straws/{id}",
        join: "#/straws/{id}/join",
        phone: "#/straws/{id}/phone",
    };

    fn games(sets: &RuleSets) -> &Arc<Games<Self>> {
        &sets.straws
    }
}

/// `$body` with `$G` the type of `$rule_set`'s games: the server's one match on a rule set.
macro_rules! rule_set {
    ($rule_set:expr, $G:ident => $body:expr) => {
        match $rule_set {
            seance_timeline::RuleSet::Mysterium => {
                type $G = seance_rules::Game;
                $body
            }
            seance_timeline::RuleSet::MysteryRummy => {
                type $G = seance_rummy::Scorepad;
                $body
            }
            #[cfg(feature = "fake-rule-set")]
            seance_timeline::RuleSet::Straws => {
                type $G = seance_played::fake::Straws;
                $body
            }
        }
    };
}
pub(crate) use rule_set;

impl RuleSets {
    /// Each rule set's games on a connection of its own to `journal`'s file.
    pub fn open(journal: &Journal) -> Result<RuleSets, JournalError> {
        Ok(RuleSets {
            mysterium: Arc::new(Games::new(journal.beside()?)),
            rummy: Arc::new(Games::new(journal.beside()?)),
            #[cfg(feature = "fake-rule-set")]
            straws: Arc::new(Games::new(journal.beside()?)),
        })
    }

    /// `G`'s games.
    pub fn games<G: Registered>(&self) -> &Arc<Games<G>> {
        G::games(self)
    }

    /// The journal's commits, as any rule set's connection counts them, for the seats.
    pub fn commits(&self) -> Commits {
        rule_set!(RuleSet::ALL[0], G => {
            let games = self.games::<G>().clone();
            Box::new(move || games.commits())
        })
    }

    /// Every rule set's sand timers written where they are (a clean stop).
    pub fn keep_timers(&self) {
        for rule_set in RuleSet::ALL {
            rule_set!(rule_set, G => self.games::<G>().keep_timers());
        }
    }
}

/// Where the UI shows a rule set's games, `{id}` standing for a game's number: a new game
/// (its setup), the table's screen, a phone's seat picker and a seat's phone. The UI routes
/// its screens by them (told in the home page: [`told`]).
#[derive(Debug, Clone, Copy, Serialize)]
pub struct Pages {
    pub new: &'static str,
    pub game: &'static str,
    pub join: &'static str,
    pub phone: &'static str,
}

/// Each rule set as the UI knows it, told in its home page (`assets.rs`): its name (as the
/// journal and the lists of games name it), its key in the API, the UI's pages of its
/// games, and what its setup asks of its rules before there is a game.
pub fn told() -> serde_json::Value {
    serde_json::Value::Array(
        RuleSet::ALL
            .map(|rule_set| {
                rule_set!(rule_set, G => serde_json::json!({
                    "name": rule_set.name(),
                    "key": rule_set.key(),
                    "pages": G::PAGES,
                    "facts": G::facts(),
                }))
            })
            .into(),
    )
}

/// A phone's page of the seats of game `id` of `rule_set` (after the join link:
/// `#/join/3`).
pub fn seats_page(rule_set: RuleSet, id: i64) -> String {
    let join = rule_set!(rule_set, G => G::PAGES.join);
    join.replace("{id}", &id.to_string())
}
