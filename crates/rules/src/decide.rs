//! Deciding: a command checked against the rules becomes events, with the automatic
//! consequences (the sand timer after the last vision, the end of the turn after the
//! last manifestation, the count after the last vote, what the count decides after the
//! table has shown its last line) following in the same batch.

use crate::cards::{Card, Category, Layout};
use crate::clairvoyancy::{Face, finishing_bonus, manifestation_moves};
use crate::clock::HOURS;
use crate::command::Command;
use crate::event::{Event, Group};
use crate::game::{Game, Phase, SHARED_VISION_CARDS};
use crate::refusals;
use crate::setup::{CrowRule, Edition, SecretMode, Setup};
use crate::straw_poll::{self, Ballot, Count, CountStep, Voter};
use seance_timeline::Draw;
use seance_timeline::{Param, Refusal, ensure};

impl Game {
    /// The events that start a game: the cards laid out (classic: drawn by number; new
    /// edition: from the box's sets) and, when the app keeps the secrets, each psychic's
    /// character, location and object.
    pub fn start(setup: Setup, seed: u64) -> Result<Vec<Event>, Refusal> {
        let dialect = setup.dialect();
        setup.validate().map_err(|r| r.in_dialect(dialect))?;
        let mut draw = Draw::new(seed, 0);
        let layout = match (&setup.card_box, &setup.deal) {
            (Some(card_box), Some(deal)) => card_box
                .lay_out(deal, &mut draw)
                .map_err(|r| r.in_dialect(dialect))?,
            _ => {
                let n = setup.cards_per_category();
                let mut lay = |c: Category| {
                    let mut cards = draw.pick(&setup.collection.pool(c, setup.third), n);
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
    pub fn decide(&self, command: &Command, position: u64) -> Result<Vec<Event>, Refusal> {
        self.check(command)?;
        let mut batch = Batch {
            game: self.clone(),
            events: Vec::new(),
        };
        match *command {
            Command::GiveVision { psychic } => give_visions(&mut batch, &[psychic]),
            Command::GiveEveryVision => give_visions(&mut batch, &waiting_for_vision(self)),
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
            Command::ManifestEvery => {
                for psychic in yet_to_hear(self) {
                    let right = batch.game.judge(psychic, None)?;
                    manifest(&mut batch, psychic, right, position);
                }
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
                    let count = count(&batch.game);
                    batch.push(Event::Counted { count });
                }
            }
            Command::DeclareEldest { psychic } => {
                batch.push(Event::EldestDeclared { psychic });
                let count = count(&batch.game);
                batch.push(Event::Counted { count });
            }
            Command::ShowCount { lines } => {
                batch.push(Event::CountShown { lines });
                if !batch.game.counting() {
                    count_read(&mut batch);
                }
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
    pub fn check(&self, command: &Command) -> Result<(), Refusal> {
        ensure(self.phase != Phase::Ended, || {
            Refusal::new(refusals::GAME_OVER)
        })?;
        // Once the votes are counted, the table reads the count before anything else.
        ensure(
            !self.counting() || matches!(command, Command::ShowCount { .. }),
            || Refusal::new(refusals::COUNT_FIRST),
        )?;
        for p in psychic_args(command) {
            ensure(p < self.psychics.len(), || {
                Refusal::new(refusals::NO_SUCH_PSYCHIC)
                    .with("last", self.psychics.len().saturating_sub(1))
            })?;
        }
        match *command {
            Command::GiveVision { psychic } => check_vision(self, psychic),
            Command::GiveEveryVision => {
                ensure(
                    matches!(self.phase, Phase::Visions | Phase::Interpretation),
                    || Refusal::new(refusals::VISIONS_BEFORE_MANIFESTATION),
                )?;
                ensure(!waiting_for_vision(self).is_empty(), || {
                    Refusal::new(refusals::VISIONS_ALL_GIVEN)
                })
            }
            Command::StartTimer => {
                ensure(self.setup.timer_seconds().is_some(), || {
                    Refusal::new(seance_timeline::refusals::NO_TIMER)
                })?;
                ensure(self.phase == Phase::Visions, || {
                    Refusal::new(refusals::TIMER_NOT_WAITING)
                })
            }
            Command::UseCrow => ensure(self.crows_left() > 0, || match self.setup.crows() {
                CrowRule::Turn(_) => Refusal::new(refusals::CROW_THIS_TURN),
                CrowRule::Game(n) => Refusal::new(refusals::NO_CROWS_LEFT).with("n", n),
            }),
            Command::PlaceIntuition { psychic, card } => check_intuition(self, psychic, card),
            Command::PlaceToken { by, on, face } => check_placement(self, by, on, face),
            Command::WithdrawToken { by, on } => {
                check_timer_running(self)?;
                ensure(
                    self.placements.iter().any(|p| p.by == by && p.on == on),
                    || {
                        Refusal::new(refusals::NO_SUCH_TOKEN)
                            .with("by", self.who(by))
                            .with("on", self.who(on))
                    },
                )
            }
            Command::EndInterpretation => check_end_interpretation(self),
            Command::Manifest { psychic, right } => self.judge(psychic, right).map(|_| ()),
            Command::ManifestEvery => {
                ensure(self.phase == Phase::Manifestation, || {
                    Refusal::new(refusals::MANIFESTATION)
                })?;
                ensure(self.assignments.is_some(), || {
                    Refusal::new(refusals::ANSWERS_ONE_BY_ONE)
                })?;
                // The new edition's mediums ask one at a time, and the ghost knocks each answer.
                ensure(self.setup.edition == Edition::Classic, || {
                    Refusal::new(refusals::MEDIUMS_ASK_IN_TURN)
                })?;
                yet_to_hear(self)
                    .into_iter()
                    .try_for_each(|psychic| self.judge(psychic, None).map(|_| ()))
            }
            Command::StateLevel { psychic, level } => {
                let p = &self.psychics[psychic];
                ensure(
                    self.phase == Phase::Revelation && self.has_straw_poll(),
                    || Refusal::new(refusals::STATE_LEVEL),
                )?;
                ensure(p.vote.is_none(), || {
                    Refusal::new(refusals::LEVEL_AFTER_VOTE).with("name", self.who(psychic))
                })?;
                // The track stands still in the revelation, so a level is a fact from the
                // first card on (000 p.12): a level whose card has passed cannot be theirs,
                // and stating it would leave a psychic who can never vote.
                ensure(level.card() >= self.revealed, || {
                    Refusal::new(refusals::LEVEL_CARD_PASSED)
                        .with("revealed", self.revealed)
                        .with("level", level.term())
                        .with("card", level.card())
                        .with("name", self.who(psychic))
                })?;
                let bands = self.setup.bands().expect("4+ players use the track");
                ensure(bands.allows(p.track, level), || {
                    Refusal::new(refusals::LEVEL_OFF_BAND)
                        .with("space", p.track)
                        .with("level", level.term())
                        .with("intermediate_lo", bands.intermediate_from.lo)
                        .with("intermediate_hi", bands.intermediate_from.hi)
                        .with("high_lo", bands.high_from.lo)
                        .with("high_hi", bands.high_from.hi)
                })
            }
            Command::ChooseCulprit { group } => {
                in_revelation(self)?;
                ensure(!self.draws_culprit(), || {
                    Refusal::new(refusals::CULPRIT_DRAWN)
                })?;
                ensure(self.culprit.is_none(), || {
                    Refusal::new(refusals::CULPRIT_SEALED)
                })?;
                valid_group(self, group)
            }
            Command::RevealVisionCard => check_reveal(self),
            Command::ShareVision => {
                in_revelation(self)?;
                ensure(self.setup.edition == Edition::New, || {
                    Refusal::new(refusals::CARDS_ONE_AT_A_TIME)
                })?;
                culprit_first(self)?;
                ensure(!self.shared_vision, || {
                    Refusal::new(refusals::SHARED_VISION_GIVEN)
                })
            }
            Command::Vote { psychic, group } => match self.setup.edition {
                Edition::New => check_majority_vote(self, psychic, group),
                Edition::Classic => check_vote(self, psychic, group),
            },
            Command::DeclareEldest { psychic } => {
                let among = self.eldest_asked.clone().unwrap_or_default();
                ensure(among.contains(&psychic), || {
                    if among.is_empty() {
                        Refusal::new(refusals::ELDEST_NOT_ASKED)
                    } else {
                        Refusal::new(refusals::ELDEST_AMONG).with("names", names(self, &among))
                    }
                })
            }
            Command::ShowCount { lines } => {
                ensure(self.counting(), || Refusal::new(refusals::NO_COUNT_TO_SHOW))?;
                // The next line, or all that is left at once.
                let next = self.shown + 1;
                let last = self.count_lines();
                ensure(lines == next || lines == last, || {
                    Refusal::new(refusals::COUNT_LINES)
                        .with("next", next)
                        .with("last", last)
                })
            }
            Command::PickGroup { group } => {
                in_revelation(self)?;
                ensure(!self.has_straw_poll(), || {
                    Refusal::new(refusals::PICK_IN_STRAW_POLL)
                })?;
                culprit_first(self)?;
                shared_vision_given(self)?;
                valid_group(self, group)
            }
        }
    }

    /// Whether `psychic`'s intuition was right: the app judges where it keeps the secrets,
    /// the ghost says so in paper mode; refused where the ghost may not answer them now.
    fn judge(&self, psychic: usize, said: Option<bool>) -> Result<bool, Refusal> {
        let p = &self.psychics[psychic];
        let name = || self.who(psychic);
        ensure(self.phase == Phase::Manifestation, || {
            Refusal::new(refusals::MANIFESTATION)
        })?;
        ensure(p.vision && p.result.is_none(), || match p.result {
            Some(_) => Refusal::new(refusals::ANSWERED_THIS_TURN).with("name", name()),
            None => Refusal::new(refusals::NOT_SEARCHING).with("name", name()),
        })?;
        let right = match (&self.assignments, said) {
            (Some(secrets), None) => {
                let seeking = p.seeking().expect("searching psychics seek a category");
                p.intuition == Some(secrets[psychic][seeking.index()])
            }
            (Some(_), Some(_)) => return Err(Refusal::new(refusals::APP_JUDGES)),
            (None, Some(right)) => right,
            (None, None) => return Err(Refusal::new(refusals::GHOST_ANSWERS).with("name", name())),
        };
        ensure(!right || p.intuition.is_some(), || {
            Refusal::new(refusals::INTUITION_FIRST).with("name", name())
        })?;
        let seeking = p.seeking().expect("searching psychics seek a category");
        if let (true, Some(card)) = (right, p.intuition)
            && let Some(holder) = self
                .psychics
                .iter()
                .position(|q| q.found.get(seeking.index()) == Some(&card))
        {
            return Err(Refusal::new(refusals::CARD_COLLECTED)
                .with("card", card)
                .with("holder", self.who(holder))
                .with("name", name()));
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

fn names(game: &Game, psychics: &[usize]) -> Vec<Param> {
    psychics.iter().map(|&p| game.who(p)).collect()
}

fn waiting_for_vision(game: &Game) -> Vec<usize> {
    (0..game.psychics.len())
        .filter(|&i| game.psychics[i].seeking().is_some() && !game.psychics[i].vision)
        .collect()
}

/// The ghost gives `psychics` their visions; the sand timer turns after the last one, unless
/// the table turned it already.
fn give_visions(batch: &mut Batch, psychics: &[usize]) {
    let timer_waiting = batch.game.phase == Phase::Visions;
    for &psychic in psychics {
        batch.push(Event::VisionGiven { psychic });
    }
    if timer_waiting && waiting_for_vision(&batch.game).is_empty() {
        batch.push(Event::TimerStarted);
    }
}

/// The psychics with a vision this turn whom the ghost has not answered yet.
fn yet_to_hear(game: &Game) -> Vec<usize> {
    (0..game.psychics.len())
        .filter(|&i| game.psychics[i].vision && game.psychics[i].result.is_none())
        .collect()
}

fn check_vision(game: &Game, psychic: usize) -> Result<(), Refusal> {
    let p = &game.psychics[psychic];
    ensure(
        matches!(game.phase, Phase::Visions | Phase::Interpretation),
        || Refusal::new(refusals::VISIONS_BEFORE_MANIFESTATION),
    )?;
    ensure(p.seeking().is_some(), || {
        Refusal::new(refusals::FINISHED_NO_VISION).with("name", game.who(psychic))
    })?;
    ensure(!p.vision, || {
        let waiting = waiting_for_vision(game);
        let refusal = if waiting.is_empty() {
            Refusal::new(refusals::EVERYONE_HAS_A_VISION)
        } else {
            Refusal::new(refusals::ONE_VISION_PER_TURN).with("waiting", names(game, &waiting))
        };
        refusal.with("name", game.who(psychic))
    })
}

fn check_intuition(game: &Game, psychic: usize, card: Card) -> Result<(), Refusal> {
    check_timer_running(game)?;
    let p = &game.psychics[psychic];
    let Some(seeking) = p.seeking() else {
        return Err(Refusal::new(refusals::FINISHED_NO_PAWN).with("name", game.who(psychic)));
    };
    ensure(game.uncollected_has(seeking, card), || {
        let on_table = game
            .uncollected(seeking)
            .iter()
            .map(|&c| Param::from(c))
            .collect();
        Refusal::new(refusals::CARD_ON_TABLE)
            .with("name", game.who(psychic))
            .with("category", seeking.term())
            .with("cards", Param::List(on_table))
    })?;
    // The pawn interprets a vision: none is placed before the ghost has given it.
    ensure(game.psychics[psychic].vision, || {
        Refusal::new(refusals::VISION_BEFORE_PAWN).with("name", game.who(psychic))
    })
}

fn check_end_interpretation(game: &Game) -> Result<(), Refusal> {
    ensure(game.phase == Phase::Interpretation, || match game.phase {
        Phase::Visions => Refusal::new(refusals::TIMER_NOT_STARTED)
            .with("waiting", names(game, &waiting_for_vision(game))),
        _ => Refusal::new(refusals::TIMER_NOT_RUNNING),
    })?;
    let waiting = waiting_for_vision(game);
    ensure(waiting.is_empty(), || {
        Refusal::new(refusals::VISIONS_FIRST).with("names", names(game, &waiting))
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
    } else if game.hour == HOURS {
        batch.push(Event::LostOnTime);
    } else {
        let hour = game.hour + 1;
        // Only where there are tokens (classic, 4+ at the table) do they come back.
        let tokens = game.setup.tokens_per_psychic() > 0;
        batch.push(Event::HourStruck { hour });
        if hour == 4 && tokens {
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

fn in_revelation(game: &Game) -> Result<(), Refusal> {
    ensure(game.phase == Phase::Revelation, || {
        Refusal::new(refusals::REVELATION)
    })
}

fn valid_group(game: &Game, group: u8) -> Result<(), Refusal> {
    ensure(
        usize::from(group).wrapping_sub(1) < game.groups.len(),
        || Refusal::new(refusals::NO_SUCH_GROUP).with("last", game.groups.len()),
    )
}

fn culprit_first(game: &Game) -> Result<(), Refusal> {
    ensure(game.culprit.is_some(), || {
        Refusal::new(refusals::CULPRIT_FIRST)
    })
}

fn check_reveal(game: &Game) -> Result<(), Refusal> {
    in_revelation(game)?;
    ensure(game.has_straw_poll(), || match game.setup.edition {
        Edition::Classic => Refusal::new(refusals::SHARED_VISION_FACE_UP),
        Edition::New => Refusal::new(refusals::SHARED_VISION_AT_ONCE),
    })?;
    culprit_first(game)?;
    ensure(game.revealed < SHARED_VISION_CARDS, || {
        Refusal::new(refusals::THREE_CARDS)
    })?;
    let unknown: Vec<usize> = (0..game.psychics.len())
        .filter(|&i| game.level_of(i).is_none())
        .collect();
    ensure(unknown.is_empty(), || {
        Refusal::new(refusals::LEVELS_UNKNOWN).with("names", names(game, &unknown))
    })?;
    let still_to_vote: Vec<usize> = (0..game.psychics.len())
        .filter(|&i| {
            game.level_of(i).map(|l| l.card()) == Some(game.revealed)
                && game.psychics[i].vote.is_none()
        })
        .collect();
    ensure(still_to_vote.is_empty(), || {
        Refusal::new(refusals::VOTE_FIRST).with("names", names(game, &still_to_vote))
    })
}

fn check_vote(game: &Game, psychic: usize, group: u8) -> Result<(), Refusal> {
    in_revelation(game)?;
    ensure(game.has_straw_poll(), || {
        Refusal::new(refusals::VOTE_IN_STRAW_POLL)
    })?;
    let p = &game.psychics[psychic];
    ensure(p.vote.is_none(), || {
        Refusal::new(refusals::VOTE_ONCE).with("name", game.who(psychic))
    })?;
    let level = game
        .level_of(psychic)
        .ok_or_else(|| Refusal::new(refusals::LEVEL_UNKNOWN).with("name", game.who(psychic)))?;
    ensure(game.revealed == level.card(), || {
        Refusal::new(refusals::VOTE_WHEN_REVEALED)
            .with("name", game.who(psychic))
            .with("level", level.term())
            .with("card", level.card())
            .with("revealed", game.revealed)
    })?;
    valid_group(game, group)
}

/// New edition: the ghost's three cards are out before the mediums decide.
fn shared_vision_given(game: &Game) -> Result<(), Refusal> {
    ensure(
        game.setup.edition == Edition::Classic || game.shared_vision,
        || Refusal::new(refusals::SHARED_VISION_FIRST),
    )
}

/// New edition: without a consensus, each medium player votes; a majority decides, a tie
/// sends them back to talk (`majority`).
fn check_majority_vote(game: &Game, psychic: usize, group: u8) -> Result<(), Refusal> {
    in_revelation(game)?;
    ensure(game.has_majority_vote(), || {
        Refusal::new(refusals::CONSENSUS)
    })?;
    shared_vision_given(game)?;
    let p = &game.psychics[psychic];
    ensure(p.vote.is_none(), || {
        Refusal::new(refusals::VOTE_ONCE).with("name", game.who(psychic))
    })?;
    valid_group(game, group)
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

/// Every vote in: the new edition's majority, or classic's straw poll with its tie-breaks.
fn count(game: &Game) -> Count {
    let ballots = ballots(game);
    match game.setup.edition {
        Edition::New => crate::majority::majority(&ballots),
        Edition::Classic => {
            let voters: Vec<Voter> = game
                .psychics
                .iter()
                .map(|p| Voter {
                    track: p.track,
                    age: p.age,
                })
                .collect();
            straw_poll::count(&ballots, &voters, game.setup.printing, game.eldest)
        }
    }
}

/// The table has shown the count's last line: the group it chose ends the game; a tie
/// the eldest must break asks for them (classic); a tie without a majority takes the votes
/// back for the mediums to talk again (new edition).
fn count_read(batch: &mut Batch) {
    let count = batch.game.count.clone().expect("a count was shown");
    match (count.chosen, count.steps.last()) {
        (Some(group), _) => end(batch, group),
        (None, Some(CountStep::AskEldest { among, .. })) => {
            let among = among.clone();
            batch.push(Event::EldestAsked { among });
        }
        (None, _) => batch.push(Event::NoMajority { count }),
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

/// Checks that `by` may put a `face` token on `on`'s pawn now.
fn check_placement(game: &Game, by: usize, on: usize, face: Face) -> Result<(), Refusal> {
    ensure(game.setup.tokens_per_psychic() > 0, || {
        Refusal::new(refusals::NO_CLAIRVOYANCY)
    })?;
    check_timer_running(game)?;
    ensure(by != on, || {
        Refusal::new(refusals::NOT_OWN_PAWN).with("name", game.who(by))
    })?;
    ensure(game.psychics[on].seeking().is_some(), || {
        Refusal::new(refusals::TOKEN_ON_FINISHED).with("name", game.who(on))
    })?;
    // 003 p.10: tokens go beside the intuition pawns the others have *played*.
    ensure(game.psychics[on].intuition.is_some(), || {
        Refusal::new(refusals::PAWN_NOT_PLACED).with("name", game.who(on))
    })?;
    // A token already there may be turned over (one act); the same face again changes nothing.
    let there = game.placements.iter().find(|p| p.by == by && p.on == on);
    ensure(there.is_none_or(|p| p.face != face), || {
        Refusal::new(refusals::TOKEN_THERE)
            .with("name", game.who(by))
            .with("face", face.sign())
            .with("on", game.who(on))
    })?;
    let held = game.psychics[by].held;
    let left = match face {
        Face::Agree => held.agree,
        Face::Disagree => held.disagree,
    };
    ensure(left > 0, || {
        Refusal::new(refusals::TOKENS_HELD)
            .with("name", game.who(by))
            .with("face", face.sign())
            .with("agree", held.agree)
            .with("disagree", held.disagree)
    })
}

/// Tokens and intuitions may change only until the sand timer runs out.
fn check_timer_running(game: &Game) -> Result<(), Refusal> {
    ensure(
        matches!(game.phase, Phase::Visions | Phase::Interpretation),
        || Refusal::new(refusals::UNTIL_TIMER_ENDS),
    )
}
