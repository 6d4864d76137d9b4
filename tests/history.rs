//! The history and its statistics in real Chromium: with no game yet each says so; a
//! history file saved on another table (three Mysterium games played by the rules) is
//! brought in through the file picker, and a Mystery Rummy game is played to its end; the
//! history lists them with their facts, a game is archived, another deleted (asked once)
//! and brought back; the statistics draw their charts, whose figures are in their tables,
//! and one player's are picked. Every screen fits at tablet, portrait and phone sizes in the
//! three languages with no serious accessibility problem, and is kept as a screenshot.

#[path = "../crates/server/tests/support/played.rs"]
mod played;

use fantoccini::{Client, Locator};
use seance_e2e::{
    Table, accessibility_violations, api, chromium, misfits, screenshot, speak, tap, text,
    wait_for, wait_for_text,
};
use serde_json::{Value, json};

use crate::Test;
use played::{evening, evening_file, rummy_round, vote_caller};

pub fn tests(p: u16) -> Vec<Test> {
    vec![(
        "history: games brought in and played are listed, archived, deleted and undone, and counted in charts",
        Box::pin(history(p)),
    )]
}

/// A Mystery Rummy game for Ann and Ben to its end over the API: Ann names Jack each round.
async fn rummy(client: &Client) {
    let id = api(
        client,
        "POST",
        "/rummy",
        json!({"setup": {"players": ["Ann", "Ben"]}}),
    )
    .await["id"]
        .as_u64()
        .unwrap();
    for _ in 0..30 {
        let snapshot = api(client, "GET", &format!("/rummy/{id}"), Value::Null).await;
        if !snapshot["view"]["winner"].is_null() {
            return;
        }
        for command in rummy_round(&vote_caller(&snapshot)) {
            let version =
                api(client, "GET", &format!("/rummy/{id}"), Value::Null).await["version"].clone();
            api(
                client,
                "POST",
                &format!("/rummy/{id}/commands"),
                json!({"version": version, "command": command}),
            )
            .await;
        }
    }
    panic!("a game of Mystery Rummy ends");
}

