//! Deciding: a command checked against the rules becomes events, with the automatic
//! consequences (the sand timer after the last vision, the end of the turn after the
//! last manifestation, the count after the last vote, what the count decides after the
//! table has shown its last line) following in the same batch.

use crate::cards::{Card, Category, Layout};
use crate::check::{waiting_for_vision, yet_to_hear};
use crate::clairvoyancy::{finishing_bonus, manifestation_moves};
use crate::clock::HOURS;
use crate::command::Command;
use crate::event::{Event, Group};
use crate::game::{Game, Phase};
use crate::setup::{Edition, SecretMode, Setup};
use crate::straw_poll::{self, Ballot, Count, CountStep, Voter};
use seance_timeline::Draw;
use seance_timeline::Refusal;

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
