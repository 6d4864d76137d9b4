//! Mysterium, both editions: random setups and commands from random reachable states.

#![no_main]

#[path = "drive.rs"]
mod drive;

libfuzzer_sys::fuzz_target!(|data: &[u8]| drive::drive::<seance_rules::Game>(data));
