//! What the server needs to know of each rule set to carry its games: where they live in
//! the API, its seats and views, which device may send which command, and whether it has
//! a sand timer. The rules themselves stay in their crates; this only routes.

use std::sync::Arc;
use std::time::Duration;

use seance_rules::{Command, Game, Phase, Role, RuleError, Rules};
use seance_rummy::Scorepad;
use serde::Serialize;
use serde::de::DeserializeOwned;

use crate::Shared;
use crate::games::Games;

/// A rule set the server carries games of.
pub trait Kept: Rules + Send + Sync + 'static {
    /// A screen's role: the table's, or a seat a phone may take.
    type Role: Copy + PartialEq + std::fmt::Debug + Send + Sync + 'static;
    type View: Serialize + Send + 'static;
    type Setup: DeserializeOwned + Send + 'static;

    /// The events that start a game, decided by the rules.
    fn start(setup: Self::Setup, seed: u64) -> Result<Vec<Self::Event>, RuleError>;
    /// This rule set's games.
    fn games(shared: &Shared) -> &Arc<Games<Self>>;
    /// The roles in words, for a request that names none of them.
    const ROLES: &'static str;
    /// `table`, or a seat's name.
    fn parse_role(text: &str) -> Option<Self::Role>;
    /// The seat's name (`ghost`, `psychic:2`, `player:1`); `None` for the table.
    fn seat(role: Self::Role) -> Option<String>;
    /// The seats this game has, by name.
    fn seats(&self) -> Vec<String>;
    /// The role's view; refused for a seat the game does not have.
    fn view(&self, role: Self::Role) -> Result<Self::View, RuleError>;
    /// The command in words, for a screen that missed it (sealed choices stay sealed).
    fn describe(&self, command: &Self::Command) -> String;
    /// Whether a device may send `command`: `mine` is the seat it holds (`None` for the
    /// table), `held` says whether a phone holds a seat. `Err` says what to do instead.
    fn may_send(
        command: &Self::Command,
        mine: Option<Self::Role>,
        held: &dyn Fn(Self::Role) -> bool,
    ) -> Result<(), &'static str>;
    /// Whether a phone in this seat may undo, redo and run the timer (besides the table).
    fn hosts(role: Self::Role) -> bool;
    /// Who does those, in words (`the table or the ghost's phone`).
    const HOSTED_BY: &'static str;
    /// The sand timer's run, for a rule set that has one (none by default).
    fn sand_timer(&self) -> Option<Duration> {
        None
    }
    /// Whether the rules are where the sand timer runs.
    fn timer_runs(&self) -> bool {
        false
    }
    /// What the rules do when the sand runs out.
    fn time_up() -> Option<Self::Command> {
        None
    }
}

impl Kept for Game {
    type Role = Role;
    const ROLES: &'static str = "table, ghost or psychic:N";
    type View = seance_rules::View;
    type Setup = seance_rules::Setup;

    fn start(setup: Self::Setup, seed: u64) -> Result<Vec<Self::Event>, RuleError> {
        Game::start(setup, seed)
    }

    fn games(shared: &Shared) -> &Arc<Games<Self>> {
        &shared.games
    }

    fn parse_role(text: &str) -> Option<Role> {
        match text {
            "table" => Some(Role::Table),
            "ghost" => Some(Role::Ghost),
            _ => text
                .strip_prefix("psychic:")?
                .parse()
                .ok()
                .map(Role::Psychic),
        }
    }

    fn seat(role: Role) -> Option<String> {
        match role {
            Role::Table => None,
            Role::Ghost => Some("ghost".into()),
            Role::Psychic(i) => Some(format!("psychic:{i}")),
        }
    }

    fn seats(&self) -> Vec<String> {
        std::iter::once("ghost".to_string())
            .chain((0..self.psychics.len()).map(|i| format!("psychic:{i}")))
            .collect()
    }

    fn view(&self, role: Role) -> Result<seance_rules::View, RuleError> {
        let psychics = self.psychics.len();
        if let Role::Psychic(i) = role
            && i >= psychics
        {
            return Err(RuleError::new(
                "no_such_psychic",
                format!(
                    "there is no psychic {i}: this game's are numbered 0 to {}",
                    psychics - 1
                ),
            ));
        }
        Ok(Game::view(self, role))
    }

    fn describe(&self, command: &Command) -> String {
        command.describe(self)
    }

