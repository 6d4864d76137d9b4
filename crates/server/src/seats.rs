//! Seats: a phone takes a seat — the ghost's or a psychic's in Mysterium, a player's in
//! Mystery Rummy — and keeps it by a token only it holds (128 random bits). Which device may see or do what follows from them (`phones`):
//! a taken seat's view and secret acts open only to its token; a free seat's stay with the
//! table, for pass-and-play. Seats are kept in `seats.json`, so
//! phones come back to them after a restart; with the identity of the journal whose games
//! they are, so that a journal moved away or replaced starts with no seats (game 1 of a new
//! journal is not game 1 of the old one).

use crate::sync::Hold;
use std::collections::BTreeMap;
use std::io;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use serde::{Deserialize, Serialize};

use crate::credentials::equal_in_constant_time;
use crate::settings::{set_aside, write_atomically};

const FILE: &str = "seats.json";

/// Seats taken, by game, then by seat name (`ghost`, `psychic:N`, `player:N`), with their
/// tokens.
type Taken = BTreeMap<i64, BTreeMap<String, String>>;

/// Tokens of seats the table freed, by game: they open nothing, but a phone still holding
/// one is no guesser (it retries until told). The latest [`FREED_KEPT`] per game.
type Freed = BTreeMap<i64, Vec<String>>;

/// How many freed tokens a game remembers: more than its seats change hands in an evening.
const FREED_KEPT: usize = 32;

/// Each game's rematch, by the game it follows: phones of the one find the next.
type Rematches = BTreeMap<i64, i64>;

/// The file: the journal the seats belong to, the seats, the tokens freed, the rematches.
#[derive(Serialize, Deserialize)]
struct Kept {
    journal: String,
    taken: Taken,
    #[serde(default)]
    freed: Freed,
    #[serde(default)]
    rematches: Rematches,
}

pub struct Seats {
    /// None: seats kept in memory only (while the journal waits for the table's choice).
    path: Option<PathBuf>,
    journal: String,
    held: Mutex<Held>,
}

/// The seats taken, the tokens freed and the rematches, changed together; and the table's
/// open invitations, by game and seat, kept in memory only (the table asks anew after a
/// restart).
#[derive(Clone, Default)]
struct Held {
    taken: Taken,
    freed: Freed,
    rematches: Rematches,
    invitations: BTreeMap<(i64, String), String>,
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

/// 128 random bits in hex: a seat's token, or an invitation.
fn secret() -> io::Result<String> {
    let mut bytes = [0u8; 16];
    getrandom::fill(&mut bytes).map_err(io::Error::other)?;
    Ok(bytes.iter().map(|b| format!("{b:02x}")).collect())
}

impl Seats {
    /// Loads the seats of the journal `journal` (its identity): a damaged file is set aside
    /// with a warning, and another journal's seats are dropped; then every seat is free.
    pub fn load(dir: &Path, journal: &str) -> io::Result<Seats> {
        let path = dir.join(FILE);
        seance_journal::keep_private(&path);
        // This build's file (`true`: it names a journal); or one from before seats named
        // their journal, adopted by the journal at hand.
        let read = |text: &str| {
            serde_json::from_str::<Kept>(text)
                .map(|kept| (kept, true))
                .or_else(|_| {
                    serde_json::from_str::<Taken>(text).map(|taken| {
                        let journal = journal.to_owned();
                        (
                            Kept {
                                journal,
                                taken,
                                freed: Freed::new(),
                                rematches: Rematches::new(),
                            },
                            false,
                        )
                    })
                })
        };
        // Whether the file already names this journal: then it need not be written.
        let mut current = false;
        let held = match std::fs::read_to_string(&path) {
            Ok(text) => match read(&text) {
                Ok((kept, named)) if kept.journal == journal => {
                    current = named;
                    Held {
                        taken: kept.taken,
                        freed: kept.freed,
                        rematches: kept.rematches,
                        invitations: BTreeMap::new(),
                    }
                }
                Ok(_) => {
                    tracing::warn!(
                        "the seats were another journal's (it was moved or replaced): every seat is free, phones join again"
                    );
                    Held::default()
                }
                Err(why) => {
                    let aside = set_aside(&path)?;
                    tracing::warn!(
                        "the seats file was damaged ({why}); kept it as {} and freed every seat: phones join again",
                        aside.display()
                    );
                    Held::default()
                }
            },
            Err(e) if e.kind() == io::ErrorKind::NotFound => Held::default(),
            Err(e) => return Err(e),
        };
        let seats = Seats {
            path: Some(path),
            journal: journal.to_owned(),
            held: Mutex::default(),
        };
        // Otherwise written at once: the file names this journal from now on.
        if !current {
            seats.save(&held)?;
        }
        *seats.held.hold() = held;
        Ok(seats)
    }

    /// No seats, and none saved: the seats file stays as it is for the journal it belongs
    /// to, while that journal waits for the table's choice.
    pub fn unsaved() -> Seats {
        Seats {
            path: None,
            journal: String::new(),
            held: Mutex::default(),
        }
    }

