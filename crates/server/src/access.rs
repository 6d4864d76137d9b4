//! The guard in front of every request: local network only, `Host` and `Origin` checked
//! against DNS rebinding, and on the API the join code or the table key, which says what
//! kind of [`Device`] is asking. Every refusal is logged (without the secret) and answered
//! with a message that says what to do.

use crate::places::Admitted;
use crate::refusals;
use crate::sync::Hold;
use std::collections::HashMap;
use std::net::{IpAddr, SocketAddr};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use axum::extract::{ConnectInfo, FromRequestParts, Query, Request, State};
use axum::http::request::Parts;
use axum::http::{HeaderMap, HeaderValue, Method, StatusCode, Uri, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use crate::refused::{Refused, refused};
use crate::shared::Shared;
use seance_timeline::Refusal;

/// Wrong codes allowed from one address per window before it must wait.
const MAX_FAILURES: u32 = 20;
const FAILURE_WINDOW: Duration = Duration::from_secs(60);

const CSP: &str = "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; \
                   connect-src 'self'; media-src 'self' blob:; object-src 'none'; base-uri 'none'; \
                   frame-ancestors 'none'";

/// Recent wrong-code attempts per address.
#[derive(Default)]
pub struct FailureLog(Mutex<HashMap<IpAddr, (Instant, u32)>>);

impl FailureLog {
    pub(crate) fn blocked(&self, ip: IpAddr) -> bool {
        let log = self.0.hold();
        matches!(log.get(&ip), Some((since, n)) if since.elapsed() < FAILURE_WINDOW && *n >= MAX_FAILURES)
    }

    pub(crate) fn record(&self, ip: IpAddr) {
        let mut log = self.0.hold();
        log.retain(|_, (since, _)| since.elapsed() < FAILURE_WINDOW);
        log.entry(ip).or_insert((Instant::now(), 0)).1 += 1;
    }
}

/// How long an address's refusals go unlogged after one is.
const HUSH: Duration = Duration::from_secs(60);
/// How many addresses [`Hushed`] follows before it lets the quiet ones go.
const HUSHED_MOST: usize = 1024;

/// Refusals logged at most once a minute per address, with how many went unsaid since: a
/// flood of refused requests writes a line a minute, not a line each.
#[derive(Default)]
pub struct Hushed(Mutex<HashMap<IpAddr, (Instant, u64)>>);

impl Hushed {
    /// Whether to log a refusal from `ip` now: `Some(n)` with the `n` refusals left unsaid
    /// since its last line, or `None` within a minute of that line.
    pub fn say(&self, ip: IpAddr) -> Option<u64> {
        self.say_at(ip, Instant::now())
    }

    fn say_at(&self, ip: IpAddr, now: Instant) -> Option<u64> {
        let mut said = self.0.hold();
        let told = match said.get_mut(&ip) {
            Some((at, unsaid)) if now.saturating_duration_since(*at) < HUSH => {
                *unsaid += 1;
                None
            }
            _ => Some(said.insert(ip, (now, 0)).map_or(0, |(_, unsaid)| unsaid)),
        };
        // Bounded however many addresses a flood comes from: past the bound, the ones
        // quiet for a minute are let go, their unsaid refusals said in one line.
        if said.len() > HUSHED_MOST {
            let mut dropped = 0;
            said.retain(|_, (at, unsaid)| {
                let keep = now.saturating_duration_since(*at) < HUSH;
                if !keep {
                    dropped += *unsaid;
                }
                keep
            });
            if dropped > 0 {
                tracing::warn!("{dropped} more refusals from addresses now quiet went unsaid");
            }
        }
        told
    }
}

/// What the credentials on a request make its device. A seat's phone is a [`Device::Joined`]
/// that also shows its seat's token, per game (see `callers`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Device {
    /// The table key: the table window, or a tablet that opened the table link.
    Table,
    /// The join code (the QR code): a phone that may take a seat, or a watcher.
    Joined,
}

impl Device {
    pub fn name(self) -> &'static str {
        match self {
            Device::Table => "table",
            Device::Joined => "watcher",
        }
    }
}

/// Every `/api/` request passed the guard, which put its device there.
impl<S: Send + Sync> FromRequestParts<S> for Device {
    type Rejection = Refused;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Self, Refused> {
        parts
            .extensions
            .get::<Device>()
            .copied()
            .ok_or_else(|| refused(StatusCode::UNAUTHORIZED, refusals::CODE_NEEDED))
    }
}

/// A request only the table may make; refused for any other device, with what it may do.
pub struct TableOnly;

impl<S: Send + Sync> FromRequestParts<S> for TableOnly {
    type Rejection = Refused;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Refused> {
        match Device::from_request_parts(parts, state).await? {
            Device::Table => Ok(TableOnly),
            Device::Joined => Err(refused(
                StatusCode::FORBIDDEN,
                seance_timeline::refusals::TABLE_ONLY,
            )),
        }
    }
}

