//! The list of every rule set's games (`/api/games`), and each rule set's games under its
//! key (`/api/mysterium`, `/api/rummy`): a new game, a role's view, commands, undo and redo,
//! the sand timer, what the table has shown, a damaged tail set aside, a game put away, a
//! rematch; their seats are the phones' (`crate::http::phones`), their plays BG Stats'
//! (`super::plays`).

use std::sync::Arc;

use axum::extract::{FromRef, State};
use axum::http::StatusCode;
use axum::routing::{delete, get, post};
use axum::{Json, Router};
use seance_journal::{GameState, Listing};
use seance_timeline::{Listed, Refusal, RuleBook, RuleSet, Seat};
use serde::Deserialize;
use serde_json::{Value, json};

use super::plays;
use crate::access::TableOnly;
use crate::callers::{Asking, Reading};
use crate::games::{GameError, Games, Rewind, TimerAction, blocking};
use crate::http::phones;
use crate::refusals;
use crate::refused::Refused;
use crate::request::{Asked, Body, GameId, Page, Params, Shape};
use crate::rulesets::{Registered, rule_set};
use crate::settings::Settings;
use crate::shared::Shared;

/// Every rule set's games, each under its key.
pub fn routers(shared: &Arc<Shared>) -> Router<Arc<Shared>> {
    RuleSet::ALL
        .into_iter()
        .fold(Router::new(), |routers, rule_set| {
            routers.merge(rule_set!(rule_set, G => router::<G>(shared)))
        })
}

/// Every endpoint of `G`'s games, holding its own store.
fn router<G: Registered>(shared: &Arc<Shared>) -> Router<Arc<Shared>> {
    let base = format!("/api/{}", G::RULE_SET.key());
    Router::new()
        .route(&base, post(create::<G>))
        .route(&format!("{base}/{{id}}"), get(view::<G>))
        .route(&format!("{base}/{{id}}/commands"), post(command::<G>))
        .route(&format!("{base}/{{id}}/undo"), post(undo::<G>))
        .route(&format!("{base}/{{id}}/redo"), post(redo::<G>))
        .route(&format!("{base}/{{id}}/shown"), post(shown::<G>))
        .route(&format!("{base}/{{id}}/set-aside"), post(set_aside::<G>))
        .route(&format!("{base}/{{id}}/archive"), post(archive::<G>))
        .route(&format!("{base}/{{id}}/rematch"), post(rematch::<G>))
        .route(&format!("{base}/{{id}}/bgstats"), get(plays::play::<G>))
        .route(&format!("{base}/{{id}}/bgstats.png"), get(plays::png::<G>))
        .route(
            &format!("{base}/{{id}}/seats"),
            get(phones::list::<G>).post(phones::take::<G>),
        )
        .route(
            &format!("{base}/{{id}}/seats/{{seat}}"),
            delete(phones::free::<G>),
        )
        .route(
            &format!("{base}/{{id}}/seats/{{seat}}/invitation"),
            post(phones::invite::<G>).delete(phones::uninvite::<G>),
        )
        .route(&format!("{base}/{{id}}/timer"), post(timer::<G>))
        .route(&format!("{base}/{{id}}/knock"), post(phones::knock::<G>))
        .with_state(Carried {
            games: shared.rule_sets.games::<G>().clone(),
            shared: shared.clone(),
        })
}

/// A rule set's router's state: its games, and what every request shares.
struct Carried<G: RuleBook> {
    games: Arc<Games<G>>,
    shared: Arc<Shared>,
}

impl<G: RuleBook> Clone for Carried<G> {
    fn clone(&self) -> Self {
        Carried {
            games: self.games.clone(),
            shared: self.shared.clone(),
        }
    }
}

impl<G: RuleBook> FromRef<Carried<G>> for Arc<Shared> {
    fn from_ref(carried: &Carried<G>) -> Arc<Shared> {
        carried.shared.clone()
    }
}

impl<G: RuleBook> FromRef<Carried<G>> for Arc<Games<G>> {
    fn from_ref(carried: &Carried<G>) -> Arc<Games<G>> {
        carried.games.clone()
    }
}

/// What a list of games may ask for: `?state=playing|finished|archived&edition=new&limit=N&offset=N`.
#[derive(Deserialize)]
pub struct ListQuery {
    state: Option<ListState>,
    edition: Option<String>,
}

