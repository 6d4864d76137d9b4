//! Mystery Rummy over the real API: a scorepad created, journaled and listed beside the
//! Mysterium games; phones on the players' seats voting in secret; the table entering the
//! round; a restart that resumes it.

mod support;

use reqwest::{Method, StatusCode};
use serde_json::{Value, json};
use support::{
    Sent, Table, act_as, error_of, look_as, next_json, ok, refused_as, table, table_json, take_seat,
};

async fn create(t: &Table) -> i64 {
    let made = t
        .api(Method::POST, "/rummy")
        .json(&json!({"setup": {"players": ["Ann", "Ben", "Cleo"]}, "seed": 3}))
        .sent()
        .await;
    assert_eq!(made.status(), StatusCode::CREATED);
    made.json::<Value>().await.unwrap()["id"].as_i64().unwrap()
}

async fn take(t: &Table, game: i64, seat: &str) -> String {
    take_seat(t, "rummy", game, seat).await
}

async fn look(t: &Table, game: i64, role: &str, token: Option<&str>) -> reqwest::Response {
    look_as(t, "rummy", game, role, token).await
}

async fn act(t: &Table, game: i64, token: Option<&str>, command: Value) -> reqwest::Response {
    act_as(t, "rummy", game, token, command).await
}

fn round() -> Value {
    // 5 Druitt Evidence for Ann (10, doubled); Jill's 3 Evidence and Suspect card for Ben (10).
    json!({"type": "end_round", "tally": {"ending": {"how": "last_card"}, "victims_in_play": 2, "players": [
        {"evidence": [5, 0, 0, 0, 0, 0]},
        {"evidence": [0, 0, 0, 0, 0, 3], "suspect_cards": [false, false, false, false, false, true]},
        {"hand": 4}]}})
}

#[tokio::test]
async fn phones_vote_in_secret_and_the_table_scores_the_round() {
    let t = table().await;
    let game = create(&t).await;
    let ann = take(&t, game, "player:0").await;
    let ben = take(&t, game, "player:1").await;

    // A player's view opens only to its phone; a Mysterium address does not open a scorepad.
    assert_eq!(
        look(&t, game, "player:0", None).await.status(),
        StatusCode::FORBIDDEN
    );
    refused_as(
        t.api(Method::GET, &format!("/mysterium/{game}?role=table"))
            .sent()
            .await,
        StatusCode::NOT_FOUND,
        seance_server::refusals::NO_SUCH_GAME,
    )
    .await;
    refused_as(
        look(&t, game, "ghost", None).await,
        StatusCode::BAD_REQUEST,
        seance_server::refusals::NO_SUCH_ROLE,
    )
    .await;

    let mut table_socket = t.socket_with(&format!("&rummy={game}&role=table")).await;
    let mut ann_socket = t
        .phone_socket(&format!("&rummy={game}&role=player:0&seat={ann}"))
        .await;
    next_json(&mut table_socket).await; // hello
    next_json(&mut ann_socket).await;

    // Ben's phone calls the vote as Ben, not as Ann; a phone votes for its own player only.
    let (status, _) =
        error_of(act(&t, game, Some(&ben), json!({"type": "call_vote", "by": 0})).await).await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    ok(act(&t, game, Some(&ben), json!({"type": "call_vote", "by": 1})).await).await;
    refused_as(
        act(
            &t,
            game,
            None,
            json!({"type": "vote", "player": 0, "suspect": 0}),
        )
        .await,
        StatusCode::FORBIDDEN,
        seance_timeline::refusals::VOTE_ON_PHONE,
    )
    .await;
    let (status, _) = error_of(
        act(
            &t,
            game,
            Some(&ann),
            json!({"type": "vote", "player": 1, "suspect": 0}),
        )
        .await,
    )
    .await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    ok(act(
        &t,
        game,
        Some(&ann),
        json!({"type": "vote", "player": 0, "suspect": 0}),
    )
    .await)
    .await;
    ok(act(
        &t,
        game,
        Some(&ben),
        json!({"type": "vote", "player": 1, "suspect": 5}),
    )
    .await)
    .await;

    // Nobody but Ann sees Ann's vote before the round ends.
    let table: Value = look(&t, game, "table", None).await.json().await.unwrap();
    assert_eq!(table["view"]["vote"]["voted"], json!([true, true, false]));
    assert!(table["view"]["vote"]["mine"].is_null());
    assert!(
        table.get("timer").is_none(),
        "Mystery Rummy has no sand timer"
    );
    let theirs: Value = look(&t, game, "player:1", Some(&ben))
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(theirs["view"]["vote"]["mine"], json!(5));
    let pushed = loop {
        let message = next_json(&mut ann_socket).await;
        if message["type"] == "view" && message["snapshot"]["view"]["vote"]["voted"][1] == true {
            break message;
        }
    };
    assert_eq!(pushed["snapshot"]["view"]["vote"]["mine"], json!(0));
    assert_eq!(pushed["snapshot"]["view"]["me"], json!({"player": 0}));

    // Cleo has no phone: she votes on the table; the round cannot end before.
    let (status, why) = error_of(act(&t, game, None, round()).await).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(
        why.code == seance_rummy::refusals::VOTES_MISSING && why.params["names"] == json!(["Cleo"]),
        "{why}"
    );
    let (status, _) = error_of(act(&t, game, Some(&ann), round()).await).await;
    assert_eq!(
        status,
        StatusCode::FORBIDDEN,
        "the rounds are entered on the table"
    );
    ok(act(
        &t,
        game,
        None,
        json!({"type": "vote", "player": 2, "suspect": 0}),
    )
    .await)
    .await;
    ok(act(&t, game, None, round()).await).await;
    let view = loop {
        let message = next_json(&mut table_socket).await;
        if message["type"] == "view"
            && message["snapshot"]["view"]["rounds"]
                .as_array()
                .is_some_and(|r| r.len() == 1)
        {
            break message["snapshot"]["view"].clone();
        }
    };
    assert_eq!(view["rounds"][0]["votes"], json!([0, 5, 0]));
    assert_eq!(view["rounds"][0]["scored"]["verdict"]["jack"], json!(0));
    assert_eq!(view["totals"], json!([20 + 10, 10, -4 + 10]));

    // A phone may not undo; the table may. The list says which game is which.
    let undo = t
        .joined(Method::POST, &format!("/rummy/{game}/undo"))
        .header("X-Seat", &ann)
        .json(&json!({"version": 5}))
        .sent()
        .await;
    assert_eq!(undo.status(), StatusCode::FORBIDDEN);
    let list: Value = support::table_json(&t, "/games").await;
    assert_eq!(list[0]["ruleset"], "mystery-rummy");
    assert_eq!(list[0]["players"], json!(["Ann", "Ben", "Cleo"]));

    // A restart resumes the scorepad, and the phones keep their seats.
    let t = support::restart(t).await;
    let back: Value = look(&t, game, "player:1", Some(&ben))
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(back["version"], json!(5));
    assert_eq!(back["view"]["totals"], json!([30, 10, 6]));
    t.server.shutdown().await;
}

