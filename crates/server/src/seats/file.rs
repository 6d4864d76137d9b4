//! The seats file, `seats.jsonl`: a first line naming the journal whose games they are,
//! then a line per change ([`Line`]), appended and synced as it is made. Read at start, a
//! line cut short by a crash left out, and the changes made after the journal's last commit
//! dropped (it was restored from a backup).

use std::fs::File;
use std::io::{self, BufRead};
use std::path::Path;

use serde::{Deserialize, Serialize};

use super::state::{Line, State};

pub(super) const FILE: &str = "seats.jsonl";

/// The first line of the file.
#[derive(Serialize, Deserialize)]
pub(super) struct Header {
    pub journal: String,
}

/// `value` as a line of the file.
pub(super) fn line_of(value: &impl Serialize) -> String {
    let mut text = serde_json::to_string(value).expect("a line serializes");
    text.push('\n');
    text
}

/// The seats in the file at `path`, if there is one: `None` for another journal's; an
/// error for a file whose first line cannot be read. A line cut short (a crash while it
/// was written) is left out; changes made after the journal's `commits` are dropped.
pub(super) fn read(path: &Path, journal: &str, commits: u64) -> Result<Option<State>, String> {
    let file = match File::open(path) {
        Ok(file) => file,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(e.to_string()),
    };
    seance_journal::keep_private(path);
    let mut lines = io::BufReader::new(file).lines();
    let header: Header = match lines.next() {
        Some(Ok(text)) => serde_json::from_str(&text).map_err(|e| e.to_string())?,
        Some(Err(e)) => return Err(e.to_string()),
        None => return Err("empty".into()),
    };
    if header.journal != journal {
        tracing::warn!(
            "the seats were another journal's (it was moved or replaced): every seat is free, phones join again"
        );
        return Ok(Some(State::default()));
    }
    let mut state = State::default();
    let mut later = 0;
    let mut lines = lines.peekable();
    while let Some(text) = lines.next() {
        let text = text.map_err(|e| e.to_string())?;
        let line: Line = match serde_json::from_str(&text) {
            Ok(line) => line,
            // Cut short by a crash while it was written: that change alone is lost.
            Err(e) => {
                if lines.peek().is_some() {
                    tracing::warn!("a line of the seats file could not be read ({e}); left out");
                }
                continue;
            }
        };
        if line.at > commits {
            later += 1;
            continue;
        }
        state.apply(line);
    }
    if later > 0 {
        tracing::warn!(
            "{later} seat changes were newer than the journal (it was restored from a backup): they were dropped, and those phones join again"
        );
    }
    Ok(Some(state))
}
