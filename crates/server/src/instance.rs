//! One table per machine: the first launch holds a lock in the data folder and publishes
//! where it serves; a later launch finds it there and asks it to come to the front instead
//! of starting a second server.

use std::fs::{File, OpenOptions, TryLockError};
use std::io::{self, Read, Write};
use std::net::{Ipv4Addr, TcpStream};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};

const LOCK: &str = "instance.lock";
const RECORD: &str = "instance.json";

/// The outcome of [`claim`].
pub enum Claim {
    /// This launch is the only one: keep the lock alive as long as the server runs.
    First(InstanceLock),
    /// Another launch is serving the table.
    Running(Record),
}

/// Held by the running launch; the OS releases it if the process dies.
pub struct InstanceLock {
    _file: File,
    record: PathBuf,
}

/// Where the running launch serves, for a later launch on this machine and for programs:
/// `join_url` is what phones get (the QR code), `table_url` what makes a device the table.
#[derive(Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Record {
    pub port: u16,
    pub join_url: String,
    pub table_url: String,
    /// The table key, for a later launch on this machine to open the table.
    pub key: String,
}

/// Takes the data folder's lock, or reads who holds it.
pub fn claim(dir: &Path) -> io::Result<Claim> {
    seance_journal::create_private_dir(dir)?;
    let file = seance_journal::open_private(
        &dir.join(LOCK),
        OpenOptions::new().create(true).truncate(false).write(true),
    )?;
    let record = dir.join(RECORD);
    match file.try_lock() {
        Ok(()) => Ok(Claim::First(InstanceLock {
            _file: file,
            record,
        })),
        Err(TryLockError::WouldBlock) => read_record(&record).map(Claim::Running),
        Err(TryLockError::Error(e)) => Err(e),
    }
}

/// The first launch may still be starting: wait a little for its record.
fn read_record(path: &Path) -> io::Result<Record> {
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        let found = std::fs::read_to_string(path)
            .ok()
            .and_then(|text| serde_json::from_str(&text).ok());
        match found {
            Some(record) => return Ok(record),
            None if Instant::now() < deadline => std::thread::sleep(Duration::from_millis(100)),
            None => {
                return Err(io::Error::other(format!(
                    "another Séance holds {} but has not said where it serves; if none is running, delete that file",
                    path.with_file_name(LOCK).display()
                )));
            }
        }
    }
}

impl InstanceLock {
    /// Tells later launches (and programs) where this one serves.
    pub fn publish(&self, record: &Record) -> io::Result<()> {
        // It holds the table key.
        crate::files::write_atomically(&self.record, &serde_json::to_vec_pretty(record)?)
    }
}

impl Drop for InstanceLock {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.record);
    }
}

impl Record {
    /// The table link for a screen on this machine.
    pub fn local_url(&self) -> String {
        format!("http://127.0.0.1:{}/?key={}", self.port, self.key)
    }

    /// Asks the running launch to bring its window to the front.
    pub fn ask_to_focus(&self) -> io::Result<()> {
        let mut stream = TcpStream::connect((Ipv4Addr::LOCALHOST, self.port))?;
        stream.set_read_timeout(Some(Duration::from_secs(5)))?;
        write!(
            stream,
            "POST /api/instance/focus HTTP/1.1\r\nHost: 127.0.0.1:{}\r\nAuthorization: Bearer {}\r\nContent-Length: 0\r\nConnection: close\r\n\r\n",
            self.port, self.key
        )?;
        let mut reply = String::new();
        stream.read_to_string(&mut reply)?;
        match reply.split(' ').nth(1) {
            Some("204") => Ok(()),
            _ => Err(io::Error::other(format!(
                "the running Séance did not answer as expected: {}",
                reply.lines().next().unwrap_or("no reply")
            ))),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_second_claim_finds_the_first() {
        let dir = tempfile::tempdir().unwrap();
        let Claim::First(lock) = claim(dir.path()).unwrap() else {
            panic!("the first claim must win");
        };
        let published = Record {
            port: 4750,
            join_url: "http://192.168.1.40:4750/?code=0123456789".into(),
            table_url: "http://192.168.1.40:4750/?key=ABC".into(),
            key: "ABC".into(),
        };
        lock.publish(&published).unwrap();
        let Claim::Running(record) = claim(dir.path()).unwrap() else {
            panic!("the second claim must find the first");
        };
        assert_eq!(record, published);
        assert_eq!(record.local_url(), "http://127.0.0.1:4750/?key=ABC");
        drop(lock);
        assert!(matches!(claim(dir.path()).unwrap(), Claim::First(_)));
    }
}
