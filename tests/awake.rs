//! A phone's screen kept awake where the table is reached as on a game night: by its name on
//! the network, over plain http, where no browser gives a page the Screen Wake Lock. Seated,
//! the phone plays the tiny silent video instead (started by a tap where the browser wants
//! one, as Safari does), fetched only then; it lets it go (paused, taken off the page) when
//! its seat is freed; after a reload the next tap takes it again. In WebKit, a phone at the
//! table's loopback address (a secure page) takes the wake lock again at the next tap after
//! a reload.

use std::time::{Duration, Instant};

use fantoccini::Client;
use seance_e2e::lan::{NAME, Proxy};
use seance_e2e::{Browsers, Engine, Page, Table, api_as, go, misfits, scan, tap, wait_for};
use serde_json::{Value, json};

use crate::Test;

pub fn tests(p: u16) -> Vec<Test> {
    in_engine(Browsers::chromium(p))
}

pub fn in_engine(browsers: Browsers) -> Vec<Test> {
    let name = match browsers.engine() {
        Engine::Chromium => {
            "chromium: awake: a phone at the table's network name keeps its screen on with the silent video, and lets go"
        }
        Engine::WebKit => {
            "webkit: awake: a phone at the table's network name keeps its screen on with the silent video from a tap, again after a reload, and lets go"
        }
        Engine::Firefox => {
            "firefox: awake: a phone at the table's network name keeps its screen on with the silent video, and lets go"
        }
    };
    vec![(name, Box::pin(kept_awake(browsers)))]
}

/// What keeps the page's screen awake, as it says on its root (`data-awake`).
async fn awake(client: &Client) -> String {
    let said = client
        .script("return document.documentElement.dataset.awake ?? ''")
        .await;
    said.as_str().unwrap_or_default().to_owned()
}

