//! The server over real HTTP and WebSocket connections on loopback.

mod support;

use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use reqwest::StatusCode;
use serde_json::Value;
use support::{Sent, error_of, next_json, refused_as, table, table_on};
use tokio_tungstenite::tungstenite::Message;

/// `ui/` as written, read from the repository.
fn written(path: &str) -> Vec<u8> {
    std::fs::read(format!("{}/../../ui/{path}", env!("CARGO_MANIFEST_DIR"))).unwrap()
}

fn brotli(bytes: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    std::io::Read::read_to_end(&mut brotli::Decompressor::new(bytes, 4096), &mut out).unwrap();
    out
}

fn gunzip(bytes: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    std::io::Read::read_to_end(&mut flate2::read::GzDecoder::new(bytes), &mut out).unwrap();
    out
}

#[tokio::test]
async fn the_home_page_names_the_version_and_every_module_with_safe_headers() {
    let t = table().await;
    let page = t.get("/").sent().await;
    assert_eq!(page.status(), StatusCode::OK);
    assert_eq!(page.headers()["content-type"], "text/html");
    assert_eq!(page.headers()["cache-control"], "no-cache");
    assert_eq!(page.headers()["referrer-policy"], "no-referrer");
    assert!(
        page.headers()["content-security-policy"]
            .to_str()
            .unwrap()
            .contains("default-src 'self'")
    );
    assert!(page.headers().get("access-control-allow-origin").is_none());
    assert!(
        page.headers().get("content-encoding").is_none(),
        "asked for none"
    );
    let etag = page.headers()["etag"].clone();
    let html = page.text().await.unwrap();
    let version = html
        .split("src=\"/v/")
        .find_map(|rest| rest.split_once("/app.js\""))
        .expect("app.js under the version")
        .0
        .to_owned();
    // The first questions are asked by a module of their own, run as soon as it comes, after
    // the rule sets it reads the address by.
    let asks = html
        .find(&format!(
            "<script type=\"module\" async src=\"/v/{version}/ask.js\">"
        ))
        .expect("ask.js is run on its own");
    assert!(
        html.find("id=\"rule-sets\"")
            .is_some_and(|told| told < asks),
        "{html}"
    );
    assert!(
        html.contains(&format!("href=\"/v/{version}/style.css\"")),
        "{html}"
    );
    // Every module app.js imports, at any depth, is named for the browser to fetch at once;
    // the table's screens, which app.js fetches when shown, are not.
    for module in [
        "api.js",
        "i18n.js",
        "dom.js",
        "screens/join.js",
        "screens/mysterium/seats.js",
        "screens/chrome.js",
    ] {
        let link = format!("<link rel=\"modulepreload\" href=\"/v/{version}/{module}\">");
        assert!(html.contains(&link), "{module} is not preloaded: {html}");
    }
    assert!(!html.contains("screens/mysterium.js"), "{html}");
    // The table's words come with the page, in the table's language.
    assert!(html.contains(&format!("href=\"/v/{version}/i18n/en.json\" as=\"fetch\"")));
    assert!(html.starts_with("<!doctype html>\n<html lang=\"en\">"));

    let again = t.get("/").header("if-none-match", etag).sent().await;
    assert_eq!(again.status(), StatusCode::NOT_MODIFIED);

    // Until the table chooses, the page speaks the browser's first language Séance speaks.
    for (accepted, lang) in [
        ("it-IT,it;q=0.9,en;q=0.8", "it"),
        ("de-DE, en;q=0.4, fr-CA;q=0.5", "fr"),
        ("de, es", "en"),
        ("fr;q=0, en-GB", "en"),
    ] {
        let page = t.get("/").header("accept-language", accepted).sent().await;
        assert!(
            page.headers()
                .get_all("vary")
                .iter()
                .any(|v| v == "accept-language")
        );
        let html = page.text().await.unwrap();
        assert!(
            html.contains(&format!("<html lang=\"{lang}\">")),
            "{accepted}"
        );
        assert!(
            html.contains(&format!("/v/{version}/i18n/{lang}.json")),
            "{accepted}"
        );
    }

    // The table's choice: the page and its words follow, whatever the browser says.
    let mut settings = support::table_json(&t, "/settings").await;
    settings["language"] = "fr".into();
    let put = t
        .api(reqwest::Method::PUT, "/settings")
        .json(&settings)
        .sent()
        .await;
    assert_eq!(put.status(), StatusCode::OK);
    let html = t
        .get("/")
        .header("accept-language", "it")
        .sent()
        .await
        .text()
        .await
        .unwrap();
    assert!(html.contains("<html lang=\"fr\">"));
    assert!(html.contains(&format!("/v/{version}/i18n/fr.json")));
}

