//! What phones add to the API, for every rule set: taking, listing and freeing seats, the
//! ghost's knocks, and which device sees whose view. A [`Caller`] is one of three kinds: the
//! table (the table key), which sees every seat no phone holds; a seat's phone (the join
//! code and its seat's token, shown as `X-Seat` or `?seat=` where headers cannot be set),
//! which sees its seat only; and a watcher (the join code alone), which sees the table's
//! view. What each may *do* is the rule set's answer, given the caller as a [`Who`].

use crate::refusals;
use std::net::SocketAddr;
use std::sync::Arc;

use axum::Json;
use axum::extract::{ConnectInfo, FromRef, FromRequestParts, State};
use axum::http::StatusCode;
use axum::http::request::Parts;
use serde::Deserialize;
use serde_json::{Value, json};

use crate::access::{Device, TableOnly};
use crate::games::Games;
use crate::refused::{Refused, refused};
use crate::request::{Body, GameId, RoleQuery, SeatOf, Shape, in_query};
use crate::rulesets::seats_page;
use crate::seats::{Door, SeatError, in_words};
use crate::shared::Shared;
use seance_timeline::{Knock, Refusal, RoleName, RuleBook, Seat, SeatName, Who};

/// Who asks about a game, by the credentials of the request: its [`Device`], and the seat
/// token it shows (`X-Seat`, or `?seat=` where headers cannot be set).
#[derive(Clone)]
pub enum Caller {
    /// The table key.
    Table,
    /// The join code and a seat's token (which may have been freed since).
    Phone(String),
    /// The join code alone.
    Watcher,
}

/// Logged without the token: a secret never reaches the log.
impl std::fmt::Debug for Caller {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Caller::Table => "the table",
            Caller::Phone(_) => "a seat's phone",
            Caller::Watcher => "a watcher",
        })
    }
}

impl<S: Send + Sync> FromRequestParts<S> for Caller {
    type Rejection = Refused;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Self::Rejection> {
        let device = Device::from_request_parts(parts, state).await?;
        let token = parts
            .headers
            .get("x-seat")
            .and_then(|v| v.to_str().ok())
            .map(str::to_owned)
            .or_else(|| in_query(parts, "seat"))
            .filter(|t| !t.is_empty());
        Ok(match (device, token) {
            (Device::Table, _) => Caller::Table,
            (Device::Joined, Some(token)) => Caller::Phone(token),
            (Device::Joined, None) => Caller::Watcher,
        })
    }
}

/// Whether `caller` may see `role`'s view of `game`: the table's view, anyone; a seat's,
/// the phone holding it, or the table while no phone does (pass-and-play). A phone must
/// still hold the seat it asks for: once the table frees it, the phone sees nothing of it.
pub fn may_see<G: RuleBook>(shared: &Shared, game: i64, role: G::Role, caller: &Caller) -> bool {
    match (role.seat(), caller) {
        (None, _) => true,
        (Some(seat), Caller::Phone(t)) => shared.seats.seat_of(game, t) == Some(seat),
        (Some(seat), Caller::Table) => !shared.seats.held(game, seat),
        (Some(_), Caller::Watcher) => false,
    }
}

/// Counts a seat token that never held a seat of `game` as a wrong code: tokens are
/// guessed that way, and a guesser waits like one (`Some`: the refusal that says so). An
/// honest refusal is not one: a watcher, a phone asking for another seat, or a phone still
/// retrying with the token of a seat the table freed.
fn count_guess(shared: &Shared, game: i64, caller: &Caller, peer: SocketAddr) -> Option<Refused> {
    if let Caller::Phone(token) = caller
        && !shared.seats.opens(game, token)
        && !shared.seats.was_freed(game, token)
    {
        if shared.failures.blocked(peer.ip()) {
            return Some(refused(
                StatusCode::TOO_MANY_REQUESTS,
                refusals::WRONG_CODES_WAIT,
            ));
        }
        shared.failures.record(peer.ip());
    }
    None
}

/// Refuses and logs a view [`may_see`] does not allow; counts a guessed token.
fn check_view<G: RuleBook>(
    shared: &Shared,
    game: i64,
    role: G::Role,
    caller: &Caller,
    peer: SocketAddr,
) -> Result<(), Refused> {
    if may_see::<G>(shared, game, role, caller) {
        return Ok(());
    }
    if let Some(wait) = count_guess(shared, game, caller, peer) {
        return Err(wait);
    }
    if let Some(unsaid) = shared.hushed.say(peer.ip()) {
        tracing::warn!(
            unsaid,
            "{peer}: refused the {role:?} view of game {game} to {caller:?}"
        );
    }
    Err(match caller {
        Caller::Phone(token) if !shared.seats.opens(game, token) => {
            refused(StatusCode::FORBIDDEN, refusals::SEAT_FREED)
        }
        Caller::Phone(_) => refused(StatusCode::FORBIDDEN, refusals::NOT_YOUR_SEAT),
        Caller::Table => refused(StatusCode::FORBIDDEN, refusals::SEAT_ON_PHONE),
        Caller::Watcher => refused(StatusCode::FORBIDDEN, refusals::WATCHER_SEES_TABLE),
    })
}

