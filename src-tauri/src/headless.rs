//! Headless mode: the server alone, with the table link and the join link (and its QR code)
//! in the terminal, so any laptop can host and a tablet's browser opening the table link
//! can be the table screen.

use seance_server::instance::InstanceLock;
use seance_server::{Config, Requests, Server, qr};

pub fn run(lock: InstanceLock, mut config: Config) -> Result<(), Box<dyn std::error::Error>> {
    tauri::async_runtime::block_on(async move {
        // Listening before the links are printed: a stop asked as soon as they show is heard.
        let mut stop = Stop::listen()?;
        loop {
            let mut server = Server::start(config.clone()).await?;
            lock.publish(&server.record())?;
            print_links(&server);
            let Requests {
                mut focus,
                mut restart,
            } = server.take_requests().expect("requests are taken once");
            let again = loop {
                tokio::select! {
                    _ = stop.asked() => break false,
                    Some(()) = restart.recv() => break true,
                    Some(()) = focus.recv() => println!(
                        "Another launch asked for the table: it is at {}",
                        server.local_url()
                    ),
                }
            };
            // Started again on the same port, so every screen's link still holds.
            config.port = server.port();
            if !again {
                println!("Stopping…");
                server.shutdown().await;
                break;
            }
            println!("Starting again on the journal, as the table chose…");
            server.shutdown().await;
        }
        drop(lock);
        Ok(())
    })
}

fn print_links(server: &Server) {
    if let Some(trouble) = server.trouble() {
        println!(
            "Séance checked its journal and found: {trouble}\nThe table screen asks what to do; no game is served until then.\n"
        );
    }
    println!(
        "Séance is serving the table (no window).\n\n\
         Table screen on this machine: {}\n\
         Table screen on a tablet (keep this link to yourself): {}\n\
         Phones on the local network: {}\n\
         Join code: {}\n\n{}\n\
         Phones scan this code with their camera. Press Ctrl+C to stop.",
        server.local_url(),
        server.table_url(),
        server.join_url(),
        server.join_code().spaced(),
        qr::terminal(server.join_url()),
    );
}

/// Ctrl+C, or (on Unix) the system asking the service to stop: either stops it cleanly, so a
/// running sand timer is journaled where it is.
struct Stop {
    #[cfg(unix)]
    signals: [tokio::signal::unix::Signal; 2],
}

impl Stop {
    /// Listens from now on (on Unix; elsewhere Ctrl+C is heard from the first wait).
    fn listen() -> std::io::Result<Stop> {
        #[cfg(unix)]
        {
            use tokio::signal::unix::{SignalKind, signal};
            Ok(Stop {
                signals: [
                    signal(SignalKind::interrupt())?,
                    signal(SignalKind::terminate())?,
                ],
            })
        }
        #[cfg(not(unix))]
        Ok(Stop {})
    }

    async fn asked(&mut self) {
        #[cfg(unix)]
        {
            let [interrupt, terminate] = &mut self.signals;
            tokio::select! {
                _ = interrupt.recv() => {}
                _ = terminate.recv() => {}
            }
        }
        #[cfg(not(unix))]
        let _ = tokio::signal::ctrl_c().await;
    }
}
