//! The history as a CSV table for a spreadsheet: one row per player of each game (a
//! psychic player of two colours has a row per colour), with the game's facts on each row.
//! The columns are every rule set's facts together; a rule set fills those it has
//! ([`Row`]). Fields are quoted as RFC 4180 says, and a name a spreadsheet would take for a
//! formula (`=`, `+`, `-`, `@` first, and not a number) is written with a `'` before it.

use crate::{Chronicle, Game, Visit, utc};

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

/// A player's line of a game in the CSV table, as its rule set fills it: the game's facts
/// (the same on each of its lines), then the player's. What a rule set does not have stays
/// empty.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Row {
    pub edition: String,
    pub difficulty: String,
    pub outcome: String,
    pub hour: String,
    pub player: String,
    /// Their part in the game, in the rule set's word (`ghost`, `psychic`, `player`).
    pub part: String,
    pub colour: String,
    pub cards_found: String,
    pub finished_in_hour: String,
    pub clairvoyancy: String,
    pub total: String,
    pub winner: String,
    pub votes_right_of_cast: String,
}

impl Row {
    /// A value's name as its JSON has it (`lost_on_time`, `hard`, `red`), for a field.
    pub fn word(value: &impl serde::Serialize) -> String {
        match serde_json::to_value(value) {
            Ok(serde_json::Value::String(s)) => s,
            _ => String::new(),
        }
    }
}

/// The CSV table of the games visited, in the order they come.
#[derive(Debug)]
pub struct Csv(String);

impl Default for Csv {
    fn default() -> Self {
        let mut out = String::new();
        row(&mut out, HEADER.iter().map(|h| h.to_string()));
        Csv(out)
    }
}

impl Csv {
    /// The whole table.
    pub fn table(self) -> String {
        self.0
    }
}

impl Visit for Csv {
    fn visit<R: Chronicle>(&mut self, game: Game<R>) {
        for line in game.played.rows() {
            let fields = [
                game.id.to_string(),
                R::RULE_SET.name().to_owned(),
                line.edition,
                line.difficulty,
                utc(game.began),
                game.minutes.to_string(),
                line.outcome,
                line.hour,
                line.player,
                line.part,
                line.colour,
                line.cards_found,
                line.finished_in_hour,
                line.clairvoyancy,
                line.total,
                line.winner,
                line.votes_right_of_cast,
            ];
            row(&mut self.0, fields.into_iter());
        }
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
