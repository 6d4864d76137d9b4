//! A refusal as the API sends it: a status and `{"code", "params", "error"}`. The code and
//! its params are the rule set's (or the server's own, for devices and requests); `error`
//! is the English message, filled in from the UI's own English file, so each language has
//! its words in one place and the screens word a refusal in theirs (`refusal.<code>`).
//!
//! [`Refused`] is the API's one error: every handler returns `Result<_, Refused>`, and each
//! error below the handlers (a game's, a seat's, the settings') becomes one here, by `From`,
//! with its status.

use std::collections::HashMap;
use std::sync::LazyLock;

use axum::Json;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use seance_journal::JournalError;
use seance_timeline::{Param, Refusal, TimelineError};
use serde_json::json;

use crate::games::GameError;
use crate::refusals;
use crate::seats::SeatError;
use crate::settings::SetError;

/// A refused request: nothing was changed.
#[derive(Debug)]
pub struct Refused {
    pub status: StatusCode,
    pub refusal: Refusal,
}

impl Refused {
    pub fn new(status: StatusCode, refusal: Refusal) -> Refused {
        Refused { status, refusal }
    }
}

/// A refusal of the server's own (not a rule's), with no params.
pub fn refused(status: StatusCode, code: &'static str) -> Refused {
    Refused::new(status, Refusal::new(code))
}

impl IntoResponse for Refused {
    fn into_response(self) -> Response {
        let body = json!({
            "code": self.refusal.code,
            "params": self.refusal.params,
            "error": english(&self.refusal),
        });
        (self.status, Json(body)).into_response()
    }
}

/// A game's refusal: a rule's (422), not this device's (403), faster than a person plays
/// (429), in conflict with a change made meanwhile (409), or the journal's.
impl From<GameError> for Refused {
    fn from(e: GameError) -> Refused {
        let (status, refusal) = match e {
            GameError::Rule(refusal) => (StatusCode::UNPROCESSABLE_ENTITY, refusal),
            GameError::Forbidden(refusal) => (StatusCode::FORBIDDEN, refusal),
            GameError::TooFast(refusal) => (StatusCode::TOO_MANY_REQUESTS, refusal),
            GameError::Conflict(refusal) => (StatusCode::CONFLICT, refusal),
            GameError::Timeline(TimelineError::NothingToUndo) => (
                StatusCode::CONFLICT,
                Refusal::new(refusals::NOTHING_TO_UNDO),
            ),
            GameError::Timeline(TimelineError::NothingToRedo) => (
                StatusCode::CONFLICT,
                Refusal::new(refusals::NOTHING_TO_REDO),
            ),
            GameError::Timeline(TimelineError::Damaged(why)) => (
                StatusCode::CONFLICT,
                Refusal::new(refusals::HISTORY_DAMAGED).with("detail", why),
            ),
            GameError::Journal(
                JournalError::NoSuchGame(game) | JournalError::Ruleset { game, .. },
            ) => (
                StatusCode::NOT_FOUND,
                Refusal::new(refusals::NO_SUCH_GAME).with("game", game),
            ),
            GameError::Journal(JournalError::OutOfOrder { game, .. }) => (
                StatusCode::CONFLICT,
                Refusal::new(refusals::WRITTEN_MEANWHILE).with("game", game),
            ),
            GameError::Journal(JournalError::Damaged { game, seq }) => (
                StatusCode::CONFLICT,
                Refusal::new(refusals::DAMAGED_TAIL)
                    .with("game", game)
                    .with("entry", seq),
            ),
            GameError::Journal(JournalError::StartDamaged { game, why }) => (
                StatusCode::CONFLICT,
                Refusal::new(refusals::START_DAMAGED)
                    .with("game", game)
                    .with("detail", why),
            ),
            GameError::Journal(JournalError::DiskFull) => (
                StatusCode::INSUFFICIENT_STORAGE,
                Refusal::new(refusals::DISK_FULL),
            ),
            GameError::Fault(what) => {
                tracing::error!("a request failed unexpectedly: {what}");
                (
                    StatusCode::INTERNAL_SERVER_ERROR,
                    Refusal::new(refusals::FAULT),
                )
            }
            GameError::Journal(j) => {
                tracing::error!("journal: {j}");
                (
                    StatusCode::INTERNAL_SERVER_ERROR,
                    Refusal::new(refusals::JOURNAL).with("detail", j.to_string()),
                )
            }
        };
        Refused::new(status, refusal)
    }
}