#[tokio::test]
async fn the_ui_is_compressed_as_asked_and_cached_for_good_under_its_version() {
    let t = table().await;
    let html = t.get("/").sent().await.text().await.unwrap();
    let version = html
        .split("/v/")
        .nth(1)
        .unwrap()
        .split('/')
        .next()
        .unwrap()
        .to_owned();
    let app = format!("/v/{version}/app.js");
    let get = |path: &str, accept: &str| t.get(path).header("accept-encoding", accept).send();

    let br = get(&app, "gzip, deflate, br").await.unwrap();
    assert_eq!(br.headers()["content-type"], "text/javascript");
    assert_eq!(br.headers()["content-encoding"], "br");
    assert_eq!(br.headers()["vary"], "accept-encoding");
    assert_eq!(
        br.headers()["cache-control"],
        "public, max-age=31536000, immutable"
    );
    let body = br.bytes().await.unwrap();
    assert!(
        body.len() * 2 < written("app.js").len(),
        "brotli halves it at least"
    );
    assert_eq!(brotli(&body), written("app.js"));

    let gzip = get(&app, "gzip").await.unwrap();
    assert_eq!(gzip.headers()["content-encoding"], "gzip");
    assert_eq!(gunzip(&gzip.bytes().await.unwrap()), written("app.js"));

    // Refused by q=0, or not offered: the file as written.
    for accept in ["br;q=0, gzip;q=0", "identity"] {
        let raw = get(&app, accept).await.unwrap();
        assert!(raw.headers().get("content-encoding").is_none(), "{accept}");
        assert_eq!(raw.bytes().await.unwrap(), written("app.js"));
    }
    // A font is compressed already: sent as it is, cached for good.
    let font = get(&format!("/v/{version}/fonts/EBGaramond.woff2"), "br")
        .await
        .unwrap();
    assert_eq!(font.headers()["content-type"], "font/woff2");
    assert!(font.headers().get("content-encoding").is_none());
    assert_eq!(
        font.headers()["cache-control"],
        "public, max-age=31536000, immutable"
    );

    // A page from before an upgrade asks for the old version: today's file, not cached.
    let old = get("/v/000000000000/app.js", "br").await.unwrap();
    assert_eq!(old.status(), StatusCode::OK);
    assert_eq!(old.headers()["cache-control"], "no-cache");
    // The files as written are still there, revalidated each time.
    let plain = get("/i18n/it.json", "").await.unwrap();
    assert_eq!(plain.headers()["cache-control"], "no-cache");
    assert_eq!(plain.headers()["content-type"], "application/json");
    assert_eq!(plain.bytes().await.unwrap(), written("i18n/it.json"));
    // The silent video that keeps a phone's screen on, in byte ranges as Safari asks for it
    // (its first two bytes first), whole to whoever asks no range; text is never sent in part.
    for (file, mime) in [
        ("awake/silence.mp4", "video/mp4"),
        ("awake/silence.webm", "video/webm"),
    ] {
        let path = format!("/v/{version}/{file}");
        let whole = get(&path, "gzip, br").await.unwrap();
        assert_eq!(whole.status(), StatusCode::OK);
        assert_eq!(whole.headers()["content-type"], mime);
        assert_eq!(whole.headers()["accept-ranges"], "bytes");
        assert!(whole.headers().get("content-encoding").is_none());
        assert_eq!(whole.bytes().await.unwrap(), written(file));
        let len = written(file).len();
        for (range, first, last) in [
            ("bytes=0-1", 0, 1),
            ("bytes=100-", 100, len - 1),
            ("bytes=-10", len - 10, len - 1),
        ] {
            let part = t.get(&path).header("range", range).sent().await;
            assert_eq!(part.status(), StatusCode::PARTIAL_CONTENT, "{file} {range}");
            assert_eq!(
                part.headers()["content-range"],
                format!("bytes {first}-{last}/{len}").as_str()
            );
            assert_eq!(part.bytes().await.unwrap(), written(file)[first..=last]);
        }
        let outside = t
            .get(&path)
            .header("range", format!("bytes={len}-"))
            .sent()
            .await;
        assert_eq!(outside.status(), StatusCode::RANGE_NOT_SATISFIABLE);
        assert_eq!(
            outside.headers()["content-range"],
            format!("bytes */{len}").as_str()
        );
    }
    let text = t.get(&app).header("range", "bytes=0-1").sent().await;
    assert_eq!(text.status(), StatusCode::OK);
    assert!(text.headers().get("accept-ranges").is_none());
    for missing in ["/nope.js", &format!("/v/{version}/nope.js"), "/v/", "/v/x"] {
        assert_eq!(
            get(missing, "br").await.unwrap().status(),
            StatusCode::NOT_FOUND,
            "{missing}"
        );
    }
}

