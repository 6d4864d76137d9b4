//! The server's own small files (the settings, the seats, the credentials, the instance
//! record): each written whole or not at all, and one found damaged set aside, never
//! overwritten.

use std::io;
use std::path::{Path, PathBuf};

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
}
