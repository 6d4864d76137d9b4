//! Games over the API: commands with versions, refusals that change nothing, undo and
//! redo, per-role views pushed over WebSockets, and a restart that loses nothing.

mod support;

use reqwest::{Method, StatusCode};
use serde_json::{Value, json};
use support::{Sent, Socket, Table, error_of, next_json, refused_as, table};

fn five_players() -> Value {
    json!({
        "ghost": "Laura",
        "players": [
            {"name": "Stephanie", "colours": ["red"]},
            {"name": "Alex", "colours": ["blue"]},
            {"name": "Carl", "colours": ["green"], "age": 40},
            {"name": "Paul", "colours": ["white"]}
        ],
        "difficulty": "medium",
        "secrets": "app_kept"
    })
}

async fn create(t: &Table) -> i64 {
    let made = t
        .api(Method::POST, "/mysterium")
        .json(&json!({"setup": five_players(), "seed": 7}))
        .sent()
        .await;
    assert_eq!(made.status(), StatusCode::CREATED);
    made.json::<Value>().await.unwrap()["id"].as_i64().unwrap()
}

async fn send(t: &Table, game: i64, version: u64, command: Value) -> reqwest::Response {
    t.api(Method::POST, &format!("/mysterium/{game}/commands"))
        .json(&json!({"version": version, "command": command}))
        .sent()
        .await
}

/// The next view pushed on `socket`, skipping other messages.
async fn next_view(socket: &mut Socket) -> Value {
    loop {
        let message = next_json(socket).await;
        if message["type"] == "view" {
            return message;
        }
    }
}

async fn view(t: &Table, game: i64, role: &str) -> Value {
    let got = t
        .api(Method::GET, &format!("/mysterium/{game}?role={role}"))
        .sent()
        .await;
    assert_eq!(got.status(), StatusCode::OK);
    got.json().await.unwrap()
}

#[tokio::test]
async fn a_game_is_created_played_and_listed() {
    let t = table().await;
    let game = create(&t).await;
    let table_view = view(&t, game, "table").await;
    assert_eq!(table_view["version"], 0);
    assert_eq!(
        table_view["view"]["layout"]["characters"]
            .as_array()
            .unwrap()
            .len(),
        7,
        "5 players, Medium → 7"
    );
    assert_eq!(table_view["view"]["crows_left"], 3);
    assert!(table_view["view"]["assignments"].is_null());
    let ghost = view(&t, game, "ghost").await;
    assert_eq!(ghost["view"]["assignments"].as_array().unwrap().len(), 4);

    let ok = send(&t, game, 0, json!({"type": "give_vision", "psychic": 2})).await;
    assert_eq!(ok.status(), StatusCode::OK);
    assert_eq!(ok.json::<Value>().await.unwrap()["version"], 1);

    let list: Value = support::table_json(&t, "/games").await;
    assert_eq!(list[0]["id"], game);
    assert_eq!(list[0]["status"], "playing");
    assert_eq!(
        list[0]["players"],
        json!(["Laura", "Stephanie", "Alex", "Carl", "Paul"])
    );
}