/// Who `caller` is to the rules of `game`: the table (with the seats phones hold), a
/// seat's phone, or a watcher. A token that holds no seat (freed, or guessed) is refused,
/// and counted as a wrong code: tokens are guessed that way.
pub fn who<G: RuleBook>(
    shared: &Shared,
    game: i64,
    caller: &Caller,
    peer: SocketAddr,
) -> Result<Who<G::Role>, Refused> {
    match caller {
        Caller::Table => Ok(Who::Table {
            phones: shared.seats.taken(game),
        }),
        Caller::Watcher => Ok(Who::Watcher),
        Caller::Phone(token) => shared
            .seats
            .seat_of(game, token)
            .map(Who::Seat)
            .ok_or_else(|| {
                count_guess(shared, game, caller, peer)
                    .unwrap_or_else(|| refused(StatusCode::FORBIDDEN, refusals::SEAT_FREED))
            }),
    }
}

/// Who asks about the path's game `id`, as its rules see them (`who`): the table, a seat's
/// phone (a seat its token still holds), or a watcher.
pub struct Asking<G: RuleBook> {
    pub id: i64,
    pub who: Who<G::Role>,
}

impl<G: RuleBook, S: Send + Sync> FromRequestParts<S> for Asking<G>
where
    Arc<Shared>: FromRef<S>,
{
    type Rejection = Refused;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Refused> {
        let (id, peer, caller) = about_a_game(parts, state).await?;
        let shared = Arc::<Shared>::from_ref(state);
        let who = who::<G>(&shared, id, &caller, peer)?;
        Ok(Asking { id, who })
    }
}

/// The path's game, and who asks about it from where.
async fn about_a_game<S: Send + Sync>(
    parts: &mut Parts,
    state: &S,
) -> Result<(i64, SocketAddr, Caller), Refused> {
    let GameId(id) = GameId::from_request_parts(parts, state).await?;
    let ConnectInfo(peer) = ConnectInfo::<SocketAddr>::from_request_parts(parts, state)
        .await
        .map_err(|_| refused(StatusCode::INTERNAL_SERVER_ERROR, refusals::FAULT))?;
    let caller = Caller::from_request_parts(parts, state).await?;
    Ok((id, peer, caller))
}

/// Who reads the path's game `id` as which `role`: a phone, the seat its token holds; the
/// table or a watcher, the role asked for (`?role=`, the table's unless said). Refused
/// for a role whose view they may not see ([`check_view`]).
pub struct Reading<G: RuleBook> {
    pub id: i64,
    pub role: G::Role,
    pub who: Who<G::Role>,
}

impl<G: RuleBook, S: Send + Sync> FromRequestParts<S> for Reading<G>
where
    Arc<Shared>: FromRef<S>,
{
    type Rejection = Refused;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Refused> {
        let asked = RoleQuery::from_request_parts(parts, state).await?;
        let (id, peer, caller) = about_a_game(parts, state).await?;
        let shared = Arc::<Shared>::from_ref(state);
        let (who, role) = reader::<G>(&shared, id, &caller, peer, &asked)?;
        Ok(Reading { id, role, who })
    }
}

/// Who `caller` is to game `game`'s rules ([`who`]), and the role it reads the game as: a
/// seat's phone, its seat unless it asks for another; the table or a watcher, the role
/// `asked` (`?role=`), the table's unless said. Refused for a role whose view it may not
/// see ([`check_view`]).
pub fn reader<G: RuleBook>(
    shared: &Shared,
    game: i64,
    caller: &Caller,
    peer: SocketAddr,
    asked: &RoleQuery,
) -> Result<(Who<G::Role>, G::Role), Refused> {
    let who = who::<G>(shared, game, caller, peer)?;
    // Read once the caller is known: a freed seat or a guess is told that first.
    let role = match (&who, asked.of()?) {
        (Who::Seat(mine), None) => (*mine).into(),
        (_, asked) => asked.unwrap_or(G::Role::TABLE),
    };
    check_view::<G>(shared, game, role, caller, peer)?;
    Ok((who, role))
}

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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_caller_is_logged_without_its_token() {
        let logged = format!("{:?}", Caller::Phone("5f1d8c0a9e".into()));
        assert_eq!(logged, "a seat's phone");
    }
}
