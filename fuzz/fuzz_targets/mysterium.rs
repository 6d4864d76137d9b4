//! Mysterium, both editions: random setups and commands from random reachable states.

#![no_main]

#[path = "drive.rs"]
mod drive;

use drive::Driven;
use seance_rules::{Game, Role, Setup};
use seance_timeline::Refusal;

impl Driven for Game {
    type Setup = Setup;

    fn start(setup: Setup, seed: u64) -> Result<Vec<Self::Event>, Refusal> {
        Game::start(setup, seed)
    }

    fn roles(&self) -> Vec<Role> {
        let psychics = (0..self.psychics.len()).map(Role::Psychic);
        [Role::Table, Role::Ghost]
            .into_iter()
            .chain(psychics)
            .collect()
    }

    fn look(&self, role: Role) {
        let _ = self.view(role);
    }

    fn seat(&self, n: usize) -> Option<Role> {
        match n {
            0 => Some(Role::Ghost),
            n if n <= self.psychics.len() => Some(Role::Psychic(n - 1)),
            _ => None,
        }
    }
}

libfuzzer_sys::fuzz_target!(|data: &[u8]| drive::drive::<Game>(data));
