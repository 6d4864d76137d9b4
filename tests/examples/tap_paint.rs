//! Benchmark of a tap on the table until the paint that shows it (#56): a pawn placed on a
//! card of a classic game of seven, the tile the table's screen patches (this build) beside
//! the same tap on the build before the screens were patched, when each update rebuilt the
//! whole screen (the baseline, built as this one is by `bench/taps`), taps alternating
//! between the two so both meet the same machine; on a quiet machine, then with every core
//! busy. Two figures a tap: the page's own event timing (the tap to the next paint, what
//! the browser reports as the input's delay; under 16 ms it reports none: counted 0), and
//! the tap to the first frame that shows the pawn on its card (the server's answer
//! included).
//!
//! Run with `bench/taps [TAPS]` (default 40 a build and a condition). `SEANCE_BIN` names
//! the build measured, `SEANCE_BASELINE_BIN` the baseline.

use std::path::PathBuf;
use std::time::Duration;

use fantoccini::Client;
use seance_e2e::cpu::Load;
use seance_e2e::{
    SEVEN_PSYCHICS, Table, api, chromedriver, chromium, classic_of_seven, go, tap, wait_for,
};
use serde_json::{Value, json};

const PSYCHICS: usize = SEVEN_PSYCHICS;

/// Marks each click and, once the pawn it pressed shows on its card, the frame that shows
/// it; collects the event timing of each click.
const WATCH: &str = "window.taps = []; window.timed = [];
    new PerformanceObserver((list) => { for (const e of list.getEntries()) if (e.name === 'click') timed.push(e.duration); })
      .observe({ type: 'event', durationThreshold: 16 });
    document.addEventListener('click', (e) => {
      const button = e.target.closest('.pawn button[data-card]');
      if (!button) return;
      const tile = button.closest('.psychic[data-psychic]');
      const pressed = `.psychic[data-psychic='${tile.dataset.psychic}'] .pawn button[data-card='${button.dataset.card}'][aria-pressed='true']`;
      const tapped = { at: e.timeStamp, shown: null };
      taps.push(tapped);
      const seen = () => {
        if (!document.querySelector(pressed)) return false;
        requestAnimationFrame(() => { tapped.shown = performance.now() - tapped.at; });
        return true;
      };
      if (seen()) return;
      const watch = new MutationObserver(() => { if (seen()) watch.disconnect(); });
      watch.observe(document, { subtree: true, childList: true, attributes: true });
    }, true);";

/// One table: a server of one build and its screen, in Phase 1 with every vision given.
struct Screen {
    _table: Table,
    client: Client,
    id: u64,
}

async fn screen(driver: u16, binary: PathBuf) -> Screen {
    let table = Table::start_binary(&binary);
    let client = chromium(driver, 1280, 800).await;
    go(&client, &table.local_url).await;
    wait_for(&client, "#home").await;
    let id = classic_of_seven(&client).await;
    for i in 0..PSYCHICS {
        let command = json!({"version": i, "command": {"type": "give_vision", "psychic": i}});
        api(
            &client,
            "POST",
            &format!("/mysterium/{id}/commands"),
            command,
        )
        .await;
    }
    go(&client, &format!("{}#/game/{id}", table.origin())).await;
    wait_for(&client, ".psychic .pawn button[data-card]").await;
    client.execute(WATCH, vec![]).await.unwrap();
    Screen {
        _table: table,
        client,
        id,
    }
}

