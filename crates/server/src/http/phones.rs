//! What phones add to the API, for every rule set: taking, listing and freeing seats, and
//! the ghost's knocks. Who asks, and whose view each may see, is [`crate::callers`]'s.

use crate::refusals;
use std::net::SocketAddr;
use std::sync::Arc;

use axum::Json;
use axum::extract::{ConnectInfo, State};
use axum::http::StatusCode;
use serde::Deserialize;
use serde_json::{Value, json};

use crate::access::TableOnly;
use crate::callers::Asking;
use crate::games::Games;
use crate::refused::{Refused, refused};
use crate::request::{Body, GameId, SeatOf, Shape};
use crate::rulesets::seats_page;
use crate::seats::{Door, SeatError, in_words};
use crate::shared::Shared;
use seance_timeline::{Knock, Refusal, RuleBook, Seat, SeatName};

pub async fn list<G: RuleBook>(
    State(shared): State<Arc<Shared>>,
    GameId(id): GameId,
) -> Json<Value> {
    let taken = shared.seats.taken::<Seat<G::Role>>(id);
    Json(json!({ "taken": in_words(&taken) }))
}

#[derive(Deserialize)]
pub struct Wanted {
    seat: String,
    /// The table's invitation, for a seat taken only that way.
    invitation: Option<String>,
}

impl Shape for Wanted {
    const SHAPE: &'static str = "a seat is {\"seat\": NAME}, one of the names the game's seats have (ghost, psychic:N, player:N), with the table's {\"invitation\": TEXT} where it takes one";
}

pub async fn take<G: RuleBook>(
    State(shared): State<Arc<Shared>>,
    State(games): State<Arc<Games<G>>>,
    GameId(id): GameId,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    Body(Wanted { seat, invitation }): Body<Wanted>,
) -> Result<(StatusCode, Json<Value>), Refused> {
    let seat = named_in_game(&games, id, &seat)?;
    // A seat open to the join code is taken a few times a minute at most from one address;
    // one by invitation is as rare as the table's invitations, and a guess is slowed below.
    let door = if G::by_invitation(seat) {
        Door::Invitation(invitation.as_deref())
    } else {
        if shared.joins.blocked(peer.ip()) {
            return Err(refused(StatusCode::TOO_MANY_REQUESTS, refusals::SEATS_WAIT));
        }
        shared.joins.record(peer.ip());
        Door::Open
    };
    let token = shared.seats.take(id, seat, door).map_err(|e| match e {
        // The live invitation is honoured whatever came from the same address before (a
        // phone sharing it with a guesser): only guesses wait, as for the codes.
        SeatError::NotInvited if shared.failures.blocked(peer.ip()) => {
            refused(StatusCode::TOO_MANY_REQUESTS, refusals::WRONG_CODES_WAIT)
        }
        SeatError::NotInvited => {
            // Invitations are guessed that way: a guesser waits like one.
            shared.failures.record(peer.ip());
            Refused::from(SeatError::NotInvited)
        }
        e => Refused::from(e),
    })?;
    tracing::info!("{peer} took the seat {seat} of game {id}");
    games.touch(id);
    Ok((
        StatusCode::CREATED,
        Json(json!({ "seat": seat.to_string(), "token": token })),
    ))
}

/// The seat named `named` (a body's words) in game `id`: refused, with the seats it has,
/// for a game or a seat there is not.
fn named_in_game<G: RuleBook>(
    games: &Games<G>,
    id: i64,
    named: &str,
) -> Result<Seat<G::Role>, Refused> {
    let seats = seats_of(games, id)?;
    (named.parse().ok())
        .filter(|seat| seats.contains(seat))
        .ok_or_else(|| no_such_seat(named, &seats))
}

