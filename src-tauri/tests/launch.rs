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
    let join = first.line_with("Phones and tablets on the local network:");
    let code = first.line_with("Table code:");
    assert!(
        url.starts_with("http://127.0.0.1:") && url.contains("/?code="),
        "{url}"
    );
    let raw = url.rsplit('=').next().unwrap();
    assert!(join.ends_with(&format!("/?code={raw}")), "{join}");
    assert!(
        code.ends_with(&format!("{}-{}", &raw[..5], &raw[5..])),
        "{code}"
    );
    first.line_with("█");
    assert!(dir.path().join("instance.json").exists());

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
