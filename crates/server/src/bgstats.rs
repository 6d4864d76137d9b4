//! A finished game sent to BG Stats, the play-logging app most board-gamers use, through
//! its "create a play" link: `createPlay.html?data=` and the play as URL-encoded JSON. The
//! phone that opens the link has BG Stats fill the play in; nothing leaves the table.
//! `sourcePlayId` is the journal's identity and the game's number, so sending a play twice
//! updates one play; a player's `sourcePlayerId` is their name, so BG Stats matches the
//! same friend from game to game.

use seance_history::{minutes, utc};
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
        "durationMin": minutes(began, ended),
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
