//! One connected screen's session on its WebSocket: greeted, its game's views sent as they
//! change (its role's, a seat's only while its phone holds it), what every screen hears,
//! pings both ways and a beat the page hears, and the close when the server stops, the
//! client goes quiet or stops reading, or the table frees the seat it follows.

use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::Ordering;

use axum::extract::ws::{CloseFrame, Message, WebSocket};
use serde_json::json;
use tokio::sync::broadcast;
use tokio::time::{Duration, Instant};

use crate::callers::{self, Caller};
use crate::games::Games;
use crate::places::Admitted;
use crate::shared::Seated;
use crate::shared::Shared;
use seance_timeline::{RuleBook, Who};

/// The message that carries a role's view of a game, serialized once.
fn view_message<G: RuleBook>(
    shared: &Shared,
    games: &Games<G>,
    game: i64,
    role: G::Role,
    who: &Who<G::Role>,
) -> Option<String> {
    #[derive(serde::Serialize)]
    #[serde(bound = "")]
    struct ViewMessage<G: RuleBook> {
        r#type: &'static str,
        snapshot: Seated<G>,
    }
    match shared.seated(games, game, role, who) {
        Ok(snapshot) => Some(
            serde_json::to_string(&ViewMessage::<G> {
                r#type: "view",
                snapshot,
            })
            .expect("a view serializes"),
        ),
        Err(e) => {
            tracing::warn!("game {game}: cannot build a view: {e:?}");
            None
        }
    }
}

/// How often a socket is pinged (a browser answers at once, even from a sleeping tab) and
/// told `beat`: the page hears that, where it cannot hear a ping, and counts its link lost
/// after two beats missed (a Wi-Fi that drops bytes closes nothing).
const PING_EVERY: Duration = Duration::from_secs(3);
/// A socket heard nothing from this long (two pings unanswered) is gone: it is closed, and
/// the screens' count says so within 10 s of a phone leaving without a word. A ping left
/// unanswered this long is a client that stopped reading (a browser answers each at once,
/// but only once it has read what came before it), however much it sends.
const SILENT_MOST: Duration = Duration::from_secs(8);
/// A message not taken by the client within this is a client that stopped reading.
const SEND_WITHIN: Duration = Duration::from_secs(10);

/// One connected screen: greets it, forwards every change, answers pings, pings it in
/// turn, and closes when the server stops, when the client stops answering or reading, or
/// when the table frees the seat it follows. `_place` is its connection's place among
/// those of its address, kept while it is open.
pub async fn session<G: RuleBook>(
    mut socket: WebSocket,
    shared: Arc<Shared>,
    games: Arc<Games<G>>,
    watch: Option<(i64, G::Role)>,
    caller: Caller,
    peer: SocketAddr,
    _place: Option<Admitted>,
) {
    // Heard from before the greeting, so that nothing said meanwhile is missed.
    let events = shared.events.subscribe();
    let changes = watch.map(|(game, _)| games.subscribe(game));
    let screen = Screen {
        shared: &shared,
        games: &games,
        watch,
        caller: &caller,
        peer,
    };
    let devices = shared.devices.fetch_add(1, Ordering::Relaxed) + 1;
    if screen.greet(&mut socket, devices).await {
        screen.forward(&mut socket, changes, events).await;
    }
    shared.devices.fetch_sub(1, Ordering::Relaxed);
    shared.presence.notify_one();
}

/// A connected screen: who it is, and the game and role it watches, if any.
struct Screen<'a, G: RuleBook> {
    shared: &'a Shared,
    games: &'a Games<G>,
    watch: Option<(i64, G::Role)>,
    caller: &'a Caller,
    peer: SocketAddr,
}

