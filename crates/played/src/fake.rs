//! Straws, a third rule set as small as one can be, for the test that a rule set is its
//! crate plus one line in each shell's registry (`crates/server/tests/fake_rule_set.rs`):
//! two to four players draw straws, and the table says who drew the short one. Built only
//! with the feature `fake-rule-set`, which gives it a `RuleSet` of its own.

use seance_history::{Among, Chronicle, Game, Row};
use seance_rummy::Role;
use seance_timeline::{
    AtOnce, Extra, Listed, Published, Refusal, RoleName, Roles, RuleSet, Rules, Seat, Settled,
    Status, Summary, Timed, Title, Who, check_name, ensure,
};
use serde::{Deserialize, Serialize};

/// Its refusals: a person never meets them (no screen draws straws).
pub mod refusals {
    seance_timeline::refusals! {
        STRAWS_PLAYERS = "straws_players",
        STRAWS_DRAWN = "straws_drawn",
        STRAWS_NO_SUCH_PLAYER = "straws_no_such_player",
        STRAWS_NOT_NOW = "straws_not_now",
    }
}

/// A game of straws: who plays, and who drew the short one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Straws {
    pub players: Vec<String>,
    pub short: Option<usize>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Setup {
    pub players: Vec<String>,
}

/// The table says who drew the short straw.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Command {
    Drawn { player: usize },
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Event {
    Started { players: Vec<String> },
    Drawn { player: usize },
}

/// What may be done: say who drew it, one of these players.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Action {
    Drawn { players: Vec<usize> },
}

/// Everyone sees everything: the players and who drew the short straw.
#[derive(Debug, Clone, Serialize)]
pub struct View {
    pub players: Vec<String>,
    pub short: Option<usize>,
    pub allowed: Vec<Action>,
}

/// What the history keeps: the players, and the one who drew the short straw (who wins).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Record {
    pub players: Vec<String>,
    pub short: usize,
}

impl Rules for Straws {
    const RULE_SET: RuleSet = RuleSet::Straws;
    type Setup = Setup;
    type Command = Command;
    type Event = Event;

    fn start(setup: Setup, _seed: u64) -> Result<Vec<Event>, Refusal> {
        let start = vec![Event::Started {
            players: setup.players,
        }];
        Straws::valid_start(&start)?;
        Ok(start)
    }

    fn again(&self) -> Setup {
        Setup {
            players: self.players.clone(),
        }
    }

    fn begin(start: &Event) -> Result<Self, String> {
        match start {
            Event::Started { players } => Ok(Straws {
                players: players.clone(),
                short: None,
            }),
            Event::Drawn { .. } => Err("a game of straws begins with its players".into()),
        }
    }

    fn apply(&mut self, event: &Event) -> Result<(), String> {
        match *event {
            Event::Drawn { player } if self.short.is_none() && player < self.players.len() => {
                self.short = Some(player);
                Ok(())
            }
            _ => Err(format!("{event:?} does not follow")),
        }
    }

    fn valid_start(start: &[Event]) -> Result<(), Refusal> {
        let [Event::Started { players }] = start else {
            return Err(Refusal::new(refusals::STRAWS_PLAYERS));
        };
        ensure((2..=4).contains(&players.len()), || {
            Refusal::new(refusals::STRAWS_PLAYERS)
        })?;
        players.iter().try_for_each(|p| check_name(p))
    }

    fn decide(&self, command: &Command, _position: u64) -> Result<Vec<Event>, Refusal> {
        let Command::Drawn { player } = *command;
        ensure(self.short.is_none(), || {
            Refusal::new(refusals::STRAWS_DRAWN)
        })?;
        ensure(player < self.players.len(), || {
            Refusal::new(refusals::STRAWS_NO_SUCH_PLAYER)
        })?;
        Ok(vec![Event::Drawn { player }])
    }
}

impl Roles for Straws {
    type Role = Role;
    type Action = Action;
    type Told = Event;
    type View = View;

    fn seats(&self) -> Vec<Seat<Role>> {
        (0..self.players.len())
            .map(seance_rummy::Seat::Player)
            .collect()
    }

    /// The table alone says who drew it.
    fn permit(&self, who: &Who<Role>, _: &Command) -> Result<(), Refusal> {
        match who {
            Who::Table { .. } => Ok(()),
            _ => Err(Refusal::new(seance_timeline::refusals::TABLE_ONLY)),
        }
    }

