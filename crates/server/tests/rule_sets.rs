//! Every rule set is registered in every shell: the server tells each one (in the home
//! page, its key, the UI's pages of its games and its setup's facts, from its own
//! rules), and the UI has its screens (`ui/app.js`'s `SCREENS`), its history's lines
//! (`ui/screens/history.js`'s `RECORDS`) and its statistics' section
//! (`ui/screens/statistics.js`'s `STATISTICS`) for each, by the names `ui/rule_sets.js`
//! gives them. A rule set added to one shell and not the other fails here; within the server, the
//! compiler holds every match on a rule set (`rulesets.rs`'s `rule_set!`).

mod support;

use std::collections::BTreeSet;
use std::path::Path;

use seance_timeline::RuleSet;
use support::table;

fn ui(path: &str) -> String {
    std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../ui")
            .join(path),
    )
    .unwrap()
}

/// The rule sets' names a registry of `file` (`const NAME = { [CONSTANT]: …` a line) keys
/// its entries by, the constants read as `ui/rule_sets.js` defines them.
fn registered(file: &str, registry: &str) -> BTreeSet<String> {
    let names = ui("rule_sets.js");
    let named = |constant: &str| {
        let at = names
            .find(&format!("export const {constant} = '"))
            .unwrap_or_else(|| panic!("ui/rule_sets.js names no {constant}"));
        let rest = &names[at + format!("export const {constant} = '").len()..];
        rest[..rest.find('\'').unwrap()].to_owned()
    };
    let text = ui(file);
    let start = text
        .find(&format!("const {registry} = {{"))
        .unwrap_or_else(|| panic!("{file} has no {registry}"));
    let body = &text[start..];
    let body = &body[..body.find("\n};").unwrap()];
    // Its entries are the lines of the first depth that open with `[CONSTANT]:`.
    body.lines()
        .filter_map(|line| line.strip_prefix("  ["))
        .map(|line| named(&line[..line.find(']').unwrap()]))
        .collect()
}

#[tokio::test]
async fn the_server_tells_every_rule_set_with_its_pages_and_facts() {
    let t = table().await;
    let page = t.get("/").send().await.unwrap().text().await.unwrap();
    let script = "<script type=\"application/json\" id=\"rule-sets\">";
    let json = &page[page.find(script).expect(&page) + script.len()..];
    let told: serde_json::Value =
        serde_json::from_str(&json[..json.find("</script>").unwrap()]).unwrap();
    let told = told.as_array().unwrap();
    assert_eq!(told.len(), RuleSet::ALL.len(), "{page}");
    for (rule_set, told) in RuleSet::ALL.into_iter().zip(told) {
        assert_eq!(told["name"], rule_set.name(), "{told}");
        assert_eq!(told["key"], rule_set.key(), "{told}");
        for page in ["new", "game", "join", "phone"] {
            let path = told["pages"][page].as_str().unwrap();
            assert!(path.starts_with("#/"), "{path}");
            assert_eq!(path.contains("{id}"), page != "new", "{path}");
        }
        assert!(told["facts"]["players"].is_array() || told["facts"]["players"].is_object());
    }
    // Mysterium's facts are its rules' own.
    let mysterium = &told[0]["facts"];
    assert_eq!(
        mysterium["players"]["new"],
        serde_json::json!([3, 4, 5, 6, 7])
    );
    assert_eq!(mysterium["sand_timer"]["box"], 120);
    assert_eq!(told[1]["facts"]["deal"]["4"], 8);
}

#[test]
fn the_ui_has_screens_history_lines_and_statistics_for_every_rule_set() {
    let all: BTreeSet<String> = RuleSet::ALL.map(|r| r.name().to_owned()).into();
    assert_eq!(registered("app.js", "SCREENS"), all, "ui/app.js's SCREENS");
    for (file, registry) in [
        ("screens/history.js", "RECORDS"),
        ("screens/statistics.js", "STATISTICS"),
    ] {
        assert_eq!(registered(file, registry), all, "ui/{file}'s {registry}");
    }
}
