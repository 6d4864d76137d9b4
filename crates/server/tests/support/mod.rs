//! Helpers for the server's tests: a server on loopback with its own data folder.
#![allow(dead_code)]

use std::time::Duration;

use futures_util::StreamExt;
use reqwest::StatusCode;
use seance_server::{Config, Server};
use serde_json::Value;
use tokio_tungstenite::tungstenite::Message;

pub type Socket =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

pub struct Table {
    pub server: Server,
    pub base: String,
    pub code: String,
    pub dir: tempfile::TempDir,
}

pub async fn table() -> Table {
    table_on(0).await
}

pub async fn table_on(port: u16) -> Table {
    let dir = tempfile::tempdir().unwrap();
    let server = Server::start(Config {
        data_dir: dir.path().to_owned(),
        port,
    })
    .await
    .unwrap();
    Table {
        base: format!("http://127.0.0.1:{}", server.port()),
        code: server.table_code().to_string(),
        server,
        dir,
    }
}

impl Table {
    pub fn get(&self, path: &str) -> reqwest::RequestBuilder {
        reqwest::Client::new().get(format!("{}{path}", self.base))
    }

    pub fn api(&self, method: reqwest::Method, path: &str) -> reqwest::RequestBuilder {
        reqwest::Client::new()
            .request(method, format!("{}/api{path}", self.base))
            .bearer_auth(&self.code)
    }

    pub async fn socket(&self) -> Socket {
        self.socket_with("").await
    }

    /// A socket with extra query parameters (`&game=1&role=ghost`).
    pub async fn socket_with(&self, extra: &str) -> Socket {
        let port = self.server.port();
        let url = format!("ws://127.0.0.1:{port}/api/ws?code={}{extra}", self.code);
        tokio_tungstenite::connect_async(url).await.unwrap().0
    }
}

pub async fn next_json<S>(socket: &mut S) -> Value
where
    S: StreamExt<Item = Result<Message, tokio_tungstenite::tungstenite::Error>> + Unpin,
{
    loop {
        let message = tokio::time::timeout(Duration::from_secs(5), socket.next())
            .await
            .expect("a message within 5 s")
            .expect("the socket is open")
            .unwrap();
        if let Message::Text(text) = message {
            return serde_json::from_str(&text).unwrap();
        }
    }
}

pub async fn error_of(response: reqwest::Response) -> (StatusCode, String) {
    let status = response.status();
    let body: Value = response.json().await.unwrap();
    (status, body["error"].as_str().unwrap().to_owned())
}

/// Asks for `seat` of game `game` under `/api/{base}` (`games`, `rummy`).
pub async fn ask_seat(t: &Table, base: &str, game: i64, seat: &str) -> reqwest::Response {
    t.api(reqwest::Method::POST, &format!("/{base}/{game}/seats"))
        .json(&serde_json::json!({ "seat": seat }))
        .send()
        .await
        .unwrap()
}

/// Takes `seat`, which must be free; returns its token.
pub async fn take_seat(t: &Table, base: &str, game: i64, seat: &str) -> String {
    let got = ask_seat(t, base, game, seat).await;
    assert_eq!(got.status(), StatusCode::CREATED);
    got.json::<Value>().await.unwrap()["token"]
        .as_str()
        .unwrap()
        .to_owned()
}

/// `role`'s snapshot of the game, as the device holding `token` (or the table) asks.
pub async fn look_as(
    t: &Table,
    base: &str,
    game: i64,
    role: &str,
    token: Option<&str>,
) -> reqwest::Response {
    let mut request = t.api(reqwest::Method::GET, &format!("/{base}/{game}?role={role}"));
    if let Some(token) = token {
        request = request.header("X-Seat", token);
    }
    request.send().await.unwrap()
}

/// Sends `command` on the game's current version, from the device holding `token`.
pub async fn act_as(
    t: &Table,
    base: &str,
    game: i64,
    token: Option<&str>,
    command: Value,
) -> reqwest::Response {
    let table: Value = look_as(t, base, game, "table", None)
        .await
        .json()
        .await
        .unwrap();
    let mut request = t
        .api(reqwest::Method::POST, &format!("/{base}/{game}/commands"))
        .json(&serde_json::json!({"version": table["version"], "command": command}));
    if let Some(token) = token {
        request = request.header("X-Seat", token);
    }
    request.send().await.unwrap()
}

/// Asserts that a request succeeded, saying why not.
pub async fn ok(response: reqwest::Response) {
    let status = response.status();
    assert!(
        status.is_success(),
        "{status}: {}",
        response.text().await.unwrap()
    );
}
