//! One connected screen's session on its WebSocket: greeted, its game's views sent as they
//! change (its role's, a seat's only while its phone holds it), what every screen hears,
//! pings both ways and a beat the page hears, and the close when the server stops, the
//! client goes quiet or stops reading, or the table frees the seat it follows.

use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::Ordering;

use axum::extract::ws::{CloseFrame, Message, WebSocket};
use serde_json::json;
use tokio::time::{Duration, Instant};

use crate::games::Games;
use crate::phones::{self, Caller};
use crate::serve::Admitted;
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
    let mut events = shared.events.subscribe();
    let mut changes = watch.map(|(game, _)| games.subscribe(game));
    // The table's screen on a game in play keeps the host awake; followed at every change.
    let table_on = watch
        .filter(|_| matches!(caller, Caller::Table))
        .map(|(game, _)| game);
    let in_play = || table_on.is_some_and(|game| games.in_play(game));
    let mut showing = None;
    shared.awake.follow(&mut showing, in_play());
    let mut shutdown = shared.shutdown.clone();
    let devices = shared.devices.fetch_add(1, Ordering::Relaxed) + 1;
    let hello = json!({
        "type": "hello",
        "version": env!("CARGO_PKG_VERSION"),
        "settings": shared.settings.get(),
        "devices": devices,
    });
    if send(&mut socket, Message::Text(hello.to_string().into())).await {
        tracing::debug!("a screen connected ({devices} now)");
        shared.presence.notify_one();
        let first = watch.and_then(|(game, role)| {
            let who = phones::who::<G>(&shared, game, &caller, peer).ok()?;
            view_message(&shared, &games, game, role, &who)
        });
        let mut open = match first {
            Some(text) => send(&mut socket, Message::Text(text.into())).await,
            None => true,
        };
        let mut heard = Instant::now();
        // The first ping sent since the last pong: what the client has not yet read.
        let mut unanswered: Option<Instant> = None;
        let mut ping = tokio::time::interval_at(Instant::now() + PING_EVERY, PING_EVERY);
        // Late after a stall, the next beat comes a whole interval later, not in a burst.
        ping.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        while open {
            tokio::select! {
                _ = async { let _ = shutdown.wait_for(|stopped| *stopped).await; } => {
                    close(&mut socket, 1001, "the table is closing").await;
                    break;
                }
                _ = ping.tick() => {
                    if heard.elapsed() > SILENT_MOST {
                        close(&mut socket, 1001, "nothing heard from this screen").await;
                        break;
                    }
                    if unanswered.is_some_and(|at| at.elapsed() > SILENT_MOST) {
                        close(&mut socket, 1001, "this screen reads nothing it is sent").await;
                        break;
                    }
                    unanswered.get_or_insert_with(Instant::now);
                    open = send(&mut socket, Message::Ping(Default::default())).await
                        && send(&mut socket, Message::Text("beat".into())).await;
                }
                changed = async {
                    match changes.as_mut() {
                        Some(changes) => changes.recv().await,
                        None => std::future::pending().await,
                    }
                } => {
                    // Missed some (lagged) or not: the view sent is the latest either way.
                    if let Err(tokio::sync::broadcast::error::RecvError::Closed) = changed {
                        break;
                    }
                    let Some((watched, role)) = watch else { continue };
                    // A burst of changes is one view: the latest.
                    if let Some(changes) = changes.as_mut() {
                        while changes.try_recv().is_ok() {}
                    }
                    // The table may have freed this phone's seat meanwhile: then it hears no more.
                    let who = phones::who::<G>(&shared, watched, &caller, peer);
                    let (true, Ok(who)) = (phones::may_see::<G>(&shared, watched, role, &caller), who) else {
                        close(&mut socket, 4403, "this seat was freed by the table").await;
                        break;
                    };
                    shared.awake.follow(&mut showing, in_play());
                    if let Some(text) = view_message(&shared, &games, watched, role, &who) {
                        open = send(&mut socket, Message::Text(text.into())).await;
                    }
                }
                event = events.recv() => match event {
                    Ok(text) => open = send(&mut socket, Message::Text(text.into())).await,
                    Err(tokio::sync::broadcast::error::RecvError::Lagged(_)) => continue,
                    Err(tokio::sync::broadcast::error::RecvError::Closed) => break,
                },
                incoming = socket.recv() => {
                    heard = Instant::now();
                    match incoming {
                        Some(Ok(Message::Text(text))) if text.as_str() == "ping" => {
                            open = send(&mut socket, Message::Text("pong".into())).await;
                        }
                        Some(Ok(Message::Pong(_))) => unanswered = None,
                        Some(Ok(Message::Close(_)) | Err(_)) | None => break,
                        Some(Ok(_)) => {}
                    }
                }
            }
        }
    }
    shared.devices.fetch_sub(1, Ordering::Relaxed);
    shared.presence.notify_one();
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
