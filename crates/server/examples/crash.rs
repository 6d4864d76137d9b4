//! Durability under kill -9: the real binary on one data folder, killed without warning at
//! a random moment while several games take commands, then started again, over and over.
//! Every command it acknowledged must be there after the restart (and the journal's check
//! at start must find nothing wrong, or the server would not start). Prints the acknowledged
//! writes, the ones lost (must be 0), and the restarts.
//!
//! Run with `bench/crash [KILLS] [GAMES]` (defaults 250, 4).

mod common;

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use common::{Server, call, start};
use rand::{Rng, SeedableRng};
use serde_json::{Value, json};

/// Gives a vision and undoes it, over and over, until the server is gone; `acked` is the
/// newest version the server acknowledged, `count` the acknowledgements.
async fn write(s: Arc<Server>, game: i64, acked: Arc<AtomicU64>, count: Arc<AtomicU64>) {
    let http = reqwest::Client::new();
    let post = reqwest::Method::POST;
    let mut version = acked.load(Ordering::SeqCst);
    loop {
        let (path, body) = if version.is_multiple_of(2) {
            let command = json!({"type": "give_vision", "psychic": 0});
            (
                format!("/mysterium/{game}/commands"),
                json!({"version": version, "command": command}),
            )
        } else {
            (
                format!("/mysterium/{game}/undo"),
                json!({"version": version}),
            )
        };
        match call(&http, &s, post.clone(), &path, None, body).await {
            Ok(answer) => {
                version = answer["version"].as_u64().unwrap();
                acked.fetch_max(version, Ordering::SeqCst);
                count.fetch_add(1, Ordering::SeqCst);
            }
            Err(_) => return,
        }
    }
}

async fn version(http: &reqwest::Client, s: &Server, game: i64) -> u64 {
    let path = format!("/mysterium/{game}?role=table");
    let seen: Value = call(http, s, reqwest::Method::GET, &path, None, Value::Null)
        .await
        .expect("the game is read back after the restart");
    seen["version"].as_u64().unwrap()
}

#[tokio::main]
async fn main() {
    let mut args = std::env::args().skip(1);
    let binary = args.next().expect("the seance binary's path");
    let kills: usize = args.next().map_or(250, |a| a.parse().unwrap());
    let games: usize = args.next().map_or(4, |a| a.parse().unwrap());
    let data = tempfile::tempdir().unwrap();
    let http = reqwest::Client::new();
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(15);
    let s = start(&binary, data.path());
    let mut ids = Vec::new();
    for _ in 0..games {
        ids.push(common::create(&http, &s, 3).await.unwrap());
    }
    drop(s);
    let acked: Vec<_> = ids.iter().map(|_| Arc::new(AtomicU64::new(0))).collect();
    let count = Arc::new(AtomicU64::new(0));
    let mut lost = 0;
    for kill in 1..=kills {
        let s = Arc::new(start(&binary, data.path()));
        for (i, &game) in ids.iter().enumerate() {
            let found = version(&http, &s, game).await;
            let expected = acked[i].load(Ordering::SeqCst);
            if found < expected {
                eprintln!(
                    "kill {kill}: game {game} is at {found}, but {expected} was acknowledged"
                );
                lost += expected - found;
            }
            // Go on from what is there (a write sent but not acknowledged may be there too).
            acked[i].store(found, Ordering::SeqCst);
        }
        let writers: Vec<_> = ids
            .iter()
            .zip(&acked)
            .map(|(&game, acked)| {
                tokio::spawn(write(s.clone(), game, acked.clone(), count.clone()))
            })
            .collect();
        tokio::time::sleep(Duration::from_millis(rng.random_range(20..400))).await;
        // kill -9: no chance to finish anything.
        let pid = s.child.id() as i32;
        std::process::Command::new("kill")
            .args(["-9", &pid.to_string()])
            .status()
            .unwrap();
        for w in writers {
            let _ = w.await;
        }
        drop(s);
    }
    println!(
        "kill -9 at a random moment (20–400 ms into a burst of writes from {games} games), {kills} times: {} acknowledged writes, {lost} lost; the journal's check passed at every restart",
        count.load(Ordering::SeqCst)
    );
    if lost > 0 {
        std::process::exit(1);
    }
}
