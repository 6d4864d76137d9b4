//! The history's records and statistics over games played by the rules to their ends:
//! classic Mysterium at 2, 3, 5 and 7 players, the new edition at 3 and 5, Mystery Rummy
//! at 2 and 4. Each figure is checked against the games it counts.

use seance_history::{Among, Chronicle, Game, Listing, Rate, Statistics, Tally, Visit};
use seance_played::{mysterium, new_edition, rummy};
use seance_rules::{Challenge, Difficulty, Outcome, Record};
use seance_timeline::{Listed, RuleSet};

const HOUR: i64 = 3600;

/// Game `id`, begun `id` hours into the evening, lasting 40 minutes.
fn game<R: Chronicle>(id: i64, played: R) -> Game<R> {
    Game::new(id, id * HOUR, id * HOUR + 40 * 60, false, played)
}

fn record(played: &seance_played::Played) -> Record {
    played.timeline.game().record().expect("played to its end")
}

struct Evening {
    games: Vec<Game<Record>>,
    rummy: Vec<Game<seance_rummy::Record>>,
    mysterium: Vec<Record>,
}

impl Evening {
    /// Every game visited by `visit`, in the order they were played.
    fn visit(&self, visit: &mut impl Visit) {
        self.games.iter().cloned().for_each(|g| visit.visit(g));
        self.rummy.iter().cloned().for_each(|g| visit.visit(g));
    }

    /// The statistics among `among`, as the server sends them.
    fn statistics(&self, among: &Among) -> Statistics {
        let mut tally = Tally::new(among.clone());
        self.visit(&mut tally);
        tally.statistics()
    }

    /// Mysterium's figures among `among`, as the statistics send them.
    fn mysterium(&self, among: &Among) -> Option<seance_rules::Statistics> {
        self.figures(&self.games, among)
    }

    /// Mystery Rummy's.
    fn rummy(&self, among: &Among) -> Option<seance_rummy::Statistics> {
        self.figures(&self.rummy, among)
    }

    /// `R`'s figures over those of `games` among `among` (`None` without one), checked to
    /// be what the statistics send under its name.
    fn figures<R: Chronicle>(&self, games: &[Game<R>], among: &Among) -> Option<R::Statistics> {
        let counted: Vec<&Game<R>> = games
            .iter()
            .filter(|g| among.takes(&g.played.players()))
            .collect();
        let figures = (!counted.is_empty()).then(|| R::statistics(&counted, among));
        let sent = self.statistics(among).rule_sets.remove(R::RULE_SET.name());
        assert_eq!(
            sent,
            figures.as_ref().map(|f| serde_json::to_value(f).unwrap())
        );
        figures
    }
}

/// Eight games among friends, the scripted outcome of each known.
fn evening() -> Evening {
    let mysterium = vec![
        // Two at the table: Ana plays two colours. Right every turn, right group: won.
        record(&mysterium("Laura", &["Ana"], Difficulty::Easy, 1, true)),
        // Three: Ana and Bo play two colours each. Never right: lost on time.
        record(&mysterium(
            "Laura",
            &["Ana", "Bo"],
            Difficulty::Medium,
            8,
            true,
        )),
        // Five, then seven: right from hour II, the wrong group; right every turn, won.
        record(&mysterium(
            "Bo",
            &["Ana", "Cy", "Dee", "Eve"],
            Difficulty::Hard,
            2,
            false,
        )),
        record(&mysterium(
            "Laura",
            &["Ana", "Bo", "Cy", "Dee", "Eve", "Fay"],
            Difficulty::Medium,
            1,
            true,
        )),
        // The new edition: three at the table (two colours each), then five.
        record(&new_edition("Cy", &["Ana", "Bo"], 1, true)),
        record(&new_edition("Laura", &["Ana", "Bo", "Cy", "Dee"], 1, false)),
    ];
    let games = mysterium
        .iter()
        .cloned()
        .enumerate()
        .map(|(i, r)| game(i as i64 + 1, r))
        .collect();
    let rummy = [
        (7, &["Ana", "Bo"][..]),
        (8, &["Ana", "Bo", "Cy", "Dee"][..]),
    ]
    .into_iter()
    .map(|(id, players)| game(id, rummy(players).game().record().unwrap()))
    .collect();
    Evening {
        games,
        rummy,
        mysterium,
    }
}

#[test]
fn a_record_has_a_track_only_where_the_game_had_one() {
    let Evening { mysterium, .. } = evening();
    for r in &mysterium {
        let has_track = r.players >= 4 && r.edition == seance_rules::Edition::Classic;
        for p in &r.psychics {
            assert_eq!(
                p.track.is_some(),
                has_track,
                "{} at {}: {p:?}",
                r.edition as u8,
                r.players
            );
        }
    }
    // Two and three at the table: each psychic player has two colours.
    assert_eq!(mysterium[0].psychics.len(), 2);
    assert_eq!(mysterium[1].psychics.len(), 4);
    assert_eq!(mysterium[4].psychics.len(), 4);
    // Records written before: a track of 0 in a game that had none is mended on reading.
    let mut old = serde_json::to_value(&mysterium[1]).unwrap();
    for p in old["psychics"].as_array_mut().unwrap() {
        p["track"] = 0.into();
    }
    let read = Game::<Record>::read(2, 0, 60, false, &old.to_string()).unwrap();
    assert_eq!(read.played, mysterium[1]);
}