impl Asked for ListQuery {
    const REFUSED: &'static str = refusals::LIST_QUERY;
}

#[derive(Deserialize, Clone, Copy)]
#[serde(rename_all = "snake_case")]
enum ListState {
    Playing,
    Finished,
    Archived,
}

/// A page of games: a hundred unless asked, at most 200, never the whole history at once.
type GamesPage = Page<100, 200>;

/// The games of every rule set, the latest first.
pub async fn list(
    State(shared): State<Arc<Shared>>,
    Params(query): Params<ListQuery>,
    GamesPage { limit, offset }: GamesPage,
) -> Result<Json<Vec<Value>>, Refused> {
    let listing = Listing {
        state: query.state.map(|s| match s {
            ListState::Playing => GameState::Playing,
            ListState::Finished => GameState::Finished,
            ListState::Archived => GameState::Archived,
        }),
        edition: query.edition,
        limit,
        offset,
    };
    let games = blocking(move || Ok(shared.journal().games(&listing)?)).await?;
    Ok(Json(
        games
            .into_iter()
            .map(|g| {
                // What the lists call it: a newer build's rule set, nothing this build knows.
                let title = (g.ruleset.parse().ok())
                    .map(|r: RuleSet| rule_set!(r, G => G::titled(g.edition.as_deref()).source));
                json!({ "id": g.id, "ruleset": g.ruleset, "edition": g.edition, "title": title,
                        "status": g.status.name(), "players": g.players,
                        "created_at": g.created_at, "updated_at": g.updated_at })
            })
            .collect(),
    ))
}

#[derive(Deserialize)]
struct NewGame<S> {
    setup: S,
    seed: Option<u64>,
}

impl<S> Shape for NewGame<S> {
    const SHAPE: &'static str = "a new game is {\"setup\": {…}} (see docs/API.md)";
}

async fn create<G: RuleBook>(
    _: TableOnly,
    State(games): State<Arc<Games<G>>>,
    Body(NewGame { setup, seed }): Body<NewGame<G::Setup>>,
) -> Result<(StatusCode, Json<Value>), Refused> {
    let seed = seed.unwrap_or_else(random_seed);
    let start = G::start(setup, seed).map_err(GameError::Rule)?;
    let id = blocking(move || games.create(start)).await?;
    Ok((StatusCode::CREATED, Json(json!({ "id": id, "version": 0 }))))
}

fn random_seed() -> u64 {
    let mut bytes = [0u8; 8];
    getrandom::fill(&mut bytes).expect("the system's random source");
    u64::from_le_bytes(bytes)
}

async fn view<G: RuleBook>(
    State(shared): State<Arc<Shared>>,
    State(games): State<Arc<Games<G>>>,
    Reading { id, role, who }: Reading<G>,
) -> Result<Json<impl serde::Serialize>, Refused> {
    Ok(Json(
        blocking(move || shared.seated(&games, id, role, &who)).await?,
    ))
}

#[derive(Deserialize)]
struct Sent<C> {
    version: u64,
    command: C,
    /// The client's id for this action: the same id again is the same action.
    action: Option<String>,
}

impl<C> Shape for Sent<C> {
    const SHAPE: &'static str = "a command is {\"version\": N, \"command\": {\"type\": …}, \"action\": ID?} (see docs/API.md)";
}

/// The longest client action id.
const ACTION_ID: usize = 64;

/// A command from a screen (a phone, or the table reading as `?role=R`); the answer
/// carries that screen's new snapshot, so one request is one action.
async fn command<G: RuleBook>(
    State(shared): State<Arc<Shared>>,
    State(games): State<Arc<Games<G>>>,
    Reading { id, role, who }: Reading<G>,
    Body(Sent {
        version,
        command,
        action,
    }): Body<Sent<G::Command>>,
) -> Result<Json<Value>, Refused> {
    if action.as_ref().is_some_and(|a| a.len() > ACTION_ID) {
        return Err(Refused::new(
            StatusCode::BAD_REQUEST,
            Refusal::new(refusals::ACTION_ID).with("most", ACTION_ID),
        ));
    }
    let answer = blocking(move || {
        let made = games.command(id, version, &who, command, action)?;
        Ok(json!({
            "version": made.version,
            "held": made.held,
            "snapshot": shared.seated(&games, id, role, &who)?,
        }))
    });
    Ok(Json(answer.await?))
}

