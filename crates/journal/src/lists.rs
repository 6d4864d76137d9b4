//! The lists the screens show: the games (in play, finished, archived) and the history's
//! finished games on their shelves, a page at a time, the latest first; and what a game's
//! row says of it (its rule set, when it was played, its standing).

use rusqlite::{OptionalExtension, params};
use seance_timeline::{RuleSet, Status};
use serde::Serialize;

use crate::writes::{commit, write};
use crate::{Journal, JournalError};

/// A game as the home screen lists it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameRecord {
    pub id: i64,
    pub ruleset: String,
    pub status: Standing,
    pub players: Vec<String>,
    /// The rule set's edition, where it has more than one (Mysterium: `classic`, `new`).
    pub edition: Option<String>,
    pub created_at: i64,
    pub updated_at: i64,
}

/// Which games a list holds: a page of them, the latest first, so a journal's whole history
/// is never read at once.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Listing {
    pub state: Option<GameState>,
    /// Only games of this edition (`new`, `classic`).
    pub edition: Option<String>,
    pub limit: u32,
    pub offset: u32,
}

/// A game in play, one that has ended (won, lost, or a scorepad over), or one put away
/// unfinished.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GameState {
    Playing,
    Finished,
    Archived,
}

/// Where a game stands in the lists, as the journal names it (`playing`, `won`, `lost`,
/// `over`, `archived`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Standing {
    /// As its rules say ([`Status`]): in play, won, lost, or over (a game with a winner
    /// among its players).
    Is(Status),
    /// Put away unfinished: out of the lists of games in play until it is brought back, or
    /// played again.
    Archived,
    /// A newer build's, listed as it is.
    Newer(String),
}

impl Standing {
    /// Its name in the journal and the API.
    pub fn name(&self) -> &str {
        match self {
            Standing::Is(status) => status.name(),
            Standing::Archived => "archived",
            Standing::Newer(name) => name,
        }
    }

    /// The standing the journal names `name`.
    fn named(name: String) -> Standing {
        match Status::named(&name) {
            Some(status) => Standing::Is(status),
            None if name == Standing::Archived.name() => Standing::Archived,
            None => Standing::Newer(name),
        }
    }
}

impl Default for Listing {
    fn default() -> Self {
        Listing {
            state: None,
            edition: None,
            limit: 100,
            offset: 0,
        }
    }
}

/// Where a finished game is kept: in the history, archived out of it (still counted in
/// the statistics), or deleted (out of every list and count, kept in the journal so the
/// deletion can be undone).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Shelf {
    History,
    Archived,
    Deleted,
}

impl Shelf {
    fn column(self) -> Option<&'static str> {
        match self {
            Shelf::History => None,
            Shelf::Archived => Some("archived"),
            Shelf::Deleted => Some("deleted"),
        }
    }

    fn of(column: Option<String>) -> Shelf {
        match column.as_deref() {
            Some("archived") => Shelf::Archived,
            Some("deleted") => Shelf::Deleted,
            _ => Shelf::History,
        }
    }
}

/// A finished game as the history lists it: when it began and ended (the journal's clock),
/// its shelf, and its rule set's record of it ([`Listed::record`], as JSON).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Ended {
    pub id: i64,
    pub ruleset: String,
    pub began: i64,
    pub ended: i64,
    pub shelf: Shelf,
    pub record: String,
}

impl Journal {
    /// The rule set game `game` is kept under; a name this build knows no rule set by (a
    /// newer build's) is no game it can serve.
    pub fn ruleset(&self, game: i64) -> Result<RuleSet, JournalError> {
        let name: String = self
            .conn
            .query_row("SELECT ruleset FROM games WHERE id = ?1", [game], |r| {
                r.get(0)
            })
            .optional()?
            .ok_or(JournalError::NoSuchGame(game))?;
        name.parse().map_err(|_| JournalError::NoSuchGame(game))
    }

    /// When game `game` began and when it was last played, in seconds since 1970.
    pub fn played(&self, game: i64) -> Result<(i64, i64), JournalError> {
        self.conn
            .query_row(
                "SELECT created_at, updated_at FROM games WHERE id = ?1",
                [game],
                |r| Ok((r.get(0)?, r.get(1)?)),
            )
            .optional()?
            .ok_or(JournalError::NoSuchGame(game))
    }

