//! Who may do what now. Each command is done for a seat, as the rulebooks have it (a
//! psychic's pawn, tokens and vote are theirs; visions, crows, answers, the culprit and the
//! shared vision are the ghost's; what is read off the board is anyone's); [`Game::permit`]
//! says which device may send it, and [`Game::allowed`] lists every command open to a
//! device now, with its choices, by asking [`Game::check`] itself: the list and
//! [`Game::decide`] cannot disagree.

use crate::refusals;
use serde::Serialize;

use seance_timeline::{Extra, Refusal, RoleName, Who, ensure};

use crate::cards::Card;
use crate::clairvoyancy::Face;
use crate::command::Command;
use crate::game::{Game, Phase};
use crate::levels::Level;
use crate::role::{Role, Seat};
use crate::setup::SecretMode;

/// A command open now, with the choices it takes.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Action {
    /// The ghost gives one of these psychics their vision.
    GiveVision {
        psychics: Vec<usize>,
    },
    /// The ghost gives every psychic still waiting their vision.
    GiveEveryVision,
    StartTimer,
    UseCrow,
    /// `psychic`'s intuition pawn may go on one of these cards.
    PlaceIntuition {
        psychic: usize,
        cards: Vec<Card>,
    },
    /// `by` may put one of these faces on `on`'s pawn (turning over a token already there).
    PlaceToken {
        by: usize,
        on: usize,
        faces: Vec<Face>,
    },
    /// `by` may take their token back from `on`'s pawn.
    WithdrawToken {
        by: usize,
        on: usize,
    },
    EndInterpretation,
    /// The ghost answers `psychic`: `right` is one of these (`null`: the app judges).
    Manifest {
        psychic: usize,
        answers: Vec<Option<bool>>,
    },
    /// The app reveals every answer still to come.
    ManifestEvery,
    /// `psychic`'s level, read off the track, is one of these.
    StateLevel {
        psychic: usize,
        levels: Vec<Level>,
    },
    ChooseCulprit {
        groups: Vec<u8>,
    },
    RevealVisionCard,
    ShareVision,
    /// `psychic` votes for one of these groups.
    Vote {
        psychic: usize,
        groups: Vec<u8>,
    },
    /// The eldest is one of these psychics.
    DeclareEldest {
        psychics: Vec<usize>,
    },
    PickGroup {
        groups: Vec<u8>,
    },
    /// The table shows the count as far as one of these lines: the next, or the last.
    ShowCount {
        lines: Vec<u8>,
    },
    /// Pause, resume or reset the sand timer while it runs.
    SandTimer,
    /// Knock on the table: once for yes, twice for no.
    Knock,
    /// Play again: the same players, seats and settings, new draws.
    Rematch,
}

impl Action {
    /// Every command this action stands for (none for the shells' extras).
    pub fn commands(&self) -> Vec<Command> {
        match self {
            Action::GiveVision { psychics } => psychics
                .iter()
                .map(|&psychic| Command::GiveVision { psychic })
                .collect(),
            Action::GiveEveryVision => vec![Command::GiveEveryVision],
            Action::StartTimer => vec![Command::StartTimer],
            Action::UseCrow => vec![Command::UseCrow],
            Action::PlaceIntuition { psychic, cards } => cards
                .iter()
                .map(|&card| Command::PlaceIntuition {
                    psychic: *psychic,
                    card,
                })
                .collect(),
            Action::PlaceToken { by, on, faces } => faces
                .iter()
                .map(|&face| Command::PlaceToken {
                    by: *by,
                    on: *on,
                    face,
                })
                .collect(),
            &Action::WithdrawToken { by, on } => vec![Command::WithdrawToken { by, on }],
            Action::EndInterpretation => vec![Command::EndInterpretation],
            Action::Manifest { psychic, answers } => answers
                .iter()
                .map(|&right| Command::Manifest {
                    psychic: *psychic,
                    right,
                })
                .collect(),
            Action::ManifestEvery => vec![Command::ManifestEvery],
            Action::StateLevel { psychic, levels } => levels
                .iter()
                .map(|&level| Command::StateLevel {
                    psychic: *psychic,
                    level,
                })
                .collect(),
            Action::ChooseCulprit { groups } => groups
                .iter()
                .map(|&group| Command::ChooseCulprit { group })
                .collect(),
            Action::RevealVisionCard => vec![Command::RevealVisionCard],
            Action::ShareVision => vec![Command::ShareVision],
            Action::Vote { psychic, groups } => groups
                .iter()
                .map(|&group| Command::Vote {
                    psychic: *psychic,
                    group,
                })
                .collect(),
            Action::DeclareEldest { psychics } => psychics
                .iter()
                .map(|&psychic| Command::DeclareEldest { psychic })
                .collect(),
            Action::PickGroup { groups } => groups
                .iter()
                .map(|&group| Command::PickGroup { group })
                .collect(),
            Action::ShowCount { lines } => lines
                .iter()
                .map(|&lines| Command::ShowCount { lines })
                .collect(),
            Action::SandTimer | Action::Knock | Action::Rematch => Vec::new(),
        }
    }
}