#[tokio::test]
async fn the_api_needs_the_join_code_or_the_table_key() {
    let t = table().await;
    refused_as(
        t.get("/api/info").sent().await,
        StatusCode::UNAUTHORIZED,
        seance_server::refusals::CODE_NEEDED,
    )
    .await;

    let wrong = if t.code.starts_with('0') { "1" } else { "0" }.to_owned() + &t.code[1..];
    refused_as(
        t.get("/api/info").bearer_auth(&wrong).sent().await,
        StatusCode::FORBIDDEN,
        seance_server::refusals::WRONG_CODE,
    )
    .await;

    let t = &t;
    let info = |secret: String| async move {
        t.with(&secret, reqwest::Method::GET, "/info")
            .sent()
            .await
            .json::<Value>()
            .await
            .unwrap()
    };
    let table = info(t.key.clone()).await;
    let join = table["join_url"].as_str().unwrap();
    assert!(
        join.ends_with(&format!(":{}/?code={}", t.server.port(), t.code)),
        "{join}"
    );
    assert_eq!(join, t.server.join_url());
    assert_eq!(
        table["join_code"],
        format!("{}-{}", &t.code[..5], &t.code[5..])
    );
    assert_eq!(table["device"], "table");
    assert_eq!(table["table_url"], t.server.table_url());
    assert!(t.server.table_url().ends_with(&format!("/?key={}", t.key)));
    // The join code makes a watcher, who is never told the table's link.
    let watcher = info(t.code.clone()).await;
    assert_eq!(watcher["device"], "watcher");
    assert!(watcher["table_url"].is_null());
    assert!(!watcher.to_string().contains(&t.key));

    let by_query = t.get(&format!("/api/qr.png?code={}", t.code)).sent().await;
    assert_eq!(by_query.status(), StatusCode::OK);
    assert_eq!(by_query.headers()["content-type"], "image/png");
    let png = by_query.bytes().await.unwrap();
    assert_eq!(support::qr_text(&png), t.server.join_url(), "the join link");

    refused_as(
        t.api(reqwest::Method::GET, "/séances").sent().await,
        StatusCode::NOT_FOUND,
        seance_server::refusals::NO_ENDPOINT,
    )
    .await;
}

/// A PNG's width and height, from its header.
fn png_size(png: &[u8]) -> (u32, u32) {
    assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n", "a PNG");
    let at = |i: usize| u32::from_be_bytes(png[i..i + 4].try_into().unwrap());
    (at(16), at(20))
}

