//! The real Tauri window under Xvfb, driven by tauri-driver and WebKitWebDriver.

use std::process::Command;
use std::time::{Duration, Instant};

use seance_e2e::{
    Process, act, attr, capture, close_window_like_a_person, connect, display, free_port,
    listening, qr_in, seance_binary, serve, tap, wait_for, wait_for_text,
};
use serde_json::json;

use crate::Test;

pub struct Suite {
    port: u16,
    display: String,
    _driver: Process,
    _xvfb: Option<Process>,
    /// WebKit's data for the window (its disk cache, its storage): the test's own, not the
    /// machine's, where a window on a new port each run would pile up entries for good.
    _webkit: tempfile::TempDir,
}

impl Suite {
    pub fn start() -> Suite {
        let (display, xvfb) = display();
        let (port, native) = (free_port(), free_port());
        let webkit = tempfile::tempdir().unwrap();
        let mut command = Command::new("tauri-driver");
        command
            .args([
                "--port",
                &port.to_string(),
                "--native-port",
                &native.to_string(),
            ])
            .env("DISPLAY", &display)
            .env("XDG_DATA_HOME", webkit.path());
        let driver = serve(command, port);
        // tauri-driver listens at once; the WebKitWebDriver it starts behind it may take
        // seconds more on a busy machine, and a session asked before drops its request.
        listening("WebKitWebDriver", native);
        Suite {
            port,
            display,
            _driver: driver,
            _xvfb: xvfb,
            _webkit: webkit,
        }
    }

    pub fn tests(&self) -> Vec<Test> {
        vec![(
            "window: opens on the home screen with the QR code, sets up a game and turns the sand timer, hands over to a second launch, and stops the server when closed",
            Box::pin(window(self.port, self.display.clone())),
        )]
    }
}

async fn window(driver: u16, display: String) {
    let data_dir = tempfile::tempdir().unwrap();
    let args = [
        "--port",
        "0",
        "--data-dir",
        data_dir.path().to_str().unwrap(),
    ];
    let client = connect(
        driver,
        json!({
            "browserName": "wry",
            "tauri:options": { "application": seance_binary(), "args": args },
        }),
    )
    .await;
    wait_for(&client, "#home").await;
    wait_for_text(&client, "#connection", "Connected").await;
    assert_eq!(client.title().await.unwrap(), "Séance");
    let url = client.current_url().await.unwrap();
    assert_eq!(
        url.host_str(),
        Some("127.0.0.1"),
        "the window uses the server's own URL"
    );
    let code = wait_for(&client, "#table-code")
        .await
        .text()
        .await
        .unwrap()
        .replace('-', "");
    let read = qr_in(
        &capture(&client, &display, "window-home").await,
        "window-home",
    );
    assert!(
        read.starts_with("http://")
            && read.ends_with(&format!(":{}/?code={code}", url.port().unwrap())),
        "{read}"
    );

    // The table screen's smoke path: a game set up and its first turn under way.
    tap(&client, "#new-game").await;
    tap(&client, "#start-game").await;
    tap(&client, "#begin").await;
    for i in 0..4 {
        act(&client, &format!("button[data-vision='{i}']")).await;
    }
    wait_for(&client, "#sand-timer[data-state='running']").await;
    let card = attr(&client, "[data-psychic='0'] .chip[data-card]", "data-card")
        .await
        .unwrap();
    act(
        &client,
        &format!("[data-psychic='0'] .chip[data-card='{card}']"),
    )
    .await;
    act(&client, "[data-psychic='0'] .token[data-by='1']").await;
    capture(&client, &display, "window-game").await;
    act(&client, "#timer-end").await;
    wait_for(&client, "#stage.manifestation").await;
    act(&client, "#undo").await;
    wait_for(&client, "#sand-timer").await;

    // A second launch finds this one instead of starting a rival server.
    let second = Command::new(seance_binary()).args(args).output().unwrap();
    assert!(second.status.success());
    let said = String::from_utf8_lossy(&second.stdout);
    assert!(said.contains("already running"), "{said}");

    // Closing the window stops the server cleanly: its record goes and its port closes.
    // Under Xvfb, with no window manager, a close request is now and then not acted on
    // (about one run in twenty-five, after the second launch's "come to the front"): as a
    // person would, the test closes again if nothing happened, three times at most.
    let record = data_dir.path().join("instance.json");
    assert!(record.exists());
    tokio::time::sleep(Duration::from_secs(1)).await;
    let stopped = async || {
        let deadline = Instant::now() + Duration::from_secs(5);
        while record.exists() && Instant::now() < deadline {
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        !record.exists()
    };
    let mut closes = 0;
    while closes < 3 {
        close_window_like_a_person(&display, "Séance");
        closes += 1;
        if stopped().await {
            break;
        }
        eprintln!("window: still running 5 s after close request {closes}");
    }
    assert!(
        !record.exists(),
        "the app did not stop after {closes} close requests, 5 s apart"
    );
    let addr = format!("127.0.0.1:{}", url.port().unwrap());
    assert!(
        std::net::TcpStream::connect(addr).is_err(),
        "the server's port is closed"
    );
    let _ = client.close().await;
}