/// Each language at each size: the screen at `hash` fits (it may scroll down, never
/// sideways or off-screen) and axe-core finds no serious accessibility problem on it; kept
/// as `<name>-<lang>-<w>x<h>`.
async fn looked_at(
    table: &Table,
    screens: &[(Client, u32, u32)],
    name: &str,
    hash: &str,
    ready: &str,
) {
    let mut problems = Vec::new();
    for (client, width, height) in screens {
        for lang in ["en", "fr", "it"] {
            speak(client, lang).await;
            client
                .goto(&format!("{}/?look={name}-{lang}{hash}", table.origin()))
                .await
                .unwrap();
            wait_for(client, ready).await;
            // The charts are drawn a moment after the screen.
            if hash == "#/statistics" {
                wait_for(client, "#chart-hours svg .ct-bar").await;
            }
            let shot = format!("{name}-{lang}-{width}x{height}");
            screenshot(client, &shot).await;
            let mut found = misfits(client, true).await;
            found.extend(accessibility_violations(client).await);
            problems.extend(found.into_iter().map(|p| format!("{shot}: {p}")));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// The rows of the table at `css` as a screen reader reads them, a line each.
async fn rows(client: &Client, css: &str) -> String {
    let script = format!(
        "return [...document.querySelectorAll(\"{css} tr\")].map((r) => [...r.cells].map((c) => c.textContent).join(' ')).join('\\n')"
    );
    client
        .execute(&script, vec![])
        .await
        .unwrap()
        .as_str()
        .unwrap()
        .to_owned()
}

async fn count(client: &Client, css: &str) -> usize {
    client.find_all(Locator::Css(css)).await.unwrap().len()
}

async fn history(driver: u16) {
    let table = Table::start(0);
    let tablet = chromium(driver, 1280, 800).await;
    tablet.goto(&table.local_url).await.unwrap();
    wait_for(&tablet, "#home").await;

    // Nothing yet: each screen says so, with no empty chart.
    tap(&tablet, "#to-history").await;
    wait_for_text(&tablet, "#history-none", "No finished game yet").await;
    tap(&tablet, "#to-statistics").await;
    wait_for(&tablet, "#statistics-none").await;
    assert_eq!(count(&tablet, "#statistics svg").await, 0);

    // Another table's history, brought in through the file picker.
    let file = evening_file(&evening());
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("seance-history.json");
    std::fs::write(&path, file.to_string()).unwrap();
    tablet
        .goto(&format!("{}#/history", table.origin()))
        .await
        .unwrap();
    wait_for(&tablet, "#history-none").await;
    tablet
        .find(Locator::Css("#history-file"))
        .await
        .unwrap()
        .send_keys(path.to_str().unwrap())
        .await
        .unwrap();
    wait_for_text(&tablet, "#toast", "3 games added, 0 already here").await;
    rummy(&tablet).await;
    tablet.refresh().await.unwrap();
    wait_for(&tablet, "#history-list .history-item").await;
    assert_eq!(count(&tablet, "#history-list .history-item").await, 4);

    // The newest first, each with its facts.
    let first = text(&tablet, "#history-list .history-item:nth-child(1)").await;
    assert!(
        first.contains("Mystery Rummy") && first.contains("Ann won with"),
        "{first}"
    );
    let last = text(&tablet, "#history-list .history-item:nth-child(4)").await;
    for fact in [
        "Mysterium · Medium",
        "Won",
        "45 min",
        "the ghost",
        "all 3 cards, in hour III",
    ] {
        assert!(last.contains(fact), "{fact} in {last}");
    }
    let lost = text(&tablet, "#history-list .history-item:nth-child(3)").await;
    assert!(
        lost.contains("Lost on time") && lost.contains("0 of 3 cards"),
        "{lost}"
    );

    // Archived: on its own tab. Deleted: asked once, then undone from the top.
    let on_time_item = "#history-list .history-item:nth-child(3)";
    let id = tablet
        .find(Locator::Css(on_time_item))
        .await
        .unwrap()
        .attr("data-game")
        .await
        .unwrap()
        .unwrap();
    tap(&tablet, &format!("[data-archive='{id}']")).await;
    wait_for_text(&tablet, "#toast", "Archived").await;
    assert_eq!(count(&tablet, "#history-list .history-item").await, 3);
    tap(&tablet, "a[href='#/history/archived']").await;
    wait_for(&tablet, &format!("#history-list [data-game='{id}']")).await;
    tap(&tablet, "a[href='#/history']").await;
    wait_for(&tablet, "#history-list .history-item").await;
    let wrong_id = tablet
        .find(Locator::Css("#history-list .history-item:nth-child(2)"))
        .await
        .unwrap()
        .attr("data-game")
        .await
        .unwrap()
        .unwrap();
    tap(&tablet, &format!("[data-delete='{wrong_id}']")).await;
    assert_eq!(
        count(&tablet, &format!("#history-list [data-game='{wrong_id}']")).await,
        1,
        "asked first"
    );
    tap(&tablet, &format!("[data-delete-sure='{wrong_id}']")).await;
    wait_for(&tablet, &format!("[data-undelete='{wrong_id}']")).await;
    assert_eq!(
        count(&tablet, &format!("#history-list [data-game='{wrong_id}']")).await,
        0
    );
    screenshot(&tablet, "history-deleted-en-1280x800").await;
    tap(&tablet, &format!("[data-undelete='{wrong_id}']")).await;
    wait_for(&tablet, &format!("#history-list [data-game='{wrong_id}']")).await;
    assert!(!seance_e2e::present(&tablet, "#history-deleted").await);

    // The statistics: charts, and their figures as tables.
    tap(&tablet, "#to-statistics").await;
    wait_for(&tablet, "#chart-levels svg .ct-bar").await;
    let levels = rows(&tablet, "#chart-levels table").await;
    for row in ["Easy 0 1", "Medium 1 0", "Hard 0 1"] {
        assert!(levels.contains(row), "{row} in {levels}");
    }
    assert!(
        text(&tablet, "#statistics-mysterium .lead")
            .await
            .contains("Games: 3 · won: 1")
    );
    let ghosts = rows(&tablet, "#chart-ghosts table").await;
    assert!(
        ghosts.contains("Laura 1 1") && ghosts.contains("Stephanie 0 1"),
        "{ghosts}"
    );
    let votes = rows(&tablet, "#chart-votes table").await;
    assert!(votes.contains("Ben 0"), "{votes}");
    // The charts further down, kept for people to look at.
    for (part, css) in [("ghosts", "#chart-ghosts"), ("rummy", "#statistics-rummy")] {
        let script = format!("document.querySelector('{css}').scrollIntoView()");
        tablet.execute(&script, vec![]).await.unwrap();
        screenshot(&tablet, &format!("statistics-{part}-en-1280x800")).await;
    }
    // One player: Ann played only Mystery Rummy.
    tablet
        .find(Locator::Css("#statistics-among option[value='player:Ann']"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    wait_for(&tablet, "#statistics-rummy").await;
    tokio::time::sleep(std::time::Duration::from_millis(300)).await;
    assert!(!seance_e2e::present(&tablet, "#statistics-mysterium").await);
    tablet.close().await.unwrap();

    // Every screen fits at each size in each language; kept for people to look at.
    let mut screens = Vec::new();
    for (width, height) in [(1280, 800), (800, 1280), (390, 844)] {
        let client = chromium(driver, width, height).await;
        client.goto(&table.local_url).await.unwrap();
        wait_for(&client, "#home").await;
        screens.push((client, width, height));
    }
    looked_at(
        &table,
        &screens,
        "history",
        "#/history",
        "#history-list .history-item",
    )
    .await;
    looked_at(
        &table,
        &screens,
        "statistics",
        "#/statistics",
        "#statistics-mysterium",
    )
    .await;
    for (client, ..) in screens {
        client.close().await.unwrap();
    }
}
