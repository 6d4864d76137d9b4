//! The three kinds of device, attacked over the real HTTP API and WebSocket, one test per
//! way in: the join code alone (a watcher, as any phone that scanned the QR code), and each
//! seat's phone. In Mysterium classic, its new edition and Mystery Rummy, every table-only
//! request, every other seat's view and every other seat's command is refused with 403, and
//! nothing changes. The attacks that once read the solution are kept as regression tests.

mod support;

use reqwest::{Method, StatusCode};
use serde_json::{Value, json};
use support::{Sent, Table, error_of, table, take_seat};

/// A request from a device that scanned the QR code: the phone holding `token`, or a
/// watcher for `None`.
fn joined(t: &Table, token: Option<&str>, method: Method, path: &str) -> reqwest::RequestBuilder {
    match token {
        Some(token) => t.joined(method, path).header("X-Seat", token),
        None => t.joined(method, path),
    }
}

/// A game of one rule set: where it lives, its setup and its seats.
struct Kind {
    base: &'static str,
    setup: Value,
    seats: Vec<&'static str>,
}

fn classic() -> Kind {
    Kind {
        base: "mysterium",
        setup: json!({"ghost": "Laura", "difficulty": "easy", "secrets": "app_kept", "players": [
            {"name": "Stephanie", "colours": ["red"]}, {"name": "Alex", "colours": ["blue"]},
            {"name": "Carl", "colours": ["green"]}, {"name": "Paul", "colours": ["white"]}]}),
        seats: vec!["ghost", "psychic:0", "psychic:1", "psychic:2", "psychic:3"],
    }
}

fn new_edition() -> Kind {
    let sets = json!([{"name": "green", "cards": [1, 2, 3, 4, 5, 6, 7, 8]},
                      {"name": "red", "cards": [9, 10, 11, 12, 13, 14, 15, 16]}]);
    Kind {
        base: "mysterium",
        setup: json!({"edition": "new", "ghost": "Laura", "secrets": "app_kept",
            "card_box": {"characters": sets, "locations": sets, "objects": sets},
            "deal": {"kind": "mixed"},
            "players": [{"name": "Stephanie", "colours": ["red"]}, {"name": "Alex", "colours": ["blue"]},
                        {"name": "Carl", "colours": ["green"]}]}),
        seats: vec!["ghost", "psychic:0", "psychic:1", "psychic:2"],
    }
}

fn rummy() -> Kind {
    Kind {
        base: "rummy",
        setup: json!({"players": ["Ann", "Ben", "Cleo"]}),
        seats: vec!["player:0", "player:1", "player:2"],
    }
}

/// Commands that do not belong to `seat`: the ghost's acts, and another seat's.
fn others_commands(kind: &Kind, seat: Option<&str>) -> Vec<Value> {
    let n = kind.seats.len() - usize::from(kind.base == "mysterium");
    let me = seat
        .and_then(|s| s.rsplit(':').next())
        .and_then(|i| i.parse::<usize>().ok());
    let other = me.map_or(0, |i| (i + 1) % n);
    if kind.base == "rummy" {
        return vec![
            json!({"type": "vote", "player": other, "suspect": 0}),
            json!({"type": "call_vote", "by": other}),
            json!({"type": "end_round", "tally": {"ending": {"how": "last_card"},
                "players": [{}, {}, {}]}}),
        ];
    }
    let mut commands = vec![
        json!({"type": "place_intuition", "psychic": other, "card": 1}),
        json!({"type": "vote", "psychic": other, "group": 1}),
        json!({"type": "place_token", "by": other, "on": (other + 1) % n, "face": "agree"}),
    ];
    if seat != Some("ghost") {
        commands.extend([
            json!({"type": "give_vision", "psychic": 0}),
            json!({"type": "use_crow"}),
            json!({"type": "end_interpretation"}),
            json!({"type": "manifest", "psychic": 0}),
            json!({"type": "choose_culprit", "group": 1}),
        ]);
    }
    commands
}

