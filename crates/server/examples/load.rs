//! Load benchmark: many tables at once on loopback, each with eight WebSocket clients (the
//! table, the ghost's phone, four psychics' phones, two watchers) while a script plays the
//! game with a pause between commands. For every command: the time from sending it to the
//! last of the table's eight clients receiving the view that shows it. Errors are counted;
//! the server's memory is read from /proc. The baseline is one table, in the same run.
//!
//! Tables play as tables do, each at its own moments: a table starts at a phase of its own
//! and its pauses vary around the one given (half to one and a half of it), drawn from a
//! seed, the same in every run. The same tables then play in lockstep, as this benchmark
//! played before: all started at once and keeping the same pause, so that their commands
//! come in bunches, the worst a café could see.
//!
//! Run with `bench/load [TABLES] [COMMANDS_PER_TABLE] [PAUSE_MS] [ROUNDS]` (defaults 50, 60,
//! 100, 3): each round is one table then many, each way, and the ratio reported is the
//! rounds' median, as a shared machine's moments vary more than the server does.
//! It starts the `seance` binary given as the first argument, in a fresh data folder.

mod common;

use std::net::IpAddr;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use common::{Server, call, cpu_seconds, rss_mib, socket, start};

use futures_util::StreamExt;
use serde_json::{Value, json};
use tokio::sync::Notify;
use tokio_tungstenite::tungstenite::Message;

impl Heard {
    /// Waits until all eight clients have `version`: false after 10 s.
    async fn reach(&self, version: u64) -> bool {
        let deadline = Instant::now() + Duration::from_secs(10);
        loop {
            let notified = self.wake.notified();
            if self
                .newest
                .lock()
                .unwrap()
                .iter()
                .all(|v| v.is_some_and(|v| v >= version))
            {
                return true;
            }
            if tokio::time::timeout_at(deadline.into(), notified)
                .await
                .is_err()
            {
                return false;
            }
        }
    }
}

/// What the clients read of a pushed message.
#[derive(serde::Deserialize)]
struct Pushed {
    snapshot: Option<Version>,
}

#[derive(serde::Deserialize)]
struct Version {
    version: u64,
}

/// What one table's eight clients have heard: the newest version each has seen, the table
/// screen's latest snapshot (what the script reads, as a table screen would), and a wake-up
/// for this table alone.
#[derive(Default)]
struct Heard {
    /// None before a client's first view.
    newest: Mutex<[Option<u64>; 8]>,
    table: Mutex<Value>,
    wake: Notify,
}

struct Run {
    latencies: Vec<Duration>,
    /// Each table's own p99, in ms, sorted: the tail one table sees, from as many commands
    /// as the baseline's single table has.
    own_tails: Vec<f64>,
    /// From sending a command to its acknowledgement (journaled): the part the pushes add to
    /// is the rest.
    acks: Vec<Duration>,
    errors: usize,
    rss: f64,
    /// The server's CPU time per command, in ms.
    cpu: f64,
}

/// How the tables keep time.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Pace {
    /// Each at its own phase, its pauses varying around the one given.
    OwnRhythm,
    /// Every table started at once, the pause exactly the one given: commands in bunches.
    Lockstep,
}

/// A table's own rhythm, drawn from its seed (splitmix64): the same in every run.
struct Rhythm(u64);

impl Rhythm {
    /// A fraction in [0, 1).
    fn fraction(&mut self) -> f64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        // The top 53 bits, as many as a float holds exactly: never 1.
        ((z ^ (z >> 31)) >> 11) as f64 / (1u64 << 53) as f64
    }
}

