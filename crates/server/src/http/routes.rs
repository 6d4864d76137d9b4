//! The HTTP API (documented in `docs/API.md`), by concern: the table's own (`table`), each
//! rule set's games (`games`), their plays for BG Stats (`plays`), the history
//! (`crate::http::history`), phones' seats and knocks (`crate::http::phones`), the journal in trouble
//! (`crate::http::trouble`) and the WebSocket that pushes changes (`crate::http::socket`); every
//! request past the guard (`crate::access`), a refusal worded as `crate::refused` says.

mod games;
mod plays;
mod table;

use std::sync::Arc;

use axum::extract::DefaultBodyLimit;
use axum::http::{StatusCode, Uri};
use axum::routing::{any, get, post};
use axum::{Router, middleware};
use seance_timeline::Refusal;

use crate::http::{socket, trouble};
use crate::refusals;
use crate::refused::Refused;
use crate::request::BODY_LIMIT;
use crate::shared::Shared;
use crate::{access, assets, bgstats};

pub fn router(shared: Arc<Shared>) -> Router {
    Router::new()
        .route("/api/info", get(table::info))
        .route("/api/qr.png", get(table::qr_png))
        .route("/api/manifest.webmanifest", get(table::manifest))
        .route(
            "/api/settings",
            get(table::get_settings).put(table::put_settings),
        )
        .route("/api/ws", get(socket::socket))
        .route("/api/instance/focus", post(table::focus))
        .route("/api/journal", get(trouble::get).post(trouble::choose))
        .route("/api/games", get(games::list))
        .route(&format!("{}{{id}}", bgstats::SHORT), get(plays::forward))
        .merge(crate::http::history::router())
        .merge(games::routers(&shared))
        .route("/api/{*rest}", any(unknown_api))
        .fallback(assets::serve)
        .layer(DefaultBodyLimit::max(BODY_LIMIT))
        .layer(middleware::from_fn_with_state(
            shared.clone(),
            access::guard,
        ))
        .with_state(shared)
}

async fn unknown_api(uri: Uri) -> Refused {
    Refused::new(
        StatusCode::NOT_FOUND,
        Refusal::new(refusals::NO_ENDPOINT).with("path", uri.path()),
    )
}