#[tokio::test]
async fn refusals_say_why_and_change_nothing() {
    let t = table().await;
    let game = create(&t).await;
    send(&t, game, 0, json!({"type": "give_vision", "psychic": 0})).await;
    let before = view(&t, game, "ghost").await;

    let again = send(&t, game, 1, json!({"type": "give_vision", "psychic": 0})).await;
    assert_eq!(again.status(), StatusCode::UNPROCESSABLE_ENTITY);
    let body: Value = again.json().await.unwrap();
    assert_eq!(body["code"], seance_rules::refusals::ONE_VISION_PER_TURN);
    assert_eq!(body["params"]["waiting"], json!(["Alex", "Carl", "Paul"]));
    assert!(
        body["error"]
            .as_str()
            .unwrap()
            .contains("still waiting: Alex, Carl, Paul"),
        "the English words: {body}"
    );

    // Sent on a version the game never had: the screen looks again.
    let (status, why) =
        error_of(send(&t, game, 3, json!({"type": "give_vision", "psychic": 1})).await).await;
    assert_eq!(status, StatusCode::CONFLICT);
    assert!(
        why.code == seance_timeline::refusals::STALE && why.params == json!({"sent": 3, "now": 1}),
        "{why}"
    );

    refused_as(
        send(&t, game, 1, json!({"type": "summon_spirits"})).await,
        StatusCode::BAD_REQUEST,
        seance_server::refusals::BAD_REQUEST,
    )
    .await;

    let (status, _) = error_of(send(&t, 999, 0, json!({"type": "use_crow"})).await).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    let why = refused_as(
        t.api(Method::GET, &format!("/mysterium/{game}?role=medium"))
            .sent()
            .await,
        StatusCode::BAD_REQUEST,
        seance_server::refusals::NO_SUCH_ROLE,
    )
    .await;
    // Sent twice, the last `role` is the one read, and it is worded with what was sent.
    assert!(why.error.contains("medium"), "{why}");
    let twice = t
        .api(
            Method::GET,
            &format!("/mysterium/{game}?role=medium&role=table"),
        )
        .sent()
        .await;
    assert_eq!(twice.status(), StatusCode::OK);
    let (status, why) = error_of(
        t.api(Method::GET, &format!("/mysterium/{game}?role=psychic:4"))
            .sent()
            .await,
    )
    .await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(
        why.code == seance_rules::refusals::NO_SUCH_PSYCHIC && why.params["last"] == 3,
        "{why}"
    );

    let bad_setup = t.api(Method::POST, "/mysterium")
        .json(&json!({"setup": {"ghost": "Laura", "players": [], "difficulty": "easy", "secrets": "paper"}}))
        .sent().await;
    assert_eq!(bad_setup.status(), StatusCode::UNPROCESSABLE_ENTITY);

    assert_eq!(view(&t, game, "ghost").await, before);
}

#[tokio::test]
async fn undo_and_redo_are_one_request_away() {
    let t = table().await;
    let game = create(&t).await;
    let fresh = view(&t, game, "table").await["view"].clone();
    send(&t, game, 0, json!({"type": "use_crow"})).await;
    let undone = t
        .api(Method::POST, &format!("/mysterium/{game}/undo"))
        .json(&json!({"version": 1}))
        .sent()
        .await;
    assert_eq!(undone.json::<Value>().await.unwrap()["version"], 2);
    let now = view(&t, game, "table").await;
    assert_eq!(now["view"], fresh);
    assert_eq!(now["can_redo"], true);
    let redone = t
        .api(Method::POST, &format!("/mysterium/{game}/redo"))
        .json(&json!({"version": 2}))
        .sent()
        .await;
    assert_eq!(redone.status(), StatusCode::OK);
    assert_eq!(view(&t, game, "table").await["view"]["crows_left"], 2);
    refused_as(
        t.api(Method::POST, &format!("/mysterium/{game}/redo"))
            .json(&json!({"version": 3}))
            .sent()
            .await,
        StatusCode::CONFLICT,
        seance_server::refusals::NOTHING_TO_REDO,
    )
    .await;
}

#[tokio::test]
async fn each_screen_is_pushed_its_own_role_view() {
    let t = table().await;
    let game = create(&t).await;
    let mut table_screen = t
        .socket_with(&format!("&mysterium={game}&role=table"))
        .await;
    let mut ghost_phone = t
        .socket_with(&format!("&mysterium={game}&role=ghost"))
        .await;
    let table_first = next_view(&mut table_screen).await;
    assert!(table_first["snapshot"]["view"]["assignments"].is_null());
    let ghost_first = next_view(&mut ghost_phone).await;
    assert!(ghost_first["snapshot"]["view"]["assignments"].is_array());

    send(&t, game, 0, json!({"type": "give_vision", "psychic": 3})).await;
    for socket in [&mut table_screen, &mut ghost_phone] {
        let pushed = next_view(socket).await;
        assert_eq!(pushed["snapshot"]["version"], 1);
        assert_eq!(pushed["snapshot"]["view"]["psychics"][3]["vision"], true);
    }
    let pushed_to_table = serde_json::to_string(&table_first).unwrap();
    let secrets = ghost_first["snapshot"]["view"]["assignments"].to_string();
    assert!(!pushed_to_table.contains(&secrets));

    let refused = t
        .try_socket(&t.key, &format!("&mysterium={game}&role=spirit"))
        .await;
    assert!(refused.is_err(), "an unknown role is refused");
}

