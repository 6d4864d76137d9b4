//! Slow and half-open clients over real TCP: a thousand connections that never finish a
//! request do not keep the table from answering, and the server closes them in bounded
//! time, whatever the client does.

mod support;

use std::time::{Duration, Instant};

use futures_util::StreamExt;
use reqwest::{Method, StatusCode};
use support::{Sent, table};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpSocket, TcpStream};
use tokio_tungstenite::tungstenite::Message;

/// A connection from `from` (another loopback address than the table's own screens') that
/// sends `partial` and then nothing more.
async fn half_open(from: &str, port: u16, partial: &[u8]) -> TcpStream {
    let socket = TcpSocket::new_v4().unwrap();
    socket.bind(format!("{from}:0").parse().unwrap()).unwrap();
    let mut stream = socket
        .connect(format!("127.0.0.1:{port}").parse().unwrap())
        .await
        .unwrap();
    stream.write_all(partial).await.unwrap();
    stream
}

/// How long until the server closes `stream` (reads to the end, or fails).
async fn closed_after(mut stream: TcpStream, started: Instant) -> Duration {
    let mut buffer = [0u8; 256];
    loop {
        match stream.read(&mut buffer).await {
            Ok(0) | Err(_) => return started.elapsed(),
            Ok(_) => {}
        }
    }
}

#[tokio::test]
async fn a_thousand_half_open_connections_neither_block_the_table_nor_stay_open() {
    let t = table().await;
    let port = t.server.port();
    let started = Instant::now();
    let mut attackers = Vec::new();
    // Nothing at all; headers cut short; a body cut short (with the table's key, so that
    // it is read).
    let slow_body = format!(
        "POST /api/mysterium HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nAuthorization: Bearer {}\r\nContent-Type: application/json\r\nContent-Length: 500\r\n\r\n{{\"setup\"",
        t.key
    );
    for k in 0..1000 {
        let partial: &[u8] = match k % 3 {
            0 => b"",
            1 => b"GET /api/info HTTP/1.1\r\nHost: 127.0.0.1",
            _ => slow_body.as_bytes(),
        };
        // Two addresses: each may hold a few dozen connections at most.
        let from = if k % 2 == 0 { "127.0.0.2" } else { "127.0.0.3" };
        attackers.push(half_open(from, port, partial).await);
    }
    // A real request from the table's own address is answered at once.
    let asked = Instant::now();
    let answer = tokio::time::timeout(Duration::from_secs(2), t.api(Method::GET, "/games").send())
        .await
        .expect("the table answers within 2 s")
        .unwrap();
    assert_eq!(answer.status(), StatusCode::OK);
    let answered = asked.elapsed();

    let closings: Vec<Duration> =
        futures_util::future::join_all(attackers.into_iter().map(|stream| async move {
            tokio::time::timeout(Duration::from_secs(25), closed_after(stream, started))
                .await
                .unwrap_or(Duration::from_secs(99))
        }))
        .await;
    for kind in 0..3 {
        let late: Vec<Duration> = (kind..1000)
            .step_by(3)
            .map(|k| closings[k])
            .filter(|d| *d >= Duration::from_secs(2))
            .collect();
        let last = late.iter().max().copied().unwrap_or_default();
        eprintln!(
            "kind {kind}: {} admitted and timed out, the last after {last:?}",
            late.len()
        );
        assert!(
            !late.is_empty(),
            "kind {kind}: some are admitted, then timed out"
        );
        assert!(last < Duration::from_secs(20), "kind {kind}: {last:?}");
    }
    let soon = closings
        .iter()
        .filter(|d| **d < Duration::from_secs(2))
        .count();
    let last = closings.iter().max().unwrap();
    eprintln!(
        "answered in {answered:?}; {soon} of 1000 closed within 2 s (over the per-address limit); the last closed after {last:?}"
    );
    // Past the limit per address, closed at once; the rest when their headers or body
    // are late, in bounded time.
    assert!(soon >= 1000 - 2 * 64, "{soon} closed at once");
    assert!(soon < 1000, "those admitted wait for their timeout");
    assert!(
        *last < Duration::from_secs(20),
        "every half-open connection is closed in bounded time: {last:?}"
    );
}

