//! Deciding: a command checked against the rules becomes events, with the automatic
//! consequences (the sand timer after the last vision, the end of the turn after the
//! last manifestation, the count after the last vote) following in the same batch.

use crate::cards::{Card, Category, Layout};
use crate::clairvoyancy::{
    check_placement, check_timer_running, finishing_bonus, manifestation_moves,
};
use crate::command::Command;
use crate::event::{Event, Group};
use crate::game::{Game, Phase};
use crate::setup::{CrowRule, Edition, SecretMode, Setup};
use crate::straw_poll::{self, Ballot, Voter};
use seance_timeline::Draw;
use seance_timeline::{RuleError, ensure};

impl Game {
    /// The events that start a game: the cards laid out (classic: drawn by number; new
    /// edition: from the box's sets) and, when the app keeps the secrets, each psychic's
    /// character, location and object.
    pub fn start(setup: Setup, seed: u64) -> Result<Vec<Event>, RuleError> {
        setup.validate()?;
        let mut draw = Draw::new(seed, 0);
        let layout = match (&setup.card_box, &setup.deal) {
            (Some(card_box), Some(deal)) => card_box.lay_out(deal, &mut draw)?,
            _ => {
                let n = setup.cards_per_category();
                let mut lay = |c: Category| {
                    let mut cards = draw.pick(&c.cards().collect::<Vec<_>>(), n);
                    cards.sort_unstable();
                    cards
                };
                Layout {
                    characters: lay(Category::Character),
                    locations: lay(Category::Location),
                    objects: lay(Category::Object),
                    sets: Vec::new(),
                }
            }
        };
        let psychics = setup.psychic_seats().len();
        let secrets = (setup.secrets == SecretMode::AppKept).then(|| {
            let drawn = Category::ALL.map(|c| draw.pick(layout.of(c), psychics));
            (0..psychics)
                .map(|i| [drawn[0][i], drawn[1][i], drawn[2][i]])
                .collect()
        });
        let mut events = vec![Event::Started {
            setup: Box::new(setup),
            seed,
            layout,
        }];
        events.extend(secrets.map(|assignments| Event::SecretsDrawn { assignments }));
        Ok(events)
    }

    /// Checks `command` against the rules and returns what it causes. `position` (the
    /// game's place in its history) seeds any draw, so a replay draws the same.
    pub fn decide(&self, command: &Command, position: u64) -> Result<Vec<Event>, RuleError> {
        self.check(command)?;
        let mut batch = Batch {
            game: self.clone(),
            events: Vec::new(),
        };
        match *command {
            Command::GiveVision { psychic } => {
                let timer_waiting = self.phase == Phase::Visions;
                batch.push(Event::VisionGiven { psychic });
                if timer_waiting && waiting_for_vision(&batch.game).is_empty() {
                    batch.push(Event::TimerStarted);
                }
            }
            Command::StartTimer => batch.push(Event::TimerStarted),
            Command::UseCrow => batch.push(Event::CrowUsed),
            Command::PlaceIntuition { psychic, card } => {
                batch.push(Event::IntuitionPlaced { psychic, card })
            }
            Command::PlaceToken { by, on, face } => {
                // Turning a token over is one act: back to the hand, then the other face.
                if self.placements.iter().any(|p| p.by == by && p.on == on) {
                    batch.push(Event::TokenWithdrawn { by, on });
                }
                batch.push(Event::TokenPlaced { by, on, face });
            }
            Command::WithdrawToken { by, on } => batch.push(Event::TokenWithdrawn { by, on }),
            Command::EndInterpretation => batch.push(Event::TimerEnded),
            Command::Manifest { psychic, right } => {
                let right = self.judge(psychic, right)?;
                manifest(&mut batch, psychic, right, position)
            }
            Command::StateLevel { psychic, level } => {
                batch.push(Event::LevelStated { psychic, level })
            }
            Command::ChooseCulprit { group } => batch.push(Event::CulpritChosen { group }),
            Command::RevealVisionCard => batch.push(Event::VisionCardRevealed {
                count: self.revealed + 1,
            }),
            Command::ShareVision => batch.push(Event::VisionShared),
            Command::Vote { psychic, group } => {
                batch.push(Event::Voted { psychic, group });
                if batch.game.psychics.iter().all(|p| p.vote.is_some()) {
                    match self.setup.edition {
                        Edition::New => count_majority(&mut batch),
                        Edition::Classic => settle_count(&mut batch),
                    }
                }
            }
            Command::DeclareEldest { psychic } => {
                batch.push(Event::EldestDeclared { psychic });
                settle_count(&mut batch);
            }
            Command::PickGroup { group } => {
                batch.push(Event::GroupPicked { group });
                end(&mut batch, group);
            }
        }
        Ok(batch.events)
    }

