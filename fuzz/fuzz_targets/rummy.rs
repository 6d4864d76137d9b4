//! Mystery Rummy: random setups, votes and rounds' tallies from random reachable states.

#![no_main]

#[path = "drive.rs"]
mod drive;

libfuzzer_sys::fuzz_target!(|data: &[u8]| drive::drive::<seance_rummy::Scorepad>(data));
