//! Mysterium's new edition over the real API: the box kept in the table's settings, a
//! game without a sand timer, and a revelation whose culprit reaches the ghost's phone
//! only, decided by the mediums' votes on their phones.

mod support;

use reqwest::{Method, StatusCode};
use serde_json::{Value, json};
use support::{Sent, Table, act_as, error_of, look_as, ok, refused_as, table, take_seat};

fn card_box() -> Value {
    let sets = json!([{"name": "green", "cards": [1, 2, 3, 4, 5, 6, 7, 8]},
                      {"name": "red", "cards": [9, 10, 11, 12, 13, 14, 15, 16]}]);
    json!({"characters": sets, "locations": sets, "objects": sets})
}

async fn view(t: &Table, game: i64, role: &str, token: Option<&str>) -> Value {
    look_as(t, "mysterium", game, role, token)
        .await
        .json()
        .await
        .unwrap()
}

/// A new-edition game for Laura (the ghost) and three mediums, the green sets' characters.
async fn new_game(t: &Table) -> i64 {
    let setup = json!({"edition": "new", "ghost": "Laura", "secrets": "app_kept",
        "card_box": card_box(), "deal": {"kind": "sets", "characters": "green"},
        "players": [{"name": "Stephanie", "colours": ["red"]}, {"name": "Alex", "colours": ["blue"]},
                    {"name": "Carl", "colours": ["green"]}]});
    let made = t
        .api(Method::POST, "/mysterium")
        .json(&json!({"setup": setup, "seed": 3}))
        .sent()
        .await;
    made.json::<Value>().await.unwrap()["id"].as_i64().unwrap()
}

async fn act(t: &Table, game: i64, token: Option<&str>, command: Value) {
    ok(act_as(t, "mysterium", game, token, command).await).await
}

#[tokio::test]
async fn the_box_is_kept_in_the_settings_and_checked() {
    let t = table().await;
    let mut settings: Value = support::table_json(&t, "/settings").await;
    assert_eq!(
        settings["rule_sets"]["mysterium-classic"]["card_box"]["characters"],
        json!([]),
        "nothing is assumed"
    );
    let mut bad = card_box();
    bad["objects"][1]["cards"][0] = json!(3);
    settings["rule_sets"]["mysterium-classic"]["card_box"] = bad;
    let refused = t.api(Method::PUT, "/settings").json(&settings).sent().await;
    let (status, message) = error_of(refused).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(
        message.code == seance_rules::refusals::CARD_TWICE
            && message.params == json!({"category": {"term": "category.object"}, "card": 3}),
        "{message}"
    );
    // A set's name is bounded like a player's: every view of the box carries it.
    let mut long = card_box();
    long["characters"][0]["name"] = json!("g".repeat(41));
    settings["rule_sets"]["mysterium-classic"]["card_box"] = long;
    let refused = t.api(Method::PUT, "/settings").json(&settings).send().await;
    let (status, message) = error_of(refused.unwrap()).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(
        message.code == seance_timeline::refusals::NAME_TOO_LONG
            && message.params == json!({"most": 40, "chars": 41}),
        "{message}"
    );
    settings["rule_sets"]["mysterium-classic"]["card_box"] = card_box();
    ok(t.api(Method::PUT, "/settings").json(&settings).sent().await).await;
    let kept: Value = support::table_json(&t, "/settings").await;
    assert_eq!(
        kept["rule_sets"]["mysterium-classic"]["card_box"],
        card_box()
    );
}