#[tokio::test]
async fn the_manifest_opens_a_home_screen_app_with_the_devices_own_secret() {
    let t = table().await;
    let manifest = |secret: String| {
        let t = &t;
        async move {
            t.get(&format!("/api/manifest.webmanifest?code={secret}"))
                .sent()
                .await
        }
    };
    refused_as(
        t.get("/api/manifest.webmanifest").sent().await,
        StatusCode::UNAUTHORIZED,
        seance_server::refusals::CODE_NEEDED,
    )
    .await;

    let phone = manifest(t.code.clone()).await;
    assert_eq!(phone.status(), StatusCode::OK);
    assert_eq!(phone.headers()["content-type"], "application/manifest+json");
    assert_eq!(
        phone.headers()["cache-control"],
        "no-store",
        "it carries a secret"
    );
    let phone: Value = phone.json().await.unwrap();
    assert_eq!(phone["start_url"], format!("/?code={}", t.code));
    assert!(
        !phone.to_string().contains(&t.key),
        "a phone is never told the table key"
    );
    assert_eq!(phone["display"], "standalone");
    assert_eq!(phone["name"], "Séance");
    // The dark of the screens, as the page's own theme colour.
    let theme = format!("content=\"{}\"", phone["theme_color"].as_str().unwrap());
    assert!(
        String::from_utf8(written("index.html"))
            .unwrap()
            .contains(&theme)
    );

    // Every icon it names is served, as the type and size it says.
    let icons = phone["icons"].as_array().unwrap();
    assert!(
        icons.iter().any(|i| i["sizes"] == "512x512")
            && icons.iter().any(|i| i["sizes"] == "192x192")
    );
    for icon in icons {
        let served = t.get(icon["src"].as_str().unwrap()).sent().await;
        assert_eq!(served.status(), StatusCode::OK, "{icon}");
        assert_eq!(
            served.headers()["content-type"],
            icon["type"].as_str().unwrap(),
            "{icon}"
        );
        let body = served.bytes().await.unwrap();
        if let Some((w, h)) = icon["sizes"].as_str().unwrap().split_once('x') {
            assert_eq!(
                png_size(&body),
                (w.parse().unwrap(), h.parse().unwrap()),
                "{icon}"
            );
        }
    }

    // The table's tablet opens again as the table.
    let table: Value = manifest(t.key.clone()).await.json().await.unwrap();
    assert_eq!(table["start_url"], format!("/?key={}", t.key));
    let wrong = if t.code.starts_with('0') { "1" } else { "0" }.to_owned() + &t.code[1..];
    refused_as(
        manifest(wrong).await,
        StatusCode::FORBIDDEN,
        seance_server::refusals::WRONG_CODE,
    )
    .await;
}

#[tokio::test]
async fn rebinding_hosts_and_foreign_origins_are_refused() {
    let t = table().await;
    let port = t.server.port();
    let evil_host = t
        .api(reqwest::Method::GET, "/info")
        .header("host", format!("evil.example:{port}"))
        .sent()
        .await;
    refused_as(
        evil_host,
        StatusCode::FORBIDDEN,
        seance_server::refusals::NOT_THIS_HOST,
    )
    .await;

    let evil_origin = t
        .api(reqwest::Method::GET, "/info")
        .header("origin", "http://evil.example")
        .sent()
        .await;
    assert_eq!(evil_origin.status(), StatusCode::FORBIDDEN);

    let same_origin = t
        .api(reqwest::Method::GET, "/info")
        .header("origin", format!("http://127.0.0.1:{port}"))
        .sent()
        .await;
    assert_eq!(same_origin.status(), StatusCode::OK);
    assert!(
        same_origin
            .headers()
            .get("access-control-allow-origin")
            .is_none()
    );
}

#[tokio::test]
async fn repeated_wrong_codes_are_slowed_down() {
    let t = table().await;
    let mut statuses = Vec::new();
    for _ in 0..25 {
        statuses.push(
            t.get("/api/info")
                .bearer_auth("ZZZZZZZZZZ")
                .sent()
                .await
                .status(),
        );
    }
    assert_eq!(statuses[0], StatusCode::FORBIDDEN);
    assert_eq!(*statuses.last().unwrap(), StatusCode::TOO_MANY_REQUESTS);
    // Only the guessing waits: the table's key and the join code from that address are
    // honoured (a table whose page was hammered, a phone beside a guesser).
    let table = t.api(reqwest::Method::GET, "/info").sent().await;
    assert_eq!(table.status(), StatusCode::OK);
    let phone = t.joined(reqwest::Method::GET, "/info").sent().await;
    assert_eq!(phone.status(), StatusCode::OK);
    let guess = t.get("/api/info").bearer_auth("YYYYYYYYYY").sent().await;
    assert_eq!(guess.status(), StatusCode::TOO_MANY_REQUESTS);
}

