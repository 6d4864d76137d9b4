//! The `seance` binary as a person launches it: headless output, one table per machine,
//! a clean stop on Ctrl+C, and the fallback when there is no display.

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

/// A running `seance` whose stdout lines arrive on a channel.
struct Launch {
    child: Child,
    lines: mpsc::Receiver<String>,
}

fn seance(args: &[&str], data_dir: &std::path::Path) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_seance"));
    command
        .args(args)
        .arg("--data-dir")
        .arg(data_dir)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    command
}

fn launch(mut command: Command) -> Launch {
    let mut child = command.spawn().unwrap();
    let (tx, lines) = mpsc::channel();
    for stream in [
        Box::new(child.stdout.take().unwrap()) as Box<dyn std::io::Read + Send>,
        Box::new(child.stderr.take().unwrap()),
    ] {
        let tx = tx.clone();
        std::thread::spawn(move || {
            for line in BufReader::new(stream).lines().map_while(Result::ok) {
                let _ = tx.send(line);
            }
        });
    }
    Launch { child, lines }
}

impl Launch {
    /// Waits for a line containing `needle` and returns it.
    fn line_with(&self, needle: &str) -> String {
        loop {
            let line = self
                .lines
                .recv_timeout(Duration::from_secs(20))
                .unwrap_or_else(|_| panic!("no line containing {needle:?} within 20 s"));
            if line.contains(needle) {
                return line;
            }
        }
    }

    fn interrupt(&self) {
        let status = Command::new("kill")
            .args(["-INT", &self.child.id().to_string()])
            .status()
            .unwrap();
        assert!(status.success());
    }

    fn wait(&mut self) -> std::process::ExitStatus {
        for _ in 0..100 {
            if let Some(status) = self.child.try_wait().unwrap() {
                return status;
            }
            std::thread::sleep(Duration::from_millis(100));
        }
        self.child.kill().unwrap();
        panic!("seance did not stop within 10 s");
    }
}

impl Drop for Launch {
    fn drop(&mut self) {
        let _ = self.child.kill();
    }
}

fn local_url(line: &str) -> String {
    line.rsplit(' ').next().unwrap().to_owned()
}

#[test]
fn headless_prints_the_links_and_stops_cleanly_on_ctrl_c() {
    let dir = tempfile::tempdir().unwrap();
    let mut first = launch(seance(&["--headless", "--port", "0"], dir.path()));
    let url = local_url(&first.line_with("Table screen on this machine:"));
    let tablet = local_url(&first.line_with("Table screen on a tablet"));
    let join = local_url(&first.line_with("Phones on the local network:"));
    let code = first.line_with("Join code:");
    assert!(
        url.starts_with("http://127.0.0.1:") && url.contains("/?key="),
        "{url}"
    );
    let key = url.rsplit('=').next().unwrap();
    assert!(tablet.ends_with(&format!("/?key={key}")), "{tablet}");
    let raw = join
        .rsplit_once("/?code=")
        .expect("the join link has the code")
        .1;
    assert!(
        !join.contains(key),
        "the join link never carries the table key"
    );
    assert!(
        code.ends_with(&format!("{}-{}", &raw[..5], &raw[5..])),
        "{code}"
    );
    first.line_with("█");
    // Programs find both links, told apart, in the data folder.
    let record: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.path().join("instance.json")).unwrap())
            .unwrap();
    assert_eq!(record["join_url"], join.as_str());
    assert_eq!(record["table_url"], tablet.as_str());

    first.interrupt();
    first.line_with("Stopping");
    assert!(first.wait().success());
    assert!(
        !dir.path().join("instance.json").exists(),
        "a clean stop removes its record"
    );
    assert!(
        std::net::TcpStream::connect(url.trim_start_matches("http://").split('/').next().unwrap())
            .is_err()
    );
}

#[test]
fn a_second_launch_hands_over_to_the_first() {
    let dir = tempfile::tempdir().unwrap();
    let first = launch(seance(&["--headless", "--port", "0"], dir.path()));
    let url = local_url(&first.line_with("Table screen on this machine:"));

    let second = seance(&["--headless", "--port", "0"], dir.path())
        .output()
        .unwrap();
    assert!(second.status.success());
    let said = String::from_utf8_lossy(&second.stdout);
    assert!(
        said.contains(&format!("already running at {url}")),
        "{said}"
    );
    assert!(
        first
            .line_with("Another launch asked for the table")
            .contains(&url)
    );
}

#[test]
fn without_a_display_it_serves_headless() {
    let dir = tempfile::tempdir().unwrap();
    let mut command = seance(&["--port", "0"], dir.path());
    command.env_remove("DISPLAY").env_remove("WAYLAND_DISPLAY");
    let launched = launch(command);
    launched.line_with("no display found; serving headless");
    launched.line_with("Table screen on this machine:");
}

#[test]
fn a_wrong_option_is_explained() {
    let dir = tempfile::tempdir().unwrap();
    let out = seance(&["--port", "many"], dir.path()).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(
        said.contains("--port needs a number from 0 to 65535, not \"many\""),
        "{said}"
    );
    assert!(said.contains("Usage: seance"), "{said}");
}

