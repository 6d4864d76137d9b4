//! Games over the API, for any rule set ([`RuleBook`]). A command goes to the rules core; if
//! accepted it is committed to the journal, and only then applied and acknowledged. Every
//! change is announced, and each screen then builds its own role's view: secrets are
//! filtered here, at the source. Only the games in use are in memory: a game is loaded from
//! the journal when asked for, and the least recently used is let go past [`IN_MEMORY`], so
//! memory does not grow with history.

use crate::refusals;
use crate::sync::Hold;
use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Mutex};
use std::time::Instant;

use seance_journal::{Damage, Journal, JournalError, Standing, TimerRecord};
use seance_timeline::{Act, Extra, Refusal, Seat, Timeline, TimelineError, Who};
use tokio::sync::broadcast;

use crate::bgstats::Finished;
use crate::group_commit::Writer;
use crate::seats::Seats;
use seance_timeline::RuleBook;

mod paces;
mod sand;
mod snapshot;
mod timer;
mod told;
mod write;

use paces::Paces;
pub use sand::TimerAction;
pub use snapshot::Snapshot;
use timer::SandTimer;
pub use write::Rewind;

/// Why a request about a game was refused.
#[derive(Debug)]
pub enum GameError {
    /// Against the rules: nothing changed.
    Rule(Refusal),
    /// Not this device's to do, as the rules say: nothing changed.
    Forbidden(Refusal),
    /// Sent on a version the game has moved past, and something it depends on changed
    /// meanwhile (or a screen too far behind to tell): the rules say what (the view's `log`
    /// says how).
    Conflict(Refusal),
    Timeline(TimelineError),
    Journal(JournalError),
    /// Faster than a person plays (`Roles::pace`): nothing changed.
    TooFast(Refusal),
    /// Something failed that never should (a panic): nothing was changed.
    Fault(String),
}

impl GameError {
    /// A refusal said in the words of the game it is about (see `Listed::dialect`).
    fn in_dialect(self, dialect: Option<&'static str>) -> GameError {
        match self {
            GameError::Rule(r) => GameError::Rule(r.in_dialect(dialect)),
            GameError::Forbidden(r) => GameError::Forbidden(r.in_dialect(dialect)),
            GameError::Conflict(r) => GameError::Conflict(r.in_dialect(dialect)),
            other => other,
        }
    }
}

impl From<JournalError> for GameError {
    fn from(e: JournalError) -> Self {
        GameError::Journal(e)
    }
}

struct Live<G: RuleBook> {
    timeline: Timeline<G>,
    damage: Option<Damage>,
    timer: Option<SandTimer>,
    /// The action ids of the last few commands, each with the role that sent it (a seat, or
    /// the table for its screens) and the version it made: the same tap sent again from the
    /// same seat is acknowledged, not done twice; another seat's id is no use to anyone else.
    acted: VecDeque<Acted<G::Role>>,
    /// When it was last asked for: the least recent is let go first.
    used: Instant,
}

/// How many games stay in memory: more than a café's tables play at once (the load
/// benchmark plays 50; a game let go and read back on every change would cost each command
/// a replay). Others are read back from the journal when asked for.
const IN_MEMORY: usize = 64;

/// A command done for an action id: who sent it, its id, and the version it made.
struct Acted<R> {
    by: R,
    action: String,
    made: u64,
}

/// How many action ids a game remembers: as many as the timeline's changes.
const RECENT: usize = seance_timeline::RECENT;

pub struct Games<G: RuleBook> {
    writer: Writer,
    /// The games in memory, each behind a lock of its own: one game's command, waiting on
    /// the disk, never holds up another game's screens. Locks are taken in this order: the
    /// map, a game, the journal.
    live: Mutex<HashMap<i64, Arc<Mutex<Live<G>>>>>,
    /// One channel per game watched, so a change wakes only that game's screens.
    changes: Mutex<HashMap<i64, broadcast::Sender<()>>>,
    /// Held while a rematch is made, so two taps make one.
    rematching: Mutex<()>,
    /// Games whose latest change the table shows first, with its version: the other
    /// screens hear of it once the table has (or after [`HELD_MOST`]).
    held: Mutex<HashMap<i64, u64>>,
    /// How far each role (a seat's phone; the table's screens as one) of each game has
    /// gone into its pace, per act.
    paces: Paces<G::Role>,
}

