//! The table code: the secret every phone needs to join this table.
//!
//! Ten Crockford base32 characters (50 random bits) — short enough to read aloud or type,
//! and with failed attempts rate-limited, far beyond guessing. It is kept in the data
//! folder so phones that joined before a restart still get in.

use std::fmt;
use std::io;
use std::path::Path;

/// Crockford's alphabet: no I, L, O or U, so nothing reads as another character.
const ALPHABET: &[u8; 32] = b"0123456789ABCDEFGHJKMNPQRSTVWXYZ";
const LEN: usize = 10;
const FILE: &str = "table-code";

#[derive(Clone, PartialEq, Eq)]
pub struct TableCode(String);

impl TableCode {
    /// A fresh code from the operating system's random source.
    pub fn generate() -> io::Result<TableCode> {
        let mut bytes = [0u8; LEN];
        getrandom::fill(&mut bytes).map_err(io::Error::other)?;
        Ok(TableCode(
            bytes
                .iter()
                .map(|b| ALPHABET[(b & 31) as usize] as char)
                .collect(),
        ))
    }

    /// Reads a code in any of the ways a person might type it: lower case, with a dash or
    /// spaces, and with the letters Crockford maps (I/L → 1, O → 0).
    pub fn parse(text: &str) -> Option<TableCode> {
        let code: String = text
            .chars()
            .filter(|c| !matches!(c, '-' | ' '))
            .map(|c| match c.to_ascii_uppercase() {
                'I' | 'L' => '1',
                'O' => '0',
                c => c,
            })
            .collect();
        (code.len() == LEN && code.bytes().all(|b| ALPHABET.contains(&b)))
            .then_some(TableCode(code))
    }

    /// The code kept in `dir`, or a new one saved there. A damaged file is set aside (never
    /// silently overwritten) and replaced.
    pub fn load_or_create(dir: &Path) -> io::Result<TableCode> {
        let path = dir.join(FILE);
        match std::fs::read_to_string(&path) {
            Ok(text) => match TableCode::parse(text.trim()) {
                Some(code) => return Ok(code),
                None => {
                    let aside = crate::settings::set_aside(&path)?;
                    tracing::warn!(
                        "the table code file was damaged; kept it as {} and made a new code",
                        aside.display()
                    );
                }
            },
            Err(e) if e.kind() == io::ErrorKind::NotFound => {}
            Err(e) => return Err(e),
        }
        let code = TableCode::generate()?;
        std::fs::write(&path, format!("{}\n", code.0))?;
        Ok(code)
    }

    /// Compares in constant time, so response timing tells nothing about a guess.
    pub fn matches(&self, candidate: &str) -> bool {
        let Some(candidate) = TableCode::parse(candidate) else {
            return false;
        };
        equal_in_constant_time(self.0.as_bytes(), candidate.0.as_bytes())
    }

    /// The code as people read it: `ABCDE-FGHJK`.
    pub fn spaced(&self) -> String {
        format!("{}-{}", &self.0[..5], &self.0[5..])
    }
}

impl fmt::Display for TableCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl fmt::Debug for TableCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("TableCode(…)")
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
        let a = TableCode::generate().unwrap();
        let b = TableCode::generate().unwrap();
        assert_eq!(TableCode::parse(&a.to_string()), Some(a.clone()));
        assert_ne!(a, b, "50 random bits should not repeat");
    }

    #[test]
    fn typed_variants_are_accepted() {
        let code = TableCode::parse("0123456789").unwrap();
        assert!(code.matches("01234-56789"));
        assert!(code.matches("o1234 56789"));
        assert!(code.matches("0I234567L9".replace('L', "8").as_str()));
        assert!(!code.matches("0123456788"));
        assert!(!code.matches("012345678"));
        assert!(!code.matches("0123456789U"));
    }

    #[test]
    fn code_survives_a_restart_and_a_damaged_file_is_set_aside() {
        let dir = tempfile::tempdir().unwrap();
        let first = TableCode::load_or_create(dir.path()).unwrap();
        assert_eq!(TableCode::load_or_create(dir.path()).unwrap(), first);

        std::fs::write(dir.path().join(FILE), "not a code").unwrap();
        let second = TableCode::load_or_create(dir.path()).unwrap();
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
