//! The seats file of earlier builds, `seats.json`, written whole at every change: adopted
//! once, then replaced by `seats.jsonl`.

use std::collections::BTreeMap;
use std::io;
use std::path::Path;

use serde::Deserialize;

use super::state::{Held, State};

/// The file of earlier builds, written whole at every change: read once, then replaced.
pub(super) const FORMER: &str = "seats.json";

/// The file of earlier builds: the journal, the seats, the tokens freed, the rematches.
#[derive(Deserialize)]
struct Former {
    journal: String,
    taken: BTreeMap<i64, BTreeMap<String, String>>,
    #[serde(default)]
    freed: BTreeMap<i64, Vec<String>>,
    #[serde(default)]
    rematches: BTreeMap<i64, i64>,
}

/// The seats in the file of earlier builds at `path`, if it is there and names `journal`
/// (or none: a file from before seats named their journal is adopted).
pub(super) fn read_former(path: &Path, journal: &str) -> io::Result<Option<State>> {
    let text = match std::fs::read_to_string(path) {
        Ok(text) => text,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(e),
    };
    let former = serde_json::from_str::<Former>(&text).or_else(|_| {
        serde_json::from_str(&text).map(|taken| Former {
            journal: journal.to_owned(),
            taken,
            freed: BTreeMap::new(),
            rematches: BTreeMap::new(),
        })
    });
    let Ok(former) = former.inspect_err(|why| {
        tracing::warn!("the former seats file was damaged ({why}); every seat is free");
    }) else {
        return Ok(None);
    };
    if former.journal != journal {
        return Ok(None);
    }
    let mut state = State::default();
    for (game, seats) in former.taken {
        for (seat, token) in seats {
            state
                .taken
                .entry(game)
                .or_default()
                .insert(seat, Held { token, at: 0 });
        }
    }
    state.freed = former.freed;
    state.rematches = former
        .rematches
        .into_iter()
        .map(|(g, n)| (g, (n, 0)))
        .collect();
    Ok(Some(state))
}
