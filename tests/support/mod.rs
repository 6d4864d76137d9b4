//! What the end-to-end tests stand on: the real `seance` binary, real WebDriver servers
//! (ChromeDriver for Chromium, tauri-driver for the Tauri window), Xvfb when there is no
//! display, and QR decoding of real screenshots.

pub mod cpu;
pub mod lan;

use std::io::{BufRead, BufReader};
use std::net::{TcpListener, TcpStream};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use fantoccini::wd::{Capabilities, WebDriverCompatibleCommand};
use fantoccini::{Client, ClientBuilder, Locator};
use hyper_util::client::legacy::connect::HttpConnector;

/// The `seance` binary built by `cargo build -p seance` (scripts/test does it first), or the
/// one `SEANCE_BIN` names (a benchmark's release build).
pub fn seance_binary() -> PathBuf {
    if let Some(binary) = std::env::var_os("SEANCE_BIN") {
        return PathBuf::from(binary);
    }
    let target = std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../target")));
    let binary = target.join("debug/seance");
    assert!(
        binary.exists(),
        "{} is missing: build it with `cargo build -p seance` (scripts/test does)",
        binary.display()
    );
    binary
}

/// Where the tests leave screenshots for people to look at.
pub fn screenshot_dir() -> PathBuf {
    let dir = PathBuf::from(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../target/e2e-screenshots"
    ));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// A port nobody listens on right now.
pub fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// A child process ended, with all it started, when dropped.
pub struct Process(pub Child);

/// The process groups the tests started, to check at the end that none outlived them.
static GROUPS: std::sync::Mutex<Vec<u32>> = std::sync::Mutex::new(Vec::new());

/// The taps each browser has made, by its WebDriver session: what a game costs in fingers.
static TAPS: std::sync::Mutex<std::collections::BTreeMap<String, usize>> =
    std::sync::Mutex::new(std::collections::BTreeMap::new());

/// How many taps `client` has made so far.
pub async fn taps(client: &Client) -> usize {
    let session = client.session_id().await.unwrap().unwrap_or_default();
    TAPS.lock().unwrap().get(&session).copied().unwrap_or(0)
}

impl Process {
    /// Starts `command` in a process group of its own (on Unix), so that ending it ends
    /// what it started too: a driver's browsers and their helpers.
    pub fn spawn(command: &mut Command) -> std::io::Result<Process> {
        #[cfg(unix)]
        std::os::unix::process::CommandExt::process_group(command, 0);
        let process = command.spawn().map(Process)?;
        GROUPS.lock().unwrap().push(process.0.id());
        Ok(process)
    }
}

/// Processes still running in a group a test started (Linux: read from `/proc`), by name.
pub fn left_running() -> Vec<String> {
    let groups = GROUPS.lock().unwrap().clone();
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    entries
        .filter_map(|e| std::fs::read_to_string(e.ok()?.path().join("stat")).ok())
        .filter_map(|stat| {
            // pid (name) state ppid pgrp …: the name may hold spaces, so split after it.
            let (name, rest) = stat.split_once(" (")?.1.rsplit_once(") ")?;
            let pgrp: u32 = rest.split(' ').nth(2)?.parse().ok()?;
            let zombie = rest.starts_with('Z');
            (groups.contains(&pgrp) && !zombie).then(|| name.to_owned())
        })
        .collect()
}

impl Drop for Process {
    fn drop(&mut self) {
        #[cfg(unix)]
        let _ = Command::new("kill")
            .args(["-KILL", "--", &format!("-{}", self.0.id())])
            .stderr(Stdio::null())
            .status();
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// Where a driver's errors go (and its browser's, which it starts): one file per driver,
/// named by its port, read when a test fails ([`driver_logs_since`]).
fn driver_log_dir() -> PathBuf {
    let dir = PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../target/e2e-logs"));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The last lines of each driver's log written to since `since`: what a browser said as
/// it crashed, for a test that failed with it.
pub fn driver_logs_since(since: std::time::SystemTime) -> String {
    let mut said = String::new();
    let Ok(entries) = std::fs::read_dir(driver_log_dir()) else {
        return said;
    };
    for entry in entries.flatten() {
        let written = entry.metadata().and_then(|m| m.modified());
        if written.is_ok_and(|w| w >= since) {
            let text = std::fs::read_to_string(entry.path()).unwrap_or_default();
            let lines: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
            if let Some(tail) = lines
                .get(lines.len().saturating_sub(30)..)
                .filter(|t| !t.is_empty())
            {
                said += &format!("{}:\n  {}\n", entry.path().display(), tail.join("\n  "));
            }
        }
    }
    said
}

/// Starts `program` and waits until it accepts connections on `port`, its errors kept in
/// the drivers' logs.
pub fn serve(mut command: Command, port: u16) -> Process {
    let name = format!("{:?}", command.get_program());
    let log = std::fs::File::create(driver_log_dir().join(format!("{port}.log"))).unwrap();
    let process = Process::spawn(command.stdout(Stdio::null()).stderr(log))
        .unwrap_or_else(|e| panic!("cannot start {name} ({e}): run scripts/setup --test"));
    listening(&name, port);
    process
}

/// Waits until `name` listens on `port` (20 s at most).
pub fn listening(name: &str, port: u16) {
    let deadline = Instant::now() + Duration::from_secs(20);
    while TcpStream::connect(("127.0.0.1", port)).is_err() {
        assert!(
            Instant::now() < deadline,
            "{name} did not listen on {port} within 20 s"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// ChromeDriver on a free port: the port, and the process (stopped when dropped).
pub fn chromedriver() -> (u16, Process) {
    let port = free_port();
    let mut command = Command::new("chromedriver");
    command.arg(format!("--port={port}"));
    (port, serve(command, port))
}

/// A headless table: the real binary with its own data folder.
pub struct Table {
    /// The table link on this machine (the table key): a screen opening it is the table.
    pub local_url: String,
    /// What the QR code holds (the join code, the LAN address).
    pub join_url: String,
    /// The join link on this machine: what a phone that scanned the QR code opens.
    pub phone_url: String,
    pub data_dir: tempfile::TempDir,
    _process: Process,
}

impl Table {
    pub fn start(port: u16) -> Table {
        Table::start_in(port, tempfile::tempdir().unwrap())
    }

    /// A table on the data folder `data_dir`, as it is.
    pub fn start_in(port: u16, data_dir: tempfile::TempDir) -> Table {
        Table::start_with(port, data_dir, &[])
    }

    /// A table on the data folder `data_dir` whose computer has the environment `env` (a
    /// time zone: `TZ`).
    pub fn start_with(port: u16, data_dir: tempfile::TempDir, env: &[(&str, &str)]) -> Table {
        Table::spawn(&seance_binary(), port, data_dir, env)
    }

    /// A table served by `binary` (a benchmark's baseline build) on a fresh data folder.
    pub fn start_binary(binary: &std::path::Path) -> Table {
        Table::spawn(binary, 0, tempfile::tempdir().unwrap(), &[])
    }

    fn spawn(
        binary: &std::path::Path,
        port: u16,
        data_dir: tempfile::TempDir,
        env: &[(&str, &str)],
    ) -> Table {
        let mut process = Process::spawn(
            Command::new(binary)
                .args(["--headless", "--port", &port.to_string(), "--data-dir"])
                .arg(data_dir.path())
                .envs(env.iter().copied())
                .stdout(Stdio::piped())
                .stderr(Stdio::null()),
        )
        .unwrap();
        let (tx, rx) = mpsc::channel();
        let stdout = process.0.stdout.take().unwrap();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                let _ = tx.send(line);
            }
        });
        let url_after = |label: &str| loop {
            let line = rx
                .recv_timeout(Duration::from_secs(20))
                .expect("seance printed its links");
            if let Some(rest) = line.strip_prefix(label) {
                return rest.trim().to_owned();
            }
        };
        let local_url = url_after("Table screen on this machine:");
        let join_url = url_after("Phones on the local network:");
        let code = join_url.rsplit_once("/?code=").expect("a join link").1;
        let phone_url = format!("{}/?code={code}", local_url.split("/?").next().unwrap());
        Table {
            local_url,
            join_url,
            phone_url,
            data_dir,
            _process: process,
        }
    }

    /// Kills the server as a crash would (kill -9, nothing finished), and gives back its
    /// data folder as the crash left it.
    pub fn crash(self) -> tempfile::TempDir {
        drop(self._process);
        self.data_dir
    }

    /// The server's process id.
    pub fn pid(&self) -> u32 {
        self._process.0.id()
    }

    /// The origin without the code, as a device that lost it would open it.
    pub fn origin(&self) -> &str {
        self.local_url.split("/?").next().unwrap()
    }

    /// The join code.
    pub fn code(&self) -> &str {
        self.phone_url.rsplit('=').next().unwrap()
    }
}

/// A WebDriver session. A driver that has just started (WebKitWebDriver on a fresh
/// machine, once) may drop the first request: two more tries, a second apart.
pub async fn connect(webdriver_port: u16, capabilities: serde_json::Value) -> Client {
    let serde_json::Value::Object(caps) = capabilities else {
        panic!("capabilities are an object");
    };
    let caps: Capabilities = caps;
    let mut tries = 0;
    loop {
        let session = ClientBuilder::new(HttpConnector::new())
            .capabilities(caps.clone())
            .connect(&format!("http://127.0.0.1:{webdriver_port}"))
            .await;
        match session {
            Ok(client) => return client,
            Err(e) if tries < 2 => {
                eprintln!("no WebDriver session yet ({e}); trying again");
                tries += 1;
                tokio::time::sleep(Duration::from_secs(1)).await;
            }
            Err(e) => panic!("a WebDriver session: {e}"),
        }
    }
}

/// The engines of the browsers people bring to a table: Chromium (Chrome, Edge, most of
/// Android's), WebKit (every browser on an iPhone or an iPad: Debian's WebKitGTK
/// MiniBrowser here) and Firefox (Debian's Firefox ESR).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Engine {
    Chromium,
    WebKit,
    Firefox,
}

impl Engine {
    /// Its name in test names and screenshots.
    pub fn name(self) -> &'static str {
        match self {
            Engine::Chromium => "chromium",
            Engine::WebKit => "webkit",
            Engine::Firefox => "firefox",
        }
    }
}

/// WebKitGTK's MiniBrowser, where Debian puts it for this machine's architecture.
fn minibrowser() -> PathBuf {
    std::fs::read_dir("/usr/lib")
        .unwrap()
        .filter_map(|e| e.ok())
        .map(|e| e.path().join("webkit2gtk-4.1/MiniBrowser"))
        .find(|p| p.exists())
        .expect("WebKitGTK's MiniBrowser: run scripts/setup --test")
}

/// One engine's browsers for a suite, ended with the last clone: ChromeDriver, which holds
/// every session; WebKitWebDriver and geckodriver hold one each, so each WebKit or Firefox
/// starts its own (WebKit's on an X screen of its own).
#[derive(Clone)]
pub struct Browsers {
    engine: Engine,
    /// ChromeDriver's port.
    chromedriver: Option<u16>,
    /// The GTK settings that let a MiniBrowser window be as narrow as a phone.
    gtk_settings: Option<std::sync::Arc<tempfile::TempDir>>,
    started: std::sync::Arc<std::sync::Mutex<Vec<Process>>>,
    /// Each Firefox's own profile.
    profiles: std::sync::Arc<std::sync::Mutex<Vec<tempfile::TempDir>>>,
}

/// Firefox's window chrome, hidden so that its window may be as narrow as a phone (its
/// toolbars hold it 500 px wide at least).
const FIREFOX_CHROME: &str = ":root, #navigator-toolbox, #nav-bar, #TabsToolbar, #urlbar-container, \
    #browser, #tabbrowser-tabbox { min-width: 0 !important; } \
    #navigator-toolbox { visibility: collapse !important; }";

impl Browsers {
    /// Chromium through the ChromeDriver already listening on `port`.
    pub fn chromium(port: u16) -> Browsers {
        Browsers {
            engine: Engine::Chromium,
            chromedriver: Some(port),
            gtk_settings: None,
            started: Default::default(),
            profiles: Default::default(),
        }
    }

