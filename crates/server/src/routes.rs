//! The HTTP API (documented in `docs/API.md`) and the WebSocket that pushes changes.

use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::Ordering;

use axum::extract::rejection::JsonRejection;
use axum::extract::ws::{CloseFrame, Message, WebSocket, WebSocketUpgrade};
use axum::extract::{ConnectInfo, Path, Query, State};
use axum::http::{HeaderMap, StatusCode, Uri, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{any, delete, get, post};
use axum::{Json, Router, middleware};
use serde_json::json;

use crate::access::{self, error};
use crate::games::{GameError, Rewind, TimerAction, parse_role};
use crate::settings::{SetError, Settings};
use crate::{Shared, assets, phones, qr};
use seance_journal::JournalError;
use seance_rules::{Command, Role, Setup};
use serde::Deserialize;
use std::collections::HashMap;

pub fn router(shared: Arc<Shared>) -> Router {
    Router::new()
        .route("/api/info", get(info))
        .route("/api/qr.svg", get(qr_svg))
        .route("/api/settings", get(get_settings).put(put_settings))
        .route("/api/ws", get(socket))
        .route("/api/instance/focus", post(focus))
        .route("/api/games", get(list_games).post(create_game))
        .route("/api/games/{id}", get(game_view))
        .route("/api/games/{id}/commands", post(game_command))
        .route("/api/games/{id}/undo", post(undo))
        .route("/api/games/{id}/redo", post(redo))
        .route("/api/games/{id}/set-aside", post(set_aside))
        .route("/api/games/{id}/timer", post(timer))
        .route(
            "/api/games/{id}/seats",
            get(phones::list).post(phones::take),
        )
        .route("/api/games/{id}/seats/{seat}", delete(phones::free))
        .route("/api/games/{id}/knock", post(phones::knock))
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

/// The join link as a QR code; with `?game=ID`, straight to that game's seats.
async fn qr_svg(
    State(shared): State<Arc<Shared>>,
    Query(query): Query<HashMap<String, String>>,
) -> Response {
    let link = match query.get("game").map(|g| g.parse::<i64>()) {
        None => shared.join_url.clone(),
        Some(Ok(game)) => format!("{}#/join/{game}", shared.join_url),
        Some(Err(_)) => return error(StatusCode::BAD_REQUEST, "game must be a game's number"),
    };
    ([(header::CONTENT_TYPE, "image/svg+xml")], qr::svg(&link)).into_response()
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

pub(crate) fn broadcast(shared: &Shared, message: serde_json::Value) {
    // No subscriber is not an error: nobody is watching yet.
    let _ = shared.events.send(message.to_string());
}

async fn socket(
    ws: WebSocketUpgrade,
    State(shared): State<Arc<Shared>>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    Query(query): Query<HashMap<String, String>>,
) -> Response {
    let watch = match watched(&query) {
        Ok(watch) => watch,
        Err(why) => return error(StatusCode::BAD_REQUEST, why),
    };
    let seat = phones::presented_seat(&HeaderMap::new(), &query).map(str::to_owned);
    if let Some((game, role)) = watch
        && let Err(refused) = phones::check_view(&shared, game, role, seat.as_deref(), peer)
    {
        return refused.into_response();
    }
    ws.on_upgrade(move |socket| session(socket, shared, watch, seat))
}

/// The game and role a socket follows (`?game=ID&role=table|ghost|psychic:N`), if any.
fn watched(query: &HashMap<String, String>) -> Result<Option<(i64, Role)>, String> {
    let Some(game) = query.get("game") else {
        return Ok(None);
    };
    let game = game
        .parse()
        .map_err(|_| format!("game must be a game's number, not {game:?}"))?;
    Ok(Some((game, role_in(query)?)))
}

/// The `?role=` of a request: `table` (the default), `ghost` or `psychic:N`.
fn role_in(query: &HashMap<String, String>) -> Result<Role, String> {
    let role = query.get("role").map(String::as_str).unwrap_or("table");
    parse_role(role).ok_or_else(|| format!("role must be table, ghost or psychic:N, not {role:?}"))
}

/// The message that carries a role's view of a game, serialized once.
fn view_message(shared: &Shared, game: i64, role: Role) -> Option<String> {
    #[derive(serde::Serialize)]
    struct ViewMessage {
        r#type: &'static str,
        snapshot: Seated,
    }
    match snapshot_with_seats(shared, game, role) {
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

/// A role's snapshot, with the seats taken by phones (`"seats": ["ghost", "psychic:1"]`).
#[derive(serde::Serialize)]
struct Seated {
    #[serde(flatten)]
    snapshot: crate::games::Snapshot,
    seats: Vec<String>,
}

fn snapshot_with_seats(shared: &Shared, game: i64, role: Role) -> Result<Seated, GameError> {
    Ok(Seated {
        snapshot: shared.games.snapshot(game, role)?,
        seats: shared.seats.taken(game),
    })
}

/// One connected screen: greets it, forwards every change, answers pings, and closes when
/// the server stops.
async fn session(
    mut socket: WebSocket,
    shared: Arc<Shared>,
    watch: Option<(i64, Role)>,
    seat: Option<String>,
) {
    let mut events = shared.events.subscribe();
    let mut changes = watch.map(|(game, _)| shared.games.subscribe(game));
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
        let first = watch.and_then(|(game, role)| view_message(&shared, game, role));
        let mut open = match first {
            Some(text) => socket.send(Message::Text(text.into())).await.is_ok(),
            None => true,
        };
        while open {
            tokio::select! {
                _ = async { let _ = shutdown.wait_for(|stopped| *stopped).await; } => {
                    let frame = CloseFrame { code: 1001, reason: "the table is closing".into() };
                    let _ = socket.send(Message::Close(Some(frame))).await;
                    break;
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
                    if !phones::may_see(&shared, watched, role, seat.as_deref()) {
                        let frame = CloseFrame { code: 4403, reason: "this seat was freed by the table".into() };
                        let _ = socket.send(Message::Close(Some(frame))).await;
                        break;
                    }
                    if let Some(text) = view_message(&shared, watched, role) {
                        open = socket.send(Message::Text(text.into())).await.is_ok();
                    }
                }
                event = events.recv() => match event {
                    Ok(text) => {
                        open = socket.send(Message::Text(text.into())).await.is_ok();
                    }
                    Err(tokio::sync::broadcast::error::RecvError::Lagged(_)) => continue,
                    Err(tokio::sync::broadcast::error::RecvError::Closed) => break,
                },
                incoming = socket.recv() => match incoming {
                    Some(Ok(Message::Text(text))) if text.as_str() == "ping" => {
                        open = socket.send(Message::Text("pong".into())).await.is_ok();
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

async fn list_games(State(shared): State<Arc<Shared>>) -> Response {
    let games = blocking(move || shared.games.list()).await;
    match games {
        Ok(list) => Json(
            list.into_iter()
                .map(|g| {
                    json!({ "id": g.id, "ruleset": g.ruleset, "status": g.status, "players": g.players,
                            "created_at": g.created_at, "updated_at": g.updated_at })
                })
                .collect::<Vec<_>>(),
        )
        .into_response(),
        Err(e) => game_error(e),
    }
}

#[derive(Deserialize)]
struct NewGame {
    setup: Setup,
    seed: Option<u64>,
}

async fn create_game(
    State(shared): State<Arc<Shared>>,
    body: Result<Json<NewGame>, JsonRejection>,
) -> Response {
    let NewGame { setup, seed } = match body {
        Ok(Json(new)) => new,
        Err(r) => return bad_json("a new game is {\"setup\": {…}} (see docs/API.md)", r),
    };
    let seed = seed.unwrap_or_else(random_seed);
    match blocking(move || shared.games.create(setup, seed)).await {
        Ok(id) => (StatusCode::CREATED, Json(json!({ "id": id, "version": 0 }))).into_response(),
        Err(e) => game_error(e),
    }
}

fn random_seed() -> u64 {
    let mut bytes = [0u8; 8];
    getrandom::fill(&mut bytes).expect("the system's random source");
    u64::from_le_bytes(bytes)
}

async fn game_view(
    State(shared): State<Arc<Shared>>,
    Path(id): Path<i64>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    headers: HeaderMap,
    Query(query): Query<HashMap<String, String>>,
) -> Response {
    let role = match role_in(&query) {
        Ok(role) => role,
        Err(why) => return error(StatusCode::BAD_REQUEST, why),
    };
    if let Err(refused) = phones::check_view(
        &shared,
        id,
        role,
        phones::presented_seat(&headers, &query),
        peer,
    ) {
        return refused.into_response();
    }
    match blocking(move || snapshot_with_seats(&shared, id, role)).await {
        Ok(snapshot) => Json(snapshot).into_response(),
        Err(e) => game_error(e),
    }
}

#[derive(Deserialize)]
struct Sent {
    version: u64,
    command: Command,
}

async fn game_command(
    State(shared): State<Arc<Shared>>,
    Path(id): Path<i64>,
    headers: HeaderMap,
    body: Result<Json<Sent>, JsonRejection>,
) -> Response {
    let Sent { version, command } = match body {
        Ok(Json(sent)) => sent,
        Err(r) => {
            return bad_json(
                "a command is {\"version\": N, \"command\": {\"type\": …}} (see docs/API.md)",
                r,
            );
        }
    };
    if let Err(refused) = phones::check_command(
        &shared,
        id,
        &command,
        phones::presented_seat(&headers, &HashMap::new()),
    ) {
        return refused.into_response();
    }
    respond_version(blocking(move || shared.games.command(id, version, command)).await)
}

#[derive(Deserialize)]
struct At {
    version: u64,
}

async fn undo(
    State(shared): State<Arc<Shared>>,
    Path(id): Path<i64>,
    headers: HeaderMap,
    body: Result<Json<At>, JsonRejection>,
) -> Response {
    rewind(shared, id, &headers, body, Rewind::Undo).await
}

async fn redo(
    State(shared): State<Arc<Shared>>,
    Path(id): Path<i64>,
    headers: HeaderMap,
    body: Result<Json<At>, JsonRejection>,
) -> Response {
    rewind(shared, id, &headers, body, Rewind::Redo).await
}

async fn rewind(
    shared: Arc<Shared>,
    id: i64,
    headers: &HeaderMap,
    body: Result<Json<At>, JsonRejection>,
    how: Rewind,
) -> Response {
    if let Err(refused) = phones::check_table_or_ghost(
        &shared,
        id,
        phones::presented_seat(headers, &HashMap::new()),
    ) {
        return refused.into_response();
    }
    let At { version } = match body {
        Ok(Json(at)) => at,
        Err(r) => return bad_json("undo and redo take {\"version\": N}", r),
    };
    respond_version(blocking(move || shared.games.rewind(id, version, how)).await)
}

async fn timer(
    State(shared): State<Arc<Shared>>,
    Path(id): Path<i64>,
    headers: HeaderMap,
    body: Result<Json<TimerAction>, JsonRejection>,
) -> Response {
    if let Err(refused) = phones::check_table_or_ghost(
        &shared,
        id,
        phones::presented_seat(&headers, &HashMap::new()),
    ) {
        return refused.into_response();
    }
    let action = match body {
        Ok(Json(action)) => action,
        Err(r) => {
            return bad_json(
                "the timer takes {\"action\": \"pause\" | \"resume\" | \"reset\"} or {\"action\": \"duration\", \"seconds\": N}",
                r,
            );
        }
    };
    match blocking(move || shared.games.timer(id, action)).await {
        Ok(view) => Json(view).into_response(),
        Err(e) => game_error(e),
    }
}

async fn set_aside(State(shared): State<Arc<Shared>>, Path(id): Path<i64>) -> Response {
    respond_version(blocking(move || shared.games.set_aside_damage(id)).await)
}

fn respond_version(result: Result<u64, GameError>) -> Response {
    match result {
        Ok(version) => Json(json!({ "version": version })).into_response(),
        Err(e) => game_error(e),
    }
}

/// Journal work blocks on the disk: keep it off the async workers.
async fn blocking<T: Send + 'static>(
    f: impl FnOnce() -> Result<T, GameError> + Send + 'static,
) -> Result<T, GameError> {
    tokio::task::spawn_blocking(f)
        .await
        .expect("a journal task does not panic")
}

fn bad_json(shape: &str, rejection: JsonRejection) -> Response {
    error(
        StatusCode::BAD_REQUEST,
        format!("{shape}: {}", rejection.body_text()),
    )
}

fn game_error(e: GameError) -> Response {
    match e {
        GameError::Rule(rule) => (
            StatusCode::UNPROCESSABLE_ENTITY,
            Json(json!({ "error": rule.message, "rule": rule.rule })),
        )
            .into_response(),
        GameError::Stale { sent, now, missed } => {
            let changed = if missed.is_empty() {
                String::new()
            } else {
                format!(": {}", missed.join("; "))
            };
            error(
                StatusCode::CONFLICT,
                format!(
                    "the game has moved on since you looked (you sent version {sent}, it is at {now}){changed}. Look again, then act"
                ),
            )
        }
        GameError::Timeline(t) => error(StatusCode::CONFLICT, t.to_string()),
        GameError::Journal(j @ JournalError::NoSuchGame(_)) => {
            error(StatusCode::NOT_FOUND, j.to_string())
        }
        GameError::Journal(
            j @ (JournalError::OutOfOrder { .. } | JournalError::Damaged { .. }),
        ) => error(StatusCode::CONFLICT, j.to_string()),
        GameError::Journal(j) => {
            tracing::error!("journal: {j}");
            error(
                StatusCode::INTERNAL_SERVER_ERROR,
                format!("{j}; nothing was changed"),
            )
        }
    }
}