    fn allowed(&self, who: &Who<Role>) -> Vec<Action> {
        let open = matches!(who, Who::Table { .. }) && self.short.is_none();
        let players = (0..self.players.len()).collect();
        open.then_some(Action::Drawn { players })
            .into_iter()
            .collect()
    }

    /// A rematch once it is over, nothing else.
    fn may(&self, who: &Who<Role>, extra: Extra) -> Result<(), Refusal> {
        let table = matches!(who, Who::Table { .. });
        ensure(
            table && extra == Extra::Rematch && self.short.is_some(),
            || Refusal::new(refusals::STRAWS_NOT_NOW),
        )
    }

    fn view(&self, role: Role) -> Result<View, Refusal> {
        let seated = role
            .seat()
            .is_none_or(|seance_rummy::Seat::Player(p)| p < self.players.len());
        ensure(seated, || Refusal::new(refusals::STRAWS_NO_SUCH_PLAYER))?;
        let who = match role.seat() {
            None => Who::Table { phones: Vec::new() },
            Some(seat) => Who::Seat(seat),
        };
        Ok(View {
            players: self.players.clone(),
            short: self.short,
            allowed: self.allowed(&who),
        })
    }

    fn told(&self, event: &Event, _: Role) -> Option<Event> {
        Some(event.clone())
    }
}

/// One thing to depend on: the straw.
impl AtOnce for Straws {
    type Thing = ();

    fn depends(&self, _: &Command) -> Vec<()> {
        vec![()]
    }

    fn changes(&self, _: &Event) -> Vec<()> {
        vec![()]
    }

    fn changed(&self, _: &()) -> Refusal {
        Refusal::new(refusals::STRAWS_DRAWN)
    }
}

impl Timed for Straws {}

impl Listed for Straws {
    type Record = Record;

    fn status(&self) -> Status {
        match self.short {
            None => Status::Playing,
            Some(_) => Status::Over,
        }
    }

    fn players(&self) -> Vec<String> {
        self.players.clone()
    }

    fn titled(_: Option<&str>) -> Title {
        Title {
            name: "Straws",
            source: RuleSet::Straws.name(),
            bgg_id: None,
            board: None,
        }
    }

    /// Whoever drew the short straw wins, with a point.
    fn summary(&self) -> Option<Summary> {
        let short = self.short?;
        let points: Vec<i64> = (0..self.players.len())
            .map(|p| i64::from(p == short))
            .collect();
        Some(Summary::scored(&self.players, &points, 0, short))
    }

    fn record(&self) -> Option<Record> {
        Some(Record {
            players: self.players.clone(),
            short: self.short?,
        })
    }
}

#[derive(Debug, Clone, Serialize)]
pub struct Facts {
    pub players: [usize; 2],
}

impl Published for Straws {
    type Facts = Facts;

    fn facts() -> Facts {
        Facts { players: [2, 4] }
    }
}

/// Nothing kept between games.
impl Settled for Straws {
    type Settings = ();

    fn settled(_: &()) -> Result<(), Refusal> {
        Ok(())
    }
}

/// How often each player drew the short straw.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Statistics {
    pub short: Vec<(String, u32)>,
}

impl Chronicle for Record {
    const RULE_SET: RuleSet = RuleSet::Straws;
    type Statistics = Statistics;

    fn title(&self) -> &'static str {
        RuleSet::Straws.name()
    }

    fn players(&self) -> Vec<&str> {
        self.players.iter().map(String::as_str).collect()
    }

    fn rows(&self) -> Vec<Row> {
        let row = |(p, name): (usize, &String)| Row {
            player: name.clone(),
            part: "player".into(),
            winner: (p == self.short).to_string(),
            ..Row::default()
        };
        self.players.iter().enumerate().map(row).collect()
    }

    fn statistics(games: &[&Game<Record>], among: &Among) -> Statistics {
        let mut short: Vec<(String, u32)> = Vec::new();
        for game in games {
            let name = &game.played.players[game.played.short];
            if !among.about(name) {
                continue;
            }
            match short.iter_mut().find(|(n, _)| n == name) {
                Some((_, drawn)) => *drawn += 1,
                None => short.push((name.clone(), 1)),
            }
        }
        Statistics { short }
    }
}