/// A page of another site (or another port of this address) that makes a browser ask —
/// an image, a form — is refused before its code is counted, so it cannot lock the
/// table's address out.
#[tokio::test]
async fn a_page_of_another_site_cannot_make_the_table_wait() {
    let t = table().await;
    for site in ["cross-site", "same-site"] {
        for _ in 0..25 {
            let asked = t
                .get("/api/info?code=ZZZZZZZZZZ")
                .header("sec-fetch-site", site)
                .sent()
                .await;
            refused_as(
                asked,
                StatusCode::FORBIDDEN,
                seance_server::refusals::OTHER_SITE,
            )
            .await;
        }
    }
    // None of it was counted: a first wrong code is just wrong.
    let wrong = t.get("/api/info").bearer_auth("ZZZZZZZZZZ").sent().await;
    assert_eq!(
        error_of(wrong).await.1.code,
        seance_server::refusals::WRONG_CODE
    );
    // The table's own page asks as its own origin.
    let own = t
        .api(reqwest::Method::GET, "/info")
        .header("sec-fetch-site", "same-origin")
        .sent()
        .await;
    assert_eq!(own.status(), StatusCode::OK);
}

#[tokio::test]
async fn settings_are_validated_saved_and_broadcast() {
    let t = table().await;
    let mut watcher = t.socket().await;
    assert_eq!(next_json(&mut watcher).await["type"], "hello");
    assert_eq!(next_json(&mut watcher).await["type"], "presence");

    refused_as(
        t.api(reqwest::Method::PUT, "/settings")
            .json(&serde_json::json!({"language": "de"}))
            .sent()
            .await,
        StatusCode::UNPROCESSABLE_ENTITY,
        seance_server::refusals::LANGUAGE,
    )
    .await;

    let malformed = t
        .api(reqwest::Method::PUT, "/settings")
        .header("content-type", "application/json")
        .body("{language")
        .sent()
        .await;
    let (status, why) = error_of(malformed).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert!(
        why.code == seance_server::refusals::BAD_REQUEST
            && why.error.contains("{\"language\": \"fr\"}"),
        "{why}"
    );

    let saved = t
        .api(reqwest::Method::PUT, "/settings")
        .json(&serde_json::json!({"language": "fr"}))
        .sent()
        .await;
    assert_eq!(saved.status(), StatusCode::OK);
    let pushed = next_json(&mut watcher).await;
    assert_eq!(pushed["type"], "settings");
    assert_eq!(pushed["settings"]["language"], "fr");
    let read = support::answer(t.api(reqwest::Method::GET, "/settings")).await;
    assert_eq!(read["language"], "fr");
}

#[tokio::test]
async fn sockets_need_the_code_see_each_other_and_close_on_shutdown() {
    let t = table().await;
    let refused =
        tokio_tungstenite::connect_async(format!("ws://127.0.0.1:{}/api/ws", t.server.port()))
            .await;
    match refused {
        Err(tokio_tungstenite::tungstenite::Error::Http(response)) => {
            assert_eq!(response.status(), StatusCode::UNAUTHORIZED)
        }
        other => panic!("a socket without the code must be refused, got {other:?}"),
    }

    let mut first = t.socket().await;
    let hello = next_json(&mut first).await;
    assert_eq!(hello["type"], "hello");
    assert_eq!(hello["devices"], 1);
    assert_eq!(next_json(&mut first).await["devices"], 1);

    let mut second = t.socket().await;
    assert_eq!(next_json(&mut second).await["devices"], 2);
    let presence = next_json(&mut first).await;
    assert_eq!(
        (presence["type"].as_str(), presence["devices"].as_u64()),
        (Some("presence"), Some(2))
    );

    first.send(Message::Text("ping".into())).await.unwrap();
    let pong = loop {
        let next = tokio::time::timeout(Duration::from_secs(5), first.next())
            .await
            .unwrap()
            .unwrap()
            .unwrap();
        if next != Message::Text("beat".into()) {
            break next;
        }
    };
    assert_eq!(pong, Message::Text("pong".into()));

    let stopping = tokio::spawn(t.server.shutdown());
    let closed = loop {
        match tokio::time::timeout(Duration::from_secs(5), second.next())
            .await
            .unwrap()
        {
            Some(Ok(Message::Close(frame))) => break frame,
            Some(Ok(_)) => continue,
            other => panic!("expected a close frame, got {other:?}"),
        }
    };
    assert_eq!(u16::from(closed.unwrap().code), 1001);
    tokio::time::timeout(Duration::from_secs(5), stopping)
        .await
        .unwrap()
        .unwrap();
    assert!(
        reqwest::get(format!("{}/", t.base)).await.is_err(),
        "the port must be closed"
    );
}

