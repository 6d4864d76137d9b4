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

/// A request sent, and the server's answer to it (a test stops at a failure to send).
pub trait Sent {
    fn sent(self) -> impl std::future::Future<Output = reqwest::Response>;
}

impl Sent for reqwest::RequestBuilder {
    async fn sent(self) -> reqwest::Response {
        self.send().await.unwrap()
    }
}

pub struct Table {
    pub server: Server,
    pub base: String,
    /// The table key: the table's own powers.
    pub key: String,
    /// The join code, as on the QR code: a phone's or a watcher's.
    pub code: String,
    pub dir: tempfile::TempDir,
}

pub async fn table() -> Table {
    table_on(0).await
}

pub async fn table_on(port: u16) -> Table {
    serve(tempfile::tempdir().unwrap(), port).await
}

async fn serve(dir: tempfile::TempDir, port: u16) -> Table {
    let server = Server::start(Config {
        data_dir: dir.path().to_owned(),
        port,
    })
    .await
    .unwrap();
    Table {
        base: format!("http://127.0.0.1:{}", server.port()),
        key: server.record().key,
        code: server.join_code().to_string(),
        server,
        dir,
    }
}

/// A table on the data folder `dir`, as it is.
pub async fn serve_in(dir: tempfile::TempDir) -> Table {
    serve(dir, 0).await
}

/// Stops the server and starts it again on the same data folder.
pub async fn restart(t: Table) -> Table {
    restart_after(t, |_| {}).await
}

/// Stops the server, does `change` to its data folder, and starts it again there.
pub async fn restart_after(t: Table, change: impl FnOnce(&std::path::Path)) -> Table {
    let Table { server, dir, .. } = t;
    server.shutdown().await;
    change(dir.path());
    serve(dir, 0).await
}

/// A table started on a copy of `t`'s data folder taken while `t` runs, as a crash would
/// leave it: the journal and its write-ahead log as they are on disk (the shared-memory
/// index is rebuilt, as after a reboot).
pub async fn crash_copy(t: &Table) -> Table {
    let copy = tempfile::tempdir().unwrap();
    for file in std::fs::read_dir(t.dir.path()).unwrap() {
        let file = file.unwrap();
        if !file.file_name().to_string_lossy().ends_with("-shm") {
            std::fs::copy(file.path(), copy.path().join(file.file_name())).unwrap();
        }
    }
    serve(copy, 0).await
}

impl Table {
    pub fn get(&self, path: &str) -> reqwest::RequestBuilder {
        reqwest::Client::new().get(format!("{}{path}", self.base))
    }

    /// A request from the table (its key).
    pub fn api(&self, method: reqwest::Method, path: &str) -> reqwest::RequestBuilder {
        self.with(&self.key, method, path)
    }

    /// A request from a device that scanned the QR code (the join code).
    pub fn joined(&self, method: reqwest::Method, path: &str) -> reqwest::RequestBuilder {
        self.with(&self.code, method, path)
    }

    pub fn with(
        &self,
        secret: &str,
        method: reqwest::Method,
        path: &str,
    ) -> reqwest::RequestBuilder {
        reqwest::Client::new()
            .request(method, format!("{}/api{path}", self.base))
            .bearer_auth(secret)
    }

    /// The table's socket.
    pub async fn socket(&self) -> Socket {
        self.socket_with("").await
    }

    /// The table's socket with extra query parameters (`&mysterium=1&role=table`).
    pub async fn socket_with(&self, extra: &str) -> Socket {
        self.try_socket(&self.key, extra).await.unwrap()
    }

    /// A phone's socket (the join code) with extra query parameters (`&mysterium=1&seat=…`).
    pub async fn phone_socket(&self, extra: &str) -> Socket {
        self.try_socket(&self.code, extra).await.unwrap()
    }

    pub async fn try_socket(
        &self,
        secret: &str,
        extra: &str,
    ) -> Result<Socket, tokio_tungstenite::tungstenite::Error> {
        let port = self.server.port();
        let url = format!("ws://127.0.0.1:{port}/api/ws?code={secret}{extra}");
        Ok(tokio_tungstenite::connect_async(url).await?.0)
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
        // A beat says only that the link stands.
        if let Message::Text(text) = message
            && text.as_str() != "beat"
        {
            return serde_json::from_str(&text).unwrap();
        }
    }
}

/// A refusal as the API sends it.
#[derive(Debug)]
pub struct Refused {
    pub code: String,
    pub params: Value,
    pub error: String,
}

