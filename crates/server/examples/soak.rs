//! Soak: tables playing for a long time, each with eight WebSocket clients (the table, the
//! ghost's phone, four psychics' phones, two watchers) that drop and rejoin at random —
//! some closing politely, some just vanishing — while commands flow (a vision given, then
//! undone, then given again) and every few minutes a table starts a new game. Each minute
//! it prints the server's memory and open files; at the end it fails if either grew past
//! its bound from the second minute (when the server has warmed up) on.
//!
//! Run with `bench/soak [MINUTES] [TABLES]` (defaults 30, 6).

mod common;

use std::net::IpAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use common::{Server, call, rss_mib, socket, start};
use futures_util::StreamExt;
use rand::{Rng, SeedableRng};
use serde_json::{Value, json};
use tokio::sync::watch;

/// Memory may grow this much over the run (allocator slack), open files this many.
const RSS_GROWTH: f64 = 1.20;
const FD_GROWTH: usize = 24;
/// How long a table plays one game before starting the next.
const GAME_LENGTH: Duration = Duration::from_secs(180);

#[derive(Default)]
struct Counts {
    commands: AtomicUsize,
    errors: AtomicUsize,
    rejoins: AtomicUsize,
}

fn open_files(pid: u32) -> usize {
    std::fs::read_dir(format!("/proc/{pid}/fd"))
        .map(|d| d.count())
        .unwrap_or(0)
}

async fn new_game(http: &reqwest::Client, s: &Server) -> (i64, Vec<(String, String)>) {
    let game = common::create(http, s, 4).await.expect("a game");
    let mut seats = Vec::new();
    for seat in ["ghost", "psychic:0", "psychic:1", "psychic:2", "psychic:3"] {
        let token = common::take_seat(http, s, game, seat)
            .await
            .expect("a seat");
        seats.push((seat.to_owned(), token));
    }
    (game, seats)
}

/// One of a table's clients: follows the table's current game, drops and rejoins at random.
async fn client(
    s: Arc<Server>,
    from: IpAddr,
    which: usize,
    mut current: watch::Receiver<(i64, Vec<(String, String)>)>,
    until: Instant,
    counts: Arc<Counts>,
    seed: u64,
) {
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    let ws = s.base.replace("http://", "ws://");
    while Instant::now() < until {
        let (game, seats) = current.borrow_and_update().clone();
        let url = match which {
            0 => format!("{ws}/api/ws?code={}&mysterium={game}&role=table", s.key),
            1..=5 => {
                let (seat, token) = &seats[which - 1];
                format!(
                    "{ws}/api/ws?code={}&mysterium={game}&role={seat}&seat={token}",
                    s.code
                )
            }
            _ => format!("{ws}/api/ws?code={}&mysterium={game}&role=table", s.code),
        };
        let mut socket = socket(&url, from).await;
        let stay = Duration::from_millis(rng.random_range(1_000..20_000));
        let leave = tokio::time::sleep(stay);
        tokio::pin!(leave);
        loop {
            tokio::select! {
                _ = &mut leave => break,
                _ = current.changed() => break,
                message = socket.next() => match message {
                    Some(Ok(_)) => {}
                    _ => break,
                },
            }
        }
        // Half leave politely, half vanish as a phone that lost the Wi-Fi.
        if rng.random_bool(0.5) {
            let _ = socket.close(None).await;
        }
        drop(socket);
        counts.rejoins.fetch_add(1, Ordering::Relaxed);
        tokio::time::sleep(Duration::from_millis(rng.random_range(50..2_000))).await;
    }
}

