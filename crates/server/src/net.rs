//! Binding a port (with fallbacks when it is busy) and finding this machine's LAN address.

use std::io;
use std::net::{IpAddr, Ipv4Addr};

use tokio::net::TcpListener;

/// How many consecutive ports are tried before letting the system choose one.
pub const PORT_RANGE: u16 = 10;

/// Listens on every interface (phones reach us over the LAN; the access guard refuses
/// anything outside it) at `port`, or the next free one, or any free one.
pub async fn bind(port: u16) -> io::Result<TcpListener> {
    if port != 0 {
        for candidate in port..port.saturating_add(PORT_RANGE) {
            match TcpListener::bind((Ipv4Addr::UNSPECIFIED, candidate)).await {
                Ok(listener) => return Ok(listener),
                Err(e) if e.kind() == io::ErrorKind::AddrInUse => {
                    tracing::info!("port {candidate} is busy; trying another");
                }
                Err(e) => return Err(e),
            }
        }
    }
    TcpListener::bind((Ipv4Addr::UNSPECIFIED, 0)).await
}

/// `address:port` as phones on the LAN reach this machine; loopback when no network is up.
pub fn lan_authority(port: u16) -> String {
    match local_ip_address::local_ip() {
        Ok(IpAddr::V4(ip)) if !ip.is_loopback() => format!("{ip}:{port}"),
        Ok(IpAddr::V6(ip)) if !ip.is_loopback() => format!("[{ip}]:{port}"),
        _ => format!("127.0.0.1:{port}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_busy_port_falls_back_to_another() {
        let first = bind(0).await.unwrap();
        let busy = first.local_addr().unwrap().port();
        let second = bind(busy).await.unwrap();
        assert_ne!(second.local_addr().unwrap().port(), busy);
    }
}