impl<G: RuleBook> Screen<'_, G> {
    /// Greets the screen (the server's version, the settings, how many screens are
    /// connected), then sends its game's view if it watches one: `false` if it takes
    /// neither.
    async fn greet(&self, socket: &mut WebSocket, devices: usize) -> bool {
        let hello = json!({
            "type": "hello",
            "version": env!("CARGO_PKG_VERSION"),
            "settings": self.shared.settings.get(),
            "devices": devices,
        });
        if !send(socket, Message::Text(hello.to_string().into())).await {
            return false;
        }
        tracing::debug!("a screen connected ({devices} now)");
        self.shared.presence.notify_one();
        match self.watch.and_then(|(game, role)| self.view(game, role)) {
            Some(text) => send(socket, Message::Text(text.into())).await,
            None => true,
        }
    }

    /// `role`'s view of game `game` as this screen may have it now; none when it may not
    /// (the table freed its seat) or it cannot be built.
    fn view(&self, game: i64, role: G::Role) -> Option<String> {
        let who = callers::who::<G>(self.shared, game, self.caller, self.peer).ok()?;
        view_message(self.shared, self.games, game, role, &who)
    }

    /// Who this screen is to game `game`'s rules, while it may still see `role`'s view; none
    /// once the table has freed the seat it follows.
    fn still_sees(&self, game: i64, role: G::Role) -> Option<Who<G::Role>> {
        let who = callers::who::<G>(self.shared, game, self.caller, self.peer).ok()?;
        callers::may_see::<G>(self.shared, game, role, self.caller).then_some(who)
    }

    /// Forwards every change and every word to all until one side stops.
    async fn forward(
        &self,
        socket: &mut WebSocket,
        mut changes: Option<broadcast::Receiver<()>>,
        mut events: broadcast::Receiver<String>,
    ) {
        // The table's screen on a game in play keeps the host awake; followed at every change.
        let table_on = (self.watch)
            .filter(|_| matches!(self.caller, Caller::Table))
            .map(|(game, _)| game);
        let in_play = || table_on.is_some_and(|game| self.games.in_play(game));
        let mut showing = None;
        self.shared.awake.follow(&mut showing, in_play());
        let mut shutdown = self.shared.shutdown.clone();
        let mut heard = Instant::now();
        // The first ping sent since the last pong: what the client has not yet read.
        let mut unanswered: Option<Instant> = None;
        let mut ping = pings();
        let mut open = true;
        while open {
            tokio::select! {
                _ = async { let _ = shutdown.wait_for(|stopped| *stopped).await; } => {
                    close(socket, 1001, "the table is closing").await;
                    break;
                }
                _ = ping.tick() => {
                    if let Some(why) = gone(heard, unanswered) {
                        close(socket, 1001, why).await;
                        break;
                    }
                    unanswered.get_or_insert_with(Instant::now);
                    open = send(socket, Message::Ping(Default::default())).await
                        && send(socket, Message::Text("beat".into())).await;
                }
                changed = async {
                    match changes.as_mut() {
                        Some(changes) => changes.recv().await,
                        None => std::future::pending().await,
                    }
                } => {
                    // Missed some (lagged) or not: the view sent is the latest either way.
                    if let Err(broadcast::error::RecvError::Closed) = changed {
                        break;
                    }
                    let Some((watched, role)) = self.watch else { continue };
                    // A burst of changes is one view: the latest.
                    if let Some(changes) = changes.as_mut() {
                        while changes.try_recv().is_ok() {}
                    }
                    // The table may have freed this phone's seat meanwhile: then it hears no more.
                    let Some(who) = self.still_sees(watched, role) else {
                        close(socket, 4403, "this seat was freed by the table").await;
                        break;
                    };
                    self.shared.awake.follow(&mut showing, in_play());
                    if let Some(text) = view_message(self.shared, self.games, watched, role, &who) {
                        open = send(socket, Message::Text(text.into())).await;
                    }
                }
                event = events.recv() => match event {
                    Ok(text) => open = send(socket, Message::Text(text.into())).await,
                    Err(broadcast::error::RecvError::Lagged(_)) => continue,
                    Err(broadcast::error::RecvError::Closed) => break,
                },
                incoming = socket.recv() => {
                    heard = Instant::now();
                    match incoming {
                        Some(Ok(Message::Text(text))) if text.as_str() == "ping" => {
                            open = send(socket, Message::Text("pong".into())).await;
                        }
                        Some(Ok(Message::Pong(_))) => unanswered = None,
                        Some(Ok(Message::Close(_)) | Err(_)) | None => break,
                        Some(Ok(_)) => {}
                    }
                }
            }
        }
    }
}

/// A tick every [`PING_EVERY`], the first one interval from now; late after a stall, the
/// next comes a whole interval later, not in a burst.
fn pings() -> tokio::time::Interval {
    let mut ping = tokio::time::interval_at(Instant::now() + PING_EVERY, PING_EVERY);
    ping.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    ping
}

/// Why a screen is let go at a ping's tick: nothing heard from it for too long, or a ping
/// left unread; none while it answers.
fn gone(heard: Instant, unanswered: Option<Instant>) -> Option<&'static str> {
    if heard.elapsed() > SILENT_MOST {
        Some("nothing heard from this screen")
    } else if unanswered.is_some_and(|at| at.elapsed() > SILENT_MOST) {
        Some("this screen reads nothing it is sent")
    } else {
        None
    }
}

/// Sends `message`, unless the client has stopped taking them: `false` then.
async fn send(socket: &mut WebSocket, message: Message) -> bool {
    matches!(
        tokio::time::timeout(SEND_WITHIN, socket.send(message)).await,
        Ok(Ok(()))
    )
}

async fn close(socket: &mut WebSocket, code: u16, reason: &'static str) {
    let frame = CloseFrame {
        code,
        reason: reason.into(),
    };
    send(socket, Message::Close(Some(frame))).await;
}