async fn create(t: &Table, kind: &Kind) -> i64 {
    let made = t
        .api(Method::POST, &format!("/{}", kind.base))
        .json(&json!({"setup": kind.setup, "seed": 5}))
        .sent()
        .await;
    assert_eq!(made.status(), StatusCode::CREATED);
    made.json::<Value>().await.unwrap()["id"].as_i64().unwrap()
}

/// Everything a device could learn or change: the table's snapshot, the seats, the
/// settings, the list of games.
async fn everything(t: &Table, kind: &Kind, game: i64) -> Value {
    let get = |path: String| async move { support::table_json(t, &path).await };
    json!({
        "table": get(format!("/{}/{game}?role=table", kind.base)).await,
        "seats": get(format!("/{}/{game}/seats", kind.base)).await,
        "settings": get("/settings".into()).await,
        "games": get("/games".into()).await,
    })
}

/// Tries every table-only request as the phone holding `token` for seat `mine` (a watcher
/// for `None`); each must be refused with 403.
async fn table_only_requests_are_refused(
    t: &Table,
    kind: &Kind,
    game: i64,
    token: Option<&str>,
    mine: Option<&str>,
) {
    let base = kind.base;
    let phone = |method: Method, path: String, body: Value| {
        joined(t, token, method, &path).json(&body).send()
    };
    let attempts = [
        (
            Method::POST,
            "/mysterium".to_owned(),
            json!({"setup": classic().setup}),
        ),
        (
            Method::POST,
            "/rummy".to_owned(),
            json!({"setup": rummy().setup}),
        ),
        (
            Method::PUT,
            "/settings".to_owned(),
            json!({"language": "fr"}),
        ),
        (Method::POST, format!("/{base}/{game}/set-aside"), json!({})),
        // Only the table says what it has shown: a phone could let the count out early.
        (
            Method::POST,
            format!("/{base}/{game}/shown"),
            json!({"version": 1_000_000}),
        ),
        (
            Method::POST,
            format!("/{base}/{game}/archive"),
            json!({"archived": true}),
        ),
        (
            Method::DELETE,
            format!("/{base}/{game}/seats/{}", kind.seats[0]),
            json!({}),
        ),
        (
            Method::DELETE,
            format!("/{base}/{game}/seats/{}", kind.seats[1]),
            json!({}),
        ),
    ];
    for (method, path, body) in attempts {
        let response = phone(method.clone(), path.clone(), body).await.unwrap();
        let (status, why) = error_of(response).await;
        assert_eq!(
            status,
            StatusCode::FORBIDDEN,
            "{method} {path} as {token:?}: {why}"
        );
        assert!(why.code == seance_timeline::refusals::TABLE_ONLY, "{why}");
    }
    // Undo and redo, the sand timer and knocks: the table's, and the ghost's phone's.
    if mine == Some("ghost") {
        return;
    }
    let mut hosted = vec![
        (format!("/{base}/{game}/undo"), json!({"version": 0})),
        (format!("/{base}/{game}/redo"), json!({"version": 0})),
    ];
    if base == "mysterium" {
        hosted.push((
            format!("/mysterium/{game}/timer"),
            json!({"action": "pause"}),
        ));
        hosted.push((format!("/mysterium/{game}/knock"), json!({"times": 1})));
    }
    for (path, body) in hosted {
        let response = phone(Method::POST, path.clone(), body).await.unwrap();
        assert_eq!(
            response.status(),
            StatusCode::FORBIDDEN,
            "{path} as {token:?}"
        );
    }
}

/// Tries every seat's view but `mine`, by request and by socket, and every command that is
/// not `mine`'s; each must be refused.
async fn others_are_refused(
    t: &Table,
    kind: &Kind,
    game: i64,
    token: Option<&str>,
    mine: Option<&str>,
) {
    let base = kind.base;
    for seat in kind.seats.iter().filter(|&&s| Some(s) != mine) {
        let path = format!("/{base}/{game}?role={seat}");
        let (status, why) = error_of(joined(t, token, Method::GET, &path).sent().await).await;
        assert_eq!(
            status,
            StatusCode::FORBIDDEN,
            "{seat}'s view as {mine:?}: {why}"
        );
        let seat_token = token.map(|t| format!("&seat={t}")).unwrap_or_default();
        let socket = t
            .try_socket(&t.code, &format!("&{base}={game}&role={seat}{seat_token}"))
            .await;
        assert!(socket.is_err(), "{seat}'s view followed by {mine:?}");
    }
    let version = support::table_json(t, &format!("/{base}/{game}")).await["version"].clone();
    for command in others_commands(kind, mine) {
        let sent = json!({"version": version, "command": command});
        let response = joined(t, token, Method::POST, &format!("/{base}/{game}/commands"))
            .json(&sent)
            .sent()
            .await;
        let (status, why) = error_of(response).await;
        assert_eq!(
            status,
            StatusCode::FORBIDDEN,
            "{command} as {mine:?}: {why}"
        );
    }
}