impl Command {
    /// The seat the rulebooks have do this: a psychic places their own pawn and tokens and
    /// casts their own vote; the ghost gives the visions, spends crows, runs the sand timer,
    /// answers, seals the culprit and gives the shared vision; what is read off the board
    /// (a level, the eldest, the group agreed on) and the count it reads out are the
    /// table's.
    pub fn seat(&self) -> Role {
        match *self {
            Command::PlaceIntuition { psychic, .. } | Command::Vote { psychic, .. } => {
                Role::Psychic(psychic)
            }
            Command::PlaceToken { by, .. } | Command::WithdrawToken { by, .. } => Role::Psychic(by),
            Command::GiveVision { .. }
            | Command::GiveEveryVision
            | Command::ManifestEvery
            | Command::StartTimer
            | Command::UseCrow
            | Command::EndInterpretation
            | Command::Manifest { .. }
            | Command::ChooseCulprit { .. }
            | Command::RevealVisionCard
            | Command::ShareVision => Role::Ghost,
            Command::StateLevel { .. }
            | Command::DeclareEldest { .. }
            | Command::ShowCount { .. }
            | Command::PickGroup { .. } => Role::Table,
        }
    }

    /// Shown where everyone sees it: the count is read out on the table screen itself.
    pub(crate) fn on_the_table(&self) -> bool {
        matches!(self, Command::ShowCount { .. })
    }

    /// A sealed choice: made on its seat's phone whenever a phone holds that seat.
    fn sealed(&self) -> bool {
        matches!(self, Command::Vote { .. } | Command::ChooseCulprit { .. })
    }
}

/// Whether `who` is the table or the ghost's phone: those keep the game's time and history.
fn hosts(who: &Who<Role>) -> bool {
    matches!(who, Who::Table { .. } | Who::Seat(Seat::Ghost))
}

impl Game {
    /// Whether `who` may send `command` at all: a psychic's phone acts for its psychic, the
    /// ghost's phone for everyone but the psychics, the table for everyone but the sealed
    /// choices of a seat a phone holds, and alone shows the count; a watcher for nobody.
    pub fn permit(&self, who: &Who<Role>, command: &Command) -> Result<(), Refusal> {
        let seat = command.seat();
        match who {
            Who::Watcher => Err(Refusal::new(seance_timeline::refusals::WATCHER)),
            Who::Seat(Seat::Psychic(p)) => ensure(seat == Role::Psychic(*p), || {
                Refusal::new(refusals::PSYCHIC_ACTS_FOR_SELF)
            }),
            Who::Seat(Seat::Ghost) => {
                ensure(!matches!(seat, Role::Psychic(_)), || {
                    Refusal::new(refusals::GHOST_NOT_FOR_PSYCHICS)
                })?;
                ensure(!command.on_the_table(), || {
                    Refusal::new(refusals::TABLE_SHOWS_COUNT)
                })
            }
            Who::Table { .. } => {
                let on_phone = seat.seat().is_some_and(|seat| who.on_phone(&seat));
                ensure(!(command.sealed() && on_phone), || match seat {
                    Role::Ghost => Refusal::new(refusals::CULPRIT_ON_PHONE),
                    _ => Refusal::new(seance_timeline::refusals::VOTE_ON_PHONE),
                })
            }
        }
    }

