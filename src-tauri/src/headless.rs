//! Headless mode: the server alone, with the table link and the join link (and its QR code)
//! in the terminal, so any laptop can host and a tablet's browser opening the table link
//! can be the table screen.

use seance_server::instance::InstanceLock;
use seance_server::{Config, Requests, Server, qr};

pub fn run(lock: InstanceLock, mut config: Config) -> Result<(), Box<dyn std::error::Error>> {
    tauri::async_runtime::block_on(async move {
        let stopped = stop_asked();
        tokio::pin!(stopped);
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
                    _ = &mut stopped => break false,
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
async fn stop_asked() {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{SignalKind, signal};
        match signal(SignalKind::terminate()) {
            Ok(mut term) => tokio::select! {
                _ = tokio::signal::ctrl_c() => {}
                _ = term.recv() => {}
            },
            Err(_) => {
                let _ = tokio::signal::ctrl_c().await;
            }
        }
    }
    #[cfg(not(unix))]
    let _ = tokio::signal::ctrl_c().await;
}