#[tokio::test]
async fn a_new_edition_game_keeps_the_culprit_for_the_ghost_and_counts_the_phones_votes() {
    let t = table().await;
    let game = new_game(&t).await;
    let table_view = view(&t, game, "table", None).await;
    assert!(
        table_view.get("timer").is_none(),
        "no sand timer: {table_view}"
    );
    assert_eq!(table_view["view"]["edition"], "new");
    // Told in its own words, and listed as a game of its own.
    assert_eq!(table_view["dialect"], "new");
    assert_eq!(table_view["view"]["layout"]["sets"][0], "green");
    let listed: Value = support::table_json(&t, "/games").await;
    assert_eq!(listed[0]["edition"], "new");
    assert_eq!(listed[0]["title"], "mysterium-new");

    let ghost = take_seat(&t, "mysterium", game, "ghost").await;
    let mut phones = Vec::new();
    for i in 0..3 {
        phones.push(take_seat(&t, "mysterium", game, &format!("psychic:{i}")).await);
    }
    // Everyone right every round: three rounds to the revelation.
    let secrets = view(&t, game, "ghost", Some(&ghost)).await["view"]["assignments"].clone();
    for category in 0..3 {
        for psychic in 0..3 {
            act(
                &t,
                game,
                None,
                json!({"type": "give_vision", "psychic": psychic}),
            )
            .await;
        }
        for psychic in 0..3 {
            let card = secrets[psychic][category].clone();
            let phone = Some(phones[psychic].as_str());
            act(
                &t,
                game,
                phone,
                json!({"type": "place_intuition", "psychic": psychic, "card": card}),
            )
            .await;
        }
        act(&t, game, None, json!({"type": "end_interpretation"})).await;
        for psychic in 0..3 {
            act(
                &t,
                game,
                None,
                json!({"type": "manifest", "psychic": psychic}),
            )
            .await;
        }
    }
    let culprit = view(&t, game, "ghost", Some(&ghost)).await["view"]["culprit"].clone();
    assert!(culprit.is_u64(), "the ghost's phone sees the drawn trace");
    for (role, token) in [("table", None), ("psychic:0", Some(phones[0].as_str()))] {
        let v = view(&t, game, role, token).await["view"].clone();
        assert!(
            v["culprit"].is_null() && v["culprit_sealed"] == true,
            "{role}: {v}"
        );
    }
    act(&t, game, Some(&ghost), json!({"type": "share_vision"})).await;
    let table_vote = act_as(
        &t,
        "mysterium",
        game,
        None,
        json!({"type": "vote", "psychic": 1, "group": 1}),
    )
    .await;
    assert_eq!(
        error_of(table_vote).await.1.code,
        seance_timeline::refusals::VOTE_ON_PHONE
    );
    for (psychic, phone) in phones.iter().enumerate() {
        act(
            &t,
            game,
            Some(phone),
            json!({"type": "vote", "psychic": psychic, "group": culprit}),
        )
        .await;
    }
    // Nothing is told until the table shows the count; it shows it all at once.
    let counting = view(&t, game, "table", None).await;
    assert_eq!(counting["view"]["outcome"], Value::Null);
    let show = counting["allowed"]
        .as_array()
        .unwrap()
        .iter()
        .find(|a| a["type"] == "show_count")
        .expect("the table shows the count")["lines"]
        .as_array()
        .unwrap()
        .last()
        .unwrap()
        .clone();
    act(&t, game, None, json!({"type": "show_count", "lines": show})).await;
    let end = view(&t, game, "table", None).await["view"].clone();
    assert_eq!(end["outcome"], "won");
    assert_eq!(end["culprit"], culprit, "shown to all at the end");
    // In BG Stats, a game of its own: not classic Mysterium's BoardGameGeek entry, the
    // edition named as the play's board; the table's QR code takes a phone there too.
    let sent = support::joined_json(&t, &format!("/mysterium/{game}/bgstats")).await;
    let play = support::bgstats_play(sent["url"].as_str().unwrap());
    assert_eq!(play["game"]["sourceGameId"], "mysterium-new");
    assert!(play["game"].get("bggId").is_none(), "{play}");
    assert_eq!(play["board"], "New edition");
    let roles: Vec<&Value> = play["players"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| &p["role"])
        .collect();
    assert_eq!(roles[0], "ghost");
    assert!(roles[1..].iter().all(|r| *r == "medium"), "{roles:?}");
    let forwarded = support::opened(&t, &format!("/p/{game}?code={}", t.code)).await;
    assert_eq!(forwarded.status(), StatusCode::SEE_OTHER);
    assert_eq!(
        forwarded.headers()["location"],
        sent["url"].as_str().unwrap()
    );
    // A game that is over is not put away: it is listed as won.
    let away = t
        .api(Method::POST, &format!("/mysterium/{game}/archive"))
        .json(&json!({"archived": true}))
        .sent()
        .await;
    refused_as(
        away,
        StatusCode::UNPROCESSABLE_ENTITY,
        seance_server::refusals::NOT_IN_PLAY,
    )
    .await;
}

#[tokio::test]
async fn a_new_edition_refusal_is_said_in_its_own_words() {
    let t = table().await;
    let game = new_game(&t).await;
    for _ in 0..3 {
        act(&t, game, None, json!({"type": "use_crow"})).await;
    }
    let (status, refused) =
        error_of(act_as(&t, "mysterium", game, None, json!({"type": "use_crow"})).await).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(refused.code, seance_rules::refusals::NO_CROWS_LEFT);
    // The new edition has candles, and no difficulty: as its screens say it.
    assert_eq!(refused.error, "No candle left: 3 per game.", "{refused}");
}
