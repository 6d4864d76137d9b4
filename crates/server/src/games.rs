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
use std::time::{Duration, Instant};

use seance_journal::{Append, Damage, Journal, JournalError, Standing, TimerRecord};
use seance_timeline::{
    Act, ChangeKind, Entry, EntryOf, Extra, Refusal, Seat, Timeline, TimelineError, Who,
};
use serde::Serialize;
use tokio::sync::broadcast;

use crate::bgstats::Finished;
use crate::group_commit::Writer;
use crate::seats::Seats;
use seance_timeline::RuleBook;

mod paces;
mod sand;
mod timer;

use paces::Paces;
pub use sand::TimerAction;
use timer::{SandTimer, TimerView};

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

/// What a screen receives of a game of rule set `G`: a role's view, what its device may do
/// now, and what happened lately as that role may know it.
#[derive(Serialize)]
#[serde(bound = "")]
pub struct Snapshot<G: RuleBook> {
    pub game: i64,
    pub version: u64,
    /// Whether this device may undo (or redo) now: the rules say who, the history whether
    /// there is anything.
    pub can_undo: bool,
    pub can_redo: bool,
    /// What this device may do now, with each action's choices, as the rules say.
    pub allowed: Vec<G::Action>,
    /// A damaged tail found on loading, kept until the table sets it aside: where it
    /// begins (what is wrong with it is the server's log's, not a person's to read).
    pub damage: Option<Damaged>,
    /// The sand timer, on the server's clock, for a game that has one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub timer: Option<TimerView>,
    /// The last few changes, oldest first, as this role may know them.
    pub log: Vec<Logged<G>>,
    /// The seats a phone takes only by the table's invitation (`["ghost"]`).
    pub by_invitation: Vec<String>,
    /// The words this game is told in where they are not its rule set's usual ones
    /// (`Listed::dialect`): `"new"`, `"stories"`, or none.
    pub dialect: Option<&'static str>,
    pub view: G::View,
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

/// The longest the other screens wait for the table to show a change it shows first (a
/// table screen asleep in the background, or gone, shows nothing).
pub const HELD_MOST: Duration = Duration::from_secs(1);

/// A command made: its version, and whether the other screens wait for the table to show
/// it ([`Games::shown`]).
#[derive(Debug, Clone, Copy)]
pub struct Made {
    pub version: u64,
    pub held: bool,
}

/// What a change came with: its action id, and whether the table shows it first.
struct Sent {
    action: Option<String>,
    held: bool,
}

/// The undo and redo requests, which share every step but the entry.
#[derive(Debug, Clone, Copy)]
pub enum Rewind {
    Undo,
    Redo,
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

    /// Hears of every change to game `id`.
    pub fn subscribe(&self, id: i64) -> broadcast::Receiver<()> {
        let mut changes = self.changes.hold();
        // Games nobody watches any more keep no channel.
        changes.retain(|_, watchers| watchers.receiver_count() > 0);
        changes
            .entry(id)
            .or_insert_with(|| broadcast::channel(16).0)
            .subscribe()
    }

    /// Tells every screen watching `id` to look again.
    pub fn touch(&self, id: i64) {
        // Held for the table: told when the table has shown it.
        if self.held.hold().contains_key(&id) {
            return;
        }
        if let Some(watchers) = self.changes.hold().get(&id) {
            // No receiver left is not an error: nobody watches now.
            let _ = watchers.send(());
        }
    }

    /// Change `version` of game `id`, held for the table: the other screens are told when
    /// it says it has shown it ([`Games::shown`]), or after [`HELD_MOST`].
    fn release_later(self: &Arc<Self>, id: i64, version: u64) {
        let games = Arc::clone(self);
        tokio::spawn(async move {
            tokio::time::sleep(HELD_MOST).await;
            games.shown(id, version);
        });
    }

