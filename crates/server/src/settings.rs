//! The table's settings, kept in the data folder so they survive a restart.
//!
//! Phones may override the language for themselves (in their own browser); these are the
//! table's own choices.

use crate::refusals;
use crate::sync::Hold;
use std::io;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use seance_rules::{CardBox, Collection, TrackBands};
use seance_timeline::{Refusal, ensure};
use serde::{Deserialize, Serialize};

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
    /// The card sets in the table's box of Mysterium's new edition, as the players
    /// entered them (the rulebook prints no numbers).
    pub card_box: CardBox,
    /// The expansions and promo cards the table owns, for classic's draws.
    pub collection: Collection,
    /// The bands printed on the table's clairvoyancy track, told once for every game.
    pub track_bands: TrackBands,
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
        self.card_box.validate()?;
        self.collection.validate()?;
        self.track_bands.validate()
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
            Ok(text) => match serde_json::from_str::<Settings>(&text)
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

/// Writes `path` whole or not at all, its owner's alone; a write refused (a full disk)
/// leaves nothing behind.
pub(crate) fn write_atomically(path: &Path, bytes: &[u8]) -> io::Result<()> {
    use std::io::Write;
    let tmp = path.with_extension("tmp");
    let written = seance_journal::create_private(&tmp).and_then(|mut file| {
        file.write_all(bytes)?;
        file.sync_all()?;
        std::fs::rename(&tmp, path)
    });
    if written.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    written
}

/// Renames a damaged file to `<name>.damaged-<unix seconds>` and returns the new path.
pub(crate) fn set_aside(path: &Path) -> io::Result<PathBuf> {
    let stamp = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0);
    let name = path.file_name().unwrap_or_default().to_string_lossy();
    let aside = path.with_file_name(format!("{name}.damaged-{stamp}"));
    std::fs::rename(path, &aside)?;
    Ok(aside)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_refused_write_leaves_no_file_behind() {
        let dir = tempfile::tempdir().unwrap();
        // A folder where the file should be: the rename is refused after the write.
        let path = dir.path().join("settings.json");
        std::fs::create_dir(&path).unwrap();
        std::fs::write(path.join("inside"), b"x").unwrap();
        assert!(write_atomically(&path, b"{}").is_err());
        let left: Vec<_> = std::fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(left, ["settings.json"], "no settings.tmp");
    }

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
