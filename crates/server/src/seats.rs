//! Seats: a phone takes a seat — the ghost's or a psychic's in Mysterium, a player's in
//! Mystery Rummy — and keeps it by a token only it holds (128 random bits). Which device
//! may see or do what follows from them (`callers`): a taken seat's view and secret acts open
//! only to its token; a free seat's stay with the table, for pass-and-play.
//!
//! Seats are kept in `seats.jsonl`, so phones come back to them after a restart: a line
//! naming the journal whose games they are (a journal moved away or replaced starts with no
//! seats: game 1 of a new journal is not game 1 of the old one), then a line per change,
//! appended and synced as it is made, each with the journal's count of commits then. A
//! journal restored from a backup has fewer commits: the seats taken since are dropped, so
//! a game it numbers anew opens to no old token. The file is written whole only at start,
//! kept to the seats of the latest games.
//!
//! By concern: this module, the seats as phones and the table use them (each rule set's
//! typed seats in and out, kept named in words in memory and in the file); `state.rs`, the
//! seats in memory and the changes that make them; `file.rs`, the file; `former.rs`, the
//! file of earlier builds, adopted once.

mod file;
mod former;
mod state;

use std::fs::File;
use std::io::{self, Write};
use std::path::Path;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use seance_timeline::SeatName;

use crate::credentials::equal_in_constant_time;
use crate::files::{set_aside, write_atomically};
use crate::sync::Hold;
use file::{FILE, Header, line_of, read};
use former::{FORMER, read_former};
use state::{Change, Line, State};

/// The journal's count of commits now, what each change is written with: `None` when it
/// cannot be read.
pub type Commits = Box<dyn Fn() -> Option<u64> + Send + Sync>;

/// How long the table's invitation opens its seat: the time to scan it, not the evening a
/// photograph of it would keep.
const INVITATION_LASTS: Duration = Duration::from_secs(10 * 60);

/// The seats phones hold, kept in their file.
pub struct Seats {
    /// None: seats kept in memory only (while the journal waits for the table's choice).
    file: Option<Mutex<File>>,
    commits: Commits,
    state: Mutex<State>,
}

/// How a phone may take a seat: with the join code alone, or only with the invitation the
/// table shows to that seat's player.
pub enum Door<'a> {
    Open,
    /// The invitation the phone shows, if any.
    Invitation(Option<&'a str>),
}

#[derive(Debug)]
pub enum SeatError {
    /// Another phone holds it.
    Taken,
    /// The seat goes by invitation, and the phone shows none.
    Uninvited,
    /// The phone shows an invitation that is not the table's open one (spent, replaced,
    /// or guessed).
    NotInvited,
    Io(io::Error),
}

/// Seats as the file and the API name them: `ghost`, `psychic:2`, `player:1`.
pub fn in_words<S: SeatName>(seats: &[S]) -> Vec<String> {
    seats.iter().map(ToString::to_string).collect()
}

/// 128 random bits in hex: a seat's token, or an invitation.
fn secret() -> io::Result<String> {
    let mut bytes = [0u8; 16];
    getrandom::fill(&mut bytes).map_err(io::Error::other)?;
    Ok(bytes.iter().map(|b| format!("{b:02x}")).collect())
}

impl Seats {
    /// Loads the seats of the journal `journal` (its identity), which has made `commits()`
    /// commits: those of another journal are dropped, and so are those taken after the
    /// journal's last commit (it was restored from a backup); a damaged file is set aside
    /// with a warning, and every seat is free. The file is then written anew.
    pub fn load(dir: &Path, journal: &str, commits: Commits) -> io::Result<Seats> {
        let path = dir.join(FILE);
        let former = dir.join(FORMER);
        // A count that cannot be read drops nothing.
        let now = commits().unwrap_or(u64::MAX);
        let mut state = State::default();
        match read(&path, journal, now) {
            Ok(Some(read)) => state = read,
            Ok(None) => {
                if let Some(read) = read_former(&former, journal)? {
                    state = read;
                }
            }
            Err(why) => {
                let aside = set_aside(&path)?;
                tracing::warn!(
                    "the seats file was damaged ({why}); kept it as {} and freed every seat: phones join again",
                    aside.display()
                );
            }
        }
        state.prune();
        let header = Header {
            journal: journal.to_owned(),
        };
        let mut text = line_of(&header);
        for line in state.lines() {
            text.push_str(&line_of(&line));
        }
        write_atomically(&path, text.as_bytes())?;
        match std::fs::remove_file(&former) {
            Err(e) if e.kind() != io::ErrorKind::NotFound => return Err(e),
            _ => {}
        }
        let file = std::fs::OpenOptions::new().append(true).open(&path)?;
        Ok(Seats {
            file: Some(Mutex::new(file)),
            commits,
            state: Mutex::new(state),
        })
    }

