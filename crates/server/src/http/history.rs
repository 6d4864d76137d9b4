//! The history of finished games over the API, every rule set's together: a page of it
//! (`GET /api/history`), its statistics (`GET /api/statistics`), a game archived, deleted
//! or brought back (`POST /api/history/{id}/shelf`, the table's), and the whole of it as a
//! file to keep or to take to another table (`GET /api/history/export.json`, `.csv`;
//! `POST /api/history/import`). What is counted and how is `seance-history`'s; what an
//! imported game is, its own rules say by replaying it.

use crate::refusals;
use std::sync::{Arc, MutexGuard};

use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::{DefaultBodyLimit, State};
use axum::http::{StatusCode, header};
use axum::response::IntoResponse;
use axum::routing::{get, post};
use axum::{Json, Router};
use seance_history::{Among, Csv, Game as Finished, Listing, Tally, Visit};
use seance_journal::{Ended, Exported, IMPORT_CHUNK, Imported, Journal, Ready, Shelf, Unfit};
use seance_timeline::{Listed, NoSuchRuleSet, Refusal, RuleSet};
use serde::Deserialize;
use serde_json::json;

use crate::access::TableOnly;
use crate::games::{GameError, blocking};
use crate::refused::{Refused, refused};
use crate::request::{Asked, Body, GameId, Page, Params, Shape};
use crate::rulesets::rule_set;
use crate::shared::Shared;

/// The largest history file an import reads: over a thousand games (about 25 KB each).
const IMPORT_LIMIT: usize = 32 * 1024 * 1024;
/// The shelves whose games the statistics count and the CSV table lists: deleted games are
/// gone from both.
const COUNTED: [Shelf; 2] = [Shelf::History, Shelf::Archived];
/// A page of the history: fifty games unless asked, at most a hundred.
type HistoryPage = Page<50, 100>;

pub fn router() -> Router<Arc<Shared>> {
    Router::new()
        .route("/api/history", get(page))
        .route("/api/statistics", get(figures))
        .route("/api/history/{id}/shelf", post(shelve))
        .route("/api/history/export.json", get(export_json))
        .route("/api/history/export.csv", get(export_csv))
        .route(
            "/api/history/import",
            post(import).layer(DefaultBodyLimit::max(IMPORT_LIMIT)),
        )
}

#[derive(Deserialize)]
struct ShelfQuery {
    #[serde(default)]
    archived: bool,
}

impl Asked for ShelfQuery {
    const REFUSED: &'static str = refusals::LIST_QUERY;
}

/// The finished games in the history (or the archived ones), the latest first.
async fn page(
    State(shared): State<Arc<Shared>>,
    Params(ShelfQuery { archived }): Params<ShelfQuery>,
    HistoryPage { limit, offset }: HistoryPage,
) -> Result<Json<serde_json::Value>, Refused> {
    let shelf = if archived {
        Shelf::Archived
    } else {
        Shelf::History
    };
    // One more than the page: whether there is a next one.
    let mut games = blocking(move || {
        let mut page = Listing::default();
        let kept = finished(&shared, &[shelf], limit.saturating_add(1), offset)?;
        each(kept, &mut page);
        Ok(page)
    })
    .await?;
    let more = games.len() > limit as usize;
    games.truncate(limit as usize);
    Ok(Json(json!({ "games": games, "more": more })))
}

#[derive(Deserialize)]
struct AmongQuery {
    /// A group: its people's names as a JSON array.
    group: Option<String>,
    player: Option<String>,
}

impl Asked for AmongQuery {
    const REFUSED: &'static str = refusals::STATISTICS_QUERY;
}

/// The statistics among everyone, a group (`?group=["Ann","Ben"]`) or a player
/// (`?player=Ann`); archived games count, deleted ones do not.
async fn figures(
    State(shared): State<Arc<Shared>>,
    Params(query): Params<AmongQuery>,
) -> Result<Json<impl serde::Serialize>, Refused> {
    let among = match query {
        AmongQuery {
            group: Some(group),
            player: None,
        } => serde_json::from_str::<Vec<String>>(&group)
            .ok()
            .filter(|names| !names.is_empty())
            .map(Among::Group),
        AmongQuery {
            group: None,
            player: Some(player),
        } => Some(Among::Player(player)),
        AmongQuery {
            group: None,
            player: None,
        } => Some(Among::Everyone),
        // Both at once.
        AmongQuery { .. } => None,
    };
    let among = among.ok_or_else(|| refused(StatusCode::BAD_REQUEST, AmongQuery::REFUSED))?;
    let tally = blocking(move || {
        let mut tally = Tally::new(among);
        each(finished(&shared, &COUNTED, u32::MAX, 0)?, &mut tally);
        Ok(tally)
    })
    .await?;
    Ok(Json(tally.statistics()))
}

/// The journal, once every finished game in it has its record (written now for any that
/// ended before records were kept).
fn recorded(shared: &Shared) -> Result<MutexGuard<'_, Journal>, GameError> {
    for rule_set in RuleSet::ALL {
        rule_set!(rule_set, G => shared.rule_sets.games::<G>().record_missing())?;
    }
    Ok(shared.journal())
}

/// Finished games on `shelves`, the latest first, as the journal keeps them.
fn finished(
    shared: &Shared,
    shelves: &[Shelf],
    limit: u32,
    offset: u32,
) -> Result<Vec<Ended>, GameError> {
    Ok(recorded(shared)?.history(shelves, limit, offset)?)
}

