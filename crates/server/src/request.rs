//! What a request asks, read the same way for every endpoint, each refusal a [`Refused`]:
//! - its JSON [`Body`]: one that does not parse is refused with what the endpoint takes
//!   (its [`Shape`]), a number too large for its field with the field's range, a body past
//!   [`BODY_LIMIT`] as too large (the rules then check their own, narrower, bounds);
//! - its query ([`Params`]), refused with its own code ([`Asked`]);
//! - the [`Page`] of a list it asks for (`?limit=N&offset=N`);
//! - the game it is about ([`Which`], `?mysterium=ID`; or its path's, [`GameId`], and a seat
//!   of it, [`SeatOf`]) and the role it asks to read it as ([`RoleQuery`], `?role=`).

use crate::refusals;
use axum::Json;
use axum::extract::rejection::JsonRejection;
use axum::extract::{FromRequest, FromRequestParts, OptionalFromRequest, Path, Query, Request};
use axum::http::StatusCode;
use axum::http::request::Parts;
use serde::Deserialize;
use serde::de::DeserializeOwned;

use crate::refused::{Refused, refused};
use seance_timeline::{Refusal, RoleName, RuleSet, Seat};

/// What an endpoint's body looks like, in the words a refusal shows a programmer.
pub trait Shape {
    const SHAPE: &'static str;
}

/// A JSON body of type `T`, or the endpoint's refusal.
pub struct Body<T>(pub T);

impl<S: Send + Sync, T: DeserializeOwned + Shape> FromRequest<S> for Body<T> {
    type Rejection = Refused;

    async fn from_request(request: Request, state: &S) -> Result<Self, Refused> {
        match <Json<T> as FromRequest<S>>::from_request(request, state).await {
            Ok(Json(body)) => Ok(Body(body)),
            Err(rejection) => Err(bad_json(T::SHAPE, rejection)),
        }
    }
}

/// A body that may be left out (no `Content-Type`), but not sent wrong.
impl<S: Send + Sync, T: DeserializeOwned + Shape> OptionalFromRequest<S> for Body<T> {
    type Rejection = Refused;

    async fn from_request(request: Request, state: &S) -> Result<Option<Self>, Refused> {
        match <Json<T> as OptionalFromRequest<S>>::from_request(request, state).await {
            Ok(body) => Ok(body.map(|Json(body)| Body(body))),
            Err(rejection) => Err(bad_json(T::SHAPE, rejection)),
        }
    }
}

/// What a query is refused with when it does not parse.
pub trait Asked {
    const REFUSED: &'static str;
}

/// A request's query of type `T` (fields it does not name are left to others), or `T`'s
/// refusal.
pub struct Params<T>(pub T);

impl<S: Send + Sync, T: DeserializeOwned + Asked> FromRequestParts<S> for Params<T> {
    type Rejection = Refused;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Refused> {
        match Query::<T>::from_request_parts(parts, state).await {
            Ok(Query(query)) => Ok(Params(query)),
            Err(_) => Err(refused(StatusCode::BAD_REQUEST, T::REFUSED)),
        }
    }
}

/// A page of a list: `?limit=N` (`DEFAULT` unless asked, from 1 to `MOST`) after
/// `?offset=N` items.
pub struct Page<const DEFAULT: u32, const MOST: u32> {
    pub limit: u32,
    pub offset: u32,
}

#[derive(Deserialize)]
struct PageQuery {
    limit: Option<u32>,
    offset: Option<u32>,
}

impl Asked for PageQuery {
    const REFUSED: &'static str = refusals::LIST_QUERY;
}

impl<S: Send + Sync, const DEFAULT: u32, const MOST: u32> FromRequestParts<S>
    for Page<DEFAULT, MOST>
{
    type Rejection = Refused;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Refused> {
        let Params(PageQuery { limit, offset }) = Params::from_request_parts(parts, state).await?;
        let limit = limit.unwrap_or(DEFAULT);
        if !(1..=MOST).contains(&limit) {
            return Err(Refused::new(
                StatusCode::UNPROCESSABLE_ENTITY,
                Refusal::new(refusals::LIST_LIMIT)
                    .with("least", 1)
                    .with("most", MOST)
                    .with("n", limit),
            ));
        }
        Ok(Page {
            limit,
            offset: offset.unwrap_or(0),
        })
    }
}

