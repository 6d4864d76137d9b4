//! The history over the real API, from games really played: Mysterium games played by the
//! rules to their ends and brought in as a history file (with the times a table would have
//! journaled), a Mystery Rummy game played through the API, and a game journaled before
//! records were kept. Their history, their statistics (the figures asserted), archive and
//! delete with undo, export to another table and import refusals, and who may do what.

mod support;

use reqwest::{Method, StatusCode};
use seance_journal::{Append, Journal};
use seance_played::{
    DAY, Played, evening, evening_file, history_file, mysterium, rummy_round, vote_caller,
};
use seance_rules::{Difficulty, Outcome, Status, Timeline};
use seance_timeline::Listed;
use serde_json::{Value, json};
use support::{Sent, Table, act_as, error_of, ok, refused_as, table, table_json};

async fn import(t: &Table, file: &Value) -> reqwest::Response {
    t.api(Method::POST, "/history/import")
        .body(file.to_string())
        .sent()
        .await
}

/// A Mystery Rummy game for Ann and Ben played through the API to its end: each round Ann
/// votes for Druitt (Jack: five Druitt Evidence lie on the table), Ben for Jill. Its rounds.
async fn rummy_through_the_api(t: &Table) -> usize {
    let game = support::rummy_for_two(t).await;
    for round in 1.. {
        let view = table_json(t, &format!("/rummy/{game}")).await;
        if !view["view"]["winner"].is_null() {
            return round - 1;
        }
        for command in rummy_round(&vote_caller(&view)) {
            ok(act_as(t, "rummy", game, None, command).await).await;
        }
        assert!(round < 30, "a game of Mystery Rummy ends");
    }
    unreachable!()
}

