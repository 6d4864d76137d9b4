//! The WebSocket each screen keeps open: the changes of the game it follows, as its role's
//! view (a seat's only to its phone), and what every screen hears (settings, knocks, how
//! many screens are connected). Each socket counts among its address's connections while it
//! is open, is pinged and closed when it stops answering, and is told the count of screens
//! at most once a second however many come and go.

use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::Ordering;

use axum::Extension;
use axum::extract::ws::{CloseFrame, Message, WebSocket, WebSocketUpgrade};
use axum::extract::{ConnectInfo, State};
use axum::response::{IntoResponse, Response};
use serde_json::json;
use tokio::time::{Duration, Instant};

use crate::Shared;
use crate::phones::{self, Caller};
use crate::request::{Params, RoleQuery, Which, role_named};
use crate::routes::{Seated, broadcast, snapshot_with_seats};
use crate::rulesets::Kept;
use crate::serve::Admitted;
use seance_rules::Game;
use seance_rummy::Scorepad;
use seance_timeline::Who;

pub async fn socket(
    ws: WebSocketUpgrade,
    State(shared): State<Arc<Shared>>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    caller: Caller,
    place: Option<Extension<Admitted>>,
    Params(which): Params<Which>,
    RoleQuery(role): RoleQuery,
) -> Response {
    let place = place.map(|Extension(place)| place);
    let role = role.as_deref();
    match which {
        Which {
            rummy: Some(id), ..
        } => follow::<Scorepad>(ws, shared, peer, caller, Some((id, role)), place),
        Which { game, .. } => {
            follow::<Game>(ws, shared, peer, caller, game.map(|id| (id, role)), place)
        }
    }
}

/// Upgrades a socket that follows a game of `G` (its id, and the role it is read as), or
/// none.
fn follow<G: Kept>(
    ws: WebSocketUpgrade,
    shared: Arc<Shared>,
    peer: SocketAddr,
    caller: Caller,
    watched: Option<(i64, Option<&str>)>,
    place: Option<Admitted>,
) -> Response {
    let watch = watched.map(|(id, role)| role_named::<G::Role>(role).map(|role| (id, role)));
    let watch = match watch.transpose() {
        Ok(watch) => watch,
        Err(refused) => return refused.into_response(),
    };
    // Only a game that exists is followed: each one followed is kept track of.
    if let Some((game, _)) = watch
        && let Err(e) = G::games(&shared).seats(game)
    {
        return e.into_response();
    }
    if let Some((game, role)) = watch
        && let Err(refused) = phones::check_view::<G>(&shared, game, role, &caller, peer)
    {
        return refused.into_response();
    }
    ws.on_upgrade(move |socket| session::<G>(socket, shared, watch, caller, peer, place))
}

/// The message that carries a role's view of a game, serialized once.
fn view_message<G: Kept>(
    shared: &Shared,
    game: i64,
    role: G::Role,
    who: &Who<G::Role>,
) -> Option<String> {
    #[derive(serde::Serialize)]
    #[serde(bound = "")]
    struct ViewMessage<G: Kept> {
        r#type: &'static str,
        snapshot: Seated<G>,
    }
    match snapshot_with_seats::<G>(shared, game, role, who) {
        Ok(snapshot) => Some(
            serde_json::to_string(&ViewMessage {
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

/// How often a quiet socket is pinged: a browser answers at once, even from a sleeping tab.
const PING_EVERY: Duration = Duration::from_secs(3);
/// A socket heard nothing from this long (two pings unanswered) is gone: it is closed, and
/// the screens' count says so within 10 s of a phone leaving without a word.
const SILENT_MOST: Duration = Duration::from_secs(8);
/// A message not taken by the client within this is a client that stopped reading.
const SEND_WITHIN: Duration = Duration::from_secs(10);

/// One connected screen: greets it, forwards every change, answers pings, pings it in
/// turn, and closes when the server stops, when the client stops answering or reading, or
/// when the table frees the seat it follows. `_place` is its connection's place among
/// those of its address, kept while it is open.
async fn session<G: Kept>(
    mut socket: WebSocket,
    shared: Arc<Shared>,
    watch: Option<(i64, G::Role)>,
    caller: Caller,
    peer: SocketAddr,
    _place: Option<Admitted>,
) {
    let mut events = shared.events.subscribe();
    let mut changes = watch.map(|(game, _)| G::games(&shared).subscribe(game));
    // The table's screen on a game in play keeps the host awake; followed at every change.
    let table_on = watch
        .filter(|_| matches!(caller, Caller::Table))
        .map(|(game, _)| game);
    let in_play = || table_on.is_some_and(|game| G::games(&shared).in_play(game));
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
            view_message::<G>(&shared, game, role, &who)
        });
        let mut open = match first {
            Some(text) => send(&mut socket, Message::Text(text.into())).await,
            None => true,
        };
        let mut heard = Instant::now();
        let mut ping = tokio::time::interval_at(Instant::now() + PING_EVERY, PING_EVERY);
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
                    open = send(&mut socket, Message::Ping(Default::default())).await;
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
                    if let Some(text) = view_message::<G>(&shared, watched, role, &who) {
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

/// Tells every screen how many screens are connected, at most once a
/// [`PRESENCE_EVERY`]: the latest count, once for a burst of comings and goings.
pub async fn tell_presence(shared: Arc<Shared>) {
    let mut shutdown = shared.shutdown.clone();
    loop {
        tokio::select! {
            _ = shared.presence.notified() => {}
            _ = shutdown.wait_for(|stopped| *stopped) => return,
        }
        let devices = shared.devices.load(Ordering::Relaxed);
        broadcast(&shared, json!({ "type": "presence", "devices": devices }));
        tokio::time::sleep(PRESENCE_EVERY).await;
    }
}

/// The most often screens are told how many are connected.
pub const PRESENCE_EVERY: Duration = Duration::from_secs(1);