#[tokio::test]
async fn a_bad_setup_or_tally_is_refused_with_what_to_do() {
    let t = table().await;
    refused_as(
        t.api(Method::POST, "/rummy")
            .json(&json!({"setup": {"players": ["Solo"]}}))
            .sent()
            .await,
        StatusCode::UNPROCESSABLE_ENTITY,
        seance_rummy::refusals::RUMMY_PLAYERS,
    )
    .await;
    let game = create(&t).await;
    refused_as(act(&t, game, None, json!({"type": "end_round", "tally": {"ending": {"how": "last_card"}, "players": [{}]}})).await, StatusCode::UNPROCESSABLE_ENTITY, seance_rummy::refusals::TALLY_PLAYERS).await;
    refused_as(
        act(&t, game, None, json!({"type": "end_round"})).await,
        StatusCode::BAD_REQUEST,
        seance_server::refusals::BAD_REQUEST,
    )
    .await;
    let seat = t
        .api(Method::POST, &format!("/rummy/{game}/seats"))
        .json(&json!({"seat": "ghost"}))
        .sent()
        .await;
    let (status, why) = error_of(seat).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert!(
        why.code == seance_server::refusals::NO_SUCH_SEAT
            && why.params["seats"] == json!(["player:0", "player:1", "player:2"]),
        "{why}"
    );
    t.server.shutdown().await;
}

