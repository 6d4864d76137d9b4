//! Mystery Rummy: random setups, votes and rounds' tallies from random reachable states.

#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| seance_fuzz::drive::<seance_rummy::Scorepad>(data));