/// The game a request is about, if any: `?mysterium=ID` (Mysterium), `?rummy=ID`, the key of
/// its rule set ([`RuleSet::key`]); the first rule set's when more than one is sent. One
/// that is no number is refused.
pub struct Which(pub Option<(RuleSet, i64)>);

impl<S: Send + Sync> FromRequestParts<S> for Which {
    type Rejection = Refused;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Self, Refused> {
        for rule_set in RuleSet::ALL {
            if let Some(id) = in_query(parts, rule_set.key()) {
                let id = id
                    .parse()
                    .map_err(|_| refused(StatusCode::BAD_REQUEST, refusals::GAME_NUMBER))?;
                return Ok(Which(Some((rule_set, id))));
            }
        }
        Ok(Which(None))
    }
}

/// The game a path names (`/api/mysterium/{id}/…`), refused as no number where it is none.
pub struct GameId(pub i64);

impl<S: Send + Sync> FromRequestParts<S> for GameId {
    type Rejection = Refused;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Refused> {
        let named = named_in_path(parts, state).await?;
        game_of(&named).map(GameId)
    }
}

/// A seat of the path's game (`…/{id}/seats/{seat}`), one of its rule set's (whose roles
/// are `R`): a name that is none is refused here, at the edge. Whether the game has that
/// seat is for the handler to ask its game.
pub struct SeatOf<R: RoleName> {
    pub id: i64,
    pub seat: Seat<R>,
}

impl<R: RoleName, S: Send + Sync> FromRequestParts<S> for SeatOf<R> {
    type Rejection = Refused;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Refused> {
        let named = named_in_path(parts, state).await?;
        let id = game_of(&named)?;
        let (_, seat) = (named.into_iter().find(|(name, _)| name == "seat")).unwrap_or_default();
        Ok(SeatOf {
            id,
            seat: seat_named::<R>(&seat)?,
        })
    }
}

/// `seat`, named in words (`ghost`, `psychic:2`, `player:1`), as a seat of the rule set
/// whose roles are `R`: refused for a name that is none.
pub fn seat_named<R: RoleName>(seat: &str) -> Result<Seat<R>, Refused> {
    seat.parse().map_err(|_| {
        Refused::new(
            StatusCode::BAD_REQUEST,
            Refusal::new(refusals::NO_SUCH_SEAT).with("seat", seat),
        )
    })
}

/// The path's parameters, by name.
async fn named_in_path<S: Send + Sync>(
    parts: &mut Parts,
    state: &S,
) -> Result<Vec<(String, String)>, Refused> {
    let Path(named) = Path::<Vec<(String, String)>>::from_request_parts(parts, state)
        .await
        .map_err(|_| refused(StatusCode::BAD_REQUEST, refusals::GAME_NUMBER))?;
    Ok(named)
}

/// The game the path's `{id}` names, refused as no number where it is none.
fn game_of(named: &[(String, String)]) -> Result<i64, Refused> {
    let id = named.iter().find(|(name, _)| name == "id");
    id.and_then(|(_, id)| id.parse().ok())
        .ok_or_else(|| refused(StatusCode::BAD_REQUEST, refusals::GAME_NUMBER))
}

/// The value of `key` in the request's query: the last, if it was sent more than once.
pub fn in_query(parts: &Parts, key: &str) -> Option<String> {
    let Query(pairs) = Query::<Vec<(String, String)>>::try_from_uri(&parts.uri).ok()?;
    pairs
        .into_iter()
        .rev()
        .find(|(k, _)| k == key)
        .map(|(_, value)| value)
}

/// The `?role=` a request reads a game as, as the text it sent: read as one of a rule
/// set's roles ([`RoleQuery::of`]) once the game says which rule set.
pub struct RoleQuery(Option<String>);

impl<S: Send + Sync> FromRequestParts<S> for RoleQuery {
    type Rejection = Refused;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Self, Refused> {
        Ok(RoleQuery(in_query(parts, "role")))
    }
}

