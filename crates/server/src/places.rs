//! Each connection's place, so that no client can hold them all: one address holds at most
//! [`PER_ADDRESS`] connections at once, its WebSockets included (a phone's browser needs a
//! handful; a script holding hundreds half-open gets no more), and other machines
//! [`MOST_OPEN`] in all, so that this machine's own screens always find a file to answer
//! with. Of those, connections that have shown no code, key or seat token hold
//! [`UNPROVEN_MOST`] at most, and the oldest idle one is let go for a newcomer: a script
//! keeping hundreds alive from a dozen addresses cannot keep a phone with the join code
//! out.

use crate::sync::Hold;
use std::collections::{HashMap, VecDeque};
use std::net::IpAddr;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, Weak};

use tokio::sync::Notify;

pub const PER_ADDRESS: usize = 64;
/// Connections from other machines, all addresses together: well under the 1,024 files a
/// process may commonly hold, with room left for the journal and this machine's screens.
pub const MOST_OPEN: usize = 768;

/// Connections from other machines that have shown no code, key or seat token yet (a
/// page's files before its first question, a script's keep-alive): an eighth of the places.
pub const UNPROVEN_MOST: usize = MOST_OPEN / 8;

/// Open connections per address, and from other machines in all.
#[derive(Default)]
pub struct Open(Mutex<Counts>);

#[derive(Default)]
struct Counts {
    per_address: HashMap<IpAddr, usize>,
    /// From other machines.
    others: usize,
    /// From other machines and unproven.
    unproven: usize,
    /// Those that were unproven when they came, oldest first (some since proven or gone).
    arrivals: VecDeque<Weak<Place>>,
}

/// One connection's place, given back when it closes (or as it is let go).
struct Place {
    open: Arc<Open>,
    ip: IpAddr,
    /// It showed a code, a key or a seat token: it keeps its place.
    proven: AtomicBool,
    /// Let go for a newcomer: its place is given back already.
    left: AtomicBool,
    /// Tells its connection to close (at once when idle; after the answer under way). The
    /// connection waits on it alone: its place is held by its requests, not by the wait.
    let_go: Arc<Notify>,
}

/// A connection's place, held by the connection, by each of its requests and by a
/// WebSocket it became: the place is given back when the last of them ends.
#[derive(Clone)]
pub struct Admitted {
    place: Arc<Place>,
}

impl Admitted {
    /// The connection showed a code, a key or a seat token: never let go for a newcomer.
    pub fn prove(&self) {
        let place = &self.place;
        if place.proven.load(Ordering::Relaxed) {
            return;
        }
        let mut counts = place.open.0.hold();
        if !place.left.load(Ordering::Relaxed)
            && !place.proven.swap(true, Ordering::Relaxed)
            && !place.ip.is_loopback()
        {
            counts.unproven -= 1;
        }
    }
}

impl Open {
    /// A place for a connection from `ip`, or none: too many open from it or from other
    /// machines, and none unproven and idle to let go.
    fn admit(self: &Arc<Self>, ip: IpAddr) -> Option<Arc<Place>> {
        // Places read under the lock are dropped after it (declared before it): the last
        // hold on one gives its place back, which takes the lock.
        let mut read = Vec::new();
        let mut counts = self.0.hold();
        let here = counts.per_address.get(&ip).copied().unwrap_or(0);
        if here >= PER_ADDRESS {
            return None;
        }
        if !ip.is_loopback() {
            if counts.others >= MOST_OPEN || counts.unproven >= UNPROVEN_MOST {
                counts.let_go_oldest_idle(&mut read)?;
            }
            counts.others += 1;
            counts.unproven += 1;
        }
        *counts.per_address.entry(ip).or_default() += 1;
        let place = Arc::new(Place {
            open: self.clone(),
            ip,
            proven: AtomicBool::new(false),
            left: AtomicBool::new(false),
            let_go: Arc::new(Notify::new()),
        });
        if !ip.is_loopback() {
            if counts.arrivals.len() >= 2 * MOST_OPEN {
                counts.arrivals.retain(|p| {
                    p.upgrade().is_some_and(|p| {
                        let keep = p.unproven();
                        read.push(p);
                        keep
                    })
                });
            }
            counts.arrivals.push_back(Arc::downgrade(&place));
        }
        Some(place)
    }

    /// A connection from `ip` admitted: its place, for its service to hand each request,
    /// and what tells it to close (see [`Open::admit`]).
    pub fn connect(self: &Arc<Self>, ip: IpAddr) -> Option<(Admitted, Arc<Notify>)> {
        let place = self.admit(ip)?;
        let let_go = place.let_go.clone();
        Some((Admitted { place }, let_go))
    }
}

impl Place {
    fn unproven(&self) -> bool {
        !self.proven.load(Ordering::Relaxed) && !self.left.load(Ordering::Relaxed)
    }
}

