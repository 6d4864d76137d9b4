//! The HTTP API (documented in `docs/API.md`) and the WebSocket that pushes changes.

use crate::refusals;
use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::Ordering;

use axum::extract::{ConnectInfo, DefaultBodyLimit, Path, State};
use axum::http::{StatusCode, Uri, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{any, delete, get, post};
use axum::{Json, Router, middleware};
use serde_json::json;

use crate::access::{self, Device, TableOnly};
use crate::games::{GameError, Games, Rewind, TimerAction, blocking};
use crate::phones::{Asking, Reading};
use crate::refused::{Refused, refused};
use crate::request::{Asked, BODY_LIMIT, Body, Page, Params, Shape, Which};
use crate::rulesets::{Carried, seats_page};
use crate::settings::{SetError, Settings};
use crate::shared::Shared;
use crate::{assets, bgstats, phones, qr, socket, trouble};
use seance_journal::{GameState, JournalError, Listing};
use seance_rules::{Edition, LevelBands, TrackSide};
use seance_timeline::{NoSuchRuleSet, Refusal, RuleBook, RuleSet, TimelineError};
use serde::Deserialize;

pub fn router(shared: Arc<Shared>) -> Router {
    Router::new()
        .route("/api/info", get(info))
        .route("/api/qr.png", get(qr_png))
        .route("/api/manifest.webmanifest", get(manifest))
        .route("/api/settings", get(get_settings).put(put_settings))
        .route("/api/ws", get(socket::socket))
        .route("/api/instance/focus", post(focus))
        .route("/api/journal", get(trouble::get).post(trouble::choose))
        .route("/api/games", get(list_games))
        .route(&format!("{}{{id}}", bgstats::SHORT), get(to_bgstats))
        .merge(crate::history::router())
        .merge(games(&shared, shared.games.clone()))
        .merge(games(&shared, shared.rummy.clone()))
        .route("/api/{*rest}", any(unknown_api))
        .fallback(assets::serve)
        .layer(DefaultBodyLimit::max(BODY_LIMIT))
        .layer(middleware::from_fn_with_state(
            shared.clone(),
            access::guard,
        ))
        .with_state(shared)
}

/// A rule set's games under its key (`/api/games`), holding its own store: new games,
/// views, commands, undo and redo, seats.
fn games<G: RuleBook>(shared: &Arc<Shared>, games: Arc<Games<G>>) -> Router<Arc<Shared>> {
    let base = format!("/api/{}", G::RULE_SET.key());
    Router::new()
        .route(&base, post(create_game::<G>))
        .route(&format!("{base}/{{id}}"), get(game_view::<G>))
        .route(&format!("{base}/{{id}}/commands"), post(game_command::<G>))
        .route(&format!("{base}/{{id}}/undo"), post(undo::<G>))
        .route(&format!("{base}/{{id}}/redo"), post(redo::<G>))
        .route(&format!("{base}/{{id}}/shown"), post(shown::<G>))
        .route(&format!("{base}/{{id}}/set-aside"), post(set_aside::<G>))
        .route(&format!("{base}/{{id}}/archive"), post(archive::<G>))
        .route(&format!("{base}/{{id}}/rematch"), post(rematch::<G>))
        .route(&format!("{base}/{{id}}/bgstats"), get(bgstats::<G>))
        .route(&format!("{base}/{{id}}/bgstats.png"), get(bgstats_png::<G>))
        .route(
            &format!("{base}/{{id}}/seats"),
            get(phones::list).post(phones::take::<G>),
        )
        .route(
            &format!("{base}/{{id}}/seats/{{seat}}"),
            delete(phones::free::<G>),
        )
        .route(
            &format!("{base}/{{id}}/seats/{{seat}}/invitation"),
            post(phones::invite::<G>).delete(phones::uninvite),
        )
        .route(&format!("{base}/{{id}}/timer"), post(timer::<G>))
        .route(&format!("{base}/{{id}}/knock"), post(phones::knock::<G>))
        .with_state(Carried {
            games,
            shared: shared.clone(),
        })
}

/// The table's facts, as this device may know them: only the table is told its own link.
async fn info(State(shared): State<Arc<Shared>>, device: Device) -> Json<serde_json::Value> {
    Json(json!({
        "device": device.name(),
        "join_url": shared.join_url,
        "join_code": shared.code.spaced(),
        "table_url": (device == Device::Table).then_some(&shared.table_url),
        "port": shared.port,
        "version": env!("CARGO_PKG_VERSION"),
        "devices": shared.devices.load(Ordering::Relaxed),
        "journal": trouble::told(&shared),
        "started": shared.started as u64,
        // What a setup screen asks of the rules before there is a game: colours per psychic
        // player by the number at the table, how long a name may be, and the expansions and
        // promo cards a collection may hold.
        "setup": {
            "expansions": seance_rules::Expansion::names(),
            "promos": seance_rules::PROMOS.collect::<Vec<_>>(),
            // How many play each edition, the ghost included; Mystery Rummy's players, and
            // the cards each is dealt by their number.
            "players": Edition::ALL.map(|e| (e.name().to_owned(), json!(e.players().collect::<Vec<_>>())))
                .into_iter().collect::<serde_json::Map<_, _>>(),
            // The classic game's numbers at the table that end with the straw poll, where
            // the rulebook's printing matters.
            "straw_poll": Edition::Classic.players().filter(|&n| Edition::Classic.straw_poll(n)).collect::<Vec<_>>(),
            "rummy": {
                "players": seance_rummy::PLAYERS.collect::<Vec<_>>(),
                "deal": seance_rummy::PLAYERS.map(|n| (n.to_string(), json!(seance_rummy::deal(n))))
                    .collect::<serde_json::Map<_, _>>(),
            },
            // The classic game's counts hold the new edition's.
            "colours_each": Edition::Classic.players().map(|n| (n.to_string(), json!(seance_rules::colours_each(n))))
                .collect::<serde_json::Map<_, _>>(),
            "name_chars": seance_timeline::NAME_CHARS,
            // The classic box's sand timer, and the lengths a house rule may give it.
            "sand_timer": {
                "box": seance_rules::BOX_SAND_TIMER,
                "least": seance_rules::SAND_TIMER_SECONDS.start(),
                "most": seance_rules::SAND_TIMER_SECONDS.end(),
            },
            // The ages the straw poll's tie-break takes.
            "ages": { "least": seance_rules::AGES.start(), "most": seance_rules::AGES.end() },
            // The classic track's side by the number at the table, and where each side's
            // bands may start as far as the rulebooks know: the ranges the table's own
            // track is read into.
            "track_sides": Edition::Classic.players().map(|n| (n.to_string(), json!(seance_rules::track_side(Edition::Classic, n))))
                .collect::<serde_json::Map<_, _>>(),
            "track_bands": ([TrackSide::FourFive, TrackSide::SixSeven].into_iter())
                .map(|side| (side.label().to_owned(), json!(LevelBands::rulebook(side))))
                .collect::<serde_json::Map<_, _>>(),
        },
    }))
}

/// The join link as a QR code; with `?games=ID` (or `?rummy=ID`), straight to that game's
/// seats.
async fn qr_png(State(shared): State<Arc<Shared>>, Which(which): Which) -> Response {
    let page = which.map_or_else(String::new, |(rule_set, id)| seats_page(rule_set, id));
    (
        [(header::CONTENT_TYPE, "image/png")],
        qr::png(&format!("{}{page}", shared.join_url)),
    )
        .into_response()
}

/// The web app manifest, so a phone (or the table's tablet) can add Séance to its home
/// screen: asked with the device's own secret (`?code=`), it opens again with that secret,
/// as a home screen app may not share the browser's storage (iOS).
async fn manifest(State(shared): State<Arc<Shared>>, device: Device) -> Response {
    let start = match device {
        Device::Table => format!("/?key={}", shared.key),
        Device::Joined => format!("/?code={}", shared.code),
    };
    let icon = |size: u32| {
        json!({"src": assets::versioned(&format!("icons/{size}x{size}.png")),
               "sizes": format!("{size}x{size}"), "type": "image/png", "purpose": "any"})
    };
    let manifest = json!({
        "id": "/",
        "name": "Séance",
        "short_name": "Séance",
        "start_url": start,
        "scope": "/",
        "display": "standalone",
        "background_color": THEME,
        "theme_color": THEME,
        "icons": [icon(192), icon(512), {"src": assets::versioned("favicon.svg"), "sizes": "any", "type": "image/svg+xml"}],
    });
    (
        [
            (header::CONTENT_TYPE, "application/manifest+json"),
            // It carries a secret: kept by no cache.
            (header::CACHE_CONTROL, "no-store"),
        ],
        manifest.to_string(),
    )
        .into_response()
}

/// The dark of the screens (`--night` in `ui/style.css`, `theme-color` in `ui/index.html`).
const THEME: &str = "#120b1c";

async fn get_settings(State(shared): State<Arc<Shared>>) -> Json<Settings> {
    Json(shared.settings.get())
}

async fn put_settings(
    _: TableOnly,
    State(shared): State<Arc<Shared>>,
    Body(settings): Body<Settings>,
) -> Response {
    match shared.settings.set(settings.clone()) {
        Ok(()) => {
            shared.broadcast(json!({ "type": "settings", "settings": settings }));
            Json(settings).into_response()
        }
        Err(SetError::Invalid(refusal)) => {
            Refused::new(StatusCode::UNPROCESSABLE_ENTITY, refusal).into_response()
        }
        Err(SetError::Io(e)) => Refused::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            Refusal::new(refusals::SETTINGS_NOT_SAVED).with("detail", e.to_string()),
        )
        .into_response(),
    }
}