    /// Whether `command` may be done now, without doing it: every rule [`Game::decide`]
    /// holds a command to, and all [`Game::allowed`] asks (no clone, no events).
    pub fn check(&self, command: &Command) -> Result<(), RuleError> {
        ensure(self.phase != Phase::Ended, "game_over", || {
            "the game is over: undo to change what happened, or start a new game".into()
        })?;
        for p in psychic_args(command) {
            ensure(p < self.psychics.len(), "no_such_psychic", || {
                format!(
                    "there is no psychic {p}: psychics are numbered 0 to {}",
                    self.psychics.len() - 1
                )
            })?;
        }
        match *command {
            Command::GiveVision { psychic } => check_vision(self, psychic),
            Command::StartTimer => {
                ensure(self.setup.timer_seconds().is_some(), "no_timer", || {
                    "this game has no sand timer: the mediums take the time they need".into()
                })?;
                ensure(self.phase == Phase::Visions, "timer_not_waiting", || {
                    "the sand timer is not waiting to start".into()
                })
            }
            Command::UseCrow => ensure(self.crows_left() > 0, "crows", || {
                match self.setup.crows() {
                    CrowRule::Turn(_) => "the crow is used this turn (Easy: one per turn); it comes back at the end of the turn".into(),
                    CrowRule::Game(n) => format!("no crow left: this difficulty allows {n} per game"),
                }
            }),
            Command::PlaceIntuition { psychic, card } => check_intuition(self, psychic, card),
            Command::PlaceToken { by, on, face } => check_placement(self, by, on, face),
            Command::WithdrawToken { by, on } => {
                check_timer_running(self)?;
                ensure(
                    self.placements.iter().any(|p| p.by == by && p.on == on),
                    "no_such_token",
                    || {
                        format!(
                            "{} has no token on {}'s pawn",
                            self.psychics[by].name, self.psychics[on].name
                        )
                    },
                )
            }
            Command::EndInterpretation => check_end_interpretation(self),
            Command::Manifest { psychic, right } => self.judge(psychic, right).map(|_| ()),
            Command::StateLevel { psychic, level } => {
                let p = &self.psychics[psychic];
                ensure(
                    self.phase == Phase::Revelation && self.has_straw_poll(),
                    "state_level",
                    || {
                        "levels are read off the track for the straw poll, once every psychic has finished".into()
                    },
                )?;
                ensure(p.vote.is_none(), "level_after_vote", || {
                    format!("{} has already voted", p.name)
                })?;
                // The track stands still in the revelation, so a level is a fact from the
                // first card on (000 p.12): a level whose card has passed cannot be theirs,
                // and stating it would leave a psychic who can never vote.
                ensure(level.card() >= self.revealed, "level_card_passed", || {
                    format!(
                        "card {} of the shared vision is turned, and {level:?} psychics voted after card {}: {} cannot be {level:?}; read the level off the track again, or undo",
                        self.revealed,
                        level.card(),
                        p.name
                    )
                })?;
                let bands = self.setup.bands().expect("4+ players use the track");
                ensure(bands.allows(p.track, level), "level_bands", || {
                    format!(
                        "space {} cannot be {level:?} with these bands (Intermediate from {}–{}, High from {}–{}); check the track, or correct the bands",
                        p.track,
                        bands.intermediate_from.lo,
                        bands.intermediate_from.hi,
                        bands.high_from.lo,
                        bands.high_from.hi
                    )
                })
            }
            Command::ChooseCulprit { group } => {
                in_revelation(self)?;
                ensure(!self.draws_culprit(), "culprit_drawn", || {
                    "Séance has drawn the culprit at random and shows it to the ghost".into()
                })?;
                ensure(self.culprit.is_none(), "culprit_sealed", || {
                    "the culprit's group is already sealed".into()
                })?;
                valid_group(self, group)
            }
            Command::RevealVisionCard => check_reveal(self),
            Command::ShareVision => {
                in_revelation(self)?;
                ensure(
                    self.setup.edition == Edition::New,
                    "cards_one_at_a_time",
                    || {
                        "in the classic game the shared vision's cards are turned over one at a time"
                        .into()
                    },
                )?;
                culprit_first(self)?;
                ensure(!self.shared_vision, "shared_vision_given", || {
                    "the shared vision has been given".into()
                })
            }
            Command::Vote { psychic, group } => match self.setup.edition {
                Edition::New => check_majority_vote(self, psychic, group),
                Edition::Classic => check_vote(self, psychic, group),
            },
            Command::DeclareEldest { psychic } => {
                let among = self.eldest_asked.clone().unwrap_or_default();
                ensure(among.contains(&psychic), "eldest", || {
                    if among.is_empty() {
                        "nobody's age is needed now".into()
                    } else {
                        format!("the eldest is one of: {}", names(self, &among))
                    }
                })
            }
            Command::PickGroup { group } => {
                in_revelation(self)?;
                ensure(!self.has_straw_poll(), "pick_in_straw_poll", || {
                    "with 4 or more players the psychics vote in the straw poll".into()
                })?;
                culprit_first(self)?;
                shared_vision_given(self)?;
                valid_group(self, group)
            }
        }
    }

