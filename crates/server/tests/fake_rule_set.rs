//! A rule set is its crate plus one line in each of the server's registries: Straws, a
//! third rule set as small as one can be (`seance-played`'s `fake`), registered in
//! `rulesets.rs` and named in `RuleSet` under the feature `fake-rule-set`, is listed,
//! played, recorded, counted, exported, brought to another table and sent to BG Stats with
//! nothing else written for it. Run with
//! `cargo test -p seance-server --features fake-rule-set --test fake_rule_set`.

mod support;

use reqwest::{Method, StatusCode};
use serde_json::{Value, json};
use support::{Sent, Table, act_as, look_as, ok, refused_as, table, table_json, take_seat};

async fn new_game(t: &Table, players: &[&str]) -> i64 {
    let made = t
        .api(Method::POST, "/straws")
        .json(&json!({"setup": {"players": players}}))
        .sent()
        .await;
    assert_eq!(made.status(), StatusCode::CREATED);
    made.json::<Value>().await.unwrap()["id"].as_i64().unwrap()
}

#[tokio::test]
async fn a_third_rule_set_is_listed_played_recorded_counted_exported_and_sent() {
    let t = table().await;

    // Told to the UI with its pages, and refused a setup its rules refuse.
    let info = table_json(&t, "/info").await;
    let page = t.get("/").sent().await.text().await.unwrap();
    assert!(
        page.contains("\"#/straws/{id}\""),
        "the home page tells its pages"
    );
    assert!(info["version"].is_string());
    let lonely = t
        .api(Method::POST, "/straws")
        .json(&json!({"setup": {"players": ["Ann"]}}))
        .sent()
        .await;
    refused_as(lonely, StatusCode::UNPROCESSABLE_ENTITY, "straws_players").await;

    // Listed beside the others while it is played; a phone takes a seat and sees it.
    let game = new_game(&t, &["Ann", "Ben", "Cy"]).await;
    let listed = table_json(&t, "/games").await;
    let mine = listed
        .as_array()
        .unwrap()
        .iter()
        .find(|g| g["id"] == game)
        .unwrap();
    assert_eq!(
        (&mine["ruleset"], &mine["title"], &mine["status"]),
        (&json!("straws"), &json!("straws"), &json!("playing"))
    );
    let ben = take_seat(&t, "straws", game, "player:1").await;
    let seen: Value = look_as(&t, "straws", game, "player:1", Some(&ben))
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(seen["view"]["players"], json!(["Ann", "Ben", "Cy"]));
    assert_eq!(
        seen["allowed"],
        json!([]),
        "the table alone says who drew it"
    );
    let drawn = json!({"type": "drawn", "player": 1});
    let from_phone = act_as(&t, "straws", game, Some(&ben), drawn.clone()).await;
    refused_as(from_phone, StatusCode::FORBIDDEN, "table_only").await;
    ok(act_as(&t, "straws", game, None, drawn).await).await;

    // Recorded in the history, counted under its name, and a line a player in the CSV.
    let history = table_json(&t, "/history").await;
    let kept = &history["games"][0];
    assert_eq!(kept["ruleset"], "straws");
    assert_eq!(
        kept["record"],
        json!({"players": ["Ann", "Ben", "Cy"], "short": 1})
    );
    let stats = table_json(&t, "/statistics").await;
    assert_eq!(stats["games"], 1);
    assert_eq!(stats["players"], json!(["Ann", "Ben", "Cy"]));
    assert_eq!(
        stats["rule_sets"],
        json!({"straws": {"short": [["Ben", 1]]}})
    );
    let csv = support::table_text(&t, "/history/export.csv").await;
    let lines: Vec<&str> = csv.lines().collect();
    assert_eq!(lines.len(), 4, "{csv}");
    assert!(
        lines[2].starts_with(&format!("{game},straws,")),
        "{}",
        lines[2]
    );
    assert!(lines[2].ends_with(",Ben,player,,,,,,true,"), "{}", lines[2]);

    // Sent to BG Stats: Ben won, the point his.
    let sent = table_json(&t, &format!("/straws/{game}/bgstats")).await;
    let play = support::bgstats_play(sent["url"].as_str().unwrap());
    assert_eq!(play["game"]["sourceGameId"], "straws");
    let players = play["players"].as_array().unwrap();
    let winners: Vec<&Value> = players.iter().filter(|p| p["winner"] == true).collect();
    assert_eq!((winners.len(), &winners[0]["name"]), (1, &json!("Ben")));

    // Exported, and brought to another table, whose history and figures are the same.
    let file = support::answer(t.api(Method::GET, "/history/export.json")).await;
    let other = table().await;
    let done: Value = other
        .api(Method::POST, "/history/import")
        .body(file.to_string())
        .sent()
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(done, json!({"added": 1, "skipped": 0}));
    assert_eq!(table_json(&other, "/statistics").await, stats);
    assert_eq!(
        table_json(&other, "/history").await["games"][0]["record"],
        kept["record"]
    );

    // A rematch, as any rule set's: the same players, a new game.
    let again: Value =
        support::answer(t.api(Method::POST, &format!("/straws/{game}/rematch"))).await;
    let view = table_json(&t, &format!("/straws/{}", again["id"])).await;
    assert_eq!(view["view"]["short"], Value::Null);
    assert_eq!(view["view"]["players"], json!(["Ann", "Ben", "Cy"]));
}
