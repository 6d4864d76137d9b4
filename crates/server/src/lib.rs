//! Séance's LAN server: one HTTP + WebSocket endpoint for the table window and the phones.
//!
//! The server carries views and commands; it decides no rule. It serves `ui/` as the build
//! made it ready (`assets`), guards every request (local network only, `Host`/`Origin`
//! checked, the join code or the table key required on the API: which of the two tells a
//! phone or a watcher from the table) and tells the shell when another launch asks for the
//! window.

mod access;
mod assets;
mod awake;
mod bgstats;
mod callers;
pub mod credentials;
mod files;
mod games;
mod group_commit;
mod http;
pub mod instance;
mod net;
mod places;
pub mod qr;
pub mod refusals;
pub mod refused;
mod request;
mod rulesets;
pub mod seats;
mod serve;
pub mod settings;
mod shared;
mod sync;

use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio::sync::{broadcast, mpsc, watch};
use tokio::task::JoinHandle;

use credentials::{JoinCode, TableKey};
pub use http::socket::MOST_HEARD;
pub use net::PORT_RANGE;
use rulesets::RuleSets;
use seance_journal::{Journal, JournalError, Trouble};
use settings::SettingsStore;
use shared::Shared;

/// The port a table tries first; see [`PORT_RANGE`] for the fallbacks.
pub const DEFAULT_PORT: u16 = 4747;

/// The journal's file in the data folder.
pub const JOURNAL: &str = "seance.sqlite3";

/// How long the journal's integrity check at start may take before it is cut short.
const CHECK_BUDGET: Duration = Duration::from_secs(5);

/// What the server needs to start.
#[derive(Debug, Clone)]
pub struct Config {
    /// Where the join code, the table key and the settings live (created if missing).
    pub data_dir: PathBuf,
    /// The port to try first; 0 lets the system choose.
    pub port: u16,
}

/// Why the server could not start, worded for the person who launched it.
#[derive(Debug)]
pub enum StartError {
    DataDir {
        path: PathBuf,
        source: std::io::Error,
    },
    NoFreePort {
        first: u16,
        source: std::io::Error,
    },
    Journal(seance_journal::JournalError),
}

