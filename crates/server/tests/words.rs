//! The screens' words: every language has every phrase with the same blanks, and every
//! refusal any crate can send has its words in every language and its line in
//! `docs/API.md`, with no words left for a refusal nobody sends.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

const LANGUAGES: [&str; 3] = ["en", "fr", "it"];

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn words(language: &str) -> BTreeMap<String, String> {
    let path = root().join(format!("ui/i18n/{language}.json"));
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// The `{blanks}` a phrase has.
fn blanks(phrase: &str) -> BTreeSet<&str> {
    phrase
        .split('{')
        .skip(1)
        .filter_map(|rest| rest.split_once('}').map(|(name, _)| name))
        .collect()
}

fn rust_files(dir: &Path, found: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, found);
        } else if path.extension().is_some_and(|e| e == "rs") {
            found.push(path);
        }
    }
}

/// Every refusal code the crates send: each crate's `refusals::ALL`.
fn codes_sent() -> BTreeSet<String> {
    [
        seance_timeline::refusals::ALL,
        seance_rules::refusals::ALL,
        seance_rummy::refusals::ALL,
        seance_server::refusals::ALL,
    ]
    .concat()
    .into_iter()
    .map(str::to_owned)
    .collect()
}

/// No crate sends a code written on the spot, where the compiler would not check it: each
/// `Refusal::new(…)`, `refused(StatusCode::…, …)` and query refusal (`Asked::REFUSED`)
/// takes a crate's `refusals` constant.
#[test]
fn every_refusal_is_sent_by_its_constant() {
    let mut files = Vec::new();
    for krate in ["timeline", "rules", "rummy", "server", "journal"] {
        rust_files(&root().join("crates").join(krate).join("src"), &mut files);
    }
    let mut written = Vec::new();
    for file in files {
        let text = std::fs::read_to_string(&file).unwrap();
        for opening in ["Refusal::new(", "refused(", "const REFUSED: &'static str ="] {
            for (at, _) in text.match_indices(opening) {
                let mut rest = text[at + opening.len()..].trim_start();
                if let Some(after) = rest.strip_prefix("StatusCode::") {
                    let Some((_, after)) = after.split_once(',') else {
                        continue;
                    };
                    rest = after.trim_start();
                }
                if rest.starts_with('"') {
                    let line = text[..at].lines().count();
                    written.push(format!("{}:{line}", file.display()));
                }
            }
        }
    }
    assert!(
        written.is_empty(),
        "codes written on the spot, not as a crate's `refusals` constant: {written:?}"
    );
}

#[test]
fn every_language_has_every_phrase_with_the_same_blanks() {
    let english = words("en");
    for language in ["fr", "it"] {
        let theirs = words(language);
        // A `new:` phrase is the new edition's own word where it differs; without one, the
        // classic phrase serves.
        let classic = |w: &BTreeMap<String, String>| -> BTreeSet<String> {
            w.keys()
                .filter(|k| !k.starts_with("new:"))
                .cloned()
                .collect()
        };
        assert_eq!(
            classic(&english),
            classic(&theirs),
            "{language}: the same phrases"
        );
        for (key, phrase) in &theirs {
            let base = key.strip_prefix("new:").unwrap_or(key);
            let reference = english
                .get(key)
                .or(english.get(base))
                .unwrap_or_else(|| panic!("{language}: {key} has no English phrase"));
            assert_eq!(
                blanks(phrase),
                blanks(reference),
                "{language}: {key} has other blanks than in English"
            );
        }
    }
}

#[test]
fn every_refusal_sent_is_worded_in_every_language_and_listed_in_the_api() {
    let codes = codes_sent();
    assert!(
        codes.len() > 100
            && codes.contains(seance_rules::refusals::ONE_VISION_PER_TURN)
            && codes.contains(seance_server::refusals::SEAT_FREED),
        "every crate's codes: {codes:?}"
    );
    let api = std::fs::read_to_string(root().join("docs/API.md")).unwrap();
    for language in LANGUAGES {
        let words = words(language);
        for code in &codes {
            assert!(
                words.contains_key(&format!("refusal.{code}")),
                "{language} has no words for the refusal {code}"
            );
        }
        let worded: BTreeSet<String> = words
            .keys()
            .filter_map(|k| {
                k.strip_prefix("refusal.")
                    .or(k.strip_prefix("new:refusal."))
            })
            .map(str::to_owned)
            .collect();
        let unsent: Vec<_> = worded.difference(&codes).collect();
        assert!(
            unsent.is_empty(),
            "{language} words refusals nobody sends: {unsent:?}"
        );
    }
    for code in &codes {
        assert!(
            api.contains(&format!("| `{code}` |")),
            "docs/API.md does not list the refusal {code}"
        );
    }
}

/// Every phase a game's view can be in has its words: a screen naming the phase never shows
/// a raw key (the ghost's phone once read `phase.ended`).
#[test]
fn every_phase_is_worded_in_every_language() {
    use seance_rules::Phase;
    let phases = [
        Phase::Visions,
        Phase::Interpretation,
        Phase::Manifestation,
        Phase::Revelation,
        Phase::Ended,
    ];
    for phase in phases {
        // A phase added to the rules must be added here too.
        match phase {
            Phase::Visions
            | Phase::Interpretation
            | Phase::Manifestation
            | Phase::Revelation
            | Phase::Ended => {}
        }
        let name = serde_json::to_value(phase).unwrap();
        let key = format!("phase.{}", name.as_str().unwrap());
        for language in LANGUAGES {
            assert!(
                words(language).contains_key(&key),
                "{language} has no {key}"
            );
        }
    }
}

/// The clock's marks are words: every language, in each dialect that has its own, marks
/// every hour of the game once.
#[test]
fn every_hour_has_its_mark_in_every_language() {
    for language in LANGUAGES {
        let words = words(language);
        for key in ["hour.marks", "new:hour.marks"] {
            let marks: Vec<&str> = words[key].split(' ').collect();
            assert_eq!(
                marks.len(),
                seance_rules::HOURS as usize,
                "{language} {key}"
            );
            assert!(marks.iter().all(|m| !m.is_empty()), "{language} {key}");
        }
    }
}