/// One table: a game, seats, eight sockets, then `commands` commands paced by `pause` as
/// `pace` says. The table's devices come from their own loopback address, as a table's
/// phones would.
async fn table(
    s: Arc<Server>,
    from: IpAddr,
    commands: usize,
    pause: Duration,
    pace: Pace,
) -> (Vec<Duration>, Vec<Duration>, usize) {
    let http = reqwest::Client::builder()
        .local_address(from)
        .build()
        .unwrap();
    let game = common::create(&http, &s, 4).await.unwrap();
    let mut tokens = Vec::new();
    for seat in ["ghost", "psychic:0", "psychic:1", "psychic:2", "psychic:3"] {
        let token = common::take_seat(&http, &s, game, seat).await.unwrap();
        tokens.push((seat, token));
    }
    let heard = Arc::new(Heard::default());
    let ws = s.base.replace("http://", "ws://");
    let mut urls = vec![format!(
        "{ws}/api/ws?code={}&mysterium={game}&role=table",
        s.key
    )];
    for (seat, token) in &tokens {
        urls.push(format!(
            "{ws}/api/ws?code={}&mysterium={game}&role={seat}&seat={token}",
            s.code
        ));
    }
    // Two watchers: the join code alone.
    let watcher = format!("{ws}/api/ws?code={}&mysterium={game}&role=table", s.code);
    urls.push(watcher.clone());
    urls.push(watcher);
    for (client, url) in urls.into_iter().enumerate() {
        let mut socket = socket(&url, from).await;
        let heard = heard.clone();
        tokio::spawn(async move {
            while let Some(Ok(message)) = socket.next().await {
                // A beat says only that the link stands.
                let Message::Text(text) = message else {
                    continue;
                };
                if text.as_str() == "beat" {
                    continue;
                }
                // The table screen's view is kept whole; of the others, only the version is
                // read, as a phone's parse is not the server's work.
                let version = if client == 0 {
                    let value: Value = serde_json::from_str(&text).unwrap();
                    let version = value["snapshot"]["version"].as_u64();
                    if version.is_some() {
                        *heard.table.lock().unwrap() = value["snapshot"].clone();
                    }
                    version
                } else {
                    let message: Pushed = serde_json::from_str(&text).unwrap();
                    message.snapshot.map(|s| s.version)
                };
                if let Some(v) = version {
                    let newest = &mut heard.newest.lock().unwrap()[client];
                    *newest = Some(newest.map_or(v, |n| n.max(v)));
                    heard.wake.notify_waiters();
                }
            }
        });
    }
    // Every screen has its first view before the first command.
    assert!(
        heard.reach(0).await,
        "table {from}: the screens' first views never came"
    );
    let ghost = tokens[0].1.clone();
    let psychic = |i: usize| tokens[i + 1].1.clone();
    let (mut latencies, mut acks, mut errors) = (Vec::new(), Vec::new(), 0);
    let mut version = 0u64;
    let mut script: Vec<(Option<String>, Value)> = Vec::new();
    while script.len() < commands {
        for i in 0..4 {
            script.push((
                Some(ghost.clone()),
                json!({"type": "give_vision", "psychic": i}),
            ));
        }
        for i in 0..4 {
            script.push((
                Some(psychic(i)),
                json!({"type": "place_intuition", "psychic": i, "card": "?"}),
            ));
        }
        script.push((
            Some(psychic(1)),
            json!({"type": "place_token", "by": 1, "on": 0, "face": "agree"}),
        ));
        script.push((
            Some(psychic(1)),
            json!({"type": "withdraw_token", "by": 1, "on": 0}),
        ));
        script.push((Some(ghost.clone()), json!({"type": "end_interpretation"})));
        for i in 0..4 {
            script.push((
                Some(ghost.clone()),
                json!({"type": "manifest", "psychic": i}),
            ));
        }
    }
    let mut rhythm = Rhythm(u64::from(u32::from(match from {
        IpAddr::V4(v4) => v4,
        IpAddr::V6(_) => unreachable!("the tables are at 127.0.x.y"),
    })));
    if pace == Pace::OwnRhythm {
        tokio::time::sleep(pause.mul_f64(rhythm.fraction())).await;
    }
    for (seat, mut command) in script.into_iter().take(commands) {
        tokio::time::sleep(match pace {
            Pace::OwnRhythm => pause.mul_f64(0.5 + rhythm.fraction()),
            Pace::Lockstep => pause,
        })
        .await;
        // What the table sees now decides what the script can still do for a psychic: one
        // who has found everything gets no vision, no answer and no token.
        if let Some(psychic) = command["psychic"]
            .as_u64()
            .or(command["on"].as_u64())
            .map(|p| p as usize)
        {
            let now = heard.table.lock().unwrap().clone();
            let p = &now["view"]["psychics"][psychic];
            let applies = match command["type"].as_str() {
                Some("give_vision") => !p["seeking"].is_null(),
                Some("manifest") => p["vision"] == true,
                Some("place_intuition") => match now["allowed"]
                    .as_array()
                    .into_iter()
                    .flatten()
                    .find(|a| a["type"] == "place_intuition" && a["psychic"] == psychic)
                    .and_then(|a| a["cards"][0].as_u64())
                {
                    // The first card the rules allow the table for this pawn.
                    Some(card) => {
                        command["card"] = card.into();
                        true
                    }
                    None => false,
                },
                Some(kind) => now["allowed"]
                    .as_array()
                    .into_iter()
                    .flatten()
                    .any(|a| a["type"] == kind && a["on"] == psychic),
                None => true,
            };
            if !applies {
                continue;
            }
        }
        let sent = Instant::now();
        let body = json!({"version": version, "command": command});
        match call(
            &http,
            &s,
            reqwest::Method::POST,
            &format!("/mysterium/{game}/commands"),
            seat.as_deref(),
            body,
        )
        .await
        {
            Ok(answer) => {
                acks.push(sent.elapsed());
                version = answer["version"].as_u64().unwrap();
            }
            Err(why) => {
                eprintln!("table {from}: {command} refused: {why}");
                errors += 1;
                continue;
            }
        }
        // Wait until all eight clients have the new version (10 s at most: then an error).
        if heard.reach(version).await {
            latencies.push(sent.elapsed());
        } else {
            eprintln!(
                "table {from}: version {version} did not reach all eight clients within 10 s"
            );
            errors += 1;
        }
    }
    (latencies, acks, errors)
}

