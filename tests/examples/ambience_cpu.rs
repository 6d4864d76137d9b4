//! Benchmark: CPU while the generated ambience plays, against the same screen at rest,
//! measured in the same run over the whole Chromium process tree (renderer and audio
//! service included). Target: under 3 % of one core. Run with `bench/ambience [SECONDS]`.

use std::time::Duration;

use seance_e2e::cpu::cpu;
use seance_e2e::{Table, chromedriver, chromium, go, tap, wait_for};

#[tokio::main]
async fn main() {
    let seconds: u64 = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(30);
    let window = Duration::from_secs(seconds);
    let (port, driver) = chromedriver();
    let table = Table::start(0);
    let client = chromium(port, 1280, 800).await;
    go(&client, &format!("{}#/settings", table.local_url)).await;
    wait_for(&client, "#sound-listen").await;
    tokio::time::sleep(Duration::from_secs(3)).await;
    let rest = cpu(driver.0.id(), window).await;
    tap(&client, "#sound-listen").await;
    wait_for(&client, "#sound-listen[aria-pressed=true]").await;
    tokio::time::sleep(Duration::from_secs(3)).await;
    let playing = cpu(driver.0.id(), window).await;
    println!("CPU of Chromium's whole process tree, {seconds} s each, % of one core:");
    println!("  settings screen at rest (baseline):  {rest:6.2} %");
    println!("  same screen, ambience playing:       {playing:6.2} %");
    println!(
        "  the ambience's own cost:             {:6.2} %  (target < 3 %)",
        playing - rest
    );
    client.close().await.unwrap();
}