    /// Whether `who` may ask the shells for `extra`: undo and redo, the sand timer and the
    /// knocks belong to the table and the ghost's phone. Where Séance keeps the secrets it
    /// answers the psychics itself, so the table has no knocks to make for the ghost; the
    /// ghost's phone may still knock, but in the new edition, whose answers knock. A
    /// rematch is the table's, once the game has ended. A line of the count just shown is
    /// not undone.
    pub fn may(&self, who: &Who<Role>, extra: Extra) -> Result<(), Refusal> {
        if matches!(who, Who::Watcher) {
            return Err(Refusal::new(seance_timeline::refusals::WATCHER));
        }
        if extra == Extra::Rematch {
            ensure(matches!(who, Who::Table { .. }), || {
                Refusal::new(seance_timeline::refusals::TABLE_ONLY)
            })?;
            return ensure(self.phase == Phase::Ended, || {
                Refusal::new(seance_timeline::refusals::REMATCH_IN_PLAY)
            });
        }
        ensure(hosts(who), || Refusal::new(refusals::HOST_ONLY))?;
        // A line of the count once shown has been read by everyone at the table.
        ensure(!(extra == Extra::Undo && self.read_out), || {
            Refusal::new(refusals::COUNT_READ)
        })?;
        ensure(
            extra != Extra::Timer || self.setup.timer_seconds().is_some(),
            || Refusal::new(seance_timeline::refusals::NO_TIMER),
        )?;
        let table_knocks = extra == Extra::Knock && matches!(who, Who::Table { .. });
        ensure(
            !(table_knocks && self.setup.secrets == SecretMode::AppKept),
            || Refusal::new(refusals::APP_ANSWERS),
        )?;
        // The new edition's answers are knocked as they are recorded: neither the table nor
        // the ghost's phone has a knock of its own to give (one could contradict an answer).
        ensure(!(extra == Extra::Knock && self.answers_knock()), || {
            Refusal::new(refusals::ANSWERS_KNOCK)
        })
    }

    /// Everything `who` may do now, with its choices: the commands [`Game::permit`] and
    /// [`Game::check`] accept, asked of them over the few the game's size allows.
    pub fn allowed(&self, who: &Who<Role>) -> Vec<Action> {
        let ok = |c: &Command| self.permit(who, c).is_ok() && self.check(c).is_ok();
        let mut actions = Vec::new();
        // The commands without a choice, asked in every phase (a crow may be spent in the
        // revelation too).
        for (command, action) in [
            (Command::GiveEveryVision, Action::GiveEveryVision),
            (Command::ManifestEvery, Action::ManifestEvery),
            (Command::StartTimer, Action::StartTimer),
            (Command::UseCrow, Action::UseCrow),
            (Command::EndInterpretation, Action::EndInterpretation),
            (Command::RevealVisionCard, Action::RevealVisionCard),
            (Command::ShareVision, Action::ShareVision),
        ] {
            if ok(&command) {
                actions.push(action);
            }
        }
        // The families with choices are asked only in their phase: the rules refuse them
        // anywhere else.
        match self.phase {
            Phase::Visions | Phase::Interpretation => {
                actions.extend(self.interpretation_actions(&ok))
            }
            Phase::Manifestation => actions.extend(self.manifestation_actions(&ok)),
            Phase::Revelation => actions.extend(self.revelation_actions(&ok)),
            Phase::Ended => {}
        }
        // An action left without a choice is not open.
        actions.retain(|a| !a.commands().is_empty());
        // The sand timer's buttons while it runs (the interpretation); knocks all game long.
        if self.phase == Phase::Interpretation && self.may(who, Extra::Timer).is_ok() {
            actions.push(Action::SandTimer);
        }
        if self.phase != Phase::Ended && self.may(who, Extra::Knock).is_ok() {
            actions.push(Action::Knock);
        }
        if self.may(who, Extra::Rematch).is_ok() {
            actions.push(Action::Rematch);
        }
        actions
    }

