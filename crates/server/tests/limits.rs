//! Bad input over the real API: numbers past what the cards and boxes allow, names and
//! bodies too large, games that do not exist. Each is refused with what to do, changes
//! nothing, and the next request is still answered: no panic wedges the server.

mod support;

use reqwest::{Method, StatusCode};
use seance_server::refusals::{GAME_NUMBER, LIST_LIMIT, LIST_QUERY};
use serde_json::{Value, json};
use support::{Sent, Table, error_of, refused_as, table};

/// The table can still list its games, at once.
async fn still_answers(t: &Table) {
    let listed = tokio::time::timeout(
        std::time::Duration::from_secs(2),
        t.api(Method::GET, "/games").send(),
    )
    .await
    .expect("answered within 2 s")
    .unwrap();
    assert_eq!(listed.status(), StatusCode::OK);
}

fn classic(players: Value) -> Value {
    json!({"setup": {"ghost": "Laura", "difficulty": "easy", "secrets": "app_kept", "players": players}})
}

fn four() -> Value {
    json!([{"name": "Stephanie", "colours": ["red"]}, {"name": "Alex", "colours": ["blue"]},
           {"name": "Carl", "colours": ["green"]}])
}

#[tokio::test]
async fn numbers_no_card_allows_are_refused_and_the_scorepad_goes_on() {
    let t = table().await;
    let game = support::rummy_for_two(&t).await;
    // Once, each of these overflowed while a lock was held, and every rummy request hung.
    let druitt = json!([5, 0, 0, 0, 0, 0]);
    for (field, value) in [
        ("joker_cards", json!([255, 0, 0, 0, 0, 0])),
        ("jokers", json!([4_294_967_295u64, 0, 0, 0, 0, 0])),
        ("hand", json!(2_147_483_648u64)),
        ("victims_and_scenes", json!(2_147_483_648u64)),
        ("alibi", json!(4_294_967_295u64)),
        // Past what the field itself holds: told with the range, like the rules' bounds.
        ("joker_cards", json!([256, 0, 0, 0, 0, 0])),
        ("hand", json!(-5)),
        ("hand", json!(1e20)),
    ] {
        let mut ann = json!({"evidence": druitt});
        ann[field] = value.clone();
        let tally = json!({"ending": {"how": "last_card"}, "alibi": 0, "victims_in_play": 1, "players": [ann, {}]});
        let sent = json!({"version": 0, "command": {"type": "end_round", "tally": tally}});
        let answer = t
            .api(Method::POST, &format!("/rummy/{game}/commands"))
            .json(&sent)
            .sent()
            .await;
        let status = answer.status();
        let body: Value = answer.json().await.unwrap();
        assert_eq!(
            status,
            StatusCode::UNPROCESSABLE_ENTITY,
            "{field}: {value} {body}"
        );
        assert!(body["error"].as_str().is_some_and(|e| !e.is_empty()));
        still_answers(&t).await;
    }
    let seen: Value = support::table_json(&t, &format!("/rummy/{game}")).await;
    assert_eq!(seen["version"], 0, "nothing changed");
}

#[tokio::test]
async fn a_setup_past_the_box_is_refused_with_its_bounds() {
    let t = table().await;
    let create = |body: Value| t.api(Method::POST, "/mysterium").json(&body).send();
    let mut faces = classic(
        json!([{"name": "A", "colours": ["red"]}, {"name": "B", "colours": ["blue"]},
        {"name": "C", "colours": ["green"]}]),
    );
    faces["setup"]["token_faces"] = json!({"agree": 200, "disagree": 100});
    let (status, why) = error_of(create(faces).await.unwrap()).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{why}");
    assert!(
        why.code == seance_rules::refusals::TOKEN_FACES && why.params["tokens"] == 4,
        "{why}"
    );
    still_answers(&t).await;

    let mut long = four();
    long[1]["name"] = json!("A".repeat(41));
    refused_as(
        create(classic(long)).await.unwrap(),
        StatusCode::UNPROCESSABLE_ENTITY,
        seance_timeline::refusals::NAME_TOO_LONG,
    )
    .await;
    // Bounded as sent: 40 letters padded with spaces would be carried in every view.
    let mut padded = four();
    padded[1]["name"] = json!(format!("{}{}", "A".repeat(40), " ".repeat(60_000)));
    refused_as(
        create(classic(padded)).await.unwrap(),
        StatusCode::UNPROCESSABLE_ENTITY,
        seance_timeline::refusals::NAME_TOO_LONG,
    )
    .await;

    let mut old = four();
    old[0]["age"] = json!(200);
    let (status, why) = error_of(create(classic(old)).await.unwrap()).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(
        why.code == seance_rules::refusals::AGE && why.params["most"] == 120,
        "{why}"
    );

    // A 1.9 MB name is not even read: the body is larger than anything Séance sends.
    let mut huge = four();
    huge[0]["name"] = json!("x".repeat(1_900_000));
    let (status, why) = error_of(create(classic(huge)).await.unwrap()).await;
    assert_eq!(status, StatusCode::PAYLOAD_TOO_LARGE);
    assert!(
        why.code == seance_server::refusals::TOO_LARGE && why.params["most_kib"] == 64,
        "{why}"
    );
    still_answers(&t).await;
    let games: Value = support::table_json(&t, "/games").await;
    assert_eq!(games, json!([]), "no game was made");
}

