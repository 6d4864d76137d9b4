//! Mysterium, both editions: random setups and commands from random reachable states.

#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| seance_fuzz::drive::<seance_rules::Game>(data));