    /// No seats, and none saved: the seats file stays as it is for the journal it belongs
    /// to, while that journal waits for the table's choice.
    pub fn unsaved() -> Seats {
        Seats {
            file: None,
            commits: Box::new(|| Some(0)),
            state: Mutex::default(),
        }
    }

    /// The journal's commits now, read before the seats are held: the journal may be busy
    /// (an import's chunk), and the seats' readers must not wait on it.
    fn now(&self) -> u64 {
        (self.commits)().unwrap_or(0)
    }

    /// Appends `change`, made when the journal had made `at` commits, to the file and syncs
    /// it, then makes it in memory. A line the disk took only in part is cut off again, so
    /// the next one starts whole.
    fn change(&self, state: &mut State, at: u64, change: Change) -> io::Result<()> {
        let line = Line { at, change };
        if let Some(file) = &self.file {
            let text = line_of(&line);
            let mut file = file.hold();
            let length = file.metadata()?.len();
            if let Err(e) = file
                .write_all(text.as_bytes())
                .and_then(|()| file.sync_data())
            {
                let _ = file.set_len(length);
                return Err(e);
            }
        }
        state.apply(line);
        state.bounded();
        Ok(())
    }

    /// Takes a free seat through its `door`; returns the token that will open it from now
    /// on. An invitation is spent by the seat it opens.
    pub fn take(&self, game: i64, seat: impl SeatName, door: Door) -> Result<String, SeatError> {
        let name = &seat.to_string();
        let at = self.now();
        let mut state = self.state.hold();
        if state.holds(game, name) {
            return Err(SeatError::Taken);
        }
        let key = (game, name.to_owned());
        if let Door::Invitation(shown) = door {
            let shown = shown.ok_or(SeatError::Uninvited)?;
            let open =
                (state.invitations.get(&key)).filter(|(_, made)| made.elapsed() < INVITATION_LASTS);
            if !open.is_some_and(|(o, _)| equal_in_constant_time(o.as_bytes(), shown.as_bytes())) {
                return Err(SeatError::NotInvited);
            }
        }
        let token = secret().map_err(SeatError::Io)?;
        let take = Change::Take {
            game,
            seat: name.to_owned(),
            token: token.clone(),
        };
        self.change(&mut state, at, take).map_err(SeatError::Io)?;
        state.invitations.remove(&key);
        Ok(token)
    }

    /// Frees a seat (the table's choice: a phone left, or changes hands).
    pub fn free(&self, game: i64, seat: impl SeatName) -> io::Result<bool> {
        let name = &seat.to_string();
        let at = self.now();
        let mut state = self.state.hold();
        if !state.holds(game, name) {
            return Ok(false);
        }
        let seat = name.to_owned();
        self.change(&mut state, at, Change::Free { game, seat })?;
        Ok(true)
    }

    /// A new invitation to `seat` of `game`, open for [`INVITATION_LASTS`] and replacing
    /// any the table opened before: `None` while a phone holds the seat.
    pub fn invite(&self, game: i64, seat: impl SeatName) -> io::Result<Option<String>> {
        let name = &seat.to_string();
        let mut state = self.state.hold();
        if state.holds(game, name) {
            return Ok(None);
        }
        let invitation = secret()?;
        (state.invitations).retain(|_, (_, made)| made.elapsed() < INVITATION_LASTS);
        let opened = (invitation.clone(), Instant::now());
        state.invitations.insert((game, name.to_owned()), opened);
        Ok(Some(invitation))
    }

    /// Closes the table's invitation to `seat` of `game`, once hidden again: a photograph
    /// of it opens nothing.
    pub fn uninvite(&self, game: i64, seat: impl SeatName) {
        self.state
            .hold()
            .invitations
            .remove(&(game, seat.to_string()));
    }

    /// The seats taken in `game`, as its rule set's seats (`S`: the file names them in
    /// words).
    pub fn taken<S: SeatName>(&self, game: i64) -> Vec<S> {
        let state = self.state.hold();
        (state.taken.get(&game).into_iter().flatten())
            .filter_map(|(name, _)| name.parse().ok())
            .collect()
    }

