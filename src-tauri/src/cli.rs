//! The command line: few options, each explained in `--help`.

use std::path::PathBuf;

use seance_server::{Config, DEFAULT_PORT};

pub const USAGE: &str = "\
Usage: seance [--headless] [--port N] [--data-dir DIR]

Opens the Séance table window and serves phones on the local network.

Options:
  --headless      serve without a window (also chosen when no display is available)
                  and print the join link and its QR code here
  --port N        the port to try first (default 4747; the next free one is used if busy;
                  0 lets the system choose)
  --data-dir DIR  where games and settings are kept (default: the user's data folder)
  -h, --help      show this help";

pub struct Options {
    pub headless: bool,
    pub config: Config,
}

pub enum Parsed {
    Run(Options),
    Help,
}

impl Options {
    pub fn parse(args: impl IntoIterator<Item = String>) -> Result<Parsed, String> {
        let mut headless = false;
        let mut port = DEFAULT_PORT;
        let mut data_dir = None;
        let mut args = args.into_iter();
        while let Some(arg) = args.next() {
            match arg.as_str() {
                "--headless" => headless = true,
                "--port" => {
                    let value = args.next().ok_or("--port needs a number")?;
                    port = value.parse().map_err(|_| {
                        format!("--port needs a number from 0 to 65535, not {value:?}")
                    })?;
                }
                "--data-dir" => {
                    data_dir = Some(PathBuf::from(
                        args.next().ok_or("--data-dir needs a folder")?,
                    ));
                }
                "-h" | "--help" => return Ok(Parsed::Help),
                other => return Err(format!("unknown option {other:?}")),
            }
        }
        let data_dir = match data_dir {
            Some(dir) => dir,
            None => dirs::data_dir()
                .ok_or("no user data folder is known here; choose one with --data-dir")?
                .join("seance"),
        };
        Ok(Parsed::Run(Options {
            headless,
            config: Config { data_dir, port },
        }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(args: &[&str]) -> Result<Parsed, String> {
        Options::parse(args.iter().map(|s| s.to_string()))
    }

    #[test]
    fn options_are_read() {
        let Ok(Parsed::Run(o)) = parse(&["--headless", "--port", "0", "--data-dir", "/tmp/x"])
        else {
            panic!("valid options must parse");
        };
        assert!(o.headless);
        assert_eq!(o.config.port, 0);
        assert_eq!(o.config.data_dir, PathBuf::from("/tmp/x"));
    }

    #[test]
    fn mistakes_are_explained() {
        assert_eq!(parse(&["--port"]).err().unwrap(), "--port needs a number");
        assert!(
            parse(&["--port", "http"])
                .err()
                .unwrap()
                .contains("0 to 65535")
        );
        assert!(
            parse(&["--fullscreen"])
                .err()
                .unwrap()
                .contains("--fullscreen")
        );
        assert!(matches!(parse(&["-h"]), Ok(Parsed::Help)));
    }
}
