//! Benchmark: what a phone holding a psychic's seat costs its battery, as CPU of its
//! browser's whole process tree (Chromium: renderer, GPU and network processes included),
//! against the same browser on an empty page in the same run: while the phone waits for
//! its vision, while the sand runs, and while the table reads out the count. Targets: under
//! 1 % of one core above the empty page while waiting, under 3 % while the sand runs.
//! Run with `bench/phone [RUNS] [SECONDS]` (default 60 s; the count while it lasts).

use std::time::{Duration, Instant};

use fantoccini::Client;
use seance_e2e::cpu::cpu;
use seance_e2e::{
    Table, api, chromedriver, chromium, command, ghost_cards, go, new_game, revelation_step, scan,
    tap, wait_for,
};
use serde_json::{Value, json};

async fn view(tablet: &Client, id: u64) -> Value {
    api(tablet, "GET", &format!("/mysterium/{id}"), Value::Null).await
}

#[tokio::main]
async fn main() {
    let seconds: u64 = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(60);
    let window = Duration::from_secs(seconds);
    let settle = Duration::from_secs(3);
    // The table's browser and the phone's apart, so that only the phone's is measured.
    let (table_port, _table_driver) = chromedriver();
    let (phone_port, phone_driver) = chromedriver();
    let table = Table::start(0);
    let tablet = chromium(table_port, 1280, 800).await;
    go(&tablet, &table.local_url).await;
    wait_for(&tablet, "#home").await;
    let setup = json!({"ghost": "Laura", "difficulty": "easy", "secrets": "app_kept", "players": [
        {"name": "Stephanie", "colours": ["red"]}, {"name": "Alex", "colours": ["blue"]},
        {"name": "Carl", "colours": ["green"]}, {"name": "Paul", "colours": ["white"]}]});
    let id = new_game(&tablet, setup, 7).await;
    // Longer than the measure: the sand runs all through it.
    let timer = json!({"action": "duration", "seconds": seconds + 60});
    api(&tablet, "POST", &format!("/mysterium/{id}/timer"), timer).await;
    let secrets = ghost_cards(&tablet, id).await;
    go(&tablet, &format!("{}#/game/{id}", table.local_url)).await;
    tap(&tablet, "#begin").await;

    let phone = chromium(phone_port, 390, 844).await;
    go(&phone, "about:blank").await;
    tokio::time::sleep(settle).await;
    let empty = cpu(phone_driver.0.id(), window).await;

    scan(&phone, &table).await;
    go(&phone, &format!("{}/#/join/{id}", table.origin())).await;
    tap(&phone, "button[data-seat='psychic:0']").await;
    wait_for(&phone, "#phone[data-role='psychic:0'][data-version]").await;
    tokio::time::sleep(settle).await;
    let waiting = cpu(phone_driver.0.id(), window).await;

    for i in 0..4 {
        command(&tablet, id, json!({"type": "give_vision", "psychic": i})).await;
    }
    wait_for(&phone, "#sand-timer").await;
    tokio::time::sleep(settle).await;
    let sand = cpu(phone_driver.0.id(), window).await;

    // The rest of Phase 1 as the table enters it, every psychic right each turn.
    for k in 0..3 {
        for (i, cards) in secrets.as_array().unwrap().iter().enumerate() {
            if k > 0 {
                command(&tablet, id, json!({"type": "give_vision", "psychic": i})).await;
            }
            let place = json!({"type": "place_intuition", "psychic": i, "card": cards[k]});
            command(&tablet, id, place).await;
        }
        command(&tablet, id, json!({"type": "end_interpretation"})).await;
        for i in 0..4 {
            command(&tablet, id, json!({"type": "manifest", "psychic": i})).await;
        }
    }
    // Phase 2: the table enters all but the phone's vote; the count is measured from its
    // first line to its last.
    let mut count = None;
    loop {
        let now = view(&tablet, id).await;
        let seen = &now["view"];
        if seen["phase"] == "ended" {
            break;
        }
        if seen["counting"] == true {
            let started = Instant::now();
            let window = Duration::from_secs(5);
            let mut samples = Vec::new();
            while view(&tablet, id).await["view"]["counting"] == true {
                samples.push(cpu(phone_driver.0.id(), window).await);
            }
            let mean = samples.iter().sum::<f64>() / samples.len().max(1) as f64;
            count = Some((mean, started.elapsed()));
            continue;
        }
        if seen["psychics"][0]["voting_now"] == true {
            tap(&phone, "#phone-vote .group[data-group='2']").await;
            tap(&phone, "#phone-seal").await;
            wait_for(&phone, "#phone-vote .banner").await;
            continue;
        }
        let (kind, mut sent) = revelation_step(&now);
        if kind == "vote" {
            sent["group"] = json!(2);
        }
        command(&tablet, id, sent).await;
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let (counting, lasted) = count.expect("the table read out a count");

    println!("CPU of the phone's browser (Chromium's whole process tree), % of one core:");
    println!("  an empty page (the baseline), {seconds} s: {empty:6.2} %");
    let rows = [
        (
            format!("a seat, waiting for a vision, {seconds} s"),
            waiting,
            "< 1 % over",
        ),
        (format!("the sand running, {seconds} s"), sand, "< 3 % over"),
        (
            format!("the count read out, its {:.0} s", lasted.as_secs_f64()),
            counting,
            "none",
        ),
    ];
    for (what, used, target) in rows {
        println!(
            "  {what:38} {used:6.2} %  ({:+.2} points, {:.1}× the baseline; target {target})",
            used - empty,
            used / empty.max(0.01)
        );
    }
    for client in [phone, tablet] {
        client.close().await.unwrap();
    }
}