#[test]
fn each_record_is_listed_under_its_rule_set_and_reads_back() {
    let evening = evening();
    let mut page = Listing::default();
    evening.visit(&mut page);
    let sent = serde_json::to_value(&page).unwrap();
    let sent = sent.as_array().unwrap();
    assert_eq!(sent.len(), 8);
    for (listed, game) in sent.iter().zip(&evening.games) {
        assert_eq!(listed["ruleset"], RuleSet::Mysterium.name());
        assert_eq!(listed["id"], game.id);
        assert_eq!(listed["minutes"], 40);
        assert_eq!(listed["title"], game.played.title());
        let record = listed["record"].to_string();
        let read = Game::<Record>::read(game.id, game.began, game.began + 2400, false, &record);
        assert_eq!(read.as_ref(), Some(game));
    }
    assert_eq!(sent[4]["title"], "mysterium-new");
    assert_eq!(sent[4]["dialect"], "new");
    assert_eq!(sent[7]["ruleset"], RuleSet::MysteryRummy.name());
    assert_eq!(sent[7]["title"], RuleSet::MysteryRummy.name());
    assert_eq!(
        sent[7]["record"]["players"],
        serde_json::json!(["Ana", "Bo", "Cy", "Dee"])
    );
    // Another rule set's record is no record of this one.
    assert_eq!(
        Game::<Record>::read(1, 0, 60, false, &sent[7]["record"].to_string()),
        None
    );
}

#[test]
fn a_player_of_two_colours_is_one_player() {
    let evening = evening();
    assert_eq!(evening.games[0].played.players(), ["Laura", "Ana"]);
    assert_eq!(evening.games[1].played.players(), ["Laura", "Ana", "Bo"]);
    let stats = evening.statistics(&Among::Everyone);
    assert_eq!(
        stats.players,
        ["Ana", "Bo", "Cy", "Dee", "Eve", "Fay", "Laura"]
    );
    assert!(
        stats
            .groups
            .contains(&vec!["Ana".to_owned(), "Laura".to_owned()])
    );
}

#[test]
fn mysterium_is_counted_by_level_players_hour_and_ghost() {
    let evening = evening();
    assert_eq!(evening.statistics(&Among::Everyone).games, 8);
    let m = evening.mysterium(&Among::Everyone).unwrap();
    let mysterium = &evening.mysterium;
    let won = |o: &[Outcome]| o.iter().filter(|&&o| o == Outcome::Won).count() as u32;
    let outcomes: Vec<Outcome> = mysterium.iter().map(|r| r.outcome).collect();
    assert_eq!(
        outcomes,
        [
            Outcome::Won,
            Outcome::LostOnTime,
            Outcome::LostWrongGroup,
            Outcome::Won,
            Outcome::Won,
            Outcome::LostWrongGroup
        ]
    );
    assert_eq!(
        m.rate,
        Rate {
            games: 6,
            won: won(&outcomes)
        }
    );
    let rate = |games, won| Rate { games, won };
    assert_eq!(
        m.by_level,
        [
            (Challenge::Easy, rate(1, 1)),
            (Challenge::Medium, rate(2, 1)),
            (Challenge::Hard, rate(1, 0)),
            (Challenge::NewEdition, rate(2, 1)),
        ]
    );
    assert_eq!(
        m.by_players,
        [
            (2, rate(1, 1)),
            (3, rate(2, 1)),
            (5, rate(2, 0)),
            (7, rate(1, 1))
        ]
    );
    // Every game in the hour its Phase 1 ended in, won or lost.
    for hour in &m.hours {
        let ended: Vec<&Record> = mysterium.iter().filter(|r| r.hour == hour.hour).collect();
        let won = ended.iter().filter(|r| r.outcome == Outcome::Won).count() as u32;
        assert_eq!(
            (hour.won, hour.lost),
            (won, ended.len() as u32 - won),
            "hour {}",
            hour.hour
        );
    }
    assert_eq!(m.hours.iter().map(|h| h.won + h.lost).sum::<u32>(), 6);
    assert_eq!(mysterium[1].hour, 7, "lost on time: the clock ran out");
    let ghosts: Vec<(&str, Rate)> = m.ghosts.iter().map(|g| (g.name.as_str(), g.rate)).collect();
    assert_eq!(
        ghosts,
        [
            ("Laura", rate(4, 2)),
            ("Bo", rate(1, 0)),
            ("Cy", rate(1, 1))
        ]
    );
}

