//! Statistics over finished games, among everyone, one group of players (the very same
//! people at the table) or one player: Mysterium's win rate by difficulty and by number of
//! players, the hour games end in, each ghost and how often their table won, the
//! clairvoyancy each psychic reached; Mystery Rummy's rounds per game, highest totals and
//! vote accuracy. Counts only: the screens draw them and work nothing out.

use std::collections::BTreeMap;

use seance_rules::{Difficulty, Edition, Outcome, Record};
use serde::Serialize;

use crate::{Game, Recorded};

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
            Recorded::Mysterium(r) => Some(r),
            Recorded::Rummy(_) => None,
        })
        .collect();
    let rummy: Vec<(i64, &seance_rummy::Record)> = counted
        .iter()
        .filter_map(|g| match &g.played {
            Recorded::Rummy(r) => Some((g.id, r)),
            Recorded::Mysterium(_) => None,
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

#[cfg(test)]
mod tests {
    use super::*;
    use seance_rules::{Colour, Reached};
    use seance_rummy::Votes;

    /// A Mysterium game as its record says it ended (classic with a difficulty, else the
    /// new edition): `psychics` as (name, track, found all three).
    fn mysterium(
        id: i64,
        difficulty: Option<Difficulty>,
        outcome: Outcome,
        hour: u8,
        ghost: &str,
        psychics: &[(&str, Option<u8>, bool)],
    ) -> Game {
        let psychics = psychics
            .iter()
            .map(|&(name, track, finished)| Reached {
                name: name.into(),
                colour: Colour::Red,
                found: if finished { 3 } else { 1 },
                finished: finished.then_some(hour),
                track,
            })
            .collect();
        Game::new(
            id,
            0,
            60,
            false,
            Recorded::Mysterium(Record {
                edition: if difficulty.is_some() {
                    Edition::Classic
                } else {
                    Edition::New
                },
                difficulty,
                outcome,
                hour,
                ghost: ghost.into(),
                players: 4,
                psychics,
            }),
        )
    }

    /// A Mystery Rummy game: each player's (name, total, votes cast, right), and the winner.
    fn rummy(id: i64, players: &[(&str, i32, u32, u32)], winner: usize) -> Game {
        Game::new(
            id,
            0,
            60,
            false,
            Recorded::Rummy(seance_rummy::Record {
                players: players.iter().map(|p| p.0.into()).collect(),
                totals: players.iter().map(|p| p.1).collect(),
                winner,
                rounds: 3,
                votes: players
                    .iter()
                    .map(|p| Votes {
                        cast: p.2,
                        right: p.3,
                    })
                    .collect(),
            }),
        )
    }

    #[test]
    fn a_group_is_the_same_people_in_any_order_and_no_one_else() {
        let group = ["Ann".to_string(), "Ben".to_string()];
        assert!(same_people(&["Ben", "Ann"], &group));
        assert!(!same_people(&["Ann"], &group));
        assert!(!same_people(&["Ann", "Ben", "Cy"], &group));
    }

    #[test]
    fn a_classic_game_without_a_difficulty_counts_as_medium_and_the_new_edition_apart() {
        let level = |game: Game| match game.played {
            Recorded::Mysterium(r) => Level::of(&r),
            Recorded::Rummy(_) => unreachable!(),
        };
        let classic = |d| mysterium(1, d, Outcome::Won, 5, "G", &[]);
        assert_eq!(level(classic(Some(Difficulty::Easy))), Level::Easy);
        assert_eq!(level(classic(Some(Difficulty::Hard))), Level::Hard);
        let mut undated = classic(Some(Difficulty::Medium));
        if let Recorded::Mysterium(r) = &mut undated.played {
            r.difficulty = None;
        }
        assert_eq!(level(undated), Level::Medium);
        assert_eq!(
            level(mysterium(1, None, Outcome::Won, 5, "G", &[])),
            Level::NewEdition
        );
    }

    #[test]
    fn hours_ghosts_and_reach_are_counted_as_the_records_say() {
        let games = [
            mysterium(
                1,
                Some(Difficulty::Easy),
                Outcome::Won,
                6,
                "Zoe",
                &[("Ann", Some(9), true), ("Ben", Some(7), false)],
            ),
            mysterium(
                2,
                Some(Difficulty::Hard),
                Outcome::LostOnTime,
                7,
                "Ann",
                &[("Ben", Some(4), true), ("Zoe", None, false)],
            ),
            mysterium(
                3,
                None,
                Outcome::LostWrongGroup,
                6,
                "Zoe",
                &[("Ann", None, true)],
            ),
        ];
        let m = statistics(&games, &Among::Everyone).mysterium.unwrap();
        assert_eq!(m.rate, Rate { games: 3, won: 1 });
        assert_eq!(
            m.hours[5],
            Hour {
                hour: 6,
                won: 1,
                lost: 1
            }
        );
        assert_eq!(
            m.hours[6],
            Hour {
                hour: 7,
                won: 0,
                lost: 1
            }
        );
        assert_eq!(m.hours.iter().map(|h| h.won + h.lost).sum::<u32>(), 3);
        // The ghost of two games first, then by name.
        let ghosts: Vec<_> = m.ghosts.iter().map(|g| (g.name.as_str(), g.rate)).collect();
        assert_eq!(
            ghosts,
            [
                ("Zoe", Rate { games: 2, won: 1 }),
                ("Ann", Rate { games: 1, won: 0 })
            ]
        );
        // Only psychics with a track reach anywhere: Zoe's and Ann's new-edition game had none.
        let ben = m.clairvoyancy.iter().find(|r| r.name == "Ben").unwrap();
        assert_eq!(
            (ben.psychics, ben.spaces, ben.best, ben.finished),
            (2, 11, 7, 1)
        );
        assert!(m.clairvoyancy.iter().all(|r| r.name != "Zoe"));
        let ann = m.clairvoyancy.iter().find(|r| r.name == "Ann").unwrap();
        assert_eq!((ann.psychics, ann.spaces), (1, 9));

        // Among one player: their games only, and only their own figures.
        let ann = statistics(&games, &Among::Player("Ann".into()));
        let m = ann.mysterium.unwrap();
        assert_eq!(ann.games, 3);
        assert_eq!(m.ghosts.len(), 1, "{:?}", m.ghosts);
        assert_eq!(m.clairvoyancy.len(), 1);
        let ben = statistics(&games, &Among::Player("Ben".into()));
        assert_eq!(ben.games, 2);
    }

    #[test]
    fn the_highest_totals_are_the_best_five_earliest_first_on_a_tie() {
        let games: Vec<Game> = (1..=4)
            .map(|id| rummy(id, &[("Ann", 100, 2, 1), ("Ben", 90 + id as i32, 1, 0)], 0))
            .collect();
        let r = statistics(&games, &Among::Everyone).rummy.unwrap();
        let highest: Vec<_> = r
            .highest
            .iter()
            .map(|t| (t.name.as_str(), t.total, t.game))
            .collect();
        assert_eq!(
            highest,
            [
                ("Ann", 100, 1),
                ("Ann", 100, 2),
                ("Ann", 100, 3),
                ("Ann", 100, 4),
                ("Ben", 94, 4)
            ]
        );
        let ann = r.accuracy.iter().find(|a| a.name == "Ann").unwrap();
        assert_eq!((ann.cast, ann.right), (8, 4));
        assert_eq!(
            r.wins,
            [
                ("Ann".into(), Rate { games: 4, won: 4 }),
                ("Ben".into(), Rate { games: 4, won: 0 })
            ]
        );
        assert_eq!(r.rounds, [(3, 4)]);
    }

    #[test]
    fn groups_are_offered_most_played_first_and_everyone_once() {
        let games = [
            rummy(1, &[("Ben", 10, 0, 0), ("Ann", 20, 0, 0)], 1),
            rummy(2, &[("Cy", 10, 0, 0), ("Ann", 20, 0, 0)], 1),
            rummy(3, &[("Ann", 10, 0, 0), ("Cy", 20, 0, 0)], 1),
        ];
        let all = statistics(&games, &Among::Everyone);
        assert_eq!(all.groups, [vec!["Ann", "Cy"], vec!["Ann", "Ben"]]);
        assert_eq!(all.players, ["Ann", "Ben", "Cy"]);
        assert!(all.mysterium.is_none());
        let group = statistics(&games, &Among::Group(vec!["Cy".into(), "Ann".into()]));
        assert_eq!(group.games, 2);
        // The groups and players on offer do not narrow with the choice.
        assert_eq!(group.groups, all.groups);
    }
}
