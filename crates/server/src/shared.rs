//! What every request shares: the table's credentials and addresses, its settings, each
//! rule set's games, the seats, the journal for what concerns every game alike; what is
//! told to every screen at once, and a game's snapshot as a screen gets it, with the seats
//! phones hold. Below the HTTP modules, which all take it.

use std::path::PathBuf;
use std::sync::{Mutex, MutexGuard};

use seance_journal::Journal;
use seance_timeline::{RuleBook, Seat, Who};
use tokio::sync::{broadcast, mpsc, watch};

use crate::credentials::{JoinCode, TableKey};
use crate::games::{GameError, Games, Snapshot};
use crate::rulesets::RuleSets;
use crate::settings::SettingsStore;
use crate::sync::Hold;
use crate::{access, awake, seats};

/// State shared by every request handler.
pub(crate) struct Shared {
    pub code: JoinCode,
    pub key: TableKey,
    /// This server on the LAN, as phones reach it: `http://192.168.1.20:4747`.
    pub origin: String,
    /// What phones open (the QR code): the LAN address and the join code.
    pub join_url: String,
    /// What makes a device the table: the LAN address and the table key.
    pub table_url: String,
    pub settings: SettingsStore,
    pub events: broadcast::Sender<String>,
    pub devices: std::sync::atomic::AtomicUsize,
    /// Rung when a screen comes or goes: every screen is told the count, at most once a
    /// second (`socket::tell_presence`).
    pub presence: tokio::sync::Notify,
    pub shutdown: watch::Receiver<bool>,
    pub focus: mpsc::Sender<()>,
    pub port: u16,
    /// When this server started (ms since 1970): a screen waiting for a restart sees it
    /// change.
    pub started: u128,
    pub failures: access::FailureLog,
    /// Seats asked for, per address, to slow down guessing.
    pub joins: access::FailureLog,
    /// Refused requests, logged a line a minute per address.
    pub hushed: access::Hushed,
    /// The journal, for what concerns every rule set's games alike: the list of games, the
    /// history.
    pub(super) journal: Mutex<Journal>,
    /// The journal's identity, which names its plays and seats.
    pub identity: String,
    /// Each rule set's games.
    pub rule_sets: RuleSets,
    pub seats: seats::Seats,
    pub data_dir: PathBuf,
    /// Keeps the host awake while a table screen shows a game in play.
    pub awake: awake::Awake,
    /// What the journal's check at start found: then no game is served until the table
    /// chooses what to do (`trouble`).
    pub trouble: Option<seance_journal::Trouble>,
    /// Asks the shell to start the server again (after the table's choice).
    pub restart: mpsc::Sender<()>,
    /// Set by the table's first choice: one choice per start, never two at once.
    pub chosen: std::sync::atomic::AtomicBool,
}

impl Shared {
    /// Tells every screen `message` (a count of screens, a setting changed, a seat freed).
    pub fn broadcast(&self, message: serde_json::Value) {
        // No subscriber is not an error: nobody is watching yet.
        let _ = self.events.send(message.to_string());
    }

    /// Game `game` as `role` sees it, for `who`, with the seats phones hold.
    pub fn seated<G: RuleBook>(
        &self,
        games: &Games<G>,
        game: i64,
        role: G::Role,
        who: &Who<G::Role>,
    ) -> Result<Seated<G>, GameError> {
        Ok(Seated {
            snapshot: games.snapshot(game, role, who)?,
            seats: seats::in_words(&self.seats.taken::<Seat<G::Role>>(game)),
            rematch: self.seats.rematch(game),
        })
    }

    /// The journal, for what concerns every rule set's games alike.
    pub fn journal(&self) -> MutexGuard<'_, Journal> {
        self.journal.hold()
    }
}

/// A role's snapshot, with the seats taken by phones (`"seats": ["ghost", "psychic:1"]`)
/// and the game's rematch once there is one (`"rematch": 12`), where its screens go on.
#[derive(serde::Serialize)]
#[serde(bound = "")]
pub(crate) struct Seated<G: RuleBook> {
    #[serde(flatten)]
    snapshot: Snapshot<G>,
    seats: Vec<String>,
    rematch: Option<i64>,
}