#[tokio::test]
async fn a_house_rule_sand_timer_is_part_of_the_setup_and_survives_a_restart() {
    let t = table().await;
    let mut setup = five_players();
    setup["sand_timer"] = json!(90);
    let made = t
        .api(Method::POST, "/mysterium")
        .json(&json!({ "setup": setup }))
        .sent()
        .await;
    let game = made.json::<Value>().await.unwrap()["id"].as_i64().unwrap();
    assert_eq!(
        view(&t, game, "table").await["timer"]["duration_ms"],
        90_000
    );
    let t = support::restart(t).await;
    assert_eq!(
        view(&t, game, "table").await["timer"]["duration_ms"],
        90_000
    );
    setup["sand_timer"] = json!(0);
    let refused = t
        .api(Method::POST, "/mysterium")
        .json(&json!({ "setup": setup }))
        .sent()
        .await;
    refused_as(
        refused,
        StatusCode::UNPROCESSABLE_ENTITY,
        seance_rules::refusals::SAND_TIMER,
    )
    .await;
}

/// Gives the four visions of the first turn: the interpretation begins and the sand runs.
async fn turn_the_sand(t: &Table, game: i64) {
    for psychic in 0..4 {
        let sent = send(
            t,
            game,
            psychic,
            json!({"type": "give_vision", "psychic": psychic}),
        );
        assert_eq!(sent.await.status(), StatusCode::OK);
    }
    assert_eq!(view(t, game, "table").await["timer"]["running"], true);
}

/// The time left, and whether the timer runs and was interrupted, as the table sees it.
async fn sand(t: &Table, game: i64) -> (u64, bool, bool) {
    let timer = &view(t, game, "table").await["timer"];
    (
        timer["remaining_ms"].as_u64().unwrap(),
        timer["running"].as_bool().unwrap(),
        timer["interrupted"].as_bool().unwrap(),
    )
}

#[tokio::test]
async fn a_running_sand_timer_comes_back_paused_where_it_was_after_the_table_stops() {
    let t = table().await;
    let game = create(&t).await;
    turn_the_sand(&t, game).await;
    tokio::time::sleep(std::time::Duration::from_millis(1200)).await;
    let t = support::restart(t).await;
    let (left, running, interrupted) = sand(&t, game).await;
    assert!(!running && interrupted, "paused, and the screens say why");
    assert!((115_000..=118_800).contains(&left), "{left} ms left");
    tokio::time::sleep(std::time::Duration::from_millis(300)).await;
    assert_eq!(sand(&t, game).await.0, left, "paused time stands still");
    let resumed = support::answer(
        t.api(Method::POST, &format!("/mysterium/{game}/timer"))
            .json(&json!({"action": "resume"})),
    )
    .await;
    assert_eq!(resumed["running"], true);
    assert_eq!(resumed["interrupted"], false);
}

#[tokio::test]
async fn after_a_crash_the_sand_timer_comes_back_paused_within_a_checkpoint() {
    let t = table().await;
    let game = create(&t).await;
    turn_the_sand(&t, game).await;
    tokio::time::sleep(std::time::Duration::from_millis(5600)).await;
    // The server is not stopped: as after a crash, only what it journaled is read back.
    let again = support::crash_copy(&t).await;
    let (left, running, interrupted) = sand(&again, game).await;
    assert!(!running && interrupted);
    assert!(
        (113_000..=115_100).contains(&left),
        "journaled at the 5 s checkpoint: {left} ms left"
    );
}

