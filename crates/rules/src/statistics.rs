//! What Mysterium's finished games add up to, among everyone, a group or a player: the win
//! rate by difficulty and by number at the table, the hour games end in, each ghost and how
//! often their table won, the clairvoyancy each psychic player reached. Counts only: the
//! screens draw them and work nothing out.

use std::collections::BTreeMap;

use seance_history::{Among, Game, Rate};
use serde::Serialize;

use crate::game::Outcome;
use crate::record::Record;
use crate::setup::{Difficulty, Edition};

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Statistics {
    pub rate: Rate,
    pub by_level: Vec<(Challenge, Rate)>,
    /// By the number at the table, the ghost included.
    pub by_players: Vec<(usize, Rate)>,
    /// Hours I to VII: how many games ended in each, won and lost.
    pub hours: Vec<Hour>,
    /// Each ghost, the most often first.
    pub ghosts: Vec<Ghost>,
    /// Each psychic player's clairvoyancy (classic games), by name.
    pub clairvoyancy: Vec<Reach>,
}

/// How hard a game was, as the statistics group games: a classic game's difficulty, or the
/// new edition (which has none).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Challenge {
    Easy,
    Medium,
    Hard,
    NewEdition,
}

impl Challenge {
    /// A classic game without a difficulty (kept before there was a choice) was medium.
    pub fn of(record: &Record) -> Challenge {
        match (record.edition, record.difficulty) {
            (Edition::New, _) => Challenge::NewEdition,
            (Edition::Classic, Some(Difficulty::Easy)) => Challenge::Easy,
            (Edition::Classic, Some(Difficulty::Hard)) => Challenge::Hard,
            (Edition::Classic, _) => Challenge::Medium,
        }
    }
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

impl Statistics {
    /// What `games` add up to; only `among`'s own figures of ghosts and psychics.
    pub fn of(games: &[&Game<Record>], among: &Among) -> Statistics {
        let mut rate = Rate::default();
        let mut by_level: BTreeMap<Challenge, Rate> = BTreeMap::new();
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
        for r in games.iter().map(|g| &g.played) {
            let won = r.outcome == Outcome::Won;
            rate.add(won);
            by_level.entry(Challenge::of(r)).or_default().add(won);
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
            reached(r, among, &mut reach);
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
        Statistics {
            rate,
            by_level: by_level.into_iter().collect(),
            by_players: by_players.into_iter().collect(),
            hours,
            ghosts,
            clairvoyancy: reach.into_values().collect(),
        }
    }
}

/// How far each of `r`'s psychics with a track got, added to their player's reach.
fn reached<'a>(r: &'a Record, among: &Among, reach: &mut BTreeMap<&'a str, Reach>) {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::Reached;
    use crate::setup::Colour;
    use seance_history::Chronicle;

    /// A game as its record says it ended (classic with a difficulty, else the new
    /// edition): `psychics` as (name, track, found all three).
    fn game(
        id: i64,
        difficulty: Option<Difficulty>,
        outcome: Outcome,
        hour: u8,
        ghost: &str,
        psychics: &[(&str, Option<u8>, bool)],
    ) -> Game<Record> {
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
        let edition = if difficulty.is_some() {
            Edition::Classic
        } else {
            Edition::New
        };
        let record = Record {
            edition,
            difficulty,
            outcome,
            hour,
            ghost: ghost.into(),
            players: 4,
            psychics,
        };
        Game::new(id, 0, 60, false, record)
    }

    /// The statistics of those of `games` among `among`.
    fn among(games: &[Game<Record>], among: &Among) -> Statistics {
        let counted: Vec<&Game<Record>> = games
            .iter()
            .filter(|g| among.takes(&g.played.players()))
            .collect();
        Statistics::of(&counted, among)
    }

    #[test]
    fn a_classic_game_without_a_difficulty_counts_as_medium_and_the_new_edition_apart() {
        let level = |game: Game<Record>| Challenge::of(&game.played);
        let classic = |d| game(1, d, Outcome::Won, 5, "G", &[]);
        assert_eq!(level(classic(Some(Difficulty::Easy))), Challenge::Easy);
        assert_eq!(level(classic(Some(Difficulty::Hard))), Challenge::Hard);
        let mut undated = classic(Some(Difficulty::Medium));
        undated.played.difficulty = None;
        assert_eq!(level(undated), Challenge::Medium);
        assert_eq!(
            level(game(1, None, Outcome::Won, 5, "G", &[])),
            Challenge::NewEdition
        );
    }

    #[test]
    fn hours_ghosts_and_reach_are_counted_as_the_records_say() {
        let games = [
            game(
                1,
                Some(Difficulty::Easy),
                Outcome::Won,
                6,
                "Zoe",
                &[("Ann", Some(9), true), ("Ben", Some(7), false)],
            ),
            game(
                2,
                Some(Difficulty::Hard),
                Outcome::LostOnTime,
                7,
                "Ann",
                &[("Ben", Some(4), true), ("Zoe", None, false)],
            ),
            game(
                3,
                None,
                Outcome::LostWrongGroup,
                6,
                "Zoe",
                &[("Ann", None, true)],
            ),
        ];
        let m = among(&games, &Among::Everyone);
        assert_eq!(m.rate, Rate { games: 3, won: 1 });
        let hour = |hour, won, lost| Hour { hour, won, lost };
        assert_eq!(m.hours[5], hour(6, 1, 1));
        assert_eq!(m.hours[6], hour(7, 0, 1));
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
        let ann = among(&games, &Among::Player("Ann".into()));
        assert_eq!(ann.rate.games, 3);
        assert_eq!(ann.ghosts.len(), 1, "{:?}", ann.ghosts);
        assert_eq!(ann.clairvoyancy.len(), 1);
        let ben = among(&games, &Among::Player("Ben".into()));
        assert_eq!(ben.rate.games, 2);
    }
}