/// The upgrade request of a WebSocket with the join code `code`, as a browser sends it.
fn upgrade(port: u16, code: &str) -> String {
    format!(
        "GET /api/ws?code={code} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n"
    )
}

/// A WebSocket from `from`, upgraded and then never read from nor answered.
async fn mute_socket(from: &str, port: u16, code: &str) -> TcpStream {
    let mut stream = half_open(from, port, upgrade(port, code).as_bytes()).await;
    let mut answer = [0u8; 12];
    stream.read_exact(&mut answer).await.unwrap();
    assert_eq!(&answer, b"HTTP/1.1 101", "upgraded");
    stream
}

/// Whether the server answers a request from `from` at all (within 2 s).
async fn answers(from: &str, port: u16) -> bool {
    let request = format!("GET /api/info HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n");
    let mut stream = half_open(from, port, request.as_bytes()).await;
    let mut first = [0u8; 4];
    matches!(
        tokio::time::timeout(Duration::from_secs(2), stream.read_exact(&mut first)).await,
        Ok(Ok(_))
    )
}

#[tokio::test]
async fn a_body_that_trickles_in_is_cut_ten_seconds_after_its_headers() {
    let t = table().await;
    let port = t.server.port();
    let headers = format!(
        "POST /api/mysterium HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nAuthorization: Bearer {}\r\nContent-Type: application/json\r\nContent-Length: 500\r\n\r\n{{",
        t.key
    );
    let started = Instant::now();
    let mut stream = half_open("127.0.0.7", port, headers.as_bytes()).await;
    // A byte every two seconds: each gap short, the whole never done.
    let trickle = async {
        loop {
            tokio::time::sleep(Duration::from_secs(2)).await;
            if stream.write_all(b" ").await.is_err() {
                return;
            }
            let mut answer = [0u8; 1];
            if let Ok(Ok(0 | 1..)) =
                tokio::time::timeout(Duration::from_millis(10), stream.read(&mut answer)).await
            {
                return;
            }
        }
    };
    tokio::time::timeout(Duration::from_secs(30), trickle)
        .await
        .expect("the server cuts the body");
    let cut = started.elapsed();
    eprintln!("a trickling body was cut after {cut:?}");
    assert!(
        cut >= Duration::from_secs(9) && cut < Duration::from_secs(13),
        "{cut:?}"
    );
}

