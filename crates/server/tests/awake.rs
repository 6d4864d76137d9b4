//! The host kept awake while the table's screen shows a game in play, observed from outside
//! the app as the system sees it: on two private D-Bus buses of the test's own, a screen saver
//! (`org.freedesktop.ScreenSaver`) and logind (`org.freedesktop.login1`) that record what
//! they are asked. Needs `dbus-daemon` (`scripts/setup --test` installs it).

mod support;

use std::io::Read;
use std::os::unix::net::UnixStream;
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use reqwest::Method;
use serde_json::{Value, json};
use support::{Sent, act_as, ok, rummy_for_two, table, table_json};

/// What the system was asked, in order: `inhibit`, `uninhibit` (the screen saver) and
/// `idle` (logind's idle lock, whose other end the test keeps).
#[derive(Default)]
struct Asked {
    calls: Vec<&'static str>,
    idle_locks: Vec<UnixStream>,
}

type Log = Arc<Mutex<Asked>>;

struct ScreenSaver(Log);

#[zbus::interface(name = "org.freedesktop.ScreenSaver")]
impl ScreenSaver {
    fn inhibit(&mut self, _application: &str, _reason: &str) -> u32 {
        self.0.lock().unwrap().calls.push("inhibit");
        7
    }

    fn un_inhibit(&mut self, cookie: u32) {
        assert_eq!(cookie, 7, "the cookie given back is the one handed out");
        self.0.lock().unwrap().calls.push("uninhibit");
    }
}

struct Login(Log);

#[zbus::interface(name = "org.freedesktop.login1.Manager")]
impl Login {
    fn inhibit(
        &mut self,
        what: &str,
        _who: &str,
        _why: &str,
        mode: &str,
    ) -> zbus::zvariant::OwnedFd {
        assert_eq!((what, mode), ("idle", "block"));
        let (kept, given) = UnixStream::pair().unwrap();
        let mut asked = self.0.lock().unwrap();
        asked.calls.push("idle");
        asked.idle_locks.push(kept);
        std::os::fd::OwnedFd::from(given).into()
    }
}

/// A private bus; stopped with the test.
struct Bus(Child, String);

impl Bus {
    fn start(dir: &std::path::Path, name: &str) -> Bus {
        let socket = dir.join(name);
        let mut child = Command::new("dbus-daemon")
            .args(["--session", "--nofork", "--print-address=1"])
            .arg(format!("--address=unix:path={}", socket.display()))
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("dbus-daemon runs (scripts/setup --test installs the dbus package)");
        let mut address = String::new();
        let mut out = child.stdout.take().unwrap();
        let mut byte = [0];
        while out.read(&mut byte).unwrap() == 1 && byte[0] != b'\n' {
            address.push(byte[0] as char);
        }
        Bus(child, address)
    }
}

impl Drop for Bus {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn serve(
    bus: &Bus,
    name: &str,
    path: &str,
    object: impl zbus::object_server::Interface,
) -> zbus::blocking::Connection {
    zbus::blocking::connection::Builder::address(bus.1.as_str())
        .unwrap()
        .name(name)
        .unwrap()
        .serve_at(path, object)
        .unwrap()
        .build()
        .unwrap()
}

impl Asked {
    /// How many of logind's idle locks the app still holds.
    fn idle_held(&self) -> usize {
        self.idle_locks
            .iter()
            .filter(|kept| {
                kept.set_nonblocking(true).unwrap();
                // The app closing its end is an end of file on ours.
                !matches!((&**kept).read(&mut [0]), Ok(0))
            })
            .count()
    }
}

/// Waits until `log` shows `calls` with `held` idle locks held, saying what it saw if not.
async fn expect(log: &Log, calls: &[&str], held: usize) {
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        let seen = {
            let asked = log.lock().unwrap();
            (asked.calls.clone(), asked.idle_held())
        };
        if seen.0 == calls && seen.1 == held {
            return;
        }
        assert!(
            Instant::now() < deadline,
            "the system was asked {:?} with {} idle locks held; expected {calls:?} with {held}",
            seen.0,
            seen.1
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

#[tokio::test]
async fn the_host_stays_awake_while_the_table_shows_a_game_in_play() {
    let buses = tempfile::tempdir().unwrap();
    let session = Bus::start(buses.path(), "session");
    let system = Bus::start(buses.path(), "system");
    // SAFETY: the only test in this binary, before the server starts any thread that reads
    // the environment.
    unsafe {
        std::env::set_var("DBUS_SESSION_BUS_ADDRESS", &session.1);
        std::env::set_var("DBUS_SYSTEM_BUS_ADDRESS", &system.1);
    }
    let log = Log::default();
    let _saver = serve(
        &session,
        "org.freedesktop.ScreenSaver",
        "/org/freedesktop/ScreenSaver",
        ScreenSaver(log.clone()),
    );
    let _logind = serve(
        &system,
        "org.freedesktop.login1",
        "/org/freedesktop/login1",
        Login(log.clone()),
    );

    let t = table().await;
    let game = rummy_for_two(&t).await;
    let on_game = format!("&rummy={game}&role=table");

    // A watcher, or the table's home screen, keeps nothing awake.
    let watcher = t.phone_socket(&on_game).await;
    let home = t.socket().await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    expect(&log, &[], 0).await;

    // The table's screen on the game keeps the screen on and the machine from idle sleep;
    // a second table screen (a reload) asks nothing more.
    let mut table_screen = t.socket_with(&on_game).await;
    expect(&log, &["inhibit", "idle"], 1).await;
    let second = t.socket_with(&on_game).await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    expect(&log, &["inhibit", "idle"], 1).await;
    drop(second);

    // Rounds until someone passes 100: the game is over and the host may sleep again.
    let round = json!({"type": "end_round", "tally": {"ending": {"how": "last_card"}, "victims_in_play": 1, "players": [
        {"evidence": [5, 0, 0, 0, 0, 0]}, {"hand": 4}]}});
    for _ in 0..30 {
        let view: Value = table_json(&t, &format!("/rummy/{game}?role=table")).await;
        if !view["view"]["winner"].is_null() {
            break;
        }
        ok(act_as(&t, "rummy", game, None, round.clone()).await).await;
    }
    expect(&log, &["inhibit", "idle", "uninhibit"], 0).await;

    // Undone, the game is in play again; the table leaving it lets go once more.
    ok(t.api(Method::POST, &format!("/rummy/{game}/undo"))
        .json(&json!({"version": table_json(&t, &format!("/rummy/{game}?role=table")).await["version"]}))
        .sent().await)
    .await;
    expect(
        &log,
        &["inhibit", "idle", "uninhibit", "inhibit", "idle"],
        1,
    )
    .await;
    table_screen.close(None).await.unwrap();
    expect(
        &log,
        &[
            "inhibit",
            "idle",
            "uninhibit",
            "inhibit",
            "idle",
            "uninhibit",
        ],
        0,
    )
    .await;
    drop((watcher, home));
}