    /// Whether `psychic`'s intuition was right: the app judges where it keeps the secrets,
    /// the ghost says so in paper mode; refused where the ghost may not answer them now.
    fn judge(&self, psychic: usize, said: Option<bool>) -> Result<bool, RuleError> {
        let p = &self.psychics[psychic];
        ensure(self.phase == Phase::Manifestation, "manifestation", || {
            "the ghost manifests once the sand timer has run out".into()
        })?;
        ensure(
            p.vision && p.result.is_none(),
            "one_manifestation",
            || match p.result {
                Some(_) => format!("the ghost has already answered {} this turn", p.name),
                None => format!("{} is not searching this turn", p.name),
            },
        )?;
        let right = match (&self.assignments, said) {
            (Some(secrets), None) => {
                let seeking = p.seeking().expect("searching psychics seek a category");
                p.intuition == Some(secrets[psychic][seeking.index()])
            }
            (Some(_), Some(_)) => {
                return Err(RuleError::new(
                    "app_judges",
                    "in app-kept mode the app judges the intuition: leave out `right`",
                ));
            }
            (None, Some(right)) => right,
            (None, None) => {
                return Err(RuleError::new(
                    "ghost_answers",
                    format!("in paper mode the ghost says whether {} was right", p.name),
                ));
            }
        };
        ensure(!right || p.intuition.is_some(), "intuition_first", || {
            format!(
                "enter the card {}'s pawn is on before saying it was right",
                p.name
            )
        })?;
        let seeking = p.seeking().expect("searching psychics seek a category");
        if let (true, Some(card)) = (right, p.intuition)
            && let Some(holder) = self
                .psychics
                .iter()
                .find(|q| q.found.get(seeking.index()) == Some(&card))
        {
            return Err(RuleError::new(
                "card_collected",
                format!(
                    "card {card} was just collected by {}: each psychic's card is their own, so {} cannot be right on it too; check the answer",
                    holder.name, p.name
                ),
            ));
        }
        Ok(right)
    }
}

/// Events decided so far, applied as they come so later checks see their effect.
struct Batch {
    game: Game,
    events: Vec<Event>,
}

