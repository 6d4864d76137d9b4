//! The history of finished games, generic over the rule sets: each rule set says what it
//! keeps of a game once it is over (its record, a [`Chronicle`]); this crate reads those
//! records as the journal keeps them ([`Game`]), lists them ([`Listing`]), counts them per
//! group of players and per player ([`Tally`]) and writes them as a CSV table ([`Csv`]).
//! A shell hands it each game by its rule set's type ([`Visit`]); it names no rule set.
//! Pure functions of the records and the journal's clock: no I/O.

mod csv;
mod statistics;

pub use csv::{Csv, Row};
pub use statistics::{Among, Rate, Statistics, Tally};

use std::fmt::Debug;

use seance_timeline::RuleSet;
use serde::Serialize;
use serde::de::DeserializeOwned;

/// What a rule set keeps of a finished game, and how the history reads, lists, exports and
/// counts it.
pub trait Chronicle: Serialize + DeserializeOwned + Clone + Debug + Send + 'static {
    /// Whose records these are.
    const RULE_SET: RuleSet;
    /// What its games add up to among some players (its part of `/api/statistics`).
    type Statistics: Serialize;

    /// The record as its game was, where an older build wrote it otherwise.
    fn mended(self) -> Self {
        self
    }
    /// What the lists call the game (its rule set's title, or its edition's).
    fn title(&self) -> &'static str;
    /// The words it is told in where they are not its rule set's usual ones (`new`).
    fn dialect(&self) -> Option<&'static str> {
        None
    }
    /// Everyone who played, each once, in the order its screens name them.
    fn players(&self) -> Vec<&str>;
    /// Its lines in the CSV table: one per player (or per part a player played).
    fn rows(&self) -> Vec<Row>;
    /// What `games` add up to among `among` (every one of them is among them).
    fn statistics(games: &[&Game<Self>], among: &Among) -> Self::Statistics;
}

/// A finished game in the history, as rule set `R` recorded it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Game<R> {
    pub id: i64,
    /// When it began, in seconds since 1970 (the journal's clock).
    pub began: i64,
    /// How long it lasted, wall-clock, from its start to its last entry (at least 1).
    pub minutes: i64,
    pub archived: bool,
    pub played: R,
}

impl<R: Chronicle> Game<R> {
    /// The game that began at `began` and was last played at `ended` (seconds).
    pub fn new(id: i64, began: i64, ended: i64, archived: bool, played: R) -> Game<R> {
        Game {
            id,
            began,
            minutes: minutes(began, ended),
            archived,
            played,
        }
    }

    /// A game whose record the journal keeps as `record`; `None` for a record this build
    /// cannot read.
    pub fn read(id: i64, began: i64, ended: i64, archived: bool, record: &str) -> Option<Self> {
        let played = serde_json::from_str::<R>(record).ok()?.mended();
        Some(Game::new(id, began, ended, archived, played))
    }
}

/// What is done with each finished game, handed over by its rule set's record: the shells
/// read the journal's games and hand each to a [`Listing`], a [`Tally`] or a [`Csv`].
pub trait Visit {
    fn visit<R: Chronicle>(&mut self, game: Game<R>);
}

/// A page of the history as the screens list it: each game with its rule set's name, its
/// title and dialect, and its record as its rule set wrote it.
#[derive(Debug, Default, Serialize)]
#[serde(transparent)]
pub struct Listing(Vec<serde_json::Value>);

/// One game of a [`Listing`].
#[derive(Serialize)]
struct Listed<'a, R> {
    id: i64,
    began: i64,
    minutes: i64,
    archived: bool,
    title: &'static str,
    dialect: Option<&'static str>,
    ruleset: &'static str,
    record: &'a R,
}

impl Listing {
    pub fn len(&self) -> usize {
        self.0.len()
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The first `n` games alone.
    pub fn truncate(&mut self, n: usize) {
        self.0.truncate(n);
    }
}

impl Visit for Listing {
    fn visit<R: Chronicle>(&mut self, game: Game<R>) {
        let listed = Listed {
            id: game.id,
            began: game.began,
            minutes: game.minutes,
            archived: game.archived,
            title: game.played.title(),
            dialect: game.played.dialect(),
            ruleset: R::RULE_SET.name(),
            record: &game.played,
        };
        self.0
            .push(serde_json::to_value(listed).expect("a record serializes"));
    }
}

/// How long a game that began at `began` and was last played at `ended` (seconds) lasted,
/// wall-clock, in minutes begun: a minute at least.
pub fn minutes(began: i64, ended: i64) -> i64 {
    (ended.saturating_sub(began).max(0).saturating_add(59) / 60).max(1)
}

/// `seconds` since 1970 as the CSV table writes a date: `2026-11-25 21:04:09`, in UTC.
pub fn utc(seconds: i64) -> String {
    local(seconds, 0)
}

/// `seconds` since 1970 as a clock `offset` seconds ahead of UTC shows it, written as BG
/// Stats takes a play's date: `2026-11-25 22:04:09`.
pub fn local(seconds: i64, offset: i32) -> String {
    let seconds = seconds.saturating_add(offset.into());
    let (days, time) = (seconds.div_euclid(86_400), seconds.rem_euclid(86_400));
    // Days to a civil date (the proleptic Gregorian calendar, in 400-year eras).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!(
        "{year:04}-{month:02}-{day:02} {:02}:{:02}:{:02}",
        time / 3600,
        time % 3600 / 60,
        time % 60
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_are_written_in_utc_for_the_csv_table() {
        assert_eq!(utc(0), "1970-01-01 00:00:00");
        assert_eq!(utc(951_782_400), "2000-02-29 00:00:00");
        assert_eq!(utc(1_795_900_000), "2026-11-28 21:06:40");
        assert_eq!(utc(4_107_542_399), "2100-02-28 23:59:59");
    }

    #[test]
    fn a_local_date_is_the_table_clocks() {
        // 23:30 UTC is the next day in Paris in summer, and the day before in New York.
        assert_eq!(local(1_782_343_800, 2 * 3600), "2026-06-25 01:30:00");
        assert_eq!(local(1_782_343_800, -4 * 3600), "2026-06-24 19:30:00");
        assert_eq!(utc(1_782_343_800), "2026-06-24 23:30:00");
    }
}