/// A minimal blocking HTTP/1.1 exchange: the status and the body.
fn http(
    port: u16,
    method: &str,
    path: &str,
    code: &str,
    body: &str,
) -> std::io::Result<(u16, String)> {
    use std::io::{Read, Write};
    let mut stream = std::net::TcpStream::connect(("127.0.0.1", port))?;
    write!(
        stream,
        "{method} {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nAuthorization: Bearer {code}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    )?;
    let mut reply = String::new();
    stream.read_to_string(&mut reply)?;
    let status = reply
        .split(' ')
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(0);
    let body = reply
        .split_once("\r\n\r\n")
        .map(|(_, b)| b.to_owned())
        .unwrap_or_default();
    Ok((status, body))
}

fn json(body: &str) -> serde_json::Value {
    serde_json::from_str(body).unwrap_or_else(|e| panic!("not JSON ({e}): {body}"))
}

/// The port and the table key of the table link on this machine.
fn port_and_code(url: &str) -> (u16, String) {
    let rest = url.trim_start_matches("http://127.0.0.1:");
    let (port, key) = rest.split_once("/?key=").unwrap();
    (port.parse().unwrap(), key.to_owned())
}

#[test]
fn killing_the_process_loses_no_acknowledged_command() {
    use std::sync::Arc;
    use std::sync::atomic::{AtomicU64, Ordering};

    let dir = tempfile::tempdir().unwrap();
    let mut first = launch(seance(&["--headless", "--port", "0"], dir.path()));
    let (port, code) = port_and_code(&local_url(
        &first.line_with("Table screen on this machine:"),
    ));
    let setup = r#"{"setup": {"ghost": "Laura", "difficulty": "easy", "secrets": "app_kept", "players": [
        {"name": "Stephanie", "colours": ["red"]}, {"name": "Alex", "colours": ["blue"]},
        {"name": "Carl", "colours": ["green"]}]}}"#;
    let (status, created) = http(port, "POST", "/api/mysterium", &code, setup).unwrap();
    assert_eq!(status, 201, "{created}");
    let game = json(&created)["id"].as_u64().unwrap();
    // Every vision given, and Alex's pawn on a card, for the tokens to go beside.
    let (_, seen) = http(port, "GET", &format!("/api/mysterium/{game}"), &code, "").unwrap();
    let card = &json(&seen)["view"]["layout"]["characters"][0];
    for command in [
        r#"{"version": 0, "command": {"type": "give_every_vision"}}"#.to_string(),
        format!(
            r#"{{"version": 1, "command": {{"type": "place_intuition", "psychic": 1, "card": {card}}}}}"#
        ),
    ] {
        let (status, done) = http(
            port,
            "POST",
            &format!("/api/mysterium/{game}/commands"),
            &code,
            &command,
        )
        .unwrap();
        assert_eq!(status, 200, "{done}");
    }

    // Place and withdraw a token, over and over: every command is legal, each is acknowledged
    // with its version, until the process dies under the client.
    let acknowledged = Arc::new(AtomicU64::new(2));
    let client = {
        let (acknowledged, code) = (acknowledged.clone(), code.clone());
        std::thread::spawn(move || {
            for version in 2u64.. {
                let command = if version % 2 == 0 {
                    r#"{"type": "place_token", "by": 0, "on": 1, "face": "agree"}"#
                } else {
                    r#"{"type": "withdraw_token", "by": 0, "on": 1}"#
                };
                let body = format!(r#"{{"version": {version}, "command": {command}}}"#);
                match http(
                    port,
                    "POST",
                    &format!("/api/mysterium/{game}/commands"),
                    &code,
                    &body,
                ) {
                    Ok((200, _)) => acknowledged.store(version + 1, Ordering::SeqCst),
                    // No reply, or a cut one: the process died with this command in flight.
                    Err(_) | Ok((0, _)) => return,
                    Ok((status, body)) => panic!("refused ({status}): {body}"),
                }
            }
        })
    };
    while acknowledged.load(Ordering::SeqCst) < 25 {
        std::thread::sleep(Duration::from_millis(5));
    }
    first.child.kill().unwrap(); // SIGKILL: no chance to flush anything
    first.child.wait().unwrap();
    client.join().unwrap();
    let acked = acknowledged.load(Ordering::SeqCst);

    let second = launch(seance(&["--headless", "--port", "0"], dir.path()));
    let (port, code) = port_and_code(&local_url(
        &second.line_with("Table screen on this machine:"),
    ));
    let (status, view) = http(
        port,
        "GET",
        &format!("/api/mysterium/{game}?role=table"),
        &code,
        "",
    )
    .unwrap();
    assert_eq!(status, 200, "{view}");
    let snapshot = json(&view);
    let version = snapshot["version"].as_u64().unwrap();
    // Every acknowledged command is there; the one in flight at the kill may be too.
    assert!(
        version == acked || version == acked + 1,
        "acknowledged {acked}, resumed at {version}"
    );
    let token_down = !snapshot["view"]["placements"]
        .as_array()
        .unwrap()
        .is_empty();
    assert_eq!(
        token_down,
        !version.is_multiple_of(2),
        "the resumed state matches its version (the visions and the pawn took versions 0 and 1)"
    );
}
