//! A phone that finds the table as it does on a game night: by the table's name on the local
//! network, over plain http, where its page is not a secure context (no Screen Wake Lock,
//! among others). Loopback addresses and `localhost` are secure contexts, so they will not
//! do. Every byte stays on this machine: Chromium maps the name to 127.0.0.1 itself
//! (`--host-resolver-rules`); WebKit and Firefox, which have no such switch, go through a
//! [`Proxy`] here that carries the name's requests to 127.0.0.1 and refuses any other.

use std::net::IpAddr;

use fantoccini::Client;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};

use super::Browsers;

/// The table's name on the network, as an mDNS name (`.local`, which the server takes).
pub const NAME: &str = "seance-table.local";

/// An HTTP proxy on 127.0.0.1 that takes requests for [`NAME`] only (plain ones, and
/// `CONNECT` for WebSockets) to the same port at its address ([`Proxy::to`]); anything else
/// is answered 502, so nothing leaves this machine. Stopped when dropped.
pub struct Proxy {
    pub port: u16,
    /// Where [`NAME`] is: the table itself on 127.0.0.1, or a [`Wifi`](super::Wifi) to it.
    pub to: IpAddr,
    /// A request whose line holds this text waits so long before it is carried on (a font
    /// arriving late on a slow Wi-Fi): Chromium then goes through the proxy too.
    pub holds: Option<Hold>,
    accepting: tokio::task::JoinHandle<()>,
}

/// Requests held back: those whose request line holds `matching`, for `wait`.
#[derive(Clone, Copy, Debug)]
pub struct Hold {
    pub matching: &'static str,
    pub wait: std::time::Duration,
}

impl Drop for Proxy {
    fn drop(&mut self) {
        self.accepting.abort();
    }
}

impl Proxy {
    /// A proxy to the table itself.
    pub async fn start() -> Proxy {
        Proxy::reaching(IpAddr::from([127, 0, 0, 1]), None).await
    }

    /// A proxy to the table through `wifi`, which drops bytes when told.
    pub async fn through(wifi: &super::Wifi) -> Proxy {
        Proxy::reaching(wifi.address, None).await
    }

    /// A proxy to the table itself that holds back the requests `hold` says.
    pub async fn holding(hold: Hold) -> Proxy {
        Proxy::reaching(IpAddr::from([127, 0, 0, 1]), Some(hold)).await
    }

    async fn reaching(to: IpAddr, holds: Option<Hold>) -> Proxy {
        let listener = TcpListener::bind(("127.0.0.1", 0)).await.unwrap();
        let port = listener.local_addr().unwrap().port();
        let accepting = tokio::spawn(async move {
            while let Ok((browser, _)) = listener.accept().await {
                tokio::spawn(carry(browser, to, holds));
            }
        });
        Proxy {
            port,
            to,
            holds,
            accepting,
        }
    }
}

/// Waits out `hold` when `bytes` (the start of one or more requests) ask for what it holds.
async fn held(hold: Option<Hold>, bytes: &[u8]) {
    if let Some(hold) = hold
        && bytes
            .windows(hold.matching.len())
            .any(|w| w == hold.matching.as_bytes())
    {
        tokio::time::sleep(hold.wait).await;
    }
}

/// One connection from a browser: its first request's head read, then every byte carried
/// both ways to the table (a plain request as it came, in absolute form, which the server
/// reads; a `CONNECT` answered, then its tunnel).
async fn carry(mut browser: TcpStream, to: IpAddr, hold: Option<Hold>) {
    let mut head = Vec::new();
    let mut buf = [0u8; 4096];
    while !head.windows(4).any(|w| w == b"\r\n\r\n") {
        match browser.read(&mut buf).await {
            Ok(0) | Err(_) => return,
            Ok(n) => head.extend_from_slice(&buf[..n]),
        }
        if head.len() > 64 * 1024 {
            return;
        }
    }
    let line = String::from_utf8_lossy(&head[..head.iter().position(|&b| b == b'\r').unwrap()])
        .into_owned();
    let mut words = line.split(' ');
    let (method, target) = (words.next().unwrap_or(""), words.next().unwrap_or(""));
    // WebKit asks for a WebSocket in absolute form too (`GET ws://…`), not by `CONNECT`.
    let (authority, path) = match method {
        "CONNECT" => (target, ""),
        _ => target
            .strip_prefix("http://")
            .or(target.strip_prefix("ws://"))
            .map(|rest| rest.split_at(rest.find('/').unwrap_or(rest.len())))
            .unwrap_or(("", "")),
    };
    let port = authority
        .strip_prefix(NAME)
        .and_then(|rest| rest.strip_prefix(':'))
        .and_then(|port| port.parse::<u16>().ok());
    let table = match port {
        Some(port) => TcpStream::connect((to, port)).await.ok(),
        None => None,
    };
    let Some(mut table) = table else {
        let _ = browser
            .write_all(
                b"HTTP/1.1 502 Bad Gateway\r\nContent-Length: 0\r\nConnection: close\r\n\r\n",
            )
            .await;
        return;
    };
    if method == "CONNECT" {
        let start = head.windows(4).position(|w| w == b"\r\n\r\n").unwrap() + 4;
        if browser
            .write_all(b"HTTP/1.1 200 Connection established\r\n\r\n")
            .await
            .is_err()
            || table.write_all(&head[start..]).await.is_err()
        {
            return;
        }
    } else {
        // The first request in origin form, as a browser sends it to the table itself (the
        // server reads a later one's absolute form too).
        let line_end = line.len();
        let version = words.next().unwrap_or("HTTP/1.1");
        let first = format!(
            "{method} {} {version}",
            if path.is_empty() { "/" } else { path }
        );
        let mut sent = first.into_bytes();
        sent.extend_from_slice(&head[line_end..]);
        held(hold, &sent).await;
        if table.write_all(&sent).await.is_err() {
            return;
        }
    }
    if hold.is_none() {
        let _ = tokio::io::copy_bidirectional(&mut browser, &mut table).await;
        return;
    }
    // The browser's later requests on this connection, each looked at as it passes.
    let (mut from_table, mut to_table) = table.into_split();
    let (mut from_browser, mut to_browser) = browser.into_split();
    let answers = tokio::spawn(async move {
        let _ = tokio::io::copy(&mut from_table, &mut to_browser).await;
    });
    loop {
        match from_browser.read(&mut buf).await {
            Ok(0) | Err(_) => break,
            Ok(n) => {
                held(hold, &buf[..n]).await;
                if to_table.write_all(&buf[..n]).await.is_err() {
                    break;
                }
            }
        }
    }
    let _ = to_table.shutdown().await;
    let _ = answers.await;
}

impl Browsers {
    /// A new browser whose page is `width`×`height`, that finds [`NAME`] at this machine
    /// (through `proxy`, for WebKit and Firefox). WebKit plays no sound before a tap, as on
    /// an iPhone.
    pub async fn open_at_name(&self, width: u32, height: u32, proxy: &Proxy) -> Client {
        self.open_reaching(width, height, "en-US", Some(proxy))
            .await
    }
}
