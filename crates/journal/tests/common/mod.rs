//! What the journal's tests share: a game's setup.

use seance_rules::{Difficulty, SecretMode, Setup};

/// Laura haunts Stephanie, Alex and Carl, at medium difficulty, the app keeping the secrets.
pub fn setup() -> Setup {
    Setup::with_dealt_colours(
        "Laura",
        &["Stephanie", "Alex", "Carl"],
        Difficulty::Medium,
        SecretMode::AppKept,
    )
}
