//! The table's settings, kept in the data folder so they survive a restart.
//!
//! Phones may override the language for themselves (in their own browser); these are the
//! table's own choices. What a table tells a rule set once for all its games is that rule
//! set's, kept here under its name and checked by its rules ([`Settled`]).

use crate::files::{set_aside, write_atomically};
use crate::refusals;
use crate::rulesets::rule_set;
use crate::sync::Hold;
use std::collections::BTreeMap;
use std::io;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use seance_timeline::{Refusal, RuleSet, Settled, ensure};
use serde::de::Error as _;
use serde::{Deserialize, Deserializer, Serialize};
use serde_json::Value;

const FILE: &str = "settings.json";

/// The languages the UI speaks, each with its rulebook's own terms.
pub const LANGUAGES: [&str; 3] = ["en", "fr", "it"];

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Settings {
    /// The language the table chose; until it chooses, each screen speaks its browser's
    /// (the window its machine's), where Séance speaks it.
    pub language: Option<String>,
    pub sound: Sound,
    /// Each rule set's own, under its name.
    pub rule_sets: RuleSets,
}

/// Each rule set's settings, under its name, as its rules read them: those told by the
/// table, the defaults of the others (a rule set with no settings is left out). Only a rule
/// set this build knows, in its own shape: anything else is refused as the body's shape is.
#[derive(Debug, Clone, PartialEq)]
pub struct RuleSets(BTreeMap<RuleSet, Value>);

impl Serialize for RuleSets {
    fn serialize<S: serde::Serializer>(&self, out: S) -> Result<S::Ok, S::Error> {
        out.collect_map(
            self.0
                .iter()
                .map(|(rule_set, settings)| (rule_set.name(), settings)),
        )
    }
}

impl Default for RuleSets {
    fn default() -> Self {
        let defaults = RuleSet::ALL.into_iter().filter_map(|rule_set| {
            let settings = rule_set!(rule_set, G => defaults::<G>());
            (!settings.is_null()).then_some((rule_set, settings))
        });
        RuleSets(defaults.collect())
    }
}

impl<'de> Deserialize<'de> for RuleSets {
    fn deserialize<D: Deserializer<'de>>(told: D) -> Result<Self, D::Error> {
        let told = BTreeMap::<String, Value>::deserialize(told)?;
        let RuleSets(mut read) = RuleSets::default();
        for (name, settings) in told {
            let rule_set: RuleSet = name
                .parse()
                .map_err(|_| D::Error::custom(format!("no rule set is named `{name}`")))?;
            let settings =
                rule_set!(rule_set, G => read_as::<G>(settings)).map_err(D::Error::custom)?;
            // A rule set with nothing to keep is left out, as in the defaults.
            if !settings.is_null() {
                read.insert(rule_set, settings);
            }
        }
        Ok(RuleSets(read))
    }
}

/// Rule set `G`'s settings as a table that told nothing has them.
fn defaults<G: Settled>() -> Value {
    serde_json::to_value(G::Settings::default()).expect("settings serialize")
}

/// Whether `G`'s rules take `settings`, read by [`read_as`] before.
fn settled_as<G: Settled>(settings: &Value) -> Result<(), Refusal> {
    G::settled(&serde_json::from_value(settings.clone()).expect("read as its own"))
}

/// `settings` as rule set `G` reads them, in its own words again (its defaults filled in).
fn read_as<G: Settled>(settings: Value) -> Result<Value, serde_json::Error> {
    serde_json::to_value(serde_json::from_value::<G::Settings>(settings)?)
}

impl RuleSets {
    /// Whether each rule set's rules take its settings.
    fn settled(&self) -> Result<(), Refusal> {
        for (&rule_set, settings) in &self.0 {
            rule_set!(rule_set, G => settled_as::<G>(settings))?;
        }
        Ok(())
    }
}

