//! The screens render what the rules send (`allowed`, the views) and work no rule out: no
//! file under `ui/` may hold the rule logic that moved to the rule sets. Each pattern below
//! names a rule that once lived in a screen, and where it lives now.

use std::path::Path;

/// A pattern no screen may contain, and why.
const FORBIDDEN: &[(&str, &str)] = &[
    (
        "intermediate_from",
        "level bands: the view's `spaces` carry each space's level",
    ),
    (
        "high_from",
        "level bands: the view's `spaces` carry each space's level",
    ),
    (
        "hour === ",
        "turn numbers: the view says what an hour brings (`tokens_back`, `before_first_vision`)",
    ),
    (
        "hour == ",
        "turn numbers: the view says what an hour brings",
    ),
    (
        "pawn_cards",
        "where a pawn may go: `allowed`'s `place_intuition`",
    ),
    (
        "may_vote",
        "who may vote: `allowed`'s `vote`, and the view's `voting_now`",
    ),
    (
        "can_pick",
        "whether a group may be picked: `allowed`'s `pick_group`",
    ),
    (
        "can_reveal",
        "whether a card may turn: `allowed`'s `reveal_vision_card`",
    ),
    (
        "crows_left === 0",
        "whether a crow may be spent: `allowed`'s `use_crow`",
    ),
    (
        "seats.has(`player",
        "who votes on the table: `allowed`'s `vote`",
    ),
    (
        "seats.includes(`psychic",
        "who votes on the table: `allowed`'s `vote`",
    ),
    (
        "edition === 'new' && group",
        "whose trace is shown: the view's groups",
    ),
];

fn scripts(dir: &Path, found: &mut Vec<(String, String)>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            scripts(&path, found);
        } else if path.extension().is_some_and(|e| e == "js") {
            let text = std::fs::read_to_string(&path).unwrap();
            found.push((path.display().to_string(), text));
        }
    }
}

#[test]
fn no_screen_works_a_rule_out() {
    let ui = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../ui");
    let mut files = Vec::new();
    scripts(&ui, &mut files);
    assert!(files.len() > 20, "the screens were found");
    let mut broken = Vec::new();
    for (path, text) in &files {
        for (pattern, why) in FORBIDDEN {
            for (n, line) in text.lines().enumerate() {
                if line.contains(pattern) {
                    broken.push(format!("{path}:{}: `{pattern}` ({why})", n + 1));
                }
            }
        }
    }
    assert!(
        broken.is_empty(),
        "rule logic in the screens:\n{}",
        broken.join("\n")
    );
}
