//! The two secrets of a table, kept in the data folder across restarts:
//!
//! - the **join code**, on the QR code: ten Crockford base32 characters (50 random bits),
//!   short enough to read aloud or type, and with failed attempts rate-limited, far beyond
//!   guessing. It lets a device watch and take a free seat; never act as the table.
//! - the **table key**, in the table link only (the table window, or a tablet opening the
//!   link from the terminal): 26 characters (130 random bits), never typed, never in a QR
//!   code. It alone gives the table's powers.

use std::fmt;
use std::io;
use std::path::Path;

/// Crockford's alphabet: no I, L, O or U, so nothing reads as another character.
const ALPHABET: &[u8; 32] = b"0123456789ABCDEFGHJKMNPQRSTVWXYZ";
const LEN: usize = 10;
/// Kept under its first name, so that phones keep their code across an upgrade.
const FILE: &str = "table-code";
const KEY_LEN: usize = 26;
const KEY_FILE: &str = "table-key";

#[derive(Clone, PartialEq, Eq)]
pub struct JoinCode(String);

/// `len` characters of [`ALPHABET`] from the operating system's random source.
fn random(len: usize) -> io::Result<String> {
    let mut bytes = vec![0u8; len];
    getrandom::fill(&mut bytes).map_err(io::Error::other)?;
    Ok(bytes
        .iter()
        .map(|b| ALPHABET[(b & 31) as usize] as char)
        .collect())
}

/// The secret kept in `dir/file`, or a new one saved there. A damaged file is set aside
/// (never silently overwritten) and replaced.
fn load_or_create<T>(
    dir: &Path,
    file: &str,
    parse: impl Fn(&str) -> Option<T>,
    generate: impl Fn() -> io::Result<T>,
    text: impl Fn(&T) -> &str,
) -> io::Result<T> {
    let path = dir.join(file);
    seance_journal::keep_private(&path);
    match std::fs::read_to_string(&path) {
        Ok(kept) => match parse(kept.trim()) {
            Some(secret) => return Ok(secret),
            None => {
                let aside = crate::files::set_aside(&path)?;
                tracing::warn!(
                    "{} was damaged; kept it as {} and made a new one",
                    path.display(),
                    aside.display()
                );
            }
        },
        Err(e) if e.kind() == io::ErrorKind::NotFound => {}
        Err(e) => return Err(e),
    }
    let secret = generate()?;
    crate::files::write_atomically(&path, format!("{}\n", text(&secret)).as_bytes())?;
    Ok(secret)
}

impl JoinCode {
    /// A fresh code from the operating system's random source.
    pub fn generate() -> io::Result<JoinCode> {
        random(LEN).map(JoinCode)
    }

    /// Reads a code in any of the ways a person might type it: lower case, with a dash or
    /// spaces, and with the letters Crockford maps (I/L → 1, O → 0).
    pub fn parse(text: &str) -> Option<JoinCode> {
        let code: String = text
            .chars()
            .filter(|c| !matches!(c, '-' | ' '))
            .map(|c| match c.to_ascii_uppercase() {
                'I' | 'L' => '1',
                'O' => '0',
                c => c,
            })
            .collect();
        (code.len() == LEN && code.bytes().all(|b| ALPHABET.contains(&b))).then_some(JoinCode(code))
    }

    /// The code kept in `dir`, or a new one saved there.
    pub fn load_or_create(dir: &Path) -> io::Result<JoinCode> {
        load_or_create(dir, FILE, JoinCode::parse, JoinCode::generate, |c| &c.0)
    }

    /// Compares in constant time, so response timing tells nothing about a guess.
    pub fn matches(&self, candidate: &str) -> bool {
        let Some(candidate) = JoinCode::parse(candidate) else {
            return false;
        };
        equal_in_constant_time(self.0.as_bytes(), candidate.0.as_bytes())
    }

    /// The code as people read it: `ABCDE-FGHJK`.
    pub fn spaced(&self) -> String {
        format!("{}-{}", &self.0[..5], &self.0[5..])
    }
}

impl fmt::Display for JoinCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl fmt::Debug for JoinCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("JoinCode(…)")
    }
}

/// The table's own key: what the table link carries, and nothing else does.
#[derive(Clone, PartialEq, Eq)]
pub struct TableKey(String);

impl TableKey {
    fn parse(text: &str) -> Option<TableKey> {
        (text.len() == KEY_LEN && text.bytes().all(|b| ALPHABET.contains(&b)))
            .then(|| TableKey(text.to_owned()))
    }

    /// The key kept in `dir`, or a new one saved there.
    pub fn load_or_create(dir: &Path) -> io::Result<TableKey> {
        load_or_create(
            dir,
            KEY_FILE,
            TableKey::parse,
            || random(KEY_LEN).map(TableKey),
            |k| &k.0,
        )
    }

    /// Compares in constant time, exactly as written (the key is never typed).
    pub fn matches(&self, candidate: &str) -> bool {
        equal_in_constant_time(self.0.as_bytes(), candidate.as_bytes())
    }
}

impl fmt::Display for TableKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl fmt::Debug for TableKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("TableKey(…)")
    }
}

/// Whether two secrets are equal, in a time that depends only on their lengths.
pub(crate) fn equal_in_constant_time(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn generated_codes_are_well_formed_and_differ() {
        let a = JoinCode::generate().unwrap();
        let b = JoinCode::generate().unwrap();
        assert_eq!(JoinCode::parse(&a.to_string()), Some(a.clone()));
        assert_ne!(a, b, "50 random bits should not repeat");
    }

    #[test]
    fn typed_variants_are_accepted() {
        let code = JoinCode::parse("0123456789").unwrap();
        assert!(code.matches("01234-56789"));
        assert!(code.matches("o1234 56789"));
        assert!(code.matches("0I234567L9".replace('L', "8").as_str()));
        assert!(!code.matches("0123456788"));
        assert!(!code.matches("012345678"));
        assert!(!code.matches("0123456789U"));
    }

    #[test]
    fn the_key_is_long_kept_and_never_a_code() {
        let dir = tempfile::tempdir().unwrap();
        let key = TableKey::load_or_create(dir.path()).unwrap();
        assert_eq!(TableKey::load_or_create(dir.path()).unwrap(), key);
        assert_eq!(key.to_string().len(), KEY_LEN);
        assert!(key.matches(&key.to_string()));
        assert!(!key.matches(&key.to_string().to_lowercase()));
        let code = JoinCode::load_or_create(dir.path()).unwrap();
        assert!(!key.matches(&code.to_string()));
        assert!(!code.matches(&key.to_string()));
    }

    #[test]
    fn code_survives_a_restart_and_a_damaged_file_is_set_aside() {
        let dir = tempfile::tempdir().unwrap();
        let first = JoinCode::load_or_create(dir.path()).unwrap();
        assert_eq!(JoinCode::load_or_create(dir.path()).unwrap(), first);

        std::fs::write(dir.path().join(FILE), "not a code").unwrap();
        let second = JoinCode::load_or_create(dir.path()).unwrap();
        assert_ne!(second, first);
        let kept: Vec<_> = std::fs::read_dir(dir.path())
            .unwrap()
            .filter_map(|e| e.ok())
            .filter(|e| {
                e.file_name()
                    .to_string_lossy()
                    .starts_with("table-code.damaged")
            })
            .collect();
        assert_eq!(kept.len(), 1, "the damaged file must be kept aside");
        assert_eq!(
            std::fs::read_to_string(kept[0].path()).unwrap(),
            "not a code"
        );
    }
}
