//! A finished game sent to BG Stats, the play-logging app most board-gamers use, through
//! its "create a play" link: `createPlay.html?data=` and the play as URL-encoded JSON. The
//! phone that opens the link has BG Stats fill the play in; nothing leaves the table.
//! `sourcePlayId` is the journal's identity and the game's number, so sending a play twice
//! updates one play; a player's `sourcePlayerId` is their name, so BG Stats matches the
//! same friend from game to game.

use seance_timeline::{Part, Summary};
use serde_json::{Value, json};

/// Where BG Stats takes a play.
pub const CREATE_PLAY: &str = "https://app.bgstatsapp.com/createPlay.html";

/// The game as BG Stats knows it: its name, and its BoardGameGeek id where Séance knows it.
pub struct Title {
    pub name: &'static str,
    pub bgg_id: Option<u32>,
}

/// Game `id` of journal `journal`, of rule set `ruleset`, as BG Stats's play JSON.
pub fn play(
    title: &Title,
    ruleset: &str,
    journal: &str,
    id: i64,
    summary: &Summary,
    (began, ended): (i64, i64),
) -> Value {
    let players: Vec<Value> = summary
        .players
        .iter()
        .map(|p| {
            let mut player = json!({
                "name": p.name,
                "sourcePlayerId": format!("seance:{}", p.name.trim().to_lowercase()),
                "winner": p.winner,
                // BG Stats's apps want every flag said, even false.
                "startPlayer": false,
            });
            if let Some(role) = match p.part {
                Part::Ghost => Some("ghost"),
                Part::Psychic => Some("psychic"),
                Part::Player => None,
            } {
                player["role"] = json!(role);
            }
            if let Some(score) = p.score {
                player["score"] = json!(score.to_string());
            }
            if let Some(rank) = p.rank {
                player["rank"] = json!(rank);
            }
            player
        })
        .collect();
    let mut game = json!({
        "name": title.name,
        "sourceGameId": ruleset,
        "highestWins": true,
        "noPoints": summary.cooperative,
        "cooperative": summary.cooperative,
    });
    if let Some(bgg) = title.bgg_id {
        game["bggId"] = json!(bgg);
    }
    json!({
        "sourceName": "Séance",
        "sourcePlayId": format!("{journal}-{id}"),
        "playDate": utc(began),
        // Wall-clock, from the first entry to the last; a minute at least.
        "durationMin": (((ended - began).max(0) + 59) / 60).max(1),
        "game": game,
        "players": players,
    })
}

/// The link that opens BG Stats with `play` filled in.
pub fn link(play: &Value) -> String {
    let data: String = play
        .to_string()
        .bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' => {
                char::from(b).to_string()
            }
            _ => format!("%{b:02X}"),
        })
        .collect();
    format!("{CREATE_PLAY}?data={data}")
}

/// `seconds` since 1970 as BG Stats writes a date: `2026-11-25 21:04:09`, in UTC.
fn utc(seconds: i64) -> String {
    let (days, time) = (seconds.div_euclid(86_400), seconds.rem_euclid(86_400));
    // Days to a civil date (the proleptic Gregorian calendar, in 400-year eras).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!(
        "{year:04}-{month:02}-{day:02} {:02}:{:02}:{:02}",
        time / 3600,
        time % 3600 / 60,
        time % 60
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_are_written_in_utc_as_bg_stats_reads_them() {
        assert_eq!(utc(0), "1970-01-01 00:00:00");
        assert_eq!(utc(951_782_400), "2000-02-29 00:00:00");
        assert_eq!(utc(1_795_900_000), "2026-11-28 21:06:40");
        assert_eq!(utc(4_107_542_399), "2100-02-28 23:59:59");
    }
}