/// One table: a game and its eight clients; a vision given and undone, over and over, and
/// a new game every [`GAME_LENGTH`].
async fn table(s: Arc<Server>, from: IpAddr, until: Instant, counts: Arc<Counts>, seed: u64) {
    let http = reqwest::Client::builder()
        .local_address(from)
        .build()
        .unwrap();
    let (tx, rx) = watch::channel(new_game(&http, &s).await);
    let clients: Vec<_> = (0..8)
        .map(|which| {
            tokio::spawn(client(
                s.clone(),
                from,
                which,
                rx.clone(),
                until,
                counts.clone(),
                seed * 10 + which as u64,
            ))
        })
        .collect();
    let mut started = Instant::now();
    let mut version = 0;
    while Instant::now() < until {
        if started.elapsed() > GAME_LENGTH {
            tx.send_replace(new_game(&http, &s).await);
            (started, version) = (Instant::now(), 0);
        }
        let (game, seats) = rx.borrow().clone();
        let ghost = seats[0].1.as_str();
        let path = format!("/mysterium/{game}/commands");
        let give = json!({"version": version, "command": {"type": "give_vision", "psychic": 0}});
        let post = reqwest::Method::POST;
        let done: Result<Value, String> =
            match call(&http, &s, post.clone(), &path, Some(ghost), give).await {
                Ok(answer) => {
                    let now = answer["version"].as_u64().unwrap();
                    let undo = format!("/mysterium/{game}/undo");
                    call(&http, &s, post, &undo, None, json!({"version": now})).await
                }
                Err(e) => Err(e),
            };
        match done {
            Ok(answer) => {
                version = answer["version"].as_u64().unwrap();
                counts.commands.fetch_add(2, Ordering::Relaxed);
            }
            Err(why) => {
                eprintln!("table {from}: {why}");
                counts.errors.fetch_add(1, Ordering::Relaxed);
                let view = format!("/mysterium/{game}?role=table");
                let seen = call(&http, &s, reqwest::Method::GET, &view, None, Value::Null).await;
                version = seen.map_or(version, |v| v["version"].as_u64().unwrap_or(version));
            }
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    for c in clients {
        let _ = c.await;
    }
}

#[tokio::main]
async fn main() {
    let mut args = std::env::args().skip(1);
    let binary = args.next().expect("the seance binary's path");
    let minutes: u64 = args.next().map_or(30, |a| a.parse().unwrap());
    let tables: usize = args.next().map_or(6, |a| a.parse().unwrap());
    let data = tempfile::tempdir().unwrap();
    let server = Arc::new(start(&binary, data.path()));
    let pid = server.child.id();
    let began = Instant::now();
    let until = began + Duration::from_secs(minutes * 60);
    let counts = Arc::new(Counts::default());
    let tasks: Vec<_> = (0..tables)
        .map(|k| {
            let from = IpAddr::from([127, 0, 1, (k + 2) as u8]);
            tokio::spawn(table(server.clone(), from, until, counts.clone(), k as u64))
        })
        .collect();
    println!(
        "Soak: {tables} tables × 8 WebSocket clients dropping and rejoining, commands every 200 ms per table, a new game per table every {} min, for {minutes} min",
        GAME_LENGTH.as_secs() / 60
    );
    println!("minute  memory (MiB)  open files  commands  rejoins  errors");
    let mut series = Vec::new();
    for minute in 1..=minutes {
        tokio::time::sleep_until((began + Duration::from_secs(minute * 60)).into()).await;
        let (rss, fds) = (rss_mib(pid), open_files(pid));
        series.push((rss, fds));
        println!(
            "{minute:>6}  {rss:>12.1}  {fds:>10}  {:>8}  {:>7}  {:>6}",
            counts.commands.load(Ordering::Relaxed),
            counts.rejoins.load(Ordering::Relaxed),
            counts.errors.load(Ordering::Relaxed)
        );
    }
    for t in tasks {
        let _ = t.await;
    }
    // Once every client has gone, the server's files are back to what it holds at rest.
    tokio::time::sleep(Duration::from_secs(2)).await;
    let at_rest = open_files(pid);
    let (warm_rss, warm_fds) = series[1.min(series.len() - 1)];
    let (last_rss, last_fds) = *series.last().unwrap();
    let grew = last_rss > warm_rss * RSS_GROWTH || last_fds > warm_fds + FD_GROWTH;
    println!(
        "\nfrom minute 2 to the end: memory {warm_rss:.1} → {last_rss:.1} MiB ({:.2}×, bound {RSS_GROWTH}×), open files {warm_fds} → {last_fds} (bound +{FD_GROWTH}); {at_rest} open once every client left; errors {}",
        last_rss / warm_rss,
        counts.errors.load(Ordering::Relaxed)
    );
    if grew || counts.errors.load(Ordering::Relaxed) > 0 {
        eprintln!("the soak failed: growth past its bound, or errors");
        std::process::exit(1);
    }
}
