//! A small disk of its own for a test of what a full or read-only disk does: a tmpfs
//! mounted on a new folder (root only, as CI runs; a developer's run without root says the
//! test was skipped), unmounted when dropped.

use std::path::Path;
use std::process::Command;

/// A tmpfs mounted for a test.
pub struct SmallDisk(tempfile::TempDir);

impl SmallDisk {
    /// A disk of `size` (`32m`), or none where mounting one needs root.
    pub fn mount(size: &str) -> Option<SmallDisk> {
        let root = Command::new("id")
            .arg("-u")
            .output()
            .is_ok_and(|o| o.stdout.trim_ascii() == b"0");
        if !root {
            eprintln!("skipped: mounting a small disk needs root (CI runs as root)");
            return None;
        }
        let dir = tempfile::tempdir().unwrap();
        let mounted = Command::new("mount")
            .args(["-t", "tmpfs", "-o", &format!("size={size}"), "tmpfs"])
            .arg(dir.path())
            .status()
            .is_ok_and(|s| s.success());
        assert!(mounted, "a small tmpfs mounted");
        Some(SmallDisk(dir))
    }

    pub fn path(&self) -> &Path {
        self.0.path()
    }

    /// Mounts it again read-only (`true`) or writable: a folder nobody may write, even
    /// root.
    pub fn read_only(&self, read_only: bool) {
        let how = if read_only {
            "remount,ro"
        } else {
            "remount,rw"
        };
        let done = Command::new("mount")
            .args(["-o", how])
            .arg(self.path())
            .status()
            .is_ok_and(|s| s.success());
        assert!(done, "the small disk mounted again {how}");
    }

    /// Fills what is left of it.
    pub fn fill(&self) {
        self.fill_leaving(0);
    }

    /// Fills it but for about `free` bytes, in a file named `filler`.
    pub fn fill_leaving(&self, free: u64) {
        let mut filler = std::fs::File::create(self.path().join("filler")).unwrap();
        let block = vec![7u8; 4096];
        while std::io::Write::write_all(&mut filler, &block).is_ok() {}
        let _ = filler.sync_all();
        filler
            .set_len(filler.metadata().unwrap().len().saturating_sub(free))
            .unwrap();
    }
}

impl Drop for SmallDisk {
    fn drop(&mut self) {
        let _ = Command::new("umount").arg(self.path()).status();
    }
}