#[tokio::test]
async fn the_history_and_its_statistics_come_from_the_games_played() {
    let t = table().await;
    // Before any game: nothing to count, said as such.
    let none = table_json(&t, "/statistics").await;
    assert_eq!(none["games"], 0);
    assert!(
        none["rule_sets"]["mysterium-classic"].is_null()
            && none["rule_sets"]["mystery-rummy"].is_null()
    );

    let evening = evening();
    let [won, on_time, wrong_group] = &evening;
    let outcomes: Vec<_> = [&won, &on_time, &wrong_group]
        .iter()
        .map(|g| g.timeline.game().outcome)
        .collect();
    assert_eq!(
        outcomes,
        [
            Some(Outcome::Won),
            Some(Outcome::LostOnTime),
            Some(Outcome::LostWrongGroup)
        ]
    );
    let file = evening_file(&evening);
    let done: Value = import(&t, &file).await.json().await.unwrap();
    assert_eq!(done, json!({"added": 3, "skipped": 0}));
    let rounds = rummy_through_the_api(&t).await;

    // The history: newest first (the rummy game just played), each with its facts.
    let page = table_json(&t, "/history").await;
    let games = page["games"].as_array().unwrap();
    assert_eq!(games.len(), 4);
    assert_eq!(page["more"], false);
    assert_eq!(games[0]["ruleset"], "mystery-rummy");
    assert_eq!(games[0]["record"]["players"], json!(["Ann", "Ben"]));
    assert_eq!(games[0]["record"]["rounds"], rounds);
    assert_eq!(
        games[0]["record"]["winner"], 0,
        "Ann scores her right votes"
    );
    assert_eq!(
        games[0]["record"]["votes"],
        json!([{"cast": rounds, "right": rounds}, {"cast": rounds, "right": 0}])
    );
    let [wrong, time, win] = [&games[1], &games[2], &games[3]];
    assert_eq!(
        [&win["minutes"], &time["minutes"], &wrong["minutes"]],
        [45, 70, 52]
    );
    assert_eq!(win["began"], DAY);
    // What the screens call each game, in the words it was told in.
    assert_eq!(
        [&games[0]["title"], &win["title"], &win["dialect"]],
        [
            &json!("mystery-rummy"),
            &json!("mysterium-classic"),
            &Value::Null
        ]
    );
    assert_eq!(win["record"]["outcome"], "won");
    assert_eq!(win["record"]["difficulty"], "medium");
    assert_eq!(win["record"]["players"], 5);
    assert_eq!(win["record"]["ghost"], "Laura");
    for p in win["record"]["psychics"].as_array().unwrap() {
        // Right every turn: the third card is found in the third hour.
        assert_eq!((&p["found"], &p["finished"]), (&json!(3), &json!(3)), "{p}");
    }
    assert_eq!(time["record"]["outcome"], "lost_on_time");
    assert_eq!(time["record"]["hour"], 7);
    for p in time["record"]["psychics"].as_array().unwrap() {
        assert_eq!(p["found"], 0);
        assert!(p["finished"].is_null());
    }
    assert_eq!(wrong["record"]["outcome"], "lost_wrong_group");
    for p in wrong["record"]["psychics"].as_array().unwrap() {
        // Wrong in hour I, right from hour II: the third card in hour IV.
        assert_eq!(p["finished"], 4, "{p}");
    }
    // Each psychic's clairvoyancy is the track as the rules left it.
    for (shown, played) in [(win, &won), (wrong, &wrong_group)] {
        let tracks: Vec<u8> = played
            .timeline
            .game()
            .psychics
            .iter()
            .map(|p| p.track)
            .collect();
        let shown: Vec<u8> = shown["record"]["psychics"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| p["track"].as_u64().unwrap() as u8)
            .collect();
        assert_eq!(shown, tracks);
    }
    // A page at a time.
    let first = table_json(&t, "/history?limit=3").await;
    assert_eq!(
        (first["games"].as_array().unwrap().len(), &first["more"]),
        (3, &json!(true))
    );
    let next = table_json(&t, "/history?limit=3&offset=3").await;
    assert_eq!(next["games"][0]["id"], win["id"]);

    // Everyone's statistics.
    let all = table_json(&t, "/statistics").await;
    assert_eq!(all["games"], 4);
    let m = &all["rule_sets"]["mysterium-classic"];
    assert_eq!(m["rate"], json!({"games": 3, "won": 1}));
    assert_eq!(
        m["by_level"],
        json!([["easy", {"games": 1, "won": 0}], ["medium", {"games": 1, "won": 1}], ["hard", {"games": 1, "won": 0}]])
    );
    assert_eq!(
        m["by_players"],
        json!([[4, {"games": 1, "won": 0}], [5, {"games": 2, "won": 1}]])
    );
    assert_eq!(
        m["ghosts"],
        json!([{"name": "Laura", "rate": {"games": 2, "won": 1}}, {"name": "Stephanie", "rate": {"games": 1, "won": 0}}])
    );
    let hours: Vec<(u64, u64, u64)> = m["hours"]
        .as_array()
        .unwrap()
        .iter()
        .map(|h| {
            (
                h["hour"].as_u64().unwrap(),
                h["won"].as_u64().unwrap(),
                h["lost"].as_u64().unwrap(),
            )
        })
        .collect();
    assert_eq!(hours.len(), 7);
    let ended = |g: &Played| g.timeline.game().hour as u64;
    for (hour, won_in, lost_in) in hours {
        let games_won = u64::from(ended(won) == hour);
        let games_lost = u64::from(ended(on_time) == hour) + u64::from(ended(wrong_group) == hour);
        assert_eq!((won_in, lost_in), (games_won, games_lost), "hour {hour}");
    }
    let stephanie = m["clairvoyancy"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["name"] == "Stephanie")
        .unwrap();
    let her_track = |g: &Played| g.timeline.game().psychics[0].track as u64;
    assert_eq!(stephanie["psychics"], 2, "a psychic twice, the ghost once");
    assert_eq!(stephanie["finished"], 2);
    assert_eq!(stephanie["spaces"], her_track(won) + her_track(wrong_group));
    let r = &all["rule_sets"]["mystery-rummy"];
    assert_eq!(r["games"], 1);
    assert_eq!(r["rounds"], json!([[rounds, 1]]));
    assert_eq!(
        r["accuracy"],
        json!([{"name": "Ann", "cast": rounds, "right": rounds}, {"name": "Ben", "cast": rounds, "right": 0}])
    );
    assert_eq!(r["highest"][0]["name"], "Ann");
    assert_eq!(r["highest"][0]["total"], games[0]["record"]["totals"][0]);
    assert_eq!(
        all["groups"][0],
        json!(["Alex", "Carl", "Laura", "Paul", "Stephanie"]),
        "the group that played most comes first"
    );

    // One group: the same five people, in any order.
    let group = serde_json::to_string(&["Paul", "Laura", "Stephanie", "Carl", "Alex"]).unwrap();
    let theirs = table_json(&t, &format!("/statistics?group={}", urlencode(&group))).await;
    assert_eq!(theirs["games"], 2);
    assert_eq!(
        theirs["rule_sets"]["mysterium-classic"]["rate"],
        json!({"games": 2, "won": 1})
    );
    assert!(theirs["rule_sets"]["mystery-rummy"].is_null());
    // One player: her games, her own figures.
    let hers = table_json(&t, "/statistics?player=Stephanie").await;
    assert_eq!(hers["games"], 3);
    assert_eq!(
        hers["rule_sets"]["mysterium-classic"]["ghosts"],
        json!([{"name": "Stephanie", "rate": {"games": 1, "won": 0}}])
    );
    assert_eq!(
        hers["rule_sets"]["mysterium-classic"]["clairvoyancy"]
            .as_array()
            .unwrap()
            .len(),
        1
    );
    refused_as(
        t.api(Method::GET, "/statistics?group=Ann&player=Ann")
            .sent()
            .await,
        StatusCode::BAD_REQUEST,
        seance_server::refusals::STATISTICS_QUERY,
    )
    .await;

    // Archived: out of the history, still counted. Deleted: out of both, and undone.
    let shelve = async |id: &Value, shelf: &str| {
        t.api(Method::POST, &format!("/history/{id}/shelf"))
            .json(&json!({ "shelf": shelf }))
            .sent()
            .await
    };
    ok(shelve(&time["id"], "archived").await).await;
    let ids = |page: &Value| -> Vec<Value> {
        page["games"]
            .as_array()
            .unwrap()
            .iter()
            .map(|g| g["id"].clone())
            .collect()
    };
    assert!(!ids(&table_json(&t, "/history").await).contains(&time["id"]));
    assert_eq!(
        ids(&table_json(&t, "/history?archived=true").await),
        [time["id"].clone()]
    );
    assert_eq!(table_json(&t, "/statistics").await["games"], 4);
    ok(shelve(&wrong["id"], "deleted").await).await;
    assert!(!ids(&table_json(&t, "/history").await).contains(&wrong["id"]));
    let listed = table_json(&t, "/games?limit=50").await;
    assert!(
        listed
            .as_array()
            .unwrap()
            .iter()
            .all(|g| g["id"] != wrong["id"]),
        "a deleted game is in no list"
    );
    assert_eq!(
        table_json(&t, "/statistics").await["rule_sets"]["mysterium-classic"]["rate"]["games"],
        2
    );
    ok(shelve(&wrong["id"], "history").await).await;
    assert!(ids(&table_json(&t, "/history").await).contains(&wrong["id"]));
    assert_eq!(
        table_json(&t, "/statistics").await["rule_sets"]["mysterium-classic"]["rate"]["games"],
        3
    );
    let (status, _) = error_of(shelve(&json!(999), "archived").await).await;
    assert_eq!(status, StatusCode::NOT_FOUND);

    // The whole history to another table: the same figures there; brought in twice, once.
    let exported = support::answer(t.api(Method::GET, "/history/export.json")).await;
    assert_eq!(exported["games"].as_array().unwrap().len(), 4);
    assert_eq!(
        import(&t, &exported).await.json::<Value>().await.unwrap(),
        json!({"added": 0, "skipped": 4}),
        "this table's own games are here already"
    );
    let other = table().await;
    let done: Value = import(&other, &exported).await.json().await.unwrap();
    assert_eq!(done, json!({"added": 4, "skipped": 0}));
    let again: Value = import(&other, &exported).await.json().await.unwrap();
    assert_eq!(again, json!({"added": 0, "skipped": 4}));
    let (here, there) = (
        table_json(&t, "/statistics").await,
        table_json(&other, "/statistics").await,
    );
    assert_eq!(here, there);
    assert_eq!(
        table_json(&other, "/history?archived=true").await["games"][0]["minutes"],
        70,
        "archived there too, with its length"
    );

    // The CSV table: a header, then a row per player of each game.
    let csv = support::table_text(&t, "/history/export.csv").await;
    let lines: Vec<&str> = csv.lines().collect();
    assert!(lines[0].starts_with("game,rule_set,edition,difficulty,began_utc,minutes,outcome"));
    assert_eq!(lines.len(), 1 + 5 + 4 + 5 + 2);
    assert!(
        lines[1].contains(",mysterium-classic,classic,medium,2026-09-21 14:13:20,45,won,"),
        "{}",
        lines[1]
    );
}

