//! What phones add to the API, for every rule set: taking, listing and freeing seats, the
//! ghost's knocks, and which device may act for whom (as the rule set says,
//! [`Kept::may_send`]). A device shows its seat's token as `X-Seat` (or
//! `?seat=`, where headers cannot be set); a device without one is the table (or a
//! watcher) and acts for anyone whose seat is free.

use std::collections::HashMap;
use std::net::SocketAddr;
use std::sync::Arc;

use axum::Json;
use axum::extract::rejection::JsonRejection;
use axum::extract::{ConnectInfo, Path, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use serde::Deserialize;
use serde_json::json;

use crate::Shared;
use crate::access::error;
use crate::rulesets::Kept;
use crate::seats::SeatError;

/// A request refused for its seat: a status and what to do, sent as `{"error": …}`.
pub struct Refused(StatusCode, String);

impl IntoResponse for Refused {
    fn into_response(self) -> Response {
        error(self.0, self.1)
    }
}

fn refused(status: StatusCode, why: impl Into<String>) -> Refused {
    Refused(status, why.into())
}

/// The seat token a request shows, if any.
pub fn presented_seat<'a>(
    headers: &'a HeaderMap,
    query: &'a HashMap<String, String>,
) -> Option<&'a str> {
    headers
        .get("x-seat")
        .and_then(|v| v.to_str().ok())
        .or_else(|| query.get("seat").map(String::as_str))
        .filter(|t| !t.is_empty())
}

/// What a seat's phone is told once the table has freed its seat.
const FREED: &str = "this phone's seat was freed by the table: join again";

/// Whether a device showing `token` (or none) may see `role`'s view of `game`: the table's
/// always; a seat's with its own token, or without one while no phone holds it. A phone
/// showing a token must still hold the seat it asks for: once the table frees it, the phone
/// sees nothing of it, even though the table may.
pub fn may_see<G: Kept>(shared: &Shared, game: i64, role: G::Role, token: Option<&str>) -> bool {
    match (G::seat(role), token) {
        (None, _) => true,
        (Some(seat), Some(t)) => shared.seats.seat_of(game, t) == Some(seat),
        (Some(seat), None) => !shared.seats.held(game, &seat),
    }
}

/// Refuses, logs and counts a view [`may_see`] does not allow.
pub fn check_view<G: Kept>(
    shared: &Shared,
    game: i64,
    role: G::Role,
    token: Option<&str>,
    peer: SocketAddr,
) -> Result<(), Refused> {
    if may_see::<G>(shared, game, role, token) {
        return Ok(());
    }
    shared.failures.record(peer.ip());
    tracing::warn!("{peer}: refused the {role:?} view of game {game} without its seat's token");
    Err(refused(
        StatusCode::FORBIDDEN,
        if token.is_some() {
            "this phone does not hold that seat (the table may have freed it): take a seat again"
        } else {
            "that seat is taken by a phone, and only that phone sees its view; the table can free the seat"
        },
    ))
}

fn seat_error(e: SeatError) -> Response {
    seat_refusal(e).into_response()
}

fn seat_refusal(e: SeatError) -> Refused {
    match e {
        SeatError::Taken => refused(
            StatusCode::CONFLICT,
            "that seat is taken by another phone: choose a free one, or ask the table to free it",
        ),
        SeatError::Io(e) => refused(
            StatusCode::INTERNAL_SERVER_ERROR,
            format!("could not save the seats ({e}); nothing was changed"),
        ),
    }
}

/// The seat a device's token holds (`None` for the table), or why it holds none.
fn holder<G: Kept>(
    shared: &Shared,
    game: i64,
    token: Option<&str>,
) -> Result<Option<G::Role>, Refused> {
    let Some(token) = token else {
        return Ok(None);
    };
    shared
        .seats
        .seat_of(game, token)
        .and_then(|seat| G::parse_role(&seat))
        .map(Some)
        .ok_or_else(|| refused(StatusCode::FORBIDDEN, FREED))
}

/// Who may send `command`, as the rule set says: a phone acts for its own seat; the table
/// for anyone whose secret act is not on a phone.
pub fn check_command<G: Kept>(
    shared: &Shared,
    game: i64,
    command: &G::Command,
    token: Option<&str>,
) -> Result<(), Refused> {
    let mine = holder::<G>(shared, game, token)?;
    let held = |role: G::Role| G::seat(role).is_some_and(|seat| shared.seats.held(game, &seat));
    G::may_send(command, mine, &held).map_err(|why| refused(StatusCode::FORBIDDEN, why))
}

