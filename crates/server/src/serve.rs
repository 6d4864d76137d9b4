//! Accepting connections, so that no client can wedge the table: a connection must send
//! its request's headers within [`HEADERS_WITHIN`] and its body within [`BODY_WITHIN`], or
//! it is closed; one address holds at most [`PER_ADDRESS`] connections at once (a phone's
//! browser needs a handful; a script holding hundreds half-open gets no more); and stopping
//! lets the requests under way finish.

use crate::sync::Hold;
use std::collections::HashMap;
use std::net::{IpAddr, SocketAddr};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use crate::access::Hushed;
use axum::Router;
use axum::extract::ConnectInfo;
use hyper::body::Incoming;
use hyper_util::rt::{TokioExecutor, TokioIo, TokioTimer};
use hyper_util::server::conn::auto::Builder;
use hyper_util::server::graceful::GracefulShutdown;
use tokio::net::TcpListener;
use tokio::sync::watch;
use tower::ServiceExt;
use tower_http::timeout::RequestBodyTimeoutLayer;

pub const HEADERS_WITHIN: Duration = Duration::from_secs(10);
pub const BODY_WITHIN: Duration = Duration::from_secs(10);
pub const PER_ADDRESS: usize = 64;

/// Open connections per address.
#[derive(Default)]
struct Open(Mutex<HashMap<IpAddr, usize>>);

/// One connection's place, given back when it closes.
struct Place(Arc<Open>, IpAddr);

impl Open {
    fn admit(self: &Arc<Self>, ip: IpAddr) -> Option<Place> {
        let mut open = self.0.hold();
        let count = open.entry(ip).or_default();
        if *count >= PER_ADDRESS {
            return None;
        }
        *count += 1;
        Some(Place(self.clone(), ip))
    }
}

impl Drop for Place {
    fn drop(&mut self) {
        let mut open = self.0.0.hold();
        if let Some(count) = open.get_mut(&self.1) {
            *count -= 1;
            if *count == 0 {
                open.remove(&self.1);
            }
        }
    }
}

/// Serves `app` on `listener` until `stopped` says so.
pub async fn serve(
    listener: TcpListener,
    app: Router,
    mut stopped: watch::Receiver<bool>,
) -> std::io::Result<()> {
    let app = app.layer(RequestBodyTimeoutLayer::new(BODY_WITHIN));
    let open = Arc::new(Open::default());
    let hushed = Hushed::default();
    let graceful = GracefulShutdown::new();
    let mut builder = Builder::new(TokioExecutor::new());
    builder
        .http1()
        .timer(TokioTimer::new())
        .header_read_timeout(HEADERS_WITHIN);
    loop {
        let (stream, peer) = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok(accepted) => accepted,
                Err(e) => {
                    // Out of file descriptors, say: wait for some to close rather than spin.
                    tracing::warn!("could not accept a connection: {e}");
                    tokio::time::sleep(Duration::from_millis(100)).await;
                    continue;
                }
            },
            _ = async { let _ = stopped.wait_for(|stopped| *stopped).await; } => break,
        };
        let Some(place) = open.admit(peer.ip()) else {
            if let Some(unsaid) = hushed.say(peer.ip()) {
                tracing::warn!(peer = %peer.ip(), unsaid, "refused a connection: {PER_ADDRESS} already open from this address");
            }
            continue;
        };
        let app = app.clone();
        let builder = builder.clone();
        let watcher = graceful.watcher();
        tokio::spawn(async move {
            // Hyper times the headers from their first byte: a connection that sends none
            // is timed here, before it is handed over.
            let first = tokio::time::timeout(HEADERS_WITHIN, stream.peek(&mut [0u8; 1])).await;
            if matches!(first, Ok(Ok(1..))) {
                let service =
                    hyper::service::service_fn(move |mut request: hyper::Request<Incoming>| {
                        request
                            .extensions_mut()
                            .insert(ConnectInfo::<SocketAddr>(peer));
                        app.clone().oneshot(request)
                    });
                let connection = builder
                    .serve_connection_with_upgrades(TokioIo::new(stream), service)
                    .into_owned();
                // A client that goes away or times out ends its connection: nothing to say.
                let _ = watcher.watch(connection).await;
            }
            drop(place);
        });
    }
    graceful.shutdown().await;
    Ok(())
}
