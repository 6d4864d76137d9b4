//! The headless server in a real Chromium, as a phone or a browser table screen sees it.

use std::time::Duration;

use fantoccini::Client;
use seance_e2e::{
    Browsers, Page, Process, Table, accessibility_violations, act, api, attr, chromedriver,
    chromium, free_port, go, misfits, no_page_errors, present, screenshot, screenshot_qr, speak,
    tap, text, wait_for, wait_for_text, wav,
};
use serde_json::json;

use crate::Test;

pub struct Suite {
    port: u16,
    _driver: Process,
}

impl Suite {
    pub fn start() -> Suite {
        let (port, driver) = chromedriver();
        Suite {
            port,
            _driver: driver,
        }
    }

    pub fn port(&self) -> u16 {
        self.port
    }

    pub fn tests(&self) -> Vec<Test> {
        let p = self.port;
        vec![
            (
                "chromium: the home screen loads and its QR code is the join link",
                Box::pin(home_and_qr(p)),
            ),
            (
                "chromium: the WebSocket connects and counts the screens",
                Box::pin(sockets(p)),
            ),
            (
                "chromium: a device without the code is asked for it",
                Box::pin(code_entry(p)),
            ),
            (
                "chromium: a phone that opens the table's address by hand only watches",
                Box::pin(watcher(p)),
            ),
            (
                "chromium: a page of another site cannot lock the table out",
                Box::pin(other_site(p)),
            ),
            (
                "chromium: an undo, a double tap and a refusal, told in the table's language",
                Box::pin(told(p)),
            ),
            (
                "chromium: the language switch is kept by the table",
                Box::pin(language(p)),
            ),
            (
                "chromium: a journal that lost its latest changes is told, and the table recovers it",
                Box::pin(journal_trouble(p)),
            ),
            (
                "chromium: after a crash the sand timer waits, paused, and the table says why",
                Box::pin(timer_after_crash(p)),
            ),
            (
                "chromium: a busy port moves the table and the QR code follows",
                Box::pin(busy_port(p)),
            ),
            ("chromium: the phone layout fits", Box::pin(phone(p))),
            (
                "chromium: the sounds are really there, rendered offline",
                Box::pin(sounds(p)),
            ),
            (
                "chromium: the sound settings are kept by the table",
                Box::pin(sound_settings(p)),
            ),
            (
                "chromium: the players' own music plays as a playlist",
                Box::pin(own_music(p)),
            ),
            (
                "chromium: axe-core finds no serious accessibility problem",
                Box::pin(accessibility(p)),
            ),
            (
                "chromium: Settings → Licences names the version and every library's licence",
                Box::pin(licences(p)),
            ),
        ]
    }
}