async fn a_watcher_may_only_watch(kind: Kind) {
    let t = table().await;
    let game = create(&t, &kind).await;
    let before = everything(&t, &kind, game).await;
    table_only_requests_are_refused(&t, &kind, game, None, None).await;
    others_are_refused(&t, &kind, game, None, None).await;
    // The table's view is open to a watcher; nothing has changed.
    let path = format!("/{}/{game}?role=table", kind.base);
    let seen = t.joined(Method::GET, &path).sent().await;
    assert_eq!(seen.status(), StatusCode::OK);
    assert_eq!(everything(&t, &kind, game).await, before);
}

async fn a_phone_acts_and_sees_for_its_own_seat_only(kind: Kind) {
    let t = table().await;
    let game = create(&t, &kind).await;
    let tokens: Vec<String> = futures_util::future::join_all(
        kind.seats
            .iter()
            .map(|seat| take_seat(&t, kind.base, game, seat)),
    )
    .await;
    let before = everything(&t, &kind, game).await;
    for (seat, token) in kind.seats.iter().zip(&tokens) {
        table_only_requests_are_refused(&t, &kind, game, Some(token), Some(seat)).await;
        others_are_refused(&t, &kind, game, Some(token), Some(seat)).await;
        let own = joined(
            &t,
            Some(token),
            Method::GET,
            &format!("/{}/{game}?role={seat}", kind.base),
        );
        assert_eq!(own.sent().await.status(), StatusCode::OK, "{seat}");
    }
    assert_eq!(everything(&t, &kind, game).await, before);
}

/// Each check as a test in each game a table plays: `NAME::classic`, `NAME::new_edition`,
/// `NAME::rummy`.
macro_rules! in_each_game {
    ($($name:ident: $check:ident),* $(,)?) => {$(
        mod $name {
            #[tokio::test]
            async fn classic() {
                super::$check(super::classic()).await;
            }

            #[tokio::test]
            async fn new_edition() {
                super::$check(super::new_edition()).await;
            }

            #[tokio::test]
            async fn rummy() {
                super::$check(super::rummy()).await;
            }
        }
    )*};
}

in_each_game! {
    the_join_code_only_watches: a_watcher_may_only_watch,
    each_phone_keeps_to_its_seat: a_phone_acts_and_sees_for_its_own_seat_only,
}

/// Once, any phone could read the ghost's view (every psychic's cards: the solution) while
/// no phone held the ghost's seat. The table still may, for pass-and-play.
#[tokio::test]
async fn regression_a_phone_cannot_read_a_free_ghost_seat() {
    let t = table().await;
    let game = create(&t, &classic()).await;
    let ghost = format!("/mysterium/{game}?role=ghost");
    let (status, _) = error_of(t.joined(Method::GET, &ghost).sent().await).await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    let phone = take_seat(&t, "mysterium", game, "psychic:0").await;
    let (status, _) = error_of(joined(&t, Some(&phone), Method::GET, &ghost).sent().await).await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    let table_sees: Value = support::table_json(&t, &ghost).await;
    assert!(table_sees["view"]["assignments"].is_array());
}

