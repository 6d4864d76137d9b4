//! Benchmark of a phone joining (#20): from opening the QR code's link to the seat picker
//! ready to tap, in a fresh Chromium (nothing cached) and again as a returning phone, on a
//! slow Wi-Fi emulated by Chromium (150 ms round trip, 1.6 Mbit/s each way) beside loopback
//! as the baseline, in the same run. Also what crossed the network: bytes and requests.
//!
//! Run with `bench/phone [RUNS]` (default 5 launches of each, interleaved). `SEANCE_BIN`
//! names the binary measured (bench/phone builds and names the release one).

use std::time::Duration;

use fantoccini::Client;
use seance_e2e::{
    Page, Table, api, cdp, chromedriver, chromium, chromium_command, free_port, go, wait_for,
};
use serde_json::json;

/// A network as Chromium emulates it.
#[derive(Clone, Copy)]
struct Network {
    name: &'static str,
    /// Added to each round trip, in ms.
    latency: u32,
    /// Each way, in bytes a second (0: as fast as it goes).
    throughput: u32,
}

const LOOPBACK: Network = Network {
    name: "loopback",
    latency: 0,
    throughput: 0,
};
const SLOW_WIFI: Network = Network {
    name: "slow Wi-Fi (150 ms, 1.6 Mbit/s)",
    latency: 150,
    throughput: 1_600_000 / 8,
};

/// Marks when the seat picker is first ready to tap, in ms since the page was asked for.
const WATCH: &str = "new MutationObserver(() => {
    if (!window.seated && document.querySelector('button[data-seat]:not([disabled])')) {
      window.seated = performance.now();
    }
  }).observe(document, { subtree: true, childList: true });";

/// What one visit took.
struct Visit {
    ms: f64,
    bytes: u64,
    requests: u64,
}

async fn phone(port: u16, network: Network) -> Client {
    let phone = chromium(port, 390, 844).await;
    let conditions = json!({"network_conditions": {
        "offline": false, "latency": network.latency,
        "download_throughput": network.throughput, "upload_throughput": network.throughput}});
    if network.latency > 0 {
        chromium_command(&phone, "chromium/network_conditions", conditions).await;
    }
    cdp(
        &phone,
        "Page.addScriptToEvaluateOnNewDocument",
        json!({"source": WATCH}),
    )
    .await;
    phone
}

/// Opens `link` as a scanned QR code does; returns once the seat picker is ready.
async fn visit(phone: &Client, link: &str) -> Visit {
    go(phone, "about:blank").await;
    go(phone, link).await;
    let ms = loop {
        if let Some(ms) = phone.script("return window.seated").await.as_f64() {
            break ms;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    };
    // What went over the network: a file from the cache has no transfer size.
    let crossed = phone
        .script("const all = [...performance.getEntriesByType('navigation'), ...performance.getEntriesByType('resource')];
             const sent = all.filter((e) => e.transferSize > 0);
             return [sent.reduce((n, e) => n + e.transferSize, 0), sent.length];").await;
    Visit {
        ms,
        bytes: crossed[0].as_u64().unwrap(),
        requests: crossed[1].as_u64().unwrap(),
    }
}

fn median(mut values: Vec<f64>) -> f64 {
    values.sort_by(f64::total_cmp);
    values[values.len() / 2]
}

#[tokio::main]
async fn main() {
    let runs: usize = std::env::args().nth(1).map_or(5, |r| r.parse().unwrap());
    let table = Table::start(free_port());
    let (driver, _chromedriver) = chromedriver();
    let screen = chromium(driver, 1280, 800).await;
    go(&screen, &table.local_url).await;
    wait_for(&screen, "#new-game").await;
    let setup = json!({"ghost": "Laura", "difficulty": "medium", "secrets": "app_kept", "players": [
        {"name": "Stephanie", "colours": ["red"]}, {"name": "Alex", "colours": ["blue"]},
        {"name": "Carl", "colours": ["green"]}, {"name": "Paul", "colours": ["white"]}]});
    let id = api(&screen, "POST", "/mysterium", json!({ "setup": setup })).await["id"]
        .as_u64()
        .unwrap();
    let link = format!("{}#/join/{id}", table.phone_url);

    let networks = [LOOPBACK, SLOW_WIFI];
    let mut first: Vec<Vec<Visit>> = networks.iter().map(|_| Vec::new()).collect();
    let mut again: Vec<Vec<Visit>> = networks.iter().map(|_| Vec::new()).collect();
    for _ in 0..runs {
        for (n, network) in networks.iter().enumerate() {
            let phone = phone(driver, *network).await;
            first[n].push(visit(&phone, &link).await);
            again[n].push(visit(&phone, &link).await);
            phone.close().await.unwrap();
        }
    }
    println!(
        "A phone opening the join link until its seat picker is ready; median of {runs} launches\n"
    );
    println!("{:34}{:>10}{:>10}{:>10}", "", "ms", "KB", "requests");
    for (n, network) in networks.iter().enumerate() {
        for (visits, when) in [(&first[n], "first visit"), (&again[n], "returning")] {
            println!(
                "{:34}{:>10.0}{:>10.1}{:>10.0}",
                format!("{}, {when}", network.name),
                median(visits.iter().map(|v| v.ms).collect()),
                median(visits.iter().map(|v| v.bytes as f64 / 1000.0).collect()),
                median(visits.iter().map(|v| v.requests as f64).collect()),
            );
        }
    }
    let ratio = median(first[1].iter().map(|v| v.ms).collect())
        / median(first[0].iter().map(|v| v.ms).collect());
    println!("\nslow Wi-Fi / loopback, first visit: {ratio:.2}× (target: under 1 s on slow Wi-Fi)");
}