impl Batch {
    fn push(&mut self, event: Event) {
        self.game.apply(&event).expect("a decided event applies");
        self.events.push(event);
    }
}

fn psychic_args(command: &Command) -> Vec<usize> {
    match *command {
        Command::GiveVision { psychic }
        | Command::PlaceIntuition { psychic, .. }
        | Command::Manifest { psychic, .. }
        | Command::StateLevel { psychic, .. }
        | Command::Vote { psychic, .. }
        | Command::DeclareEldest { psychic } => vec![psychic],
        Command::PlaceToken { by, on, .. } | Command::WithdrawToken { by, on } => vec![by, on],
        _ => vec![],
    }
}

fn names(game: &Game, psychics: &[usize]) -> String {
    psychics
        .iter()
        .map(|&p| game.psychics[p].name.as_str())
        .collect::<Vec<_>>()
        .join(", ")
}

fn waiting_for_vision(game: &Game) -> Vec<usize> {
    (0..game.psychics.len())
        .filter(|&i| game.psychics[i].seeking().is_some() && !game.psychics[i].vision)
        .collect()
}

fn check_vision(game: &Game, psychic: usize) -> Result<(), RuleError> {
    let p = &game.psychics[psychic];
    ensure(
        matches!(game.phase, Phase::Visions | Phase::Interpretation),
        "visions",
        || "visions are given at the start of a turn, before the manifestation".into(),
    )?;
    ensure(p.seeking().is_some(), "finished_no_vision", || {
        format!(
            "{} has found everything and receives no more visions",
            p.name
        )
    })?;
    ensure(!p.vision, "one_vision_per_turn", || {
        let waiting = waiting_for_vision(game);
        if waiting.is_empty() {
            format!(
                "{} has had their vision this turn (one per psychic per turn); everyone has one now",
                p.name
            )
        } else {
            format!(
                "{} has had their vision this turn (one per psychic per turn); still waiting: {}",
                p.name,
                names(game, &waiting)
            )
        }
    })
}

fn check_intuition(game: &Game, psychic: usize, card: Card) -> Result<(), RuleError> {
    check_timer_running(game)?;
    let p = &game.psychics[psychic];
    let Some(seeking) = p.seeking() else {
        return Err(RuleError::new(
            "finished_no_pawn",
            format!("{} has found everything", p.name),
        ));
    };
    ensure(game.uncollected_has(seeking, card), "card_on_table", || {
        let on_table = game.uncollected(seeking);
        format!(
            "{} seeks a {}: their pawn goes on one of the {} cards on the table ({})",
            p.name,
            seeking.name(),
            seeking.name(),
            on_table
                .iter()
                .map(|c| c.to_string())
                .collect::<Vec<_>>()
                .join(", ")
        )
    })
}

fn check_end_interpretation(game: &Game) -> Result<(), RuleError> {
    ensure(
        game.phase == Phase::Interpretation,
        "timer_not_running",
        || match game.phase {
            Phase::Visions => format!(
                "the sand timer has not started: it starts when every psychic has a vision (waiting: {})",
                names(game, &waiting_for_vision(game))
            ),
            _ => "the sand timer is not running".into(),
        },
    )?;
    let waiting = waiting_for_vision(game);
    ensure(waiting.is_empty(), "visions_first", || {
        format!(
            "give {} their vision before the manifestation",
            names(game, &waiting)
        )
    })
}

/// The ghost's answer to `psychic` (checked and judged): tokens move, a finisher's bonus,
/// and the end of the turn after the last answer.
fn manifest(batch: &mut Batch, psychic: usize, right: bool, position: u64) {
    let game = &batch.game;
    let p = &game.psychics[psychic];
    let moved = manifestation_moves(&game.placements, psychic, right);
    let card = if right { p.intuition } else { None };
    let finishes = right && p.found.len() == 2;
    // The finishing bonus is spaces on the clairvoyancy track, where there is one.
    let bonus = match game.setup.track_side() {
        Some(_) => finishing_bonus(game.hour),
        None => 0,
    };
    batch.push(Event::Manifested {
        psychic,
        right,
        card,
        moved,
    });
    if finishes {
        batch.push(Event::Finished { psychic, bonus });
    }
    if batch
        .game
        .psychics
        .iter()
        .all(|p| !p.vision || p.result.is_some())
    {
        end_turn(batch, position);
    }
}

