//! Phones over the real API: seats bound to tokens, views and acts limited to one's own
//! seat, knocks, the join rate limit, and a leak test that records every message sent to
//! every device but the ghost's through whole games.

mod support;

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use base64::Engine;
use futures_util::StreamExt;
use reqwest::{Method, StatusCode};
use serde_json::{Value, json};
use support::{
    Sent, Socket, Table, act_as, ask_seat, classic_for_four, error_of, look_as, next_json, ok,
    refused_as, table, take_seat,
};
use tokio_tungstenite::tungstenite::Message;

async fn seat(t: &Table, game: i64, seat: &str) -> reqwest::Response {
    ask_seat(t, "mysterium", game, seat).await
}

async fn take(t: &Table, game: i64, seat: &str) -> String {
    take_seat(t, "mysterium", game, seat).await
}

async fn look(t: &Table, game: i64, role: &str, token: Option<&str>) -> reqwest::Response {
    look_as(t, "mysterium", game, role, token).await
}

/// The choices `psychic`'s phone is offered for its `kind` of action (`cards`, `groups`),
/// empty when it is not offered.
async fn offered(t: &Table, game: i64, psychic: usize, token: &str, kind: &str) -> Vec<Value> {
    let now: Value = look(t, game, &format!("psychic:{psychic}"), Some(token))
        .await
        .json()
        .await
        .unwrap();
    let choices = if kind == "cards" {
        "place_intuition"
    } else {
        "vote"
    };
    now["allowed"]
        .as_array()
        .unwrap()
        .iter()
        .find(|a| a["type"] == choices && a["psychic"] == psychic)
        .map(|a| a[kind].as_array().unwrap().clone())
        .unwrap_or_default()
}

async fn act(t: &Table, game: i64, token: Option<&str>, command: Value) -> reqwest::Response {
    act_as(t, "mysterium", game, token, command).await
}

/// The ghost's view holds the solution: the join code alone (on the QR code for everyone)
/// never opens it. The table shows its player an invitation, taken once.
#[tokio::test]
async fn the_ghosts_seat_goes_only_by_the_tables_invitation() {
    let t = table().await;
    let game = classic_for_four(&t, 1).await;
    let with = |invitation: &str| {
        t.joined(Method::POST, &format!("/mysterium/{game}/seats"))
            .json(&json!({"seat": "ghost", "invitation": invitation}))
    };
    refused_as(
        seat(&t, game, "ghost").await,
        StatusCode::FORBIDDEN,
        seance_server::refusals::SEAT_BY_INVITATION,
    )
    .await;
    refused_as(
        with(&"0".repeat(32)).sent().await,
        StatusCode::FORBIDDEN,
        seance_server::refusals::INVITATION_SPENT,
    )
    .await;
    let seen: Value = look(&t, game, "table", None).await.json().await.unwrap();
    assert_eq!(seen["seats"], json!([]), "nothing was taken");
    assert_eq!(seen["by_invitation"], json!(["ghost"]));
    assert_eq!(
        look(&t, game, "ghost", None).await.status(),
        StatusCode::OK,
        "the ghost's view is still the table's"
    );

    // Only the table invites, and only to a seat taken that way.
    let ask = |seat: &str| format!("/mysterium/{game}/seats/{seat}/invitation");
    refused_as(
        t.joined(Method::POST, &ask("ghost")).sent().await,
        StatusCode::FORBIDDEN,
        seance_timeline::refusals::TABLE_ONLY,
    )
    .await;
    refused_as(
        t.api(Method::POST, &ask("psychic:0")).sent().await,
        StatusCode::BAD_REQUEST,
        seance_server::refusals::SEAT_OPEN,
    )
    .await;
    refused_as(
        t.api(Method::POST, &ask("psychic:9")).sent().await,
        StatusCode::BAD_REQUEST,
        seance_server::refusals::NO_SUCH_SEAT,
    )
    .await;

    // The link leads a phone to the seat; the QR code holds the same link.
    let invited = support::json_of(t.api(Method::POST, &ask("ghost"))).await;
    let link = invited["link"].as_str().unwrap();
    let invitation = link.rsplit('/').next().unwrap();
    assert!(
        link.starts_with(&format!("{}#/join/{game}/ghost/", t.server.join_url())),
        "{link}"
    );
    let qr = invited["qr"].as_str().unwrap();
    let png = qr.strip_prefix("data:image/png;base64,").unwrap();
    let png = base64::engine::general_purpose::STANDARD
        .decode(png)
        .unwrap();
    assert_eq!(support::qr_text(&png), link, "the QR code holds the link");
    // The table's QR code of a game leads a phone to that game's seats.
    let seats = t
        .joined(Method::GET, &format!("/qr.png?mysterium={game}"))
        .sent()
        .await;
    let seats = support::qr_text(&seats.bytes().await.unwrap());
    assert_eq!(seats, format!("{}#/join/{game}", t.server.join_url()));
    let taken = with(invitation).sent().await;
    assert_eq!(taken.status(), StatusCode::CREATED);
    let token = taken.json::<Value>().await.unwrap()["token"]
        .as_str()
        .unwrap()
        .to_owned();
    assert_eq!(
        look(&t, game, "ghost", Some(&token)).await.status(),
        StatusCode::OK
    );
    let (status, why) = error_of(t.api(Method::POST, &ask("ghost")).sent().await).await;
    assert_eq!(status, StatusCode::CONFLICT, "no invitation to a held seat");
    assert!(why.code == seance_server::refusals::SEAT_TAKEN, "{why}");

    // Freed, the seat is not taken again with the spent invitation.
    free_ghost(&t, game).await;
    refused_as(
        with(invitation).sent().await,
        StatusCode::FORBIDDEN,
        seance_server::refusals::INVITATION_SPENT,
    )
    .await;
}