impl<G: RuleBook> Live<G> {
    /// The game with its sand timer as journaled: one that was running comes back paused
    /// (the table resumes it when everyone is ready), one the phase no longer runs reset.
    fn new(timeline: Timeline<G>, damage: Option<Damage>, kept: Option<TimerRecord>) -> Live<G> {
        let runs = timeline.game().timer_runs();
        let timer = timeline.game().sand_timer().map(|duration| match kept {
            Some(record) => {
                let mut timer = SandTimer::restore(record);
                if !runs {
                    timer.reset();
                }
                timer
            }
            None => SandTimer::new(duration),
        });
        Live {
            timeline,
            damage,
            timer,
            acted: VecDeque::new(),
            used: Instant::now(),
        }
    }
}

impl<G: RuleBook> Games<G> {
    /// The games of rule set `G` in `journal`, a connection of this rule set's own to the
    /// one file (opened [`Journal::beside`] the others, so that they write in turns).
    pub fn new(journal: Journal) -> Games<G> {
        Games {
            writer: Writer::new(journal),
            live: Mutex::default(),
            changes: Mutex::default(),
            rematching: Mutex::default(),
            held: Mutex::default(),
            paces: Paces::new(),
        }
    }

    /// How many commits the journal has made; `None` when its count cannot be read.
    pub fn commits(&self) -> Option<u64> {
        self.writer.journal().commits().ok()
    }

    /// Writes what the history keeps of this rule set's finished games that have none (they
    /// ended before records were kept, or came through a recovery without it).
    pub fn record_missing(&self) -> Result<(), GameError> {
        let missing = self.writer.journal().unrecorded(G::RULE_SET)?;
        for id in missing {
            // A game that cannot be read from its start waits for the table to set it aside.
            let loaded = match self.writer.journal().load::<G>(id) {
                Err(JournalError::StartDamaged { .. }) => continue,
                loaded => loaded?,
            };
            if let Some(record) = loaded.timeline.game().record() {
                self.writer.journal().set_record(id, record)?;
            }
        }
        Ok(())
    }

    /// A new game from the events of its start (decided by the rules from a setup).
    pub fn create(&self, start: Vec<G::Event>) -> Result<i64, GameError> {
        let (timeline, start) = Timeline::begin(start).map_err(GameError::Timeline)?;
        let id = self.writer.journal().create(&start, timeline.game())?;
        let mut live = self.live.hold();
        live.insert(id, Arc::new(Mutex::new(Live::new(timeline, None, None))));
        let_go(&mut live);
        Ok(id)
    }

    /// Runs `f` on the game under its own lock, loading it from the journal on first use.
    /// `f` takes the journal's lock only to write. Its refusals are said in the game's own
    /// words (`Listed::dialect`).
    fn with<T>(
        &self,
        id: i64,
        f: impl FnOnce(&Writer, &mut Live<G>) -> Result<T, GameError>,
    ) -> Result<T, GameError> {
        let game = {
            let mut live = self.live.hold();
            let game = match live.entry(id) {
                std::collections::hash_map::Entry::Occupied(game) => game.get().clone(),
                std::collections::hash_map::Entry::Vacant(slot) => {
                    let loaded = self.writer.journal().load::<G>(id)?;
                    if let Some(d) = &loaded.damage {
                        tracing::warn!(
                            "game {id}: entry {} is damaged ({}); recovered the game before it",
                            d.seq,
                            d.why
                        );
                    }
                    let game = Live::new(loaded.timeline, loaded.damage, loaded.timer);
                    slot.insert(Arc::new(Mutex::new(game))).clone()
                }
            };
            let_go(&mut live);
            game
        };
        let mut game = game.hold();
        game.used = Instant::now();
        f(&self.writer, &mut game).map_err(|e| e.in_dialect(game.timeline.game().dialect()))
    }