fn end_turn(batch: &mut Batch, position: u64) {
    batch.push(Event::TurnEnded);
    let game = &batch.game;
    if game.psychics.iter().all(|p| p.seeking().is_none()) {
        let mut draw = Draw::new(game.seed, position);
        let groups = line_up(game, &mut draw);
        // New edition: one medium token drawn at random (004 p.8), by Séance when it
        // keeps the secrets; in paper mode the ghost draws the real token and seals it.
        let culprit = game
            .draws_culprit()
            .then(|| draw.below(groups.len() as u64) as u8 + 1);
        if game.setup.tokens_per_psychic() > 0 {
            batch.push(Event::TokensRecovered);
        }
        batch.push(Event::LinedUp { groups });
        if let Some(group) = culprit {
            batch.push(Event::CulpritDrawn { group });
        }
    } else if game.hour == 7 {
        batch.push(Event::LostOnTime);
    } else {
        let hour = game.hour + 1;
        batch.push(Event::HourStruck { hour });
        if hour == 4 {
            batch.push(Event::TokensRecovered);
        }
    }
}

/// Each psychic's three cards form a group; with 2 players two more are drawn from the
/// cards nobody collected. Numbers are dealt at random (classic's ghost tokens); in the
/// new edition each trace stays by its medium's envelope, numbered in seating order.
fn line_up(game: &Game, draw: &mut Draw) -> Vec<Group> {
    let mut groups: Vec<([Card; 3], Option<usize>)> = game
        .psychics
        .iter()
        .enumerate()
        .map(|(i, p)| ([p.found[0], p.found[1], p.found[2]], Some(i)))
        .collect();
    if game.setup.player_count() == 2 {
        let extra = Category::ALL.map(|c| draw.pick(&game.uncollected(c), 2));
        groups.extend((0..2).map(|k| ([extra[0][k], extra[1][k], extra[2][k]], None)));
    }
    if game.setup.edition == Edition::Classic {
        draw.shuffle(&mut groups);
    }
    groups
        .into_iter()
        .zip(1..)
        .map(|((cards, psychic), number)| Group {
            number,
            cards,
            psychic,
        })
        .collect()
}

fn in_revelation(game: &Game) -> Result<(), RuleError> {
    ensure(game.phase == Phase::Revelation, "revelation", || {
        "that happens in the revelation, once every psychic has found their three cards".into()
    })
}

fn valid_group(game: &Game, group: u8) -> Result<(), RuleError> {
    ensure(
        (1..=game.groups.len() as u8).contains(&group),
        "no_such_group",
        || format!("the groups are numbered 1 to {}", game.groups.len()),
    )
}

fn culprit_first(game: &Game) -> Result<(), RuleError> {
    ensure(game.culprit.is_some(), "culprit_first", || {
        "the ghost seals the culprit's group first".into()
    })
}

fn check_reveal(game: &Game) -> Result<(), RuleError> {
    in_revelation(game)?;
    ensure(game.has_straw_poll(), "no_cards_to_turn", || {
        match game.setup.edition {
            Edition::Classic => "with 2 or 3 players the shared vision is laid face up".into(),
            Edition::New => "in the new edition the ghost gives the three cards at once".into(),
        }
    })?;
    culprit_first(game)?;
    ensure(game.revealed < 3, "three_cards", || {
        "all three cards of the shared vision are revealed".into()
    })?;
    let unknown: Vec<usize> = (0..game.psychics.len())
        .filter(|&i| game.level_of(i).is_none())
        .collect();
    ensure(unknown.is_empty(), "levels_unknown", || {
        format!(
            "read the level of {} off your track first: the bands are not certain on their spaces",
            names(game, &unknown)
        )
    })?;
    let still_to_vote: Vec<usize> = (0..game.psychics.len())
        .filter(|&i| {
            game.level_of(i).map(|l| l.card()) == Some(game.revealed)
                && game.psychics[i].vote.is_none()
        })
        .collect();
    ensure(still_to_vote.is_empty(), "vote_first", || {
        format!(
            "{} must vote before the next card is revealed",
            names(game, &still_to_vote)
        )
    })
}