    /// The table has shown game `id` up to `version`: every other screen is told.
    pub fn shown(&self, id: i64, version: u64) {
        let released = {
            let mut held = self.held.hold();
            let done = held.get(&id).is_some_and(|&h| h <= version);
            if done {
                held.remove(&id);
            }
            done
        };
        if released {
            self.touch(id);
        }
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

    /// `role`'s view of the game, with what `who` (the device asking) may do now.
    pub fn snapshot(
        &self,
        id: i64,
        role: G::Role,
        who: &Who<G::Role>,
    ) -> Result<Snapshot<G>, GameError> {
        // The view is built outside the game's lock: its next command need not wait on it.
        let (around, game) = self.with(id, |_, live| {
            Ok((Around::of(id, live, role), live.timeline.game().clone()))
        })?;
        let view = game.view(role).map_err(GameError::Rule)?;
        Ok(around.with(&game, who, view))
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

    /// Decides, journals, applies: in that order, so an acknowledged command is on disk.
    /// The rules first say whether `who` may send it at all. A command whose `action` id
    /// the same device already had done (a repeated tap, a retried request) is then
    /// acknowledged with the version it made, and not done again.
    pub fn command(
        self: &Arc<Self>,
        id: i64,
        version: u64,
        who: &Who<G::Role>,
        command: G::Command,
        action: Option<String>,
    ) -> Result<Made, GameError> {
        let permitted = |timeline: &Timeline<G>| {
            timeline
                .game()
                .permit(who, &command)
                .map_err(GameError::Forbidden)
        };
        // What the table reads out is the table's to show first.
        let held = matches!(who, Who::Table { .. }) && G::shown_by_the_table(&command);
        let sent = Sent { action, held };
        let made = self.write(id, sent, who, permitted, |timeline| {
            // Sent on an older version, it lands unless what it depends on changed since.
            (timeline.rebase(&command, version, who.role())).map_err(GameError::Conflict)?;
            timeline.decide(command.clone()).map_err(GameError::Rule)
        })?;
        if made.held {
            self.release_later(id, made.version);
        } else {
            self.touch(id);
        }
        Ok(made)
    }

    pub fn rewind(
        self: &Arc<Self>,
        id: i64,
        version: u64,
        who: &Who<G::Role>,
        how: Rewind,
    ) -> Result<u64, GameError> {
        let extra = match how {
            Rewind::Undo => Extra::Undo,
            Rewind::Redo => Extra::Redo,
        };
        self.may(id, who, extra)?;
        let sent = Sent {
            action: None,
            held: false,
        };
        let made = self.write(
            id,
            sent,
            who,
            |_| Ok(()),
            |timeline| {
                timeline.rewind_seen(version).map_err(GameError::Conflict)?;
                match how {
                    Rewind::Undo if !timeline.can_undo() => {
                        Err(GameError::Timeline(TimelineError::NothingToUndo))
                    }
                    Rewind::Redo if !timeline.can_redo() => {
                        Err(GameError::Timeline(TimelineError::NothingToRedo))
                    }
                    Rewind::Undo => Ok(Entry::Undo),
                    Rewind::Redo => Ok(Entry::Redo),
                }
            },
        )?;
        self.touch(id);
        Ok(made.version)
    }

    /// Adds an entry to the game's history from `who`, once `permitted` says `who` may ask
    /// for it at all and within its pace: on disk first, then in memory. `entry` says
    /// whether it may still be done on the game as it stands (`Timeline::rebase`). The
    /// screens are told by the caller.
    fn write(
        self: &Arc<Self>,
        id: i64,
        Sent { action, held }: Sent,
        who: &Who<G::Role>,
        permitted: impl FnOnce(&Timeline<G>) -> Result<(), GameError>,
        entry: impl FnOnce(&Timeline<G>) -> Result<EntryOf<G>, GameError>,
    ) -> Result<Made, GameError> {
        let by = who.role();
        self.with(id, |writer, live| {
            permitted(&live.timeline)?;
            if let Some(done) = action
                .as_ref()
                .and_then(|a| live.acted.iter().find(|d| d.by == by && &d.action == a))
            {
                // Sent again (its answer lost): still held, the table still says when shown.
                let held = self.held.hold().get(&id) == Some(&done.made);
                return Ok(Made {
                    version: done.made,
                    held,
                });
            }
            if let Some(d) = &live.damage {
                return Err(GameError::Journal(JournalError::Damaged {
                    game: id,
                    seq: d.seq,
                }));
            }
            let now = live.timeline.version();
            let entry = entry(&live.timeline)?;
            let made = self.commit(id, writer, live, entry, Some(who))?;
            // Held before the game's lock is let go, so that no change told meanwhile tells
            // it; a command that changed nothing holds nothing.
            let held = held && made > now;
            if held {
                self.held.hold().insert(id, made);
            }
            if let Some(action) = action {
                live.acted.push_back(Acted { by, action, made });
                if live.acted.len() > RECENT {
                    live.acted.pop_front();
                }
            }
            Ok(Made {
                version: made,
                held,
            })
        })
    }

    /// Journals `entry`, then applies it, then lets the sand timer follow the phase, unless
    /// it changes nothing. `who` sent it, at their pace (none: the sand running out).
    fn commit(
        self: &Arc<Self>,
        id: i64,
        writer: &Writer,
        live: &mut Live<G>,
        entry: EntryOf<G>,
        who: Option<&Who<G::Role>>,
    ) -> Result<u64, GameError> {
        let next = live.timeline.after(entry).map_err(GameError::Timeline)?;
        // A command that changes nothing (a level stated again, say) is acknowledged as
        // done and neither written nor kept: a repeated tap adds nothing to the history.
        if matches!(next.entry(), Entry::Command { .. }) && next.game() == live.timeline.game() {
            return Ok(live.timeline.version());
        }
        // Only what is written is counted: a refusal, a repeat, costs nothing.
        if let Some(who) = who {
            self.paced(id, who, Act::Change)?;
        }
        let by = who.map(Who::role);
        // Most commands leave the sand alone; one that moves it writes it with itself.
        let runs = next.game().timer_runs();
        let follow = |timer: &SandTimer, now| timer.follow(runs, now);
        let now = Instant::now();
        let kept = (live.timer.as_ref())
            .and_then(|t| follow(t, now))
            .map(|(timer, _)| timer.record(now));
        writer.append(
            Append::new(
                id,
                live.timeline.version() + 1,
                next.entry(),
                next.game().status(),
                by.map(|role| role.to_string()).as_deref(),
            )
            .with_record(next.game().record())
            .with_timer(kept),
        )?;
        live.timeline.record(next, by);
        // Started once written: a wait for the disk takes no sand.
        if let Some((timer, started)) = live.timer.as_ref().and_then(|t| follow(t, Instant::now()))
        {
            live.timer = Some(timer);
            if let Some(run) = started {
                self.expire_at(id, run);
            }
        }
        Ok(live.timeline.version())
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

/// A recent change as `role`'s log tells it.
#[derive(Serialize)]
#[serde(bound = "")]
pub struct Logged<G: RuleBook> {
    pub version: u64,
    pub change: ChangeKind,
    /// Who sent it: the table, or a seat (`"ghost"`, `{"psychic": 2}`); none for the sand
    /// running out, or before a restart.
    pub by: Option<G::Role>,
    pub told: Vec<G::Told>,
    /// An undo's: the version of the change it took back.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub undid: Option<u64>,
}

/// Where a game's damaged tail begins: its first entry that cannot be read.
#[derive(Debug, Clone, Copy, Serialize)]
pub struct Damaged {
    pub entry: u64,
}

/// What a snapshot holds around the view: taken under the lock, the view added after.
struct Around<G: RuleBook> {
    game: i64,
    version: u64,
    can_undo: bool,
    can_redo: bool,
    damage: Option<Damaged>,
    timer: Option<TimerView>,
    log: Vec<Logged<G>>,
}

impl<G: RuleBook> Around<G> {
    fn of(id: i64, live: &Live<G>, role: G::Role) -> Around<G> {
        let log = live
            .timeline
            .recent()
            .map(|change| Logged {
                version: change.version,
                change: change.kind,
                by: change.by,
                undid: change.undid,
                told: change
                    .events
                    .iter()
                    .filter_map(|e| live.timeline.game().told(e, role))
                    .collect(),
            })
            .filter(|logged| !logged.told.is_empty())
            .collect();
        Around {
            game: id,
            log,
            version: live.timeline.version(),
            can_undo: live.timeline.can_undo(),
            can_redo: live.timeline.can_redo(),
            damage: live.damage.as_ref().map(|d| Damaged { entry: d.seq }),
            timer: live.timer.as_ref().map(|t| t.view(Instant::now())),
        }
    }

    fn with(self, game: &G, who: &Who<G::Role>, view: G::View) -> Snapshot<G> {
        Snapshot {
            game: self.game,
            version: self.version,
            can_undo: self.can_undo && game.may(who, Extra::Undo).is_ok(),
            can_redo: self.can_redo && game.may(who, Extra::Redo).is_ok(),
            allowed: game.allowed(who),
            damage: self.damage,
            timer: self.timer,
            log: self.log,
            by_invitation: (game.seats().into_iter())
                .filter(|&seat| G::by_invitation(seat))
                .map(|seat| seat.to_string())
                .collect(),
            dialect: game.dialect(),
            view,
        }
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