impl std::fmt::Display for Refused {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} {}: {}", self.code, self.params, self.error)
    }
}

/// The refusal `response` carries, which must be `code` with `status`; given back for its
/// params.
/// What `request` is answered, as JSON.
pub async fn answer(request: reqwest::RequestBuilder) -> Value {
    request.sent().await.json().await.unwrap()
}

pub async fn refused_as(response: reqwest::Response, status: StatusCode, code: &str) -> Refused {
    let (got, why) = error_of(response).await;
    assert_eq!((got, why.code.as_str()), (status, code), "{why}");
    why
}

pub async fn error_of(response: reqwest::Response) -> (StatusCode, Refused) {
    let status = response.status();
    let body: Value = response.json().await.unwrap();
    let text = |key: &str| body[key].as_str().unwrap_or_default().to_owned();
    let refused = Refused {
        code: text("code"),
        params: body["params"].clone(),
        error: text("error"),
    };
    // The English words have every blank filled: each has its param.
    assert!(
        refused.code == seance_server::refusals::BAD_REQUEST || !refused.error.contains('{'),
        "{refused}"
    );
    (status, refused)
}

/// A phone asks for `seat` of game `game` under `/api/{base}` (`mysterium`, `rummy`).
pub async fn ask_seat(t: &Table, base: &str, game: i64, seat: &str) -> reqwest::Response {
    t.joined(reqwest::Method::POST, &format!("/{base}/{game}/seats"))
        .json(&serde_json::json!({ "seat": seat }))
        .sent()
        .await
}

/// The table's invitation to `seat` of game `game` under `/api/{base}`: the link's last
/// part (`…#/join/ID/SEAT/INVITATION`).
pub async fn invitation(t: &Table, base: &str, game: i64, seat: &str) -> String {
    let got = t
        .api(
            reqwest::Method::POST,
            &format!("/{base}/{game}/seats/{seat}/invitation"),
        )
        .sent()
        .await;
    assert_eq!(got.status(), StatusCode::OK);
    let link = got.json::<Value>().await.unwrap()["link"]
        .as_str()
        .unwrap()
        .to_owned();
    link.rsplit('/').next().unwrap().to_owned()
}

/// Takes `seat`, which must be free (the ghost's by the table's invitation); returns its
/// token.
pub async fn take_seat(t: &Table, base: &str, game: i64, seat: &str) -> String {
    let got = if seat == "ghost" {
        let invitation = invitation(t, base, game, seat).await;
        t.joined(reqwest::Method::POST, &format!("/{base}/{game}/seats"))
            .json(&serde_json::json!({ "seat": seat, "invitation": invitation }))
            .sent()
            .await
    } else {
        ask_seat(t, base, game, seat).await
    };
    assert_eq!(got.status(), StatusCode::CREATED);
    got.json::<Value>().await.unwrap()["token"]
        .as_str()
        .unwrap()
        .to_owned()
}

/// A new Mystery Rummy scorepad for Ann and Ben, made by the table: its number.
pub async fn rummy_for_two(t: &Table) -> i64 {
    let made = t
        .api(reqwest::Method::POST, "/rummy")
        .json(&serde_json::json!({"setup": {"players": ["Ann", "Ben"]}}))
        .sent()
        .await;
    assert_eq!(made.status(), StatusCode::CREATED);
    made.json::<Value>().await.unwrap()["id"].as_i64().unwrap()
}

/// A classic game of Laura (the ghost) and four psychics, Stephanie, Alex, Carl and Paul,
/// whose secrets the app keeps, its draws from `seed`.
pub async fn classic_for_four(t: &Table, seed: u64) -> i64 {
    let setup = serde_json::json!({"ghost": "Laura", "difficulty": "easy", "secrets": "app_kept", "players": [
        {"name": "Stephanie", "colours": ["red"]}, {"name": "Alex", "colours": ["blue"]},
        {"name": "Carl", "colours": ["green"]}, {"name": "Paul", "colours": ["white"]}]});
    let made = t
        .api(reqwest::Method::POST, "/mysterium")
        .json(&serde_json::json!({"setup": setup, "seed": seed}))
        .sent()
        .await;
    made.json::<Value>().await.unwrap()["id"].as_i64().unwrap()
}

/// What the table reads at `path` (under `/api`), as JSON.
pub async fn table_json(t: &Table, path: &str) -> Value {
    json_of(t.api(reqwest::Method::GET, path)).await
}