#[tokio::test]
async fn websockets_count_among_their_addresss_connections() {
    let t = table().await;
    let port = t.server.port();
    let mut sockets = Vec::new();
    for _ in 0..64 {
        sockets.push(mute_socket("127.0.0.8", port, &t.code).await);
    }
    assert!(
        !answers("127.0.0.8", port).await,
        "64 sockets are that address's whole share"
    );
    assert!(
        answers("127.0.0.9", port).await,
        "other addresses are served"
    );
    sockets.truncate(60);
    // The places of the sockets closed are given back as the server sees them close.
    let mut served = false;
    for _ in 0..20 {
        if answers("127.0.0.8", port).await {
            served = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert!(served, "a socket closed gives its place back");
}

#[tokio::test]
async fn a_socket_that_stops_answering_pings_is_closed() {
    let t = table().await;
    let port = t.server.port();
    let started = Instant::now();
    let mut mute = mute_socket("127.0.0.10", port, &t.code).await;
    let mut pings = 0;
    let mut buffer = [0u8; 512];
    let closed = tokio::time::timeout(Duration::from_secs(20), async {
        loop {
            match mute.read(&mut buffer).await {
                Ok(0) | Err(_) => return,
                // An unmasked ping frame from the server: 0x89, then its length.
                Ok(n) => pings += buffer[..n].windows(2).filter(|w| w == &[0x89, 0]).count(),
            }
        }
    })
    .await;
    let after = started.elapsed();
    eprintln!("a mute socket heard {pings} pings and was closed after {after:?}");
    assert!(closed.is_ok(), "closed within 20 s");
    assert!(pings >= 2, "{pings} pings");
    assert!(after >= Duration::from_secs(8), "{after:?}");
    assert!(
        after < Duration::from_secs(10),
        "gone from the count within 10 s: {after:?}"
    );
}

/// A socket that keeps talking (a `ping` of its own every two seconds) but never reads
/// what it is sent never answers the server's pings either: it is closed as one that
/// stopped reading, where before it held its place and its queue for ever.
#[tokio::test]
async fn a_socket_that_talks_but_never_reads_is_closed() {
    let t = table().await;
    let port = t.server.port();
    let started = Instant::now();
    let mut deaf = mute_socket("127.0.0.11", port, &t.code).await;
    // A client's text frame is masked: "ping" under the mask 1, 2, 3, 4.
    let mask = [1u8, 2, 3, 4];
    let mut frame = vec![0x81, 0x80 | 4];
    frame.extend(mask);
    frame.extend(b"ping".iter().zip(mask.iter().cycle()).map(|(b, m)| b ^ m));
    while started.elapsed() < Duration::from_secs(16) {
        if deaf.write_all(&frame).await.is_err() {
            break;
        }
        tokio::time::sleep(Duration::from_secs(2)).await;
    }
    let read_to_end = tokio::time::timeout(Duration::from_secs(2), async {
        let mut buffer = [0u8; 4096];
        while let Ok(1..) = deaf.read(&mut buffer).await {}
    });
    assert!(
        read_to_end.await.is_ok(),
        "still open {:?} after it began never reading",
        started.elapsed()
    );
}

#[tokio::test]
async fn screens_are_told_how_many_are_connected_at_most_once_a_second() {
    let t = table().await;
    let mut watching = t.socket().await;
    support::next_json(&mut watching).await; // hello
    let started = Instant::now();
    for _ in 0..20 {
        let other = t.phone_socket("").await;
        drop(other);
    }
    let mut told = Vec::new();
    while started.elapsed() < Duration::from_millis(3500) {
        let next = tokio::time::timeout(Duration::from_millis(500), watching.next()).await;
        if let Ok(Some(Ok(Message::Text(text)))) = next
            && text.as_str() != "beat"
        {
            let message: serde_json::Value = serde_json::from_str(&text).unwrap();
            if message["type"] == "presence" {
                told.push(message["devices"].as_u64().unwrap());
            }
        }
    }
    eprintln!("20 screens came and went: told {told:?}");
    assert!(!told.is_empty() && told.len() <= 5, "{told:?}");
    assert_eq!(told.last(), Some(&1), "the latest count: this screen alone");
}

/// A page cannot hear a ping, and a Wi-Fi that drops bytes closes nothing: every socket
/// is told `beat` with each ping, so a page knows its link stands (and, hearing nothing for
/// 5.5 s, that it does not).
#[tokio::test]
async fn a_page_hears_a_beat_every_three_seconds() {
    let t = table().await;
    let mut socket = t.socket().await;
    support::next_json(&mut socket).await; // hello
    let started = Instant::now();
    let mut beats = Vec::new();
    while beats.len() < 2 {
        let next = tokio::time::timeout(Duration::from_secs(5), socket.next())
            .await
            .expect("a message within 5 s");
        if let Some(Ok(Message::Text(text))) = next
            && text.as_str() == "beat"
        {
            beats.push(started.elapsed());
        }
    }
    eprintln!("beats heard at {beats:?}");
    assert!(beats[0] <= Duration::from_millis(3500), "{beats:?}");
    let between = beats[1] - beats[0];
    assert!(
        between >= Duration::from_millis(2500) && between <= Duration::from_millis(3500),
        "{beats:?}"
    );
}

/// Only HTTP/1.1 is spoken: a connection that opens as HTTP/2 in the clear (its preface
/// alone, or a HEADERS frame that never ends) gets no place to wait in.
#[tokio::test]
async fn a_connection_that_speaks_http2_in_the_clear_is_cut() {
    let t = table().await;
    let port = t.server.port();
    const PREFACE: &[u8] = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n";
    // An empty SETTINGS frame, then HEADERS on stream 1 without END_HEADERS, its block cut
    // short.
    let mut unended = PREFACE.to_vec();
    unended.extend([0, 0, 0, 4, 0, 0, 0, 0, 0]);
    unended.extend([0, 0, 16, 1, 0, 0, 0, 0, 1, 0x82, 0x86]);
    for (from, sent) in [("127.0.0.11", PREFACE), ("127.0.0.12", &unended[..])] {
        let started = Instant::now();
        let stream = half_open(from, port, sent).await;
        let closed = closed_in_time(stream, started).await;
        eprintln!(
            "HTTP/2 in the clear ({} bytes) closed after {closed:?}",
            sent.len()
        );
        assert!(
            closed < Duration::from_secs(1),
            "closed at once: {closed:?}"
        );
    }
}

/// A connection kept open between requests must ask again within the headers' time.
#[tokio::test]
async fn an_idle_connection_is_closed_within_the_headers_time() {
    let t = table().await;
    let port = t.server.port();
    let request = format!("GET / HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n");
    let mut stream = half_open("127.0.0.13", port, request.as_bytes()).await;
    let mut answer = [0u8; 12];
    stream.read_exact(&mut answer).await.unwrap();
    assert_eq!(&answer, b"HTTP/1.1 200");
    let closed = closed_in_time(stream, Instant::now()).await;
    eprintln!("an idle connection was closed {closed:?} after its answer");
}

/// How long after `since` the server closed `stream`: within the headers' 10 s, and a
/// second's leeway.
async fn closed_in_time(stream: TcpStream, since: Instant) -> Duration {
    let closed = tokio::time::timeout(Duration::from_secs(15), closed_after(stream, since))
        .await
        .expect("closed within 15 s");
    assert!(closed < Duration::from_secs(11), "{closed:?}");
    closed
}

/// A client that asks for a large file again and again and never reads its answers is cut
/// once its window stays full for the bound: its place goes back to its address.
#[tokio::test]
async fn a_client_that_never_reads_its_answers_is_cut() {
    let t = table().await;
    let port = t.server.port();
    let asked = format!("GET /licences.json HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n");
    let size = reqwest::get(format!("http://127.0.0.1:{port}/licences.json"))
        .await
        .unwrap()
        .bytes()
        .await
        .unwrap()
        .len();
    assert!(size > 100_000, "a large file: {size} bytes");
    const ASKED: usize = 20;
    let socket = TcpSocket::new_v4().unwrap();
    socket.bind("127.0.0.14:0".parse().unwrap()).unwrap();
    // A small window, as a phone that reads nothing more.
    socket.set_recv_buffer_size(4096).unwrap();
    let mut stream = socket
        .connect(format!("127.0.0.1:{port}").parse().unwrap())
        .await
        .unwrap();
    stream
        .write_all(asked.repeat(ASKED).as_bytes())
        .await
        .unwrap();
    tokio::time::sleep(Duration::from_secs(12)).await;
    // Read now: what the server had sent before it cut the connection, then its end.
    let mut taken = 0;
    let mut buffer = vec![0u8; 64 * 1024];
    let ended = tokio::time::timeout(Duration::from_secs(10), async {
        loop {
            match stream.read(&mut buffer).await {
                Ok(0) | Err(_) => return,
                Ok(n) => taken += n,
            }
        }
    })
    .await;
    eprintln!("a client that read nothing for 12 s then took {taken} bytes of {ASKED} × {size}");
    assert!(
        ended.is_ok(),
        "the connection was cut ({taken} bytes taken)"
    );
    assert!(taken < ASKED * size, "cut before its answers were all sent");
}

/// A screen says `ping` and answers pings: a socket that sends more than 1 KiB in a message
/// is closed, and the table goes on.
#[tokio::test]
async fn a_socket_that_sends_a_large_message_is_closed() {
    use futures_util::SinkExt;
    let t = table().await;
    let mut socket = t.socket().await;
    support::next_json(&mut socket).await; // hello
    socket.send(Message::text("ping")).await.unwrap();
    socket
        .send(Message::text("x".repeat(seance_server::MOST_HEARD + 1)))
        .await
        .unwrap();
    let ended = tokio::time::timeout(Duration::from_secs(5), async {
        loop {
            match socket.next().await {
                Some(Ok(Message::Close(_))) | Some(Err(_)) | None => return,
                Some(Ok(_)) => {}
            }
        }
    })
    .await;
    assert!(ended.is_ok(), "the socket was closed");
    assert_eq!(
        t.api(Method::GET, "/games").sent().await.status(),
        StatusCode::OK
    );
}