pub async fn guard(
    State(shared): State<Arc<Shared>>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    mut request: Request,
    next: Next,
) -> Response {
    match check(&shared, peer.ip(), &request) {
        Ok(device) => {
            if let Some(device) = device {
                // A code, a key (and so a seat's token too): its connection keeps its place.
                if let Some(place) = request.extensions().get::<Admitted>() {
                    place.prove();
                }
                request.extensions_mut().insert(device);
            }
            with_security_headers(next.run(request).await)
        }
        Err(refused) => {
            if let Some(unsaid) = shared.hushed.say(peer.ip()) {
                tracing::warn!(
                    peer = %peer.ip(),
                    method = %request.method(),
                    path = request.uri().path(),
                    status = refused.status.as_u16(),
                    unsaid,
                    "refused: {}",
                    refused.refusal
                );
            }
            with_security_headers(refused.into_response())
        }
    }
}

/// What the API serves while the journal waits for the table's choice: enough for a screen
/// to say what was found, in its language, and for the table to choose.
const SERVED_IN_TROUBLE: [&str; 5] = [
    "/api/info",
    "/api/settings",
    "/api/journal",
    "/api/qr.png",
    "/api/instance/focus",
];

/// Whether the request may go on, and on the API, from what kind of device.
fn check(shared: &Shared, peer: IpAddr, request: &Request) -> Result<Option<Device>, Refused> {
    let forbidden = |refusal| Err(Refused::new(StatusCode::FORBIDDEN, refusal));
    if !is_local_network(peer) {
        return forbidden(Refusal::new(refusals::NOT_LOCAL));
    }
    // A tunnel or an echo is never Séance's to give; refused here, before any route (which
    // would log a CONNECT's answer as an error of its own, unbounded).
    if matches!(*request.method(), Method::CONNECT | Method::TRACE) {
        return Err(Refused::new(
            StatusCode::METHOD_NOT_ALLOWED,
            Refusal::new(refusals::METHOD_NOT_SERVED).with("method", request.method().as_str()),
        ));
    }
    let headers = request.headers();
    let host = headers
        .get(header::HOST)
        .and_then(|h| h.to_str().ok())
        .unwrap_or("");
    if !host_is_ours(host, shared.port) {
        return forbidden(Refusal::new(refusals::NOT_THIS_HOST).with("host", host));
    }
    if let Some(origin) = headers.get(header::ORIGIN)
        && origin.to_str().ok() != Some(&format!("http://{host}"))
    {
        return forbidden(Refusal::new(refusals::FOREIGN_ORIGIN).with(
            "origin",
            String::from_utf8_lossy(origin.as_bytes()).into_owned(),
        ));
    }
    if request.uri().path().starts_with("/api/") {
        // A page of another site (or another port of this address) that makes a browser
        // ask — an image, a form — is refused before its code is even looked at: it
        // cannot make this address wait for the wrong codes it sends.
        if let Some(site) = headers.get("sec-fetch-site")
            && matches!(site.as_bytes(), b"cross-site" | b"same-site")
        {
            return forbidden(Refusal::new(refusals::OTHER_SITE));
        }
        let device = check_code(shared, peer, request)?;
        if shared.trouble.is_some() && !SERVED_IN_TROUBLE.contains(&request.uri().path()) {
            return Err(Refused::new(
                StatusCode::SERVICE_UNAVAILABLE,
                Refusal::new(refusals::JOURNAL_WAITS),
            ));
        }
        return Ok(Some(device));
    }
    Ok(None)
}

/// The device a request's code makes it. The table key and the join code are honoured
/// whatever wrong codes came from the same address (a phone sharing it with a guesser, a
/// table whose page another page hammered); only the guessing waits.
fn check_code(shared: &Shared, peer: IpAddr, request: &Request) -> Result<Device, Refused> {
    match presented_code(request.headers(), request.uri()) {
        Some(key) if shared.key.matches(&key) => Ok(Device::Table),
        Some(code) if shared.code.matches(&code) => Ok(Device::Joined),
        _ if shared.failures.blocked(peer) => Err(refused(
            StatusCode::TOO_MANY_REQUESTS,
            refusals::WRONG_CODES_WAIT,
        )),
        None => Err(refused(StatusCode::UNAUTHORIZED, refusals::CODE_NEEDED)),
        Some(_) => {
            shared.failures.record(peer);
            Err(refused(StatusCode::FORBIDDEN, refusals::WRONG_CODE))
        }
    }
}

/// The join code or the table key from `Authorization: Bearer …`, or from `?code=`
/// (WebSockets and images cannot send headers), decoded as the browser encoded it: a code
/// typed with a space arrives as `%20`.
fn presented_code(headers: &HeaderMap, uri: &Uri) -> Option<String> {
    if let Some(bearer) = headers
        .get(header::AUTHORIZATION)
        .and_then(|h| h.to_str().ok())
        .and_then(|h| h.strip_prefix("Bearer "))
    {
        return Some(bearer.trim().to_owned());
    }
    let Query(pairs) = Query::<Vec<(String, String)>>::try_from_uri(uri).ok()?;
    pairs.into_iter().find(|(k, _)| k == "code").map(|(_, v)| v)
}