    /// `engine`'s browsers: ChromeDriver, or WebKit's X screen, started.
    pub fn start(engine: Engine) -> Browsers {
        let mut started = Vec::new();
        let (mut chromedriver_port, mut gtk_settings) = (None, None);
        match engine {
            Engine::Chromium => {
                let (port, driver) = chromedriver();
                started.push(driver);
                chromedriver_port = Some(port);
            }
            Engine::WebKit => {
                // MiniBrowser's toolbar would hold its window 447 px wide at least.
                let gtk = tempfile::tempdir().unwrap();
                std::fs::create_dir(gtk.path().join("gtk-3.0")).unwrap();
                std::fs::write(
                    gtk.path().join("gtk-3.0/gtk.css"),
                    "toolbar, toolbar *, entry, button { min-width: 0; min-height: 0; padding: 0; \
                     margin: 0; border-width: 0; font-size: 1px; }",
                )
                .unwrap();
                gtk_settings = Some(std::sync::Arc::new(gtk));
            }
            Engine::Firefox => {}
        }
        Browsers {
            engine,
            chromedriver: chromedriver_port,
            gtk_settings,
            started: std::sync::Arc::new(std::sync::Mutex::new(started)),
            profiles: Default::default(),
        }
    }

    pub fn engine(&self) -> Engine {
        self.engine
    }

    /// A screenshot's name, after its engine's unless Chromium's.
    pub fn shot(&self, name: &str) -> String {
        match self.engine {
            Engine::Chromium => name.to_owned(),
            engine => format!("{}-{name}", engine.name()),
        }
    }

    /// A driver of its own for one session: `command` on a free port, kept with the suite.
    fn driver(&self, mut command: Command) -> u16 {
        let port = free_port();
        command.arg(format!("--port={port}")).stdout(Stdio::null());
        let driver = serve(command, port);
        self.started.lock().unwrap().push(driver);
        port
    }

    /// A new browser whose page is `width`×`height` (its window made larger by its frame).
    pub async fn open(&self, width: u32, height: u32) -> Client {
        self.open_speaking(width, height, "en-US").await
    }

    /// A new browser whose page is `width`×`height`, set to the language `lang` (`fr-FR`):
    /// what its pages read in `navigator.languages`.
    pub async fn open_speaking(&self, width: u32, height: u32, lang: &str) -> Client {
        self.open_reaching(width, height, lang, None).await
    }