/// Waits (up to 20 s) until the page says `want`.
async fn awake_is(client: &Client, want: &str) {
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        let now = awake(client).await;
        if now == want {
            return;
        }
        assert!(
            Instant::now() < deadline,
            "data-awake is {now:?}, never {want:?}"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// Waits (up to 20 s) until the page says one of `states`, and gives it.
async fn awake_in(client: &Client, states: &[&str]) -> String {
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        let now = awake(client).await;
        if states.contains(&now.as_str()) {
            return now;
        }
        assert!(
            Instant::now() < deadline,
            "data-awake is {now:?}, never one of {states:?}"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// The silent video as the page has it: playing or not, where it is in it, and what a
/// browser asks of it to keep the screen on (sound not muted, a sound track, no loop).
async fn video(client: &Client) -> Value {
    client
        .script("const v = document.getElementById('awake-video');
             if (!v) return null;
             const audio = v.mozHasAudio ?? (v.audioTracks ? v.audioTracks.length > 0
               : (v.webkitAudioDecodedByteCount ?? 0) > 0);
             const box = v.getBoundingClientRect();
             return { paused: v.paused, time: v.currentTime, muted: v.muted, loop: v.loop,
               volume: v.volume, audio, src: v.currentSrc, shown: box.width > 0 && box.height > 0 };").await
}

/// Asserts that the silent video plays: not paused, its time moving on between two reads
/// (read again if it was sent back to its start between them), audible to the browser.
async fn plays(client: &Client, engine: &str) -> String {
    let deadline = Instant::now() + Duration::from_secs(15);
    loop {
        let before = video(client).await;
        tokio::time::sleep(Duration::from_millis(700)).await;
        let after = video(client).await;
        let moved = |v: &Value| v["time"].as_f64().unwrap_or(0.0);
        if after["paused"] == false && before["paused"] == false && moved(&after) > moved(&before) {
            assert_eq!(after["muted"], false, "{engine}: {after}");
            assert_eq!(after["loop"], false, "{engine}: {after}");
            assert_eq!(after["shown"], true, "{engine}: {after}");
            assert!(after["volume"].as_f64().unwrap() > 0.0, "{engine}: {after}");
            // Chromium counts the sound it decoded once some has been.
            let deadline = Instant::now() + Duration::from_secs(5);
            while video(client).await["audio"] != true {
                assert!(
                    Instant::now() < deadline,
                    "{engine}: no sound track: {after}"
                );
                tokio::time::sleep(Duration::from_millis(100)).await;
            }
            return after["src"].as_str().unwrap_or_default().to_owned();
        }
        assert!(
            Instant::now() < deadline,
            "{engine}: the silent video does not play: {before} then {after}"
        );
    }
}

/// The files of `ui/awake/` the page has fetched.
async fn fetched_media(client: &Client) -> Vec<String> {
    let found = client
        .script(
            "return performance.getEntriesByType('resource').map((e) => new URL(e.name).pathname)
               .filter((p) => p.includes('/awake/'))",
        )
        .await;
    serde_json::from_value(found).unwrap()
}

/// Each of the video's files this browser says it can play, played (muted, apart from the
/// page's own): `file: ok`, or `file: not for this browser`.
async fn every_source_plays(client: &Client) -> Vec<String> {
    let tried = client
        .execute_async(
            "const done = arguments[arguments.length - 1];
             const sources = [...document.querySelectorAll('#awake-video source')];
             Promise.all(sources.map((s) => new Promise((resolve) => {
               const name = new URL(s.src).pathname.split('/').pop();
               if (!document.createElement('video').canPlayType(s.type)) return resolve(`${name}: not for this browser`);
               const v = document.createElement('video');
               v.muted = true;
               v.playsInline = true;
               v.src = s.src;
               const give = setTimeout(() => { v.pause(); resolve(`${name}: did not play`); }, 8000);
               v.addEventListener('timeupdate', () => {
                 if (v.currentTime > 0.2) { clearTimeout(give); v.pause(); resolve(`${name}: ok`); }
               });
               v.play().catch((e) => { clearTimeout(give); resolve(`${name}: ${e.name}`); });
             }))).then(done);",
            vec![],
        )
        .await
        .unwrap();
    serde_json::from_value(tried).unwrap()
}

async fn kept_awake(browsers: Browsers) {
    let started = Instant::now();
    let engine = browsers.engine().name();
    let table = Table::start(0);
    let port: u16 = table.origin().rsplit(':').next().unwrap().parse().unwrap();
    let key = table.local_url.rsplit_once("key=").unwrap().1.to_owned();
    let proxy = Proxy::start().await;
    let origin = format!("http://{NAME}:{port}");
    let phone = browsers.open_at_name(390, 844, &proxy).await;
    go(&phone, &format!("{origin}/?code={}", table.code())).await;
    wait_for(&phone, "#home").await;
    // A page here is not a secure one: no wake lock in any engine.
    let secure = phone
        .script("return [window.isSecureContext, 'wakeLock' in navigator]")
        .await;
    assert_eq!(secure, json!([false, false]), "{engine} at {origin}");

    let setup = json!({"ghost": "Laura", "difficulty": "easy", "secrets": "app_kept", "players": [
        {"name": "Stephanie", "colours": ["red"]}, {"name": "Alex", "colours": ["blue"]},
        {"name": "Carl", "colours": ["green"]}]});
    let id = api_as(
        &phone,
        Some(&key),
        "POST",
        "/mysterium",
        json!({"setup": setup, "seed": 5}),
    )
    .await["id"]
        .as_u64()
        .unwrap();
    go(&phone, &format!("{origin}/#/join/{id}")).await;
    wait_for(&phone, "button[data-seat='psychic:0']").await;
    // The way to a seat fetches nothing of it.
    assert_eq!(fetched_media(&phone).await, Vec::<String>::new());
    tap(&phone, "button[data-seat='psychic:0']").await;
    wait_for(&phone, "#phone[data-role='psychic:0'][data-version]").await;
    // Played at once where the seat's tap lets the page start a sound (WebKit, as on an
    // iPhone, carries a tap on to what it led to for a second), else at the next tap.
    tokio::time::sleep(Duration::from_millis(500)).await;
    let first = awake_in(&phone, &["waiting-tap", "video"]).await;
    if awake(&phone).await == "waiting-tap" {
        tap(&phone, "#phone-me").await;
    }
    awake_is(&phone, "video").await;
    let src = plays(&phone, engine).await;
    let mut files = fetched_media(&phone).await;
    files.dedup();
    assert_eq!(
        files.len(),
        1,
        "one of the video's files, fetched now: {files:?}"
    );
    let sources = every_source_plays(&phone).await;
    assert!(
        sources
            .iter()
            .all(|s| s.ends_with(": ok") || s.ends_with("not for this browser"))
            && sources.iter().any(|s| s.ends_with(": ok")),
        "{engine}: {sources:?}"
    );
    assert!(
        !present_notice(&phone).await,
        "no word that it may sleep: it will not"
    );
    // The video's speck is nothing the page's fit minds.
    let found = misfits(&phone, true).await;
    assert!(
        !found.iter().any(|m| m.contains("awake")),
        "{engine}: the phone with its video: {found:?}"
    );
    eprintln!("{engine}: seated at {origin}, {first} first, then the video {src}; {sources:?}");

    // Reloaded, the page asks again at the next tap: WebKit, as on an iPhone, starts no
    // sound before it.
    phone.refresh().await.unwrap();
    wait_for(&phone, "#phone[data-role='psychic:0'][data-version]").await;
    tokio::time::sleep(Duration::from_millis(500)).await;
    let reloaded = awake_in(&phone, &["waiting-tap", "video"]).await;
    if browsers.engine() == Engine::WebKit {
        assert_eq!(reloaded, "waiting-tap", "after a reload, before a tap");
    }
    if awake(&phone).await == "waiting-tap" {
        tap(&phone, "#phone-me").await;
    }
    awake_is(&phone, "video").await;
    plays(&phone, engine).await;
    eprintln!("{engine}: after a reload, {reloaded}, then the video again");

    // The seat freed, the screen may sleep: the video is paused and taken off the page.
    phone
        .script(
            "document.getElementById('awake-video').addEventListener('pause', () => {
               document.documentElement.dataset.awakePaused = 'yes'; });",
        )
        .await;
    api_as(
        &phone,
        Some(&key),
        "DELETE",
        &format!("/mysterium/{id}/seats/psychic:0"),
        Value::Null,
    )
    .await;
    awake_is(&phone, "off").await;
    let left = phone
        .script("return [document.getElementById('awake-video'), document.documentElement.dataset.awakePaused ?? null]").await;
    assert_eq!(left, json!([null, "yes"]), "{engine}: the video let go");

    if browsers.engine() == Engine::WebKit {
        lock_after_reload(&browsers, &table, &key, id).await;
    }
    phone.close().await.unwrap();
    eprintln!("{engine}: awake test took {:?}", started.elapsed());
}

/// Whether the page says its screen may go to sleep.
async fn present_notice(client: &Client) -> bool {
    seance_e2e::present(client, "#awake-notice").await
}

/// A WebKit phone at the table's loopback address (a secure page, where WebKit has the wake
/// lock but gives it inside a tap only): seated, then reloaded, the next tap keeps its
/// screen on again.
async fn lock_after_reload(browsers: &Browsers, table: &Table, key: &str, id: u64) {
    let phone = browsers.open(390, 844).await;
    scan(&phone, table).await;
    let secure = phone
        .script("return [window.isSecureContext, 'wakeLock' in navigator]")
        .await;
    assert_eq!(secure, json!([true, true]), "webkit at {}", table.origin());
    go(&phone, &format!("{}/#/join/{id}", table.origin())).await;
    tap(&phone, "button[data-seat='psychic:1']").await;
    wait_for(&phone, "#phone[data-role='psychic:1'][data-version]").await;
    for round in ["seated", "reloaded"] {
        if round == "reloaded" {
            phone.refresh().await.unwrap();
            wait_for(&phone, "#phone[data-role='psychic:1'][data-version]").await;
        }
        let before = awake_in(&phone, &["waiting-tap", "held", "video"]).await;
        // A tap, twice where the wake lock is refused even inside one (the video then).
        for _ in 0..2 {
            if awake(&phone).await == "waiting-tap" {
                tap(&phone, "#phone-me").await;
                tokio::time::sleep(Duration::from_millis(300)).await;
            }
        }
        let after = awake_in(&phone, &["held", "video"]).await;
        eprintln!("webkit at loopback, {round}: {before}, then after a tap {after}");
    }
    api_as(
        &phone,
        Some(key),
        "DELETE",
        &format!("/mysterium/{id}/seats/psychic:1"),
        Value::Null,
    )
    .await;
    awake_is(&phone, "off").await;
    phone.close().await.unwrap();
}
