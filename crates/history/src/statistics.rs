//! Statistics over finished games, among everyone, one group of players (the very same
//! people at the table) or one player: the groups and players on offer, and each rule
//! set's own figures ([`Chronicle::statistics`]), keyed by its name. Counts only: the
//! screens draw them and work nothing out.

use std::any::Any;
use std::collections::{BTreeMap, BTreeSet};

use serde::Serialize;

use crate::{Chronicle, Game, Visit};

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
    /// Whether a game played by `players` is counted.
    pub fn takes(&self, players: &[&str]) -> bool {
        match self {
            Among::Everyone => true,
            Among::Group(group) => same_people(players, group),
            Among::Player(name) => players.contains(&name.as_str()),
        }
    }

    /// Whether `name`'s own figures are wanted (everyone's are, among a group or everyone).
    pub fn about(&self, name: &str) -> bool {
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

/// Games played and won.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct Rate {
    pub games: u32,
    pub won: u32,
}

impl Rate {
    /// One more game, won or not.
    pub fn add(&mut self, won: bool) {
        self.games += 1;
        self.won += u32::from(won);
    }
}

/// The statistics of the games visited, as `/api/statistics` sends them.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Statistics {
    /// Games counted.
    pub games: u32,
    /// Each group that has played a game, its people sorted, the most played first: what
    /// the screen offers to choose from.
    pub groups: Vec<Vec<String>>,
    /// Everyone who has played, by name.
    pub players: Vec<String>,
    /// Each rule set's figures ([`Chronicle::statistics`]) under its name, for those with
    /// a game among the games counted.
    pub rule_sets: BTreeMap<&'static str, serde_json::Value>,
}

/// Counts the games visited among `among`: every game for the groups and players on offer,
/// the counted ones into their rule set's pile.
pub struct Tally {
    among: Among,
    groups: BTreeMap<Vec<String>, u32>,
    players: BTreeSet<String>,
    counted: u32,
    piles: BTreeMap<&'static str, Box<dyn Pile>>,
}

/// One rule set's counted games, whatever its record.
trait Pile: Send {
    fn as_any(&mut self) -> &mut dyn Any;
    fn statistics(&self, among: &Among) -> serde_json::Value;
}

impl<R: Chronicle> Pile for Vec<Game<R>> {
    fn as_any(&mut self) -> &mut dyn Any {
        self
    }

    fn statistics(&self, among: &Among) -> serde_json::Value {
        let games: Vec<&Game<R>> = self.iter().collect();
        serde_json::to_value(R::statistics(&games, among)).expect("statistics serialize")
    }
}

impl Tally {
    pub fn new(among: Among) -> Tally {
        Tally {
            among,
            groups: BTreeMap::new(),
            players: BTreeSet::new(),
            counted: 0,
            piles: BTreeMap::new(),
        }
    }

    /// What the games visited add up to.
    pub fn statistics(self) -> Statistics {
        let mut groups: Vec<(Vec<String>, u32)> = self.groups.into_iter().collect();
        groups.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
        Statistics {
            games: self.counted,
            groups: groups.into_iter().map(|(g, _)| g).collect(),
            players: self.players.into_iter().collect(),
            rule_sets: self
                .piles
                .iter()
                .map(|(&name, pile)| (name, pile.statistics(&self.among)))
                .collect(),
        }
    }
}

impl Visit for Tally {
    fn visit<R: Chronicle>(&mut self, game: Game<R>) {
        let players = game.played.players();
        let mut people: Vec<String> = players.iter().map(|&p| p.to_owned()).collect();
        people.sort_unstable();
        self.players.extend(people.iter().cloned());
        *self.groups.entry(people).or_default() += 1;
        if !self.among.takes(&players) {
            return;
        }
        self.counted += 1;
        let pile = self
            .piles
            .entry(R::RULE_SET.name())
            .or_insert_with(|| Box::new(Vec::<Game<R>>::new()));
        pile.as_any()
            .downcast_mut::<Vec<Game<R>>>()
            .expect("a rule set's pile holds its games")
            .push(game);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_group_is_the_same_people_in_any_order_and_no_one_else() {
        let group = ["Ann".to_string(), "Ben".to_string()];
        assert!(same_people(&["Ben", "Ann"], &group));
        assert!(!same_people(&["Ann"], &group));
        assert!(!same_people(&["Ann", "Ben", "Cy"], &group));
    }

    /// The least a rule set could keep: who sat at the table.
    #[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
    struct Met(Vec<String>);

    impl Chronicle for Met {
        const RULE_SET: seance_timeline::RuleSet = seance_timeline::RuleSet::MysteryRummy;
        /// How many games were counted, and whose.
        type Statistics = (usize, Vec<String>);

        fn title(&self) -> &'static str {
            "met"
        }
        fn players(&self) -> Vec<&str> {
            self.0.iter().map(String::as_str).collect()
        }
        fn rows(&self) -> Vec<crate::Row> {
            Vec::new()
        }
        fn statistics(games: &[&Game<Met>], among: &Among) -> Self::Statistics {
            let mut names: Vec<String> = games.iter().flat_map(|g| g.played.0.clone()).collect();
            names.retain(|n| among.about(n));
            (games.len(), names)
        }
    }

    fn tally(among: Among, tables: &[&[&str]]) -> Statistics {
        let mut tally = Tally::new(among);
        for (id, table) in tables.iter().enumerate() {
            let met = Met(table.iter().map(|&n| n.to_owned()).collect());
            tally.visit(Game::new(id as i64, 0, 60, false, met));
        }
        tally.statistics()
    }

    #[test]
    fn groups_are_offered_most_played_first_and_everyone_once() {
        let tables: [&[&str]; 3] = [&["Ben", "Ann"], &["Cy", "Ann"], &["Ann", "Cy"]];
        let all = tally(Among::Everyone, &tables);
        assert_eq!(all.groups, [vec!["Ann", "Cy"], vec!["Ann", "Ben"]]);
        assert_eq!(all.players, ["Ann", "Ben", "Cy"]);
        assert_eq!(all.games, 3);
        assert_eq!(all.rule_sets["mystery-rummy"][0], 3);
        let group = tally(Among::Group(vec!["Cy".into(), "Ann".into()]), &tables);
        assert_eq!(group.games, 2);
        // The groups and players on offer do not narrow with the choice.
        assert_eq!((&group.groups, &group.players), (&all.groups, &all.players));
        // Only a player's own figures, and no rule set without a game counted.
        let ben = tally(Among::Player("Ben".into()), &tables);
        assert_eq!(
            ben.rule_sets["mystery-rummy"],
            serde_json::json!([1, ["Ben"]])
        );
        assert!(
            tally(Among::Player("Di".into()), &tables)
                .rule_sets
                .is_empty()
        );
    }
}