fn urlencode(text: &str) -> String {
    text.bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' => char::from(b).to_string(),
            _ => format!("%{b:02X}"),
        })
        .collect()
}

#[tokio::test]
async fn a_bad_file_is_refused_with_what_to_do_and_changes_nothing() {
    let t = table().await;
    let won = mysterium(
        "Laura",
        &["Stephanie", "Alex", "Carl"],
        Difficulty::Easy,
        1,
        true,
    );
    let good = history_file(&[(&won, DAY, 30)]);
    let refused = async |body: String| {
        error_of(
            t.api(Method::POST, "/history/import")
                .body(body)
                .sent()
                .await,
        )
        .await
    };

    let (status, why) = refused("this is not a history".into()).await;
    assert_eq!(
        (status, why.code.as_str()),
        (
            StatusCode::UNPROCESSABLE_ENTITY,
            seance_server::refusals::IMPORT_NOT_A_HISTORY
        )
    );
    let mut other = good.clone();
    other["format"] = json!("something-else");
    assert_eq!(
        refused(other.to_string()).await.1.code,
        seance_server::refusals::IMPORT_NOT_A_HISTORY
    );
    let mut newer = good.clone();
    newer["version"] = json!(2);
    newer["games"] = json!("a shape this build cannot know");
    let (_, why) = refused(newer.to_string()).await;
    assert_eq!(why.code, seance_server::refusals::IMPORT_NEWER);
    assert_eq!(why.params["version"], 2);
    let mut newer_entry = good.clone();
    assert_eq!(seance_played::ENTRY_FORMAT, seance_journal::FORMAT);
    newer_entry["games"][0]["entries"][3]["format"] = json!(seance_journal::FORMAT + 1);
    assert_eq!(
        refused(newer_entry.to_string()).await.1.code,
        seance_server::refusals::IMPORT_NEWER
    );
    let mut unknown = good.clone();
    unknown["games"][0]["ruleset"] = json!("chess");
    let (_, why) = refused(unknown.to_string()).await;
    assert_eq!(
        (why.code.as_str(), &why.params["game"]),
        (seance_server::refusals::IMPORT_UNKNOWN_RULESET, &json!(1))
    );
    // A game cut short (it has not ended), or with an entry its rules refuse.
    let mut unfinished = history_file(&[(&won, DAY, 30), (&won, DAY, 30)]);
    unfinished["games"][0]["origin"] = json!("elsewhere/7");
    let entries = unfinished["games"][1]["entries"].as_array_mut().unwrap();
    entries.truncate(entries.len() - 1);
    let (_, why) = refused(unfinished.to_string()).await;
    assert_eq!(
        (why.code.as_str(), &why.params["game"]),
        (seance_server::refusals::IMPORT_DAMAGED, &json!(2))
    );
    let mut forged = good.clone();
    forged["games"][0]["entries"][0]["entry"]["events"] = json!([{"type": "timer_ended"}]);
    assert_eq!(
        refused(forged.to_string()).await.1.code,
        seance_server::refusals::IMPORT_DAMAGED
    );
    // A setup no new game could have: a name far past the rules' length.
    let mut long = good.clone();
    long["games"][0]["start"][0]["setup"]["ghost"] = json!("x".repeat(100_000));
    assert_eq!(
        refused(long.to_string()).await.1.code,
        seance_server::refusals::IMPORT_DAMAGED
    );
    // A file past the limit is refused before it is read.
    let (status, why) = refused("x".repeat(33 * 1024 * 1024)).await;
    assert_eq!(
        (status, why.code.as_str(), &why.params["most_mib"]),
        (
            StatusCode::PAYLOAD_TOO_LARGE,
            seance_server::refusals::IMPORT_TOO_LARGE,
            &json!(32)
        )
    );
    // Nothing came in.
    assert_eq!(table_json(&t, "/history").await["games"], json!([]));
    assert_eq!(table_json(&t, "/statistics").await["games"], 0);
    ok(import(&t, &good).await).await;
    assert_eq!(table_json(&t, "/statistics").await["games"], 1);
}

