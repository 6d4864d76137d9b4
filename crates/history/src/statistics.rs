//! Statistics over finished games, among everyone, one group of players (the very same
//! people at the table) or one player: Mysterium's win rate by difficulty and by number of
//! players, the hour games end in, each ghost and how often their table won, the
//! clairvoyancy each psychic reached; Mystery Rummy's rounds per game, highest totals and
//! vote accuracy. Counts only: the screens draw them and work nothing out.

use std::collections::BTreeMap;

use seance_rules::{Difficulty, Edition, Outcome, Record};
use serde::Serialize;

use crate::{Game, Played};

/// Whose games.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Among {
    Everyone,
    /// Games played by exactly these people (in any order).
    Group(Vec<String>),
    /// Games this person played in.
    Player(String),
}

impl Among {
    fn takes(&self, game: &Game) -> bool {
        let players = game.played.players();
        match self {
            Among::Everyone => true,
            Among::Group(group) => same_people(&players, group),
            Among::Player(name) => players.contains(&name.as_str()),
        }
    }

    /// Whether `name`'s own figures are wanted (everyone's are, among a group or everyone).
    fn about(&self, name: &str) -> bool {
        match self {
            Among::Player(p) => p == name,
            _ => true,
        }
    }
}

fn same_people(players: &[&str], group: &[String]) -> bool {
    let mut a: Vec<&str> = players.to_vec();
    let mut b: Vec<&str> = group.iter().map(String::as_str).collect();
    a.sort_unstable();
    b.sort_unstable();
    a == b
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Statistics {
    /// Games counted.
    pub games: u32,
    /// Each group that has played a game, its people sorted, the most played first: what
    /// the screen offers to choose from.
    pub groups: Vec<Vec<String>>,
    /// Everyone who has played, by name.
    pub players: Vec<String>,
    /// `None` without a Mysterium game among those counted.
    pub mysterium: Option<Mysterium>,
    /// `None` without a Mystery Rummy game among those counted.
    pub rummy: Option<Rummy>,
}

/// Games played and won.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct Rate {
    pub games: u32,
    pub won: u32,
}

impl Rate {
    fn add(&mut self, won: bool) {
        self.games += 1;
        self.won += u32::from(won);
    }
}

/// A classic game's difficulty, or the new edition (which has none).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Level {
    Easy,
    Medium,
    Hard,
    NewEdition,
}