    /// The seats game `id` has, as its rule set's seats.
    pub fn seats(&self, id: i64) -> Result<Vec<Seat<G::Role>>, GameError> {
        self.with(id, |_, live| Ok(live.timeline.game().seats()))
    }

    /// Whether game `id` is still being played (neither won, lost nor over).
    pub fn in_play(&self, id: i64) -> bool {
        self.with(id, |_, live| Ok(live.timeline.game().in_play()))
            .unwrap_or(false)
    }

    /// Whether `who` may ask for `extra` in game `id`, as its rules say.
    pub fn may(&self, id: i64, who: &Who<G::Role>, extra: Extra) -> Result<(), GameError> {
        self.with(id, |_, live| {
            live.timeline
                .game()
                .may(who, extra)
                .map_err(GameError::Forbidden)
        })
    }

    /// Whether `who` may knock in game `id` now: the rules' say, and at their pace.
    pub fn knock(&self, id: i64, who: &Who<G::Role>) -> Result<(), GameError> {
        self.with(id, |_, live| {
            (live.timeline.game().may(who, Extra::Knock)).map_err(GameError::Forbidden)?;
            self.paced(id, who, Act::Knock)
        })
    }

    /// Counts `who`'s `act` against its pace in game `id`, or refuses it.
    fn paced(&self, id: i64, who: &Who<G::Role>, act: Act) -> Result<(), GameError> {
        let Some(pace) = G::pace(who, act) else {
            return Ok(());
        };
        (self.paces.take(id, who.role(), act, pace)).map_err(GameError::TooFast)
    }

    /// Game `id` as a play log keeps it, with when it began and ended (from the
    /// journal); refused while it is played.
    pub fn finished(&self, id: i64) -> Result<Finished, GameError> {
        self.with(id, |writer, live| {
            let game = live.timeline.game();
            let summary = game
                .summary()
                .ok_or_else(|| GameError::Rule(Refusal::new(refusals::NOT_OVER)))?;
            let (began, ended) = writer.journal().played(id)?;
            Ok(Finished {
                title: game.title(),
                summary,
                began,
                ended,
            })
        })
    }

    /// Game `id`'s rematch, made once (a second tap or a second table screen finds the
    /// first): a new game from its setup with draws from `seed`, the phones of the seats
    /// in `keep` in the same seats. Its screens are told, and each follows on.
    pub fn rematch(
        &self,
        id: i64,
        seats: &Seats,
        keep: &[Seat<G::Role>],
        seed: u64,
    ) -> Result<i64, GameError> {
        let _one = self.rematching.hold();
        if let Some(next) = seats.rematch(id) {
            return Ok(next);
        }
        let setup = self.with(id, |_, live| {
            let game = live.timeline.game();
            let table = Who::Table { phones: Vec::new() };
            game.may(&table, Extra::Rematch)
                .map_err(GameError::Forbidden)?;
            Ok(game.again())
        })?;
        let next = self.create(G::start(setup, seed).map_err(GameError::Rule)?)?;
        seats
            .follow_on(id, next, keep)
            .map_err(|e| GameError::Fault(format!("the seats file: {e}")))?;
        self.touch(id);
        Ok(next)
    }

    /// Puts a game in play away (`archived`), out of the lists of games in play, or brings
    /// it back; played again, it is back in play by itself.
    pub fn archive(&self, id: i64, archived: bool) -> Result<(), GameError> {
        self.with(id, |writer, live| {
            let game = live.timeline.game();
            if !game.in_play() {
                return Err(GameError::Rule(Refusal::new(refusals::NOT_IN_PLAY)));
            }
            let standing = if archived {
                Standing::Archived
            } else {
                Standing::Is(game.status())
            };
            writer.journal().set_status(id, &standing)?;
            Ok(())
        })
    }