/// A seat not given: held by another phone (409), or by invitation (403).
impl From<SeatError> for Refused {
    fn from(e: SeatError) -> Refused {
        match e {
            SeatError::Taken => refused(StatusCode::CONFLICT, refusals::SEAT_TAKEN),
            SeatError::Uninvited => refused(StatusCode::FORBIDDEN, refusals::SEAT_BY_INVITATION),
            SeatError::NotInvited => refused(StatusCode::FORBIDDEN, refusals::INVITATION_SPENT),
            SeatError::Io(e) => Refused::new(
                StatusCode::INTERNAL_SERVER_ERROR,
                Refusal::new(refusals::SEATS_NOT_SAVED).with("detail", e.to_string()),
            ),
        }
    }
}

/// Settings not kept: refused by their own rules (422), or not written.
impl From<SetError> for Refused {
    fn from(e: SetError) -> Refused {
        match e {
            SetError::Invalid(refusal) => Refused::new(StatusCode::UNPROCESSABLE_ENTITY, refusal),
            SetError::Io(e) => Refused::new(
                StatusCode::INTERNAL_SERVER_ERROR,
                Refusal::new(refusals::SETTINGS_NOT_SAVED).with("detail", e.to_string()),
            ),
        }
    }
}

/// The UI's English words, the refusals' among them.
static ENGLISH: LazyLock<HashMap<String, String>> = LazyLock::new(|| {
    serde_json::from_str(include_str!("../../../ui/i18n/en.json"))
        .expect("ui/i18n/en.json is a map of words")
});

/// `refusal` in English, as the English screen says it: in the words of its game's
/// edition where they have their own (`new:refusal.<code>`).
pub fn english(refusal: &Refusal) -> String {
    match word(&ENGLISH, refusal, &format!("refusal.{}", refusal.code)) {
        Some(phrase) => {
            let unfilled = refusal.unfilled(phrase);
            if !unfilled.is_empty() {
                tracing::warn!("the refusal {refusal} leaves {unfilled:?} blank");
            }
            fill(phrase, refusal, &ENGLISH)
        }
        None => refusal.to_string(),
    }
}

/// The words of `key` in `words`: the refusal's game's own (`new:key`) where it has them,
/// as `ui/i18n.js` looks them up.
fn word<'a>(
    words: &'a HashMap<String, String>,
    refusal: &Refusal,
    key: &str,
) -> Option<&'a String> {
    refusal
        .dialect
        .and_then(|d| words.get(&format!("{d}:{key}")))
        .or_else(|| words.get(key))
}

/// `phrase` with each `{name}` replaced by the refusal's param of that name, terms in
/// `words`' language; the same filling as `ui/i18n.js`.
pub fn fill(phrase: &str, refusal: &Refusal, words: &HashMap<String, String>) -> String {
    let mut out = String::with_capacity(phrase.len());
    let mut rest = phrase;
    while let Some(open) = rest.find('{') {
        out.push_str(&rest[..open]);
        let after = &rest[open + 1..];
        match after.find('}') {
            Some(close) => {
                let name = &after[..close];
                match refusal.param(name) {
                    Some(Param::Term(key)) => {
                        out.push_str(word(words, refusal, key).map_or(*key, String::as_str))
                    }
                    Some(value) => out.push_str(&value.to_string()),
                    None => out.push_str(&rest[open..open + close + 2]),
                }
                rest = &after[close + 1..];
            }
            None => {
                out.push_str(&rest[open..]);
                rest = "";
            }
        }
    }
    out.push_str(rest);
    out
}
