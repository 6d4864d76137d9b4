//! Keeps the host awake while a table screen shows a game in play: the table's screen must
//! not dim, nor the machine sleep, between two rounds. Asked of the system through
//! `keepawake` (the freedesktop screen saver and logind inhibitors over D-Bus on Linux, the
//! power APIs on Windows and macOS), and let go as soon as no table shows a game in play,
//! so a host left on the home screen, or on a finished game, sleeps as usual.

use std::sync::mpsc;
use std::sync::{Arc, Mutex};

use crate::sync::Hold as _;

/// How many table screens show a game in play, and the thread that asks the system.
#[derive(Clone)]
pub struct Awake(Arc<Mutex<Tables>>);

struct Tables {
    showing: usize,
    /// To the thread holding the system's inhibitors: `true` to take them, `false` to let go.
    wish: mpsc::Sender<bool>,
}

/// One table screen on a game in play; the host may sleep again once every one is dropped.
pub struct Showing(Awake);

impl Awake {
    /// Starts the thread that talks to the system (its calls block).
    pub fn new() -> Awake {
        let (wish, wishes) = mpsc::channel();
        std::thread::Builder::new()
            .name("keep awake".into())
            .spawn(move || keep(wishes))
            .expect("a thread starts");
        Awake(Arc::new(Mutex::new(Tables { showing: 0, wish })))
    }

    /// Holds `showing` while a table screen shows a game in play (`in_play`), drops it
    /// otherwise.
    pub fn follow(&self, showing: &mut Option<Showing>, in_play: bool) {
        match (in_play, showing.is_some()) {
            (true, false) => *showing = Some(self.show()),
            (false, true) => *showing = None,
            _ => {}
        }
    }

    fn show(&self) -> Showing {
        let mut tables = self.0.hold();
        tables.showing += 1;
        if tables.showing == 1 {
            // The thread outlives every table: a send cannot fail while one holds this.
            let _ = tables.wish.send(true);
        }
        Showing(self.clone())
    }
}

impl Drop for Showing {
    fn drop(&mut self) {
        let mut tables = self.0.0.hold();
        tables.showing -= 1;
        if tables.showing == 0 {
            let _ = tables.wish.send(false);
        }
    }
}

/// Takes the system's inhibitors on `true`, lets them go on `false`; ends with the server.
fn keep(wishes: mpsc::Receiver<bool>) {
    let mut held: Vec<keepawake::KeepAwake> = Vec::new();
    while let Ok(wish) = wishes.recv() {
        // Only the latest wish counts: a screen reloading lets go and takes again at once.
        let wish = wishes.try_iter().last().unwrap_or(wish);
        if wish && held.is_empty() {
            held = inhibit();
        } else if !wish {
            release(&mut held);
        }
    }
    release(&mut held);
}

fn release(held: &mut Vec<keepawake::KeepAwake>) {
    for inhibitor in held.drain(..) {
        // keepawake panics when the screen saver has left the bus meanwhile: then there is
        // nothing left to let go of.
        let _ = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| drop(inhibitor)));
    }
}

/// The screen kept on and the machine kept from idle sleep, each asked on its own: a
/// system that refuses one (no logind, no screen saver) still grants the other.
fn inhibit() -> Vec<keepawake::KeepAwake> {
    let mut screen = keepawake::Builder::default();
    screen.display(true);
    let mut machine = keepawake::Builder::default();
    machine.idle(true);
    [
        ("the screen on", screen),
        ("the machine from sleeping", machine),
    ]
    .into_iter()
    .filter_map(|(what, mut ask)| {
        let asked = ask
            .app_name("Séance")
            .app_reverse_domain("app.seance.table")
            .reason("A game is in play")
            .create();
        match asked {
            Ok(inhibitor) => {
                tracing::info!("a game is in play: keeping {what}");
                Some(inhibitor)
            }
            Err(e) => {
                tracing::info!("a game is in play, but the system did not keep {what}: {e}");
                None
            }
        }
    })
    .collect()
}
