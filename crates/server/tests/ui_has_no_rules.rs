//! The screens render what the rules send (`allowed`, the views) and work no rule out:
//! - every field a screen reads of a view (`view.hour`) is one the rule sets' views send,
//!   found in every role's view at every step of whole games played by their rules;
//! - no screen compares a view's number with a number of its own (`view.round === 1`):
//!   what a number means is the rules' to say, in a field of its own;
//! - no file under `ui/` holds the rule logic that moved to the rule sets: each pattern
//!   below names a rule that once lived in a screen, and where it lives now.

use std::collections::BTreeSet;
use std::path::Path;

use seance_played::{evening, mysterium, new_edition, rummy};
use seance_rules::Difficulty;
use seance_timeline::{RoleName, RuleBook, Timeline};

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

fn screens() -> Vec<(String, String)> {
    let ui = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../ui");
    let mut files = Vec::new();
    scripts(&ui, &mut files);
    assert!(files.len() > 20, "the screens were found");
    files
}

/// Each `view.FIELD` a screen reads: its line, the field, and what follows it.
fn view_reads(text: &str) -> Vec<(usize, &str, &str)> {
    let word = |c: char| c.is_ascii_alphanumeric() || c == '_' || c == '$';
    let mut reads = Vec::new();
    for (n, line) in text.lines().enumerate() {
        for (at, _) in line.match_indices("view.") {
            if line[..at].ends_with(word) {
                continue;
            }
            let rest = &line[at + "view.".len()..];
            let end = rest.find(|c: char| !word(c)).unwrap_or(rest.len());
            if end > 0 {
                reads.push((n + 1, &rest[..end], &rest[end..]));
            }
        }
    }
    reads
}

/// The top-level fields of every role's view of `timeline`'s game, at every step of it.
fn sent<G: RuleBook>(timeline: &Timeline<G>, fields: &mut BTreeSet<String>) {
    let events: Vec<G::Event> = timeline.events().cloned().collect();
    for k in 1..=events.len() {
        let game = G::replay(&events[..k]).unwrap();
        for role in std::iter::once(G::Role::TABLE).chain(game.seats().into_iter().map(Into::into))
        {
            let view = serde_json::to_value(game.view(role).unwrap()).unwrap();
            fields.extend(view.as_object().unwrap().keys().cloned());
        }
    }
}

#[test]
fn screens_read_only_what_the_views_send() {
    let mut fields = BTreeSet::new();
    let mysterium = evening().into_iter().chain([
        mysterium("Laura", &["Ana", "Bo"], Difficulty::Easy, 1, true),
        new_edition("Laura", &["Ana", "Bo", "Cy"], 1, true),
        new_edition("Laura", &["Ana", "Bo", "Cy", "Dee"], 9, false),
    ]);
    for played in mysterium {
        sent(&played.timeline, &mut fields);
    }
    sent(&rummy(&["Ann", "Ben", "Cleo"]), &mut fields);
    assert!(
        fields.contains("hour") && fields.contains("dealer"),
        "{fields:?}"
    );
    let mut unsent = Vec::new();
    let mut read = 0;
    for (path, text) in screens() {
        for (line, field, _) in view_reads(&text) {
            read += 1;
            if !fields.contains(field) {
                unsent.push(format!("{path}:{line}: `view.{field}`"));
            }
        }
    }
    assert!(read > 100, "the screens' reads were found: {read}");
    assert!(
        unsent.is_empty(),
        "screens read what no view sends (worked out, or renamed):\n{}",
        unsent.join("\n")
    );
}

#[test]
fn no_screen_gives_a_views_number_a_meaning() {
    let mut compared = Vec::new();
    for (path, text) in screens() {
        for (line, field, after) in view_reads(&text) {
            let after = after.strip_prefix(".length").unwrap_or(after).trim_start();
            let operator = ["===", "!==", "==", "!=", "<=", ">=", "<", ">"]
                .into_iter()
                .find(|o| after.starts_with(o));
            if let Some(o) = operator
                && after[o.len()..]
                    .trim_start()
                    .starts_with(|c: char| c.is_ascii_digit())
            {
                compared.push(format!("{path}:{line}: `view.{field} {o} …`"));
            }
        }
    }
    assert!(
        compared.is_empty(),
        "screens compare a view's number with their own (the view should say what it means):\n{}",
        compared.join("\n")
    );
}

#[test]
fn no_screen_works_a_rule_out() {
    let files = screens();
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

/// A game's edition decides rules and words alike, so no screen tests it: the view says what
/// follows from it (`decision`, `answers_knock`), the snapshot and the lists the words it is
/// told in (`dialect`, `title`). Only the setup form, where the edition is chosen, reads it.
#[test]
fn only_the_setup_form_reads_an_edition() {
    let read: Vec<String> = (screens().iter())
        .filter(|(path, _)| !path.ends_with("screens/mysterium/setup.js"))
        .flat_map(|(path, text)| {
            (text.lines().enumerate())
                .filter(|(_, line)| line.contains(".edition"))
                .map(move |(n, line)| format!("{path}:{}: {}", n + 1, line.trim()))
        })
        .collect();
    assert!(
        read.is_empty(),
        "screens testing an edition:\n{}",
        read.join("\n")
    );
}