impl Counts {
    /// Lets the oldest idle unproven connection go, its place given back at once; `None`
    /// when every unproven one is answering a request. The places read are left in `read`.
    fn let_go_oldest_idle(&mut self, read: &mut Vec<Arc<Place>>) -> Option<()> {
        // Proven and closed ones leave the queue as it is read.
        let mut at = 0;
        while let Some(arrival) = self.arrivals.get(at) {
            let Some(place) = arrival.upgrade() else {
                self.arrivals.remove(at);
                continue;
            };
            if !place.unproven() {
                self.arrivals.remove(at);
                read.push(place);
                continue;
            }
            // Held by its connection alone (and here): between requests.
            let idle = Arc::strong_count(&place) <= 2;
            if idle {
                self.arrivals.remove(at);
                place.left.store(true, Ordering::Relaxed);
                self.give_back(place.ip, false);
                place.let_go.notify_one();
            }
            read.push(place);
            if idle {
                return Some(());
            }
            at += 1;
        }
        None
    }

    /// A place of `ip` given back, `proven` or not.
    fn give_back(&mut self, ip: IpAddr, proven: bool) {
        if let Some(count) = self.per_address.get_mut(&ip) {
            *count -= 1;
            if *count == 0 {
                self.per_address.remove(&ip);
            }
        }
        if !ip.is_loopback() {
            self.others -= 1;
            self.unproven -= usize::from(!proven);
        }
    }
}

impl Drop for Place {
    fn drop(&mut self) {
        if !self.left.load(Ordering::Relaxed) {
            let proven = self.proven.load(Ordering::Relaxed);
            self.open.0.hold().give_back(self.ip, proven);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lan(n: usize) -> IpAddr {
        IpAddr::from([192, 168, 1, u8::try_from(n).unwrap()])
    }

    /// A connection as `serve.rs` holds one: its place in its service, its wait to be let go.
    type Connection = (Admitted, Arc<Notify>);

    fn connect(open: &Arc<Open>, ip: IpAddr) -> Option<Connection> {
        open.connect(ip)
    }

    fn left((admitted, _): &Connection) -> bool {
        admitted.place.left.load(Ordering::Relaxed)
    }

    fn counts(open: &Open) -> (usize, usize) {
        let counts = open.0.hold();
        (counts.others, counts.unproven)
    }

    #[test]
    fn connections_that_prove_nothing_hold_a_small_share_and_go_first() {
        let open = Arc::new(Open::default());
        // A dozen addresses keep every connection they may open alive and idle, showing
        // nothing: each newcomer past the share takes the place of the oldest.
        let mut held: Vec<Connection> = (0..12 * PER_ADDRESS)
            .map(|n| connect(&open, lan(n % 12)).expect("a place, an older one let go"))
            .collect();
        assert_eq!(counts(&open), (UNPROVEN_MOST, UNPROVEN_MOST));
        let (gone, staying) = held.split_at(held.len() - UNPROVEN_MOST);
        assert!(gone.iter().all(left) && !staying.iter().any(left));
        // A phone shows the join code: it keeps its place however many come after it.
        let phone = connect(&open, lan(200)).unwrap();
        phone.0.prove();
        assert_eq!(counts(&open), (UNPROVEN_MOST, UNPROVEN_MOST - 1));
        for n in 0..2 * MOST_OPEN {
            held.push(connect(&open, lan(n % 12)).unwrap());
        }
        assert!(!left(&phone));
        assert_eq!(counts(&open), (UNPROVEN_MOST + 1, UNPROVEN_MOST));
        // The phones that proved themselves fill every other place.
        let phones: Vec<Connection> = (0..MOST_OPEN - UNPROVEN_MOST - 1)
            .map(|n| {
                let phone = connect(&open, lan(20 + n / PER_ADDRESS)).unwrap();
                phone.0.prove();
                phone
            })
            .collect();
        // The first of them took an unproven one's place; the share is one short now.
        assert_eq!(counts(&open), (MOST_OPEN - 1, UNPROVEN_MOST - 1));
        held.push(connect(&open, lan(100)).unwrap());
        assert_eq!(counts(&open), (MOST_OPEN, UNPROVEN_MOST));
        // Full: a newcomer still finds a place, an idle unproven one let go for it.
        let newcomer = connect(&open, lan(101)).unwrap();
        assert!(!left(&newcomer) && !phones.iter().any(left));
        assert_eq!(counts(&open), (MOST_OPEN, UNPROVEN_MOST));
        // This machine's own screens are never counted among them.
        assert!(connect(&open, IpAddr::from([127, 0, 0, 1])).is_some());
        drop((held, phones, newcomer));
        assert_eq!(
            counts(&open),
            (1, 0),
            "the phone alone, every other place given back"
        );
    }

    #[test]
    fn a_connection_answering_a_request_is_not_let_go() {
        let open = Arc::new(Open::default());
        let connections: Vec<Connection> = (0..UNPROVEN_MOST)
            .map(|n| connect(&open, lan(n % 12)).unwrap())
            .collect();
        // Each answering a request, which holds its place too.
        let mut requests: Vec<Option<Admitted>> =
            connections.iter().map(|(c, _)| Some(c.clone())).collect();
        assert!(
            connect(&open, lan(99)).is_none(),
            "none idle: the newcomer is refused"
        );
        // The sixth one's request answered: it is idle, and goes for the newcomer.
        requests[5] = None;
        let newcomer = connect(&open, lan(99)).unwrap();
        assert!(left(&connections[5]));
        assert_eq!(connections.iter().filter(|c| left(c)).count(), 1);
        drop((requests, newcomer));
    }
}