async fn run(binary: &str, tables: usize, commands: usize, pause: Duration, pace: Pace) -> Run {
    let data = tempfile::tempdir().unwrap();
    let server = Arc::new(start(binary, data.path()));
    let tasks: Vec<_> = (0..tables)
        .map(|k| {
            let from = IpAddr::from([127, 0, (k / 200) as u8, (k % 200 + 2) as u8]);
            tokio::spawn(table(server.clone(), from, commands, pause, pace))
        })
        .collect();
    let (mut latencies, mut acks, mut errors) = (Vec::new(), Vec::new(), 0);
    let mut own_tails = Vec::new();
    for task in tasks {
        let (mut l, a, e) = task.await.unwrap();
        l.sort();
        own_tails.push(percentile(&l, 0.99));
        latencies.extend(l);
        acks.extend(a);
        errors += e;
    }
    latencies.sort();
    acks.sort();
    own_tails.sort_by(f64::total_cmp);
    let pid = server.child.id();
    Run {
        cpu: cpu_seconds(pid) * 1000.0 / latencies.len().max(1) as f64,
        latencies,
        own_tails,
        acks,
        errors,
        rss: rss_mib(pid),
    }
}

fn percentile(sorted: &[Duration], p: f64) -> f64 {
    let i = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[i].as_secs_f64() * 1000.0
}

#[tokio::main]
async fn main() {
    let mut args = std::env::args().skip(1);
    let binary = args.next().expect("the seance binary's path");
    let mut numbers = args.map(|a| a.parse::<usize>().unwrap());
    let tables = numbers.next().unwrap_or(50);
    let commands = numbers.next().unwrap_or(60);
    let pause = Duration::from_millis(numbers.next().unwrap_or(100) as u64);
    let rounds = numbers.next().unwrap_or(3).max(1);
    println!(
        "Load on loopback: 8 WebSocket clients per table, {commands} commands per table, {} ms between a table's commands; {rounds} rounds of one table then {tables}",
        pause.as_millis()
    );
    println!("latency = a command sent → the last of its table's 8 clients has the new view");
    for (pace, what, targets) in [
        (
            Pace::OwnRhythm,
            "each table at its own rhythm",
            ["≤ 2×", "≤ 1.1×", "≤ 2×"],
        ),
        (
            Pace::Lockstep,
            "every table in lockstep (the worst case)",
            ["no target"; 3],
        ),
    ] {
        println!("\n== {what}");
        let (mut tails, mut medians, mut owns) = (Vec::new(), Vec::new(), Vec::new());
        for round in 1..=rounds {
            // Alternated, so both face the same moment of a shared machine.
            let baseline = run(&binary, 1, commands, pause, pace).await;
            let loaded = run(&binary, tables, commands, pause, pace).await;
            println!("\nround {round}");
            for (name, r) in [
                ("1 table (baseline)", &baseline),
                (&*format!("{tables} tables"), &loaded),
            ] {
                println!(
                    "  {name:>18}: {} commands, p50 {:6.2} ms, p99 {:6.2} ms, max {:6.2} ms (acknowledged: p50 {:5.2} ms, p99 {:5.2} ms), errors {}, server memory {:.1} MiB, server CPU {:.2} ms a command (setup included)",
                    r.latencies.len(),
                    percentile(&r.latencies, 0.5),
                    percentile(&r.latencies, 0.99),
                    percentile(&r.latencies, 1.0),
                    percentile(&r.acks, 0.5),
                    percentile(&r.acks, 0.99),
                    r.errors,
                    r.rss,
                    r.cpu
                );
            }
            let ratio = |p| percentile(&loaded.latencies, p) / percentile(&baseline.latencies, p);
            // The same figure built the same way: a table's p99 over its own commands.
            let own = loaded.own_tails[loaded.own_tails.len() / 2] / baseline.own_tails[0];
            println!(
                "  under load / baseline: p99 {:.2}×, p50 {:.2}×; a table's own p99 (median of {tables}) {own:.2}×",
                ratio(0.99),
                ratio(0.5)
            );
            owns.push(own);
            tails.push(ratio(0.99));
            medians.push(ratio(0.5));
        }
        for ((name, ratios), target) in [
            ("p99", &mut tails),
            ("p50", &mut medians),
            ("a table's own p99", &mut owns),
        ]
        .into_iter()
        .zip(targets)
        {
            ratios.sort_by(f64::total_cmp);
            println!(
                "\n{what}: {name} under load / baseline {name}, median of {rounds} rounds: {:.2}× (each: {}; target {target}, zero errors)",
                ratios[ratios.len() / 2],
                ratios
                    .iter()
                    .map(|r| format!("{r:.2}×"))
                    .collect::<Vec<_>>()
                    .join(", ")
            );
        }
    }
}
