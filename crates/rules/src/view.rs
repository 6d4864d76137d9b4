//! What each role may see, built on the server before anything is sent: the table (every
//! public fact), the ghost (plus the secrets and the sealed culprit) and each psychic
//! (plus their own vote). Secrets appear in no other view until the game has ended.

use serde::{Deserialize, Serialize};

use crate::cards::{Card, Category, Layout};
use crate::clairvoyancy::{Faces, Placement};
use crate::event::Group;
use crate::game::{Game, Outcome, Phase};
use crate::levels::{Level, LevelBands, TrackSide};
use crate::setup::{Colour, CrowRule, Difficulty, SecretMode};
use crate::straw_poll::Count;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Role {
    Table,
    Ghost,
    Psychic(usize),
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct PsychicView {
    pub name: String,
    pub player: String,
    pub colour: Colour,
    pub found: Vec<Card>,
    pub seeking: Option<Category>,
    pub track: u8,
    /// `None` where the bands are uncertain and the table has not said.
    pub level: Option<Level>,
    pub tokens: Faces,
    pub vision: bool,
    pub intuition: Option<Card>,
    pub result: Option<bool>,
    /// Whether they have voted; for whom stays sealed until the count.
    pub voted: bool,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct View {
    pub role: Role,
    pub ghost: String,
    pub difficulty: Difficulty,
    pub secrets: SecretMode,
    pub phase: Phase,
    pub hour: u8,
    pub crows_left: u8,
    pub crow_rule: CrowRule,
    pub layout: Layout,
    pub track_side: Option<TrackSide>,
    pub bands: Option<LevelBands>,
    pub tokens_per_psychic: u8,
    pub psychics: Vec<PsychicView>,
    pub placements: Vec<Placement>,
    pub groups: Vec<Group>,
    pub revealed: u8,
    pub eldest_asked: Option<Vec<usize>>,
    pub count: Option<Count>,
    pub chosen: Option<u8>,
    pub outcome: Option<Outcome>,
    /// Whether the ghost has sealed the culprit (for everyone); which group, below.
    pub culprit_sealed: bool,
    /// The ghost's; everyone's once the game has ended.
    pub culprit: Option<u8>,
    /// Each psychic's character, location and object (app-kept mode): the ghost's;
    /// everyone's once the game has ended.
    pub assignments: Option<Vec<[Card; 3]>>,
    /// A psychic's own sealed vote.
    pub my_vote: Option<u8>,
}

impl Game {
    pub fn view(&self, role: Role) -> View {
        let over = self.phase == Phase::Ended;
        let sees_secrets = over || role == Role::Ghost;
        View {
            role,
            ghost: self.setup.ghost.clone(),
            difficulty: self.setup.difficulty,
            secrets: self.setup.secrets,
            phase: self.phase,
            hour: self.hour,
            crows_left: self.crows_left(),
            crow_rule: self.setup.crows(),
            layout: self.layout.clone(),
            track_side: self.setup.track_side(),
            bands: self.setup.bands(),
            tokens_per_psychic: self.setup.tokens_per_psychic(),
            psychics: self
                .psychics
                .iter()
                .enumerate()
                .map(|(i, p)| PsychicView {
                    name: p.name.clone(),
                    player: self.setup.players[p.player].name.clone(),
                    colour: p.colour,
                    found: p.found.clone(),
                    seeking: p.seeking(),
                    track: p.track,
                    level: self.setup.track_side().and(self.level_of(i)),
                    tokens: p.held,
                    vision: p.vision,
                    intuition: p.intuition,
                    result: p.result,
                    voted: p.vote.is_some(),
                })
                .collect(),
            placements: self.placements.clone(),
            groups: self.groups.clone(),
            revealed: self.revealed,
            eldest_asked: self.eldest_asked.clone(),
            count: self.count.clone(),
            chosen: self.chosen,
            outcome: self.outcome,
            culprit_sealed: self.culprit.is_some(),
            culprit: self.culprit.filter(|_| sees_secrets),
            assignments: self.assignments.clone().filter(|_| sees_secrets),
            my_vote: match role {
                Role::Psychic(i) => self.psychics.get(i).and_then(|p| p.vote),
                _ => None,
            },
        }
    }
}