/// Asked by a second launch on this machine: bring the table window to the front.
async fn focus(
    State(shared): State<Arc<Shared>>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
) -> Response {
    if !peer.ip().is_loopback() {
        return refused(StatusCode::FORBIDDEN, refusals::FOCUS_FROM_HERE).into_response();
    }
    let _ = shared.focus.try_send(());
    StatusCode::NO_CONTENT.into_response()
}

async fn unknown_api(uri: Uri) -> Response {
    Refused::new(
        StatusCode::NOT_FOUND,
        Refusal::new(refusals::NO_ENDPOINT).with("path", uri.path()),
    )
    .into_response()
}

/// What a list of games may ask for: `?state=playing|finished|archived&edition=new&limit=N&offset=N`.
#[derive(Deserialize)]
struct ListQuery {
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

async fn list_games(
    State(shared): State<Arc<Shared>>,
    Params(query): Params<ListQuery>,
    GamesPage { limit, offset }: GamesPage,
) -> Response {
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
    let games = blocking(move || Ok(shared.journal().games(&listing)?)).await;
    match games {
        Ok(list) => Json(
            list.into_iter()
                .map(|g| {
                    json!({ "id": g.id, "ruleset": g.ruleset, "edition": g.edition, "status": g.status,
                            "players": g.players, "created_at": g.created_at, "updated_at": g.updated_at })
                })
                .collect::<Vec<_>>(),
        )
        .into_response(),
        Err(e) => e.into_response(),
    }
}

#[derive(Deserialize)]
struct NewGame<S> {
    setup: S,
    seed: Option<u64>,
}

impl<S> Shape for NewGame<S> {
    const SHAPE: &'static str = "a new game is {\"setup\": {…}} (see docs/API.md)";
}

async fn create_game<G: RuleBook>(
    _: TableOnly,
    State(games): State<Arc<Games<G>>>,
    Body(NewGame { setup, seed }): Body<NewGame<G::Setup>>,
) -> Response {
    let seed = seed.unwrap_or_else(random_seed);
    let start = match G::start(setup, seed) {
        Ok(start) => start,
        Err(rule) => return GameError::Rule(rule).into_response(),
    };
    match blocking(move || games.create(start)).await {
        Ok(id) => (StatusCode::CREATED, Json(json!({ "id": id, "version": 0 }))).into_response(),
        Err(e) => e.into_response(),
    }
}

fn random_seed() -> u64 {
    let mut bytes = [0u8; 8];
    getrandom::fill(&mut bytes).expect("the system's random source");
    u64::from_le_bytes(bytes)
}

async fn game_view<G: RuleBook>(
    State(shared): State<Arc<Shared>>,
    State(games): State<Arc<Games<G>>>,
    Reading { id, role, who }: Reading<G>,
) -> Response {
    match blocking(move || shared.seated(&games, id, role, &who)).await {
        Ok(snapshot) => Json(snapshot).into_response(),
        Err(e) => e.into_response(),
    }
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
async fn game_command<G: RuleBook>(
    State(shared): State<Arc<Shared>>,
    State(games): State<Arc<Games<G>>>,
    Reading { id, role, who }: Reading<G>,
    Body(Sent {
        version,
        command,
        action,
    }): Body<Sent<G::Command>>,
) -> Response {
    if action.as_ref().is_some_and(|a| a.len() > ACTION_ID) {
        return Refused::new(
            StatusCode::BAD_REQUEST,
            Refusal::new(refusals::ACTION_ID).with("most", ACTION_ID),
        )
        .into_response();
    }
    let answer = blocking(move || {
        let made = games.command(id, version, &who, command, action)?;
        Ok(json!({
            "version": made.version,
            "held": made.held,
            "snapshot": shared.seated(&games, id, role, &who)?,
        }))
    });
    match answer.await {
        Ok(answer) => Json(answer).into_response(),
        Err(e) => e.into_response(),
    }
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

async fn undo<G: RuleBook>(
    State(games): State<Arc<Games<G>>>,
    asking: Asking<G>,
    Body(At { version }): Body<At>,
) -> Response {
    rewind(games, asking, version, Rewind::Undo).await
}

async fn redo<G: RuleBook>(
    State(games): State<Arc<Games<G>>>,
    asking: Asking<G>,
    Body(At { version }): Body<At>,
) -> Response {
    rewind(games, asking, version, Rewind::Redo).await
}

async fn rewind<G: RuleBook>(
    games: Arc<Games<G>>,
    Asking { id, who }: Asking<G>,
    version: u64,
    how: Rewind,
) -> Response {
    respond_version(blocking(move || games.rewind(id, version, &who, how)).await)
}

async fn timer<G: RuleBook>(
    State(games): State<Arc<Games<G>>>,
    Asking { id, who }: Asking<G>,
    Body(action): Body<TimerAction>,
) -> Response {
    match blocking(move || games.timer(id, &who, action)).await {
        Ok(view) => Json(view).into_response(),
        Err(e) => e.into_response(),
    }
}

/// The table has shown the game up to `version`: what it held back reaches the other
/// screens now.
async fn shown<G: RuleBook>(
    _: TableOnly,
    State(games): State<Arc<Games<G>>>,
    Path(id): Path<i64>,
    Body(At { version }): Body<At>,
) -> StatusCode {
    games.shown(id, version);
    StatusCode::NO_CONTENT
}

async fn set_aside<G: RuleBook>(
    _: TableOnly,
    State(games): State<Arc<Games<G>>>,
    Path(id): Path<i64>,
) -> Response {
    respond_version(blocking(move || games.set_aside_damage(id)).await)
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
    Path(id): Path<i64>,
    Body(Archive { archived }): Body<Archive>,
) -> Response {
    match blocking(move || games.archive(id, archived)).await {
        Ok(()) => StatusCode::NO_CONTENT.into_response(),
        Err(e) => e.into_response(),
    }
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
    Path(id): Path<i64>,
    again: Option<Body<Again>>,
) -> Response {
    let Again { keep } = again.map(|Body(again)| again).unwrap_or_default();
    let seed = random_seed();
    let made = blocking(move || games.rematch(id, &shared.seats, &keep, seed)).await;
    match made {
        Ok(next) => Json(json!({ "id": next })).into_response(),
        Err(e) => e.into_response(),
    }
}

/// A finished game as BG Stats takes it: `{"url", "play"}`, the link that opens BG Stats
/// with the play filled in, and the play itself.
async fn bgstats<G: RuleBook>(
    State(shared): State<Arc<Shared>>,
    State(games): State<Arc<Games<G>>>,
    Path(id): Path<i64>,
) -> Response {
    match sent_to_bgstats(&shared, games, id).await {
        Ok((url, play)) => Json(json!({ "url": url, "play": play })).into_response(),
        Err(e) => e.into_response(),
    }
}

/// A QR code for a phone to scan off the table (`?code=`, as images send no headers): the
/// game's short link, which forwards to BG Stats ([`to_bgstats`]). Asked only once the
/// game is over, like the link itself.
async fn bgstats_png<G: RuleBook>(
    State(shared): State<Arc<Shared>>,
    State(games): State<Arc<Games<G>>>,
    Path(id): Path<i64>,
) -> Response {
    let link = bgstats::short_link(&shared.origin, id, &shared.code.to_string());
    match blocking(move || games.finished(id)).await {
        Ok(_) => ([(header::CONTENT_TYPE, "image/png")], qr::png(&link)).into_response(),
        Err(e) => e.into_response(),
    }
}

/// The short link a phone scanned off the table: on to BG Stats with the play filled in,
/// whichever rule set the game is of.
async fn to_bgstats(State(shared): State<Arc<Shared>>, Path(id): Path<i64>) -> Response {
    let journal = shared.clone();
    let ruleset = blocking(move || Ok(journal.journal().ruleset(id)?)).await;
    let sent = match ruleset.map(|name| name.parse()) {
        Ok(Ok(RuleSet::Mysterium)) => sent_to_bgstats(&shared, shared.games.clone(), id).await,
        Ok(Ok(RuleSet::MysteryRummy)) => sent_to_bgstats(&shared, shared.rummy.clone(), id).await,
        Ok(Err(NoSuchRuleSet)) => Err(GameError::Journal(JournalError::NoSuchGame(id))),
        Err(e) => Err(e),
    };
    match sent {
        Ok((url, _)) => (StatusCode::SEE_OTHER, [(header::LOCATION, url)]).into_response(),
        Err(e) => e.into_response(),
    }
}

async fn sent_to_bgstats<G: RuleBook>(
    shared: &Shared,
    games: Arc<Games<G>>,
    id: i64,
) -> Result<(String, serde_json::Value), GameError> {
    let journal = shared.identity.clone();
    let finished = blocking(move || games.finished(id)).await?;
    let offset = bgstats::table_offset(finished.began);
    let play = bgstats::play(&finished, &journal, id, offset);
    Ok((bgstats::link(&play), play))
}

fn respond_version(result: Result<u64, GameError>) -> Response {
    match result {
        Ok(version) => Json(json!({ "version": version })).into_response(),
        Err(e) => e.into_response(),
    }
}

/// A game's refusal as the API sends it: a rule's (422), not this device's (403), faster
/// than a person plays (429), stale (409), or the journal's.
impl IntoResponse for GameError {
    fn into_response(self) -> Response {
        let (status, refusal) = match self {
            GameError::Rule(refusal) => (StatusCode::UNPROCESSABLE_ENTITY, refusal),
            GameError::Forbidden(refusal) => (StatusCode::FORBIDDEN, refusal),
            GameError::TooFast(refusal) => (StatusCode::TOO_MANY_REQUESTS, refusal),
            GameError::Stale { sent, now } => (
                StatusCode::CONFLICT,
                Refusal::new(refusals::STALE)
                    .with("sent", sent)
                    .with("now", now),
            ),
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
        Refused::new(status, refusal).into_response()
    }
}