fn check_vote(game: &Game, psychic: usize, group: u8) -> Result<(), RuleError> {
    in_revelation(game)?;
    ensure(game.has_straw_poll(), "vote_in_straw_poll", || {
        "with 2 or 3 players the psychics agree on one group: pick it".into()
    })?;
    let p = &game.psychics[psychic];
    ensure(p.vote.is_none(), "vote_once", || {
        format!("{} has voted; votes are cast once", p.name)
    })?;
    let level = game.level_of(psychic).ok_or_else(|| {
        RuleError::new(
            "level_unknown",
            format!("read {}'s level off the track first", p.name),
        )
    })?;
    ensure(game.revealed == level.card(), "vote_when_revealed", || {
        format!(
            "{} is of level {level:?} and votes after card {} of the shared vision (revealed: {})",
            p.name,
            level.card(),
            game.revealed
        )
    })?;
    valid_group(game, group)
}

/// New edition: the ghost's three cards are out before the mediums decide.
fn shared_vision_given(game: &Game) -> Result<(), RuleError> {
    ensure(
        game.setup.edition == Edition::Classic || game.shared_vision,
        "shared_vision_first",
        || "the ghost gives the shared vision (three cards) before the mediums decide".into(),
    )
}

/// New edition: without a consensus, each medium player votes; a majority decides, a tie
/// sends them back to talk (`majority`).
fn check_majority_vote(game: &Game, psychic: usize, group: u8) -> Result<(), RuleError> {
    in_revelation(game)?;
    ensure(game.has_majority_vote(), "consensus", || {
        "with two medium players a majority is a consensus: agree, then pick the trace".into()
    })?;
    shared_vision_given(game)?;
    let p = &game.psychics[psychic];
    ensure(p.vote.is_none(), "vote_once", || {
        format!(
            "{} has voted; the votes are counted once all are in",
            p.name
        )
    })?;
    valid_group(game, group)
}

/// New edition, every vote in: a majority ends the game, a tie sends them back to talk.
fn count_majority(batch: &mut Batch) {
    let count = crate::majority::majority(&ballots(&batch.game));
    match count.chosen {
        Some(group) => {
            batch.push(Event::Counted { count });
            end(batch, group);
        }
        None => batch.push(Event::NoMajority { count }),
    }
}

fn ballots(game: &Game) -> Vec<Ballot> {
    game.psychics
        .iter()
        .enumerate()
        .map(|(psychic, p)| Ballot {
            psychic,
            group: p.vote.expect("all voted"),
        })
        .collect()
}

fn settle_count(batch: &mut Batch) {
    let game = &batch.game;
    let ballots = ballots(game);
    let voters: Vec<Voter> = game
        .psychics
        .iter()
        .map(|p| Voter {
            track: p.track,
            age: p.age,
        })
        .collect();
    let count = straw_poll::count(&ballots, &voters, game.setup.printing, game.eldest);
    match count.chosen {
        Some(group) => {
            batch.push(Event::Counted { count });
            end(batch, group);
        }
        None => {
            let Some(straw_poll::CountStep::AskEldest { among, .. }) = count.steps.last().cloned()
            else {
                unreachable!("an undecided count asks for the eldest")
            };
            batch.push(Event::EldestAsked { among });
        }
    }
}

fn end(batch: &mut Batch, chosen: u8) {
    let culprit = batch
        .game
        .culprit
        .expect("the culprit is sealed before the choice");
    batch.push(Event::Ended {
        chosen,
        culprit,
        won: chosen == culprit,
    });
}