/// A settings file written before each rule set had its own (it has no `rule_sets`): the
/// fields a rule set's settings now hold ([`Settled::FORMERLY_THE_TABLE_S`]) moved from
/// the table's to it.
fn moved_to_their_rule_sets(mut file: Value) -> Value {
    let Some(fields) = file
        .as_object_mut()
        .filter(|f| !f.contains_key("rule_sets"))
    else {
        return file;
    };
    let mut rule_sets = serde_json::Map::new();
    for rule_set in RuleSet::ALL {
        let former = rule_set!(rule_set, G => G::FORMERLY_THE_TABLE_S);
        let own: serde_json::Map<String, Value> = former
            .iter()
            .filter_map(|&field| Some((field.to_owned(), fields.remove(field)?)))
            .collect();
        if !own.is_empty() {
            rule_sets.insert(rule_set.name().to_owned(), own.into());
        }
    }
    fields.insert("rule_sets".into(), rule_sets.into());
    file
}

/// What the table plays, and how loud.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Sound {
    /// Master volume, 0 to 1.
    pub volume: f32,
    /// One switch for everything.
    pub muted: bool,
    /// The generated ambience.
    pub ambience: bool,
    /// The players' own music, 0 to 1 (under the master volume).
    pub music: f32,
    pub shuffle: bool,
    /// Each cue can be turned off on its own.
    pub cues: Cues,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Cues {
    pub hour: bool,
    pub timer: bool,
    pub knocks: bool,
    pub ending: bool,
}

impl Default for Sound {
    fn default() -> Self {
        Sound {
            volume: 0.8,
            muted: false,
            ambience: true,
            music: 0.6,
            shuffle: false,
            cues: Cues::default(),
        }
    }
}

impl Default for Cues {
    fn default() -> Self {
        Cues {
            hour: true,
            timer: true,
            knocks: true,
            ending: true,
        }
    }
}

impl Settings {
    /// Checks a proposed change; the error says what is allowed.
    pub fn validate(&self) -> Result<(), Refusal> {
        if let Some(language) = &self.language {
            ensure(LANGUAGES.contains(&language.as_str()), || {
                Refusal::new(refusals::LANGUAGE)
                    .with("language", language.as_str())
                    .with("languages", LANGUAGES.map(String::from).to_vec())
            })?;
        }
        ensure(
            [self.sound.volume, self.sound.music]
                .iter()
                .all(|level| (0.0..=1.0).contains(level)),
            || Refusal::new(refusals::VOLUME),
        )?;
        self.rule_sets.settled()
    }
}

pub struct SettingsStore {
    path: PathBuf,
    current: Mutex<Settings>,
}

impl SettingsStore {
    /// Loads the settings, or the defaults when there are none. A damaged file is set
    /// aside with a warning, never overwritten.
    pub fn load(dir: &Path) -> io::Result<SettingsStore> {
        let path = dir.join(FILE);
        seance_journal::keep_private(&path);
        let current = match std::fs::read_to_string(&path) {
            Ok(text) => match serde_json::from_str::<Value>(&text)
                .map(moved_to_their_rule_sets)
                .and_then(serde_json::from_value::<Settings>)
                .map_err(|e| e.to_string())
                .and_then(|s| s.validate().map(|()| s).map_err(|e| e.to_string()))
            {
                Ok(settings) => settings,
                Err(why) => {
                    let aside = set_aside(&path)?;
                    tracing::warn!(
                        "the settings file was damaged ({why}); kept it as {} and used the defaults",
                        aside.display()
                    );
                    Settings::default()
                }
            },
            Err(e) if e.kind() == io::ErrorKind::NotFound => Settings::default(),
            Err(e) => return Err(e),
        };
        Ok(SettingsStore {
            path,
            current: Mutex::new(current),
        })
    }

    pub fn get(&self) -> Settings {
        self.current.hold().clone()
    }

    /// Validates, saves durably (write to a temporary file, then rename), then applies.
    pub fn set(&self, settings: Settings) -> Result<(), SetError> {
        settings.validate().map_err(SetError::Invalid)?;
        let mut current = self.current.hold();
        let text = serde_json::to_string_pretty(&settings).expect("settings serialize");
        write_atomically(&self.path, text.as_bytes()).map_err(SetError::Io)?;
        *current = settings;
        Ok(())
    }
}

#[derive(Debug)]
pub enum SetError {
    Invalid(Refusal),
    Io(io::Error),
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn settings_survive_a_restart() {
        let dir = tempfile::tempdir().unwrap();
        let store = SettingsStore::load(dir.path()).unwrap();
        assert_eq!(store.get(), Settings::default());
        store
            .set(Settings {
                language: Some("it".into()),
                ..Settings::default()
            })
            .unwrap();
        assert_eq!(
            SettingsStore::load(dir.path()).unwrap().get().language,
            Some("it".into())
        );
    }