#[tokio::test]
async fn only_the_table_shelves_exports_and_imports() {
    let t = table().await;
    let won = mysterium(
        "Laura",
        &["Stephanie", "Alex", "Carl"],
        Difficulty::Easy,
        1,
        true,
    );
    ok(import(&t, &history_file(&[(&won, DAY, 30)])).await).await;
    let id = table_json(&t, "/history").await["games"][0]["id"].clone();
    // A watcher (the join code alone) reads the history and its statistics...
    let page = support::answer(t.joined(Method::GET, "/history")).await;
    assert_eq!(page["games"][0]["id"], id);
    let status = t.joined(Method::GET, "/statistics").sent().await.status();
    assert_eq!(status, StatusCode::OK);
    // ...and changes nothing, nor takes the journal away.
    for (method, path) in [
        (Method::POST, format!("/history/{id}/shelf")),
        (Method::GET, "/history/export.json".into()),
        (Method::GET, "/history/export.csv".into()),
        (Method::POST, "/history/import".into()),
    ] {
        let (status, why) = error_of(
            t.joined(method, &path)
                .json(&json!({"shelf": "deleted"}))
                .sent()
                .await,
        )
        .await;
        assert_eq!(
            (status, why.code.as_str()),
            (StatusCode::FORBIDDEN, seance_timeline::refusals::TABLE_ONLY),
            "{path}"
        );
    }
    assert_eq!(table_json(&t, "/history").await["games"][0]["id"], id);
    let (status, _) = error_of(
        t.api(Method::POST, &format!("/history/{id}/shelf"))
            .json(&json!({"shelf": "bin"}))
            .sent()
            .await,
    )
    .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    refused_as(
        t.api(Method::GET, "/history?limit=500").sent().await,
        StatusCode::UNPROCESSABLE_ENTITY,
        seance_server::refusals::LIST_LIMIT,
    )
    .await;
}