impl std::fmt::Display for StartError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            StartError::DataDir { path, source } => write!(
                f,
                "cannot use the data folder {} ({source}); check its permissions or choose another with --data-dir",
                path.display()
            ),
            StartError::NoFreePort { first, source } => write!(
                f,
                "no free port from {first} on ({source}); close the program using it or choose one with --port"
            ),
            StartError::Journal(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for StartError {}

/// The journal at `path`, each rule set's connection to it, and the trouble found if any.
/// The journal is checked before it is opened: one in trouble is told exactly and not
/// written to, and so is one that cannot be opened for what the table can put right (a full
/// disk, a folder that may not be written); the screens then serve no game (from a journal
/// in memory) until the table chooses.
fn open_journal(path: &Path) -> Result<(Journal, RuleSets, Option<Trouble>), JournalError> {
    let opened = seance_journal::check(path, CHECK_BUDGET).map(|()| {
        let journal = Journal::open(path)?;
        // Each rule set's games have a connection of their own to the one file, and so has
        // what concerns them all (the lists, the history).
        let rule_sets = RuleSets::open(&journal)?;
        Ok::<_, JournalError>((journal, rule_sets))
    });
    let trouble = match opened {
        Ok(Ok((journal, rule_sets))) => return Ok((journal, rule_sets, None)),
        Ok(Err(e)) => e.trouble(path).ok_or(e)?,
        Err(trouble) => trouble,
    };
    tracing::error!(
        "checked the journal {}: {trouble}; the table screen asks what to do",
        path.display()
    );
    let journal = Journal::open(Path::new(":memory:"))?;
    let rule_sets = RuleSets::open(&journal)?;
    Ok((journal, rule_sets, Some(trouble)))
}

/// A running server. Dropping it without [`Server::shutdown`] leaves it running until the
/// process ends.
pub struct Server {
    shared: Arc<Shared>,
    addr: SocketAddr,
    stop: watch::Sender<bool>,
    task: JoinHandle<std::io::Result<()>>,
    requests: Option<Requests>,
}

/// What a running server asks of the shell that started it.
pub struct Requests {
    /// A later launch asks for the table to come to the front.
    pub focus: mpsc::Receiver<()>,
    /// The table chose what to do with a journal in trouble: start the server again on it.
    pub restart: mpsc::Receiver<()>,
}

impl Server {
    /// Binds the first free port from `config.port`, loads (or creates) the join code, the
    /// table key and the settings, and starts serving on the current tokio runtime.
    pub async fn start(config: Config) -> Result<Server, StartError> {
        let data_err = |source| StartError::DataDir {
            path: config.data_dir.clone(),
            source,
        };
        seance_journal::create_private_dir(&config.data_dir).map_err(data_err)?;
        let code = JoinCode::load_or_create(&config.data_dir).map_err(data_err)?;
        let key = TableKey::load_or_create(&config.data_dir).map_err(data_err)?;
        let settings = SettingsStore::load(&config.data_dir).map_err(data_err)?;
        let journal_path = config.data_dir.join(JOURNAL);
        let (journal, rule_sets, trouble) =
            open_journal(&journal_path).map_err(StartError::Journal)?;
        let identity = journal.identity().to_owned();
        let seats = match trouble {
            None => seats::Seats::load(&config.data_dir, &identity, rule_sets.commits())
                .map_err(data_err)?,
            Some(_) => seats::Seats::unsaved(),
        };
        let bound = async {
            let listener = net::bind(config.port).await?;
            let addr = listener.local_addr()?;
            Ok((listener, addr))
        };
        let (listener, addr) = bound.await.map_err(|source| StartError::NoFreePort {
            first: config.port,
            source,
        })?;
        let origin = format!("http://{}", net::lan_authority(addr.port()));
        let join_url = format!("{origin}/?code={code}");
        let table_url = format!("{origin}/?key={key}");
        let (stop, shutdown) = watch::channel(false);
        let (focus_tx, focus_rx) = mpsc::channel(4);
        let (restart_tx, restart_rx) = mpsc::channel(1);
        let shared = Arc::new(Shared {
            code,
            key,
            origin,
            join_url,
            table_url,
            settings,
            events: broadcast::channel(64).0,
            devices: Default::default(),
            presence: Default::default(),
            shutdown: shutdown.clone(),
            focus: focus_tx,
            port: addr.port(),
            started: std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| d.as_millis()),
            failures: Default::default(),
            joins: Default::default(),
            hushed: Default::default(),
            journal: Mutex::new(journal),
            identity,
            rule_sets,
            seats,
            data_dir: config.data_dir.clone(),
            awake: awake::Awake::new(),
            trouble,
            restart: restart_tx,
            chosen: Default::default(),
        });
        tokio::spawn(http::socket::tell_presence(shared.clone()));
        let task = tokio::spawn(serve::serve(
            listener,
            http::routes::router(shared.clone()),
            shutdown,
        ));
        tracing::info!(port = addr.port(), "serving the table");
        Ok(Server {
            shared,
            addr,
            stop,
            task,
            requests: Some(Requests {
                focus: focus_rx,
                restart: restart_rx,
            }),
        })
    }

    /// The port actually bound (it may differ from the one asked for).
    pub fn port(&self) -> u16 {
        self.addr.port()
    }

    /// The URL phones open (the QR code): this machine's LAN address, the port and the join
    /// code. It never makes a device the table.
    pub fn join_url(&self) -> &str {
        &self.shared.join_url
    }

    /// The table link for a tablet on the local network: the LAN address and the table key.
    /// Shown on the table's own screen and in the terminal only.
    pub fn table_url(&self) -> &str {
        &self.shared.table_url
    }

    /// The table link for a screen on this machine (the table window).
    pub fn local_url(&self) -> String {
        format!("http://127.0.0.1:{}/?key={}", self.port(), self.shared.key)
    }

    pub fn join_code(&self) -> &JoinCode {
        &self.shared.code
    }

    /// What a later launch on this machine, and a program, need to know of this one.
    pub fn record(&self) -> instance::Record {
        instance::Record {
            port: self.port(),
            join_url: self.shared.join_url.clone(),
            table_url: self.shared.table_url.clone(),
            key: self.shared.key.to_string(),
        }
    }

    /// The journal's trouble found at start, if any (the screens then ask the table what
    /// to do, and the server serves no game).
    pub fn trouble(&self) -> Option<&seance_journal::Trouble> {
        self.shared.trouble.as_ref()
    }

    /// What this server will ask of its shell ([`Requests`]). Taken once.
    pub fn take_requests(&mut self) -> Option<Requests> {
        self.requests.take()
    }

    /// Journals every running sand timer where it is, closes every WebSocket, stops
    /// accepting requests and waits (at most a few seconds) for the ones under way, then
    /// leaves the whole history in the journal's own file.
    pub async fn shutdown(mut self) {
        self.shared.rule_sets.keep_timers();
        let _ = self.stop.send(true);
        match tokio::time::timeout(Duration::from_secs(5), &mut self.task).await {
            Ok(Ok(Ok(()))) => tracing::info!("server stopped"),
            Ok(Ok(Err(e))) => tracing::warn!("server stopped with an error: {e}"),
            Ok(Err(e)) => tracing::warn!("server task failed: {e}"),
            Err(_) => {
                // Its port is let go with it, for a server started again on the same one.
                tracing::warn!("server did not stop within 5 s; cutting its requests short");
                self.task.abort();
            }
        }
        match self.shared.journal().checkpoint() {
            Ok(true) => {}
            Ok(false) => tracing::warn!("a reader kept part of the journal's log beside it"),
            Err(e) => tracing::warn!("the journal's log stays beside it: {e}"),
        }
    }
}
