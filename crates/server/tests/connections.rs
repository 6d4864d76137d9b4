//! Slow and half-open clients over real TCP: a thousand connections that never finish a
//! request do not keep the table from answering, and the server closes them in bounded
//! time, whatever the client does.

mod support;

use std::time::{Duration, Instant};

use reqwest::{Method, StatusCode};
use support::table;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpSocket, TcpStream};

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
        "POST /api/games HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nAuthorization: Bearer {}\r\nContent-Type: application/json\r\nContent-Length: 500\r\n\r\n{{\"setup\"",
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