    /// Sets game `game`'s standing in the lists (archived, or its own status to bring it
    /// back) and leaves when it was last played as it was.
    pub fn set_status(&mut self, game: i64, standing: &Standing) -> Result<(), JournalError> {
        self.update_game(
            "UPDATE games SET status = ?2 WHERE id = ?1",
            game,
            Some(standing.name()),
        )
    }

    /// Runs `update` (`?1` the game, `?2` the value) on game `game` in one commit; no
    /// such game (or none the update's conditions take) is told as such.
    fn update_game(
        &mut self,
        update: &str,
        game: i64,
        value: Option<&str>,
    ) -> Result<(), JournalError> {
        let tx = write(&mut self.conn, &self.turns)?;
        if tx.execute(update, params![game, value])? == 0 {
            return Err(JournalError::NoSuchGame(game));
        }
        commit(&self.path, &self.identity, tx)
    }

    /// The games `listing` asks for, the latest first.
    pub fn games(&self, listing: &Listing) -> Result<Vec<GameRecord>, JournalError> {
        let mut stmt = self.conn.prepare(
            "SELECT id, ruleset, status, players, created_at, updated_at, edition FROM games
             WHERE (?1 IS NULL OR CASE status WHEN 'playing' THEN 'playing' WHEN 'archived' THEN 'archived'
                                             ELSE 'finished' END = ?1)
               AND (?2 IS NULL OR edition = ?2)
               AND shelf IS NOT 'deleted'
             ORDER BY updated_at DESC, id DESC LIMIT ?3 OFFSET ?4",
        )?;
        let state = listing.state.map(|s| match s {
            GameState::Playing => "playing",
            GameState::Finished => "finished",
            GameState::Archived => Standing::Archived.name(),
        });
        let rows = stmt.query_map(
            params![state, listing.edition, listing.limit, listing.offset],
            |r| {
                let players: String = r.get(3)?;
                Ok(GameRecord {
                    id: r.get(0)?,
                    ruleset: r.get(1)?,
                    status: Standing::named(r.get(2)?),
                    players: serde_json::from_str(&players).unwrap_or_default(),
                    edition: r.get(6)?,
                    created_at: r.get(4)?,
                    updated_at: r.get(5)?,
                })
            },
        )?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    /// The finished games on `shelves`, the latest first, `limit` from `offset` on.
    pub fn history(
        &self,
        shelves: &[Shelf],
        limit: u32,
        offset: u32,
    ) -> Result<Vec<Ended>, JournalError> {
        let wanted: Vec<&str> = shelves
            .iter()
            .map(|s| s.column().unwrap_or("history"))
            .collect();
        let mut stmt = self.conn.prepare(
            "SELECT id, ruleset, created_at, updated_at, shelf, record FROM games
             WHERE record IS NOT NULL AND status <> 'playing'
               AND coalesce(shelf, 'history') IN (SELECT value FROM json_each(?1))
             ORDER BY updated_at DESC, id DESC LIMIT ?2 OFFSET ?3",
        )?;
        let rows = stmt.query_map(
            params![
                serde_json::to_string(&wanted).expect("names"),
                limit,
                offset
            ],
            |r| {
                Ok(Ended {
                    id: r.get(0)?,
                    ruleset: r.get(1)?,
                    began: r.get(2)?,
                    ended: r.get(3)?,
                    shelf: Shelf::of(r.get(4)?),
                    record: r.get(5)?,
                })
            },
        )?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    /// Puts finished game `game` on `shelf`.
    pub fn shelve(&mut self, game: i64, shelf: Shelf) -> Result<(), JournalError> {
        self.update_game(
            "UPDATE games SET shelf = ?2 WHERE id = ?1 AND record IS NOT NULL",
            game,
            shelf.column(),
        )
    }

    /// Finished games of `rule_set` with no record yet (ended before the history kept one).
    pub fn unrecorded(&self, rule_set: RuleSet) -> Result<Vec<i64>, JournalError> {
        let mut stmt = self.conn.prepare(
            "SELECT id FROM games WHERE ruleset = ?1 AND record IS NULL
               AND status NOT IN ('playing', 'archived') AND shelf IS NOT 'deleted'",
        )?;
        let rows = stmt.query_map([rule_set.name()], |r| r.get(0))?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    /// Writes the record of finished game `game`, one that ended before records were kept.
    pub fn set_record(&mut self, game: i64, record: impl Serialize) -> Result<(), JournalError> {
        let record = serde_json::to_string(&record).expect("records serialize");
        self.update_game(
            "UPDATE games SET record = ?2 WHERE id = ?1",
            game,
            Some(&record),
        )
    }
}