    /// The choices of Phase 1 until the sand timer runs out: visions, pawns and tokens.
    fn interpretation_actions(&self, ok: &impl Fn(&Command) -> bool) -> Vec<Action> {
        let psychics = 0..self.psychics.len();
        let mut actions = Vec::new();
        actions.push(Action::GiveVision {
            psychics: psychics
                .clone()
                .filter(|&psychic| ok(&Command::GiveVision { psychic }))
                .collect(),
        });
        for psychic in psychics.clone() {
            let cards = self.psychics[psychic]
                .seeking()
                .map(|c| self.layout.of(c).to_vec())
                .unwrap_or_default();
            actions.push(Action::PlaceIntuition {
                psychic,
                cards: cards
                    .into_iter()
                    .filter(|&card| ok(&Command::PlaceIntuition { psychic, card }))
                    .collect(),
            });
        }
        for by in psychics.clone() {
            for on in psychics.clone().filter(|&on| on != by) {
                actions.push(Action::PlaceToken {
                    by,
                    on,
                    faces: [Face::Agree, Face::Disagree]
                        .into_iter()
                        .filter(|&face| ok(&Command::PlaceToken { by, on, face }))
                        .collect(),
                });
                if ok(&Command::WithdrawToken { by, on }) {
                    actions.push(Action::WithdrawToken { by, on });
                }
            }
        }
        actions
    }

    /// The choices of the manifestation: the ghost's answer to each psychic.
    fn manifestation_actions(&self, ok: &impl Fn(&Command) -> bool) -> Vec<Action> {
        let mut actions = Vec::new();
        for psychic in 0..self.psychics.len() {
            actions.push(Action::Manifest {
                psychic,
                answers: [None, Some(true), Some(false)]
                    .into_iter()
                    .filter(|&right| ok(&Command::Manifest { psychic, right }))
                    .collect(),
            });
        }
        actions
    }

    /// The choices of Phase 2: levels, the culprit, votes, the eldest, the group, the count.
    fn revelation_actions(&self, ok: &impl Fn(&Command) -> bool) -> Vec<Action> {
        let psychics = 0..self.psychics.len();
        let groups = 1..=self.groups.len() as u8;
        let mut actions = Vec::new();
        let of_groups = |make: &dyn Fn(u8) -> Command| {
            groups.clone().filter(|&g| ok(&make(g))).collect::<Vec<_>>()
        };
        for psychic in psychics.clone() {
            actions.push(Action::StateLevel {
                psychic,
                levels: [Level::Low, Level::Intermediate, Level::High]
                    .into_iter()
                    .filter(|&level| ok(&Command::StateLevel { psychic, level }))
                    .collect(),
            });
        }
        actions.push(Action::ChooseCulprit {
            groups: of_groups(&|group| Command::ChooseCulprit { group }),
        });
        for psychic in psychics.clone() {
            actions.push(Action::Vote {
                psychic,
                groups: of_groups(&|group| Command::Vote { psychic, group }),
            });
        }
        actions.push(Action::DeclareEldest {
            psychics: psychics
                .clone()
                .filter(|&psychic| ok(&Command::DeclareEldest { psychic }))
                .collect(),
        });
        actions.push(Action::PickGroup {
            groups: of_groups(&|group| Command::PickGroup { group }),
        });
        let mut lines = vec![self.shown.saturating_add(1), self.count_lines()];
        lines.dedup();
        actions.push(Action::ShowCount {
            lines: lines
                .into_iter()
                .filter(|&lines| ok(&Command::ShowCount { lines }))
                .collect(),
        });
        actions
    }
}
