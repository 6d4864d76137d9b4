//! The server stands in layers: no import circle spans more than two of its modules, and
//! the HTTP modules (the routers and their handlers, the socket's sessions) are the folder
//! `src/http/`, on top, imported by no module below them. What those share (telling every
//! screen, a game's snapshot with its seats, who asks and what they may see, keeping the
//! disk off the async workers) lives below them, in `shared`, `games` and `callers`: parked
//! among the routes, it made a circle of five files.

use std::path::Path;

use seance_played::layers::{circles, imports, imports_within};

fn src() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

#[test]
fn no_circle_of_imports_spans_more_than_two_modules() {
    for (graph, place) in [
        (imports(&src()), "crates/server"),
        (imports_within(&src(), "http"), "crates/server/src/http"),
    ] {
        assert!(graph.len() >= 5, "the modules of {place} were not read");
        let wide: Vec<_> = circles(&graph)
            .into_iter()
            .filter(|c| c.len() > 2)
            .collect();
        assert!(wide.is_empty(), "{place}: import circles {wide:?}");
    }
}

#[test]
fn nothing_below_the_http_modules_imports_them() {
    let graph = imports(&src());
    assert!(graph.len() > 20, "its modules were not read");
    let upward: Vec<_> = graph
        .iter()
        .filter(|(module, named)| *module != "http" && named.contains("http"))
        .map(|(module, _)| module)
        .collect();
    assert!(
        upward.is_empty(),
        "imports running up into http/: {upward:?}"
    );
    // The router is the top, below the crate's root alone.
    let within = imports_within(&src(), "http");
    let routed: Vec<_> = within
        .iter()
        .filter(|(_, named)| named.contains("routes"))
        .map(|(module, _)| module)
        .collect();
    assert!(routed.is_empty(), "the routes are imported by {routed:?}");
}