    /// The seat that `token` opens in `game`, if any, as its rule set's seat (`S`).
    pub fn seat_of<S: SeatName>(&self, game: i64, token: &str) -> Option<S> {
        let state = self.state.hold();
        let (name, _) =
            state.taken.get(&game)?.iter().find(|(_, held)| {
                equal_in_constant_time(held.token.as_bytes(), token.as_bytes())
            })?;
        name.parse().ok()
    }

    /// Whether `token` opens a seat of `game`.
    pub fn opens(&self, game: i64, token: &str) -> bool {
        let state = self.state.hold();
        (state.taken.get(&game).into_iter().flatten())
            .any(|(_, held)| equal_in_constant_time(held.token.as_bytes(), token.as_bytes()))
    }

    /// Whether a phone holds `seat` in `game`.
    pub fn held(&self, game: i64, seat: impl SeatName) -> bool {
        self.state.hold().holds(game, &seat.to_string())
    }

    /// The game that followed `game` as its rematch, if any.
    pub fn rematch(&self, game: i64) -> Option<i64> {
        self.state
            .hold()
            .rematches
            .get(&game)
            .map(|&(next, _)| next)
    }

    /// Records `next` as `game`'s rematch, each seat of `keep` a phone holds in `game` held
    /// by the same phone (the same token) in `next`: the seats the table confirmed. The
    /// others' tokens are freed in `next`: those phones, following on, are told so, and are
    /// no guessers.
    pub fn follow_on<S: SeatName>(&self, game: i64, next: i64, keep: &[S]) -> io::Result<()> {
        let keep: Vec<String> = keep.iter().map(ToString::to_string).collect();
        let at = self.now();
        let mut state = self.state.hold();
        let held: Vec<(String, String)> = (state.taken.get(&game).into_iter().flatten())
            .map(|(seat, held)| (seat.clone(), held.token.clone()))
            .collect();
        for (seat, token) in held {
            let change = if keep.contains(&seat) {
                let game = next;
                Change::Take { game, seat, token }
            } else {
                Change::Freed { game: next, token }
            };
            self.change(&mut state, at, change)?;
        }
        self.change(&mut state, at, Change::Rematch { game, next })
    }