#[derive(Deserialize)]
struct At {
    version: u64,
}

impl Shape for At {
    const SHAPE: &'static str = "undo and redo take {\"version\": N}";
}

impl Shape for TimerAction {
    const SHAPE: &'static str = "the timer takes {\"action\": \"pause\" | \"resume\" | \"reset\"} or {\"action\": \"duration\", \"seconds\": N}";
}

impl Shape for Settings {
    const SHAPE: &'static str = "settings must be a JSON object such as {\"language\": \"fr\"}";
}

/// A game's new version, as undo, redo and setting a damaged tail aside answer.
fn version(version: u64) -> Json<Value> {
    Json(json!({ "version": version }))
}

async fn undo<G: RuleBook>(
    State(games): State<Arc<Games<G>>>,
    asking: Asking<G>,
    Body(At { version }): Body<At>,
) -> Result<Json<Value>, Refused> {
    rewind(games, asking, version, Rewind::Undo).await
}

async fn redo<G: RuleBook>(
    State(games): State<Arc<Games<G>>>,
    asking: Asking<G>,
    Body(At { version }): Body<At>,
) -> Result<Json<Value>, Refused> {
    rewind(games, asking, version, Rewind::Redo).await
}

async fn rewind<G: RuleBook>(
    games: Arc<Games<G>>,
    Asking { id, who }: Asking<G>,
    at: u64,
    how: Rewind,
) -> Result<Json<Value>, Refused> {
    Ok(version(
        blocking(move || games.rewind(id, at, &who, how)).await?,
    ))
}

async fn timer<G: RuleBook>(
    State(games): State<Arc<Games<G>>>,
    Asking { id, who }: Asking<G>,
    Body(action): Body<TimerAction>,
) -> Result<Json<impl serde::Serialize>, Refused> {
    Ok(Json(blocking(move || games.timer(id, &who, action)).await?))
}

/// The table has shown the game up to `version`: what it held back reaches the other
/// screens now.
async fn shown<G: RuleBook>(
    _: TableOnly,
    State(games): State<Arc<Games<G>>>,
    GameId(id): GameId,
    Body(At { version }): Body<At>,
) -> StatusCode {
    games.shown(id, version);
    StatusCode::NO_CONTENT
}

async fn set_aside<G: RuleBook>(
    _: TableOnly,
    State(games): State<Arc<Games<G>>>,
    GameId(id): GameId,
) -> Result<Json<Value>, Refused> {
    Ok(version(blocking(move || games.set_aside_damage(id)).await?))
}

/// Whether a game in play is put away or brought back.
#[derive(Deserialize)]
struct Archive {
    archived: bool,
}

impl Shape for Archive {
    const SHAPE: &'static str = "archive takes {\"archived\": true | false}";
}

async fn archive<G: RuleBook>(
    _: TableOnly,
    State(games): State<Arc<Games<G>>>,
    GameId(id): GameId,
    Body(Archive { archived }): Body<Archive>,
) -> Result<StatusCode, Refused> {
    blocking(move || games.archive(id, archived)).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// The seats whose phones the table keeps in a rematch: `{"keep": ["ghost", "psychic:1"]}`.
#[derive(Deserialize, Default)]
struct Again {
    #[serde(default)]
    keep: Vec<String>,
}

impl Shape for Again {
    const SHAPE: &'static str =
        "a rematch is {\"keep\": [SEAT, …]}, the seats whose phones keep them";
}

/// A new game with this one's players and settings, and new draws; the phones of the seats
/// the table keeps (none without a body) keep them.
async fn rematch<G: RuleBook>(
    _: TableOnly,
    State(shared): State<Arc<Shared>>,
    State(games): State<Arc<Games<G>>>,
    GameId(id): GameId,
    again: Option<Body<Again>>,
) -> Result<Json<Value>, Refused> {
    let Again { keep } = again.map(|Body(again)| again).unwrap_or_default();
    // A name that is no seat (the table's) is held by no phone: there is nothing to keep.
    let keep: Vec<Seat<G::Role>> = keep.iter().filter_map(|seat| seat.parse().ok()).collect();
    let seed = random_seed();
    let next = blocking(move || games.rematch(id, &shared.seats, &keep, seed)).await?;
    Ok(Json(json!({ "id": next })))
}
