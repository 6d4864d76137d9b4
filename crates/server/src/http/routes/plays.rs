//! A finished game sent to BG Stats: its play with the link that opens BG Stats (`bgstats`),
//! the QR code of its short link the table shows, and the short link a phone scans, which
//! forwards to BG Stats whichever rule set the game is of.

use std::sync::Arc;

use axum::Json;
use axum::extract::State;
use axum::http::{StatusCode, header};
use axum::response::IntoResponse;

use seance_timeline::RuleBook;
use serde_json::{Value, json};

use crate::games::{GameError, Games, blocking};
use crate::refused::Refused;
use crate::request::GameId;
use crate::rulesets::rule_set;
use crate::shared::Shared;
use crate::{bgstats, qr};

/// A finished game as BG Stats takes it: `{"url", "play"}`, the link that opens BG Stats
/// with the play filled in, and the play itself.
pub async fn play<G: RuleBook>(
    State(shared): State<Arc<Shared>>,
    State(games): State<Arc<Games<G>>>,
    GameId(id): GameId,
) -> Result<Json<Value>, Refused> {
    let (url, play) = sent(&shared, games, id).await?;
    Ok(Json(json!({ "url": url, "play": play })))
}

/// A QR code for a phone to scan off the table (`?code=`, as images send no headers): the
/// game's short link, which forwards to BG Stats ([`forward`]). Asked only once the game is
/// over, like the link itself.
pub async fn png<G: RuleBook>(
    State(shared): State<Arc<Shared>>,
    State(games): State<Arc<Games<G>>>,
    GameId(id): GameId,
) -> Result<impl IntoResponse, Refused> {
    let link = bgstats::short_link(&shared.origin, id, &shared.code.to_string());
    blocking(move || games.finished(id)).await?;
    Ok(([(header::CONTENT_TYPE, "image/png")], qr::png(&link)))
}

/// The short link a phone scanned off the table: on to BG Stats with the play filled in,
/// whichever rule set the game is of.
pub async fn forward(
    State(shared): State<Arc<Shared>>,
    GameId(id): GameId,
) -> Result<impl IntoResponse, Refused> {
    let journal = shared.clone();
    let rule_set = blocking(move || Ok(journal.journal().ruleset(id)?)).await?;
    let (url, _) =
        rule_set!(rule_set, G => sent(&shared, shared.rule_sets.games::<G>().clone(), id).await?);
    Ok((StatusCode::SEE_OTHER, [(header::LOCATION, url)]))
}

/// Game `id`'s play, and the link that opens BG Stats with it, once it is over.
async fn sent<G: RuleBook>(
    shared: &Shared,
    games: Arc<Games<G>>,
    id: i64,
) -> Result<(String, Value), GameError> {
    let journal = shared.identity.clone();
    let finished = blocking(move || games.finished(id)).await?;
    let offset = bgstats::table_offset(finished.began);
    let play = bgstats::play(&finished, &journal, id, offset);
    Ok((bgstats::link(&play), play))
}
