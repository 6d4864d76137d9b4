//! The WebSocket each screen keeps open: which game it follows (`?mysterium=3`, `?rummy=3`),
//! as which role (a phone, the seat its token holds; checked before the upgrade), and the
//! count of screens told to every screen at most once a second however many come and go.
//! Each connected screen is a [`session`].

use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::Ordering;

use axum::Extension;
use axum::extract::ws::WebSocketUpgrade;
use axum::extract::{ConnectInfo, State};
use axum::response::Response;
use serde_json::json;
use tokio::time::Duration;

use crate::callers::{self, Caller};
use crate::games::Games;
use crate::places::Admitted;
use crate::refused::Refused;
use crate::request::{RoleQuery, Which};
use crate::rulesets::rule_set;
use crate::shared::Shared;
use seance_timeline::{RuleBook, RuleSet};

mod session;

pub async fn socket(
    ws: WebSocketUpgrade,
    State(shared): State<Arc<Shared>>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    caller: Caller,
    place: Option<Extension<Admitted>>,
    Which(which): Which,
    asked: RoleQuery,
) -> Result<Response, Refused> {
    let place = place.map(|Extension(place)| place);
    // A screen that follows no game hears what every screen does, whichever rule set.
    let (rule_set, watched) = match which {
        Some((rule_set, id)) => (rule_set, Some(id)),
        None => (RuleSet::ALL[0], None),
    };
    rule_set!(rule_set, G => {
        let games = shared.rule_sets.games::<G>().clone();
        follow(ws, shared, games, peer, caller, watched.map(|id| (id, asked)), place)
    })
}

/// Upgrades a socket that follows a game of `games` (its id, and the role asked for), or
/// none. A phone follows its own seat ([`callers::reader`]).
fn follow<G: RuleBook>(
    ws: WebSocketUpgrade,
    shared: Arc<Shared>,
    games: Arc<Games<G>>,
    peer: SocketAddr,
    caller: Caller,
    watched: Option<(i64, RoleQuery)>,
    place: Option<Admitted>,
) -> Result<Response, Refused> {
    let watch = match watched {
        Some((game, role)) => {
            // Only a game that exists is followed: each one followed is kept track of.
            games.seats(game)?;
            let (_, role) = callers::reader::<G>(&shared, game, &caller, peer, &role)?;
            Some((game, role))
        }
        None => None,
    };
    Ok(ws
        .read_buffer_size(MOST_HEARD)
        .max_message_size(MOST_HEARD)
        .max_frame_size(MOST_HEARD)
        .on_upgrade(move |socket| {
            session::session(socket, shared, games, watch, caller, peer, place)
        }))
}

/// The most a screen sends in one message: it says `ping` and answers pings, nothing more.
/// Its read buffer is that small too: the socket's reader fills its whole buffer with zeros
/// each time it is woken, and 128 KiB (the default) cost fifty tables a tenth of the
/// server's time.
pub const MOST_HEARD: usize = 1024;

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
        shared.broadcast(json!({ "type": "presence", "devices": devices }));
        tokio::time::sleep(PRESENCE_EVERY).await;
    }
}

/// The most often screens are told how many are connected.
pub const PRESENCE_EVERY: Duration = Duration::from_secs(1);
