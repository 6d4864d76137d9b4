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
use serde_json::json;

use crate::access::{Device, TableOnly};
use crate::http::trouble;
use crate::refusals;
use crate::refused::{Refused, refused};
use crate::request::{Body, Which};
use crate::rulesets::seats_page;
use crate::settings::Settings;
use crate::shared::Shared;
use crate::{assets, qr};

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
        // What every rule set's setup shares: how long a name may be.
        "setup": { "name_chars": seance_timeline::NAME_CHARS },
        // The table's settings, as `GET /api/settings` tells them: a screen's start asks once.
        "settings": shared.settings.get(),
    }))
}

/// The join link as a QR code; with `?mysterium=ID` (or `?rummy=ID`), straight to that game's
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