#[test]
fn clairvoyancy_counts_only_psychics_who_had_a_track() {
    let evening = evening();
    let m = evening.mysterium(&Among::Everyone).unwrap();
    let mysterium = &evening.mysterium;
    // Only the five- and seven-player classic games had a track.
    let tracked = [&mysterium[2], &mysterium[3]];
    let names: Vec<&str> = m.clairvoyancy.iter().map(|r| r.name.as_str()).collect();
    assert_eq!(names, ["Ana", "Bo", "Cy", "Dee", "Eve", "Fay"]);
    for reach in &m.clairvoyancy {
        let theirs: Vec<_> = tracked
            .iter()
            .flat_map(|r| &r.psychics)
            .filter(|p| p.name == reach.name)
            .collect();
        assert_eq!(reach.psychics as usize, theirs.len(), "{}", reach.name);
        let spaces: u32 = theirs.iter().map(|p| u32::from(p.track.unwrap())).sum();
        assert_eq!(reach.spaces, spaces, "{}", reach.name);
        assert_eq!(
            Some(reach.best),
            theirs.iter().map(|p| p.track.unwrap()).max()
        );
        let finished = theirs.iter().filter(|p| p.finished.is_some()).count();
        assert_eq!(reach.finished as usize, finished, "{}", reach.name);
    }
    // Bo was the five-player game's ghost: one psychic, the seven-player game's.
    assert_eq!(m.clairvoyancy[1].psychics, 1);
    // In the seven-player game, right every turn: every psychic finished.
    assert!(mysterium[3].psychics.iter().all(|p| p.found == 3));
}

#[test]
fn one_group_and_one_player_are_counted_alone() {
    let evening = evening();
    let group = Among::Group(vec!["Laura".into(), "Ana".into(), "Bo".into()]);
    assert_eq!(
        evening.statistics(&group).games,
        1,
        "Laura and Ana and Bo alone: the three-player game"
    );
    assert_eq!(
        evening.mysterium(&group).unwrap().rate,
        Rate { games: 1, won: 0 }
    );
    let fay = Among::Player("Fay".into());
    assert_eq!(evening.statistics(&fay).games, 1);
    let m = evening.mysterium(&fay).unwrap();
    assert!(m.ghosts.is_empty(), "Fay was never the ghost");
    assert_eq!(m.clairvoyancy.len(), 1);
    assert_eq!(m.clairvoyancy[0].name, "Fay");
    assert!(evening.rummy(&fay).is_none());
    // The groups offered: each table once, the most played first.
    let all = evening.statistics(&Among::Everyone);
    let played = |group: &Vec<String>| evening.statistics(&Among::Group(group.clone())).games;
    let counts: Vec<u32> = all.groups.iter().map(played).collect();
    assert!(counts.windows(2).all(|w| w[0] >= w[1]), "{counts:?}");
    assert_eq!(
        counts.iter().sum::<u32>(),
        all.games,
        "each game in one group"
    );
    // The groups and players on offer do not narrow with the choice.
    let narrowed = evening.statistics(&group);
    assert_eq!(
        (narrowed.groups, narrowed.players),
        (all.groups.clone(), all.players)
    );
    let unique: std::collections::HashSet<_> = all.groups.iter().collect();
    assert_eq!(unique.len(), all.groups.len());
    // Every table met once this evening: then by their names.
    assert_eq!(all.groups[0], ["Ana", "Bo"]);
    assert_eq!(all.groups[1], ["Ana", "Bo", "Cy"]);
}

#[test]
fn mystery_rummy_counts_rounds_totals_votes_and_wins() {
    let evening = evening();
    let records: Vec<&seance_rummy::Record> = evening.rummy.iter().map(|g| &g.played).collect();
    let r = evening.rummy(&Among::Everyone).unwrap();
    assert_eq!(r.games, 2);
    let rounds: u32 = r.rounds.iter().map(|(_, n)| n).sum();
    assert_eq!(rounds, 2);
    for (n, games) in &r.rounds {
        let played = records.iter().filter(|g| g.rounds == *n).count() as u32;
        assert_eq!(*games, played);
    }
    // The highest totals, best first, from both games.
    let mut totals: Vec<i32> = records.iter().flat_map(|g| g.totals.clone()).collect();
    totals.sort_unstable_by(|a, b| b.cmp(a));
    let highest: Vec<i32> = r.highest.iter().map(|t| t.total).collect();
    assert_eq!(highest, totals[..5]);
    assert_eq!(r.highest[0].name, "Ana");
    // Ana names Jack every round; everyone else names Jill, never Jack.
    for a in &r.accuracy {
        let cast: u32 = records
            .iter()
            .filter(|g| g.players.contains(&a.name))
            .map(|g| g.rounds as u32)
            .sum();
        assert_eq!(a.cast, cast, "{}", a.name);
        assert_eq!(
            a.right,
            if a.name == "Ana" { cast } else { 0 },
            "{}",
            a.name
        );
    }
    let wins: Vec<(&str, Rate)> = r.wins.iter().map(|(n, rate)| (n.as_str(), *rate)).collect();
    assert_eq!(
        wins,
        [
            ("Ana", Rate { games: 2, won: 2 }),
            ("Bo", Rate { games: 2, won: 0 }),
            ("Cy", Rate { games: 1, won: 0 }),
            ("Dee", Rate { games: 1, won: 0 }),
        ]
    );
}
