//! Benchmark: CPU while the generated ambience plays, against the same screen at rest,
//! measured in the same run over the whole Chromium process tree (renderer and audio
//! service included). Target: under 3 % of one core. Run with `bench/ambience [SECONDS]`.

use std::path::Path;
use std::process::Command;
use std::time::Duration;

use seance_e2e::{Table, chromedriver, chromium, click, wait_for};

/// A process and all its descendants.
fn tree(root: u32) -> Vec<u32> {
    let mut children: std::collections::HashMap<u32, Vec<u32>> = Default::default();
    for entry in std::fs::read_dir("/proc").unwrap().flatten() {
        let Ok(pid) = entry.file_name().to_string_lossy().parse::<u32>() else {
            continue;
        };
        let Ok(stat) = std::fs::read_to_string(entry.path().join("stat")) else {
            continue;
        };
        let fields: Vec<&str> = stat
            .rsplit_once(')')
            .map(|(_, r)| r.split_whitespace().collect())
            .unwrap_or_default();
        if let Some(parent) = fields.get(1).and_then(|p| p.parse().ok()) {
            children.entry(parent).or_default().push(pid);
        }
    }
    let mut found = vec![root];
    let mut i = 0;
    while i < found.len() {
        found.extend(children.get(&found[i]).cloned().unwrap_or_default());
        i += 1;
    }
    found
}

/// CPU time used so far by `pids`, in clock ticks.
fn ticks(pids: &[u32]) -> u64 {
    pids.iter()
        .filter_map(|p| {
            std::fs::read_to_string(Path::new("/proc").join(p.to_string()).join("stat")).ok()
        })
        .filter_map(|stat| {
            let rest: Vec<u64> = stat
                .rsplit_once(')')?
                .1
                .split_whitespace()
                .filter_map(|f| f.parse().ok())
                .collect();
            // utime and stime are fields 14 and 15; after the name, 11 and 12 (0-based, state skipped).
            Some(rest.get(10)? + rest.get(11)?)
        })
        .sum()
}

/// Percent of one core used by the tree under `root` over `window`.
async fn cpu(root: u32, window: Duration) -> f64 {
    let clock = String::from_utf8(
        Command::new("getconf")
            .arg("CLK_TCK")
            .output()
            .unwrap()
            .stdout,
    )
    .unwrap();
    let per_second: f64 = clock.trim().parse().unwrap();
    let before = ticks(&tree(root));
    tokio::time::sleep(window).await;
    let used = ticks(&tree(root)) - before;
    100.0 * used as f64 / per_second / window.as_secs_f64()
}

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
    client
        .goto(&format!("{}#/settings", table.local_url))
        .await
        .unwrap();
    wait_for(&client, "#sound-listen").await;
    tokio::time::sleep(Duration::from_secs(3)).await;
    let rest = cpu(driver.0.id(), window).await;
    click(&client, "#sound-listen").await;
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
