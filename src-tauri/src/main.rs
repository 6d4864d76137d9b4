//! Séance's entry point: parses the command line, makes sure only one table runs on this
//! machine, then opens the table window — or serves headless when asked or when there is
//! no display.

mod cli;
mod headless;
mod paint;
mod window;

use std::process::ExitCode;

use seance_server::instance::{self, Claim};

fn main() -> ExitCode {
    window::lighter_javascript();
    tracing_subscriber::fmt()
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_default_env().unwrap_or_else(|_| "info".into()),
        )
        .with_writer(std::io::stderr)
        .init();

    let options = match cli::Options::parse(std::env::args().skip(1)) {
        Ok(cli::Parsed::Run(options)) => options,
        Ok(cli::Parsed::Help) => {
            println!("{}", cli::USAGE);
            return ExitCode::SUCCESS;
        }
        Err(why) => {
            eprintln!("seance: {why}\n\n{}", cli::USAGE);
            return ExitCode::from(2);
        }
    };

    let lock = match instance::claim(&options.config.data_dir) {
        Ok(Claim::First(lock)) => lock,
        Ok(Claim::Running(running)) => {
            return match running.ask_to_focus() {
                Ok(()) => {
                    println!(
                        "Séance is already running at {}; brought its table to the front.",
                        running.local_url()
                    );
                    ExitCode::SUCCESS
                }
                Err(e) => {
                    eprintln!("seance: another Séance is running but did not answer: {e}");
                    ExitCode::FAILURE
                }
            };
        }
        Err(e) => {
            eprintln!(
                "seance: cannot use the data folder {} ({e}); choose another with --data-dir",
                options.config.data_dir.display()
            );
            return ExitCode::FAILURE;
        }
    };

    let result = if options.headless || !window::display_available() {
        if !options.headless {
            eprintln!("seance: no display found; serving headless.");
        }
        headless::run(lock, options.config)
    } else {
        window::run(lock, options.config)
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("seance: {e}");
            ExitCode::FAILURE
        }
    }
}