    /// Keeps a damaged tail aside so the game can go on from before it; a game whose start
    /// is damaged is set aside whole (it leaves every list), with version 0.
    pub fn set_aside_damage(&self, id: i64) -> Result<u64, GameError> {
        let version = self.with(id, |writer, live| {
            // The damage stays told until its tail is set aside on disk.
            if let Some(d) = &live.damage {
                writer.journal().set_aside(id, d.seq, &d.why)?;
                live.damage = None;
            }
            Ok(live.timeline.version())
        });
        let version = match version {
            Err(GameError::Journal(JournalError::StartDamaged { why, .. })) => {
                self.writer.journal().set_aside_start(id, &why)?;
                tracing::warn!(
                    "game {id} could not be read from its start ({why}); the table set it aside"
                );
                0
            }
            other => other?,
        };
        self.touch(id);
        Ok(version)
    }
}

/// Lets the least recently used game go while more than [`IN_MEMORY`] are kept, but never
/// one in use now (another holds it) nor one whose sand timer runs (its expiry is on its
/// way).
fn let_go<G: RuleBook>(live: &mut HashMap<i64, Arc<Mutex<Live<G>>>>) {
    while live.len() > IN_MEMORY {
        // Held by the map alone, under the map's lock: nobody can be waiting on its lock.
        let Some(oldest) = live
            .iter()
            .filter(|(_, game)| Arc::strong_count(game) == 1)
            .map(|(id, game)| (*id, game.hold()))
            .filter(|(_, game)| !game.timer.as_ref().is_some_and(SandTimer::is_running))
            .min_by_key(|(_, game)| game.used)
            .map(|(id, _)| id)
        else {
            return;
        };
        live.remove(&oldest);
    }
}

/// Journal work blocks on the disk: keep it off the async workers.
pub(crate) async fn blocking<T: Send + 'static>(
    f: impl FnOnce() -> Result<T, GameError> + Send + 'static,
) -> Result<T, GameError> {
    // A panic is answered as a fault, and its locks are not left poisoned (`hold`): the
    // next request is served.
    tokio::task::spawn_blocking(f)
        .await
        .unwrap_or_else(|fault| Err(GameError::Fault(fault.to_string())))
}

#[cfg(test)]
mod tests {
    use super::*;
    use seance_rules::{Difficulty, Game, Role, SecretMode, Setup};
    use std::sync::mpsc;

    #[test]
    fn a_game_waiting_on_the_disk_holds_up_no_other_games_screens() {
        let dir = tempfile::tempdir().unwrap();
        let games = Arc::new(Games::<Game>::new(
            Journal::open(&dir.path().join("seance.sqlite3")).unwrap(),
        ));
        let setup = Setup::with_dealt_colours(
            "Laura",
            &["Stephanie", "Alex"],
            Difficulty::Easy,
            SecretMode::AppKept,
        );
        let start = |seed| Game::start(setup.clone(), seed).unwrap();
        let (first, second) = (
            games.create(start(1)).unwrap(),
            games.create(start(2)).unwrap(),
        );
        // A write holds the journal (a slow disk), in the middle of a command on `first`.
        let writing = games.writer.journal();
        let (done, views) = mpsc::channel();
        for id in [first, second] {
            let (games, done) = (games.clone(), done.clone());
            std::thread::spawn(move || {
                let table = Who::Table { phones: vec![] };
                let snapshot = games.snapshot(id, Role::Table, &table).map(|s| s.game);
                done.send(snapshot.unwrap()).unwrap();
            });
        }
        let mut seen: Vec<i64> = (0..2)
            .map(|_| {
                views
                    .recv_timeout(std::time::Duration::from_secs(10))
                    .unwrap()
            })
            .collect();
        seen.sort();
        assert_eq!(seen, [first, second]);
        drop(writing);
    }
}