#[tokio::test]
async fn a_rematch_keeps_the_players_their_seats_and_the_corrected_cards() {
    let t = table().await;
    let game = create(&t).await;
    let cleo = take(&t, game, "player:2").await;
    // The table corrected a number printed on its cards: the rematch plays with it too.
    let mut view: Value = look(&t, game, "table", None).await.json().await.unwrap();
    let mut printed = view["view"]["printed"].clone();
    printed["joker"] = json!(20);
    ok(act(
        &t,
        game,
        None,
        json!({"type": "set_printed", "printed": printed}),
    )
    .await)
    .await;
    // The same numbers again change nothing: acknowledged, and nothing is written.
    let set = look(&t, game, "table", None)
        .await
        .json::<Value>()
        .await
        .unwrap();
    let again = act(
        &t,
        game,
        None,
        json!({"type": "set_printed", "printed": printed}),
    )
    .await;
    assert_eq!(again.status(), StatusCode::OK);
    assert_eq!(
        again.json::<Value>().await.unwrap()["version"],
        set["version"]
    );
    let after = look(&t, game, "table", None)
        .await
        .json::<Value>()
        .await
        .unwrap();
    assert_eq!(after["version"], set["version"]);
    assert_eq!(after["log"], set["log"], "no line for nothing");
    let rematch = || {
        t.api(Method::POST, &format!("/rummy/{game}/rematch"))
            .json(&json!({"keep": ["player:2"]}))
            .send()
    };
    let (status, refused) = error_of(rematch().await.unwrap()).await;
    assert_eq!(
        (status, refused.code.as_str()),
        (
            StatusCode::FORBIDDEN,
            seance_timeline::refusals::REMATCH_IN_PLAY
        )
    );
    let bgstats = format!("/rummy/{game}/bgstats");
    for early in [bgstats.clone(), format!("/p/{game}")] {
        let (status, refused) = error_of(t.api(Method::GET, &early).sent().await).await;
        assert_eq!(
            (status, refused.code.as_str()),
            (
                StatusCode::UNPROCESSABLE_ENTITY,
                seance_server::refusals::NOT_OVER
            ),
            "{early}"
        );
    }

    while view["view"]["winner"].is_null() {
        ok(act(&t, game, None, round()).await).await;
        view = look(&t, game, "table", None).await.json().await.unwrap();
    }
    // The play for BG Stats, from any device: the totals as scores, ranked, the winner's.
    let sent = support::answer(t.joined(Method::GET, &bgstats)).await;
    let play = support::bgstats_play(sent["url"].as_str().unwrap());
    assert_eq!(play, sent["play"]);
    assert_eq!(play["game"]["name"], "Mystery Rummy: Jack the Ripper");
    assert_eq!(play["game"]["noPoints"], false);
    let totals = view["view"]["totals"].as_array().unwrap();
    let winner = view["view"]["winner"].as_u64().unwrap() as usize;
    // Play begins with the player on the dealer's left (002, "Tour de jeu"): the next seat.
    let first_dealer = view["view"]["rounds"][0]["dealer"].as_u64().unwrap() as usize;
    let players = play["players"].as_array().unwrap();
    for (p, player) in players.iter().enumerate() {
        assert_eq!(
            player["startPlayer"],
            (first_dealer + 1) % players.len() == p,
            "the player on the first dealer's left began"
        );
        assert_eq!(player["name"], view["view"]["players"][p]);
        assert_eq!(player["score"], totals[p], "a number, as BG Stats takes it");
        assert_eq!(player["winner"], p == winner);
        let higher = totals
            .iter()
            .filter(|t| t.as_i64() > totals[p].as_i64())
            .count();
        assert_eq!(player["rank"], higher + 1);
        assert!(player.get("role").is_none());
    }
    let qr = t
        .joined(Method::GET, &format!("{bgstats}.png"))
        .sent()
        .await;
    assert_eq!(qr.headers()["content-type"], "image/png");
    let short = support::qr_text(&qr.bytes().await.unwrap());
    let seats = t
        .joined(Method::GET, &format!("/qr.png?rummy={game}"))
        .sent()
        .await;
    let seats = support::qr_text(&seats.bytes().await.unwrap());
    assert_eq!(seats, format!("{}#/rummy/{game}/join", t.server.join_url()));
    assert!(short.contains(&format!("/api/p/{game}?code=")), "{short}");
    // The QR code's short link takes a phone (with the join code it holds, as scanned) on
    // to BG Stats with the same play; without the code, nowhere.
    let scanned = reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .unwrap();
    let short = format!("{}/api/p/{game}", t.base);
    let forwarded = scanned.get(format!("{short}?code={}", t.code)).sent().await;
    assert_eq!(forwarded.status(), StatusCode::SEE_OTHER);
    assert_eq!(
        forwarded.headers()["location"],
        sent["url"].as_str().unwrap()
    );
    let stranger = scanned.get(&short).sent().await;
    assert_eq!(stranger.status(), StatusCode::UNAUTHORIZED);
    // Sent again, the same play: BG Stats updates it rather than adding another.
    let again = table_json(&t, &bgstats).await;
    assert_eq!(again["play"]["sourcePlayId"], play["sourcePlayId"]);

    let next = rematch().await.unwrap().json::<Value>().await.unwrap()["id"]
        .as_i64()
        .unwrap();
    let after: Value = look(&t, next, "table", None).await.json().await.unwrap();
    assert_eq!(after["view"]["players"], json!(["Ann", "Ben", "Cleo"]));
    assert_eq!(after["view"]["printed"], printed);
    assert_eq!(after["view"]["round"], 1);
    assert!(after["view"]["winner"].is_null());
    assert_eq!(after["seats"], json!(["player:2"]));
    let own = look(&t, next, "player:2", Some(&cleo)).await;
    assert_eq!(own.status(), StatusCode::OK);
}
