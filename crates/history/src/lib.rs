//! The history of finished games, as pure functions of what each rule set keeps of a game
//! once it is over (its `Record`) and the journal's clock: the games as the history lists
//! them ([`Game`]), their statistics per group of players and per player
//! ([`statistics`]), and the CSV table of them ([`csv`]).

mod csv;
mod statistics;

pub use csv::csv;
pub use statistics::{
    Accuracy, Among, Ghost, Hour, Level, Mysterium, Rate, Reach, Rummy, Statistics, Top, statistics,
};

use seance_rules::RuleSet;
use seance_timeline::Listed;
use serde::Serialize;

/// A finished game of either rule set, as its rules recorded it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
/// Named on the wire as the journal and the lists of games name the rule sets.
#[serde(tag = "ruleset", content = "record")]
pub enum Recorded {
    #[serde(rename = "mysterium-classic")]
    Mysterium(seance_rules::Record),
    #[serde(rename = "mystery-rummy")]
    Rummy(seance_rummy::Record),
}

impl Recorded {
    /// A record as the journal keeps it under its rule set's name; `None` for a rule set
    /// this build does not know or a record it cannot read.
    pub fn read(ruleset: &str, record: &str) -> Option<Recorded> {
        match ruleset.parse().ok()? {
            RuleSet::Mysterium => serde_json::from_str(record)
                .ok()
                .map(|r: seance_rules::Record| Recorded::Mysterium(r.mended())),
            RuleSet::MysteryRummy => serde_json::from_str(record).ok().map(Recorded::Rummy),
        }
    }

    /// Its rule set.
    pub fn rule_set(&self) -> RuleSet {
        match self {
            Recorded::Mysterium(_) => RuleSet::Mysterium,
            Recorded::Rummy(_) => RuleSet::MysteryRummy,
        }
    }

    /// What the lists call it ([`Listed::titled`]): `mysterium-classic`, `mysterium-new`,
    /// `mystery-rummy`.
    pub fn title(&self) -> &'static str {
        match self {
            Recorded::Mysterium(r) => seance_rules::Game::titled(Some(r.edition.name())).source,
            Recorded::Rummy(_) => seance_rummy::Scorepad::titled(None).source,
        }
    }

    /// The words it is told in where they are not its rule set's usual ones (`new`).
    pub fn dialect(&self) -> Option<&'static str> {
        match self {
            Recorded::Mysterium(r) => r.edition.dialect(),
            Recorded::Rummy(_) => None,
        }
    }

    /// Everyone who played, Mysterium's ghost first.
    pub fn players(&self) -> Vec<&str> {
        match self {
            Recorded::Mysterium(r) => {
                let mut names = vec![r.ghost.as_str()];
                for p in &r.psychics {
                    if !names.contains(&p.name.as_str()) {
                        names.push(&p.name);
                    }
                }
                names
            }
            Recorded::Rummy(r) => r.players.iter().map(String::as_str).collect(),
        }
    }
}

/// A finished game in the history.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Game {
    pub id: i64,
    /// When it began, in seconds since 1970 (the journal's clock).
    pub began: i64,
    /// How long it lasted, wall-clock, from its start to its last entry (at least 1).
    pub minutes: i64,
    pub archived: bool,
    /// [`Recorded::title`], for the screens.
    pub title: &'static str,
    /// [`Recorded::dialect`], for the screens.
    pub dialect: Option<&'static str>,
    #[serde(flatten)]
    pub played: Recorded,
}

impl Game {
    /// The game that began at `began` and was last played at `ended` (seconds).
    pub fn new(id: i64, began: i64, ended: i64, archived: bool, played: Recorded) -> Game {
        Game {
            id,
            began,
            minutes: minutes(began, ended),
            archived,
            title: played.title(),
            dialect: played.dialect(),
            played,
        }
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
