//! What the benchmarks that drive the real binary share: starting it headless in a data
//! folder, reading its links, calling its API as the table or a seat's phone, opening a
//! WebSocket from a given loopback address, and reading its memory.

// Each benchmark uses the part it needs.
#![allow(dead_code)]

use std::io::{BufRead, BufReader};
use std::net::IpAddr;
use std::process::{Child, Command, Stdio};

use serde_json::{Value, json};

pub struct Server {
    pub child: Child,
    pub base: String,
    /// The table key: the table's requests.
    pub key: String,
    /// The join code: the phones' and the watchers'.
    pub code: String,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

pub fn start(binary: &str, data: &std::path::Path) -> Server {
    let child = Command::new(binary)
        .args(["--headless", "--port", "0", "--data-dir"])
        .arg(data)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("the seance binary");
    // Owned at once, so the server is stopped whatever happens next.
    let mut server = Server {
        child,
        base: String::new(),
        key: String::new(),
        code: String::new(),
    };
    let (tx, rx) = std::sync::mpsc::channel();
    let stdout = server.child.stdout.take().unwrap();
    // Read all it prints, so it never writes into a closed pipe.
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines().map_while(Result::ok) {
            let _ = tx.send(line);
        }
    });
    let printed = |label: &str| {
        rx.iter()
            .find_map(|line| Some(line.strip_prefix(label)?.trim().to_owned()))
            .expect("seance printed its links")
    };
    let table = printed("Table screen on this machine:");
    let join = printed("Phones on the local network:");
    let (base, key) = table.split_once("/?key=").unwrap();
    server.base = base.to_owned();
    server.key = key.to_owned();
    server.code = join.split_once("/?code=").unwrap().1.to_owned();
    server
}

pub fn rss_mib(pid: u32) -> f64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap();
    let kib: f64 = status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.split_whitespace().next()?.parse().ok())
        .unwrap();
    kib / 1024.0
}

/// The CPU time process `pid` has used so far, in seconds (user and system).
pub fn cpu_seconds(pid: u32) -> f64 {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap();
    let fields: Vec<&str> = stat
        .rsplit_once(')')
        .unwrap()
        .1
        .split_whitespace()
        .collect();
    let ticks: f64 = fields[11].parse::<f64>().unwrap() + fields[12].parse::<f64>().unwrap();
    // Linux counts in USER_HZ, 100 a second on every platform it runs on.
    ticks / 100.0
}

/// Takes `seat` of game `game` (the ghost's with the table's invitation, as the table's
/// screen gives it): its token.
pub async fn take_seat(
    http: &reqwest::Client,
    s: &Server,
    game: i64,
    seat: &str,
) -> Result<String, String> {
    let post = reqwest::Method::POST;
    let mut wanted = json!({ "seat": seat });
    if seat == "ghost" {
        let path = format!("/mysterium/{game}/seats/ghost/invitation");
        let link = call(http, s, post.clone(), &path, None, Value::Null).await?["link"]
            .as_str()
            .unwrap_or_default()
            .to_owned();
        wanted["invitation"] = json!(link.rsplit('/').next());
    }
    let taken = call(
        http,
        s,
        post,
        &format!("/mysterium/{game}/seats"),
        None,
        wanted,
    )
    .await?;
    Ok(taken["token"].as_str().unwrap_or_default().to_owned())
}

pub async fn call(
    http: &reqwest::Client,
    s: &Server,
    method: reqwest::Method,
    path: &str,
    seat: Option<&str>,
    body: Value,
) -> Result<Value, String> {
    // A seat's phone shows the join code and its token; the table, its key.
    let mut request = http
        .request(method, format!("{}/api{path}", s.base))
        .json(&body);
    request = match seat {
        Some(seat) => request.bearer_auth(&s.code).header("X-Seat", seat),
        None => request.bearer_auth(&s.key),
    };
    let response = request.send().await.map_err(|e| e.to_string())?;
    let status = response.status();
    let value: Value = response.json().await.map_err(|e| e.to_string())?;
    if status.is_success() {
        Ok(value)
    } else {
        Err(format!("{status}: {value}"))
    }
}

/// A WebSocket from `from`, as a phone on its own address would open it.
pub async fn socket(
    url: &str,
    from: IpAddr,
) -> tokio_tungstenite::WebSocketStream<tokio::net::TcpStream> {
    let port: u16 = url
        .split(':')
        .nth(2)
        .and_then(|p| p.split('/').next()?.parse().ok())
        .unwrap();
    let tcp = tokio::net::TcpSocket::new_v4().unwrap();
    tcp.bind((from, 0).into()).unwrap();
    let stream = tcp.connect(([127, 0, 0, 1], port).into()).await.unwrap();
    tokio_tungstenite::client_async(url, stream)
        .await
        .expect("a socket")
        .0
}

/// Creates a Mysterium game with `psychics` psychics (see [`setup`]), as the table; its id.
pub async fn create(http: &reqwest::Client, s: &Server, psychics: usize) -> Result<i64, String> {
    let made = call(
        http,
        s,
        reqwest::Method::POST,
        "/mysterium",
        None,
        json!({"setup": setup(psychics)}),
    )
    .await?;
    made["id"]
        .as_i64()
        .ok_or_else(|| format!("no id in {made}"))
}

/// A Mysterium setup, easy, the app keeping the secrets, with the first `psychics` of four
/// psychics (3 or 4).
fn setup(psychics: usize) -> Value {
    let players = [
        ("Stephanie", "red"),
        ("Alex", "blue"),
        ("Carl", "green"),
        ("Paul", "white"),
    ];
    let players: Vec<_> = players[..psychics]
        .iter()
        .map(|(name, colour)| json!({"name": name, "colours": [colour]}))
        .collect();
    json!({"ghost": "Laura", "difficulty": "easy", "secrets": "app_kept", "players": players})
}
