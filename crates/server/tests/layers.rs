//! The server stands in layers, as the rules crates do: no circle of imports between more
//! than two of its modules, and the HTTP modules (the handlers and the routers) on top,
//! imported by no module below them. What those share (telling every screen, a game's
//! snapshot with its seats, keeping the disk off the async workers) lives below them, in
//! `shared` and `games`: parked among the routes, it made a circle of five files.

use std::path::Path;

use seance_played::layers::{circles, imports};

/// The modules that answer requests: the routers and their handlers. Any other module is
/// below them.
const HTTP: [&str; 5] = ["routes", "history", "phones", "socket", "trouble"];

#[test]
fn no_circle_of_imports_spans_more_than_two_modules() {
    let graph = imports(&Path::new(env!("CARGO_MANIFEST_DIR")).join("src"));
    assert!(graph.len() > 20, "its modules were not read");
    let wide: Vec<_> = circles(&graph)
        .into_iter()
        .filter(|c| c.len() > 2)
        .collect();
    assert!(wide.is_empty(), "crates/server: import circles {wide:?}");
}

#[test]
fn nothing_below_the_http_modules_imports_them() {
    let graph = imports(&Path::new(env!("CARGO_MANIFEST_DIR")).join("src"));
    for module in HTTP {
        assert!(graph.contains_key(module), "no module {module}");
    }
    let upward: Vec<_> = graph
        .iter()
        .filter(|(module, _)| !HTTP.contains(&module.as_str()))
        .flat_map(|(module, named)| {
            named
                .iter()
                .filter(|n| HTTP.contains(&n.as_str()))
                .map(move |n| format!("{module} → {n}"))
        })
        .collect();
    assert!(upward.is_empty(), "imports running up: {upward:?}");
    // The router is the top, below the crate's root alone.
    let routed: Vec<_> = graph
        .iter()
        .filter(|(_, named)| named.contains("routes"))
        .map(|(module, _)| module)
        .collect();
    assert!(routed.is_empty(), "the routes are imported by {routed:?}");
}