/// What the table reads at `path` (under `/api`), as text (a CSV table).
pub async fn table_text(t: &Table, path: &str) -> String {
    let answer = t.api(reqwest::Method::GET, path).sent().await;
    answer.text().await.unwrap()
}

/// The JSON `request` is answered with.
pub async fn json_of(request: reqwest::RequestBuilder) -> Value {
    request.sent().await.json().await.unwrap()
}

/// What `GET /api{path}` answers a phone or watcher (the join code).
pub async fn joined_json(t: &Table, path: &str) -> Value {
    json_of(t.joined(reqwest::Method::GET, path)).await
}

/// `GET /api{path}` as a phone's browser opens a link scanned off the table (the path
/// carries any code): the answer itself, not where it sends the phone on to.
pub async fn opened(t: &Table, path: &str) -> reqwest::Response {
    reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .unwrap()
        .get(format!("{}/api{path}", t.base))
        .sent()
        .await
}

/// A request from the phone holding `token` (the join code and its seat's token), or from
/// the table (its key) for `None`.
pub fn from(
    t: &Table,
    token: Option<&str>,
    method: reqwest::Method,
    path: &str,
) -> reqwest::RequestBuilder {
    match token {
        Some(token) => t.joined(method, path).header("X-Seat", token),
        None => t.api(method, path),
    }
}

/// `role`'s snapshot of the game, as the phone holding `token` (or the table) asks.
pub async fn look_as(
    t: &Table,
    base: &str,
    game: i64,
    role: &str,
    token: Option<&str>,
) -> reqwest::Response {
    from(
        t,
        token,
        reqwest::Method::GET,
        &format!("/{base}/{game}?role={role}"),
    )
    .sent()
    .await
}

/// Sends `command` on the game's current version, from the phone holding `token` (or the
/// table).
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
    from(
        t,
        token,
        reqwest::Method::POST,
        &format!("/{base}/{game}/commands"),
    )
    .json(&serde_json::json!({"version": table["version"], "command": command}))
    .sent()
    .await
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

/// The play a BG Stats link carries, decoded, after checking the link's address and the
/// fields BG Stats's play format has: each present, each of its type.
pub fn bgstats_play(url: &str) -> Value {
    let url = reqwest::Url::parse(url).unwrap();
    assert_eq!(
        (url.scheme(), url.host_str(), url.path()),
        ("https", Some("app.bgstatsapp.com"), "/createPlay.html")
    );
    let (key, data) = url.query_pairs().next().unwrap();
    assert_eq!(key, "data");
    let play: Value = serde_json::from_str(&data).unwrap();
    assert_eq!(play["sourceName"], "Séance");
    assert!(
        play["sourcePlayId"]
            .as_str()
            .is_some_and(|id| !id.is_empty())
    );
    let date = play["playDate"].as_str().unwrap();
    assert!(
        date.len() == 19 && date.as_bytes()[10] == b' ' && date.as_bytes()[4] == b'-',
        "{date} is YYYY-MM-DD HH:MM:SS"
    );
    assert!(play["durationMin"].as_u64().unwrap() >= 1);
    let game = &play["game"];
    assert!(game["name"].is_string() && game["sourceGameId"].is_string());
    assert!(game["highestWins"].is_boolean() && game["noPoints"].is_boolean());
    for player in play["players"].as_array().unwrap() {
        assert!(player["name"].is_string() && player["sourcePlayerId"].is_string());
        assert!(player["winner"].is_boolean() && player["startPlayer"].is_boolean());
        assert!(player.get("score").is_none_or(Value::is_number), "{player}");
    }
    play
}

/// The text of the QR code a PNG from the API holds (one pixel a module, drawn eight times
/// larger for the reader).
pub fn qr_text(png: &[u8]) -> String {
    let mut decoder = png::Decoder::new(std::io::Cursor::new(png));
    decoder.set_transformations(png::Transformations::EXPAND);
    let mut reader = decoder.read_info().unwrap();
    let mut pixels = vec![0; reader.output_buffer_size().unwrap()];
    let info = reader.next_frame(&mut pixels).unwrap();
    let side = info.width as usize;
    const SCALE: usize = 8;
    let mut prepared =
        rqrr::PreparedImage::prepare_from_greyscale(side * SCALE, side * SCALE, |x, y| {
            pixels[(y / SCALE) * side + x / SCALE]
        });
    let grids = prepared.detect_grids();
    assert_eq!(grids.len(), 1, "one QR code");
    grids[0].decode().expect("a readable QR code").1
}