impl Level {
    fn of(record: &Record) -> Level {
        match (record.edition, record.difficulty) {
            (Edition::New, _) => Level::NewEdition,
            (Edition::Classic, Some(Difficulty::Easy)) => Level::Easy,
            (Edition::Classic, Some(Difficulty::Hard)) => Level::Hard,
            (Edition::Classic, _) => Level::Medium,
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Mysterium {
    pub rate: Rate,
    pub by_level: Vec<(Level, Rate)>,
    /// By the number at the table, the ghost included.
    pub by_players: Vec<(usize, Rate)>,
    /// Hours I to VII: how many games ended in each, won and lost.
    pub hours: Vec<Hour>,
    /// Each ghost, the most often first.
    pub ghosts: Vec<Ghost>,
    /// Each psychic player's clairvoyancy (classic games), by name.
    pub clairvoyancy: Vec<Reach>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Hour {
    pub hour: u8,
    pub won: u32,
    pub lost: u32,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Ghost {
    pub name: String,
    pub rate: Rate,
}

/// A psychic player's clairvoyancy over classic games: the spaces reached in all (so a
/// screen shows the average without rounding a rule), the best, and how many psychics
/// they played.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Reach {
    pub name: String,
    pub psychics: u32,
    pub spaces: u32,
    pub best: u8,
    /// Psychics of theirs who found all three cards.
    pub finished: u32,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Rummy {
    pub games: u32,
    /// How many games took each number of rounds.
    pub rounds: Vec<(usize, u32)>,
    /// The highest totals, the best first (at most five).
    pub highest: Vec<Top>,
    /// Each player's votes, by name.
    pub accuracy: Vec<Accuracy>,
    /// Each player's wins, by name.
    pub wins: Vec<(String, Rate)>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Top {
    pub name: String,
    pub total: i32,
    pub game: i64,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Accuracy {
    pub name: String,
    pub cast: u32,
    pub right: u32,
}

/// The most totals [`Rummy::highest`] lists.
const HIGHEST: usize = 5;

/// The statistics of `games` among `among`.
pub fn statistics(games: &[Game], among: &Among) -> Statistics {
    let mut groups: BTreeMap<Vec<String>, u32> = BTreeMap::new();
    let mut players: Vec<String> = Vec::new();
    for game in games {
        let mut people: Vec<String> = game
            .played
            .players()
            .into_iter()
            .map(str::to_owned)
            .collect();
        people.sort_unstable();
        for p in &people {
            if let Err(at) = players.binary_search(p) {
                players.insert(at, p.clone());
            }
        }
        *groups.entry(people).or_default() += 1;
    }
    let mut groups: Vec<(Vec<String>, u32)> = groups.into_iter().collect();
    groups.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));

    let counted: Vec<&Game> = games.iter().filter(|g| among.takes(g)).collect();
    let mysterium: Vec<&Record> = counted
        .iter()
        .filter_map(|g| match &g.played {
            Played::Mysterium(r) => Some(r),
            Played::Rummy(_) => None,
        })
        .collect();
    let rummy: Vec<(i64, &seance_rummy::Record)> = counted
        .iter()
        .filter_map(|g| match &g.played {
            Played::Rummy(r) => Some((g.id, r)),
            Played::Mysterium(_) => None,
        })
        .collect();
    Statistics {
        games: counted.len() as u32,
        groups: groups.into_iter().map(|(g, _)| g).collect(),
        players,
        mysterium: (!mysterium.is_empty()).then(|| mysterium_of(&mysterium, among)),
        rummy: (!rummy.is_empty()).then(|| rummy_of(&rummy, among)),
    }
}

fn mysterium_of(records: &[&Record], among: &Among) -> Mysterium {
    let mut rate = Rate::default();
    let mut by_level: BTreeMap<Level, Rate> = BTreeMap::new();
    let mut by_players: BTreeMap<usize, Rate> = BTreeMap::new();
    let mut hours: Vec<Hour> = (1..=7)
        .map(|hour| Hour {
            hour,
            won: 0,
            lost: 0,
        })
        .collect();
    let mut ghosts: BTreeMap<&str, Rate> = BTreeMap::new();
    let mut reach: BTreeMap<&str, Reach> = BTreeMap::new();
    for r in records {
        let won = r.outcome == Outcome::Won;
        rate.add(won);
        by_level.entry(Level::of(r)).or_default().add(won);
        by_players.entry(r.players).or_default().add(won);
        if let Some(h) = hours.iter_mut().find(|h| h.hour == r.hour) {
            if won {
                h.won += 1;
            } else {
                h.lost += 1;
            }
        }
        if among.about(&r.ghost) {
            ghosts.entry(&r.ghost).or_default().add(won);
        }
        for p in r.psychics.iter().filter(|p| among.about(&p.name)) {
            let Some(track) = p.track else { continue };
            let mine = reach.entry(&p.name).or_insert_with(|| Reach {
                name: p.name.clone(),
                psychics: 0,
                spaces: 0,
                best: 0,
                finished: 0,
            });
            mine.psychics += 1;
            mine.spaces += u32::from(track);
            mine.best = mine.best.max(track);
            mine.finished += u32::from(p.finished.is_some());
        }
    }
    let mut ghosts: Vec<Ghost> = ghosts
        .into_iter()
        .map(|(name, rate)| Ghost {
            name: name.to_owned(),
            rate,
        })
        .collect();
    ghosts.sort_by(|a, b| {
        b.rate
            .games
            .cmp(&a.rate.games)
            .then_with(|| a.name.cmp(&b.name))
    });
    Mysterium {
        rate,
        by_level: by_level.into_iter().collect(),
        by_players: by_players.into_iter().collect(),
        hours,
        ghosts,
        clairvoyancy: reach.into_values().collect(),
    }
}

fn rummy_of(records: &[(i64, &seance_rummy::Record)], among: &Among) -> Rummy {
    let mut rounds: BTreeMap<usize, u32> = BTreeMap::new();
    let mut highest: Vec<Top> = Vec::new();
    let mut accuracy: BTreeMap<&str, Accuracy> = BTreeMap::new();
    let mut wins: BTreeMap<&str, Rate> = BTreeMap::new();
    for &(game, r) in records {
        *rounds.entry(r.rounds).or_default() += 1;
        for (p, name) in r.players.iter().enumerate().filter(|(_, n)| among.about(n)) {
            highest.push(Top {
                name: name.clone(),
                total: r.totals.get(p).copied().unwrap_or(0),
                game,
            });
            let votes = r.votes.get(p).copied().unwrap_or_default();
            let mine = accuracy.entry(name).or_insert_with(|| Accuracy {
                name: name.clone(),
                cast: 0,
                right: 0,
            });
            mine.cast += votes.cast;
            mine.right += votes.right;
            wins.entry(name).or_default().add(r.winner == p);
        }
    }
    highest.sort_by(|a, b| b.total.cmp(&a.total).then_with(|| a.game.cmp(&b.game)));
    highest.truncate(HIGHEST);
    Rummy {
        games: records.len() as u32,
        rounds: rounds.into_iter().collect(),
        highest,
        accuracy: accuracy.into_values().collect(),
        wins: wins.into_iter().map(|(n, r)| (n.to_owned(), r)).collect(),
    }
}