    /// Whether `token` once held a seat of `game` that the table has freed since.
    pub fn was_freed(&self, game: i64, token: &str) -> bool {
        let state = self.state.hold();
        state.freed.get(&game).is_some_and(|freed| {
            freed
                .iter()
                .any(|t| equal_in_constant_time(t.as_bytes(), token.as_bytes()))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use seance_rules::Seat::{self, Ghost, Psychic};
    use state::KEPT_GAMES;
    use std::sync::Arc;
    use std::sync::atomic::{AtomicU64, Ordering};

    /// A journal's count of commits that a test moves on.
    fn counter(at: u64) -> (Arc<AtomicU64>, Commits) {
        let count = Arc::new(AtomicU64::new(at));
        let read = count.clone();
        (count, Box::new(move || Some(read.load(Ordering::Relaxed))))
    }

    fn load(dir: &Path, journal: &str) -> Seats {
        Seats::load(dir, journal, counter(0).1).unwrap()
    }

    #[test]
    fn a_seat_is_taken_once_opens_to_its_token_only_and_survives_a_restart() {
        let dir = tempfile::tempdir().unwrap();
        let seats = load(dir.path(), "journal-a");
        assert!(!seats.held(1, Ghost), "a free seat stays with the table");
        let token = seats.take(1, Ghost, Door::Open).unwrap();
        assert_eq!(token.len(), 32);
        assert!(matches!(
            seats.take(1, Ghost, Door::Open),
            Err(SeatError::Taken)
        ));
        assert!(seats.held(1, Ghost));
        assert_eq!(seats.seat_of::<Seat>(1, &token), Some(Seat::Ghost));
        let forged = "0".repeat(32);
        assert_eq!(seats.seat_of::<Seat>(1, &forged), None);
        assert!(!seats.held(2, Ghost), "seats are per game");
        assert_eq!(seats.seat_of::<Seat>(2, &token), None);
        let other = seats.take(1, Psychic(2), Door::Open).unwrap();
        assert_ne!(other, token);
        assert_eq!(seats.seat_of::<Seat>(1, &other), Some(Seat::Psychic(2)));

        let again = load(dir.path(), "journal-a");
        assert_eq!(again.taken::<Seat>(1), [Seat::Ghost, Seat::Psychic(2)]);
        assert_eq!(again.seat_of::<Seat>(1, &token), Some(Seat::Ghost));
        assert!(again.free(1, Ghost).unwrap());
        assert!(!again.held(1, Ghost));
        assert_eq!(
            again.seat_of::<Seat>(1, &token),
            None,
            "a freed seat's token opens nothing"
        );
        assert!(again.was_freed(1, &token), "but it was no guess");
        assert!(!again.was_freed(1, &forged));
        assert!(!again.was_freed(2, &token));
        let reloaded = load(dir.path(), "journal-a");
        assert_eq!(reloaded.taken::<Seat>(1), [Seat::Psychic(2)]);
        assert!(reloaded.was_freed(1, &token), "freed tokens are kept");
    }

    #[test]
    fn each_change_is_a_line_appended_not_the_file_written_whole() {
        let dir = tempfile::tempdir().unwrap();
        let seats = load(dir.path(), "journal-a");
        for game in 1..=50 {
            seats.take(game, Ghost, Door::Open).unwrap();
        }
        let size = || std::fs::metadata(dir.path().join(FILE)).unwrap().len();
        let before = size();
        seats.take(51, Psychic(0), Door::Open).unwrap();
        let grown = size() - before;
        assert!(grown < 120, "one line: {grown} bytes");
        seats.free(51, Psychic(0)).unwrap();
        assert!(size() - before - grown < 80);
    }

    #[test]
    fn a_seat_by_invitation_opens_to_the_tables_latest_invitation_once() {
        let dir = tempfile::tempdir().unwrap();
        let seats = load(dir.path(), "journal-a");
        let door = |shown| Door::Invitation(shown);
        assert!(matches!(
            seats.take(1, Ghost, door(None)),
            Err(SeatError::Uninvited)
        ));
        let first = seats.invite(1, Ghost).unwrap().unwrap();
        let latest = seats.invite(1, Ghost).unwrap().unwrap();
        assert_ne!(first, latest);
        let forged = "0".repeat(32);
        for wrong in [first.as_str(), "", &forged] {
            assert!(
                matches!(
                    seats.take(1, Ghost, door(Some(wrong))),
                    Err(SeatError::NotInvited)
                ),
                "{wrong:?}"
            );
        }
        assert!(
            matches!(
                seats.take(2, Ghost, door(Some(&latest))),
                Err(SeatError::NotInvited)
            ),
            "an invitation is its game's"
        );
        let token = seats.take(1, Ghost, door(Some(&latest))).unwrap();
        assert_eq!(seats.seat_of::<Seat>(1, &token), Some(Seat::Ghost));
        assert_eq!(seats.invite(1, Ghost).unwrap(), None, "the seat is held");
        seats.free(1, Ghost).unwrap();
        assert!(
            matches!(
                seats.take(1, Ghost, door(Some(&latest))),
                Err(SeatError::NotInvited)
            ),
            "an invitation is spent by the seat it opened"
        );
        let hidden = seats.invite(1, Ghost).unwrap().unwrap();
        seats.uninvite(1, Ghost);
        assert!(
            matches!(
                seats.take(1, Ghost, door(Some(&hidden))),
                Err(SeatError::NotInvited)
            ),
            "an invitation hidden again opens nothing"
        );
    }

    #[test]
    fn a_damaged_seats_file_is_set_aside_and_every_seat_is_free() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join(FILE), "{not json").unwrap();
        let seats = load(dir.path(), "journal-a");
        assert!(seats.taken::<Seat>(1).is_empty());
        let kept = std::fs::read_dir(dir.path())
            .unwrap()
            .filter_map(|e| e.ok())
            .any(|e| {
                e.file_name()
                    .to_string_lossy()
                    .starts_with("seats.jsonl.damaged-")
            });
        assert!(kept, "the damaged file is kept aside");
    }

    #[test]
    fn a_last_line_cut_short_by_a_crash_is_left_out() {
        let dir = tempfile::tempdir().unwrap();
        let token = load(dir.path(), "journal-a")
            .take(1, Ghost, Door::Open)
            .unwrap();
        let mut file = std::fs::OpenOptions::new()
            .append(true)
            .open(dir.path().join(FILE))
            .unwrap();
        file.write_all(br#"{"at":0,"take":{"game":2,"se"#).unwrap();
        drop(file);
        let seats = load(dir.path(), "journal-a");
        assert_eq!(seats.seat_of::<Seat>(1, &token), Some(Seat::Ghost));
        assert!(seats.taken::<Seat>(2).is_empty());
        // A torn line in the middle costs that change alone, not those after it.
        let mut file = std::fs::OpenOptions::new()
            .append(true)
            .open(dir.path().join(FILE))
            .unwrap();
        file.write_all(b"{\"at\":0,\"fr\n").unwrap();
        drop(file);
        let later = seats.take(3, Ghost, Door::Open).unwrap();
        let again = load(dir.path(), "journal-a");
        assert_eq!(again.seat_of::<Seat>(3, &later), Some(Seat::Ghost));
        assert_eq!(again.seat_of::<Seat>(1, &token), Some(Seat::Ghost));
    }

    #[test]
    fn seats_belong_to_their_journal() {
        let dir = tempfile::tempdir().unwrap();
        let token = load(dir.path(), "journal-a")
            .take(1, Ghost, Door::Open)
            .unwrap();
        let replaced = load(dir.path(), "journal-b");
        assert_eq!(
            replaced.seat_of::<Seat>(1, &token),
            None,
            "game 1 is another game now"
        );
        assert!(replaced.taken::<Seat>(1).is_empty());
    }

    #[test]
    fn a_journal_restored_from_a_backup_drops_the_seats_taken_since() {
        let dir = tempfile::tempdir().unwrap();
        let (count, commits) = counter(10);
        let seats = Seats::load(dir.path(), "journal-a", commits).unwrap();
        let before = seats.take(1, Ghost, Door::Open).unwrap();
        count.store(14, Ordering::Relaxed);
        let since = seats.take(2, Ghost, Door::Open).unwrap();
        seats.follow_on::<Seat>(1, 3, &[]).unwrap();
        assert!(
            seats.was_freed(3, &before),
            "left behind: told, not counted"
        );
        drop(seats);
        let unreadable = Seats::load(dir.path(), "journal-a", Box::new(|| None)).unwrap();
        assert_eq!(
            unreadable.seat_of::<Seat>(2, &since),
            Some(Seat::Ghost),
            "a count that cannot be read drops nothing"
        );
        drop(unreadable);
        // The journal as the backup made at its 12th commit left it.
        let restored = Seats::load(dir.path(), "journal-a", counter(12).1).unwrap();
        assert_eq!(restored.seat_of::<Seat>(1, &before), Some(Seat::Ghost));
        assert_eq!(
            restored.seat_of::<Seat>(2, &since),
            None,
            "game 2 of the backup is not today's"
        );
        assert_eq!(restored.rematch(1), None);
    }

    #[test]
    fn the_seats_of_the_latest_games_are_kept() {
        let dir = tempfile::tempdir().unwrap();
        let seats = load(dir.path(), "journal-a");
        let games = KEPT_GAMES as i64 + 10;
        let tokens: Vec<String> = (1..=games)
            .map(|game| seats.take(game, Ghost, Door::Open).unwrap())
            .collect();
        drop(seats);
        let again = load(dir.path(), "journal-a");
        assert_eq!(again.seat_of::<Seat>(10, &tokens[9]), None, "an old game's");
        assert_eq!(
            again.seat_of::<Seat>(games, &tokens[games as usize - 1]),
            Some(Seat::Ghost)
        );
        assert_eq!(again.seat_of::<Seat>(11, &tokens[10]), Some(Seat::Ghost));
    }

    #[test]
    fn the_former_file_is_adopted_once() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(
            dir.path().join(FORMER),
            r#"{"journal": "journal-a", "taken": {"1": {"ghost": "00ff"}}, "rematches": {"1": 2}}"#,
        )
        .unwrap();
        let adopted = load(dir.path(), "journal-a");
        assert_eq!(adopted.seat_of::<Seat>(1, "00ff"), Some(Seat::Ghost));
        assert_eq!(adopted.rematch(1), Some(2));
        assert!(!dir.path().join(FORMER).exists(), "replaced");
        assert_eq!(
            load(dir.path(), "journal-a").seat_of::<Seat>(1, "00ff"),
            Some(Seat::Ghost)
        );
        // From before seats named their journal: adopted by the journal at hand.
        std::fs::remove_file(dir.path().join(FILE)).unwrap();
        std::fs::write(dir.path().join(FORMER), r#"{"1": {"ghost": "00ff"}}"#).unwrap();
        let unnamed = load(dir.path(), "journal-c");
        assert_eq!(unnamed.seat_of::<Seat>(1, "00ff"), Some(Seat::Ghost));
    }
}
