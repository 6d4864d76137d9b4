//! CPU used by a process tree over a window of time, read from /proc (for benchmarks), and
//! every core kept busy (for tests under load).

use std::path::Path;
use std::process::Command;
use std::time::Duration;

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
pub async fn cpu(root: u32, window: Duration) -> f64 {
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

/// Every core kept busy until dropped, as stress-ng's CPU stressor does (a game night's
/// laptop doing other things, an old tablet): a busy shell loop a core, at the priority of
/// everything else.
pub struct Load {
    _busy: Vec<super::Process>,
}

impl Load {
    pub fn every_core() -> Load {
        let cores = std::thread::available_parallelism().map_or(2, |n| n.get());
        let busy = (0..cores)
            .map(|_| {
                let mut busy = Command::new("sh");
                busy.args(["-c", "while :; do :; done"]);
                super::Process::spawn(&mut busy).unwrap()
            })
            .collect();
        Load { _busy: busy }
    }
}