#[tokio::test]
async fn a_game_that_ended_before_records_were_kept_is_in_the_history() {
    let dir = tempfile::tempdir().unwrap();
    let won = mysterium(
        "Laura",
        &["Stephanie", "Alex", "Carl"],
        Difficulty::Easy,
        1,
        true,
    );
    {
        // Journaled as an older Séance did: entries and a status, no record.
        let mut journal = Journal::open(&dir.path().join("seance.sqlite3")).unwrap();
        let (first, _) = Timeline::begin(won.start.clone()).unwrap();
        let id = journal.create(&won.start, first.game()).unwrap();
        for (seq, entry) in won.entries.iter().enumerate() {
            let status = if seq + 1 == won.entries.len() {
                Status::Won
            } else {
                Status::Playing
            };
            journal
                .append_all(&[Append::new(
                    id,
                    seq as u64 + 1,
                    entry,
                    status,
                    Some("table"),
                )])
                .unwrap();
        }
    }
    let t = support::serve_in(dir).await;
    let page = table_json(&t, "/history").await;
    assert_eq!(page["games"].as_array().unwrap().len(), 1);
    assert_eq!(page["games"][0]["record"]["outcome"], "won");
    assert_eq!(page["games"][0]["record"]["ghost"], "Laura");
}

/// A large history brought in writes its games a chunk to a commit, and the journal's
/// writers take turns: the table's own game goes on between the chunks, a change for
/// (nearly) every chunk written, however long the import. (`bench/memory` measures how
/// long each change waited.)
#[tokio::test]
async fn the_table_plays_on_while_a_large_history_is_brought_in() {
    let t = table().await;
    let evening = evening();
    let [won, on_time, wrong_group] = &evening;
    let many: Vec<(&Played, i64, i64)> = (0..400)
        .flat_map(|k| {
            let day = DAY + k * 86_400;
            [
                (won, day, 45),
                (on_time, day + 3600, 70),
                (wrong_group, day + 7200, 52),
            ]
        })
        .collect();
    let chunks = many.len().div_ceil(seance_journal::IMPORT_CHUNK);
    let file = history_file(&many).to_string();
    let game = support::rummy_for_two(&t).await;
    let view = table_json(&t, &format!("/rummy/{game}")).await;
    let first = rummy_round(&vote_caller(&view)).remove(0);
    ok(act_as(&t, "rummy", game, None, first).await).await;
    let importing = tokio::spawn({
        let request = t.api(Method::POST, "/history/import").body(file);
        async move { request.sent().await }
    });
    // Once games are being written…
    while table_json(&t, "/history?limit=1").await["games"] == json!([]) {
        assert!(!importing.is_finished(), "the import was seen under way");
        tokio::time::sleep(std::time::Duration::from_millis(2)).await;
    }
    // …the table undoes and redoes as fast as it can until the import is done.
    let mut version = 1;
    let mut answered = 0;
    for how in ["undo", "redo"].iter().cycle() {
        if importing.is_finished() {
            break;
        }
        let asked = t
            .api(Method::POST, &format!("/rummy/{game}/{how}"))
            .json(&json!({ "version": version }));
        version = support::json_of(asked).await["version"].as_u64().unwrap();
        answered += 1;
    }
    let done: Value = importing.await.unwrap().json().await.unwrap();
    eprintln!(
        "{} games in {chunks} chunks: {answered} of the table's changes written meanwhile",
        many.len()
    );
    assert_eq!(done, json!({"added": many.len(), "skipped": 0}));
    assert!(
        answered >= chunks / 2,
        "{answered} changes for {chunks} chunks: the table waited behind the import"
    );
}