/// Undo, redo and the timer belong to the table (and, in Mysterium, the ghost's phone),
/// not to a player's phone.
pub fn check_host<G: Kept>(shared: &Shared, game: i64, token: Option<&str>) -> Result<(), Refused> {
    match holder::<G>(shared, game, token)? {
        Some(role) if !G::hosts(role) => Err(refused(
            StatusCode::FORBIDDEN,
            format!("that is done on {}", G::HOSTED_BY),
        )),
        _ => Ok(()),
    }
}

pub async fn list<G: Kept>(State(shared): State<Arc<Shared>>, Path(id): Path<i64>) -> Response {
    Json(json!({ "taken": shared.seats.taken(id) })).into_response()
}

#[derive(Deserialize)]
pub struct Wanted {
    seat: String,
}

pub async fn take<G: Kept>(
    State(shared): State<Arc<Shared>>,
    Path(id): Path<i64>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    body: Result<Json<Wanted>, JsonRejection>,
) -> Response {
    if shared.joins.blocked(peer.ip()) {
        return error(
            StatusCode::TOO_MANY_REQUESTS,
            "too many seats asked for from this device in a minute: wait a minute, then try again",
        );
    }
    shared.joins.record(peer.ip());
    let Ok(Json(Wanted { seat })) = body else {
        return error(
            StatusCode::BAD_REQUEST,
            "a seat is {\"seat\": NAME}, one of the names the game's seats have (ghost, psychic:N, player:N)",
        );
    };
    let seats = match G::games(&shared).seats(id) {
        Ok(seats) => seats,
        Err(_) => {
            return error(
                StatusCode::NOT_FOUND,
                format!("there is no such game {id}; list the games to find it"),
            );
        }
    };
    if !seats.contains(&seat) {
        return error(
            StatusCode::BAD_REQUEST,
            format!(
                "there is no seat {seat:?} in this game: its seats are {}",
                seats.join(", ")
            ),
        );
    }
    match shared.seats.take(id, &seat) {
        Ok(token) => {
            tracing::info!("{peer} took the seat {seat} of game {id}");
            G::games(&shared).touch(id);
            (
                StatusCode::CREATED,
                Json(json!({ "seat": seat, "token": token })),
            )
                .into_response()
        }
        Err(e) => seat_error(e),
    }
}

pub async fn free<G: Kept>(
    State(shared): State<Arc<Shared>>,
    Path((id, seat)): Path<(i64, String)>,
) -> Response {
    if G::parse_role(&seat).and_then(G::seat).is_none() {
        return error(
            StatusCode::BAD_REQUEST,
            format!("there is no seat {seat:?}: see the game's seats"),
        );
    }
    match shared.seats.free(id, &seat) {
        Ok(_) => {
            G::games(&shared).touch(id);
            StatusCode::NO_CONTENT.into_response()
        }
        Err(e) => seat_error(SeatError::Io(e)),
    }
}

#[derive(Deserialize)]
pub struct Knock {
    times: u8,
}

/// The ghost knocks (once: yes, twice: no); the table screen plays it.
pub async fn knock(
    State(shared): State<Arc<Shared>>,
    Path(id): Path<i64>,
    headers: HeaderMap,
    body: Result<Json<Knock>, JsonRejection>,
) -> Response {
    let Ok(Json(Knock { times })) = body else {
        return error(
            StatusCode::BAD_REQUEST,
            "a knock is {\"times\": 1} (yes) or {\"times\": 2} (no)",
        );
    };
    if !(1..=2).contains(&times) {
        return error(
            StatusCode::UNPROCESSABLE_ENTITY,
            "the ghost knocks once (yes) or twice (no)",
        );
    }
    if let Err(refused) =
        check_host::<seance_rules::Game>(&shared, id, presented_seat(&headers, &HashMap::new()))
    {
        return refused.into_response();
    }
    crate::routes::broadcast(
        &shared,
        json!({ "type": "knock", "game": id, "times": times }),
    );
    StatusCode::NO_CONTENT.into_response()
}
