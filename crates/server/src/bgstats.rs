//! A finished game sent to BG Stats, the play-logging app most board-gamers use, through
//! its "create a play" link: `createPlay.html?data=` and the play as URL-encoded JSON. The
//! phone that opens the link has BG Stats fill the play in; nothing leaves the table.
//! `sourcePlayId` is the journal's identity and the game's number, so sending a play twice
//! updates one play; a player's `sourcePlayerId` is their name, so BG Stats matches the
//! same friend from game to game.
//!
//! The whole link is far too long for a QR code a phone can read off a screen (a 7-player
//! game's is some 1,600 characters), so the table shows a short one instead
//! ([`short_link`]): an address on this server that forwards to it.

use chrono::{DateTime, Local, Offset, TimeZone};
use seance_history::{local, minutes};
use seance_timeline::{Summary, Title};
use serde_json::{Value, json};

/// Where BG Stats takes a play.
pub const CREATE_PLAY: &str = "https://app.bgstatsapp.com/createPlay.html";

/// A finished game as a play log takes it: what it was, who played, and when it began and
/// ended (seconds since 1970, the journal's clock).
pub struct Finished {
    pub title: Title,
    pub summary: Summary,
    pub began: i64,
    pub ended: i64,
}

/// Game `id` of journal `journal` as BG Stats's play JSON, dated by a clock `offset`
/// seconds ahead of UTC when it began.
pub fn play(finished: &Finished, journal: &str, id: i64, offset: i32) -> Value {
    let Finished {
        title,
        summary,
        began,
        ended,
    } = finished;
    let players: Vec<Value> = summary
        .players
        .iter()
        .map(|p| {
            let mut player = json!({
                "name": p.name,
                "sourcePlayerId": format!("seance:{}", p.name.trim().to_lowercase()),
                "winner": p.winner,
                // BG Stats's apps want every flag said, even false.
                "startPlayer": p.started,
            });
            if let Some(role) = p.role {
                player["role"] = json!(role);
            }
            if let Some(score) = p.score {
                player["score"] = json!(score);
            }
            if let Some(rank) = p.rank {
                player["rank"] = json!(rank);
            }
            player
        })
        .collect();
    let mut game = json!({
        "name": title.name,
        "sourceGameId": title.source,
        "highestWins": true,
        "noPoints": summary.cooperative,
        "cooperative": summary.cooperative,
    });
    if let Some(bgg) = title.bgg_id {
        game["bggId"] = json!(bgg);
    }
    let mut play = json!({
        "sourceName": "Séance",
        "sourcePlayId": format!("{journal}-{id}"),
        "playDate": local(*began, offset),
        "durationMin": minutes(*began, *ended),
        "game": game,
        "players": players,
    });
    if let Some(board) = title.board {
        play["board"] = json!(board);
    }
    play
}

/// How far this computer's clock (the table's: Séance serves from the table) is ahead of
/// UTC at `seconds` since 1970, summer time included.
pub fn table_offset(seconds: i64) -> i32 {
    DateTime::from_timestamp(seconds, 0).map_or(0, |t| {
        Local
            .offset_from_utc_datetime(&t.naive_utc())
            .fix()
            .local_minus_utc()
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

/// Where a game's short link forwards to its BG Stats link from (`/api/p/{id}`): short,
/// for its QR code.
pub const SHORT: &str = "/api/p/";

/// The short link of game `id` on the server at `origin` (`http://192.168.1.20:4747`),
/// with the join code a phone scanning it off the table needs: some 55 characters, a QR
/// code of 33 modules.
pub fn short_link(origin: &str, id: i64, code: &str) -> String {
    format!("{origin}{SHORT}{id}?code={code}")
}

#[cfg(test)]
mod tests {
    use super::*;
    use seance_timeline::PlayerLine;

    fn finished(title: Title, players: Vec<PlayerLine>, cooperative: bool) -> Finished {
        Finished {
            title,
            summary: Summary {
                players,
                cooperative,
            },
            // 2026-11-28 21:06:40 UTC, a Saturday evening.
            began: 1_795_900_000,
            ended: 1_795_900_000 + 52 * 60,
        }
    }

    #[test]
    fn a_play_is_dated_by_the_table_with_numbers_as_numbers() {
        let names = ["Ann".to_owned(), "Ben".to_owned()];
        let rummy = finished(
            Title {
                name: "Mystery Rummy: Jack the Ripper",
                source: "mystery-rummy",
                bgg_id: None,
                board: None,
            },
            Summary::scored(&names, &[104, 61], 1, 0).players,
            false,
        );
        // Paris in winter: an hour ahead of UTC.
        let play = play(&rummy, "j1", 7, 3600);
        assert_eq!(play["playDate"], "2026-11-28 22:06:40");
        assert_eq!(play["durationMin"], 52);
        assert_eq!(play["sourcePlayId"], "j1-7");
        assert_eq!(play["players"][0]["score"], json!(104));
        assert_eq!(play["players"][0]["rank"], json!(1));
        assert_eq!(play["players"][1]["winner"], json!(false));
        assert_eq!(play["players"][0]["startPlayer"], json!(false));
        assert_eq!(play["players"][1]["startPlayer"], json!(true), "Ben began");
        assert!(play["game"].get("bggId").is_none(), "{play}");
        assert!(play.get("board").is_none(), "{play}");
    }

    #[test]
    fn each_edition_is_its_own_game() {
        let played = |name: &str, role, won| PlayerLine {
            name: name.into(),
            role: Some(role),
            started: false,
            winner: won,
            score: None,
            rank: None,
        };
        let ghost = |won| played("Laura", "ghost", won);
        let classic = play(
            &finished(
                Title {
                    name: "Mysterium",
                    source: "mysterium-classic",
                    bgg_id: Some(181_304),
                    board: None,
                },
                vec![ghost(true)],
                true,
            ),
            "j1",
            1,
            -5 * 3600,
        );
        assert_eq!(classic["game"]["bggId"], json!(181_304));
        assert_eq!(classic["playDate"], "2026-11-28 16:06:40");
        assert_eq!(classic["players"][0]["role"], "ghost");
        assert!(classic["players"][0].get("score").is_none());
        let new = play(
            &finished(
                Title {
                    name: "Mysterium",
                    source: "mysterium-new",
                    bgg_id: None,
                    board: Some("New edition"),
                },
                vec![ghost(false), played("Alex", "medium", false)],
                true,
            ),
            "j1",
            2,
            0,
        );
        assert_eq!(new["players"][1]["role"], "medium");
        assert_eq!(new["game"]["sourceGameId"], "mysterium-new");
        assert_eq!(new["board"], "New edition");
        assert!(new["game"].get("bggId").is_none());
    }

    #[test]
    fn the_short_link_makes_a_small_qr_code() {
        let modules = |origin| {
            let link = short_link(origin, 9_999_999, "ABCDE12345");
            let code = qrcode::QrCode::with_error_correction_level(&link, qrcode::EcLevel::M);
            code.unwrap().width()
        };
        // The longest IPv4 address and a game number far beyond a table's: 33 modules, 5
        // pixels each on the table's 205 (their quiet zone included).
        assert_eq!(modules("http://192.168.100.200:65535"), 33);
        // An IPv6 address: still 3 pixels a module at least.
        let v6 = modules("http://[fd12:3456:789a:1:abcd:ef01:2345:6789]:65535");
        assert!(205 / (v6 + 8) >= 3, "{v6} modules");
    }
}
