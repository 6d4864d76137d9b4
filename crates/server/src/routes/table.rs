//! The table's own endpoints: its facts (`/api/info`: the links, the join code, what a setup
//! asks of the rules), the join link's QR code, the web app manifest, the settings, and a
//! later launch asking for the window.

use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::Ordering;

use axum::Json;
use axum::extract::{ConnectInfo, State};
use axum::http::{StatusCode, header};
use axum::response::IntoResponse;
use seance_rules::{Edition, LevelBands, TrackSide};
use serde_json::json;

use crate::access::{Device, TableOnly};
use crate::refusals;
use crate::refused::{Refused, refused};
use crate::request::{Body, Which};
use crate::rulesets::seats_page;
use crate::settings::Settings;
use crate::shared::Shared;
use crate::{assets, qr, trouble};

/// The table's facts, as this device may know them: only the table is told its own link.
pub async fn info(State(shared): State<Arc<Shared>>, device: Device) -> Json<serde_json::Value> {
    Json(json!({
        "device": device.name(),
        "join_url": shared.join_url,
        "join_code": shared.code.spaced(),
        "table_url": (device == Device::Table).then_some(&shared.table_url),
        "port": shared.port,
        "version": env!("CARGO_PKG_VERSION"),
        "devices": shared.devices.load(Ordering::Relaxed),
        "journal": trouble::told(&shared),
        "started": shared.started as u64,
        // What a setup screen asks of the rules before there is a game: colours per psychic
        // player by the number at the table, how long a name may be, and the expansions and
        // promo cards a collection may hold.
        "setup": {
            "expansions": seance_rules::Expansion::names(),
            "promos": seance_rules::PROMOS.collect::<Vec<_>>(),
            // How many play each edition, the ghost included; Mystery Rummy's players, and
            // the cards each is dealt by their number.
            "players": Edition::ALL.map(|e| (e.name().to_owned(), json!(e.players().collect::<Vec<_>>())))
                .into_iter().collect::<serde_json::Map<_, _>>(),
            // The classic game's numbers at the table that end with the straw poll, where
            // the rulebook's printing matters.
            "straw_poll": Edition::Classic.players().filter(|&n| Edition::Classic.straw_poll(n)).collect::<Vec<_>>(),
            "rummy": {
                "players": seance_rummy::PLAYERS.collect::<Vec<_>>(),
                "deal": seance_rummy::PLAYERS.map(|n| (n.to_string(), json!(seance_rummy::deal(n))))
                    .collect::<serde_json::Map<_, _>>(),
            },
            // The classic game's counts hold the new edition's.
            "colours_each": Edition::Classic.players().map(|n| (n.to_string(), json!(seance_rules::colours_each(n))))
                .collect::<serde_json::Map<_, _>>(),
            "name_chars": seance_timeline::NAME_CHARS,
            // The classic box's sand timer, and the lengths a house rule may give it.
            "sand_timer": {
                "box": seance_rules::BOX_SAND_TIMER,
                "least": seance_rules::SAND_TIMER_SECONDS.start(),
                "most": seance_rules::SAND_TIMER_SECONDS.end(),
            },
            // The ages the straw poll's tie-break takes.
            "ages": { "least": seance_rules::AGES.start(), "most": seance_rules::AGES.end() },
            // The classic track's side by the number at the table, and where each side's
            // bands may start as far as the rulebooks know: the ranges the table's own
            // track is read into.
            "track_sides": Edition::Classic.players().map(|n| (n.to_string(), json!(seance_rules::track_side(Edition::Classic, n))))
                .collect::<serde_json::Map<_, _>>(),
            "track_bands": ([TrackSide::FourFive, TrackSide::SixSeven].into_iter())
                .map(|side| (side.label().to_owned(), json!(LevelBands::rulebook(side))))
                .collect::<serde_json::Map<_, _>>(),
        },
    }))
}

/// The join link as a QR code; with `?games=ID` (or `?rummy=ID`), straight to that game's
/// seats.
pub async fn qr_png(State(shared): State<Arc<Shared>>, Which(which): Which) -> impl IntoResponse {
    let page = which.map_or_else(String::new, |(rule_set, id)| seats_page(rule_set, id));
    (
        [(header::CONTENT_TYPE, "image/png")],
        qr::png(&format!("{}{page}", shared.join_url)),
    )
}

/// The web app manifest, so a phone (or the table's tablet) can add Séance to its home
/// screen: asked with the device's own secret (`?code=`), it opens again with that secret,
/// as a home screen app may not share the browser's storage (iOS).
pub async fn manifest(State(shared): State<Arc<Shared>>, device: Device) -> impl IntoResponse {
    let start = match device {
        Device::Table => format!("/?key={}", shared.key),
        Device::Joined => format!("/?code={}", shared.code),
    };
    let icon = |size: u32| {
        json!({"src": assets::versioned(&format!("icons/{size}x{size}.png")),
               "sizes": format!("{size}x{size}"), "type": "image/png", "purpose": "any"})
    };
    let manifest = json!({
        "id": "/",
        "name": "Séance",
        "short_name": "Séance",
        "start_url": start,
        "scope": "/",
        "display": "standalone",
        "background_color": THEME,
        "theme_color": THEME,
        "icons": [icon(192), icon(512), {"src": assets::versioned("favicon.svg"), "sizes": "any", "type": "image/svg+xml"}],
    });
    (
        [
            (header::CONTENT_TYPE, "application/manifest+json"),
            // It carries a secret: kept by no cache.
            (header::CACHE_CONTROL, "no-store"),
        ],
        manifest.to_string(),
    )
}

/// The dark of the screens (`--night` in `ui/style.css`, `theme-color` in `ui/index.html`).
const THEME: &str = "#120b1c";

pub async fn get_settings(State(shared): State<Arc<Shared>>) -> Json<Settings> {
    Json(shared.settings.get())
}

pub async fn put_settings(
    _: TableOnly,
    State(shared): State<Arc<Shared>>,
    Body(settings): Body<Settings>,
) -> Result<Json<Settings>, Refused> {
    shared.settings.set(settings.clone())?;
    shared.broadcast(json!({ "type": "settings", "settings": settings }));
    Ok(Json(settings))
}

/// Asked by a second launch on this machine: bring the table window to the front.
pub async fn focus(
    State(shared): State<Arc<Shared>>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
) -> Result<StatusCode, Refused> {
    if !peer.ip().is_loopback() {
        return Err(refused(StatusCode::FORBIDDEN, refusals::FOCUS_FROM_HERE));
    }
    let _ = shared.focus.try_send(());
    Ok(StatusCode::NO_CONTENT)
}