#[tokio::test]
async fn a_restart_resumes_the_game_exactly() {
    let t = table().await;
    let game = create(&t).await;
    for (version, psychic) in [(0, 0), (1, 1), (2, 2)] {
        assert_eq!(
            send(
                &t,
                game,
                version,
                json!({"type": "give_vision", "psychic": psychic})
            )
            .await
            .status(),
            StatusCode::OK
        );
    }
    let before = view(&t, game, "ghost").await;
    let t = support::restart(t).await;
    assert_eq!(view(&t, game, "ghost").await, before);
    assert_eq!(
        send(&t, game, 3, json!({"type": "give_vision", "psychic": 3}))
            .await
            .status(),
        StatusCode::OK
    );
}

#[tokio::test]
async fn the_sand_timer_runs_on_the_server_and_ends_the_interpretation() {
    let t = table().await;
    let game = create(&t).await;
    let timer = |body: Value| {
        t.api(Method::POST, &format!("/mysterium/{game}/timer"))
            .json(&body)
            .send()
    };

    let short: Value = timer(json!({"action": "duration", "seconds": 1}))
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(
        short,
        json!({"duration_ms": 1000, "remaining_ms": 1000, "running": false, "interrupted": false})
    );
    refused_as(
        timer(json!({"action": "duration", "seconds": 0}))
            .await
            .unwrap(),
        StatusCode::UNPROCESSABLE_ENTITY,
        seance_rules::refusals::SAND_TIMER,
    )
    .await;
    let (status, _) = error_of(timer(json!({"action": "resume"})).await.unwrap()).await;
    assert_eq!(
        status,
        StatusCode::UNPROCESSABLE_ENTITY,
        "no timer before the last vision"
    );

    // The last vision starts it, on the server's clock.
    for psychic in 0..4 {
        send(
            &t,
            game,
            psychic,
            json!({"type": "give_vision", "psychic": psychic}),
        )
        .await;
    }
    let running = view(&t, game, "table").await;
    assert_eq!(running["view"]["phase"], "interpretation");
    assert_eq!(running["timer"]["running"], true);
    assert!(running["timer"]["remaining_ms"].as_u64().unwrap() <= 1000);

    // Paused, it holds its time however long the table talks.
    let paused: Value = timer(json!({"action": "pause"}))
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    tokio::time::sleep(std::time::Duration::from_millis(1300)).await;
    let still = view(&t, game, "table").await;
    assert_eq!(still["view"]["phase"], "interpretation");
    assert_eq!(still["timer"]["remaining_ms"], paused["remaining_ms"]);

    // Resumed, it runs out and the interpretation ends through the journal like any command.
    timer(json!({"action": "resume"})).await.unwrap();
    tokio::time::sleep(std::time::Duration::from_millis(1500)).await;
    let ended = view(&t, game, "table").await;
    assert_eq!(ended["view"]["phase"], "manifestation");
    assert_eq!(ended["version"], 5);
    assert_eq!(ended["timer"]["running"], false);

    // Undoing the timer's end puts the sand back: it runs again from the top.
    t.api(Method::POST, &format!("/mysterium/{game}/undo"))
        .json(&json!({"version": 5}))
        .sent()
        .await;
    let again = view(&t, game, "table").await;
    assert_eq!(again["view"]["phase"], "interpretation");
    assert_eq!(again["timer"]["running"], true);
}