/// Seat `seat` (a path's, read as a seat of its rule set) of game `id`: refused as
/// [`named_in_game`] refuses.
fn in_game<G: RuleBook>(
    games: &Games<G>,
    id: i64,
    seat: Seat<G::Role>,
) -> Result<Seat<G::Role>, Refused> {
    let seats = seats_of(games, id)?;
    match seats.contains(&seat) {
        true => Ok(seat),
        false => Err(no_such_seat(&seat.to_string(), &seats)),
    }
}

/// The seats of game `id`, refused for a game there is not.
fn seats_of<G: RuleBook>(games: &Games<G>, id: i64) -> Result<Vec<Seat<G::Role>>, Refused> {
    games.seats(id).map_err(|_| {
        Refused::new(
            StatusCode::NOT_FOUND,
            Refusal::new(refusals::NO_SUCH_GAME).with("game", id),
        )
    })
}

/// `named` is none of `seats`.
fn no_such_seat<S: SeatName>(named: &str, seats: &[S]) -> Refused {
    Refused::new(
        StatusCode::BAD_REQUEST,
        Refusal::new(refusals::NO_SUCH_SEAT)
            .with("seat", named)
            .with("seats", in_words(seats)),
    )
}

/// The table invites a phone to a seat taken only by invitation (the ghost's): the link
/// that takes it, once, and its QR code, for the table to show that seat's player alone.
/// A new invitation replaces the last.
pub async fn invite<G: RuleBook>(
    _: TableOnly,
    State(shared): State<Arc<Shared>>,
    State(games): State<Arc<Games<G>>>,
    SeatOf { id, seat }: SeatOf<G::Role>,
) -> Result<Json<Value>, Refused> {
    let seat = in_game(&games, id, seat)?;
    if !G::by_invitation(seat) {
        return Err(Refused::new(
            StatusCode::BAD_REQUEST,
            Refusal::new(refusals::SEAT_OPEN).with("seat", seat.to_string()),
        ));
    }
    let invitation = (shared.seats.invite(id, seat))
        .map_err(SeatError::Io)?
        .ok_or(SeatError::Taken)?;
    let link = format!(
        "{}{}/{seat}/{invitation}",
        shared.join_url,
        seats_page(G::RULE_SET, id)
    );
    Ok(Json(
        json!({ "qr": crate::qr::png_data_url(&link), "link": link }),
    ))
}

/// The table hides its invitation again: it opens nothing from now on.
pub async fn uninvite<G: RuleBook>(
    _: TableOnly,
    State(shared): State<Arc<Shared>>,
    SeatOf { id, seat }: SeatOf<G::Role>,
) -> StatusCode {
    shared.seats.uninvite(id, seat);
    StatusCode::NO_CONTENT
}

pub async fn free<G: RuleBook>(
    _: TableOnly,
    State(shared): State<Arc<Shared>>,
    State(games): State<Arc<Games<G>>>,
    SeatOf { id, seat }: SeatOf<G::Role>,
) -> Result<StatusCode, Refused> {
    shared.seats.free(id, seat).map_err(SeatError::Io)?;
    games.touch(id);
    Ok(StatusCode::NO_CONTENT)
}

#[derive(Deserialize)]
pub struct Knocked {
    times: u8,
}

impl Shape for Knocked {
    const SHAPE: &'static str = "a knock is {\"times\": 1} (yes) or {\"times\": 2} (no)";
}

/// The ghost knocks (once: yes, twice: no) where the rules have knocks, at most one a
/// second (a knock is heard whole before the next); every screen plays it.
pub async fn knock<G: RuleBook>(
    State(shared): State<Arc<Shared>>,
    State(games): State<Arc<Games<G>>>,
    Asking { id, who }: Asking<G>,
    Body(Knocked { times }): Body<Knocked>,
) -> Result<StatusCode, Refused> {
    let knock = Knock::try_from(times)
        .map_err(|refusal| Refused::new(StatusCode::UNPROCESSABLE_ENTITY, refusal))?;
    games.knock(id, &who)?;
    shared.broadcast(json!({ "type": "knock", "game": id, "times": knock.times() }));
    Ok(StatusCode::NO_CONTENT)
}
