//! What each role may see, built on the server before anything is sent: the table (every
//! public fact), the ghost (plus the secrets and the sealed culprit) and each psychic
//! (plus their own vote). Secrets appear in no other view until the game has ended. What a
//! device may do now is not here but in [`crate::Action`]s, which depend on the device.

use serde::Serialize;

use crate::cards::{Card, Category, Layout};
use crate::clairvoyancy::{Faces, Placement};
use crate::clock::HOURS;
use crate::command::Command;
use crate::event::Group;
use crate::expansions::Third;
use crate::game::{Decision, Game, Manifestation, Outcome, Phase, SHARED_VISION_CARDS};
use crate::levels::{Level, LevelBands, TrackSide};
use crate::role::{Role, Seat};
use crate::setup::{Colour, CrowRule, Difficulty, Edition, SecretMode};
use crate::straw_poll::Count;
use seance_timeline::RoleName;

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct PsychicView {
    /// Their player's name.
    pub name: String,
    /// Their player plays two colours (a game of 2 or 3): the UI names them with their
    /// colour, in its language.
    pub two_colours: bool,
    pub colour: Colour,
    pub found: Vec<Card>,
    pub seeking: Option<Category>,
    pub track: u8,
    /// `None` where the bands are uncertain and the table has not said.
    pub level: Option<Level>,
    /// The card of the shared vision after which they vote (their level's).
    pub votes_after: Option<u8>,
    pub tokens: Faces,
    pub vision: bool,
    pub intuition: Option<Card>,
    pub result: Option<bool>,
    /// Wrong in the turn before: this turn the ghost completes that vision (adds at
    /// least one card, may take some back) rather than giving a new one.
    pub completing: bool,
    /// Whether they have voted; for whom stays sealed until the count.
    pub voted: bool,
    /// Whether it is their turn to vote now (their level's card of the shared vision is
    /// up, or the mediums vote): who casts it is in each device's `allowed`.
    pub voting_now: bool,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct View {
    /// Whose view this is: the ghost's or a psychic's seat; `None` for the table's (and a
    /// watcher's).
    pub me: Option<Seat>,
    pub edition: Edition,
    /// Objects, or stories in their place: the screens say the third category's word.
    pub third: Third,
    pub ghost: String,
    /// Classic only.
    pub difficulty: Option<Difficulty>,
    pub secrets: SecretMode,
    /// The sand timer's run in seconds; `None` when the game has none (the new edition
    /// without a house rule).
    pub sand_timer: Option<u16>,
    pub phase: Phase,
    pub hour: u8,
    /// The clock's hours (VII).
    pub hours: u8,
    pub crows_left: u8,
    pub crow_rule: CrowRule,
    pub layout: Layout,
    pub track_side: Option<TrackSide>,
    pub bands: Option<LevelBands>,
    /// The track's spaces to show (to space 12 at least, and one past the furthest
    /// psychic), each with its level, or `null` where the bands leave it uncertain; none
    /// without a track.
    pub spaces: Vec<Option<Level>>,
    pub tokens_per_psychic: u8,
    pub psychics: Vec<PsychicView>,
    pub placements: Vec<Placement>,
    /// The line-up; a group's `psychic` only where it is shown.
    pub groups: Vec<Group>,
    /// The used tokens came back at the start of this turn (turn 4).
    pub tokens_back: bool,
    /// The game has not begun: hour 1, before the first vision (the table lays the cards
    /// out).
    pub before_first_vision: bool,
    /// How the psychics decide on the culprit's group in Phase 2.
    pub decision: Decision,
    /// Each answer is knocked on the table as it is recorded (the new edition).
    pub answers_knock: bool,
    /// New edition: whether the mediums may vote when they do not agree.
    pub majority_vote: bool,
    /// New edition: whether the ghost has given the shared vision.
    pub shared_vision: bool,
    pub revealed: u8,
    /// The shared vision's cards (three).
    pub vision_cards: u8,
    /// What the ghost has said this turn, in order, and in the turn before, played in
    /// `last_turn_hour` (0 before any).
    pub manifestations: Vec<Manifestation>,
    pub last_turn: Vec<Manifestation>,
    pub last_turn_hour: u8,
    pub eldest_asked: Option<Vec<usize>>,
    /// The count as far as the table has shown it (whole once the game has ended).
    pub count: Option<Count>,
    /// The votes are counted and the table has yet to show some of the count.
    pub counting: bool,
    pub chosen: Option<u8>,
    pub outcome: Option<Outcome>,
    /// Whether the ghost has sealed the culprit (for everyone); which group, below.
    pub culprit_sealed: bool,
    /// The ghost's until the votes are counted; everyone's once the game has ended.
    pub culprit: Option<u8>,
    /// Each psychic's character, location and object (app-kept mode): the ghost's;
    /// everyone's once the game has ended.
    pub assignments: Option<Vec<[Card; 3]>>,
    /// A psychic's own sealed vote.
    pub my_vote: Option<u8>,
}

impl Game {
    /// What `role` sees of the game now.
    pub fn view(&self, role: Role) -> View {
        let over = self.phase == Phase::Ended;
        let sees_secrets = over || role == Role::Ghost;
        let sees_culprit = over || (role == Role::Ghost && self.ghost_sees_culprit());
        View {
            me: role.seat(),
            edition: self.setup.edition,
            third: self.setup.third,
            ghost: self.setup.ghost.clone(),
            difficulty: self.setup.difficulty,
            secrets: self.setup.secrets,
            sand_timer: self.setup.timer_seconds(),
            phase: self.phase,
            hour: self.hour,
            hours: HOURS,
            crows_left: self.crows_left(),
            crow_rule: self.setup.crows(),
            layout: self.layout.clone(),
            track_side: self.setup.track_side(),
            bands: self.setup.bands(),
            spaces: self.spaces(),
            tokens_per_psychic: self.setup.tokens_per_psychic(),
            psychics: self.psychic_views(),
            placements: self.placements.clone(),
            // Whose group is whose is said where the rulebook lays it open: the new
            // edition's traces lie by their mediums' envelopes; classic's, at the end.
            groups: self
                .groups
                .iter()
                .map(|g| Group {
                    psychic: g
                        .psychic
                        .filter(|_| over || self.setup.edition == Edition::New),
                    ..g.clone()
                })
                .collect(),
            tokens_back: self.tokens_back && self.setup.tokens_per_psychic() > 0,
            before_first_vision: self.hour == 1
                && self.phase == Phase::Visions
                && self.psychics.iter().all(|p| !p.vision),
            majority_vote: self.has_majority_vote(),
            shared_vision: self.shared_vision,
            revealed: self.revealed,
            vision_cards: SHARED_VISION_CARDS,
            decision: self.decision(),
            answers_knock: self.answers_knock(),
            manifestations: self.manifestations.clone(),
            last_turn: self.last_turn.clone(),
            last_turn_hour: self.last_turn_hour,
            eldest_asked: self.eldest_asked.clone(),
            count: self
                .count
                .as_ref()
                .map(|c| if over { c.clone() } else { c.shown(self.shown) }),
            counting: self.counting(),
            chosen: self.chosen,
            outcome: self.outcome,
            culprit_sealed: self.culprit.is_some(),
            culprit: self.culprit.filter(|_| sees_culprit),
            assignments: self.assignments.clone().filter(|_| sees_secrets),
            my_vote: match role {
                Role::Psychic(i) => self.psychics.get(i).and_then(|p| p.vote),
                _ => None,
            },
        }
    }

    /// The track's spaces to show, each with its level where the bands settle it.
    fn spaces(&self) -> Vec<Option<Level>> {
        self.setup.bands().map_or_else(Vec::new, |bands| {
            let furthest = self.psychics.iter().map(|p| p.track).max().unwrap_or(0);
            (0..=furthest.saturating_add(1).max(12))
                .map(|space| bands.level(space))
                .collect()
        })
    }

    /// Each psychic as everyone sees them: their cards, track, level, pawn and tokens.
    fn psychic_views(&self) -> Vec<PsychicView> {
        self.psychics
            .iter()
            .enumerate()
            .map(|(i, p)| {
                let level = self.setup.track_side().and(self.level_of(i));
                PsychicView {
                    name: p.name.clone(),
                    two_colours: self.two_colours(i),
                    colour: p.colour,
                    found: p.found.clone(),
                    seeking: p.seeking(),
                    track: p.track,
                    level,
                    votes_after: level.map(Level::card),
                    tokens: p.held,
                    vision: p.vision,
                    intuition: p.intuition,
                    result: p.result,
                    completing: p.seeking().is_some()
                        && self.last_turn.iter().any(|m| m.psychic == i && !m.right),
                    voted: p.vote.is_some(),
                    voting_now: self.phase == Phase::Revelation
                        && self
                            .check(&Command::Vote {
                                psychic: i,
                                group: 1,
                            })
                            .is_ok(),
                }
            })
            .collect()
    }
}