#[tokio::test]
async fn a_repeated_tap_is_one_action_and_its_answer_is_the_new_snapshot() {
    let t = table().await;
    let game = create(&t).await;
    let tap = |action: &str| {
        t.api(Method::POST, &format!("/mysterium/{game}/commands"))
            .json(&json!({"version": 0, "command": {"type": "give_vision", "psychic": 0}, "action": action}))
            .send()
    };
    let first = tap("0-vision-0").await.unwrap();
    assert_eq!(first.status(), StatusCode::OK);
    let first: Value = first.json().await.unwrap();
    assert_eq!(first["version"], 1);
    // The answer is the sender's snapshot after the command: no second request needed.
    assert_eq!(first["snapshot"]["version"], 1);
    assert_eq!(first["snapshot"]["view"]["psychics"][0]["vision"], true);
    assert!(
        first["snapshot"]["allowed"]
            .as_array()
            .unwrap()
            .iter()
            .any(|a| a["type"] == "give_vision" && a["psychics"] == json!([1, 2, 3]))
    );
    // The same tap again (a double tap, a retried request): acknowledged, not done twice,
    // and never a 409.
    let again = tap("0-vision-0").await.unwrap();
    assert_eq!(again.status(), StatusCode::OK);
    assert_eq!(again.json::<Value>().await.unwrap()["version"], 1);
    assert_eq!(view(&t, game, "table").await["version"], 1);
    // Another action id for the same command on the old version is another action: the
    // table's own change since is no conflict, and the rules refuse a second vision.
    let other = tap("0-other").await.unwrap();
    assert_eq!(other.status(), StatusCode::UNPROCESSABLE_ENTITY);
    // An id is short.
    let long = tap(&"x".repeat(65)).await.unwrap();
    assert_eq!(long.status(), StatusCode::BAD_REQUEST);
    assert_eq!(view(&t, game, "table").await["version"], 1);
    // An id is the device's own, and answered only once the device may send the command:
    // a watcher repeating the table's is refused, and a phone's command with it is done.
    let watcher = t
        .joined(Method::POST, &format!("/mysterium/{game}/commands"))
        .json(&json!({"version": 0, "command": {"type": "give_vision", "psychic": 0}, "action": "0-vision-0"}))
        .sent().await;
    assert_eq!(
        error_of(watcher).await.1.code,
        seance_timeline::refusals::WATCHER
    );
    let phone = support::take_seat(&t, "mysterium", game, "psychic:0").await;
    let cards = view(&t, game, "table").await["view"]["layout"]["characters"].clone();
    let placed = t
        .joined(Method::POST, &format!("/mysterium/{game}/commands"))
        .header("X-Seat", phone)
        .json(&json!({"version": 1, "command": {"type": "place_intuition", "psychic": 0, "card": cards[0]}, "action": "0-vision-0"}))
        .sent().await;
    assert_eq!(placed.json::<Value>().await.unwrap()["version"], 2);
    assert_eq!(
        view(&t, game, "table").await["view"]["psychics"][0]["intuition"],
        cards[0]
    );
}

/// A clean stop leaves the whole history in the journal's own file, even while the sand
/// runs: the file alone, copied elsewhere, holds every game.
#[tokio::test]
async fn a_clean_stop_leaves_the_whole_history_in_the_journal_file() {
    let t = table().await;
    let game = create(&t).await;
    for psychic in 0..4 {
        t.api(Method::POST, &format!("/mysterium/{game}/commands"))
            .json(&json!({"version": psychic, "command": {"type": "give_vision", "psychic": psychic}}))
            .sent().await;
    }
    assert_eq!(view(&t, game, "table").await["timer"]["running"], true);
    let support::Table { server, dir, .. } = t;
    server.shutdown().await;
    let wal = dir.path().join(format!("{}-wal", seance_server::JOURNAL));
    assert!(
        std::fs::metadata(&wal).map_or(0, |m| m.len()) == 0,
        "the log kept commits"
    );
    let alone = tempfile::tempdir().unwrap();
    std::fs::copy(
        dir.path().join(seance_server::JOURNAL),
        alone.path().join(seance_server::JOURNAL),
    )
    .unwrap();
    let t = support::serve_in(alone).await;
    assert_eq!(view(&t, game, "table").await["version"], 4);
}

