//! The HTTP API (documented in `docs/API.md`) and the WebSocket that pushes changes.

use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::Ordering;

use axum::extract::rejection::JsonRejection;
use axum::extract::ws::{CloseFrame, Message, WebSocket, WebSocketUpgrade};
use axum::extract::{ConnectInfo, State};
use axum::http::{StatusCode, Uri, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{any, get, post};
use axum::{Json, Router, middleware};
use serde_json::json;

use crate::access::{self, error};
use crate::settings::{SetError, Settings};
use crate::{Shared, assets, qr};

pub fn router(shared: Arc<Shared>) -> Router {
    Router::new()
        .route("/api/info", get(info))
        .route("/api/qr.svg", get(qr_svg))
        .route("/api/settings", get(get_settings).put(put_settings))
        .route("/api/ws", get(socket))
        .route("/api/instance/focus", post(focus))
        .route("/api/{*rest}", any(unknown_api))
        .fallback(assets::serve)
        .layer(middleware::from_fn_with_state(
            shared.clone(),
            access::guard,
        ))
        .with_state(shared)
}

async fn info(State(shared): State<Arc<Shared>>) -> Json<serde_json::Value> {
    Json(json!({
        "join_url": shared.join_url,
        "table_code": shared.code.spaced(),
        "port": shared.port,
        "version": env!("CARGO_PKG_VERSION"),
        "devices": shared.devices.load(Ordering::Relaxed),
    }))
}

async fn qr_svg(State(shared): State<Arc<Shared>>) -> Response {
    (
        [(header::CONTENT_TYPE, "image/svg+xml")],
        qr::svg(&shared.join_url),
    )
        .into_response()
}

async fn get_settings(State(shared): State<Arc<Shared>>) -> Json<Settings> {
    Json(shared.settings.get())
}

async fn put_settings(
    State(shared): State<Arc<Shared>>,
    payload: Result<Json<Settings>, JsonRejection>,
) -> Response {
    let Json(settings) = match payload {
        Ok(p) => p,
        Err(rejection) => {
            return error(
                StatusCode::BAD_REQUEST,
                format!(
                    "settings must be a JSON object such as {{\"language\": \"fr\"}}: {}",
                    rejection.body_text()
                ),
            );
        }
    };
    match shared.settings.set(settings.clone()) {
        Ok(()) => {
            broadcast(&shared, json!({ "type": "settings", "settings": settings }));
            Json(settings).into_response()
        }
        Err(SetError::Invalid(why)) => error(StatusCode::UNPROCESSABLE_ENTITY, why),
        Err(SetError::Io(e)) => error(
            StatusCode::INTERNAL_SERVER_ERROR,
            format!("could not save the settings ({e}); nothing was changed"),
        ),
    }
}

/// Asked by a second launch on this machine: bring the table window to the front.
async fn focus(
    State(shared): State<Arc<Shared>>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
) -> Response {
    if !peer.ip().is_loopback() {
        return error(
            StatusCode::FORBIDDEN,
            "only a launch on this machine may bring the table to the front",
        );
    }
    let _ = shared.focus.try_send(());
    StatusCode::NO_CONTENT.into_response()
}

async fn unknown_api(uri: Uri) -> Response {
    error(
        StatusCode::NOT_FOUND,
        format!("no API endpoint at {}; see docs/API.md", uri.path()),
    )
}

fn broadcast(shared: &Shared, message: serde_json::Value) {
    // No subscriber is not an error: nobody is watching yet.
    let _ = shared.events.send(message.to_string());
}

async fn socket(ws: WebSocketUpgrade, State(shared): State<Arc<Shared>>) -> Response {
    ws.on_upgrade(move |socket| session(socket, shared))
}

/// One connected screen: greets it, forwards every change, answers pings, and closes when
/// the server stops.
async fn session(mut socket: WebSocket, shared: Arc<Shared>) {
    let mut events = shared.events.subscribe();
    let mut shutdown = shared.shutdown.clone();
    let devices = shared.devices.fetch_add(1, Ordering::Relaxed) + 1;
    let hello = json!({
        "type": "hello",
        "version": env!("CARGO_PKG_VERSION"),
        "settings": shared.settings.get(),
        "devices": devices,
    });
    if socket
        .send(Message::Text(hello.to_string().into()))
        .await
        .is_ok()
    {
        tracing::info!("a screen connected ({devices} now)");
        broadcast(&shared, json!({ "type": "presence", "devices": devices }));
        loop {
            tokio::select! {
                _ = async { let _ = shutdown.wait_for(|stopped| *stopped).await; } => {
                    let frame = CloseFrame { code: 1001, reason: "the table is closing".into() };
                    let _ = socket.send(Message::Close(Some(frame))).await;
                    break;
                }
                event = events.recv() => match event {
                    Ok(text) => {
                        if socket.send(Message::Text(text.into())).await.is_err() {
                            break;
                        }
                    }
                    Err(tokio::sync::broadcast::error::RecvError::Lagged(_)) => continue,
                    Err(tokio::sync::broadcast::error::RecvError::Closed) => break,
                },
                incoming = socket.recv() => match incoming {
                    Some(Ok(Message::Text(text))) if text.as_str() == "ping" => {
                        if socket.send(Message::Text("pong".into())).await.is_err() {
                            break;
                        }
                    }
                    Some(Ok(Message::Close(_)) | Err(_)) | None => break,
                    Some(Ok(_)) => {}
                },
            }
        }
    }
    let devices = shared.devices.fetch_sub(1, Ordering::Relaxed) - 1;
    broadcast(&shared, json!({ "type": "presence", "devices": devices }));
}
