//! Accepting connections, so that no client can wedge the table: a connection must send
//! its request's headers within [`HEADERS_WITHIN`] (an idle one between requests too) and
//! its whole body within [`BODY_WITHIN`] of them, and take what it is sent within
//! [`TAKEN_WITHIN`], or it is closed; each connection holds a place (`places.rs`), and one
//! let go for a newcomer closes once its answer under way is sent. Stopping lets the
//! requests under way finish. Only HTTP/1.1 is spoken: browsers speak
//! HTTP/2 only over TLS, which a table on a LAN has not, so cleartext HTTP/2 would bring
//! a page nothing and a script a connection no header timeout covers.

use crate::places::{MOST_OPEN, Open, PER_ADDRESS};
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use std::io;
use std::pin::Pin;
use std::task::{Context, Poll, ready};

use crate::access::Hushed;
use axum::Router;
use axum::body::Body;
use axum::extract::{ConnectInfo, Request};
use bytes::Bytes;
use http_body::Frame;
use hyper::body::Incoming;
use hyper::server::conn::http1::Builder;
use hyper_util::rt::{TokioIo, TokioTimer};
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::watch;
use tokio::task::JoinSet;
use tokio::time::{Instant, Sleep};
use tower::ServiceExt;

pub const HEADERS_WITHIN: Duration = Duration::from_secs(10);
pub const BODY_WITHIN: Duration = Duration::from_secs(10);
/// A history file's body (up to 32 MiB, from a tablet on a slow network).
pub const FILE_WITHIN: Duration = Duration::from_secs(120);
/// How long a connection may leave what it is sent untaken (its window full, as a
/// client's that asks and never reads): a phone's browser takes a page at once, a
/// WebSocket's pings every few seconds.
pub const TAKEN_WITHIN: Duration = Duration::from_secs(10);
/// A request's body, cut [`BODY_WITHIN`] after its headers came however it trickles in (a
/// history file [`FILE_WITHIN`]): a byte every few seconds does not keep a connection for
/// ever.
struct Deadline {
    body: Body,
    cut: Pin<Box<Sleep>>,
}

impl http_body::Body for Deadline {
    type Data = Bytes;
    type Error = axum::Error;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, axum::Error>>> {
        if self.cut.as_mut().poll(cx).is_ready() {
            let late = "the body took longer than its time";
            return Poll::Ready(Some(Err(axum::Error::new(late))));
        }
        Pin::new(&mut self.body).poll_frame(cx)
    }

    fn is_end_stream(&self) -> bool {
        self.body.is_end_stream()
    }

    fn size_hint(&self) -> http_body::SizeHint {
        self.body.size_hint()
    }
}

/// A connection that must take what it is sent: a write that waits on the client for
/// [`TAKEN_WITHIN`] fails, and the connection (or the WebSocket it became) ends.
struct Timely {
    stream: TcpStream,
    /// When the write now waiting began to wait; none while writes go through.
    stuck: Option<Pin<Box<Sleep>>>,
}

impl Timely {
    /// `Pending` from the socket's writing side, timed from its first wait.
    fn waited<T>(
        &mut self,
        cx: &mut Context<'_>,
        polled: Poll<io::Result<T>>,
    ) -> Poll<io::Result<T>> {
        if polled.is_ready() {
            self.stuck = None;
            return polled;
        }
        let stuck = (self.stuck).get_or_insert_with(|| {
            Box::pin(tokio::time::sleep_until(Instant::now() + TAKEN_WITHIN))
        });
        ready!(stuck.as_mut().poll(cx));
        Poll::Ready(Err(io::Error::new(
            io::ErrorKind::TimedOut,
            "the client took nothing of its answer in time",
        )))
    }
}

impl AsyncRead for Timely {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        Pin::new(&mut self.stream).poll_read(cx, buf)
    }
}

impl AsyncWrite for Timely {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        let polled = Pin::new(&mut self.stream).poll_write(cx, buf);
        self.waited(cx, polled)
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        let polled = Pin::new(&mut self.stream).poll_write_vectored(cx, bufs);
        self.waited(cx, polled)
    }

    fn is_write_vectored(&self) -> bool {
        self.stream.is_write_vectored()
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let polled = Pin::new(&mut self.stream).poll_flush(cx);
        self.waited(cx, polled)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let polled = Pin::new(&mut self.stream).poll_shutdown(cx);
        self.waited(cx, polled)
    }
}

async fn within_deadline(request: Request) -> Request {
    let within = if request.uri().path() == "/api/history/import" {
        FILE_WITHIN
    } else {
        BODY_WITHIN
    };
    let cut = Box::pin(tokio::time::sleep(within));
    request.map(|body| Body::new(Deadline { body, cut }))
}

/// Until the server is told to stop (its watch's guard not held across an await).
async fn stopping(stopped: &mut watch::Receiver<bool>) {
    let _ = stopped.wait_for(|stopped| *stopped).await;
}

/// Serves `app` on `listener` until `stopped` says so.
pub async fn serve(
    listener: TcpListener,
    app: Router,
    mut stopped: watch::Receiver<bool>,
) -> std::io::Result<()> {
    let app = app.layer(axum::middleware::map_request(within_deadline));
    let open = Arc::new(Open::default());
    let hushed = Hushed::default();
    let mut connections = JoinSet::new();
    let mut builder = Builder::new();
    builder
        .timer(TokioTimer::new())
        .header_read_timeout(HEADERS_WITHIN);
    loop {
        // Connections that ended are let go as others come.
        while connections.try_join_next().is_some() {}
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
            _ = stopping(&mut stopped) => break,
        };
        let Some((place, let_go)) = open.connect(peer.ip()) else {
            if let Some(unsaid) = hushed.say(peer.ip()) {
                tracing::warn!(peer = %peer.ip(), unsaid, "refused a connection: {PER_ADDRESS} already open from this address, or {MOST_OPEN} from other machines");
            }
            continue;
        };
        // A view or an answer goes out as soon as it is written, not held back until the
        // client acknowledges the one before (Nagle's wait meeting a delayed ack: up to 40 ms).
        if let Err(e) = stream.set_nodelay(true) {
            tracing::debug!("no TCP_NODELAY for {peer}: {e}");
        }
        let app = app.clone();
        let builder = builder.clone();
        let mut stopped = stopped.clone();
        connections.spawn(async move {
            // Hyper times the headers from when it waits for them: a connection that sends
            // nothing at all is closed after HEADERS_WITHIN like one that stops halfway.
            let service =
                hyper::service::service_fn(move |mut request: hyper::Request<Incoming>| {
                    let extensions = request.extensions_mut();
                    extensions.insert(ConnectInfo::<SocketAddr>(peer));
                    extensions.insert(place.clone());
                    app.clone().oneshot(request)
                });
            let stream = Timely {
                stream,
                stuck: None,
            };
            let connection = builder
                .serve_connection(TokioIo::new(stream), service)
                .with_upgrades();
            tokio::pin!(connection);
            // A client that goes away or times out ends its connection: nothing to say.
            tokio::select! {
                _ = connection.as_mut() => return,
                _ = stopping(&mut stopped) => {}
                _ = let_go.notified() => {}
            }
            // Stopping, or let go: the request under way is answered, then it closes.
            connection.as_mut().graceful_shutdown();
            let _ = connection.await;
        });
    }
    while connections.join_next().await.is_some() {}
    Ok(())
}
