//! The history and its statistics in real Chromium: with no game yet each says so; a
//! history file saved on another table (three Mysterium games played by the rules) is
//! brought in through the file picker, and a Mystery Rummy game is played to its end; the
//! history lists them with their facts, a game is archived, another deleted (asked once)
//! and brought back; the statistics draw their charts, whose figures are in their tables,
//! and one player's are picked. Every screen fits at tablet, portrait and phone sizes in the
//! three languages with no serious accessibility problem, and is kept as a screenshot.

use fantoccini::{Client, Locator};
use seance_e2e::{
    Page, Table, accessibility_violations, api, chromium, go, misfits, screenshot, speak, tap,
    text, wait_for, wait_for_text,
};
use serde_json::{Value, json};

use crate::Test;
use seance_played::{evening, evening_file, rummy_round, vote_caller};

pub fn tests(p: u16) -> Vec<Test> {
    vec![(
        "history: games brought in and played are listed, archived, deleted and undone, and counted in charts",
        Box::pin(history(p)),
    )]
}

/// A Mystery Rummy game for Ann and Ben to its end over the API: Ann names Jack each round.
/// Gives back its number.
async fn rummy(client: &Client) -> u64 {
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
            return id;
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
            go(
                client,
                &format!("{}/?look={name}-{lang}{hash}", table.origin()),
            )
            .await;
            wait_for(client, ready).await;
            let shot = format!("{name}-{lang}-{width}x{height}");
            let mut found = Vec::new();
            // The charts are drawn a moment after the screen, each as its figures say.
            if hash == "#/statistics" {
                charts_drawn(client).await;
                found.extend(charts_disagree(client).await);
                found.extend(labels_apart(client).await);
            }
            screenshot(client, &shot).await;
            found.extend(misfits(client, true).await);
            found.extend(accessibility_violations(client).await);
            problems.extend(found.into_iter().map(|p| format!("{shot}: {p}")));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// The words under each chart's bars, each apart from the next (the ink of its text, which
/// may spill out of the box Chartist gives it): none runs into another.
async fn labels_apart(client: &Client) -> Vec<String> {
    let found = client
        .script(
            "const ink = (el) => { const r = document.createRange(); r.selectNodeContents(el); return r.getBoundingClientRect(); };
             return [...document.querySelectorAll('figure.stat-chart')].flatMap((figure) => {
               const labels = [...figure.querySelectorAll('.ct-label.ct-horizontal.ct-end')]
                 .map((el) => [el.textContent, ink(el)]).filter(([, r]) => r.width > 0);
               return labels.slice(1).flatMap(([text, r], i) => {
                 const [before, q] = labels[i];
                 const meet = q.left < r.right - 1 && r.left < q.right - 1 && q.top < r.bottom - 1 && r.top < q.bottom - 1;
                 return meet ? [`${figure.id}: \"${before}\" runs into \"${text}\"`] : [];
               });
             });",
        )
        .await;
    serde_json::from_value(found).unwrap()
}

/// Every chart on the statistics screen as drawn, against its own figures (the table a
/// screen reader reads): each series in its legend's colour, in the legend's order; each
/// row's bars in the labels' order (top to bottom, or left to right); each bar as long as
/// its number, on one scale per chart. Gives back the problems found.
async fn charts_disagree(client: &Client) -> Vec<String> {
    let script = r#"
        const colour = (el, pseudo) => getComputedStyle(el, pseudo);
        return [...document.querySelectorAll('figure.stat-chart')].map((figure) => {
          const table = figure.querySelector('table');
          const names = [...table.querySelectorAll('thead th')].slice(1).map((th) => th.textContent);
          const rows = [...table.querySelectorAll('tbody tr')].map((tr) =>
            ({ label: tr.cells[0].textContent, values: [...tr.cells].slice(1).map((td) => Number(td.textContent)) }));
          const keys = [...figure.querySelectorAll('.legend .key')].map((k) => colour(k, '::before').backgroundColor);
          const horizontal = figure.querySelector('.chart').classList.contains('horizontal');
          const groups = [...figure.querySelectorAll('svg g.ct-series')].map((g) => {
            const bars = [...g.querySelectorAll('line.ct-bar')].map((b) => {
              const [x1, x2, y1, y2] = ['x1', 'x2', 'y1', 'y2'].map((a) => Number(b.getAttribute(a)));
              return { at: horizontal ? y1 : x1, length: Math.hypot(x2 - x1, y2 - y1), value: b.getAttribute('ct:value') };
            });
            const first = g.querySelector('line.ct-bar');
            return { class: [...g.classList].find((c) => /^ct-series-[a-z]$/.test(c)),
                     stroke: first ? colour(first).stroke : null, bars };
          });
          return { id: figure.id, horizontal, names, rows, keys, groups };
        });"#;
    let charts = client.script(script).await;
    let mut problems = Vec::new();
    for chart in charts.as_array().unwrap() {
        let id = chart["id"].as_str().unwrap();
        let rows = chart["rows"].as_array().unwrap();
        let groups = chart["groups"].as_array().unwrap();
        let mut said = |p: String| problems.push(format!("{id}: {p}"));
        if groups.len() != chart["names"].as_array().unwrap().len() {
            said(format!(
                "{} series drawn, {} in the table",
                groups.len(),
                chart["names"]
            ));
            continue;
        }
        // One scale per chart: the longest bar's length per unit.
        let mut scale: Option<f64> = None;
        for (i, group) in groups.iter().enumerate() {
            let class = format!("ct-series-{}", char::from(b'a' + i as u8));
            if group["class"] != class.as_str() {
                said(format!("series {i} drawn as {}", group["class"]));
            }
            if let Some(key) = chart["keys"].as_array().unwrap().get(i)
                && group["stroke"] != *key
            {
                said(format!(
                    "series {i} drawn in {} but its legend is {key}",
                    group["stroke"]
                ));
            }
            let mut bars = group["bars"].as_array().unwrap().clone();
            // Rows from the top (horizontal) or from the left: the table's order.
            bars.sort_by(|a, b| a["at"].as_f64().partial_cmp(&b["at"].as_f64()).unwrap());
            if bars.len() != rows.len() {
                said(format!(
                    "series {i}: {} bars for {} rows",
                    bars.len(),
                    rows.len()
                ));
                continue;
            }
            for (row, bar) in rows.iter().zip(&bars) {
                let value = row["values"][i].as_f64().unwrap();
                let length = bar["length"].as_f64().unwrap();
                let label = row["label"].as_str().unwrap();
                if bar["value"].as_str().and_then(|v| v.parse::<f64>().ok()) != Some(value) {
                    said(format!(
                        "{label}, series {i}: the bar drawn is {}, the figure {value}",
                        bar["value"]
                    ));
                }
                if value == 0.0 {
                    if length > 0.5 {
                        said(format!("{label}, series {i}: {length:.1} px for 0"));
                    }
                    continue;
                }
                let per = length / value;
                match scale {
                    None => scale = Some(per),
                    Some(s) if (per - s).abs() * value > 1.5 => said(format!(
                        "{label}, series {i}: {length:.1} px for {value}, where {s:.2} px is one"
                    )),
                    Some(_) => {}
                }
            }
        }
    }
    problems
}

/// Waits until every chart on the screen is drawn.
async fn charts_drawn(client: &Client) {
    let drawn = "return [...document.querySelectorAll('figure.stat-chart .chart')].every((c) => c.querySelector('svg .ct-bar'))";
    for _ in 0..100 {
        if client.script(drawn).await == json!(true) {
            return;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    panic!("the charts are drawn within 5 s");
}

/// The rows of the table at `css` as a screen reader reads them, a line each.
async fn rows(client: &Client, css: &str) -> String {
    let script = format!(
        "return [...document.querySelectorAll(\"{css} tr\")].map((r) => [...r.cells].map((c) => c.textContent).join(' ')).join('\\n')"
    );
    client.script(&script).await.as_str().unwrap().to_owned()
}

/// `GET path` on the server at `origin` as a phone's browser first asks it: the status and
/// where it is sent on to.
fn forwarded(origin: &str, path: &str) -> (u16, String) {
    use std::io::{Read, Write};
    let host = origin.trim_start_matches("http://");
    let mut stream = std::net::TcpStream::connect(host).unwrap();
    write!(
        stream,
        "GET {path} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n"
    )
    .unwrap();
    let mut answer = String::new();
    stream.read_to_string(&mut answer).unwrap();
    let status = answer[9..12].parse().unwrap();
    let location = answer
        .lines()
        .find_map(|l| {
            let (name, value) = l.split_once(':')?;
            name.eq_ignore_ascii_case("location")
                .then(|| value.trim().to_owned())
        })
        .unwrap_or_default();
    (status, location)
}

/// The BG Stats code on the ending of game `href` (`#/game/3`), as a person's phone sees
/// it on a 1× screen of `width`×`height`: read straight off a screenshot, and again half as
/// sharp and blurred, as a camera across the table gets it; each decodes to the game's
/// short link, which forwards to BG Stats with the play `/bgstats` gives.
async fn bgstats_scans(driver: u16, table: &Table, href: &str, api_path: &str, began: Option<i64>) {
    for (width, height) in [(1280, 800), (800, 1280)] {
        let client = chromium(driver, width, height).await;
        go(&client, &table.local_url).await;
        wait_for(&client, "#home").await;
        go(&client, &format!("{}/{href}", table.origin())).await;
        wait_for(&client, "#bgstats img").await;
        let name = format!("bgstats-{}-{width}x{height}", api_path.replace('/', "-"));
        let png = screenshot(&client, &name).await;
        let rect = client
            .script(
                "const r = document.querySelector('#bgstats img').getBoundingClientRect();
                 return [devicePixelRatio, r.left, r.top, r.width, r.height];",
            )
            .await;
        let at = |i: usize| rect[i].as_f64().unwrap();
        assert_eq!(at(0), 1.0, "a 1× screen");
        assert!(
            at(4) <= f64::from(height) && at(2) + at(4) <= f64::from(height),
            "{name}: the code is on the screen without scrolling"
        );
        let screen = image::load_from_memory(&png).unwrap().to_luma8();
        // A little of the page around it, as a camera frames it.
        let crop = image::imageops::crop_imm(
            &screen,
            (at(1) as u32).saturating_sub(12),
            (at(2) as u32).saturating_sub(12),
            at(3) as u32 + 24,
            at(4) as u32 + 24,
        )
        .to_image();
        let (w, h) = crop.dimensions();
        let camera = image::imageops::blur(
            &image::imageops::resize(&crop, w / 2, h / 2, image::imageops::FilterType::Triangle),
            0.5,
        );
        camera
            .save(seance_e2e::screenshot_dir().join(format!("{name}-camera.png")))
            .unwrap();
        let sent = api(&client, "GET", &format!("{api_path}/bgstats"), Value::Null).await;
        if let Some(began) = began {
            // The evening's games, in September: Paris is two hours ahead of UTC.
            let paris = seance_history::local(began, 2 * 3600);
            assert_eq!(sent["play"]["playDate"], paris.as_str(), "{name}");
        }
        let lan = table.join_url.split("/?").next().unwrap();
        for (seen, image) in [("screen", crop), ("camera", camera)] {
            let mut png = Vec::new();
            image::DynamicImage::ImageLuma8(image)
                .write_to(&mut std::io::Cursor::new(&mut png), image::ImageFormat::Png)
                .unwrap();
            let link = seance_e2e::zbar(&png)
                .unwrap_or_else(|| panic!("{name} ({seen}): the code does not scan"));
            if seen == "screen" {
                assert_eq!(
                    seance_e2e::qr_in(&png, &name),
                    link,
                    "{name}: two decoders agree"
                );
            }
            let path = link
                .strip_prefix(lan)
                .unwrap_or_else(|| panic!("{name} ({seen}): {link} is on the table's server"));
            // Followed on this machine, as the phone follows it on the table's network.
            let (status, location) = forwarded(table.origin(), path);
            assert_eq!(status, 303, "{name} ({seen}): {link}");
            assert_eq!(location, sent["url"].as_str().unwrap(), "{name} ({seen})");
        }
        client.close().await.unwrap();
    }
}

/// The text of each element at `css`, trimmed.
async fn rows_of(client: &Client, css: &str) -> Vec<String> {
    let mut texts = Vec::new();
    for element in client.find_all(Locator::Css(css)).await.unwrap() {
        texts.push(element.text().await.unwrap().trim().to_owned());
    }
    texts
}

async fn count(client: &Client, css: &str) -> usize {
    client.find_all(Locator::Css(css)).await.unwrap().len()
}

async fn history(driver: u16) {
    // A table in Paris: BG Stats logs its plays on its clock.
    let table = Table::start_with(0, tempfile::tempdir().unwrap(), &[("TZ", "Europe/Paris")]);
    let tablet = chromium(driver, 1280, 800).await;
    go(&tablet, &table.local_url).await;
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
    go(&tablet, &format!("{}#/history", table.origin())).await;
    wait_for(&tablet, "#history-none").await;
    tablet
        .find(Locator::Css("#history-file"))
        .await
        .unwrap()
        .send_keys(path.to_str().unwrap())
        .await
        .unwrap();
    wait_for_text(&tablet, "#toast", "3 games added, 0 already here").await;
    let rummy_game = rummy(&tablet).await;
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
    // The history's own list, whole (not the archived tab's, still drawn a moment).
    let history = format!("#history-list:not(:has([data-game='{id}'])) .history-item:nth-child(3)");
    wait_for(&tablet, &history).await;
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

    // The statistics: charts, and their figures as tables, drawn with nothing the page's
    // Content Security Policy refuses (each refusal an error in the console).
    tablet
        .script("const said = document.documentElement.dataset;
             said.refused = '[]';
             document.addEventListener('securitypolicyviolation', (e) => {
               said.refused = JSON.stringify([...JSON.parse(said.refused), `${e.violatedDirective} ${e.sample}`]);
             });").await;
    tap(&tablet, "#to-statistics").await;
    wait_for(&tablet, "#chart-levels svg .ct-bar").await;
    wait_for(&tablet, "#chart-votes svg .ct-bar").await;
    let refused = tablet
        .script("return JSON.parse(document.documentElement.dataset.refused)")
        .await;
    assert_eq!(
        refused,
        serde_json::json!([]),
        "the page's policy refused these"
    );
    // Classic games only: their hours on the classic clock.
    let hours = tablet
        .script("return [...document.querySelectorAll('#chart-hours .ct-label.ct-horizontal.ct-end')].map((l) => l.textContent)")
        .await;
    assert_eq!(
        hours,
        serde_json::json!(["I", "II", "III", "IV", "V", "VI", "VII"])
    );
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
        tablet.script(&script).await;
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

    // Each ending's BG Stats code scans off the table, Mysterium's and Mystery Rummy's.
    let first = &api(&tablet, "GET", "/history?limit=20", Value::Null).await["games"];
    let mysterium = first
        .as_array()
        .unwrap()
        .iter()
        .find(|g| g["ruleset"] == "mysterium-classic")
        .unwrap();
    let began = mysterium["began"].as_i64();
    let mysterium = mysterium["id"].as_u64().unwrap();
    bgstats_scans(
        driver,
        &table,
        &format!("#/game/{mysterium}"),
        &format!("/mysterium/{mysterium}"),
        began,
    )
    .await;
    bgstats_scans(
        driver,
        &table,
        &format!("#/rummy/{rummy_game}"),
        &format!("/rummy/{rummy_game}"),
        None,
    )
    .await;

    // A game of three: each psychic player had two colours, and no track. Each is one line
    // of the history, their colours named, with no clairvoyancy.
    let three = seance_played::mysterium(
        "Laura",
        &["Ana", "Bo"],
        seance_rules::Difficulty::Easy,
        1,
        true,
    );
    let mut file = seance_played::history_file(&[(&three, seance_played::DAY - 3600, 30)]);
    file["games"][0]["origin"] = json!("another-table/three");
    let imported = api(&tablet, "POST", "/history/import", file).await;
    assert_eq!(imported["added"], 1);
    go(&tablet, &format!("{}#/history", table.origin())).await;
    // The evening's first game began an hour after it: it is the oldest.
    let card = "#history-list .history-item:last-child";
    wait_for_text(&tablet, card, "Ana").await;
    let lines = rows_of(&tablet, &format!("{card} .history-players li")).await;
    assert_eq!(lines.len(), 3, "the ghost, Ana and Bo: {lines:?}");
    for (line, name) in lines[1..].iter().zip(["Ana", "Bo"]) {
        assert!(
            line.starts_with(name) && line.matches("all 3 cards").count() == 2,
            "{line}"
        );
        assert!(!line.contains("clairvoyancy"), "{line}");
    }
    assert_eq!(
        count(&tablet, &format!("{card} li[data-colours='2'] .swatch")).await,
        4
    );
    tablet.close().await.unwrap();

    // Every screen fits at each size in each language; kept for people to look at.
    let mut screens = Vec::new();
    for (width, height) in [(1280, 800), (800, 1280), (390, 844)] {
        let client = chromium(driver, width, height).await;
        go(&client, &table.local_url).await;
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
