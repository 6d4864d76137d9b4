//! The history as a CSV table for a spreadsheet: one row per player of each game (a
//! psychic player of two colours has a row per colour), with the game's facts on each row.
//! Fields are quoted as RFC 4180 says, and a name a spreadsheet would take for a formula
//! (`=`, `+`, `-`, `@` first, and not a number) is written with a `'` before it.

use seance_rules::Outcome;

use crate::{Game, Recorded, utc};

const HEADER: [&str; 17] = [
    "game",
    "rule_set",
    "edition",
    "difficulty",
    "began_utc",
    "minutes",
    "outcome",
    "hour",
    "player",
    "part",
    "colour",
    "cards_found",
    "finished_in_hour",
    "clairvoyancy",
    "total",
    "winner",
    "votes_right_of_cast",
];

/// The CSV table of `games`.
pub fn csv(games: &[Game]) -> String {
    let mut out = String::new();
    row(&mut out, HEADER.iter().map(|h| h.to_string()));
    for game in games {
        let common = |edition: String, difficulty: String, outcome: String, hour: String| {
            [
                game.id.to_string(),
                game.played.rule_set().name().to_owned(),
                edition,
                difficulty,
                utc(game.began),
                game.minutes.to_string(),
                outcome,
                hour,
            ]
        };
        match &game.played {
            Recorded::Mysterium(r) => {
                let head = common(
                    word(&r.edition),
                    r.difficulty.as_ref().map(word).unwrap_or_default(),
                    word(&r.outcome),
                    r.hour.to_string(),
                );
                let won = (r.outcome == Outcome::Won).to_string();
                let ghost = [&r.ghost, "ghost", "", "", "", "", "", won.as_str(), ""];
                row(
                    &mut out,
                    head.iter().cloned().chain(ghost.map(str::to_owned)),
                );
                for p in &r.psychics {
                    let psychic = [
                        p.name.clone(),
                        "psychic".into(),
                        word(&p.colour),
                        p.found.to_string(),
                        p.finished.map(|h| h.to_string()).unwrap_or_default(),
                        p.track.map(|t| t.to_string()).unwrap_or_default(),
                        String::new(),
                        won.clone(),
                        String::new(),
                    ];
                    row(&mut out, head.iter().cloned().chain(psychic));
                }
            }
            Recorded::Rummy(r) => {
                let head = common(String::new(), String::new(), String::new(), String::new());
                for (p, name) in r.players.iter().enumerate() {
                    let votes = r.votes.get(p).copied().unwrap_or_default();
                    let player = [
                        name.clone(),
                        "player".into(),
                        String::new(),
                        String::new(),
                        String::new(),
                        String::new(),
                        r.totals.get(p).copied().unwrap_or(0).to_string(),
                        (r.winner == p).to_string(),
                        format!("{}/{}", votes.right, votes.cast),
                    ];
                    row(&mut out, head.iter().cloned().chain(player));
                }
            }
        }
    }
    out
}

/// A value's name as its JSON has it (`lost_on_time`, `hard`, `red`).
fn word(value: &impl serde::Serialize) -> String {
    match serde_json::to_value(value) {
        Ok(serde_json::Value::String(s)) => s,
        _ => String::new(),
    }
}

fn row(out: &mut String, fields: impl Iterator<Item = String>) {
    for (i, field) in fields.enumerate() {
        if i > 0 {
            out.push(',');
        }
        out.push_str(&quoted(&field));
    }
    out.push_str("\r\n");
}

fn quoted(field: &str) -> String {
    // A spreadsheet reads a formula after a leading tab or carriage return too.
    let field =
        if field.starts_with(['=', '+', '-', '@', '\t', '\r']) && field.parse::<i64>().is_err() {
            format!("'{field}")
        } else {
            field.to_owned()
        };
    if field.contains([',', '"', '\r', '\n']) {
        format!("\"{}\"", field.replace('"', "\"\""))
    } else {
        field
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_are_quoted_and_formulas_defused() {
        assert_eq!(quoted("Ann"), "Ann");
        assert_eq!(quoted("Smith, Jo"), "\"Smith, Jo\"");
        assert_eq!(quoted("\"Jo\""), "\"\"\"Jo\"\"\"");
        assert_eq!(quoted("=1+1"), "'=1+1");
        assert_eq!(quoted("\t=1+1"), "'\t=1+1");
        assert_eq!(quoted("\r=1+1"), "\"'\r=1+1\"");
        assert_eq!(quoted("-2"), "-2", "a negative total stays a number");
        assert_eq!(quoted("-cmd"), "'-cmd");
    }
}