#[tokio::test]
async fn only_a_game_that_exists_is_followed() {
    let t = table().await;
    for key in ["mysterium", "rummy"] {
        let refused = t
            .try_socket(&t.key, &format!("&{key}=999&role=table"))
            .await;
        assert!(refused.is_err(), "{key} 999 does not exist");
    }
    let (status, why) =
        error_of(t.api(Method::GET, "/mysterium/999?role=table").sent().await).await;
    assert_eq!(status, StatusCode::NOT_FOUND, "{why}");
    still_answers(&t).await;
}

#[tokio::test]
async fn a_path_whose_game_is_no_number_is_refused_in_words_of_its_own() {
    let t = table().await;
    // Each kind of endpoint that reads its game off the path: a view, a command, the
    // table's own, a seat, BG Stats' short link, the history's shelf.
    for (method, path) in [
        (Method::GET, "/mysterium/abc?role=table"),
        (Method::POST, "/mysterium/1e3/commands"),
        (Method::POST, "/rummy/-/archive"),
        (Method::DELETE, "/mysterium/x/seats/ghost"),
        (Method::GET, "/p/zz"),
        (Method::POST, "/history/99999999999999999999/shelf"),
    ] {
        refused_as(
            t.api(method, path).json(&json!({})).sent().await,
            StatusCode::BAD_REQUEST,
            GAME_NUMBER,
        )
        .await;
    }
    still_answers(&t).await;
}

#[tokio::test]
async fn a_list_of_games_is_a_page_within_its_bounds() {
    let t = table().await;
    for _ in 0..3 {
        support::rummy_for_two(&t).await;
    }
    let page: Value = support::table_json(&t, "/games?limit=2").await;
    let next: Value = support::table_json(&t, "/games?limit=2&offset=2").await;
    assert_eq!(page.as_array().unwrap().len(), 2);
    assert_eq!(next.as_array().unwrap().len(), 1);
    let playing: Value = support::table_json(&t, "/games?state=playing").await;
    assert_eq!(playing.as_array().unwrap().len(), 3);
    let finished: Value = support::table_json(&t, "/games?state=finished").await;
    assert_eq!(finished, json!([]));
    for (query, status, code) in [
        ("limit=0", StatusCode::UNPROCESSABLE_ENTITY, LIST_LIMIT),
        ("limit=201", StatusCode::UNPROCESSABLE_ENTITY, LIST_LIMIT),
        ("limit=-1", StatusCode::BAD_REQUEST, LIST_QUERY),
        ("state=ended", StatusCode::BAD_REQUEST, LIST_QUERY),
    ] {
        let (got, why) =
            error_of(t.api(Method::GET, &format!("/games?{query}")).sent().await).await;
        assert_eq!((got, why.code.as_str()), (status, code), "{query}: {why}");
    }
    still_answers(&t).await;
}

/// What the server logs, kept for a test to read.
#[derive(Clone, Default)]
struct Log(std::sync::Arc<std::sync::Mutex<Vec<u8>>>);

impl std::io::Write for Log {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(bytes);
        Ok(bytes.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// A `CONNECT` is refused before any route (a route's answer to one was logged as an
/// error, a line each), and refused requests are logged a line a minute per address: 300
/// of them write one line.
#[tokio::test]
async fn connects_are_refused_and_logged_a_line_a_minute() {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let log = Log::default();
    let writer = log.clone();
    // The test's runtime has one thread, so the server's tasks log here.
    let _logging = tracing::subscriber::set_default(
        tracing_subscriber::fmt()
            .with_ansi(false)
            .with_writer(move || writer.clone())
            .finish(),
    );
    let t = table().await;
    let port = t.server.port();
    for _ in 0..300 {
        let mut stream = tokio::net::TcpStream::connect(("127.0.0.1", port))
            .await
            .unwrap();
        let ask = format!("CONNECT 127.0.0.1:{port} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n");
        stream.write_all(ask.as_bytes()).await.unwrap();
        let mut answer = [0; 12];
        stream.read_exact(&mut answer).await.unwrap();
        assert_eq!(
            &answer, b"HTTP/1.1 405",
            "a CONNECT is no method of Séance's"
        );
    }
    still_answers(&t).await;
    let log = String::from_utf8(log.0.lock().unwrap().clone()).unwrap();
    let lines: Vec<&str> = log.lines().filter(|l| !l.contains("serving")).collect();
    assert!(
        lines.len() == 1 && lines[0].contains("method_not_served"),
        "300 CONNECTs logged as {lines:#?}"
    );
}