/// Private, loopback and link-local addresses: the table's own network.
pub fn is_local_network(ip: IpAddr) -> bool {
    match ip {
        IpAddr::V4(v4) => v4.is_loopback() || v4.is_private() || v4.is_link_local(),
        IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
            Some(v4) => is_local_network(IpAddr::V4(v4)),
            None => {
                let first = v6.segments()[0];
                v6.is_loopback() || (first & 0xfe00) == 0xfc00 || (first & 0xffc0) == 0xfe80
            }
        },
    }
}

/// A DNS-rebinding page reaches us under the attacker's domain name, so only addresses,
/// `localhost` and mDNS `.local` names are ours — and only on our port.
fn host_is_ours(host: &str, port: u16) -> bool {
    let Some((name, host_port)) = host.rsplit_once(':') else {
        return false;
    };
    if host_port.parse() != Ok(port) {
        return false;
    }
    let name = name.to_ascii_lowercase();
    let bare = name.trim_start_matches('[').trim_end_matches(']');
    bare.parse::<IpAddr>().is_ok() || name == "localhost" || name.ends_with(".local")
}

fn with_security_headers(mut response: Response) -> Response {
    let headers = response.headers_mut();
    headers.insert(
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_static(CSP),
    );
    // The page's URL carries the table code: never send it elsewhere.
    headers.insert(
        header::REFERRER_POLICY,
        HeaderValue::from_static("no-referrer"),
    );
    headers.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    headers.insert(header::X_FRAME_OPTIONS, HeaderValue::from_static("DENY"));
    response
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_code_in_the_query_is_read_as_the_browser_encoded_it() {
        let code = |uri: &str| presented_code(&HeaderMap::new(), &uri.parse().unwrap());
        assert_eq!(
            code("/api/ws?code=qdb2h%20gffve&mysterium=3").as_deref(),
            Some("qdb2h gffve")
        );
        assert_eq!(
            code("/api/qr.png?mysterium=3&code=ABCDE-FGHJK").as_deref(),
            Some("ABCDE-FGHJK")
        );
        assert_eq!(code("/api/qr.png?mysterium=3"), None);
    }

    #[test]
    fn refusals_are_logged_a_line_a_minute_per_address_with_the_count_unsaid() {
        let hushed = Hushed::default();
        let (one, two): (IpAddr, IpAddr) =
            ("10.0.0.1".parse().unwrap(), "10.0.0.2".parse().unwrap());
        let start = Instant::now();
        assert_eq!(hushed.say_at(one, start), Some(0));
        for _ in 0..5 {
            assert_eq!(hushed.say_at(one, start + Duration::from_secs(1)), None);
        }
        assert_eq!(
            hushed.say_at(two, start + Duration::from_secs(2)),
            Some(0),
            "another address"
        );
        assert_eq!(hushed.say_at(one, start + HUSH), Some(5));
        assert_eq!(hushed.say_at(one, start + HUSH), None);
    }

    #[test]
    fn a_flood_from_many_addresses_is_followed_within_bounds() {
        let hushed = Hushed::default();
        let start = Instant::now();
        for i in 0..=HUSHED_MOST as u32 {
            hushed.say_at(IpAddr::from((0x0a00_0000 + i).to_be_bytes()), start);
        }
        assert_eq!(hushed.0.hold().len(), HUSHED_MOST + 1);
        let late: IpAddr = "192.168.0.1".parse().unwrap();
        assert_eq!(hushed.say_at(late, start + HUSH), Some(0));
        assert_eq!(hushed.0.hold().len(), 1, "the quiet ones are let go");
    }

    #[test]
    fn only_local_networks_are_served() {
        for ip in [
            "127.0.0.1",
            "10.1.2.3",
            "172.20.10.2",
            "192.168.1.40",
            "169.254.3.3",
            "::1",
            "fe80::1",
            "fd00::5",
            "::ffff:192.168.1.2",
        ] {
            assert!(is_local_network(ip.parse().unwrap()), "{ip}");
        }
        for ip in ["8.8.8.8", "172.32.0.1", "2001:db8::1", "::ffff:8.8.8.8"] {
            assert!(!is_local_network(ip.parse().unwrap()), "{ip}");
        }
    }

    #[test]
    fn hosts_that_a_rebinding_page_would_use_are_refused() {
        assert!(host_is_ours("192.168.1.40:4747", 4747));
        assert!(host_is_ours("localhost:4747", 4747));
        assert!(host_is_ours("[::1]:4747", 4747));
        assert!(host_is_ours("salon.local:4747", 4747));
        assert!(!host_is_ours("evil.example:4747", 4747));
        assert!(!host_is_ours("192.168.1.40:80", 4747));
        assert!(!host_is_ours("192.168.1.40", 4747));
        assert!(!host_is_ours("", 4747));
    }

    #[test]
    fn failures_block_after_the_limit() {
        let log = FailureLog::default();
        let ip: IpAddr = "192.168.1.9".parse().unwrap();
        for _ in 0..MAX_FAILURES {
            assert!(!log.blocked(ip));
            log.record(ip);
        }
        assert!(log.blocked(ip));
        assert!(!log.blocked("192.168.1.10".parse().unwrap()));
    }
}