/// Once, any phone could free the ghost's seat (disconnecting the real ghost) and take it;
/// in Mystery Rummy the same trick read a player's sealed vote.
#[tokio::test]
async fn regression_a_phone_cannot_free_a_seat_to_take_it() {
    let t = table().await;
    for kind in [classic(), rummy()] {
        let game = create(&t, &kind).await;
        let held = take_seat(&t, kind.base, game, kind.seats[0]).await;
        let seats = format!("/{}/{game}/seats", kind.base);
        let free = format!("{seats}/{}", kind.seats[0]);
        let (status, why) = error_of(t.joined(Method::DELETE, &free).sent().await).await;
        assert_eq!(status, StatusCode::FORBIDDEN, "{why}");
        let thief = take_seat(&t, kind.base, game, kind.seats[1]).await;
        let by_a_phone = t.joined(Method::DELETE, &free).header("X-Seat", &thief);
        assert_eq!(by_a_phone.sent().await.status(), StatusCode::FORBIDDEN);
        let taken: Value = support::table_json(&t, &seats).await;
        assert!(
            taken["taken"]
                .as_array()
                .unwrap()
                .contains(&json!(kind.seats[0]))
        );
        let own = joined(
            &t,
            Some(&held),
            Method::GET,
            &format!("/{}/{game}?role={}", kind.base, kind.seats[0]),
        );
        assert_eq!(
            own.sent().await.status(),
            StatusCode::OK,
            "the real holder keeps it"
        );
        // The table may free it.
        assert_eq!(
            t.api(Method::DELETE, &free).sent().await.status(),
            StatusCode::NO_CONTENT
        );
    }
}

/// Once, seats outlived their journal: with the journal moved away, new games started again
/// at number 1, and the old ghost's token opened the new game's ghost view.
#[tokio::test]
async fn regression_seats_belong_to_their_journal() {
    let t = table().await;
    let game = create(&t, &classic()).await;
    let ghost = take_seat(&t, "mysterium", game, "ghost").await;
    let t = support::restart_after(t, |dir| {
        for file in ["seance.sqlite3", "seance.sqlite3-wal", "seance.sqlite3-shm"] {
            let _ = std::fs::rename(dir.join(file), dir.join(format!("{file}.moved")));
        }
    })
    .await;
    let again = create(&t, &classic()).await;
    assert_eq!(again, game, "a new journal numbers its games from 1 again");
    let view = format!("/mysterium/{again}?role=ghost");
    let seen = joined(&t, Some(&ghost), Method::GET, &view).sent().await;
    assert_eq!(
        seen.status(),
        StatusCode::FORBIDDEN,
        "the old token opens nothing"
    );
    let seats = support::table_json(&t, &format!("/mysterium/{again}/seats")).await;
    assert_eq!(
        seats["taken"],
        json!([]),
        "every seat of the new journal is free"
    );
}

/// Once, a phone that left out its seat token was the table: it could place a pawn, end
/// the sand timer, have the ghost answer and undo, and so find a psychic's card in about
/// fifty requests. Now it only watches.
#[tokio::test]
async fn regression_leaving_out_the_seat_token_gives_no_power() {
    let t = table().await;
    let game = create(&t, &classic()).await;
    // Stephanie's phone holds her seat, and sends without its token.
    take_seat(&t, "mysterium", game, "psychic:0").await;
    let layout: Value = support::table_json(&t, &format!("/mysterium/{game}")).await;
    let card = layout["view"]["layout"]["characters"][0].clone();
    for command in [
        json!({"type": "give_vision", "psychic": 0}),
        json!({"type": "place_intuition", "psychic": 0, "card": card}),
        json!({"type": "end_interpretation"}),
        json!({"type": "manifest", "psychic": 0}),
    ] {
        let sent = json!({"version": 0, "command": command});
        let response = t
            .joined(Method::POST, &format!("/mysterium/{game}/commands"))
            .json(&sent)
            .sent()
            .await;
        let (status, why) = error_of(response).await;
        assert_eq!(status, StatusCode::FORBIDDEN, "{command}: {why}");
        assert!(why.code == seance_timeline::refusals::WATCHER, "{why}");
    }
    let undo = t
        .joined(Method::POST, &format!("/mysterium/{game}/undo"))
        .json(&json!({"version": 0}))
        .sent()
        .await;
    assert_eq!(undo.status(), StatusCode::FORBIDDEN);
}