#[tokio::test]
async fn a_taken_seat_opens_only_to_its_own_token() {
    let t = table().await;
    let game = classic_for_four(&t, 1).await;
    assert_eq!(
        look(&t, game, "ghost", None).await.status(),
        StatusCode::OK,
        "free: the table may look"
    );
    let ghost = take(&t, game, "ghost").await;
    assert_eq!(ghost.len(), 32);
    refused_as(
        look(&t, game, "ghost", None).await,
        StatusCode::FORBIDDEN,
        seance_server::refusals::SEAT_ON_PHONE,
    )
    .await;
    let forged = "f".repeat(32);
    assert_eq!(
        look(&t, game, "ghost", Some(&forged)).await.status(),
        StatusCode::FORBIDDEN
    );
    let seen: Value = look(&t, game, "ghost", Some(&ghost))
        .await
        .json()
        .await
        .unwrap();
    assert!(seen["view"]["assignments"].is_array());
    assert_eq!(seen["seats"], json!(["ghost"]));

    // The socket too: refused without the token, the ghost's view with it.
    let port = t.server.port();
    let url = format!(
        "ws://127.0.0.1:{port}/api/ws?code={}&mysterium={game}&role=ghost",
        t.code
    );
    assert!(tokio_tungstenite::connect_async(&url).await.is_err());
    let mut socket = t
        .phone_socket(&format!("&mysterium={game}&role=ghost&seat={ghost}"))
        .await;
    let view = loop {
        let m = next_json(&mut socket).await;
        if m["type"] == "view" {
            break m;
        }
    };
    assert!(view["snapshot"]["view"]["assignments"].is_array());

    // A phone names no role: its token says which seat it reads.
    let own: Value = support::json_of(support::from(
        &t,
        Some(&ghost),
        Method::GET,
        &format!("/mysterium/{game}"),
    ))
    .await;
    assert!(own["view"]["assignments"].is_array(), "{own}");
    let mut socket = t
        .phone_socket(&format!("&mysterium={game}&seat={ghost}"))
        .await;
    let view = loop {
        let m = next_json(&mut socket).await;
        if m["type"] == "view" {
            break m;
        }
    };
    assert!(view["snapshot"]["view"]["assignments"].is_array());

    refused_as(
        seat(&t, game, "ghost").await,
        StatusCode::CONFLICT,
        seance_server::refusals::SEAT_TAKEN,
    )
    .await;
    assert_eq!(
        seat(&t, game, "psychic:9").await.status(),
        StatusCode::BAD_REQUEST
    );
    assert_eq!(
        seat(&t, game, "table").await.status(),
        StatusCode::BAD_REQUEST
    );
    assert_eq!(seat(&t, 99, "ghost").await.status(), StatusCode::NOT_FOUND);

    // The table frees the seat: the phone's socket is closed, the view is the table's
    // again, and the old token opens nothing.
    free_ghost(&t, game).await;
    let closed = loop {
        match tokio::time::timeout(Duration::from_secs(5), socket.next())
            .await
            .expect("closed within 5 s")
        {
            Some(Ok(Message::Close(frame))) => break frame,
            Some(Ok(Message::Text(text))) => assert!(
                !text.contains("assignments\":[["),
                "no secret after the seat is freed: {text}"
            ),
            other => panic!("{other:?}"),
        }
    };
    assert_eq!(closed.map(|f| u16::from(f.code)), Some(4403));
    assert_eq!(look(&t, game, "ghost", None).await.status(), StatusCode::OK);
    refused_as(
        act(&t, game, Some(&ghost), json!({"type": "use_crow"})).await,
        StatusCode::FORBIDDEN,
        seance_server::refusals::SEAT_FREED,
    )
    .await;
}