/// Each of `kept` handed to `visit` as its rule set recorded it (a game of a rule set this
/// build does not know, or whose record it cannot read, is left out).
fn each(kept: impl IntoIterator<Item = Ended>, visit: &mut impl Visit) {
    for game in kept {
        let Ok(rule_set) = game.ruleset.parse() else {
            continue;
        };
        let Ended {
            id,
            began,
            ended,
            shelf,
            record,
            ..
        } = game;
        let archived = shelf == Shelf::Archived;
        rule_set!(rule_set, G => {
            if let Some(game) = Finished::<<G as Listed>::Record>::read(id, began, ended, archived, &record) {
                visit.visit(game);
            }
        });
    }
}

#[derive(Deserialize)]
struct ShelfBody {
    shelf: ShelfName,
}

impl Shape for ShelfBody {
    const SHAPE: &'static str = "a shelf is {\"shelf\": \"history\" | \"archived\" | \"deleted\"}";
}

#[derive(Deserialize, Clone, Copy)]
#[serde(rename_all = "snake_case")]
enum ShelfName {
    History,
    Archived,
    Deleted,
}

/// A finished game archived, deleted, or brought back to the history (a deletion undone).
async fn shelve(
    _: TableOnly,
    State(shared): State<Arc<Shared>>,
    GameId(id): GameId,
    Body(ShelfBody { shelf }): Body<ShelfBody>,
) -> Result<StatusCode, Refused> {
    let shelf = match shelf {
        ShelfName::History => Shelf::History,
        ShelfName::Archived => Shelf::Archived,
        ShelfName::Deleted => Shelf::Deleted,
    };
    blocking(move || Ok(recorded(&shared)?.shelve(id, shelf)?)).await?;
    Ok(StatusCode::NO_CONTENT)
}

async fn export_json(
    _: TableOnly,
    State(shared): State<Arc<Shared>>,
) -> Result<impl IntoResponse, Refused> {
    let file = blocking(move || Ok(recorded(&shared)?.export()?)).await?;
    Ok(download(
        "application/json",
        "seance-history.json",
        serde_json::to_string(&file).expect("a history serializes"),
    ))
}

async fn export_csv(
    _: TableOnly,
    State(shared): State<Arc<Shared>>,
) -> Result<impl IntoResponse, Refused> {
    let csv = blocking(move || {
        let mut csv = Csv::default();
        // Oldest first, as a spreadsheet reads a log.
        each(
            finished(&shared, &COUNTED, u32::MAX, 0)?.into_iter().rev(),
            &mut csv,
        );
        Ok(csv)
    })
    .await?;
    Ok(download(
        "text/csv; charset=utf-8",
        "seance-history.csv",
        csv.table(),
    ))
}

fn download(kind: &'static str, name: &str, body: String) -> impl IntoResponse + use<> {
    (
        [
            (header::CONTENT_TYPE, kind.to_owned()),
            (
                header::CONTENT_DISPOSITION,
                format!("attachment; filename=\"{name}\""),
            ),
        ],
        body,
    )
}

/// A history file from another table (or this one's back-up): every game replayed by its
/// rules before any is written, then written a chunk at a time; games already here are
/// skipped.
async fn import(
    _: TableOnly,
    State(shared): State<Arc<Shared>>,
    body: Result<Bytes, BytesRejection>,
) -> Result<Json<Imported>, Refused> {
    let body = body.map_err(|rejection| {
        let refusal = if rejection.status() == StatusCode::PAYLOAD_TOO_LARGE {
            Refusal::new(refusals::IMPORT_TOO_LARGE).with("most_mib", IMPORT_LIMIT / 1024 / 1024)
        } else {
            Refusal::new(refusals::IMPORT_NOT_A_HISTORY)
        };
        Refused::new(rejection.status(), refusal)
    })?;
    let done = blocking(move || {
        let file = seance_journal::read(&body).map_err(unfit)?;
        let ready = file
            .games
            .into_iter()
            .enumerate()
            .map(|(i, game)| replayed(game, i + 1))
            .collect::<Result<Vec<Ready>, Unfit>>()
            .map_err(unfit)?;
        // On a connection of its own, a chunk to a commit: the history's reads go on
        // meanwhile, and the journal's writers take turns, so a game's command that asks
        // is written before the next chunk.
        let mut journal = shared.journal().beside()?;
        let mut done = Imported::default();
        let mut ready = ready.into_iter().peekable();
        while ready.peek().is_some() {
            let chunk = ready.by_ref().take(IMPORT_CHUNK).collect();
            done += journal.import(chunk)?;
        }
        Ok(done)
    });
    let done = done.await;
    give_back_memory();
    Ok(Json(done?))
}

/// Hands the memory a large file took back to the system: glibc's allocator keeps what is
/// freed for later, and a file of a few tens of megabytes would stay in the server's
/// memory for the evening.
fn give_back_memory() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: malloc_trim only returns free memory to the system; nothing refers to it.
    unsafe {
        libc::malloc_trim(0);
    }
}

/// Game `at` of a file, replayed by the rules of its rule set.
fn replayed(game: Exported, at: usize) -> Result<Ready, Unfit> {
    match game.ruleset.parse() {
        Ok(rule_set) => rule_set!(rule_set, G => seance_journal::ready::<G>(game, at)),
        Err(NoSuchRuleSet) => Err(Unfit::UnknownRuleset { game: at }),
    }
}

fn unfit(why: Unfit) -> GameError {
    GameError::Rule(match why {
        Unfit::NotAHistory => Refusal::new(refusals::IMPORT_NOT_A_HISTORY),
        Unfit::Newer { version } => Refusal::new(refusals::IMPORT_NEWER)
            .with("version", version)
            .with("ours", seance_journal::FILE_VERSION),
        Unfit::UnknownRuleset { game } => {
            Refusal::new(refusals::IMPORT_UNKNOWN_RULESET).with("game", game)
        }
        Unfit::Damaged { game } => Refusal::new(refusals::IMPORT_DAMAGED).with("game", game),
    })
}
