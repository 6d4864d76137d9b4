//! What a screen receives of a game: its role's view, what its device may do now, and the
//! last few changes as that role may know them. Secrets are filtered here, at the source:
//! the view and each change's words are the rules' for that role.

use std::time::Instant;

use seance_timeline::{ChangeKind, Extra, RuleBook, Who};
use serde::Serialize;

use super::timer::TimerView;
use super::{GameError, Games, Live};

/// What a screen receives of a game of rule set `G`: a role's view, what its device may do
/// now, and what happened lately as that role may know it.
#[derive(Serialize)]
#[serde(bound = "")]
pub struct Snapshot<G: RuleBook> {
    pub game: i64,
    pub version: u64,
    /// Whether this device may undo (or redo) now: the rules say who, the history whether
    /// there is anything.
    pub can_undo: bool,
    pub can_redo: bool,
    /// What this device may do now, with each action's choices, as the rules say.
    pub allowed: Vec<G::Action>,
    /// A damaged tail found on loading, kept until the table sets it aside: where it
    /// begins (what is wrong with it is the server's log's, not a person's to read).
    pub damage: Option<Damaged>,
    /// The sand timer, on the server's clock, for a game that has one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub timer: Option<TimerView>,
    /// The last few changes, oldest first, as this role may know them.
    pub log: Vec<Logged<G>>,
    /// The seats a phone takes only by the table's invitation (`["ghost"]`).
    pub by_invitation: Vec<String>,
    /// The words this game is told in where they are not its rule set's usual ones
    /// (`Listed::dialect`): `"new"`, `"stories"`, or none.
    pub dialect: Option<&'static str>,
    pub view: G::View,
}

impl<G: RuleBook> Games<G> {
    /// `role`'s view of the game, with what `who` (the device asking) may do now.
    pub fn snapshot(
        &self,
        id: i64,
        role: G::Role,
        who: &Who<G::Role>,
    ) -> Result<Snapshot<G>, GameError> {
        // The view is built outside the game's lock: its next command need not wait on it.
        let (around, game) = self.with(id, |_, live| {
            Ok((Around::of(id, live, role), live.timeline.game().clone()))
        })?;
        let view = game.view(role).map_err(GameError::Rule)?;
        Ok(around.with(&game, who, view))
    }
}

/// A recent change as `role`'s log tells it.
#[derive(Serialize)]
#[serde(bound = "")]
pub struct Logged<G: RuleBook> {
    pub version: u64,
    pub change: ChangeKind,
    /// Who sent it: the table, or a seat (`"ghost"`, `{"psychic": 2}`); none for the sand
    /// running out, or before a restart.
    pub by: Option<G::Role>,
    pub told: Vec<G::Told>,
    /// An undo's: the version of the change it took back.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub undid: Option<u64>,
}

/// Where a game's damaged tail begins: its first entry that cannot be read.
#[derive(Debug, Clone, Copy, Serialize)]
pub struct Damaged {
    pub entry: u64,
}

/// What a snapshot holds around the view: taken under the lock, the view added after.
struct Around<G: RuleBook> {
    game: i64,
    version: u64,
    can_undo: bool,
    can_redo: bool,
    damage: Option<Damaged>,
    timer: Option<TimerView>,
    log: Vec<Logged<G>>,
}

impl<G: RuleBook> Around<G> {
    fn of(id: i64, live: &Live<G>, role: G::Role) -> Around<G> {
        let log = live
            .timeline
            .recent()
            .map(|change| Logged {
                version: change.version,
                change: change.kind,
                by: change.by,
                undid: change.undid,
                told: change
                    .events
                    .iter()
                    .filter_map(|e| live.timeline.game().told(e, role))
                    .collect(),
            })
            .filter(|logged| !logged.told.is_empty())
            .collect();
        Around {
            game: id,
            log,
            version: live.timeline.version(),
            can_undo: live.timeline.can_undo(),
            can_redo: live.timeline.can_redo(),
            damage: live.damage.as_ref().map(|d| Damaged { entry: d.seq }),
            timer: live.timer.as_ref().map(|t| t.view(Instant::now())),
        }
    }

    fn with(self, game: &G, who: &Who<G::Role>, view: G::View) -> Snapshot<G> {
        Snapshot {
            game: self.game,
            version: self.version,
            can_undo: self.can_undo && game.may(who, Extra::Undo).is_ok(),
            can_redo: self.can_redo && game.may(who, Extra::Redo).is_ok(),
            allowed: game.allowed(who),
            damage: self.damage,
            timer: self.timer,
            log: self.log,
            by_invitation: (game.seats().into_iter())
                .filter(|&seat| G::by_invitation(seat))
                .map(|seat| seat.to_string())
                .collect(),
            dialect: game.dialect(),
            view,
        }
    }
}