impl RoleQuery {
    /// The role asked for among `R`, if any: refused, with the roles there are, for a
    /// name that is none of them.
    pub fn of<R: RoleName>(&self) -> Result<Option<R>, Refused> {
        let Some(role) = &self.0 else { return Ok(None) };
        role.parse().map(Some).map_err(|_| {
            Refused::new(
                StatusCode::BAD_REQUEST,
                Refusal::new(refusals::NO_SUCH_ROLE)
                    .with("role", role.as_str())
                    .with("roles", R::NAMES),
            )
        })
    }
}

/// The most a request's body may hold: far more than any command, setup or the settings
/// with a box of card sets, far less than would tie up memory.
pub const BODY_LIMIT: usize = 64 * 1024;

/// A body that is not the JSON asked for: `400` saying what `shape` is and what was wrong
/// (for programs: the screens send only what the API takes); `422` with the range when a
/// number does not even fit its field (the rules then check their own, narrower, bounds);
/// or `413` when it is larger than [`BODY_LIMIT`].
fn bad_json(shape: &str, rejection: JsonRejection) -> Refused {
    if rejection.status() == StatusCode::PAYLOAD_TOO_LARGE {
        return Refused::new(
            StatusCode::PAYLOAD_TOO_LARGE,
            Refusal::new(refusals::TOO_LARGE).with("most_kib", BODY_LIMIT / 1024),
        );
    }
    if let Some(refusal) = out_of_range(&rejection.body_text()) {
        return Refused::new(StatusCode::UNPROCESSABLE_ENTITY, refusal);
    }
    Refused::new(
        StatusCode::BAD_REQUEST,
        Refusal::new(refusals::BAD_REQUEST)
            .with("expected", shape)
            .with("detail", rejection.body_text()),
    )
}

/// A number past what its field holds, as serde tells it ("invalid value: integer `-5`,
/// expected u32"; "invalid type: floating point `1e20`, expected u8"): the value sent and
/// the whole numbers the field takes.
fn out_of_range(detail: &str) -> Option<Refusal> {
    let (_, rest) = detail
        .split_once("invalid value: integer `")
        .or_else(|| detail.split_once("invalid type: floating point `"))?;
    let (value, rest) = rest.split_once("`, expected ")?;
    let kind: String = rest
        .chars()
        .take_while(char::is_ascii_alphanumeric)
        .collect();
    let (least, most): (i64, i64) = match kind.as_str() {
        "u8" => (0, u8::MAX.into()),
        "u16" => (0, u16::MAX.into()),
        "u32" => (0, u32::MAX.into()),
        "u64" | "usize" => (0, i64::MAX),
        "i8" => (i8::MIN.into(), i8::MAX.into()),
        "i16" => (i16::MIN.into(), i16::MAX.into()),
        "i32" => (i32::MIN.into(), i32::MAX.into()),
        "i64" | "isize" => (i64::MIN, i64::MAX),
        _ => return None,
    };
    Some(
        Refusal::new(refusals::NUMBER_OUT_OF_RANGE)
            .with("value", value.to_owned())
            .with("least", least)
            .with("most", most),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_number_past_its_field_is_told_with_the_field_s_range() {
        let told = |detail: &str| {
            out_of_range(detail).map(|r| {
                (
                    r.param("value").cloned(),
                    r.param("least").cloned(),
                    r.param("most").cloned(),
                )
            })
        };
        use seance_timeline::Param::{Number, Text};
        assert_eq!(
            told("command: invalid value: integer `256`, expected u8 at line 1 column 155"),
            Some((Some(Text("256".into())), Some(Number(0)), Some(Number(255))))
        );
        assert_eq!(
            told("command: invalid value: integer `-5`, expected u32 at line 1"),
            Some((
                Some(Text("-5".into())),
                Some(Number(0)),
                Some(Number(4_294_967_295))
            ))
        );
        assert_eq!(
            told("command: invalid type: floating point `1e+20`, expected u32 at line 1"),
            Some((
                Some(Text("1e+20".into())),
                Some(Number(0)),
                Some(Number(4_294_967_295))
            ))
        );
        assert_eq!(
            told("command: invalid type: string \"a\", expected u8"),
            None
        );
        assert_eq!(told("missing field `version`"), None);
    }
}