    fn save(&self, held: &Held) -> io::Result<()> {
        let Some(path) = &self.path else {
            return Ok(());
        };
        let kept = Kept {
            journal: self.journal.clone(),
            taken: held.taken.clone(),
            freed: held.freed.clone(),
            rematches: held.rematches.clone(),
        };
        let text = serde_json::to_string_pretty(&kept).expect("seats serialize");
        write_atomically(path, text.as_bytes())
    }

    /// Takes a free seat through its `door`; returns the token that will open it from now
    /// on. An invitation is spent by the seat it opens.
    pub fn take(&self, game: i64, name: &str, door: Door) -> Result<String, SeatError> {
        let mut held = self.held.hold();
        if held.taken.get(&game).is_some_and(|g| g.contains_key(name)) {
            return Err(SeatError::Taken);
        }
        let key = (game, name.to_owned());
        if let Door::Invitation(shown) = door {
            let shown = shown.ok_or(SeatError::Uninvited)?;
            let open = held.invitations.get(&key);
            if !open.is_some_and(|o| equal_in_constant_time(o.as_bytes(), shown.as_bytes())) {
                return Err(SeatError::NotInvited);
            }
        }
        let token = secret().map_err(SeatError::Io)?;
        let mut next = held.clone();
        next.invitations.remove(&key);
        next.taken
            .entry(game)
            .or_default()
            .insert(name.to_owned(), token.clone());
        self.save(&next).map_err(SeatError::Io)?;
        *held = next;
        Ok(token)
    }

    /// Frees a seat (the table's choice: a phone left, or changes hands).
    pub fn free(&self, game: i64, name: &str) -> io::Result<bool> {
        let mut held = self.held.hold();
        let mut next = held.clone();
        let Some(token) = next.taken.get_mut(&game).and_then(|g| g.remove(name)) else {
            return Ok(false);
        };
        let freed = next.freed.entry(game).or_default();
        freed.push(token);
        if freed.len() > FREED_KEPT {
            freed.remove(0);
        }
        self.save(&next)?;
        *held = next;
        Ok(true)
    }

    /// A new invitation to seat `name` of `game`, replacing any the table opened before:
    /// `None` while a phone holds the seat.
    pub fn invite(&self, game: i64, name: &str) -> io::Result<Option<String>> {
        let mut held = self.held.hold();
        if held.taken.get(&game).is_some_and(|g| g.contains_key(name)) {
            return Ok(None);
        }
        let invitation = secret()?;
        held.invitations
            .insert((game, name.to_owned()), invitation.clone());
        Ok(Some(invitation))
    }

    /// The seats taken in `game`, by name.
    pub fn taken(&self, game: i64) -> Vec<String> {
        let held = self.held.hold();
        held.taken
            .get(&game)
            .map(|g| g.keys().cloned().collect())
            .unwrap_or_default()
    }

    /// The seat that `token` opens in `game`, if any.
    pub fn seat_of(&self, game: i64, token: &str) -> Option<String> {
        let held = self.held.hold();
        let (name, _) = held
            .taken
            .get(&game)?
            .iter()
            .find(|(_, t)| equal_in_constant_time(t.as_bytes(), token.as_bytes()))?;
        Some(name.clone())
    }

    /// Whether a phone holds seat `name` in `game`.
    pub fn held(&self, game: i64, name: &str) -> bool {
        let held = self.held.hold();
        held.taken.get(&game).is_some_and(|g| g.contains_key(name))
    }

    /// The game that followed `game` as its rematch, if any.
    pub fn rematch(&self, game: i64) -> Option<i64> {
        self.held.hold().rematches.get(&game).copied()
    }

    /// Records `next` as `game`'s rematch, each seat of `keep` a phone holds in `game` held
    /// by the same phone (the same token) in `next`: the seats the table confirmed.
    pub fn follow_on(&self, game: i64, next: i64, keep: &[String]) -> io::Result<()> {
        let mut held = self.held.hold();
        let mut after = held.clone();
        after.rematches.insert(game, next);
        let kept: BTreeMap<_, _> = after
            .taken
            .get(&game)
            .into_iter()
            .flatten()
            .filter(|(seat, _)| keep.contains(seat))
            .map(|(seat, token)| (seat.clone(), token.clone()))
            .collect();
        if !kept.is_empty() {
            after.taken.insert(next, kept);
        }
        self.save(&after)?;
        *held = after;
        Ok(())
    }