/// A disk with not a byte left, then one made read-only (as another user's folder), are
/// told at start as what they are, with what to do: the server serves the table's screens
/// meanwhile rather than exit, and once the disk is put right it plays again.
#[tokio::test]
async fn a_full_or_read_only_disk_is_told_at_start_and_the_screens_serve() {
    let Some(disk) = seance_played::SmallDisk::mount("16m") else {
        return;
    };
    let t = support::serve_in(tempfile::tempdir_in(disk.path()).unwrap()).await;
    let folder = t.dir.path().to_owned();
    let trouble = |info: Value| info["journal"].clone();
    // No byte left, or a few (room for SQLite's index of the journal, none for a write).
    let mut t = t;
    for free in [0, 40 * 1024] {
        t = support::restart_after(t, |_| {
            let _ = std::fs::remove_file(disk.path().join("filler"));
            disk.fill_leaving(free);
        })
        .await;
        let found = trouble(support::table_json(&t, "/info").await);
        assert_eq!(
            found["code"],
            seance_server::refusals::JOURNAL_DISK_FULL,
            "{free} bytes: {found}"
        );
        assert_eq!(found["params"], json!({"megabytes": 1}));
        assert_eq!(found["choices"], json!(["retry"]));
    }
    let t = support::restart_after(t, |_| {
        std::fs::remove_file(disk.path().join("filler")).unwrap();
        disk.read_only(true);
    })
    .await;
    let found = trouble(support::table_json(&t, "/info").await);
    assert_eq!(
        found["code"],
        seance_server::refusals::JOURNAL_UNWRITABLE,
        "{found}"
    );
    assert_eq!(
        found["params"],
        json!({"folder": folder.display().to_string()})
    );
    assert_eq!(found["choices"], json!(["retry"]));
    let told = found["error"].as_str().unwrap();
    assert!(
        !told.contains("SQLite database") && !told.contains("put its"),
        "{told}"
    );
    let t = support::restart_after(t, |_| disk.read_only(false)).await;
    assert_eq!(trouble(support::table_json(&t, "/info").await), Value::Null);
    assert_eq!(
        t.api(Method::GET, "/games").sent().await.status(),
        StatusCode::OK
    );
}

#[tokio::test]
async fn a_journal_in_trouble_waits_untouched_for_the_table_s_choice() {
    let dir = tempfile::tempdir().unwrap();
    let journal = dir.path().join(seance_server::JOURNAL);
    std::fs::write(&journal, b"").unwrap();
    let t = support::serve_in(dir).await;
    let info = support::table_json(&t, "/info").await;
    assert_eq!(
        info["journal"]["code"],
        seance_server::refusals::JOURNAL_EMPTY,
        "{info}"
    );
    assert_eq!(info["journal"]["choices"], json!(["recover", "retry"]));
    assert!(
        info["journal"]["error"]
            .as_str()
            .unwrap()
            .contains("0 bytes")
    );
    // No game is served meanwhile, and nothing is written.
    refused_as(
        t.api(Method::GET, "/games").sent().await,
        StatusCode::SERVICE_UNAVAILABLE,
        seance_server::refusals::JOURNAL_WAITS,
    )
    .await;
    assert_eq!(std::fs::read(&journal).unwrap(), b"", "not written to");
    for beside in ["-wal", "-shm", ".mark"] {
        let mut name = journal.as_os_str().to_owned();
        name.push(beside);
        assert!(!std::path::Path::new(&name).exists(), "no {beside} made");
    }
    // Only the table chooses, only among the choices offered, and once per start.
    let choose = |t: &support::Table, credential: &str, choice: &str| {
        t.with(credential, Method::POST, "/journal")
            .json(&json!({ "choice": choice }))
            .send()
    };
    let (key, code) = (t.key.clone(), t.code.clone());
    assert_eq!(
        choose(&t, &code, "recover").await.unwrap().status(),
        StatusCode::FORBIDDEN
    );
    // Looking again (once something was put right) starts the server again as it is.
    let mut t = t;
    let mut restarts = t.server.take_requests().unwrap().restart;
    let again: Value = choose(&t, &key, "retry")
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(again, json!({"choice": "retry"}));
    refused_as(
        choose(&t, &key, "recover").await.unwrap(),
        StatusCode::CONFLICT,
        seance_server::refusals::JOURNAL_CHOSEN,
    )
    .await;
    restarts
        .recv()
        .await
        .expect("the shell is asked to start again");
    let mut t = support::restart(t).await;
    assert_eq!(
        std::fs::read(&journal).unwrap(),
        b"",
        "still not written to"
    );
    assert_eq!(
        support::table_json(&t, "/info").await["journal"]["code"],
        seance_server::refusals::JOURNAL_EMPTY
    );
    let mut restarts = t.server.take_requests().unwrap().restart;
    let done: Value = choose(&t, &key, "recover")
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(done["games"], 0, "{done}");
    assert!(
        done["kept_as"]
            .as_str()
            .unwrap()
            .starts_with("seance.sqlite3.damaged-")
    );
    restarts
        .recv()
        .await
        .expect("the shell is asked to start again");
    let t = support::restart(t).await;
    assert!(support::table_json(&t, "/info").await["journal"].is_null());
    assert_eq!(support::table_json(&t, "/games").await, json!([]));
    let kept = std::fs::read_dir(t.dir.path())
        .unwrap()
        .filter_map(|e| e.ok())
        .any(|e| {
            e.file_name()
                .to_string_lossy()
                .starts_with("seance.sqlite3.damaged-")
        });
    assert!(kept, "the old file is kept beside the new journal");
}

