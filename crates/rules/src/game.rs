//! The state of a game, and what can be read off it (the count, the crows left, a psychic's
//! level, the cards still on the table); the fold in `fold` builds it from its events.

use serde::{Deserialize, Serialize};

use crate::cards::{Card, Category, Layout};
use crate::clairvoyancy::{Faces, Placement};
use crate::event::Group;
use crate::levels::Level;
use crate::setup::{Colour, CrowRule, Edition, SecretMode, Setup};
use crate::straw_poll::Count;
use seance_timeline::Param;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Phase {
    /// Phase 1, step 1: the ghost gives visions.
    Visions,
    /// Phase 1, step 1: the sand timer runs.
    Interpretation,
    /// Phase 1, step 2: the ghost says who was right.
    Manifestation,
    /// Phase 2: line-up, shared vision and straw poll.
    Revelation,
    Ended,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Outcome {
    Won,
    LostOnTime,
    LostWrongGroup,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Psychic {
    pub name: String,
    pub colour: Colour,
    pub player: usize,
    pub age: Option<u8>,
    /// Cards collected, in order: character, location, object.
    pub found: Vec<Card>,
    /// Space on the clairvoyancy track.
    pub track: u8,
    /// The hour this psychic found their last card in.
    pub finished: Option<u8>,
    pub held: Faces,
    /// Received a vision this turn.
    pub vision: bool,
    pub intuition: Option<Card>,
    /// The ghost's answer this turn.
    pub result: Option<bool>,
    pub stated_level: Option<Level>,
    pub vote: Option<u8>,
}

impl Psychic {
    /// The category sought now; `None` once all three are found.
    pub fn seeking(&self) -> Option<Category> {
        Category::ALL.get(self.found.len()).copied()
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Game {
    pub setup: Setup,
    pub seed: u64,
    pub layout: Layout,
    pub assignments: Option<Vec<[Card; 3]>>,
    pub psychics: Vec<Psychic>,
    /// The clock, I to VII.
    pub hour: u8,
    pub phase: Phase,
    /// Crows used this turn (Easy) or this game (Medium, Hard).
    pub crows_used: u8,
    pub placements: Vec<Placement>,
    pub groups: Vec<Group>,
    pub culprit: Option<u8>,
    /// Shared-vision cards turned over (classic, 4+ players).
    pub revealed: u8,
    /// New edition: the ghost has given the shared vision.
    pub shared_vision: bool,
    pub eldest_asked: Option<Vec<usize>>,
    pub eldest: Option<usize>,
    pub count: Option<Count>,
    /// Lines of the count the table has shown.
    pub shown: u8,
    /// The latest change showed a line of the count: the room has read it, so it is not
    /// taken back.
    pub read_out: bool,
    pub chosen: Option<u8>,
    pub outcome: Option<Outcome>,
    /// What the ghost has said this turn, in order.
    pub manifestations: Vec<Manifestation>,
    /// What the ghost said in the turn before, kept for the table to recall.
    pub last_turn: Vec<Manifestation>,
    /// The hour that turn was played in: the one before in Phase 1, this one once the
    /// psychics are through (no hour is struck after the last turn).
    pub last_turn_hour: u8,
    /// The used tokens came back at the start of this turn (turn 4), until the sand turns.
    pub tokens_back: bool,
}

/// The ghost's answer to one psychic, and what followed on the track.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Manifestation {
    pub psychic: usize,
    pub right: bool,
    /// The card collected, when right.
    pub card: Option<Card>,
    /// Who moved +1 for their token on this pawn.
    pub moved: Vec<usize>,
    /// Spaces gained for finding the object (one per hour left).
    pub bonus: u8,
}

/// The shared vision's cards, turned one by one in Phase 2.
pub const SHARED_VISION_CARDS: u8 = 3;

/// Who chooses the culprit's group in a classic game without a straw poll: the one
/// psychic player of a 2-player game alone, the two of a 3-player game openly together.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum GroupPick {
    Alone,
    Together,
}

/// How the psychics decide on the culprit's group in Phase 2, as the rulebook of the game's
/// edition and size has it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Decision {
    /// Classic, 4 at the table or more: the staged straw poll, a level at a time as the
    /// shared vision is turned.
    StrawPoll,
    /// Classic, 2 or 3: they agree on it (the one psychic player alone, or the two
    /// together).
    Agree(GroupPick),
    /// The new edition: the shared vision given at once, then a consensus (or a majority
    /// vote, `majority_vote`).
    SharedVision,
}

impl Game {
    /// How the psychics decide on the culprit's group.
    pub fn decision(&self) -> Decision {
        match (self.has_straw_poll(), self.group_pick()) {
            (true, _) => Decision::StrawPoll,
            (false, Some(pick)) => Decision::Agree(pick),
            (false, None) => Decision::SharedVision,
        }
    }

    /// Whether each answer is knocked on the table as it is recorded, once for yes and twice
    /// for no (the new edition, where the ghost answers by knocks alone).
    pub fn answers_knock(&self) -> bool {
        self.setup.edition == Edition::New
    }

    /// Whether psychic `i`'s player plays two colours (a game of 2 or 3), so that their
    /// colour tells their two psychics apart.
    pub(crate) fn two_colours(&self, i: usize) -> bool {
        self.setup.players[self.psychics[i].player].colours.len() > 1
    }

    /// Psychic `i` as a refusal names them: the player's name, and the colour when the
    /// player plays two (`i` checked by the caller).
    pub(crate) fn who(&self, i: usize) -> Param {
        let p = &self.psychics[i];
        Param::Person {
            name: p.name.clone(),
            colour: self.two_colours(i).then(|| p.colour.key()),
        }
    }

    /// The lines of the count made, none before the votes are counted.
    pub fn count_lines(&self) -> u8 {
        self.count.as_ref().map_or(0, Count::lines)
    }

    /// Whether the count is made and the table has yet to show some of it.
    pub fn counting(&self) -> bool {
        self.phase == Phase::Revelation && self.shown < self.count_lines()
    }

    /// Whether the ghost's own screen may tell the culprit's group: not from the first
    /// count to the end (the count read out, the eldest asked), when a glance at it would
    /// tell the end before the table.
    pub fn ghost_sees_culprit(&self) -> bool {
        self.count.is_none() || self.phase == Phase::Ended
    }

    pub fn crows_left(&self) -> u8 {
        let (CrowRule::Turn(n) | CrowRule::Game(n)) = self.setup.crows();
        n.saturating_sub(self.crows_used)
    }

    /// A psychic's level: as stated by the table, or as the bands settle it.
    pub fn level_of(&self, psychic: usize) -> Option<Level> {
        let p = &self.psychics[psychic];
        p.stated_level
            .or_else(|| self.setup.bands().and_then(|b| b.level(p.track)))
    }

    /// Whether Séance draws the culprit's trace at the line-up (new edition, app-kept
    /// secrets); otherwise the ghost seals the culprit.
    pub fn draws_culprit(&self) -> bool {
        self.setup.edition == Edition::New && self.setup.secrets == SecretMode::AppKept
    }

    /// Whether the straw poll is a staged secret vote (classic, 4+ players).
    pub fn has_straw_poll(&self) -> bool {
        self.setup.edition.straw_poll(self.setup.player_count())
    }

    /// Who chooses the culprit's group without a straw poll (classic, 2 or 3 players).
    pub fn group_pick(&self) -> Option<GroupPick> {
        match (self.setup.edition, self.setup.player_count()) {
            (Edition::Classic, 2) => Some(GroupPick::Alone),
            (Edition::Classic, 3) => Some(GroupPick::Together),
            _ => None,
        }
    }

    /// Whether the mediums may settle by a majority vote when they do not agree (new
    /// edition, three medium players or more: with two, a majority is a consensus).
    pub fn has_majority_vote(&self) -> bool {
        self.setup.edition == Edition::New && self.setup.players.len() >= 3
    }

    /// Cards on the table not yet collected by a psychic. (New-edition sets may number
    /// their categories alike, so a card is compared within its category only.)
    pub fn uncollected(&self, category: Category) -> Vec<Card> {
        self.layout
            .of(category)
            .iter()
            .copied()
            .filter(|&c| self.uncollected_has(category, c))
            .collect()
    }

    /// Whether `card` is on the table, in `category`, and nobody has collected it.
    pub fn uncollected_has(&self, category: Category, card: Card) -> bool {
        self.layout.of(category).contains(&card)
            && !self
                .psychics
                .iter()
                .any(|p| p.found.get(category.index()) == Some(&card))
    }
}
