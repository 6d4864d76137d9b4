//! A refusal as the API sends it: a status and `{"code", "params", "error"}`. The code and
//! its params are the rule set's (or the server's own, for devices and requests); `error`
//! is the English message, filled in from the UI's own English file, so each language has
//! its words in one place and the screens word a refusal in theirs (`refusal.<code>`).

use std::collections::HashMap;
use std::sync::LazyLock;

use axum::Json;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use seance_timeline::{Param, Refusal};
use serde_json::json;

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