#[tokio::test]
async fn a_phone_acts_for_its_own_seat_only_and_the_ghost_knocks_on_the_table() {
    let t = table().await;
    let game = classic_for_four(&t, 2).await;
    let ghost = take(&t, game, "ghost").await;
    let alex = take(&t, game, "psychic:1").await;
    for i in 0..4 {
        ok(act(
            &t,
            game,
            Some(&ghost),
            json!({"type": "give_vision", "psychic": i}),
        )
        .await)
        .await;
    }
    // Carl's pawn goes on a card first: tokens go beside a pawn in play (003 p.10).
    let view: Value = look(&t, game, "table", None).await.json().await.unwrap();
    let card = view["view"]["layout"]["characters"][0].clone();
    ok(act(
        &t,
        game,
        None,
        json!({"type": "place_intuition", "psychic": 2, "card": card}),
    )
    .await)
    .await;
    let (status, _) = error_of(
        act(
            &t,
            game,
            Some(&alex),
            json!({"type": "place_token", "by": 0, "on": 2, "face": "agree"}),
        )
        .await,
    )
    .await;
    assert_eq!(
        status,
        StatusCode::FORBIDDEN,
        "Alex's phone cannot place Stephanie's token"
    );
    ok(act(
        &t,
        game,
        Some(&alex),
        json!({"type": "place_token", "by": 1, "on": 2, "face": "agree"}),
    )
    .await)
    .await;
    let (status, _) = error_of(
        act(
            &t,
            game,
            Some(&ghost),
            json!({"type": "place_intuition", "psychic": 0, "card": 1}),
        )
        .await,
    )
    .await;
    assert_eq!(
        status,
        StatusCode::FORBIDDEN,
        "the ghost does not move pawns"
    );
    ok(act(&t, game, Some(&ghost), json!({"type": "use_crow"})).await).await;
    // A screen that acts on what it saw before, when what it acts on changed meanwhile (the
    // crow the ghost used), is refused saying so, and its log tells what changed meanwhile,
    // and who did it.
    let stale = t
        .api(Method::POST, &format!("/mysterium/{game}/commands"))
        .json(&json!({"version": 4, "command": {"type": "use_crow"}}))
        .sent()
        .await;
    refused_as(
        stale,
        StatusCode::CONFLICT,
        seance_rules::refusals::CROW_MEANWHILE,
    )
    .await;
    let seen: Value = look(&t, game, "table", None).await.json().await.unwrap();
    let since: Vec<Value> = seen["log"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c["version"].as_u64().unwrap() > 4)
        .map(|c| json!([c["by"], c["told"][0]["type"]]))
        .collect();
    assert_eq!(
        since,
        [
            json!(["table", "intuition_placed"]),
            json!([{"psychic": 1}, "token_placed"]),
            json!(["ghost", "crow_used"])
        ]
    );
    // The table still enters what is public, for anyone.
    ok(act(
        &t,
        game,
        None,
        json!({"type": "place_token", "by": 3, "on": 2, "face": "disagree"}),
    )
    .await)
    .await;
    // But not what a phone keeps secret.
    refused_as(
        act(
            &t,
            game,
            None,
            json!({"type": "choose_culprit", "group": 1}),
        )
        .await,
        StatusCode::FORBIDDEN,
        seance_rules::refusals::CULPRIT_ON_PHONE,
    )
    .await;
    let undo = |token: &str| {
        t.joined(Method::POST, &format!("/mysterium/{game}/undo"))
            .header("X-Seat", token.to_owned())
            .json(&json!({"version": 7}))
            .send()
    };
    assert_eq!(undo(&alex).await.unwrap().status(), StatusCode::FORBIDDEN);
    // The ghost's phone undoes the last change: Alex's phone is told who undid what.
    let seen = |token: String, role: &'static str| {
        let t = &t;
        async move {
            let view: Value = look(t, game, role, Some(&token))
                .await
                .json()
                .await
                .unwrap();
            view
        }
    };
    let before = seen(alex.clone(), "psychic:1").await;
    let done = before["log"].as_array().unwrap().last().unwrap().clone();
    let now = before["version"].as_u64().unwrap();
    let undone = t
        .joined(Method::POST, &format!("/mysterium/{game}/undo"))
        .header("X-Seat", ghost.clone())
        .json(&json!({"version": now}))
        .sent()
        .await;
    assert_eq!(undone.status(), StatusCode::OK);
    let after = seen(alex.clone(), "psychic:1").await;
    let last = after["log"].as_array().unwrap().last().unwrap().clone();
    assert_eq!(
        last,
        json!({"version": now + 1, "change": "undone", "by": "ghost", "told": done["told"], "undid": done["version"]})
    );

    let mut table_screen = t
        .socket_with(&format!("&mysterium={game}&role=table"))
        .await;
    let knock = |token: Option<&str>, times: u8| {
        support::from(&t, token, Method::POST, &format!("/mysterium/{game}/knock"))
            .json(&json!({"times": times}))
            .send()
    };
    assert_eq!(
        knock(Some(&ghost), 2).await.unwrap().status(),
        StatusCode::NO_CONTENT
    );
    let heard = loop {
        let m = next_json(&mut table_screen).await;
        if m["type"] == "knock" {
            break m;
        }
    };
    assert_eq!(heard, json!({"type": "knock", "game": game, "times": 2}));
    assert_eq!(
        knock(Some(&alex), 1).await.unwrap().status(),
        StatusCode::FORBIDDEN
    );
    assert_eq!(
        knock(None, 3).await.unwrap().status(),
        StatusCode::UNPROCESSABLE_ENTITY
    );
}

#[tokio::test]
async fn asking_for_seats_over_and_over_is_slowed_down() {
    let t = table().await;
    let game = classic_for_four(&t, 3).await;
    let mut statuses = Vec::new();
    for _ in 0..22 {
        statuses.push(seat(&t, game, "psychic:0").await.status());
    }
    assert_eq!(statuses[0], StatusCode::CREATED);
    assert_eq!(statuses[1], StatusCode::CONFLICT);
    assert_eq!(statuses.last(), Some(&StatusCode::TOO_MANY_REQUESTS));
}

#[tokio::test]
async fn a_phone_retrying_with_a_freed_seat_is_not_locked_out_but_a_guessed_token_is() {
    let t = table().await;
    let game = classic_for_four(&t, 3).await;
    let ghost = take(&t, game, "ghost").await;
    free_ghost(&t, game).await;
    // A phone that slept through its seat being freed retries, and is told so each time.
    for _ in 0..30 {
        refused_as(
            look(&t, game, "ghost", Some(&ghost)).await,
            StatusCode::FORBIDDEN,
            seance_server::refusals::SEAT_FREED,
        )
        .await;
    }
    assert_eq!(
        look(&t, game, "table", None).await.status(),
        StatusCode::OK,
        "the same address is still served"
    );
    // A token that never held a seat is a guess: guessing is slowed down.
    let guessed = "0".repeat(32);
    let mut statuses = Vec::new();
    for _ in 0..22 {
        statuses.push(look(&t, game, "ghost", Some(&guessed)).await.status());
    }
    assert_eq!(statuses[0], StatusCode::FORBIDDEN);
    assert_eq!(statuses.last(), Some(&StatusCode::TOO_MANY_REQUESTS));
}

