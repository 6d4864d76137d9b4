//! Who asks about a game, and which views each may see. A [`Caller`] is one of three kinds:
//! the table (the table key), which sees every seat no phone holds; a seat's phone (the join
//! code and its seat's token, shown as `X-Seat` or `?seat=` where headers cannot be set),
//! which sees its seat only; and a watcher (the join code alone), which sees the table's
//! view. What each may *do* is the rule set's answer, given the caller as a [`Who`]. Below
//! the HTTP modules: the routes and the socket both ask it.

use crate::refusals;
use std::net::SocketAddr;
use std::sync::Arc;

use axum::extract::{ConnectInfo, FromRef, FromRequestParts};
use axum::http::StatusCode;
use axum::http::request::Parts;

use crate::access::Device;
use crate::refused::{Refused, refused};
use crate::request::{GameId, RoleQuery, in_query};
use crate::shared::Shared;
use seance_timeline::{RoleName, RuleBook, Who};

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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_caller_is_logged_without_its_token() {
        let logged = format!("{:?}", Caller::Phone("5f1d8c0a9e".into()));
        assert_eq!(logged, "a seat's phone");
    }
}