    /// A psychic's phone acts for its psychic only; the ghost's phone for the ghost; the
    /// table for anyone whose secret act is not on a phone.
    fn may_send(
        command: &Command,
        mine: Option<Role>,
        held: &dyn Fn(Role) -> bool,
    ) -> Result<(), &'static str> {
        let psychic = match *command {
            Command::PlaceIntuition { psychic, .. } | Command::Vote { psychic, .. } => {
                Some(psychic)
            }
            Command::PlaceToken { by, .. } | Command::WithdrawToken { by, .. } => Some(by),
            _ => None,
        };
        match mine {
            Some(Role::Psychic(p)) if psychic != Some(p) => Err(
                "a psychic's phone places its own pawn and tokens and casts its own vote; the rest is done on the table or the ghost's phone",
            ),
            Some(Role::Ghost) if psychic.is_some() => Err(
                "the ghost's phone does not act for the psychics: they play on the table or on their phones",
            ),
            Some(_) => Ok(()),
            None => match *command {
                Command::Vote { psychic, .. } if held(Role::Psychic(psychic)) => {
                    Err("that psychic votes on their phone")
                }
                Command::ChooseCulprit { .. } if held(Role::Ghost) => {
                    Err("the ghost seals the culprit on their phone")
                }
                _ => Ok(()),
            },
        }
    }

    fn hosts(role: Role) -> bool {
        role == Role::Ghost
    }
    const HOSTED_BY: &'static str = "the table or the ghost's phone";

    fn sand_timer(&self) -> Option<Duration> {
        self.setup
            .timer_seconds()
            .map(|s| Duration::from_secs(s.into()))
    }

    fn timer_runs(&self) -> bool {
        self.phase == Phase::Interpretation
    }

    fn time_up() -> Option<Command> {
        Some(Command::EndInterpretation)
    }
}

impl Kept for Scorepad {
    type Role = seance_rummy::Role;
    const ROLES: &'static str = "table or player:N";
    type View = seance_rummy::View;
    type Setup = seance_rummy::Setup;

    fn start(setup: Self::Setup, seed: u64) -> Result<Vec<Self::Event>, RuleError> {
        Scorepad::start(setup, seed)
    }

    fn games(shared: &Shared) -> &Arc<Games<Self>> {
        &shared.rummy
    }

    fn parse_role(text: &str) -> Option<Self::Role> {
        match text {
            "table" => Some(seance_rummy::Role::Table),
            _ => text
                .strip_prefix("player:")?
                .parse()
                .ok()
                .map(seance_rummy::Role::Player),
        }
    }

    fn seat(role: Self::Role) -> Option<String> {
        match role {
            seance_rummy::Role::Table => None,
            seance_rummy::Role::Player(p) => Some(format!("player:{p}")),
        }
    }

    fn seats(&self) -> Vec<String> {
        (0..self.players.len())
            .map(|p| format!("player:{p}"))
            .collect()
    }

    fn view(&self, role: Self::Role) -> Result<Self::View, RuleError> {
        if !self.has(role) {
            return Err(RuleError::new(
                "no_such_player",
                format!(
                    "there is no such player: this game's are numbered 0 to {}",
                    self.players.len() - 1
                ),
            ));
        }
        Ok(Scorepad::view(self, role))
    }

    fn describe(&self, command: &seance_rummy::Command) -> String {
        Scorepad::describe(self, command)
    }

    /// A player's phone votes for its player and may call the vote as them; the rest is
    /// entered on the table, which votes for a player only while no phone holds their seat.
    fn may_send(
        command: &seance_rummy::Command,
        mine: Option<Self::Role>,
        held: &dyn Fn(Self::Role) -> bool,
    ) -> Result<(), &'static str> {
        use seance_rummy::Command as C;
        use seance_rummy::Role::Player;
        match (mine, command) {
            (Some(Player(p)), C::Vote { player, .. } | C::CallVote { by: player })
                if p == *player =>
            {
                Ok(())
            }
            (Some(_), _) => Err(
                "a player's phone casts its own vote and may call the vote; the rounds are entered on the table",
            ),
            (None, C::Vote { player, .. }) if held(Player(*player)) => {
                Err("that player votes on their phone")
            }
            (None, _) => Ok(()),
        }
    }

    fn hosts(_: Self::Role) -> bool {
        false
    }
    const HOSTED_BY: &'static str = "the table";
}
