//! What phones add to the API: taking, listing and freeing seats, the ghost's knocks, and
//! which device may act for whom. A device shows its seat's token as `X-Seat` (or
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
use seance_rules::{Command, Role};
use serde::Deserialize;
use serde_json::json;

use crate::Shared;
use crate::access::error;
use crate::games::parse_role;
use crate::seats::{SeatError, seat_name};

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
pub fn may_see(shared: &Shared, game: i64, role: Role, token: Option<&str>) -> bool {
    match (role, token) {
        (Role::Table, _) => true,
        (_, Some(t)) => shared.seats.seat_of(game, t) == Some(role),
        (_, None) => !shared.seats.held(game, role),
    }
}

/// Refuses, logs and counts a view [`may_see`] does not allow.
pub fn check_view(
    shared: &Shared,
    game: i64,
    role: Role,
    token: Option<&str>,
    peer: SocketAddr,
) -> Result<(), Refused> {
    if may_see(shared, game, role, token) {
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

/// Who may send `command`: a psychic's phone acts for its psychic only; the ghost's phone
/// for the ghost; the table for anyone whose secret act is not on a phone.
pub fn check_command(
    shared: &Shared,
    game: i64,
    command: &Command,
    token: Option<&str>,
) -> Result<(), Refused> {
    let mine = match token {
        Some(t) => Some(
            shared
                .seats
                .seat_of(game, t)
                .ok_or_else(|| refused(StatusCode::FORBIDDEN, FREED))?,
        ),
        None => None,
    };
    let psychic = match *command {
        Command::PlaceIntuition { psychic, .. } | Command::Vote { psychic, .. } => Some(psychic),
        Command::PlaceToken { by, .. } | Command::WithdrawToken { by, .. } => Some(by),
        _ => None,
    };
    let refuse = |why: String| Err(refused(StatusCode::FORBIDDEN, why));
    match mine {
        Some(Role::Psychic(p)) if psychic != Some(p) => {
            refuse("a psychic's phone places its own pawn and tokens and casts its own vote; the rest is done on the table or the ghost's phone".into())
        }
        Some(Role::Ghost) if psychic.is_some() => {
            refuse("the ghost's phone does not act for the psychics: they play on the table or on their phones".into())
        }
        Some(_) => Ok(()),
        None => {
            let secret = match *command {
                Command::Vote { psychic, .. } => Some(Role::Psychic(psychic)),
                Command::ChooseCulprit { .. } => Some(Role::Ghost),
                _ => None,
            };
            match secret {
                Some(role) if shared.seats.held(game, role) => refuse(match role {
                    Role::Ghost => "the ghost seals the culprit on their phone".into(),
                    _ => "that psychic votes on their phone".into(),
                }),
                _ => Ok(()),
            }
        }
    }
}

/// Undo, redo and the timer belong to the table and the ghost, not to a psychic's phone.
pub fn check_table_or_ghost(
    shared: &Shared,
    game: i64,
    token: Option<&str>,
) -> Result<(), Refused> {
    match token.map(|t| shared.seats.seat_of(game, t)) {
        None | Some(Some(Role::Ghost)) => Ok(()),
        Some(None) => Err(refused(StatusCode::FORBIDDEN, FREED)),
        Some(Some(_)) => Err(refused(
            StatusCode::FORBIDDEN,
            "that is done on the table or the ghost's phone",
        )),
    }
}

pub async fn list(State(shared): State<Arc<Shared>>, Path(id): Path<i64>) -> Response {
    Json(json!({ "taken": shared.seats.taken(id) })).into_response()
}

#[derive(Deserialize)]
pub struct Wanted {
    seat: String,
}

pub async fn take(
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
            "a seat is {\"seat\": \"ghost\"} or {\"seat\": \"psychic:N\"}",
        );
    };
    let role = match parse_role(&seat) {
        Some(role @ (Role::Ghost | Role::Psychic(_))) => role,
        _ => {
            return error(
                StatusCode::BAD_REQUEST,
                format!("there is no seat {seat:?}: seats are ghost and psychic:N"),
            );
        }
    };
    let psychics = match shared.games.psychics(id) {
        Ok(n) => n,
        Err(_) => {
            return error(
                StatusCode::NOT_FOUND,
                format!("there is no game {id}; list the games to find it"),
            );
        }
    };
    if let Role::Psychic(i) = role
        && i >= psychics
    {
        return error(
            StatusCode::BAD_REQUEST,
            format!(
                "there is no psychic {i}: this game's are numbered 0 to {}",
                psychics - 1
            ),
        );
    }
    match shared.seats.take(id, role) {
        Ok(token) => {
            tracing::info!("{peer} took the seat {seat} of game {id}");
            shared.games.touch(id);
            (
                StatusCode::CREATED,
                Json(json!({ "seat": seat, "token": token })),
            )
                .into_response()
        }
        Err(e) => seat_error(e),
    }
}

pub async fn free(
    State(shared): State<Arc<Shared>>,
    Path((id, seat)): Path<(i64, String)>,
) -> Response {
    let Some(role) = parse_role(&seat).filter(|r| seat_name(*r).is_some()) else {
        return error(
            StatusCode::BAD_REQUEST,
            format!("there is no seat {seat:?}: seats are ghost and psychic:N"),
        );
    };
    match shared.seats.free(id, role) {
        Ok(_) => {
            shared.games.touch(id);
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
        check_table_or_ghost(&shared, id, presented_seat(&headers, &HashMap::new()))
    {
        return refused.into_response();
    }
    crate::routes::broadcast(
        &shared,
        json!({ "type": "knock", "game": id, "times": times }),
    );
    StatusCode::NO_CONTENT.into_response()
}