/// A history an earlier build exported imports as it was written: its Mystery Rummy rounds'
/// events name no vote's caller, where this build's rules do. The same entries said to be
/// this build's are held to being decided again, and refused.
#[tokio::test]
async fn an_earlier_builds_history_imports_as_it_was_written() {
    let t = table().await;
    let setup = seance_rummy::Setup {
        players: vec!["Ann".into(), "Ben".into()],
        printed: Default::default(),
    };
    let (mut timeline, start) = seance_rummy::begin(setup, 5).unwrap();
    let at_the_table = seance_timeline::Who::Table { phones: Vec::new() };
    let mut entries = Vec::new();
    while timeline.game().record().is_none() {
        let allowed = json!({ "allowed": timeline.game().allowed(&at_the_table) });
        for command in rummy_round(&vote_caller(&allowed)) {
            let entry = timeline
                .decide(serde_json::from_value(command).unwrap())
                .unwrap();
            timeline.push(entry.clone()).unwrap();
            let mut written = serde_json::to_value(&entry).unwrap();
            for event in written["events"].as_array_mut().into_iter().flatten() {
                event.as_object_mut().unwrap().remove("called_by");
            }
            entries.push(written);
        }
    }
    let file = |format: i64| {
        let entries: Vec<Value> = (entries.iter())
            .map(|e| json!({"format": format, "entry": e, "sender": "table"}))
            .collect();
        json!({"format": "seance-history", "version": 1, "exported_at": DAY, "games": [{
            "origin": "another-table/1", "ruleset": seance_timeline::RuleSet::MysteryRummy.name(),
            "began": DAY, "ended": DAY + 1800, "start": start, "entries": entries}]})
    };
    let (_, why) = error_of(import(&t, &file(seance_journal::FORMAT)).await).await;
    assert_eq!(why.code, seance_server::refusals::IMPORT_DAMAGED);
    ok(import(&t, &file(1)).await).await;
    let history = table_json(&t, "/history").await;
    assert_eq!(history["games"].as_array().unwrap().len(), 1, "{history}");
}
