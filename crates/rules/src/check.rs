//! Checking: whether a command may be done now by the rules, without doing it. One check
//! per command, each refusal saying what stands in the way; [`Game::decide`] checks
//! before it decides, and [`Game::allowed`] asks the same checks of every command it
//! lists, so the two cannot disagree.

use crate::cards::Card;
use crate::clairvoyancy::Face;
use crate::command::Command;
use crate::game::{Game, Phase, SHARED_VISION_CARDS};
use crate::levels::Level;
use crate::refusals;
use crate::setup::{CrowRule, Edition};
use seance_timeline::{Param, Refusal, ensure};

impl Game {
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
            Command::GiveEveryVision => check_every_vision(self),
            Command::StartTimer => check_start_timer(self),
            Command::UseCrow => ensure(self.crows_left() > 0, || match self.setup.crows() {
                CrowRule::Turn(_) => Refusal::new(refusals::CROW_THIS_TURN),
                CrowRule::Game(n) => Refusal::new(refusals::NO_CROWS_LEFT).with("n", n),
            }),
            Command::PlaceIntuition { psychic, card } => check_intuition(self, psychic, card),
            Command::PlaceToken { by, on, face } => check_placement(self, by, on, face),
            Command::WithdrawToken { by, on } => check_withdrawal(self, by, on),
            Command::EndInterpretation => check_end_interpretation(self),
            Command::Manifest { psychic, right } => self.judge(psychic, right).map(|_| ()),
            Command::ManifestEvery => check_manifest_every(self),
            Command::StateLevel { psychic, level } => check_level(self, psychic, level),
            Command::ChooseCulprit { group } => check_culprit(self, group),
            Command::RevealVisionCard => check_reveal(self),
            Command::ShareVision => check_share_vision(self),
            Command::Vote { psychic, group } => match self.setup.edition {
                Edition::New => check_majority_vote(self, psychic, group),
                Edition::Classic => check_vote(self, psychic, group),
            },
            Command::DeclareEldest { psychic } => check_eldest(self, psychic),
            Command::ShowCount { lines } => check_show_count(self, lines),
            Command::PickGroup { group } => check_pick(self, group),
        }
    }

    /// Whether `psychic`'s intuition was right: the app judges where it keeps the secrets,
    /// the ghost says so in paper mode; refused where the ghost may not answer them now.
    pub(crate) fn judge(&self, psychic: usize, said: Option<bool>) -> Result<bool, Refusal> {
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

pub(crate) fn names(game: &Game, psychics: &[usize]) -> Vec<Param> {
    psychics.iter().map(|&p| game.who(p)).collect()
}

pub(crate) fn waiting_for_vision(game: &Game) -> Vec<usize> {
    (0..game.psychics.len())
        .filter(|&i| game.psychics[i].seeking().is_some() && !game.psychics[i].vision)
        .collect()
}

/// The psychics with a vision this turn whom the ghost has not answered yet.
pub(crate) fn yet_to_hear(game: &Game) -> Vec<usize> {
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

/// The ghost may give every waiting psychic their vision at once.
fn check_every_vision(game: &Game) -> Result<(), Refusal> {
    ensure(
        matches!(game.phase, Phase::Visions | Phase::Interpretation),
        || Refusal::new(refusals::VISIONS_BEFORE_MANIFESTATION),
    )?;
    ensure(!waiting_for_vision(game).is_empty(), || {
        Refusal::new(refusals::VISIONS_ALL_GIVEN)
    })
}

/// The sand timer may be turned before the last vision, where the game has one.
fn check_start_timer(game: &Game) -> Result<(), Refusal> {
    ensure(game.setup.timer_seconds().is_some(), || {
        Refusal::new(seance_timeline::refusals::NO_TIMER)
    })?;
    ensure(game.phase == Phase::Visions, || {
        Refusal::new(refusals::TIMER_NOT_WAITING)
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

/// `by` may take back their token from `on`'s pawn while the sand timer runs.
fn check_withdrawal(game: &Game, by: usize, on: usize) -> Result<(), Refusal> {
    check_timer_running(game)?;
    ensure(
        game.placements.iter().any(|p| p.by == by && p.on == on),
        || {
            Refusal::new(refusals::NO_SUCH_TOKEN)
                .with("by", game.who(by))
                .with("on", game.who(on))
        },
    )
}

/// Tokens and intuitions may change only until the sand timer runs out.
fn check_timer_running(game: &Game) -> Result<(), Refusal> {
    ensure(
        matches!(game.phase, Phase::Visions | Phase::Interpretation),
        || Refusal::new(refusals::UNTIL_TIMER_ENDS),
    )
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

/// Every answer still to come may be revealed at once where the app keeps the secrets
/// (classic only).
fn check_manifest_every(game: &Game) -> Result<(), Refusal> {
    ensure(game.phase == Phase::Manifestation, || {
        Refusal::new(refusals::MANIFESTATION)
    })?;
    ensure(game.assignments.is_some(), || {
        Refusal::new(refusals::ANSWERS_ONE_BY_ONE)
    })?;
    // The new edition's mediums ask one at a time, and the ghost knocks each answer.
    ensure(game.setup.edition == Edition::Classic, || {
        Refusal::new(refusals::MEDIUMS_ASK_IN_TURN)
    })?;
    yet_to_hear(game)
        .into_iter()
        .try_for_each(|psychic| game.judge(psychic, None).map(|_| ()))
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

/// New edition: the ghost's three cards are out before the mediums decide.
fn shared_vision_given(game: &Game) -> Result<(), Refusal> {
    ensure(
        game.setup.edition == Edition::Classic || game.shared_vision,
        || Refusal::new(refusals::SHARED_VISION_FIRST),
    )
}

/// The table may state `psychic`'s `level` where the bands leave it uncertain.
fn check_level(game: &Game, psychic: usize, level: Level) -> Result<(), Refusal> {
    let p = &game.psychics[psychic];
    ensure(
        game.phase == Phase::Revelation && game.has_straw_poll(),
        || Refusal::new(refusals::STATE_LEVEL),
    )?;
    ensure(p.vote.is_none(), || {
        Refusal::new(refusals::LEVEL_AFTER_VOTE).with("name", game.who(psychic))
    })?;
    // The track stands still in the revelation, so a level is a fact from the first card on
    // (000 p.12): a level whose card has passed cannot be theirs, and stating it would leave
    // a psychic who can never vote.
    ensure(level.card() >= game.revealed, || {
        Refusal::new(refusals::LEVEL_CARD_PASSED)
            .with("revealed", game.revealed)
            .with("level", level.term())
            .with("card", level.card())
            .with("name", game.who(psychic))
    })?;
    let bands = game.setup.bands().expect("4+ players use the track");
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

/// The ghost may seal `group` as the culprit's, once, unless Séance draws it.
fn check_culprit(game: &Game, group: u8) -> Result<(), Refusal> {
    in_revelation(game)?;
    ensure(!game.draws_culprit(), || {
        Refusal::new(refusals::CULPRIT_DRAWN)
    })?;
    ensure(game.culprit.is_none(), || {
        Refusal::new(refusals::CULPRIT_SEALED)
    })?;
    valid_group(game, group)
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

/// New edition: the ghost gives the shared vision once, after sealing the culprit.
fn check_share_vision(game: &Game) -> Result<(), Refusal> {
    in_revelation(game)?;
    ensure(game.setup.edition == Edition::New, || {
        Refusal::new(refusals::CARDS_ONE_AT_A_TIME)
    })?;
    culprit_first(game)?;
    ensure(!game.shared_vision, || {
        Refusal::new(refusals::SHARED_VISION_GIVEN)
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

/// `psychic` may be declared the eldest only among those the count asks about.
fn check_eldest(game: &Game, psychic: usize) -> Result<(), Refusal> {
    let among = game.eldest_asked.clone().unwrap_or_default();
    ensure(among.contains(&psychic), || {
        if among.is_empty() {
            Refusal::new(refusals::ELDEST_NOT_ASKED)
        } else {
            Refusal::new(refusals::ELDEST_AMONG).with("names", names(game, &among))
        }
    })
}

/// The table shows the count a line at a time, or all that is left.
fn check_show_count(game: &Game, lines: u8) -> Result<(), Refusal> {
    ensure(game.counting(), || Refusal::new(refusals::NO_COUNT_TO_SHOW))?;
    // The next line, or all that is left at once.
    let next = game.shown + 1;
    let last = game.count_lines();
    ensure(lines == next || lines == last, || {
        Refusal::new(refusals::COUNT_LINES)
            .with("next", next)
            .with("last", last)
    })
}

/// The psychics may pick `group` where they agree on it rather than vote.
fn check_pick(game: &Game, group: u8) -> Result<(), Refusal> {
    in_revelation(game)?;
    ensure(!game.has_straw_poll(), || {
        Refusal::new(refusals::PICK_IN_STRAW_POLL)
    })?;
    culprit_first(game)?;
    shared_vision_given(game)?;
    valid_group(game, group)
}