/// A game left unfinished is put away: out of the games in play (the phones' list), listed
/// with the games put away, its last played time kept; brought back, or played again, it
/// is in play again.
#[tokio::test]
async fn an_unfinished_game_is_put_away_and_brought_back() {
    let t = table().await;
    let ids = [
        support::rummy_for_two(&t).await,
        support::rummy_for_two(&t).await,
    ];
    let listed = |query: &'static str| {
        let t = &t;
        async move {
            let games: Value = support::table_json(t, &format!("/games?state={query}")).await;
            games
                .as_array()
                .unwrap()
                .iter()
                .map(|g| g["id"].as_i64().unwrap())
                .collect::<Vec<_>>()
        }
    };
    let archive = |id: i64, archived: bool| {
        t.api(Method::POST, &format!("/rummy/{id}/archive"))
            .json(&json!({ "archived": archived }))
            .send()
    };
    let old = ids[0];
    assert_eq!(
        archive(old, true).await.unwrap().status(),
        StatusCode::NO_CONTENT
    );
    assert_eq!(listed("playing").await, [ids[1]]);
    assert_eq!(listed("archived").await, [old]);
    assert!(listed("finished").await.is_empty(), "put away is not over");
    // Under its own rule set only, and with a body that says what to do.
    let elsewhere = t
        .api(Method::POST, &format!("/mysterium/{old}/archive"))
        .json(&json!({"archived": false}))
        .sent()
        .await;
    assert_eq!(elsewhere.status(), StatusCode::NOT_FOUND);
    let shapeless = t
        .api(Method::POST, &format!("/rummy/{old}/archive"))
        .json(&json!({"archived": "yes"}))
        .sent()
        .await;
    assert_eq!(shapeless.status(), StatusCode::BAD_REQUEST);
    assert_eq!(listed("archived").await, [old], "a refusal changes nothing");
    // Brought back, it is in play again.
    assert_eq!(
        archive(old, false).await.unwrap().status(),
        StatusCode::NO_CONTENT
    );
    assert!(listed("archived").await.is_empty());
    assert_eq!(listed("playing").await.len(), 2);
    // Put away and played again, it is back in play by itself.
    archive(old, true).await.unwrap();
    let called = t
        .api(Method::POST, &format!("/rummy/{old}/commands"))
        .json(&json!({"version": 0, "command": {"type": "call_vote", "by": 0}}))
        .sent()
        .await;
    assert_eq!(called.status(), StatusCode::OK, "{:?}", called.text().await);
    assert!(listed("archived").await.is_empty());
    assert!(listed("playing").await.contains(&old));
}

