//! The fold that builds a game from its events: the start sets it up, and each event after
//! records what was decided before it.

use crate::cards::{Card, Layout};
use crate::clairvoyancy::{Face, Placement};
use crate::event::Event;
use crate::game::{Game, Manifestation, Outcome, Phase, Psychic};
use crate::setup::{CrowRule, Setup};
use crate::straw_poll::Count;

impl Game {
    /// The game its start event sets up; refused for any other event.
    pub fn begin(start: &Event) -> Result<Game, String> {
        let Event::Started {
            setup,
            seed,
            layout,
        } = start
        else {
            return Err("a game's history must begin with its start".into());
        };
        Ok(Game::set_up(setup.as_ref().clone(), *seed, layout.clone()))
    }

    fn set_up(setup: Setup, seed: u64, layout: Layout) -> Game {
        let faces = setup.starting_faces();
        let psychics = setup
            .psychic_seats()
            .into_iter()
            .map(|(player, colour)| {
                let p = &setup.players[player];
                Psychic {
                    name: p.name.clone(),
                    colour,
                    player,
                    age: p.age,
                    found: Vec::new(),
                    track: 0,
                    finished: None,
                    held: faces,
                    vision: false,
                    intuition: None,
                    result: None,
                    stated_level: None,
                    vote: None,
                }
            })
            .collect();
        Game {
            setup,
            seed,
            layout,
            assignments: None,
            psychics,
            hour: 1,
            phase: Phase::Visions,
            crows_used: 0,
            placements: Vec::new(),
            groups: Vec::new(),
            culprit: None,
            revealed: 0,
            shared_vision: false,
            eldest_asked: None,
            eldest: None,
            count: None,
            shown: 0,
            read_out: false,
            chosen: None,
            outcome: None,
            manifestations: Vec::new(),
            last_turn: Vec::new(),
            last_turn_hour: 0,
            tokens_back: false,
        }
    }

    fn psychic(&mut self, i: usize) -> Result<&mut Psychic, String> {
        self.psychics
            .get_mut(i)
            .ok_or_else(|| format!("no psychic {i}"))
    }

    /// Applies one event. Decisions were made before; this only records them.
    pub fn apply(&mut self, event: &Event) -> Result<(), String> {
        // What the last line of the count brings is part of showing it.
        self.read_out = match event {
            Event::CountShown { .. } => true,
            Event::Ended { .. } | Event::NoMajority { .. } | Event::EldestAsked { .. } => {
                self.read_out
            }
            _ => false,
        };
        match event {
            Event::Started { .. } => return Err("the game has already started".into()),
            Event::SecretsDrawn { assignments } => self.apply_secrets_drawn(assignments)?,
            Event::VisionGiven { psychic } => self.psychic(*psychic)?.vision = true,
            Event::TimerStarted => {
                self.phase = Phase::Interpretation;
                self.tokens_back = false;
            }
            Event::CrowUsed => self.crows_used += 1,
            Event::IntuitionPlaced { psychic, card } => {
                self.psychic(*psychic)?.intuition = Some(*card)
            }
            Event::TokenPlaced { by, on, face } => self.apply_token_placed(*by, *on, *face)?,
            Event::TokenWithdrawn { by, on } => self.apply_token_withdrawn(*by, *on)?,
            Event::TimerEnded => self.phase = Phase::Manifestation,
            Event::Manifested {
                psychic,
                right,
                card,
                moved,
            } => self.apply_manifested(*psychic, *right, *card, moved)?,
            Event::Finished { psychic, bonus } => self.apply_finished(*psychic, *bonus)?,
            Event::TurnEnded => self.apply_turn_ended(),
            Event::HourStruck { hour } => {
                self.hour = *hour;
                self.phase = Phase::Visions;
            }
            Event::TokensRecovered => self.apply_tokens_recovered(),
            Event::LostOnTime => {
                self.phase = Phase::Ended;
                self.outcome = Some(Outcome::LostOnTime);
            }
            Event::LinedUp { groups } => {
                self.groups = groups.clone();
                self.phase = Phase::Revelation;
            }
            Event::LevelStated { psychic, level } => {
                self.psychic(*psychic)?.stated_level = Some(*level)
            }
            Event::CulpritChosen { group } | Event::CulpritDrawn { group } => {
                self.culprit = Some(*group)
            }
            Event::VisionShared => self.shared_vision = true,
            Event::VisionCardRevealed { count } => self.revealed = *count,
            Event::Voted { psychic, group } => self.psychic(*psychic)?.vote = Some(*group),
            Event::EldestAsked { among } => self.eldest_asked = Some(among.clone()),
            Event::EldestDeclared { psychic } => {
                self.eldest = Some(*psychic);
                self.eldest_asked = None;
            }
            Event::Counted { count } => self.apply_counted(count),
            Event::CountShown { lines } => self.shown = *lines,
            Event::NoMajority { count } => self.apply_no_majority(count),
            Event::GroupPicked { group } => self.chosen = Some(*group),
            Event::Ended { chosen, won, .. } => self.apply_ended(*chosen, *won),
        }
        Ok(())
    }