    #[test]
    fn an_unknown_language_is_refused_and_changes_nothing() {
        let dir = tempfile::tempdir().unwrap();
        let store = SettingsStore::load(dir.path()).unwrap();
        let err = store
            .set(Settings {
                language: Some("de".into()),
                ..Settings::default()
            })
            .unwrap_err();
        assert!(
            matches!(err, SetError::Invalid(ref m) if m.code == crate::refusals::LANGUAGE),
            "{err:?}"
        );
        assert_eq!(store.get().language, None);
        assert!(!dir.path().join(FILE).exists());
    }

    #[test]
    fn sound_settings_survive_a_restart_and_a_bad_volume_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let store = SettingsStore::load(dir.path()).unwrap();
        let mut quiet = Settings::default();
        quiet.sound.volume = 0.25;
        quiet.sound.cues.knocks = false;
        store.set(quiet.clone()).unwrap();
        assert_eq!(SettingsStore::load(dir.path()).unwrap().get(), quiet);
        let mut loud = quiet.clone();
        loud.sound.volume = 3.0;
        let err = store.set(loud).unwrap_err();
        assert!(
            matches!(err, SetError::Invalid(ref m) if m.code == crate::refusals::VOLUME),
            "{err:?}"
        );
        assert_eq!(store.get(), quiet);
    }

    #[test]
    fn a_file_from_before_rule_sets_had_their_own_is_read_as_theirs() {
        let dir = tempfile::tempdir().unwrap();
        let bands = serde_json::json!({"6-7": {"intermediate": 4, "high": 8}});
        let file = serde_json::json!({"language": "fr", "track_bands": bands,
            "collection": {"expansions": ["hidden_signs"], "promos": []}});
        std::fs::write(dir.path().join(FILE), file.to_string()).unwrap();
        let read = serde_json::to_value(SettingsStore::load(dir.path()).unwrap().get()).unwrap();
        let mysterium = &read["rule_sets"]["mysterium-classic"];
        assert_eq!(mysterium["track_bands"], bands);
        assert_eq!(
            mysterium["collection"]["expansions"],
            serde_json::json!(["hidden_signs"])
        );
        assert_eq!(mysterium["card_box"]["characters"], serde_json::json!([]));
        assert_eq!(read["language"], "fr");
        assert!(read.get("track_bands").is_none());
        // Nothing set aside: the file was sound.
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
    }

    #[test]
    fn each_rule_set_s_settings_are_read_and_checked_by_its_rules() {
        let read = |told: serde_json::Value| {
            serde_json::from_value::<Settings>(serde_json::json!({ "rule_sets": told }))
        };
        let unknown = read(serde_json::json!({"mysterium": {}})).unwrap_err();
        assert!(
            unknown
                .to_string()
                .contains("no rule set is named `mysterium`"),
            "{unknown}"
        );
        let misshapen = read(serde_json::json!({"mysterium-classic": {"box": []}})).unwrap_err();
        assert!(
            misshapen.to_string().contains("unknown field `box`"),
            "{misshapen}"
        );
        let bands = serde_json::json!({"4-5": {"intermediate": 5, "high": 2}});
        let told = read(serde_json::json!({"mysterium-classic": {"track_bands": bands}})).unwrap();
        let refused = told.validate().unwrap_err();
        assert!(
            refused.code == seance_rules::refusals::BAND_ORDER,
            "{refused:?}"
        );
        assert_eq!(read(serde_json::json!({})).unwrap(), Settings::default());
        let nothing = read(serde_json::json!({"mystery-rummy": null})).unwrap();
        assert_eq!(
            nothing,
            Settings::default(),
            "nothing kept for a rule set with nothing"
        );
    }

    #[test]
    fn a_damaged_file_is_set_aside_not_lost() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join(FILE), "{ language: ").unwrap();
        let store = SettingsStore::load(dir.path()).unwrap();
        assert_eq!(store.get(), Settings::default());
        let names: Vec<String> = std::fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        assert!(
            names
                .iter()
                .any(|n| n.starts_with("settings.json.damaged-")),
            "{names:?}"
        );
    }
}