    /// A new browser as [`Browsers::open_speaking`] makes one; with `proxy` (a
    /// [`lan::Proxy`]'s port), one that finds the table at [`lan::NAME`]: Chromium maps the
    /// name itself, WebKit and Firefox ask the proxy, and WebKit plays no sound before a
    /// tap, as on an iPhone.
    async fn open_reaching(
        &self,
        width: u32,
        height: u32,
        lang: &str,
        proxy: Option<&lan::Proxy>,
    ) -> Client {
        let (port, capabilities) = match self.engine {
            Engine::Chromium => {
                // Through a proxy that holds requests back, else straight to the name's address.
                let rule = proxy.map(|proxy| match proxy.holds {
                    Some(_) => format!("--proxy-server=http://127.0.0.1:{}", proxy.port),
                    None => {
                        let to = std::net::SocketAddr::from((proxy.to, 0)).to_string();
                        let to = to.strip_suffix(":0").unwrap();
                        format!("--host-resolver-rules=MAP {} {to}", lan::NAME)
                    }
                });
                let more: Vec<&str> = rule.iter().map(String::as_str).collect();
                let mut capabilities = chromium_capabilities(width, height, &more);
                capabilities["goog:chromeOptions"]["prefs"] =
                    serde_json::json!({ "intl.accept_languages": lang });
                (self.chromedriver.unwrap(), capabilities)
            }
            Engine::WebKit => {
                // Each on an X screen of its own: WebKit counts a window that another
                // covers as hidden, and holds back its timers and its wake lock.
                let (display, xvfb) = xvfb(width + 64, height + 64);
                self.started.lock().unwrap().push(xvfb);
                let gtk = self.gtk_settings.as_ref().unwrap();
                let mut command = Command::new("WebKitWebDriver");
                command
                    .env("DISPLAY", display)
                    .env("XDG_CONFIG_HOME", gtk.path())
                    .env("LOCPATH", locales())
                    .env("LC_ALL", format!("{}.UTF-8", lang.replace('-', "_")));
                let mut args = vec!["--automation".to_owned()];
                if let Some(proxy) = proxy {
                    args.push(format!("--proxy=http://127.0.0.1:{}", proxy.port));
                    args.push("--autoplay-policy=allow-without-sound".to_owned());
                }
                let capabilities = serde_json::json!({
                    "browserName": "MiniBrowser",
                    "webkitgtk:browserOptions": { "binary": minibrowser(), "args": args },
                });
                (self.driver(command), capabilities)
            }
            Engine::Firefox => {
                let profile = tempfile::tempdir().unwrap();
                std::fs::create_dir(profile.path().join("chrome")).unwrap();
                std::fs::write(profile.path().join("chrome/userChrome.css"), FIREFOX_CHROME)
                    .unwrap();
                let proxied = match proxy {
                    Some(proxy) => vec![
                        "network.proxy.type\", 1".to_owned(),
                        "network.proxy.http\", \"127.0.0.1\"".to_owned(),
                        format!("network.proxy.http_port\", {}", proxy.port),
                        "network.proxy.no_proxies_on\", \"\"".to_owned(),
                    ],
                    None => vec!["network.proxy.type\", 0".to_owned()],
                };
                let prefs = [
                    "toolkit.legacyUserProfileCustomizations.stylesheets\", true".to_owned(),
                    "app.update.enabled\", false".to_owned(),
                    format!("intl.accept_languages\", \"{lang}\""),
                ]
                .into_iter()
                .chain(proxied);
                std::fs::write(
                    profile.path().join("user.js"),
                    prefs
                        .map(|pref| format!("user_pref(\"{pref});\n"))
                        .collect::<String>(),
                )
                .unwrap();
                let capabilities = serde_json::json!({
                    "browserName": "firefox",
                    "moz:firefoxOptions": {
                        "binary": "/usr/bin/firefox-esr",
                        "args": ["-headless", "-profile", profile.path()],
                    },
                });
                self.profiles.lock().unwrap().push(profile);
                (self.driver(Command::new("geckodriver")), capabilities)
            }
        };
        let mut capabilities = capabilities;
        if proxy.is_some_and(|proxy| proxy.holds.is_some()) {
            // A page is there for a person before what is held back arrives: a load waits
            // for the document, not for every file it asks for.
            capabilities["pageLoadStrategy"] = serde_json::json!("eager");
        }
        let client = connect(port, capabilities).await;
        fit_page(&client, width, height).await;
        client
    }
}

/// The locales a WebKit browser may be set to (`en_US`, `fr_FR`, `it_IT`, in UTF-8), made
/// once into `target/` with `localedef` (WebKitGTK takes its languages from the locale, and
/// a new machine has none but C).
fn locales() -> PathBuf {
    static MADE: std::sync::OnceLock<PathBuf> = std::sync::OnceLock::new();
    MADE.get_or_init(|| {
        let dir = PathBuf::from(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../target/e2e-locales"
        ));
        std::fs::create_dir_all(&dir).unwrap();
        for locale in ["en_US", "fr_FR", "it_IT"] {
            let made = dir.join(format!("{locale}.UTF-8"));
            if made.join("LC_CTYPE").exists() {
                continue;
            }
            let status = Command::new("localedef")
                .args(["-i", locale, "-f", "UTF-8"])
                .arg(&made)
                .status()
                .expect("localedef (Debian's libc-bin)");
            assert!(
                status.success(),
                "localedef {locale}: run scripts/setup --test"
            );
        }
        dir
    })
    .clone()
}

/// ChromeDriver's capabilities for a headless Chromium with the flags this machine's closed
/// network needs, and `more`.
fn chromium_capabilities(width: u32, height: u32, more: &[&str]) -> serde_json::Value {
    let mut args = [
        "--headless=new",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
    ]
    .map(str::to_owned)
    .to_vec();
    args.push(format!("--window-size={width},{height}"));
    args.extend(more.iter().map(|arg| arg.to_string()));
    serde_json::json!({
        "browserName": "chrome",
        "goog:chromeOptions": { "binary": "/usr/bin/chromium", "args": args },
    })
}

/// A new session in headless Chromium whose page is `width`×`height`.
pub async fn chromium(port: u16, width: u32, height: u32) -> Client {
    Browsers::chromium(port).open(width, height).await
}

/// A phone (390×844) in headless Chromium that finds the table at `name` (an mDNS name, as
/// on a real network), not at a loopback address: an http page there is not a secure origin.
pub async fn chromium_at_name(port: u16, name: &str) -> Client {
    let rule = format!("--host-resolver-rules=MAP {name} 127.0.0.1");
    let client = connect(port, chromium_capabilities(390, 844, &[&rule])).await;
    fit_page(&client, 390, 844).await;
    client
}