impl Screen {
    /// Places psychic `i`'s pawn on the card it is not on, with a tap; returns once the
    /// frame showing it came: (event timing, or 0 under 16 ms; to the frame that shows it).
    async fn tap(&self, i: usize) -> (f64, f64) {
        let game = api(
            &self.client,
            "GET",
            &format!("/mysterium/{}", self.id),
            Value::Null,
        )
        .await;
        let on = game["view"]["psychics"][i]["intuition"].as_u64();
        let cards = game["allowed"]
            .as_array()
            .unwrap()
            .iter()
            .find(|a| a["type"] == "place_intuition" && a["psychic"] == i)
            .map(|a| a["cards"].as_array().unwrap().clone())
            .expect("the pawn is offered cards");
        let card = cards
            .iter()
            .find_map(|c| c.as_u64().filter(|&c| Some(c) != on))
            .unwrap();
        // The screen settles first: the socket's view of the tap before comes after the
        // request's answer, and a rebuild under the pointer would lose this tap.
        tokio::time::sleep(Duration::from_millis(300)).await;
        let (taps, timed) = self.counts().await;
        tap(
            &self.client,
            &format!(".psychic[data-psychic='{i}'] .pawn button[data-card='{card}']"),
        )
        .await;
        let deadline = std::time::Instant::now() + Duration::from_secs(20);
        loop {
            assert!(
                std::time::Instant::now() < deadline,
                "psychic {i}'s pawn on card {card} never showed: {}",
                self.client
                    .execute("return JSON.stringify([taps, timed])", vec![])
                    .await
                    .unwrap()
            );
            let seen = self
                .client
                .execute(
                    &format!("return [taps.length, taps.at(-1)?.shown, timed.slice({timed})]"),
                    vec![],
                )
                .await
                .unwrap();
            if seen[0].as_u64() == Some(taps as u64 + 1) && seen[1].as_f64().is_some() {
                // The event timing of the click comes with the paint after it, or never.
                tokio::time::sleep(Duration::from_millis(50)).await;
                let late = self
                    .client
                    .execute(&format!("return timed.slice({timed})"), vec![])
                    .await
                    .unwrap();
                let timing = late[0].as_f64().unwrap_or(0.0);
                return (timing, seen[1].as_f64().unwrap());
            }
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
    }

    async fn counts(&self) -> (usize, usize) {
        let seen = self
            .client
            .execute("return [taps.length, timed.length]", vec![])
            .await
            .unwrap();
        (
            seen[0].as_u64().unwrap() as usize,
            seen[1].as_u64().unwrap() as usize,
        )
    }
}

/// The median and the 95th percentile.
fn spread(mut values: Vec<f64>) -> (f64, f64) {
    values.sort_by(f64::total_cmp);
    let at = |q: f64| values[((values.len() - 1) as f64 * q).round() as usize];
    (at(0.5), at(0.95))
}

#[tokio::main]
async fn main() {
    let taps: usize = std::env::args().nth(1).map_or(40, |t| t.parse().unwrap());
    let binary = |var: &str| {
        PathBuf::from(std::env::var_os(var).unwrap_or_else(|| panic!("{var} names no build")))
    };
    let (driver, _chromedriver) = chromedriver();
    let patched = screen(driver, binary("SEANCE_BIN")).await;
    let rebuilt = screen(driver, binary("SEANCE_BASELINE_BIN")).await;
    println!(
        "A pawn placed with a tap on the table of seven, {taps} taps a build and a condition\n"
    );
    println!(
        "{:40}{:>22}{:>26}",
        "", "to the next paint", "to the pawn shown"
    );
    println!(
        "{:40}{:>22}{:>26}",
        "", "median / p95 ms", "median / p95 ms"
    );
    for loaded in [false, true] {
        let _load = loaded.then(Load::every_core);
        let mut figures = [(Vec::new(), Vec::new()), (Vec::new(), Vec::new())];
        for n in 0..taps {
            for (screen, (timing, shown)) in
                [&rebuilt, &patched].into_iter().zip(figures.iter_mut())
            {
                let (t, s) = screen.tap(n % PSYCHICS).await;
                timing.push(t);
                shown.push(s);
            }
        }
        let condition = if loaded { "every core busy" } else { "quiet" };
        let mut rows = Vec::new();
        for (build, (timing, shown)) in ["screen rebuilt (baseline)", "screen patched"]
            .iter()
            .zip(figures)
        {
            let (timing, shown) = (spread(timing), spread(shown));
            println!(
                "{:40}{:>22}{:>26}",
                format!("{condition}, {build}"),
                format!("{:.0} / {:.0}", timing.0, timing.1),
                format!("{:.0} / {:.0}", shown.0, shown.1)
            );
            rows.push((timing, shown));
        }
        // Under 16 ms the browser times nothing: a baseline of 0 has no ratio.
        let ratio = |patched: (f64, f64), rebuilt: (f64, f64)| {
            let one = |p: f64, r: f64| {
                if r > 0.0 {
                    format!("{:.2}×", p / r)
                } else {
                    "–".into()
                }
            };
            format!(
                "{} / {}",
                one(patched.0, rebuilt.0),
                one(patched.1, rebuilt.1)
            )
        };
        println!(
            "{:40}{:>22}{:>26}",
            format!("{condition}, patched / rebuilt"),
            ratio(rows[1].0, rows[0].0),
            ratio(rows[1].1, rows[0].1)
        );
    }
    patched.client.close().await.unwrap();
    rebuilt.client.close().await.unwrap();
}