#[tokio::test]
async fn a_busy_port_moves_the_table_and_its_join_link() {
    let first = table().await;
    let busy = first.server.port();
    let second = table_on(busy).await;
    assert_ne!(second.server.port(), busy);
    assert!(
        second
            .server
            .join_url()
            .contains(&format!(":{}/", second.server.port()))
    );
}

#[tokio::test]
async fn a_later_launch_can_ask_for_the_window() {
    let mut t = table().await;
    let mut focus = t.server.take_requests().unwrap().focus;
    let asked = t.api(reqwest::Method::POST, "/instance/focus").sent().await;
    assert_eq!(asked.status(), StatusCode::NO_CONTENT);
    tokio::time::timeout(Duration::from_secs(2), focus.recv())
        .await
        .unwrap()
        .unwrap();
}

/// A table's data is its owner's alone on a shared computer: the folder Séance makes, and
/// every file in it (the key, the join code, the seats, the settings, the journal and its
/// log), is nobody else's to read.
#[cfg(unix)]
#[tokio::test]
async fn the_table_s_files_are_its_owner_s_alone() {
    use std::os::unix::fs::PermissionsExt;
    let parent = tempfile::tempdir().unwrap();
    let dir = parent.path().join("made-by-seance");
    let server = seance_server::Server::start(seance_server::Config {
        data_dir: dir.clone(),
        port: 0,
    })
    .await
    .unwrap();
    let base = format!("http://127.0.0.1:{}/api", server.port());
    let client = reqwest::Client::new();
    let game = client
        .post(format!("{base}/mysterium"))
        .bearer_auth(server.record().key)
        .json(&serde_json::json!({"setup": {"ghost": "Laura", "difficulty": "easy", "secrets": "app_kept",
            "players": [{"name": "Ann", "colours": ["red"]}, {"name": "Ben", "colours": ["blue"]},
                        {"name": "Cy", "colours": ["green"]}]}}))
        .sent().await
        .json::<Value>()
        .await
        .unwrap()["id"]
        .as_i64()
        .unwrap();
    let seat = client
        .post(format!("{base}/mysterium/{game}/seats"))
        .bearer_auth(server.join_code().to_string())
        .json(&serde_json::json!({"seat": "psychic:0"}))
        .sent()
        .await;
    assert_eq!(seat.status(), StatusCode::CREATED);
    let mode =
        |path: &std::path::Path| std::fs::metadata(path).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode(&dir), 0o700);
    let files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    assert!(files.len() >= 5, "{files:?}");
    for file in &files {
        assert_eq!(mode(file), 0o600, "{}", file.display());
    }
    // Files an earlier build left readable by all are made private at the next start.
    server.shutdown().await;
    for file in &files {
        if file.exists() {
            std::fs::set_permissions(file, std::fs::Permissions::from_mode(0o644)).unwrap();
        }
    }
    let again = seance_server::Server::start(seance_server::Config {
        data_dir: dir.clone(),
        port: 0,
    })
    .await
    .unwrap();
    for entry in std::fs::read_dir(&dir).unwrap() {
        let file = entry.unwrap().path();
        assert_eq!(mode(&file), 0o600, "{} after a restart", file.display());
    }
    again.shutdown().await;
}