/// The table frees the ghost's seat.
async fn free_ghost(t: &Table, game: i64) {
    let freed = t
        .api(Method::DELETE, &format!("/mysterium/{game}/seats/ghost"))
        .sent()
        .await;
    assert_eq!(freed.status(), StatusCode::NO_CONTENT);
}

/// Keeps every text message `socket` receives.
/// A 5-player game with every seat on a phone: its number, the ghost's token and the
/// psychics'.
async fn seated(t: &Table) -> (i64, String, Vec<String>) {
    let game = classic_for_four(t, 21).await;
    let ghost = take(t, game, "ghost").await;
    let mut psychics = Vec::new();
    for i in 0..4 {
        psychics.push(take(t, game, &format!("psychic:{i}")).await);
    }
    (game, ghost, psychics)
}

/// Whether a socket [`record`]ed has heard a view of `version` or later.
fn heard_of(heard: &Mutex<Vec<String>>, version: u64) -> bool {
    heard.lock().unwrap().iter().any(|text| {
        serde_json::from_str::<Value>(text).unwrap()["snapshot"]["version"]
            .as_u64()
            .is_some_and(|v| v >= version)
    })
}

fn record(mut socket: Socket) -> Arc<Mutex<Vec<String>>> {
    let kept = Arc::new(Mutex::new(Vec::new()));
    let store = kept.clone();
    tokio::spawn(async move {
        while let Some(Ok(message)) = socket.next().await {
            // What a page only hears to know its link stands carries nothing to keep.
            if let Message::Text(text) = message
                && text.as_str() != "beat"
            {
                store.lock().unwrap().push(text.to_string());
            }
        }
    });
    kept
}

/// Plays a whole game: every psychic right from hour `from_hour` on (wrong before), then,
/// if all finish, a straw poll where each votes `votes[i]` on their phone, up to the count
/// the table reads out ([`read_count`]).
async fn whole_game(
    t: &Table,
    game: i64,
    ghost: &str,
    psychics: &[String],
    wrong_turns: usize,
    votes: [u8; 4],
) {
    let secrets: Value = look(t, game, "ghost", Some(ghost))
        .await
        .json()
        .await
        .unwrap();
    let secrets = secrets["view"]["assignments"].clone();
    for turn in 0.. {
        let now: Value = look(t, game, "table", None).await.json().await.unwrap();
        let view = &now["view"];
        if view["phase"] != "visions" {
            break;
        }
        for (i, p) in view["psychics"].as_array().unwrap().iter().enumerate() {
            if p["seeking"].is_null() {
                continue;
            }
            ok(act(
                t,
                game,
                Some(ghost),
                json!({"type": "give_vision", "psychic": i}),
            )
            .await)
            .await;
            let card = if turn < wrong_turns {
                offered(t, game, i, &psychics[i], "cards")
                    .await
                    .iter()
                    .find(|c| **c != secrets[i][p["found"].as_array().unwrap().len()])
                    .unwrap()
                    .clone()
            } else {
                secrets[i][p["found"].as_array().unwrap().len()].clone()
            };
            ok(act(
                t,
                game,
                Some(&psychics[i]),
                json!({"type": "place_intuition", "psychic": i, "card": card}),
            )
            .await)
            .await;
        }
        if turn == 0 {
            ok(act(
                t,
                game,
                Some(&psychics[1]),
                json!({"type": "place_token", "by": 1, "on": 0, "face": "agree"}),
            )
            .await)
            .await;
        }
        ok(act(t, game, Some(ghost), json!({"type": "end_interpretation"})).await).await;
        for i in 0..4 {
            let _ = act(
                t,
                game,
                Some(ghost),
                json!({"type": "manifest", "psychic": i}),
            )
            .await;
        }
    }
    let now: Value = look(t, game, "table", None).await.json().await.unwrap();
    if now["view"]["phase"] != "revelation" {
        return;
    }
    ok(act(
        t,
        game,
        Some(ghost),
        json!({"type": "choose_culprit", "group": 2}),
    )
    .await)
    .await;
    for _ in 0..3 {
        ok(act(t, game, None, json!({"type": "reveal_vision_card"})).await).await;
        let now: Value = look(t, game, "table", None).await.json().await.unwrap();
        for i in 0..now["view"]["psychics"].as_array().unwrap().len() {
            if !offered(t, game, i, &psychics[i], "groups").await.is_empty() {
                ok(act(
                    t,
                    game,
                    Some(&psychics[i]),
                    json!({"type": "vote", "psychic": i, "group": votes[i]}),
                )
                .await)
                .await;
            }
        }
        let now: Value = look(t, game, "table", None).await.json().await.unwrap();
        if now["view"]["counting"] == true {
            return;
        }
    }
}

/// The table reads the count out a line at a time, as its screen does, to its end.
async fn read_count(t: &Table, game: i64) {
    while let Some(lines) = next_line(t, game).await {
        ok(act(t, game, None, json!({"type": "show_count", "lines": lines})).await).await;
    }
}

/// The count's next line the table may show, if any is left.
async fn next_line(t: &Table, game: i64) -> Option<u64> {
    let now: Value = look(t, game, "table", None).await.json().await.unwrap();
    now["allowed"]
        .as_array()
        .unwrap()
        .iter()
        .find(|a| a["type"] == "show_count")
        .map(|a| a["lines"][0].as_u64().unwrap())
}

