//! A table acts at once, over the real API: commands that several devices send on the same
//! version all land, each once, when the rules find them independent (a psychic's pawn, the
//! ghost's vision to another psychic); a real conflict (the same pawn moved meanwhile, an
//! undo meanwhile) is refused saying what changed, and changes nothing.

mod support;

use reqwest::{Method, StatusCode};
use serde_json::{Value, json};
use support::{Sent, Table, classic_for_four, from, ok, refused_as, table, table_json, take_seat};

/// `command` sent from `token`'s phone (or the table) on `version`, with its action id.
async fn sent_on(
    t: &Table,
    game: i64,
    token: Option<&str>,
    version: u64,
    command: Value,
    action: &str,
) -> reqwest::Response {
    from(
        t,
        token,
        Method::POST,
        &format!("/mysterium/{game}/commands"),
    )
    .json(&json!({"version": version, "command": command, "action": action}))
    .sent()
    .await
}

/// The version each answer says its command made.
async fn made(response: reqwest::Response) -> u64 {
    assert_eq!(
        response.status(),
        StatusCode::OK,
        "{}",
        response.text().await.unwrap()
    );
    response.json::<Value>().await.unwrap()["version"]
        .as_u64()
        .unwrap()
}

#[tokio::test]
async fn pawns_and_visions_sent_on_one_version_all_land_once() {
    let t = table().await;
    let game = classic_for_four(&t, 5).await;
    let ghost = take_seat(&t, "mysterium", game, "ghost").await;
    let stephanie = take_seat(&t, "mysterium", game, "psychic:0").await;
    let alex = take_seat(&t, "mysterium", game, "psychic:1").await;
    for psychic in [0, 1] {
        ok(sent_on(
            &t,
            game,
            Some(&ghost),
            psychic,
            json!({"type": "give_vision", "psychic": psychic}),
            &format!("v{psychic}"),
        )
        .await)
        .await;
    }
    let seen = table_json(&t, &format!("/mysterium/{game}")).await;
    let version = seen["version"].as_u64().unwrap();
    let cards = seen["view"]["layout"]["characters"].clone();
    // In the same instant, on the version each saw: Stephanie's pawn, Alex's pawn, the
    // ghost's vision to Carl.
    let (one, two, three) = tokio::join!(
        sent_on(
            &t,
            game,
            Some(&stephanie),
            version,
            json!({"type": "place_intuition", "psychic": 0, "card": cards[0]}),
            "s"
        ),
        sent_on(
            &t,
            game,
            Some(&alex),
            version,
            json!({"type": "place_intuition", "psychic": 1, "card": cards[1]}),
            "a"
        ),
        sent_on(
            &t,
            game,
            Some(&ghost),
            version,
            json!({"type": "give_vision", "psychic": 2}),
            "g"
        ),
    );
    let mut versions = vec![made(one).await, made(two).await, made(three).await];
    versions.sort_unstable();
    assert_eq!(versions, [version + 1, version + 2, version + 3]);
    let now = table_json(&t, &format!("/mysterium/{game}")).await;
    assert_eq!(now["version"], version + 3);
    let psychics = &now["view"]["psychics"];
    assert_eq!(psychics[0]["intuition"], cards[0]);
    assert_eq!(psychics[1]["intuition"], cards[1]);
    assert_eq!(psychics[2]["vision"], true);
    // Each sent again (its answer lost): acknowledged, not done twice.
    let again = sent_on(
        &t,
        game,
        Some(&alex),
        version,
        json!({"type": "place_intuition", "psychic": 1, "card": cards[1]}),
        "a",
    )
    .await;
    assert!(versions.contains(&made(again).await));
    assert_eq!(
        table_json(&t, &format!("/mysterium/{game}")).await["version"],
        version + 3
    );
}

#[tokio::test]
async fn a_real_conflict_is_refused_saying_what_changed() {
    let t = table().await;
    let game = classic_for_four(&t, 5).await;
    let ghost = take_seat(&t, "mysterium", game, "ghost").await;
    let alex = take_seat(&t, "mysterium", game, "psychic:1").await;
    ok(sent_on(
        &t,
        game,
        Some(&ghost),
        0,
        json!({"type": "give_every_vision"}),
        "all",
    )
    .await)
    .await;
    let seen = table_json(&t, &format!("/mysterium/{game}")).await;
    let version = seen["version"].as_u64().unwrap();
    let cards = seen["view"]["layout"]["characters"].clone();
    ok(sent_on(
        &t,
        game,
        Some(&alex),
        version,
        json!({"type": "place_intuition", "psychic": 1, "card": cards[3]}),
        "mine",
    )
    .await)
    .await;
    // The table, not having seen it, moves Alex's pawn elsewhere: refused, naming whose
    // pawn moved; the pawn stays where Alex put it.
    let why = refused_as(
        sent_on(
            &t,
            game,
            None,
            version,
            json!({"type": "place_intuition", "psychic": 1, "card": cards[4]}),
            "table",
        )
        .await,
        StatusCode::CONFLICT,
        seance_rules::refusals::PAWN_MEANWHILE,
    )
    .await;
    assert_eq!(why.params, json!({"name": "Alex"}));
    assert!(why.error.contains("Alex's intuition pawn moved"), "{why}");
    let now = table_json(&t, &format!("/mysterium/{game}")).await;
    assert_eq!(now["view"]["psychics"][1]["intuition"], cards[3]);
    assert_eq!(now["version"], version + 1);
    // An undo meanwhile takes back what a screen saw: whatever it sends on that, it looks
    // again first.
    let before_undo = version + 1;
    ok(t.api(Method::POST, &format!("/mysterium/{game}/undo"))
        .json(&json!({"version": before_undo}))
        .sent()
        .await)
    .await;
    refused_as(
        sent_on(
            &t,
            game,
            Some(&alex),
            before_undo,
            json!({"type": "place_intuition", "psychic": 1, "card": cards[5]}),
            "later",
        )
        .await,
        StatusCode::CONFLICT,
        seance_timeline::refusals::UNDONE_MEANWHILE,
    )
    .await;
    // A version the game never had: the screen looks again.
    let why = refused_as(
        sent_on(
            &t,
            game,
            Some(&alex),
            99,
            json!({"type": "place_intuition", "psychic": 1, "card": cards[5]}),
            "future",
        )
        .await,
        StatusCode::CONFLICT,
        seance_timeline::refusals::STALE,
    )
    .await;
    assert_eq!(why.params, json!({"sent": 99, "now": before_undo + 1}));
    assert_eq!(
        table_json(&t, &format!("/mysterium/{game}")).await["version"],
        before_undo + 1
    );
}
