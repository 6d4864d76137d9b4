//! A journal found in trouble at start ([`seance_journal::check`]): the server still serves
//! the screens, so the table reads what was found in its own language, but no game until the
//! table chooses — to recover what can be read into a new journal (the old files kept
//! beside it), or to look again once it has put things right (space freed, a `-wal` put
//! back, Séance updated). Either way the server then starts again on the journal.

use crate::refusals;
use std::sync::Arc;

use axum::Json;
use axum::extract::State;
use axum::http::StatusCode;

use seance_journal::Trouble;
use seance_timeline::Refusal;
use serde::{Deserialize, Serialize};
use serde_json::json;

use crate::JOURNAL;
use crate::access::TableOnly;
use crate::refused::{Refused, refused};
use crate::request::{Body, Shape};
use crate::shared::Shared;

/// What the table may choose.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Choice {
    /// Copy every game that can be read into a new journal; keep the old files beside it.
    Recover,
    /// Check again (after freeing space, putting a `-wal` back or updating Séance).
    Retry,
}

/// The trouble as the screens word it: a code per kind, with its facts.
pub fn refusal(trouble: &Trouble) -> Refusal {
    match trouble {
        Trouble::Empty => Refusal::new(refusals::JOURNAL_EMPTY),
        Trouble::NotAJournal => Refusal::new(refusals::JOURNAL_NOT_SQLITE),
        Trouble::Newer { schema } => Refusal::new(refusals::JOURNAL_NEWER)
            .with("schema", *schema)
            .with("reads", seance_journal::SCHEMA),
        Trouble::DamagedPages { found } => {
            Refusal::new(refusals::JOURNAL_DAMAGED_PAGES).with("found", found.clone())
        }
        Trouble::HistoryMissing { written, found } => {
            Refusal::new(refusals::JOURNAL_HISTORY_MISSING)
                .with("written", *written as i64)
                .with("found", *found as i64)
        }
        Trouble::DiskFull { megabytes } => {
            Refusal::new(refusals::JOURNAL_DISK_FULL).with("megabytes", *megabytes as i64)
        }
        Trouble::Unwritable { folder } => {
            Refusal::new(refusals::JOURNAL_UNWRITABLE).with("folder", folder.display().to_string())
        }
    }
}

/// What the table may choose for `trouble`: a newer journal, a full disk or a folder that
/// may not be written has nothing to recover, only something to put right first.
pub fn choices(trouble: &Trouble) -> Vec<Choice> {
    match trouble {
        Trouble::Newer { .. } | Trouble::DiskFull { .. } | Trouble::Unwritable { .. } => {
            vec![Choice::Retry]
        }
        _ => vec![Choice::Recover, Choice::Retry],
    }
}

/// What `/api/info` and `/api/journal` say of the journal: nothing when it is sound.
pub fn told(shared: &Shared) -> Option<serde_json::Value> {
    let trouble = shared.trouble.as_ref()?;
    let refusal = refusal(trouble);
    Some(json!({
        "code": refusal.code,
        "params": refusal.params,
        "error": crate::refused::english(&refusal),
        "choices": choices(trouble),
    }))
}

pub async fn get(State(shared): State<Arc<Shared>>) -> Json<serde_json::Value> {
    Json(json!({ "trouble": told(&shared) }))
}

#[derive(Deserialize)]
pub struct Chosen {
    choice: Choice,
}

impl Shape for Chosen {
    const SHAPE: &'static str = "a choice is {\"choice\": \"recover\" | \"retry\"}";
}

/// Carries out the table's choice, answers with what was done, then asks for a restart.
pub async fn choose(
    _: TableOnly,
    State(shared): State<Arc<Shared>>,
    Body(Chosen { choice }): Body<Chosen>,
) -> Result<Json<serde_json::Value>, Refused> {
    let Some(trouble) = &shared.trouble else {
        return Err(refused(StatusCode::CONFLICT, refusals::JOURNAL_SOUND));
    };
    if !choices(trouble).contains(&choice) {
        return Err(refused(StatusCode::CONFLICT, refusals::JOURNAL_CHOICE));
    }
    // A second tap, or a second screen, while the first choice is carried out.
    if shared
        .chosen
        .swap(true, std::sync::atomic::Ordering::SeqCst)
    {
        return Err(refused(StatusCode::CONFLICT, refusals::JOURNAL_CHOSEN));
    }
    let answer = match choice {
        Choice::Retry => json!({ "choice": choice }),
        Choice::Recover => {
            let path = shared.data_dir.join(JOURNAL);
            let stamp = stamp();
            let done =
                tokio::task::spawn_blocking(move || seance_journal::recover(&path, &stamp)).await;
            match done {
                Ok(Ok(done)) => {
                    tracing::warn!(
                        "recovered {} games ({} entries, {} rows unreadable) into a new journal; the old one is kept as {}",
                        done.games,
                        done.entries,
                        done.unreadable,
                        done.kept_as.display()
                    );
                    json!({
                        "choice": choice,
                        "games": done.games,
                        "entries": done.entries,
                        "unreadable": done.unreadable,
                        "kept_as": done.kept_as.file_name().map(|n| n.to_string_lossy().into_owned()),
                    })
                }
                Ok(Err(e)) => {
                    return Err(Refused::new(
                        StatusCode::INTERNAL_SERVER_ERROR,
                        Refusal::new(refusals::JOURNAL).with("detail", e.to_string()),
                    ));
                }
                Err(_) => return Err(refused(StatusCode::INTERNAL_SERVER_ERROR, refusals::FAULT)),
            }
        }
    };
    // The shell starts the server again on the journal, on the same port.
    let _ = shared.restart.try_send(());
    Ok(Json(answer))
}

/// A stamp for the kept files' name: milliseconds since 1970, sortable (recovering never
/// writes over a name already kept).
fn stamp() -> String {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_millis())
        .to_string()
}