/// Whether `answer` tells how the game ended anywhere in it: an outcome, a chosen group, the
/// culprit's group, a won or lost status, the end in a log.
fn tells_the_end(answer: &Value) -> bool {
    match answer {
        Value::Object(fields) => fields.iter().any(|(key, value)| {
            let told = match key.as_str() {
                "outcome" | "chosen" | "won" | "culprit" => !value.is_null(),
                "status" => value == "won" || value == "lost",
                "type" => ["ended", "culprit_chosen", "culprit_drawn"]
                    .contains(&value.as_str().unwrap_or_default()),
                _ => false,
            };
            told || tells_the_end(value)
        }),
        Value::Array(items) => items.iter().any(tells_the_end),
        _ => false,
    }
}

/// Nothing is told before its time: between the last vote and the count's last line on
/// the table, no answer to a phone or a watcher (views, logs, the games list, history,
/// statistics, BG Stats, the sockets) tells how the game ended.
#[tokio::test]
async fn no_device_learns_the_end_before_the_table_has_read_the_count() {
    let t = table().await;
    let (game, ghost, psychics) = seated(&t).await;
    let heard = [
        record(
            t.socket_with(&format!("&mysterium={game}&role=table"))
                .await,
        ),
        record(
            t.phone_socket(&format!("&mysterium={game}&role=ghost&seat={ghost}"))
                .await,
        ),
        record(
            t.phone_socket(&format!(
                "&mysterium={game}&role=psychic:0&seat={}",
                psychics[0]
            ))
            .await,
        ),
    ];
    whole_game(&t, game, &ghost, &psychics, 0, [2, 3, 2, 2]).await;
    let mut lines = 0;
    while let Some(next) = next_line(&t, game).await {
        let devices = [
            (Some(ghost.as_str()), "ghost"),
            (Some(psychics[0].as_str()), "psychic:0"),
            (None, "table"),
        ];
        for (token, role) in devices {
            let asked = match token {
                Some(token) => look(&t, game, role, Some(token)).await,
                None => {
                    t.joined(Method::GET, &format!("/mysterium/{game}?role=table"))
                        .sent()
                        .await
                }
            };
            let answer: Value = asked.json().await.unwrap();
            assert!(
                !tells_the_end(&answer),
                "{role} after {lines} lines: {answer}"
            );
            let count = &answer["view"]["count"];
            let seen = count["ballots"].as_array().unwrap().len()
                + count["steps"].as_array().unwrap().len();
            assert_eq!(seen, lines, "{role} saw lines the table has not shown");
        }
        for path in ["/games", "/history", "/statistics"] {
            let answer = support::joined_json(&t, path).await;
            assert!(!tells_the_end(&answer), "{path}: {answer}");
        }
        let bgstats = t
            .joined(Method::GET, &format!("/mysterium/{game}/bgstats"))
            .sent()
            .await;
        assert_eq!(
            error_of(bgstats).await.1.code,
            seance_server::refusals::NOT_OVER
        );
        let short = support::opened(&t, &format!("/p/{game}?code={}", t.code)).await;
        assert_eq!(
            error_of(short).await.1.code,
            seance_server::refusals::NOT_OVER
        );
        for (device, messages) in heard.iter().enumerate() {
            let messages = messages.lock().unwrap();
            let counted = messages
                .iter()
                .skip_while(|text| !text.contains("\"counting\":true"));
            for text in counted {
                let message: Value = serde_json::from_str(text).unwrap();
                assert!(!tells_the_end(&message), "device {device} heard {text}");
            }
        }
        // The table reads the next line out: no other screen hears of it before the table
        // says it has shown it, and every one does once it has.
        let read: Value = act(&t, game, None, json!({"type": "show_count", "lines": next}))
            .await
            .json()
            .await
            .unwrap();
        assert_eq!(read["held"], true, "{read}");
        let version = read["version"].as_u64().unwrap();
        let reached = |device: usize| heard_of(&heard[device], version);
        tokio::time::sleep(Duration::from_millis(200)).await;
        assert!(
            !(0..heard.len()).any(reached),
            "heard before the table showed it"
        );
        let shown = t
            .api(Method::POST, &format!("/mysterium/{game}/shown"))
            .json(&json!({ "version": version }))
            .sent()
            .await;
        assert_eq!(shown.status(), StatusCode::NO_CONTENT);
        let told = Instant::now();
        while !(0..heard.len()).all(reached) {
            assert!(
                told.elapsed() < Duration::from_millis(500),
                "not told once shown"
            );
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
        lines = next as usize;
    }
    // The last line tells everyone at once; each device heard the count as it was read.
    tokio::time::sleep(Duration::from_millis(300)).await;
    for messages in &heard {
        let read = messages
            .lock()
            .unwrap()
            .iter()
            .filter(|m| m.contains("\"counting\":true"))
            .count();
        assert!(
            read >= lines,
            "{read} snapshots during a count of {lines} lines"
        );
        let last: Value = serde_json::from_str(messages.lock().unwrap().last().unwrap()).unwrap();
        assert_eq!(last["snapshot"]["view"]["outcome"], "won", "{last}");
    }
}

/// A table screen that never says it has shown a line (asleep, or gone) holds the other
/// screens back a second at most.
#[tokio::test]
async fn a_line_the_table_never_confirms_reaches_the_others_within_a_second() {
    let t = table().await;
    let (game, ghost, psychics) = seated(&t).await;
    let heard = record(
        t.phone_socket(&format!(
            "&mysterium={game}&role=psychic:0&seat={}",
            psychics[0]
        ))
        .await,
    );
    whole_game(&t, game, &ghost, &psychics, 0, [2, 3, 2, 2]).await;
    let next = next_line(&t, game).await.unwrap();
    let read: Value = act(&t, game, None, json!({"type": "show_count", "lines": next}))
        .await
        .json()
        .await
        .unwrap();
    let version = read["version"].as_u64().unwrap();
    let sent = Instant::now();
    while !heard_of(&heard, version) {
        assert!(sent.elapsed() < Duration::from_millis(1500), "never told");
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    let waited = sent.elapsed();
    assert!(
        waited >= Duration::from_millis(900),
        "told after {waited:?}, before the hold ended"
    );
}

#[tokio::test]
async fn no_secret_reaches_a_device_that_may_not_see_it() {
    let t = table().await;
    let mut checked = 0;
    // One game won with a split vote, one lost on time.
    for (seed, wrong_turns, votes) in [(21, 0, [2, 3, 2, 2]), (22, 7, [1, 1, 1, 1])] {
        let game = classic_for_four(&t, seed).await;
        let ghost = take(&t, game, "ghost").await;
        let mut psychics = Vec::new();
        let mut heard = Vec::new();
        for i in 0..4 {
            let token = take(&t, game, &format!("psychic:{i}")).await;
            heard.push((
                Some(i),
                true,
                record(
                    t.phone_socket(&format!("&mysterium={game}&role=psychic:{i}&seat={token}"))
                        .await,
                ),
            ));
            psychics.push(token);
        }
        heard.push((
            None,
            true,
            record(
                t.socket_with(&format!("&mysterium={game}&role=table"))
                    .await,
            ),
        ));
        heard.push((None, false, record(t.socket().await)));
        let ghost_heard = record(
            t.phone_socket(&format!("&mysterium={game}&role=ghost&seat={ghost}"))
                .await,
        );
        whole_game(&t, game, &ghost, &psychics, wrong_turns, votes).await;
        read_count(&t, game).await;
        tokio::time::sleep(Duration::from_millis(300)).await;

        let ended: Value = look(&t, game, "table", None).await.json().await.unwrap();
        assert_eq!(ended["view"]["phase"], "ended");
        let secrets = &ended["view"]["assignments"];
        for (me, follows_game, messages) in heard {
            let messages = messages.lock().unwrap();
            assert!(
                messages.len() > if follows_game { 20 } else { 0 },
                "the device heard the game"
            );
            for text in messages.iter() {
                let message: Value = serde_json::from_str(text).unwrap();
                let Some(view) = message.get("snapshot").map(|s| &s["view"]) else {
                    assert!(
                        !text.contains("assignments") && !text.contains("culprit"),
                        "{text}"
                    );
                    continue;
                };
                checked += 1;
                if view["phase"] == "ended" {
                    continue;
                }
                assert!(
                    view["assignments"].is_null(),
                    "secrets sent to {me:?}: {text}"
                );
                assert!(view["culprit"].is_null(), "the culprit sent to {me:?}");
                assert!(!text.contains(&secrets.to_string()));
                if view["count"].is_null() {
                    let own = me.map(|i| view["psychics"][i]["voted"] == true);
                    match own {
                        Some(true) => {
                            assert!(view["my_vote"].is_u64(), "a psychic sees their own vote")
                        }
                        _ => assert!(
                            view["my_vote"].is_null(),
                            "{me:?} saw a vote not theirs: {text}"
                        ),
                    }
                }
            }
        }
        // The same recording does carry the secrets to the ghost: the check can see them.
        let ghost_heard = ghost_heard.lock().unwrap();
        assert!(ghost_heard.iter().any(|m| m.contains(&secrets.to_string())));
    }
    assert!(checked > 200, "{checked} views checked");
}

/// Each phone keeps its seat as the table confirms it: Paul's is left behind.
#[tokio::test]
async fn a_rematch_keeps_each_phone_the_table_keeps_its_seat_and_draws_anew() {
    let t = table().await;
    let game = classic_for_four(&t, 23).await;
    let ghost = take(&t, game, "ghost").await;
    let mut psychics = Vec::new();
    for i in 0..4 {
        psychics.push(take(&t, game, &format!("psychic:{i}")).await);
    }
    let rematch = |token: Option<&str>| {
        support::from(
            &t,
            token,
            Method::POST,
            &format!("/mysterium/{game}/rematch"),
        )
        .json(&json!({"keep": ["ghost", "psychic:0", "psychic:1", "psychic:2", "table"]}))
        .send()
    };

    // Only the table, and only once the game is over.
    let (status, refused) = error_of(rematch(None).await.unwrap()).await;
    assert_eq!(
        (status, refused.code.as_str()),
        (
            StatusCode::FORBIDDEN,
            seance_timeline::refusals::REMATCH_IN_PLAY
        )
    );
    let (status, _) = error_of(rematch(Some(&ghost)).await.unwrap()).await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    let (status, _) = error_of(
        t.joined(Method::POST, &format!("/mysterium/{game}/rematch"))
            .sent()
            .await,
    )
    .await;
    assert_eq!(status, StatusCode::FORBIDDEN);

    let mut phone = t
        .phone_socket(&format!(
            "&mysterium={game}&role=psychic:1&seat={}",
            psychics[1]
        ))
        .await;
    whole_game(&t, game, &ghost, &psychics, 0, [1, 1, 1, 1]).await;
    read_count(&t, game).await;
    let before: Value = look(&t, game, "table", None).await.json().await.unwrap();
    assert_eq!(before["view"]["phase"], "ended");
    assert!(
        before["allowed"]
            .as_array()
            .unwrap()
            .iter()
            .any(|a| a["type"] == "rematch")
    );
    assert!(before["rematch"].is_null());

    // Sent to BG Stats: the ghost and the psychics, by their roles, won or lost together.
    let sent = support::joined_json(&t, &format!("/mysterium/{game}/bgstats")).await;
    let play = support::bgstats_play(sent["url"].as_str().unwrap());
    assert_eq!(play["game"]["bggId"], 181_304);
    assert_eq!(play["game"]["cooperative"], true);
    let won = before["view"]["outcome"] == "won";
    let roles: Vec<(&str, &str, bool)> = play["players"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            (
                p["name"].as_str().unwrap(),
                p["role"].as_str().unwrap(),
                p["winner"].as_bool().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        roles,
        [
            ("Laura", "ghost", won),
            ("Stephanie", "psychic", won),
            ("Alex", "psychic", won),
            ("Carl", "psychic", won),
            ("Paul", "psychic", won)
        ]
    );

    // Two taps, or two table screens, make one game.
    let made: Value = rematch(None).await.unwrap().json().await.unwrap();
    let next = made["id"].as_i64().unwrap();
    assert_ne!(next, game);
    let again: Value = rematch(None).await.unwrap().json().await.unwrap();
    assert_eq!(again["id"], next);

    // The phone hears where its game went on.
    let heard = loop {
        let message = next_json(&mut phone).await;
        if message["type"] == "view" && !message["snapshot"]["rematch"].is_null() {
            break message;
        }
    };
    assert_eq!(heard["snapshot"]["rematch"], next);

    // The same players, colours and seats; new draws; the game from its start.
    let after: Value = look(&t, next, "table", None).await.json().await.unwrap();
    assert_eq!(after["version"], 0);
    assert_eq!(after["view"]["phase"], "visions");
    let seating = |v: &Value| {
        v["view"]["psychics"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| (p["name"].clone(), p["colour"].clone()))
            .collect::<Vec<_>>()
    };
    assert_eq!(seating(&after), seating(&before));
    assert_ne!(
        after["view"]["layout"], before["view"]["layout"],
        "new cards are laid out"
    );
    let mut seats = after["seats"].as_array().unwrap().clone();
    seats.sort_by_key(|s| s.as_str().unwrap().to_owned());
    assert_eq!(seats, ["ghost", "psychic:0", "psychic:1", "psychic:2"]);
    for (i, token) in psychics.iter().enumerate() {
        let own = look(&t, next, &format!("psychic:{i}"), Some(token)).await;
        let kept = if i < 3 {
            StatusCode::OK
        } else {
            StatusCode::FORBIDDEN
        };
        assert_eq!(own.status(), kept, "psychic {i}");
        let other = look(&t, next, &format!("psychic:{}", (i + 1) % 4), Some(token)).await;
        assert_eq!(other.status(), StatusCode::FORBIDDEN);
    }
    let secrets = look(&t, next, "ghost", Some(&ghost)).await;
    assert_eq!(secrets.status(), StatusCode::OK);

    // Kept across a restart: the old game still leads on to the new one.
    let t = support::restart(t).await;
    let old: Value = look(&t, game, "table", None).await.json().await.unwrap();
    assert_eq!(old["rematch"], next);
    let own = look(&t, next, "psychic:1", Some(&psychics[1])).await;
    assert_eq!(own.status(), StatusCode::OK);
}

/// A live invitation opens its seat from any address, one that guessed before included (a
/// phone sharing the Wi-Fi's address with a guesser); the guesses themselves are slowed.
#[tokio::test]
async fn a_live_invitation_is_honoured_from_an_address_that_guessed() {
    let t = table().await;
    let game = classic_for_four(&t, 1).await;
    let with = |invitation: &str| {
        t.joined(Method::POST, &format!("/mysterium/{game}/seats"))
            .json(&json!({"seat": "ghost", "invitation": invitation}))
    };
    let mut statuses = Vec::new();
    for guess in 0..21 {
        let guessed = format!("{guess:032x}");
        statuses.push(with(&guessed).sent().await.status());
    }
    assert!(
        statuses[..20].iter().all(|s| *s == StatusCode::FORBIDDEN),
        "{statuses:?}"
    );
    refused_as(
        with(&"e".repeat(32)).sent().await,
        StatusCode::TOO_MANY_REQUESTS,
        seance_server::refusals::WRONG_CODES_WAIT,
    )
    .await;
    let invited = support::json_of(t.api(
        Method::POST,
        &format!("/mysterium/{game}/seats/ghost/invitation"),
    ))
    .await;
    let invitation = invited["link"]
        .as_str()
        .unwrap()
        .rsplit('/')
        .next()
        .unwrap();
    let taken = with(invitation).sent().await;
    assert_eq!(
        taken.status(),
        StatusCode::CREATED,
        "the invitation is honoured"
    );
    let seen: Value = look(&t, game, "table", None).await.json().await.unwrap();
    assert_eq!(seen["seats"], json!(["ghost"]));
}

/// Alex's phone placing a token on Carl's card and taking it back, again and again: each
/// send is one change, made or refused for its pace.
struct Flood {
    game: i64,
    alex: String,
    placed: bool,
}

impl Flood {
    /// A game of four with Carl's card down, and Alex's phone ready to flood it.
    async fn begin(t: &Table) -> (Flood, String, Value) {
        let game = classic_for_four(t, 2).await;
        let ghost = take(t, game, "ghost").await;
        let alex = take(t, game, "psychic:1").await;
        for i in 0..4 {
            let vision = json!({"type": "give_vision", "psychic": i});
            ok(act(t, game, Some(&ghost), vision).await).await;
        }
        let view: Value = look(t, game, "table", None).await.json().await.unwrap();
        let card = view["view"]["layout"]["characters"][0].clone();
        let carl = json!({"type": "place_intuition", "psychic": 2, "card": card});
        ok(act(t, game, None, carl).await).await;
        let flood = Flood {
            game,
            alex,
            placed: false,
        };
        (flood, ghost, view)
    }

    /// Sends `n` changes as fast as it can: how many were made (the others were refused
    /// for the pace, with a second to wait).
    async fn send(&mut self, t: &Table, n: usize) -> usize {
        let mut made = 0;
        for k in 0..n {
            let change = if self.placed {
                json!({"type": "withdraw_token", "by": 1, "on": 2})
            } else {
                json!({"type": "place_token", "by": 1, "on": 2, "face": "agree"})
            };
            let answer = act(t, self.game, Some(&self.alex), change).await;
            if answer.status() == StatusCode::OK {
                self.placed = !self.placed;
                made += 1;
            } else {
                let (status, why) = error_of(answer).await;
                assert_eq!(status, StatusCode::TOO_MANY_REQUESTS, "{k}: {why}");
                assert_eq!(why.code, seance_timeline::refusals::TOO_FAST, "{why}");
                assert_eq!(why.params, json!({"seconds": 1}), "{why}");
            }
        }
        made
    }
}

/// A phone that sends changes as fast as it can (a token placed and taken back, again and
/// again) gets a whole game's worth of them, then is refused with the seconds to wait:
/// the journal grows no faster than one change a second. Knocks, which every screen
/// plays, go one a second.
#[tokio::test]
async fn a_phone_flooding_changes_is_held_to_a_persons_pace() {
    let t = table().await;
    let (mut flood, ghost, view) = Flood::begin(&t).await;
    let game = flood.game;
    let card = view["view"]["layout"]["characters"][0].clone();
    flood.send(&t, 120).await;
    let now: Value = look(&t, game, "table", None).await.json().await.unwrap();
    let made = now["version"].as_u64().unwrap() - view["version"].as_u64().unwrap() - 1;
    eprintln!("120 changes sent at once: {made} made");
    // The burst, and one more for each second the sending took.
    assert!((100..=103).contains(&made), "{made} changes made");
    // The table, whose key is the host's, is not held to a phone's pace; and the phone is
    // let through again once it waits.
    ok(act(
        &t,
        game,
        None,
        json!({"type": "place_intuition", "psychic": 3, "card": card}),
    )
    .await)
    .await;
    tokio::time::sleep(Duration::from_millis(1100)).await;
    assert_eq!(flood.send(&t, 1).await, 1, "let through after a second");

    // The sand timer, which the ghost's phone runs, is journaled at the same pace.
    let timer = |action: &str| {
        support::from(
            &t,
            Some(&ghost),
            Method::POST,
            &format!("/mysterium/{game}/timer"),
        )
        .json(&json!({ "action": action }))
        .send()
    };
    let mut paused = 0;
    for k in 0..120 {
        let answer = timer(if k % 2 == 0 { "pause" } else { "resume" })
            .await
            .unwrap();
        if answer.status() == StatusCode::OK {
            paused += 1;
        } else {
            refused_as(
                answer,
                StatusCode::TOO_MANY_REQUESTS,
                seance_timeline::refusals::TOO_FAST,
            )
            .await;
            break;
        }
    }
    // The ghost's four visions came out of the same hundred.
    assert!((90..=100).contains(&paused), "{paused} timer changes made");

    let knock = |times: u8| {
        support::from(
            &t,
            Some(&ghost),
            Method::POST,
            &format!("/mysterium/{game}/knock"),
        )
        .json(&json!({ "times": times }))
        .send()
    };
    assert_eq!(knock(1).await.unwrap().status(), StatusCode::NO_CONTENT);
    refused_as(
        knock(2).await.unwrap(),
        StatusCode::TOO_MANY_REQUESTS,
        seance_timeline::refusals::TOO_FAST,
    )
    .await;
    tokio::time::sleep(Duration::from_millis(1100)).await;
    assert_eq!(knock(2).await.unwrap().status(), StatusCode::NO_CONTENT);
}

/// A phone's pace outlives its game's place in memory: 65 other games read with the join
/// code push its game out, and the phone, back in it, gets no new burst.
#[tokio::test]
async fn a_phones_pace_outlives_its_games_place_in_memory() {
    let t = table().await;
    let mut others = Vec::new();
    for seed in 0..65 {
        others.push(classic_for_four(&t, seed).await);
    }
    let (mut flood, _, _) = Flood::begin(&t).await;
    assert!(flood.send(&t, 110).await <= 103, "the burst is spent");
    // A game whose sand runs stays in memory: the table pauses it.
    let paused = t
        .api(Method::POST, &format!("/mysterium/{}/timer", flood.game))
        .json(&json!({"action": "pause"}))
        .sent()
        .await;
    assert_eq!(paused.status(), StatusCode::OK);
    let began = Instant::now();
    for other in others {
        let read = t
            .joined(Method::GET, &format!("/mysterium/{other}"))
            .sent()
            .await;
        assert_eq!(read.status(), StatusCode::OK);
    }
    let made = flood.send(&t, 20).await;
    let waited = began.elapsed().as_secs() as usize;
    assert!(
        made <= waited + 2,
        "{made} of 20 changes made {waited} s after the burst was spent"
    );
}