/// Makes `client`'s page `width`×`height`: its window that plus its frame. A window not yet
/// shown (WebKitGTK's, at times) takes its size late: asked again until it has it.
async fn fit_page(client: &Client, width: u32, height: u32) {
    let wanted = serde_json::json!([width, height]);
    let mut page = serde_json::Value::Null;
    for _ in 0..20 {
        let sizes = client
            .script("return [window.innerWidth, window.innerHeight, window.outerWidth - window.innerWidth, window.outerHeight - window.innerHeight]").await;
        let size = |i: usize| sizes[i].as_u64().unwrap() as u32;
        page = serde_json::json!([size(0), size(1)]);
        if page == wanted {
            return;
        }
        client
            .set_window_size(width + size(2), height + size(3))
            .await
            .unwrap();
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert_eq!(page, wanted, "the page's size");
}

/// What does not fit the window on the page shown (see `fits.js`); `scroll`: whether the
/// page may scroll down (a phone's), else everything must be in view at once.
pub async fn misfits(client: &Client, scroll: bool) -> Vec<String> {
    // Judged in the shipped fonts, not a fallback the page has yet to swap out.
    let deadline = Instant::now() + Duration::from_secs(5);
    while client.script("return document.fonts.status").await != "loaded"
        && Instant::now() < deadline
    {
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let problems = client
        .execute(
            include_str!("fits.js"),
            vec![serde_json::json!({ "noScroll": !scroll })],
        )
        .await
        .unwrap();
    serde_json::from_value(problems).unwrap()
}

/// The words and numbers in view under `within` (a CSS selector) set smaller than `least`
/// CSS px, but those within `except` (see `type_size.js`), one line per kind of element
/// and size.
pub async fn small_type(client: &Client, within: &str, except: &str, least: f64) -> Vec<String> {
    let found = client
        .execute(
            include_str!("type_size.js"),
            vec![serde_json::json!({ "least": least, "within": within, "except": except })],
        )
        .await
        .unwrap();
    serde_json::from_value(found).unwrap()
}

/// Waits (up to 20 s) for the element matching `css`.
/// Any error is tried again until then: WebKitWebDriver may answer a search made while
/// the page re-renders with "stale element".
pub async fn wait_for(client: &Client, css: &str) -> fantoccini::elements::Element {
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        match client.find(Locator::Css(css)).await {
            Ok(element) => return element,
            Err(e) if Instant::now() >= deadline => panic!("no element {css} within 20 s: {e}"),
            Err(_) => tokio::time::sleep(Duration::from_millis(50)).await,
        }
    }
}

/// The text of `css` once it is there; read again if a render replaced the element meanwhile.
pub async fn text(client: &Client, css: &str) -> String {
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        match wait_for(client, css).await.text().await {
            Ok(text) => return text,
            Err(e) => assert!(Instant::now() < deadline, "cannot read {css}: {e}"),
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// What the knock on the table's screen (`#knock-seen`, waited for) lies over, besides the
/// line under the bar it is shown on: each word drawn, tile's name, track marker or group
/// under it, named by its text. Empty where it covers nothing of the game.
pub async fn under_the_knock(client: &Client) -> Vec<String> {
    wait_for(client, "#knock-seen").await;
    let under = client
        .script("const k = document.getElementById('knock-seen').getBoundingClientRect();
             const meets = (r) => r.width > 0 && r.height > 0
               && r.left < k.right && k.left < r.right && r.top < k.bottom && k.top < r.bottom;
             return [...document.querySelectorAll('#app *')].filter((el) =>
               !el.closest('#knock-seen, .news > .last-change') && !el.contains(document.getElementById('knock-seen'))
               && getComputedStyle(el).visibility !== 'hidden'
               && (el.matches('h3, .marker, .group-card, button')
                 || [...el.childNodes].some((n) => n.nodeType === Node.TEXT_NODE && n.textContent.trim()))
               && meets(el.getBoundingClientRect()))
               .map((el) => el.textContent.trim());").await;
    serde_json::from_value(under).unwrap()
}

/// Attribute `name` of `css` once it is there; read again if a render replaced the element.
pub async fn attr(client: &Client, css: &str, name: &str) -> Option<String> {
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        match wait_for(client, css).await.attr(name).await {
            Ok(value) => return value,
            Err(e) => assert!(Instant::now() < deadline, "cannot read {css}'s {name}: {e}"),
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// Waits (up to 20 s) until `css`'s text contains `needle`.
pub async fn wait_for_text(client: &Client, css: &str, needle: &str) -> String {
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        let text = wait_for(client, css).await.text().await.unwrap_or_default();
        if text.contains(needle) {
            return text;
        }
        assert!(
            Instant::now() < deadline,
            "{css} says {text:?}, never {needle:?}"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// What the UI says for `key` in `lang` (`ui/i18n/{lang}.json`), `vars` filled in as its
/// `t(key, vars)` fills them: the literal pieces between the placeholders left unfilled
/// (`{level}`), in order, each as the page has it.
pub fn said(lang: &str, key: &str, vars: &[(&str, &str)]) -> Vec<String> {
    let path = format!("{}/../ui/i18n/{lang}.json", env!("CARGO_MANIFEST_DIR"));
    let words: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}")),
    )
    .unwrap_or_else(|e| panic!("{path}: {e}"));
    let phrase = words[key]
        .as_str()
        .unwrap_or_else(|| panic!("{path} has no {key:?}"));
    let mut pieces = vec![String::new()];
    let mut rest = phrase;
    while let Some(open) = rest.find('{') {
        pieces.last_mut().unwrap().push_str(&rest[..open]);
        let after = &rest[open + 1..];
        let name = after.find('}').map(|close| &after[..close]).filter(|name| {
            !name.is_empty() && name.chars().all(|c| c.is_alphanumeric() || c == '_')
        });
        match name {
            Some(name) => {
                match vars.iter().find(|(var, _)| *var == name) {
                    Some((_, value)) => pieces.last_mut().unwrap().push_str(value),
                    None => pieces.push(String::new()),
                }
                rest = &after[name.len() + 1..];
            }
            None => {
                pieces.last_mut().unwrap().push('{');
                rest = after;
            }
        }
    }
    pieces.last_mut().unwrap().push_str(rest);
    pieces.retain(|piece| !piece.is_empty());
    pieces
}

/// `text` with its spaces as WebDriver may read them: no-break spaces (French puts them
/// before its colons) as plain ones, and each run of white space as one.
fn spaced(text: &str) -> String {
    text.replace(['\u{a0}', '\u{202f}'], " ")
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

/// Whether `text` holds every one of `pieces` ([`said`]), in order.
pub fn says(text: &str, pieces: &[String]) -> bool {
    let mut rest = spaced(text);
    for piece in pieces {
        let piece = spaced(piece);
        match rest.find(&piece) {
            Some(at) => rest = rest[at + piece.len()..].to_owned(),
            None => return false,
        }
    }
    true
}

/// Waits (up to 20 s) until `css`'s text says `key` in `lang` with `vars` ([`said`], [`says`]).
pub async fn wait_for_said(
    client: &Client,
    css: &str,
    lang: &str,
    key: &str,
    vars: &[(&str, &str)],
) -> String {
    let pieces = said(lang, key, vars);
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        let text = wait_for(client, css).await.text().await.unwrap_or_default();
        if says(&text, &pieces) {
            return text;
        }
        assert!(
            Instant::now() < deadline,
            "{css} says {text:?}, never {key} in {lang}: {pieces:?}"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// Waits (up to 20 s) until every image on the page is loaded, decoded and painted.
pub async fn wait_for_images(client: &Client) {
    let deadline = Instant::now() + Duration::from_secs(20);
    let loaded = "return [...document.images].every(i => i.complete && i.naturalWidth > 0)";
    while client.script(loaded).await != serde_json::Value::Bool(true) {
        assert!(Instant::now() < deadline, "images still loading after 20 s");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    // Decoding (SVG in WebKit especially) and painting come after loading.
    let painted = "const done = arguments[arguments.length - 1];
        Promise.all([...document.images].map(i => i.decode()))
            .then(() => requestAnimationFrame(() => requestAnimationFrame(() => done(true))));";
    client.execute_async(painted, vec![]).await.unwrap();
}

/// Takes a screenshot once the images are painted, saves it as `name`.png for people to
/// look at, and returns it.
pub async fn screenshot(client: &Client, name: &str) -> Vec<u8> {
    no_page_errors(client, &format!("the screenshot {name}")).await;
    wait_for_images(client).await;
    let png = client.screenshot().await.unwrap();
    std::fs::write(screenshot_dir().join(format!("{name}.png")), &png).unwrap();
    png
}

/// How tall what `css` draws is, in pixels: the rows between its first and last light
/// pixel on a screenshot of it (digits' ink as a person sees it, not their font's box).
pub async fn ink_height(client: &Client, css: &str) -> u32 {
    let png = wait_for(client, css).await.screenshot().await.unwrap();
    let shot = image::load_from_memory(&png).unwrap().to_luma8();
    let inked: Vec<u32> = (0..shot.height())
        .filter(|&y| (0..shot.width()).any(|x| shot.get_pixel(x, y)[0] > 120))
        .collect();
    match (inked.first(), inked.last()) {
        (Some(top), Some(bottom)) => bottom - top + 1,
        _ => 0,
    }
}

/// Takes a screenshot (see [`screenshot`]) and returns the text of the QR code on it.
pub async fn screenshot_qr(client: &Client, name: &str) -> String {
    qr_in(&screenshot(client, name).await, name)
}

/// The X screen `display` as a person sees it, once the page's images are painted, saved
/// as `name`.png: the Tauri window's screenshot, which WebKitWebDriver cannot take of a
/// page painted without composited layers (as the window paints it).
pub async fn capture(client: &Client, display: &str, name: &str) -> Vec<u8> {
    use x11rb::connection::Connection;
    use x11rb::protocol::xproto::{ConnectionExt, ImageFormat};

    wait_for_images(client).await;
    let (conn, screen) = x11rb::connect(Some(display)).expect("the X display");
    let root = &conn.setup().roots[screen];
    let (width, height) = (root.width_in_pixels, root.height_in_pixels);
    let image = conn
        .get_image(ImageFormat::Z_PIXMAP, root.root, 0, 0, width, height, !0)
        .unwrap()
        .reply()
        .unwrap();
    // Xvfb's 24-bit depth, in 32-bit pixels: blue, green, red and a pad byte.
    let rgb = image
        .data
        .chunks_exact(4)
        .flat_map(|p| [p[2], p[1], p[0]])
        .collect();
    let mut png = Vec::new();
    image::RgbImage::from_raw(width.into(), height.into(), rgb)
        .expect("a whole screen")
        .write_to(&mut std::io::Cursor::new(&mut png), image::ImageFormat::Png)
        .unwrap();
    std::fs::write(screenshot_dir().join(format!("{name}.png")), &png).unwrap();
    png
}

/// The text of the one QR code on `png` (the screenshot `name`).
pub fn qr_in(png: &[u8], name: &str) -> String {
    let image = image::load_from_memory(png).unwrap().to_luma8();
    let mut prepared = rqrr::PreparedImage::prepare(image);
    let grids = prepared.detect_grids();
    assert_eq!(
        grids.len(),
        1,
        "exactly one QR code on the screen ({name}.png)"
    );
    grids[0].decode().expect("a readable QR code").1
}

/// The text of a QR code on `png` as zbar reads it (the decoder of many phone apps), if it
/// reads one: a second, stronger decoder than [`qr_in`]'s, for codes seen as a camera
/// sees them.
pub fn zbar(png: &[u8]) -> Option<String> {
    let file = tempfile::Builder::new().suffix(".png").tempfile().unwrap();
    std::fs::write(file.path(), png).unwrap();
    let out = Command::new("zbarimg")
        .args(["--quiet", "--raw", "-Sdisable", "-Sqrcode.enable"])
        .arg(file.path())
        .output()
        .expect("zbarimg (Debian's zbar-tools, installed by scripts/setup --test)");
    let text = String::from_utf8(out.stdout).unwrap();
    (out.status.success() && !text.trim().is_empty()).then(|| text.trim_end().to_owned())
}

/// An X server for the window tests when none is given.
pub fn display() -> (String, Option<Process>) {
    if let Ok(display) = std::env::var("DISPLAY")
        && !display.is_empty()
    {
        return (display, None);
    }
    let (display, xvfb) = xvfb(1280, 800);
    (display, Some(xvfb))
}

/// A new X screen of `width`×`height` on Xvfb: its name, and the server.
/// Xvfb picks a free display number itself (`-displayfd`) and writes it once it listens:
/// numbers chosen here by looking for sockets ran out on stale sockets of killed servers.
fn xvfb(width: u32, height: u32) -> (String, Process) {
    use std::io::BufRead;
    let mut xvfb = Process::spawn(
        Command::new("Xvfb")
            .args(["-displayfd", "1", "-screen", "0"])
            .arg(format!("{width}x{height}x24"))
            .args(["-nolisten", "tcp"])
            .stdout(Stdio::piped())
            .stderr(Stdio::null()),
    )
    .expect("Xvfb: run scripts/setup --test");
    let mut number = String::new();
    std::io::BufReader::new(xvfb.0.stdout.take().unwrap())
        .read_line(&mut number)
        .unwrap();
    assert!(!number.trim().is_empty(), "Xvfb did not start");
    (format!(":{}", number.trim()), xvfb)
}

/// Closes the top-level window titled `title` as a window manager's close button does: by
/// sending it `WM_DELETE_WINDOW`.
pub fn close_window_like_a_person(display: &str, title: &str) {
    use x11rb::connection::Connection;
    use x11rb::protocol::xproto::{ClientMessageEvent, ConnectionExt, EventMask, MapState};

    let (conn, screen) = x11rb::connect(Some(display)).expect("the X display");
    let atom = |name: &[u8]| conn.intern_atom(false, name).unwrap().reply().unwrap().atom;
    let (name, utf8) = (atom(b"_NET_WM_NAME"), atom(b"UTF8_STRING"));
    let (protocols, delete) = (atom(b"WM_PROTOCOLS"), atom(b"WM_DELETE_WINDOW"));
    let root = conn.setup().roots[screen].root;
    let windows = conn.query_tree(root).unwrap().reply().unwrap().children;
    // The window a person sees: mapped and titled so (GTK keeps other top-level windows,
    // unmapped, for popups and such).
    let shown: Vec<_> = windows
        .into_iter()
        .filter(|&w| {
            let titled = conn
                .get_property(false, w, name, utf8, 0, 256)
                .ok()
                .and_then(|c| c.reply().ok())
                .is_some_and(|p| p.value == title.as_bytes());
            let mapped = conn
                .get_window_attributes(w)
                .ok()
                .and_then(|c| c.reply().ok())
                .is_some_and(|a| a.map_state == MapState::VIEWABLE);
            titled && mapped
        })
        .collect();
    assert!(
        !shown.is_empty(),
        "no window titled {title:?} shown on {display}"
    );
    for window in shown {
        let event = ClientMessageEvent::new(32, window, protocols, [delete, 0, 0, 0, 0]);
        conn.send_event(false, window, EventMask::NO_EVENT, event)
            .unwrap();
    }
    conn.flush().unwrap();
}

/// Writes a mono 16-bit WAV file of a `hz` sine lasting `seconds`: a music fixture.
pub fn wav(path: &std::path::Path, seconds: f32, hz: f32) {
    let rate = 8000u32;
    let samples: Vec<i16> = (0..(rate as f32 * seconds) as u32)
        .map(|i| ((i as f32 * hz * std::f32::consts::TAU / rate as f32).sin() * 8000.0) as i16)
        .collect();
    let data = (samples.len() * 2) as u32;
    let mut bytes = Vec::with_capacity(44 + data as usize);
    bytes.extend_from_slice(b"RIFF");
    bytes.extend_from_slice(&(36 + data).to_le_bytes());
    bytes.extend_from_slice(b"WAVEfmt ");
    for field in [
        16u32.to_le_bytes().to_vec(),
        1u16.to_le_bytes().to_vec(),
        1u16.to_le_bytes().to_vec(),
    ] {
        bytes.extend_from_slice(&field);
    }
    bytes.extend_from_slice(&rate.to_le_bytes());
    bytes.extend_from_slice(&(rate * 2).to_le_bytes());
    bytes.extend_from_slice(&2u16.to_le_bytes());
    bytes.extend_from_slice(&16u16.to_le_bytes());
    bytes.extend_from_slice(b"data");
    bytes.extend_from_slice(&data.to_le_bytes());
    for s in samples {
        bytes.extend_from_slice(&s.to_le_bytes());
    }
    std::fs::write(path, bytes).unwrap();
}

/// The serious and critical accessibility violations axe-core finds on the page now,
/// as `rule: element` lines (axe-core comes from `npm ci` in tests/).
pub async fn accessibility_violations(client: &Client) -> Vec<String> {
    let axe = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/node_modules/axe-core/axe.min.js"
    );
    let source = std::fs::read_to_string(axe)
        .unwrap_or_else(|e| panic!("{axe}: {e}; run scripts/setup --test"));
    client.script(&format!("{source}; return true")).await;
    let found = client
        .execute_async(
            "const done = arguments[arguments.length - 1];
             axe.run(document, { resultTypes: ['violations'] }).then((r) => done(
               r.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')
                 .flatMap((v) => v.nodes.map((n) => `${v.id}: ${n.target.join(' ')}`))));",
            vec![],
        )
        .await
        .unwrap();
    serde_json::from_value(found).unwrap()
}

/// Clicks `css`, trying again only while the driver says the click was not made (the
/// element replaced by a render, covered, or not laid out yet: the finger has not touched it). The element is scrolled to the middle first:
/// WebKitWebDriver's own scrolling moves the page but clicks where the element was. An
/// uncaught error on the page before the tap fails the test ([`no_page_errors`]).
pub async fn tap(client: &Client, css: &str) {
    if let Err(e) = try_tap(client, css).await {
        panic!("cannot click {css}: {e} ({e:?})");
    }
}

/// [`tap`], giving back the driver's answer when it is neither done nor "no click made".
async fn try_tap(client: &Client, css: &str) -> Result<(), fantoccini::error::CmdError> {
    no_page_errors(client, css).await;
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        let element = wait_for(client, css).await;
        let _ = client
            .execute(
                "arguments[0].scrollIntoView({ block: 'center' })",
                vec![serde_json::to_value(&element).unwrap()],
            )
            .await;
        match element.click().await {
            Ok(_) => {
                let session = client.session_id().await.unwrap().unwrap_or_default();
                *TAPS.lock().unwrap().entry(session).or_default() += 1;
                return Ok(());
            }
            // The driver says no click was made: the element was replaced, covered or not
            // yet laid out under the finger. Any other answer may come after a click.
            Err(e) if not_clicked(&e) && Instant::now() < deadline => {}
            Err(e) => return Err(e),
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// Whether the driver's `error` says it made no click: the element was replaced, covered,
/// or not laid out yet.
fn not_clicked(error: &fantoccini::error::CmdError) -> bool {
    use fantoccini::error::{CmdError, ErrorStatus};
    matches!(error, CmdError::Standard(e) if matches!(e.error,
        ErrorStatus::StaleElementReference
            | ErrorStatus::ElementClickIntercepted
            | ErrorStatus::ElementNotInteractable))
}

/// The uncaught errors the page has met (what its "Something went wrong" toast said), as
/// the app keeps them on the page's root.
pub async fn page_errors(client: &Client) -> Vec<String> {
    let said = client
        .script("return document.documentElement.dataset.errors ?? '[]'")
        .await;
    serde_json::from_str(said.as_str().unwrap_or("[]")).unwrap_or_default()
}

/// Fails, with a screenshot, if the page has met an uncaught error (before `doing`).
pub async fn no_page_errors(client: &Client, doing: &str) {
    let errors = page_errors(client).await;
    if !errors.is_empty() {
        let name = format!("page-error-{}", sanitized(doing));
        let _ = std::fs::write(
            screenshot_dir().join(format!("{name}.png")),
            client.screenshot().await.unwrap_or_default(),
        );
        panic!("the page met an uncaught error before {doing}: {errors:?} (see {name}.png)");
    }
}

/// `text` as a file name's part.
fn sanitized(text: &str) -> String {
    text.chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '-' })
        .collect()
}

/// Fails the test because a tap on `css` did nothing a person could see within `waited`,
/// with a screenshot of the screen as the tap left it.
async fn tap_did_nothing(client: &Client, css: &str, waited: Duration, seen: &str) -> ! {
    let name = format!("tap-did-nothing-{}", sanitized(css));
    let _ = std::fs::write(
        screenshot_dir().join(format!("{name}.png")),
        client.screenshot().await.unwrap_or_default(),
    );
    panic!("tapping {css} did nothing in {waited:?} ({seen}; see {name}.png)");
}

/// The version of the game on screen (`[data-version]` on the table's or a phone's screen).
pub async fn version(client: &Client) -> u64 {
    let script = "return document.querySelector('#game[data-version], #rummy[data-version], #phone[data-version]')?.dataset.version ?? null";
    let value = client.script(script).await;
    value.as_str().map_or(0, |v| v.parse().unwrap())
}

/// Taps `css` on the game screen and waits until the game has moved on because of it: a tap
/// that does not is a failure (never tapped again).
pub async fn act(client: &Client, css: &str) {
    let before = version(client).await;
    tap(client, css).await;
    let waited = Duration::from_secs(20);
    let started = Instant::now();
    while version(client).await <= before {
        if started.elapsed() > waited {
            let toast = client
                .script("return document.getElementById('toast').hidden ? '' : document.getElementById('toast').textContent").await;
            let seen = format!("version {before}; the screen says {toast}");
            tap_did_nothing(client, css, waited, &seen).await;
        }
        tokio::time::sleep(Duration::from_millis(30)).await;
    }
    no_page_errors(client, &format!("the tap on {css} was answered")).await;
}

/// Calls the table's API from inside the page, with the code the page holds.
pub async fn api(
    client: &Client,
    method: &str,
    path: &str,
    body: serde_json::Value,
) -> serde_json::Value {
    api_as(client, None, method, path, body).await
}

/// Calls the table's API from inside the page with `secret` (the table's key, say), or the
/// code the page holds; its answer's body (null where it has none), which must be a success.
pub async fn api_as(
    client: &Client,
    secret: Option<&str>,
    method: &str,
    path: &str,
    body: serde_json::Value,
) -> serde_json::Value {
    let script = "const [method, path, body, secret, done] = arguments;
        const key = secret ?? localStorage.getItem('seance.code');
        fetch('/api' + path, { method, headers: { Authorization: 'Bearer ' + key,
          'Content-Type': 'application/json' }, body: method === 'GET' ? undefined : JSON.stringify(body) })
          .then(async (r) => done({ status: r.status, body: await r.json().catch(() => null) }));";
    let answer = client
        .execute_async(
            script,
            vec![method.into(), path.into(), body, secret.into()],
        )
        .await
        .unwrap();
    assert!(
        answer["status"].as_u64().unwrap() < 300,
        "{method} {path}: {answer}"
    );
    answer["body"].clone()
}

/// Starts a Mysterium game of `setup` drawn with `seed`, through the table's API in
/// `client`'s page; gives back its id.
pub async fn new_game(client: &Client, setup: serde_json::Value, seed: u64) -> u64 {
    let body = serde_json::json!({"setup": setup, "seed": seed});
    api(client, "POST", "/mysterium", body).await["id"]
        .as_u64()
        .unwrap()
}

/// The psychics of [`classic_of_seven`], in seating order.
pub const SEVEN_PSYCHICS: usize = 6;

/// Starts a classic game of seven (Laura the ghost and six psychics, Séance keeping the
/// secrets) through the table's API in `client`'s page, its sand long enough for the
/// slowest engine's steps (600 s); gives back its id.
pub async fn classic_of_seven(client: &Client) -> u64 {
    let names = [
        "Stephanie",
        "Alex",
        "Carl",
        "Paul",
        "Jean-Baptiste",
        "Giuseppina",
    ];
    let colours = ["red", "blue", "green", "white", "yellow", "purple"];
    let players: Vec<serde_json::Value> = (0..SEVEN_PSYCHICS)
        .map(|i| serde_json::json!({"name": names[i], "colours": [colours[i]]}))
        .collect();
    let setup = serde_json::json!({"ghost": "Laura", "difficulty": "medium", "secrets": "app_kept", "players": players});
    let id = new_game(client, setup, 11).await;
    let timer = serde_json::json!({"action": "duration", "seconds": 600});
    api(client, "POST", &format!("/mysterium/{id}/timer"), timer).await;
    id
}

/// Sends `command` to game `id` at its current version, through the table's API in the
/// page; gives back the snapshot it answers with.
pub async fn command(client: &Client, id: u64, command: serde_json::Value) -> serde_json::Value {
    let version = api(
        client,
        "GET",
        &format!("/mysterium/{id}"),
        serde_json::Value::Null,
    )
    .await["version"]
        .clone();
    let path = format!("/mysterium/{id}/commands");
    let body = serde_json::json!({"version": version, "command": command});
    api(client, "POST", &path, body).await["snapshot"].clone()
}

/// Chooses this device's language, taken by the next page it loads.
pub async fn speak(client: &Client, lang: &str) {
    client
        .script(&format!("localStorage.setItem('seance.lang', '{lang}')"))
        .await;
}

/// Forgets this device's own choice of language: the next page it loads speaks its
/// browser's.
pub async fn speak_browsers(client: &Client) {
    client
        .script("localStorage.removeItem('seance.lang')")
        .await;
}

/// What French typography asks of the words on the page, its labels too, that it does
/// not have: "d'Alex", not "de Alex", and a space before a colon where a name is put
/// before its state (the ballots).
pub async fn french_typography(client: &Client) -> Vec<String> {
    let found = client
        .script(
            "const said = [...document.querySelectorAll('[aria-label]')].map((e) => e.getAttribute('aria-label'))
               .concat(document.body.innerText);
             return said.flatMap((s) => (s.match(/\\bde [AEIOUÉÈ][\\p{L}-]*/gu) ?? []).map((m) => `not elided: ${m}`))
               .concat([...document.querySelectorAll('.ballot')].map((b) => b.textContent)
                 .filter((b) => !b.includes(' : ')).map((b) => `no space before the colon: ${b}`));",
        )
        .await;
    serde_json::from_value(found).unwrap()
}

/// Whether `css` is on the page now.
pub async fn present(client: &Client, css: &str) -> bool {
    client.find(Locator::Css(css)).await.is_ok()
}

/// Taps `css` to go to the screen that shows `to`: a tap that does not get there is a
/// failure (never tapped again). Where the driver's answer is lost (WebKitWebDriver, once
/// in a long run, answers a click with an empty error), what the screen shows says whether
/// the tap was made: if `to` is not there, it was not, and it is made once more, said so.
pub async fn tap_to(client: &Client, css: &str, to: &str) {
    if let Err(e) = try_tap(client, css).await {
        tokio::time::sleep(Duration::from_millis(500)).await;
        if !present(client, to).await {
            eprintln!(
                "tapping {css}: the driver answered {e:?} and {to} is not shown: tapping again"
            );
            tap(client, css).await;
        }
    }
    let waited = Duration::from_secs(20);
    let deadline = Instant::now() + waited;
    while !present(client, to).await {
        if Instant::now() > deadline {
            tap_did_nothing(client, css, waited, &format!("no {to}")).await;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// From now on, keeps every line the page tells a person as it appears, however briefly:
/// the status line under the bar, a phone's "what now" and its news, toasts, alerts. Kept on
/// the page's root, where Firefox's WebDriver scripts read it too.
pub async fn keep_lines(client: &Client) {
    client
        .script("const root = document.documentElement;
             const read = () => {
               const kept = new Set(JSON.parse(root.dataset.lines ?? '[]'));
               const before = kept.size;
               for (const el of document.querySelectorAll('#phone-now, #toast, [role=status], [role=alert]')) {
                 const said = el.textContent.trim();
                 if (said) kept.add(said);
               }
               if (kept.size !== before) root.dataset.lines = JSON.stringify([...kept]);
             };
             new MutationObserver(read).observe(document.body, { subtree: true, childList: true, characterData: true });
             read();").await;
}

/// Panics if a line kept since [`keep_lines`] says any of `never` (the words an edition has
/// no use for), whatever their case; returns how many lines were read.
pub async fn lines_never_say(client: &Client, who: &str, never: &[&str]) -> usize {
    let kept = client
        .script("return JSON.parse(document.documentElement.dataset.lines ?? '[]')")
        .await;
    let lines: Vec<String> = serde_json::from_value(kept).unwrap();
    for line in &lines {
        let lower = line.to_lowercase();
        if let Some(word) = never.iter().find(|w| lower.contains(&w.to_lowercase())) {
            panic!("{who} read \"{line}\", which says \"{word}\"; all it read: {lines:#?}");
        }
    }
    lines.len()
}

/// The cues the page's sound player has played lately (`{name, arg, at}`), and its mood, as
/// the page says them on its root (read there: Firefox runs WebDriver's scripts apart from
/// the page's modules).
pub async fn sounds(client: &Client) -> (Vec<serde_json::Value>, serde_json::Value) {
    let heard = client
        .script(
            "const said = document.documentElement.dataset;
             return [JSON.parse(said.cues ?? '[]'), said.mood || null];",
        )
        .await;
    (
        heard[0].as_array().cloned().unwrap_or_default(),
        heard[1].clone(),
    )
}

/// Whether `cues` hold one named `name` (with `arg`, if given).
pub fn played(cues: &[serde_json::Value], name: &str, arg: Option<u64>) -> bool {
    cues.iter()
        .any(|c| c["name"] == name && arg.is_none_or(|a| c["arg"].as_u64() == Some(a)))
}

/// A page's own scripts, run as a test reads the page (a test stops where one fails).
pub trait Page {
    /// What `js` (a function body) returns on the page.
    fn script(&self, js: &str) -> impl std::future::Future<Output = serde_json::Value>;
}

impl Page for Client {
    async fn script(&self, js: &str) -> serde_json::Value {
        self.execute(js, vec![]).await.unwrap()
    }
}

/// Opens `url` on `client`, as a person types a link or scans a code.
pub async fn go(client: &Client, url: &str) {
    client.goto(url).await.unwrap();
}

/// `client` scans the table's join code: its home screen, as a guest at the table.
pub async fn scan(client: &Client, table: &Table) {
    go(client, &table.phone_url).await;
    wait_for(client, "#home").await;
}

/// A phone (390×844) at the table, on the seat picker at `seats` (`#/join/ID`,
/// `#/rummy/ID/join`), its browser in English.
pub async fn phone_on_seats(browsers: &Browsers, table: &Table, seats: &str) -> Client {
    phone_on_seats_speaking(browsers, table, seats, "en-US").await
}

/// A phone as [`phone_on_seats`] whose browser is set to `locale` (`fr-FR`), one Séance
/// speaks: the seat picker is shown in its language.
pub async fn phone_on_seats_speaking(
    browsers: &Browsers,
    table: &Table,
    seats: &str,
    locale: &str,
) -> Client {
    let phone = browsers.open_speaking(390, 844, locale).await;
    scan(&phone, table).await;
    go(&phone, &format!("{}/{seats}", table.origin())).await;
    let lang = &locale[..2];
    wait_for(&phone, &format!("html[lang='{lang}'] button[data-seat]")).await;
    phone
}

/// A phone (390×844) at `origin` (reaching it through `proxy` if any: the table's name on
/// the network) with the join code, holding `seat` of the Mysterium game `id`.
pub async fn seated(
    browsers: &Browsers,
    proxy: Option<&lan::Proxy>,
    table: &Table,
    origin: &str,
    id: u64,
    seat: &str,
) -> Client {
    let phone = match proxy {
        Some(proxy) => browsers.open_at_name(390, 844, proxy).await,
        None => browsers.open(390, 844).await,
    };
    go(&phone, &format!("{origin}/?code={}", table.code())).await;
    wait_for(&phone, "#home").await;
    go(&phone, &format!("{origin}/#/join/{id}")).await;
    tap(&phone, &format!("button[data-seat='{seat}']")).await;
    wait_for(&phone, &format!("#phone[data-role='{seat}'][data-version]")).await;
    phone
}

/// The cards a psychic's `phone` offers its intuition pawn (the one it stands on among them).
pub async fn pawn_cards(phone: &Client) -> Vec<String> {
    let cards = phone
        .script("return [...document.querySelectorAll('#phone-pawn button[data-card]')].map((b) => b.dataset.card)")
        .await;
    serde_json::from_value(cards).unwrap()
}

/// A new edition's setup with a box of two sets of eight in each category, dealt by sets
/// (the first game's way): its `players` are the caller's to add.
pub fn new_edition_setup() -> serde_json::Value {
    let sets = serde_json::json!([{"name": "green", "cards": [1, 2, 3, 4, 5, 6, 7, 8]},
                                  {"name": "red", "cards": [9, 10, 11, 12, 13, 14, 15, 16]}]);
    serde_json::json!({"edition": "new", "ghost": "Laura", "secrets": "app_kept",
        "card_box": {"characters": sets, "locations": sets, "objects": sets},
        "deal": {"kind": "sets"}})
}

/// A phone (390×844) at the table holding the ghost's seat of game `id`, by the link of
/// the table's invitation (asked through `tablet`'s page, as its Phones panel asks; the
/// panel itself is tried in the phones' test).
pub async fn ghost_phone(browsers: &Browsers, table: &Table, tablet: &Client, id: u64) -> Client {
    let invited = api(
        tablet,
        "POST",
        &format!("/mysterium/{id}/seats/ghost/invitation"),
        serde_json::Value::Null,
    )
    .await;
    let phone = browsers.open(390, 844).await;
    let link = invited["link"].as_str().unwrap();
    go(&phone, &link.replacen(&table.join_url, &table.phone_url, 1)).await;
    wait_for(&phone, "#phone[data-role='ghost'][data-version]").await;
    phone
}

/// A ChromeDriver command of Chromium's own (`/session/{id}/…`).
#[derive(Debug)]
struct ChromiumCommand {
    path: &'static str,
    body: serde_json::Value,
}

impl WebDriverCompatibleCommand for ChromiumCommand {
    fn endpoint(
        &self,
        base: &url::Url,
        session: Option<&str>,
    ) -> Result<url::Url, url::ParseError> {
        base.join(&format!(
            "session/{}/{}",
            session.unwrap_or_default(),
            self.path
        ))
    }

    fn method_and_body(&self, _: &url::Url) -> (http::Method, Option<String>) {
        (http::Method::POST, Some(self.body.to_string()))
    }
}

/// Sends ChromeDriver's own command at `path` (`chromium/network_conditions`, …).
pub async fn chromium_command(
    client: &Client,
    path: &'static str,
    body: serde_json::Value,
) -> serde_json::Value {
    client
        .issue_cmd(ChromiumCommand { path, body })
        .await
        .unwrap()
}

/// Asks Chromium's DevTools `cmd` (`Page.getAppManifest`, …) and returns its answer.
pub async fn cdp(client: &Client, cmd: &str, params: serde_json::Value) -> serde_json::Value {
    chromium_command(
        client,
        "goog/cdp/execute",
        serde_json::json!({"cmd": cmd, "params": params}),
    )
    .await
}

/// The ghost's secret cards in game `id` (each psychic's three, in order), as the ghost's
/// view gives them, asked through `client`'s page.
pub async fn ghost_cards(client: &Client, id: u64) -> serde_json::Value {
    let path = format!("/mysterium/{id}?role=ghost");
    api(client, "GET", &path, serde_json::Value::Null).await["view"]["assignments"].clone()
}

/// The table's next step through Phase 2 in the snapshot `now` (a game's `GET`): the first
/// allowed action that moves the count on (no knock, crow, group picked or count shown; a
/// level only where none is said yet), as a command with its first choices, and its type.
pub fn revelation_step(now: &serde_json::Value) -> (String, serde_json::Value) {
    let levels = &now["view"]["psychics"];
    let next = now["allowed"]
        .as_array()
        .unwrap()
        .iter()
        .find(|a| match a["type"].as_str().unwrap() {
            "knock" | "use_crow" | "pick_group" | "show_count" => false,
            "state_level" => levels[a["psychic"].as_u64().unwrap() as usize]["level"].is_null(),
            _ => true,
        })
        .unwrap_or_else(|| panic!("the revelation goes on: {now}"));
    (
        next["type"].as_str().unwrap().to_owned(),
        first_choice(next),
    )
}

/// The next action of Phase 2 in the snapshot `now` that plays it on to its end: the first
/// the rules allow, but no sand timer, knock or crow, and a level only where none is said.
pub fn next_in_revelation(now: &serde_json::Value) -> serde_json::Value {
    let levels = &now["view"]["psychics"];
    now["allowed"]
        .as_array()
        .unwrap()
        .iter()
        .find(|a| match a["type"].as_str().unwrap() {
            "sand_timer" | "knock" | "use_crow" => false,
            // A level may be stated again until its psychic votes: once is enough.
            "state_level" => levels[a["psychic"].as_u64().unwrap() as usize]["level"].is_null(),
            _ => true,
        })
        .unwrap_or_else(|| panic!("the revelation goes on: {now}"))
        .clone()
}

/// A token the snapshot offers to put where none lies yet, if any.
pub fn unplaced(snapshot: &serde_json::Value) -> Option<serde_json::Value> {
    let placed = snapshot["view"]["placements"].as_array().unwrap();
    snapshot["allowed"]
        .as_array()
        .unwrap()
        .iter()
        .find(|a| {
            a["type"] == "place_token"
                && !placed
                    .iter()
                    .any(|p| p["by"] == a["by"] && p["on"] == a["on"])
        })
        .cloned()
}

/// The new edition's next step in the revelation: the first thing the rules allow, knocks
/// and crows aside.
pub fn new_edition_step(snapshot: &serde_json::Value) -> serde_json::Value {
    snapshot["allowed"]
        .as_array()
        .unwrap()
        .iter()
        .find(|a| !matches!(a["type"].as_str().unwrap(), "knock" | "use_crow"))
        .expect("the revelation goes on")
        .clone()
}

/// The first of each allowed action's choices, as a command: a legal move, whatever it is.
pub fn first_choice(action: &serde_json::Value) -> serde_json::Value {
    let mut command = action.clone();
    let fields = command.as_object_mut().unwrap();
    for (many, one) in [
        ("psychics", "psychic"),
        ("cards", "card"),
        ("faces", "face"),
        ("levels", "level"),
        ("groups", "group"),
    ] {
        if let Some(choices) = fields.remove(many) {
            fields.insert(one.into(), choices[0].clone());
        }
    }
    if let Some(answers) = fields.remove("answers")
        && !answers[0].is_null()
    {
        fields.insert("right".into(), answers[0].clone());
    }
    command
}

/// A Wi-Fi between a phone and the table, on this machine: a proxy on `[::1]` at the
/// table's own port (the server listens on IPv4 only, and checks the port a page names),
/// passing every byte to the table on `127.0.0.1`, or, while it drops, holding every byte
/// both ways without closing anything, as a Wi-Fi that loses its signal does. It counts the
/// commands it carried to the table, and the answers that refused one as stale (409).
/// Stopped when dropped.
pub struct Wifi {
    /// The address a phone opens for the table: `http://[::1]:PORT`.
    pub origin: String,
    /// Where it listens, at the table's port: `::1`.
    pub address: std::net::IpAddr,
    dropping: std::sync::Arc<tokio::sync::watch::Sender<bool>>,
    commands: Counted,
    stale: Counted,
    accepting: tokio::task::JoinHandle<()>,
}

/// What a [`Wifi`] counts in the bytes it carries one way: the times `what` passed.
#[derive(Clone)]
struct Counted {
    what: &'static [u8],
    times: std::sync::Arc<std::sync::atomic::AtomicUsize>,
}

impl Counted {
    fn new(what: &'static [u8]) -> Counted {
        Counted {
            what,
            times: std::sync::Arc::default(),
        }
    }

    /// Counts `what` in `bytes` (read whole in one piece, as a head is).
    fn count(&self, bytes: &[u8]) {
        let found = bytes
            .windows(self.what.len())
            .filter(|w| *w == self.what)
            .count();
        self.times
            .fetch_add(found, std::sync::atomic::Ordering::Relaxed);
    }

    fn times(&self) -> usize {
        self.times.load(std::sync::atomic::Ordering::Relaxed)
    }
}

impl Wifi {
    /// A Wi-Fi to the table listening on `port`.
    pub async fn to(port: u16) -> Wifi {
        let listener = tokio::net::TcpListener::bind(("::1", port))
            .await
            .expect("a proxy on [::1] at the table's port");
        let dropping = std::sync::Arc::new(tokio::sync::watch::channel(false).0);
        let commands = Counted::new(b"/commands HTTP/1.1\r\n");
        let stale = Counted::new(b"HTTP/1.1 409 ");
        let (held, up, down) = (dropping.clone(), commands.clone(), stale.clone());
        let accepting = tokio::spawn(async move {
            while let Ok((phone, _)) = listener.accept().await {
                let Ok(table) = tokio::net::TcpStream::connect(("127.0.0.1", port)).await else {
                    continue;
                };
                let (phone_in, phone_out) = phone.into_split();
                let (table_in, table_out) = table.into_split();
                tokio::spawn(Wifi::carry(
                    phone_in,
                    table_out,
                    held.subscribe(),
                    up.clone(),
                ));
                tokio::spawn(Wifi::carry(
                    table_in,
                    phone_out,
                    held.subscribe(),
                    down.clone(),
                ));
            }
        });
        Wifi {
            origin: format!("http://[::1]:{port}"),
            address: std::net::Ipv6Addr::LOCALHOST.into(),
            dropping,
            commands,
            stale,
            accepting,
        }
    }

    /// Carries bytes one way, each read held while the Wi-Fi drops, counting what `counted`
    /// looks for.
    async fn carry(
        mut from: tokio::net::tcp::OwnedReadHalf,
        mut to: tokio::net::tcp::OwnedWriteHalf,
        mut dropping: tokio::sync::watch::Receiver<bool>,
        counted: Counted,
    ) {
        use tokio::io::{AsyncReadExt, AsyncWriteExt};
        let mut buffer = vec![0; 16 * 1024];
        loop {
            let read = match from.read(&mut buffer).await {
                Ok(0) | Err(_) => break,
                Ok(n) => n,
            };
            counted.count(&buffer[..read]);
            if dropping.wait_for(|dropping| !dropping).await.is_err()
                || to.write_all(&buffer[..read]).await.is_err()
            {
                break;
            }
        }
        // A close comes a little after the last bytes, as on a radio link: the table reads
        // a request given up after it was sent (held, then let through) as a request. A
        // close in a drop is held with the bytes.
        tokio::time::sleep(Duration::from_millis(500)).await;
        if dropping.wait_for(|dropping| !dropping).await.is_ok() {
            let _ = to.shutdown().await;
        }
    }

    /// Starts (`true`) or ends a drop.
    pub fn drop_bytes(&self, dropping: bool) {
        self.dropping.send_replace(dropping);
    }

    /// How many commands it has carried to the table (or holds for it).
    pub fn commands(&self) -> usize {
        self.commands.times()
    }

    /// How many of the table's answers it carried refused a request as stale (409).
    pub fn stale(&self) -> usize {
        self.stale.times()
    }
}

impl Drop for Wifi {
    fn drop(&mut self) {
        self.accepting.abort();
        self.dropping.send_replace(false);
    }
}
