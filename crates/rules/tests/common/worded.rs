//! Shared by the rule sets' tests (Mystery Rummy's includes it by path): a refusal's
//! English words, with a param for each blank.

use seance_timeline::Refusal;

/// Panics unless `refusal` has its words in the English file and a param for each blank.
pub fn worded(refusal: &Refusal) {
    static ENGLISH: std::sync::LazyLock<std::collections::HashMap<String, String>> =
        std::sync::LazyLock::new(|| {
            let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../ui/i18n/en.json");
            serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
        });
    let phrase = ENGLISH
        .get(&format!("refusal.{}", refusal.code))
        .unwrap_or_else(|| panic!("no English words for {refusal}"));
    let unfilled = refusal.unfilled(phrase);
    assert!(
        unfilled.is_empty(),
        "{refusal} leaves {unfilled:?} blank in {phrase:?}"
    );
}
