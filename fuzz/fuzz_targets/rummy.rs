//! Mystery Rummy: random setups, votes and rounds' tallies from random reachable states.

#![no_main]

#[path = "drive.rs"]
mod drive;

use drive::Driven;
use seance_rummy::{Role, Scorepad, Setup};
use seance_timeline::Refusal;

impl Driven for Scorepad {
    type Setup = Setup;

    fn start(setup: Setup, seed: u64) -> Result<Vec<Self::Event>, Refusal> {
        Scorepad::start(setup, seed)
    }

    fn roles(&self) -> Vec<Role> {
        let players = (0..self.players.len()).map(Role::Player);
        std::iter::once(Role::Table).chain(players).collect()
    }

    fn look(&self, role: Role) {
        let _ = self.view(role);
    }

    fn seat(&self, n: usize) -> Option<Role> {
        (n < self.players.len()).then_some(Role::Player(n))
    }
}

libfuzzer_sys::fuzz_target!(|data: &[u8]| drive::drive::<Scorepad>(data));
