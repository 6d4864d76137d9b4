//! A test driver: a timeline plus helpers that play as a table would.
#![allow(dead_code)]

use seance_rules::*;

pub fn setup(players: usize, difficulty: Difficulty, secrets: SecretMode) -> Setup {
    let names = ["Stephanie", "Alex", "Carl", "Paul", "Mathieu", "Léa"];
    Setup::with_dealt_colours("Laura", &names[..players - 1], difficulty, secrets)
}

/// A table that owns every expansion and promo card.
pub fn every_expansion() -> Collection {
    Collection {
        expansions: vec![Expansion::HiddenSigns, Expansion::SecretsAndLies],
        promos: PROMOS.collect(),
    }
}

/// The base box's cards numbered `numbers`.
pub fn cards(numbers: impl IntoIterator<Item = u8>) -> Vec<Card> {
    numbers.into_iter().map(Card::from).collect()
}

pub use seance_played::card_box as two_set_box;

/// A new-edition setup for `players` (the ghost included), one set per category drawn by
/// the app, or the mixed variant.
pub fn new_setup(players: usize, secrets: SecretMode, mixed: bool) -> Setup {
    let names = ["Stephanie", "Alex", "Carl", "Paul", "Mathieu", "Léa"];
    let deal = if mixed {
        Deal::Mixed
    } else {
        Deal::Sets {
            characters: None,
            locations: None,
            objects: None,
        }
    };
    Setup::new_edition("Laura", &names[..players - 1], secrets, two_set_box(), deal)
}

/// The table, with no phone holding a seat.
pub fn table() -> Who<Role> {
    Who::Table { phones: Vec::new() }
}

pub struct Table {
    pub timeline: Timeline,
    pub start: Vec<Event>,
    pub entries: Vec<Entry>,
}

impl Table {
    pub fn new(setup: Setup, seed: u64) -> Table {
        let (timeline, start) = seance_rules::begin(setup, seed).expect("a valid setup");
        Table {
            timeline,
            start,
            entries: Vec::new(),
        }
    }

    pub fn game(&self) -> &Game {
        self.timeline.game()
    }

    pub fn try_do(&mut self, command: Command) -> Result<Vec<Event>, Refusal> {
        let entry = self.timeline.decide(command)?;
        let Entry::Command { events, .. } = &entry else {
            unreachable!()
        };
        let events = events.clone();
        self.entries.push(entry.clone());
        self.timeline.push(entry).expect("a decided entry applies");
        Ok(events)
    }

    pub fn play(&mut self, command: Command) -> Vec<Event> {
        let shown = format!("{command:?}");
        self.try_do(command)
            .unwrap_or_else(|e| panic!("{shown} refused: {e}"))
    }

    /// The table shows the count a line at a time to its end; the events of the last line
    /// (what the count decides).
    pub fn read_count(&mut self) -> Vec<Event> {
        let mut last = Vec::new();
        while self.game().counting() {
            let lines = self.game().shown + 1;
            last = self.play(Command::ShowCount { lines });
        }
        last
    }

    pub fn undo(&mut self) {
        self.entries.push(Entry::Undo);
        self.timeline.push(Entry::Undo).unwrap();
    }

    pub fn redo(&mut self) {
        self.entries.push(Entry::Redo);
        self.timeline.push(Entry::Redo).unwrap();
    }

    pub fn secret(&self, psychic: usize) -> Card {
        let p = &self.game().psychics[psychic];
        self.game().assignments.as_ref().unwrap()[psychic][p.seeking().unwrap().index()]
    }

    /// A card on the table in `psychic`'s category that is not their secret.
    pub fn wrong_card(&self, psychic: usize) -> Card {
        let seeking = self.game().psychics[psychic].seeking().unwrap();
        let right = self.secret(psychic);
        *self
            .game()
            .uncollected(seeking)
            .iter()
            .find(|&&c| c != right)
            .unwrap()
    }

    pub fn searching(&self) -> Vec<usize> {
        (0..self.game().psychics.len())
            .filter(|&i| self.game().psychics[i].seeking().is_some())
            .collect()
    }

    /// One whole turn (app-kept): visions (to those yet without), intuitions (right for those in `right`),
    /// the timer's end and the manifestation, in seating order.
    pub fn turn(&mut self, right: &[usize]) -> Vec<Event> {
        let searching = self.searching();
        for &p in &searching {
            if !self.game().psychics[p].vision {
                self.play(Command::GiveVision { psychic: p });
            }
        }
        for &p in &searching {
            let card = if right.contains(&p) {
                self.secret(p)
            } else {
                self.wrong_card(p)
            };
            self.play(Command::PlaceIntuition { psychic: p, card });
        }
        self.play(Command::EndInterpretation);
        searching
            .iter()
            .flat_map(|&p| {
                self.play(Command::Manifest {
                    psychic: p,
                    right: None,
                })
            })
            .collect()
    }

    /// Plays turns with everyone right until the revelation.
    pub fn find_everything(&mut self) {
        while self.game().phase != Phase::Revelation {
            let all = self.searching();
            self.turn(&all);
        }
    }
}