    /// Whether `token` once held a seat of `game` that the table has freed since.
    pub fn was_freed(&self, game: i64, token: &str) -> bool {
        let held = self.held.hold();
        held.freed.get(&game).is_some_and(|freed| {
            freed
                .iter()
                .any(|t| equal_in_constant_time(t.as_bytes(), token.as_bytes()))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_seat_is_taken_once_opens_to_its_token_only_and_survives_a_restart() {
        let dir = tempfile::tempdir().unwrap();
        let seats = Seats::load(dir.path(), "journal-a").unwrap();
        assert!(!seats.held(1, "ghost"), "a free seat stays with the table");
        let token = seats.take(1, "ghost", Door::Open).unwrap();
        assert_eq!(token.len(), 32);
        assert!(matches!(
            seats.take(1, "ghost", Door::Open),
            Err(SeatError::Taken)
        ));
        assert!(seats.held(1, "ghost"));
        assert_eq!(seats.seat_of(1, &token), Some("ghost".to_string()));
        let forged = "0".repeat(32);
        assert_eq!(seats.seat_of(1, &forged), None);
        assert!(!seats.held(2, "ghost"), "seats are per game");
        assert_eq!(seats.seat_of(2, &token), None);
        let other = seats.take(1, "psychic:2", Door::Open).unwrap();
        assert_ne!(other, token);
        assert_eq!(seats.seat_of(1, &other), Some("psychic:2".to_string()));

        let again = Seats::load(dir.path(), "journal-a").unwrap();
        assert_eq!(again.taken(1), ["ghost", "psychic:2"]);
        assert_eq!(again.seat_of(1, &token), Some("ghost".to_string()));
        assert!(again.free(1, "ghost").unwrap());
        assert!(!again.held(1, "ghost"));
        assert_eq!(
            again.seat_of(1, &token),
            None,
            "a freed seat's token opens nothing"
        );
        assert!(again.was_freed(1, &token), "but it was no guess");
        assert!(!again.was_freed(1, &forged));
        assert!(!again.was_freed(2, &token));
        let reloaded = Seats::load(dir.path(), "journal-a").unwrap();
        assert_eq!(reloaded.taken(1), ["psychic:2"]);
        assert!(reloaded.was_freed(1, &token), "freed tokens are kept");
    }

    #[test]
    fn a_seat_by_invitation_opens_to_the_tables_latest_invitation_once() {
        let dir = tempfile::tempdir().unwrap();
        let seats = Seats::load(dir.path(), "journal-a").unwrap();
        let door = |shown| Door::Invitation(shown);
        assert!(matches!(
            seats.take(1, "ghost", door(None)),
            Err(SeatError::Uninvited)
        ));
        let first = seats.invite(1, "ghost").unwrap().unwrap();
        let latest = seats.invite(1, "ghost").unwrap().unwrap();
        assert_ne!(first, latest);
        let forged = "0".repeat(32);
        for wrong in [first.as_str(), "", &forged] {
            assert!(
                matches!(
                    seats.take(1, "ghost", door(Some(wrong))),
                    Err(SeatError::NotInvited)
                ),
                "{wrong:?}"
            );
        }
        assert!(
            matches!(
                seats.take(2, "ghost", door(Some(&latest))),
                Err(SeatError::NotInvited)
            ),
            "an invitation is its game's"
        );
        let token = seats.take(1, "ghost", door(Some(&latest))).unwrap();
        assert_eq!(seats.seat_of(1, &token), Some("ghost".to_string()));
        assert_eq!(seats.invite(1, "ghost").unwrap(), None, "the seat is held");
        seats.free(1, "ghost").unwrap();
        assert!(
            matches!(
                seats.take(1, "ghost", door(Some(&latest))),
                Err(SeatError::NotInvited)
            ),
            "an invitation is spent by the seat it opened"
        );
    }

    #[test]
    fn a_damaged_seats_file_is_set_aside_and_every_seat_is_free() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join(FILE), "{not json").unwrap();
        let seats = Seats::load(dir.path(), "journal-a").unwrap();
        assert!(seats.taken(1).is_empty());
        let kept = std::fs::read_dir(dir.path())
            .unwrap()
            .filter_map(|e| e.ok())
            .any(|e| {
                e.file_name()
                    .to_string_lossy()
                    .starts_with("seats.json.damaged-")
            });
        assert!(kept, "the damaged file is kept aside");
    }

    #[test]
    fn seats_belong_to_their_journal() {
        let dir = tempfile::tempdir().unwrap();
        let token = Seats::load(dir.path(), "journal-a")
            .unwrap()
            .take(1, "ghost", Door::Open)
            .unwrap();
        let replaced = Seats::load(dir.path(), "journal-b").unwrap();
        assert_eq!(
            replaced.seat_of(1, &token),
            None,
            "game 1 is another game now"
        );
        assert!(replaced.taken(1).is_empty());
        // A file from before seats named their journal is adopted by the journal at hand.
        std::fs::write(dir.path().join(FILE), r#"{"1": {"ghost": "00ff"}}"#).unwrap();
        let adopted = Seats::load(dir.path(), "journal-c").unwrap();
        assert_eq!(adopted.seat_of(1, "00ff"), Some("ghost".to_string()));
        let text = std::fs::read_to_string(dir.path().join(FILE)).unwrap();
        assert!(text.contains("journal-c"), "{text}");
    }
}