/// A game whose start cannot be read answers what it is and how to go on, not a fault, and
/// the table sets it aside: out of the lists, kept in the journal.
#[tokio::test]
async fn a_game_whose_start_is_damaged_is_told_and_set_aside_by_the_table() {
    let t = table().await;
    let game = create(&t).await;
    let sound = create(&t).await;
    let t = support::restart_after(t, |dir| {
        rusqlite::Connection::open(dir.join("seance.sqlite3"))
            .unwrap()
            .execute(
                "UPDATE games SET start = '[{\"type\": \"set' WHERE id = ?1",
                [game],
            )
            .unwrap();
    })
    .await;
    refused_as(
        t.api(Method::GET, &format!("/mysterium/{game}"))
            .sent()
            .await,
        StatusCode::CONFLICT,
        seance_server::refusals::START_DAMAGED,
    )
    .await;
    let listed = |t: &Table| {
        let list = t.api(Method::GET, "/games");
        async move {
            list.sent()
                .await
                .json::<Value>()
                .await
                .unwrap()
                .as_array()
                .unwrap()
                .iter()
                .map(|g| g["id"].as_i64().unwrap())
                .collect::<Vec<_>>()
        }
    };
    assert!(listed(&t).await.contains(&game));
    let aside = format!("/mysterium/{game}/set-aside");
    refused_as(
        t.joined(Method::POST, &aside).sent().await,
        StatusCode::FORBIDDEN,
        seance_timeline::refusals::TABLE_ONLY,
    )
    .await;
    let done = t.api(Method::POST, &aside).sent().await;
    assert_eq!(done.status(), StatusCode::OK);
    assert_eq!(
        listed(&t).await,
        [sound],
        "out of the list; the other game plays on"
    );
    let other = t
        .api(Method::GET, &format!("/mysterium/{sound}"))
        .sent()
        .await;
    assert_eq!(other.status(), StatusCode::OK);
}

/// A game whose last entries cannot be read is shown up to them: its snapshot says where
/// the damage begins, as a number the screens word (what is wrong is the log's), until the
/// table sets the tail aside and plays on.
#[tokio::test]
async fn a_damaged_tail_is_told_by_its_entry_and_set_aside() {
    let t = table().await;
    let game = create(&t).await;
    for (version, psychic) in [(0, 0), (1, 1), (2, 2)] {
        let given = send(
            &t,
            game,
            version,
            json!({"type": "give_vision", "psychic": psychic}),
        )
        .await;
        assert_eq!(given.status(), StatusCode::OK);
    }
    let t = support::restart_after(t, |dir| {
        rusqlite::Connection::open(dir.join("seance.sqlite3"))
            .unwrap()
            .execute(
                "UPDATE entries SET entry = '{\"kind\": ' WHERE game = ?1 AND seq = 2",
                [game],
            )
            .unwrap();
    })
    .await;
    let seen = view(&t, game, "table").await;
    assert_eq!(seen["damage"], json!({"entry": 2}), "{}", seen["damage"]);
    assert_eq!(seen["version"], 1, "shown up to the damage");
    let aside = t
        .api(Method::POST, &format!("/mysterium/{game}/set-aside"))
        .sent()
        .await;
    assert_eq!(aside.status(), StatusCode::OK);
    let seen = view(&t, game, "table").await;
    assert_eq!(seen["damage"], Value::Null);
    let again = send(
        &t,
        game,
        seen["version"].as_u64().unwrap(),
        json!({"type": "give_vision", "psychic": 1}),
    )
    .await;
    assert_eq!(again.status(), StatusCode::OK, "it plays on");
}