/// A page of another origin on the same computer (another port) that makes the browser
/// ask the table's address with wrong codes, again and again, locks nobody out: the
/// table's own screen, in the same browser, is served at once.
async fn other_site(driver: u16) {
    let table = Table::start(0);
    let client = chromium(driver, 1280, 800).await;
    let images: String = (0..30)
        .map(|i| format!("<img src='{}/api/info?code=WRONG{i}'>", table.origin()))
        .collect();
    let page = format!("<!doctype html><p id=ready>elsewhere</p>{images}");
    let elsewhere = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let address = elsewhere.local_addr().unwrap();
    // The other origin: a server that answers every request with the page.
    tokio::spawn(async move {
        use tokio::io::{AsyncReadExt, AsyncWriteExt};
        while let Ok((mut stream, _)) = elsewhere.accept().await {
            let mut request = [0u8; 4096];
            let _ = stream.read(&mut request).await;
            let answer = format!(
                "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{page}",
                page.len()
            );
            let _ = stream.write_all(answer.as_bytes()).await;
        }
    });
    go(&client, &format!("http://{address}/")).await;
    wait_for(&client, "#ready").await;
    let settled = "return [...document.images].every((i) => i.complete)";
    while client.script(settled).await != serde_json::json!(true) {
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    go(&client, &table.local_url).await;
    wait_for(&client, "#home").await;
    wait_for_text(&client, "#connection", "Connected").await;
    client.close().await.unwrap();
}

async fn home_and_qr(driver: u16) {
    let table = Table::start(0);
    let client = chromium(driver, 1280, 800).await;
    go(&client, &table.local_url).await;
    wait_for(&client, "#home").await;
    assert_eq!(client.title().await.unwrap(), "Séance");
    let code = text(&client, "#table-code").await;
    assert_eq!(code.replace('-', ""), table.code());
    let address = text(&client, "#join-url").await;
    assert!(
        table.join_url.starts_with(&format!("http://{address}/")),
        "{address}"
    );
    assert!(
        !client
            .current_url()
            .await
            .unwrap()
            .as_str()
            .contains("key="),
        "the table key leaves the address bar"
    );
    // The QR element is a PNG of the join link, scaled up square; what a phone's camera reads off the screen is that link.
    let qr = attr(&client, "#join-qr", "src").await.unwrap();
    assert!(qr.starts_with("/api/qr.png"));
    wait_for_text(&client, "#connection", "Connected").await;
    assert_eq!(
        screenshot_qr(&client, "home-en-1280x800").await,
        table.join_url
    );
    client.close().await.unwrap();
}

async fn sockets(driver: u16) {
    let table = Table::start(0);
    let first = chromium(driver, 1280, 800).await;
    go(&first, &table.local_url).await;
    wait_for_text(&first, "#connection", "1 screen connected").await;
    let second = chromium(driver, 1280, 800).await;
    go(&second, &table.local_url).await;
    wait_for_text(&second, "#connection", "2 screens connected").await;
    wait_for_text(&first, "#connection", "2 screens connected").await;
    second.close().await.unwrap();
    wait_for_text(&first, "#connection", "1 screen connected").await;
    first.close().await.unwrap();
}

async fn code_entry(driver: u16) {
    let table = Table::start(0);
    let client = chromium(driver, 1280, 800).await;
    go(&client, table.origin()).await;
    wait_for(&client, "#code-entry").await;
    let input = wait_for(&client, "#code-input").await;
    input.send_keys("ZZZZZ-ZZZZZ").await.unwrap();
    tap(&client, "#code-entry button[type=submit]").await;
    wait_for_text(&client, "#code-entry .error", "not this table's").await;
    // The code as a person types it: lower case, with the dash.
    let typed = format!("{}-{}", &table.code()[..5], &table.code()[5..]).to_lowercase();
    let input = wait_for(&client, "#code-input").await;
    input.send_keys(&typed).await.unwrap();
    tap(&client, "#code-entry button[type=submit]").await;
    wait_for(&client, "#home").await;
    client.close().await.unwrap();
}

/// The QR code gives the join code, never the table's powers: a phone that scanned it and
/// then opens the table's own address (or a game's) by hand sees the table as a watcher,
/// with none of its controls; the table, which opened its link, needed no typing.
async fn watcher(driver: u16) {
    let table = Table::start(0);
    let tablet = chromium(driver, 1280, 800).await;
    go(&tablet, &table.local_url).await;
    wait_for(&tablet, "#new-game").await;
    let setup = json!({"setup": {"ghost": "Laura", "difficulty": "easy", "secrets": "app_kept",
        "players": [{"name": "Stephanie", "colours": ["red"]}, {"name": "Alex", "colours": ["blue"]},
                    {"name": "Carl", "colours": ["green"]}]}});
    let id = api(&tablet, "POST", "/mysterium", setup).await["id"]
        .as_u64()
        .unwrap();

    let phone = chromium(driver, 390, 844).await;
    go(&phone, &table.phone_url).await;
    wait_for(&phone, "#join-game").await;
    assert!(
        !present(&phone, "#new-game").await,
        "a phone starts no game"
    );
    go(&phone, &format!("{}/#/game/{id}", table.origin())).await;
    wait_for(&phone, "#watching").await;
    wait_for(&phone, "[data-psychic='2']").await;
    for control in ["#undo", "#redo", "#phones", "#ghost-look"] {
        assert!(
            !present(&phone, control).await,
            "a watcher has no {control}"
        );
    }
    let inert: bool = phone
        .script("return document.querySelector('.board').inert")
        .await
        .as_bool()
        .unwrap();
    assert!(inert, "a watcher cannot tap the board");
    let toast = phone
        .script(
            "const t = document.getElementById('toast'); return t.hidden ? null : t.textContent",
        )
        .await;
    assert!(toast.is_null(), "a watcher is told of no error: {toast}");
    screenshot(&phone, "watcher-game-390x844").await;
    phone
        .script("window.scrollTo(0, document.body.scrollHeight)")
        .await;
    screenshot(&phone, "watcher-game-bottom-390x844").await;
    // The table, meanwhile, keeps its controls.
    go(&tablet, &format!("{}#/game/{id}", table.origin())).await;
    wait_for(&tablet, "#undo").await;
    assert!(!present(&tablet, "#watching").await);
    for client in [tablet, phone] {
        client.close().await.unwrap();
    }
}

/// On a French table: the table gives Stephanie her vision and undoes it, and her phone
/// reads who undid what; a double tap on the crow spends one crow; the table frees her
/// seat, and her phone reads why, in French.
async fn told(driver: u16) {
    let table = Table::start(0);
    let tablet = chromium(driver, 1280, 800).await;
    go(&tablet, &table.local_url).await;
    wait_for(&tablet, "#new-game").await;
    api(&tablet, "PUT", "/settings", json!({"language": "fr"})).await;
    let setup = json!({"setup": {"ghost": "Laura", "difficulty": "medium", "secrets": "app_kept",
        "players": [{"name": "Stephanie", "colours": ["red"]}, {"name": "Alex", "colours": ["blue"]},
                    {"name": "Carl", "colours": ["green"]}]}});
    let id = api(&tablet, "POST", "/mysterium", setup).await["id"]
        .as_u64()
        .unwrap();
    // Her browser speaks none of Séance's languages: her phone speaks the table's.
    let phone = Browsers::chromium(driver)
        .open_speaking(390, 844, "de-DE")
        .await;
    go(&phone, &table.phone_url).await;
    wait_for(&phone, "html[lang='fr'] #home").await;
    go(&phone, &format!("{}/#/join/{id}", table.origin())).await;
    tap(&phone, "button[data-seat='psychic:0']").await;
    wait_for(&phone, "#phone[data-role='psychic:0']").await;
    go(&tablet, &format!("{}#/game/{id}", table.origin())).await;
    tap(&tablet, "#begin").await;
    act(&tablet, "button[data-vision='0']").await;
    wait_for_text(&phone, "#last-change", "Stephanie a reçu une vision").await;
    act(&tablet, "#undo").await;
    let said = wait_for_text(&phone, "#last-change.undone", "La table a annulé").await;
    assert!(said.contains("Stephanie a reçu une vision"), "{said}");
    screenshot(&phone, "told-undo-fr-390x844").await;

    // Two taps in a row on the crow, as an impatient hand does: one crow is spent.
    let crows = |client: &Client| {
        let client = client.clone();
        async move { text(&client, "#crows-left").await }
    };
    let before = crows(&tablet).await;
    tablet
        .script("const crow = document.getElementById('crow'); crow.click(); crow.click();")
        .await;
    wait_for_text(&tablet, "#last-change", "corbeau").await;
    tokio::time::sleep(Duration::from_millis(500)).await;
    let after: u32 = crows(&tablet).await.parse().unwrap();
    assert_eq!(
        after + 1,
        before.parse::<u32>().unwrap(),
        "one crow for a double tap"
    );
    let toast = tablet
        .script(
            "const t = document.getElementById('toast'); return t.hidden ? null : t.textContent",
        )
        .await;
    // The crow spent is announced, once; a double tap is no error.
    assert_eq!(
        toast,
        format!("Le fantôme a utilisé un corbeau\u{a0}: il en reste {after}."),
        "a double tap is not an error"
    );
    assert!(present(&tablet, "#crow.spent").await, "the crows flash");

    tap(&tablet, "#phones").await;
    tap(&tablet, "#hidden button[data-free='psychic:0']").await;
    let why = wait_for_text(&phone, "#seats", "La table a libéré votre place").await;
    assert!(!why.contains("seat"), "no English on a French table: {why}");
    screenshot(&phone, "told-freed-fr-390x844").await;
    for client in [tablet, phone] {
        client.close().await.unwrap();
    }
}

async fn language(driver: u16) {
    let table = Table::start(0);
    let client = chromium(driver, 1280, 800).await;
    go(&client, &table.local_url).await;
    wait_for(&client, "#home").await;
    tap(&client, ".languages button[lang=fr]").await;
    wait_for_text(&client, "#join-title", "Rejoindre depuis un téléphone").await;
    wait_for_text(&client, "#connection", "Connecté").await;
    screenshot_qr(&client, "home-fr-1280x800").await;
    client.close().await.unwrap();

    // A new screen on the table machine opens in the table's language.
    let fresh = chromium(driver, 1280, 800).await;
    go(&fresh, &table.local_url).await;
    wait_for_text(&fresh, "#join-title", "Rejoindre depuis un téléphone").await;
    tap(&fresh, ".languages button[lang=it]").await;
    wait_for_text(&fresh, "#join-title", "Unisciti da un telefono").await;
    screenshot_qr(&fresh, "home-it-1280x800").await;
    tap(&fresh, "a[href='#/settings']").await;
    wait_for_text(&fresh, "#settings h1", "Impostazioni").await;
    fresh.close().await.unwrap();
}

/// A table with a 3-player game on the table screen at 1280×800, `visions` visions given.
async fn table_with_a_game(driver: u16, visions: u64) -> (Table, Client, serde_json::Value) {
    let table = Table::start(0);
    let client = chromium(driver, 1280, 800).await;
    go(&client, &table.local_url).await;
    wait_for(&client, "#home").await;
    let setup = json!({"ghost": "Laura", "difficulty": "easy", "secrets": "app_kept", "players": [
        {"name": "Stephanie", "colours": ["red"]}, {"name": "Alex", "colours": ["blue"]},
        {"name": "Carl", "colours": ["green"]}]});
    let game = api(&client, "POST", "/mysterium", json!({"setup": setup})).await["id"].clone();
    for psychic in 0..visions {
        let vision =
            json!({"version": psychic, "command": {"type": "give_vision", "psychic": psychic}});
        api(
            &client,
            "POST",
            &format!("/mysterium/{game}/commands"),
            vision,
        )
        .await;
    }
    (table, client, game)
}

async fn journal_trouble(driver: u16) {
    // A game with a vision given, then a crash, and the write-ahead log lost with it.
    let (table, client, _) = table_with_a_game(driver, 1).await;
    let dir = table.crash();
    std::fs::remove_file(dir.path().join("seance.sqlite3-wal")).unwrap();
    let journal = std::fs::read(dir.path().join("seance.sqlite3")).unwrap();

    let table = Table::start_in(0, dir);
    go(&client, &table.local_url).await;
    wait_for(&client, "#journal").await;
    tap(&client, ".languages button[lang=fr]").await;
    let found = wait_for_text(
        &client,
        "#journal-found",
        "Les derniers changements du journal manquent",
    )
    .await;
    assert!(
        found.contains("il en contient 0, mais 2 avaient été écrits"),
        "{found}"
    );
    assert!(
        std::fs::read(table.data_dir.path().join("seance.sqlite3")).unwrap() == journal,
        "the journal is left as it was until the table chooses"
    );
    screenshot(&client, "journal-trouble-fr-1280x800").await;
    // A phone is told the table is choosing, and waits for it.
    // Its browser speaks none of Séance's languages: it speaks the table's.
    let phone = Browsers::chromium(driver)
        .open_speaking(390, 844, "de-DE")
        .await;
    go(&phone, &table.phone_url).await;
    wait_for_text(&phone, "#journal", "La table s'occupe de son journal").await;
    assert!(
        !present(&phone, "#journal-recover").await,
        "only the table chooses"
    );
    tap(&client, "#journal-recover").await;
    // The server starts again on the recovered journal, and both screens with it.
    wait_for(&client, "#home").await;
    wait_for(&phone, "#home").await;
    phone.close().await.unwrap();
    let listed = api(&client, "GET", "/games", json!(null)).await;
    assert_eq!(
        listed,
        json!([]),
        "the game never reached the file: nothing to list"
    );
    let kept = std::fs::read_dir(table.data_dir.path())
        .unwrap()
        .filter_map(|e| e.ok())
        .find(|e| {
            // The journal itself, not the mark kept with it.
            let name = e.file_name().to_string_lossy().into_owned();
            let stamp = name.strip_prefix("seance.sqlite3.damaged-").unwrap_or("x");
            stamp.bytes().all(|b| b.is_ascii_digit())
        })
        .expect("the old journal is kept beside the new one");
    assert!(
        std::fs::read(kept.path()).unwrap() == journal,
        "the old journal is kept byte for byte"
    );
    client.close().await.unwrap();
}

async fn timer_after_crash(driver: u16) {
    // The last of three visions turns the sand.
    let (table, client, game) = table_with_a_game(driver, 3).await;
    go(&client, &format!("{}#/game/{game}", table.local_url)).await;
    wait_for_text(&client, "#sand-timer", "1:5").await;
    // The server dies: the screen says so, its buttons wait, the sand stands still.
    let port: u16 = table
        .origin()
        .rsplit(':')
        .next()
        .and_then(|p| p.parse().ok())
        .unwrap();
    let dir = table.crash();
    wait_for_text(&client, "#offline", "Reconnecting to the table").await;
    // The screen stays tappable: a command tapped while the server is away is kept and
    // sent once it is back (network.rs), never swallowed by a screen that ignores taps.
    let taps = client
        .script("return getComputedStyle(document.getElementById('app')).pointerEvents")
        .await;
    assert_ne!(
        taps,
        json!("none"),
        "taps are kept while the server is away"
    );
    let frozen = text(&client, "#timer-digits").await;
    tokio::time::sleep(Duration::from_millis(1500)).await;
    assert_eq!(
        text(&client, "#timer-digits").await,
        frozen,
        "the sand stands still"
    );
    screenshot(&client, "server-lost-1280x800").await;
    // Started again on the same port: the screen comes back and says what it found.
    let _table = Table::start_in(port, dir);
    let told = wait_for_text(&client, "#toast", "Connected again").await;
    assert!(told.contains("the sand timer paused at"), "{told}");
    assert!(!present(&client, "#offline:not([hidden])").await);
    let note = wait_for_text(
        &client,
        "#timer-interrupted",
        "the timer waits where it was",
    )
    .await;
    assert!(note.contains("Resume when everyone is ready"), "{note}");
    let before = text(&client, "#timer-digits").await;
    tokio::time::sleep(Duration::from_millis(1500)).await;
    assert_eq!(text(&client, "#timer-digits").await, before, "paused");
    screenshot(&client, "timer-after-crash-1280x800").await;
    tap(&client, "#timer-resume").await;
    wait_for(&client, "#timer-pause").await;
    assert!(
        !present(&client, "#timer-interrupted").await,
        "running again, nothing to say"
    );
    client.close().await.unwrap();
}

async fn busy_port(driver: u16) {
    let busy = free_port();
    let _holder = std::net::TcpListener::bind(("0.0.0.0", busy)).unwrap();
    let table = Table::start(busy);
    assert!(
        !table.local_url.contains(&format!(":{busy}/")),
        "{}",
        table.local_url
    );
    let client = chromium(driver, 1280, 800).await;
    go(&client, &table.local_url).await;
    wait_for(&client, "#home").await;
    let read = screenshot_qr(&client, "home-moved-port").await;
    assert_eq!(read, table.join_url);
    assert!(!read.contains(&format!(":{busy}/")));
    client.close().await.unwrap();
}

async fn phone(driver: u16) {
    let table = Table::start(0);
    let client = chromium(driver, 390, 844).await;
    go(&client, &table.local_url).await;
    wait_for(&client, "#home").await;
    let overflow: bool = client
        .script("return document.documentElement.scrollWidth > window.innerWidth")
        .await
        .as_bool()
        .unwrap();
    assert!(!overflow, "nothing may stick out sideways on a phone");
    let small_targets = client
        .script("return [...document.querySelectorAll('button, a')].filter(e => { const r = e.getBoundingClientRect(); return r.width < 44 || r.height < 44; }).map(e => e.textContent)").await;
    assert_eq!(
        small_targets,
        json!([]),
        "every touch target is at least 44 px"
    );
    client
        .script("document.getElementById('join-qr').scrollIntoView({block: 'center'})")
        .await;
    assert_eq!(
        screenshot_qr(&client, "home-en-390x844").await,
        table.join_url
    );
    client.close().await.unwrap();
}

/// Renders every sound in an OfflineAudioContext in the page and measures it there.
const MEASURE_SOUNDS: &str = r#"
const done = arguments[arguments.length - 1];
(async () => {
  const synth = await import(new URL('sound/synth.js', document.querySelector('script[type=module]').src));
  const rate = 16000;
  const render = async (seconds, play) => {
    const ctx = new OfflineAudioContext(1, Math.ceil(rate * seconds), rate);
    play(ctx, ctx.destination);
    return (await ctx.startRendering()).getChannelData(0);
  };
  const win = rate / 100;
  const envelope = (d) => {
    const out = [];
    for (let i = 0; i + win <= d.length; i += win) {
      let sum = 0;
      for (let j = i; j < i + win; j++) sum += d[j] * d[j];
      out.push(Math.sqrt(sum / win));
    }
    return out;
  };
  // An onset: a 10 ms window well above the 60 ms before it.
  const onsets = (d) => {
    const e = envelope(d);
    const top = Math.max(...e);
    const found = [];
    for (let i = 1; i < e.length; i++) {
      const before = Math.max(...e.slice(Math.max(0, i - 6), i), 1e-6);
      if (e[i] > 0.2 * top && e[i] > 3 * before) { found.push(i / 100); i += 5; }
    }
    return found;
  };
  const peak = (d) => d.reduce((m, x) => Math.max(m, Math.abs(x)), 0);
  const rms = (d) => Math.sqrt(d.reduce((s, x) => s + x * x, 0) / d.length);
  const strikes = {};
  for (const hour of [1, 4, 7]) {
    strikes[hour] = onsets(await render(0.6 + hour * synth.STRIKE_GAP, (c, o) => synth.strike(c, o, 0.1, hour))).length;
  }
  const ambience = {};
  for (const mood of synth.MOOD_NAMES) {
    ambience[mood] = rms((await render(6, (c, o) => synth.ambience(c, o, mood))).slice(rate * 3));
  }
  const cues = {};
  const plays = {
    tick: (c, o) => synth.tick(c, o, 0.1), ring: (c, o) => synth.ring(c, o, 0.1),
    win: (c, o) => synth.stinger(c, o, 0.1, 'win'), loss: (c, o) => synth.stinger(c, o, 0.1, 'loss'),
    knock: (c, o) => synth.knock(c, o, 0.1, 2),
  };
  for (const [name, play] of Object.entries(plays)) {
    const d = await render(3, play);
    cues[name] = { peak: peak(d), rms: rms(d) };
  }
  done({
    knock1: onsets(await render(1, (c, o) => synth.knock(c, o, 0.1, 1))),
    knock2: onsets(await render(1.2, (c, o) => synth.knock(c, o, 0.1, 2))),
    gap: synth.KNOCK_GAP, strikes, ambience, cues,
  });
})().catch((e) => done({ error: String(e) }));
"#;

async fn sounds(driver: u16) {
    let table = Table::start(0);
    let client = chromium(driver, 1280, 800).await;
    go(&client, &table.local_url).await;
    wait_for(&client, "#home").await;
    let m = client.execute_async(MEASURE_SOUNDS, vec![]).await.unwrap();
    assert!(m.get("error").is_none(), "{m}");
    let seconds = |v: &serde_json::Value| {
        v.as_array()
            .unwrap()
            .iter()
            .map(|x| x.as_f64().unwrap())
            .collect::<Vec<_>>()
    };
    let (one, two, gap) = (
        seconds(&m["knock1"]),
        seconds(&m["knock2"]),
        m["gap"].as_f64().unwrap(),
    );
    assert_eq!(one.len(), 1, "a yes is one knock: {one:?}");
    assert_eq!(two.len(), 2, "a no is two knocks: {two:?}");
    assert!(
        ((two[1] - two[0]) - gap).abs() <= 0.02,
        "knocks {two:?} should be {gap} s apart"
    );
    for hour in ["1", "4", "7"] {
        assert_eq!(
            m["strikes"][hour].as_u64().unwrap().to_string(),
            hour,
            "the clock strikes the hour"
        );
    }
    for (mood, level) in m["ambience"].as_object().unwrap() {
        assert!(
            level.as_f64().unwrap() > 0.01,
            "the {mood} ambience is audible: {level}"
        );
    }
    for (cue, measured) in m["cues"].as_object().unwrap() {
        let peak = measured["peak"].as_f64().unwrap();
        assert!(
            peak > 0.05 && peak < 1.0,
            "{cue}: audible and not clipping (peak {peak})"
        );
    }
    client.close().await.unwrap();
}

async fn sound_settings(driver: u16) {
    let table = Table::start(0);
    let client = chromium(driver, 1280, 800).await;
    go(&client, &format!("{}#/settings", table.local_url)).await;
    wait_for(&client, "#settings #sound-mute[aria-pressed=false]").await;
    tap(&client, "#sound-mute").await;
    wait_for(&client, "#sound-mute[aria-pressed=true]").await;
    client
        .script("const v = document.getElementById('sound-volume'); v.value = 30; v.dispatchEvent(new Event('change'))").await;
    wait_for(&client, "#sound-volume[value='30']").await;
    tap(&client, "#cue-knocks").await;
    wait_for(&client, "#cue-knocks:not(:checked)").await;
    tap(&client, ".try button").await;
    assert!(
        !wait_for(&client, "#toast")
            .await
            .is_displayed()
            .await
            .unwrap(),
        "trying a sound raised no error"
    );
    screenshot(&client, "settings-sound-1280x800").await;
    client.close().await.unwrap();

    // Another screen, later: the table kept them.
    let again = chromium(driver, 390, 844).await;
    go(&again, &format!("{}#/settings", table.local_url)).await;
    wait_for(&again, "#sound-mute[aria-pressed=true]").await;
    wait_for(&again, "#sound-volume[value='30']").await;
    wait_for(&again, "#cue-knocks:not(:checked)").await;
    wait_for(&again, "#cue-hour:checked").await;
    again.close().await.unwrap();
}

async fn own_music(driver: u16) {
    let table = Table::start(0);
    let files = tempfile::tempdir().unwrap();
    let (first, second) = (
        files.path().join("01 Prologue.wav"),
        files.path().join("02 Manor.wav"),
    );
    wav(&first, 3.0, 220.0);
    wav(&second, 3.0, 330.0);
    let client = chromium(driver, 1280, 800).await;
    go(&client, &format!("{}#/settings", table.local_url)).await;
    let picker = wait_for(&client, "#music-files").await;
    picker
        .send_keys(&format!("{}\n{}", first.display(), second.display()))
        .await
        .unwrap();
    wait_for_text(&client, "#music-list", "01 Prologue.wav").await;
    wait_for_text(
        &client,
        "#music-list li[aria-current=true]",
        "01 Prologue.wav",
    )
    .await;
    tap(&client, "#music-play").await;
    let state = "return import(new URL('sound/player.js', document.querySelector('script[type=module]').src)).then(p => p.musicState()).then(s => arguments[0](s))";
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
    loop {
        let now = client.execute_async(state, vec![]).await.unwrap();
        if now["playing"] == true && now["position"].as_f64().unwrap() > 0.5 {
            break;
        }
        if std::time::Instant::now() >= deadline {
            let page = client
                .script("return [document.getElementById('toast').textContent, document.getElementById('music-play').outerHTML]").await;
            panic!("the music never played: {now} {page}");
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    wait_for_text(&client, "#music-play", "Pause").await;
    tap(&client, "#music-next").await;
    wait_for_text(&client, "#music-list li[aria-current=true]", "02 Manor.wav").await;
    tap(&client, "#music-play").await;
    wait_for_text(&client, "#music-play", "Play").await;
    screenshot(&client, "settings-music-1280x800").await;
    // The next track then a pause at once, as two quick taps make: the next track's play is
    // cut short, which is what was asked and no error of the page's.
    tap(&client, "#music-play").await;
    wait_for_text(&client, "#music-play", "Pause").await;
    let cut_short = "return import(new URL('sound/player.js', document.querySelector('script[type=module]').src)).then(p => { p.nextTrack(); p.pauseMusic(); setTimeout(arguments[0], 500); })";
    client.execute_async(cut_short, vec![]).await.unwrap();
    no_page_errors(&client, "the next track was paused at once").await;
    wait_for_text(&client, "#music-play", "Play").await;
    client.close().await.unwrap();
}

async fn accessibility(driver: u16) {
    let table = Table::start(0);
    let mut found = Vec::new();
    for (width, height) in [(1280, 800), (390, 844)] {
        let client = chromium(driver, width, height).await;
        for (screen, ready) in [
            ("", "#home"),
            ("#/settings", "#settings"),
            ("#/licences", "#licences-libraries"),
        ] {
            go(&client, &format!("{}{screen}", table.local_url)).await;
            wait_for(&client, ready).await;
            found.extend(
                accessibility_violations(&client)
                    .await
                    .into_iter()
                    .map(|v| format!("{ready} {width}px: {v}")),
            );
        }
        client.close().await.unwrap();
    }
    let stranger = chromium(driver, 390, 844).await;
    go(&stranger, table.origin()).await;
    wait_for(&stranger, "#code-entry").await;
    found.extend(
        accessibility_violations(&stranger)
            .await
            .into_iter()
            .map(|v| format!("#code-entry: {v}")),
    );
    // The check itself can fail: a button with no name is a critical problem.
    stranger
        .script("document.body.append(document.createElement('button'))")
        .await;
    let planted = accessibility_violations(&stranger).await;
    assert!(
        planted.iter().any(|v| v.starts_with("button-name")),
        "axe missed a nameless button: {planted:?}"
    );
    stranger.close().await.unwrap();
    assert!(
        found.is_empty(),
        "accessibility problems:\n{}",
        found.join("\n")
    );
}

/// Settings → Licences on the table and on a phone, in each language: the version, the
/// app's licence, the font's, the chart library's, and as many libraries as `ui/licences.json` credits, each
/// licence's text opened on a tap; nothing clipped or off the screen.
async fn licences(driver: u16) {
    let table = Table::start(0);
    let shipped: serde_json::Value =
        serde_json::from_str(include_str!("../ui/licences.json")).unwrap();
    // Counted once each, though a library under two licences is listed under both.
    let libraries = shipped["libraries"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|l| l["used_by"].as_array().unwrap())
        .map(|name| name.as_str().unwrap())
        .collect::<std::collections::BTreeSet<_>>()
        .len();
    for (lang, (width, height), heading) in [
        (
            "en",
            (1280, 800),
            format!("Libraries built into Séance ({libraries})"),
        ),
        (
            "fr",
            (800, 1280),
            format!("Bibliothèques intégrées à Séance ({libraries})"),
        ),
        (
            "it",
            (390, 844),
            format!("Librerie incluse in Séance ({libraries})"),
        ),
    ] {
        let client = chromium(driver, width, height).await;
        go(&client, &table.local_url).await;
        speak(&client, lang).await;
        go(&client, &format!("{}#/settings", table.local_url)).await;
        tap(&client, "#about-licences").await;
        wait_for_text(&client, "#licences-libraries h2", &heading).await;
        let app = text(&client, "#licences-app p").await;
        assert!(
            app.contains(env!("CARGO_PKG_VERSION")) && app.contains("MIT"),
            "{app}"
        );
        assert!(
            text(&client, "#licences-fonts")
                .await
                .contains("EB Garamond")
        );
        assert!(
            text(&client, "#licences-scripts")
                .await
                .contains("Chartist 1.5.0"),
            "the chart library is credited"
        );
        tap(&client, "#licences-app summary").await;
        let shown = text(&client, "#licences-app pre").await;
        assert!(shown.starts_with("MIT License"), "{shown}");
        let found = misfits(&client, true).await;
        assert!(found.is_empty(), "{lang} {width}x{height}: {found:?}");
        screenshot(&client, &format!("licences-{lang}-{width}x{height}")).await;
        client.close().await.unwrap();
    }
}