    /// The app has drawn each psychic's secrets.
    fn apply_secrets_drawn(&mut self, assignments: &[[Card; 3]]) -> Result<(), String> {
        if assignments.len() != self.psychics.len() {
            return Err("one set of secrets per psychic".into());
        }
        self.assignments = Some(assignments.to_vec());
        Ok(())
    }

    /// `by` puts a token from their hand on `on`'s pawn.
    fn apply_token_placed(&mut self, by: usize, on: usize, face: Face) -> Result<(), String> {
        self.psychic(on)?;
        let held = self.psychic(by)?.held.of(face);
        *held = held
            .checked_sub(1)
            .ok_or("a token placed that was not held")?;
        // Kept in seating order, whoever placed first: tokens placed at once make the
        // same game whatever order they arrive in.
        let at = self.placements.partition_point(|p| (p.on, p.by) < (on, by));
        let placement = Placement { by, on, face };
        self.placements.insert(at, placement);
        Ok(())
    }

    /// `by` takes their token back from `on`'s pawn, into their hand.
    fn apply_token_withdrawn(&mut self, by: usize, on: usize) -> Result<(), String> {
        let at = self
            .placements
            .iter()
            .position(|p| p.by == by && p.on == on)
            .ok_or("no such token to withdraw")?;
        let placement = self.placements.remove(at);
        *self.psychic(by)?.held.of(placement.face) += 1;
        Ok(())
    }

    /// The ghost's answer to `psychic`: the card collected when right, and the tokens' moves.
    fn apply_manifested(
        &mut self,
        psychic: usize,
        right: bool,
        card: Option<Card>,
        moved: &[usize],
    ) -> Result<(), String> {
        for &m in moved {
            self.psychic(m)?.track += 1;
        }
        let hour = self.hour;
        let p = self.psychic(psychic)?;
        p.result = Some(right);
        if let Some(card) = card {
            p.found.push(card);
            if p.seeking().is_none() {
                p.finished = Some(hour);
            }
        }
        self.manifestations.push(Manifestation {
            psychic,
            right,
            card,
            moved: moved.to_vec(),
            bonus: 0,
        });
        Ok(())
    }

    /// `psychic` found their last card: the finishing bonus, on the answer that found it.
    fn apply_finished(&mut self, psychic: usize, bonus: u8) -> Result<(), String> {
        self.psychic(psychic)?.track += bonus;
        let last = self
            .manifestations
            .last_mut()
            .filter(|m| m.psychic == psychic)
            .ok_or("a psychic finishes on their own manifestation")?;
        last.bonus = bonus;
        Ok(())
    }

    /// The turn is over: its tokens, crows (Easy), visions, pawns and answers are cleared.
    fn apply_turn_ended(&mut self) {
        // Tokens on pawns are used up; they stay out of the hands until recovered.
        self.placements.clear();
        self.last_turn = std::mem::take(&mut self.manifestations);
        self.last_turn_hour = self.hour;
        if matches!(self.setup.crows(), CrowRule::Turn(_)) {
            self.crows_used = 0;
        }
        for p in &mut self.psychics {
            p.vision = false;
            p.intuition = None;
            p.result = None;
        }
    }

    /// Every psychic's hand of tokens is full again.
    fn apply_tokens_recovered(&mut self) {
        let faces = self.setup.starting_faces();
        for p in &mut self.psychics {
            p.held = faces;
        }
        self.tokens_back = self.phase == Phase::Visions;
    }

    /// The votes are counted: the count, and how much of it is shown.
    fn apply_counted(&mut self, count: &Count) {
        // Counted again once the eldest is named: what was shown stays shown.
        self.shown = match &self.count {
            Some(before) if self.eldest.is_some() => before.common(count),
            _ => 0,
        };
        self.count = Some(count.clone());
    }

    /// No majority (new edition): the count stays shown, and the votes go back.
    fn apply_no_majority(&mut self, count: &Count) {
        self.shown = count.lines();
        self.count = Some(count.clone());
        for p in &mut self.psychics {
            p.vote = None;
        }
    }

    /// The group `chosen` ends the game, `won` when it is the culprit's.
    fn apply_ended(&mut self, chosen: u8, won: bool) {
        // All of the count is told at the end (a journal of an earlier version
        // ended with none of it shown).
        self.shown = self.count_lines();
        self.chosen = Some(chosen);
        self.phase = Phase::Ended;
        self.outcome = Some(if won {
            Outcome::Won
        } else {
            Outcome::LostWrongGroup
        });
    }
}
