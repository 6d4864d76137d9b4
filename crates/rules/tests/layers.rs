//! Both rules crates stand in layers: no circle of imports between more than two of their
//! modules. A module that needs one above it is a sign that something sits in the wrong
//! place (a decision check in a scoring module, the rule set's face in the state's module),
//! and circles grow: they were 11 files here and 5 in Mystery Rummy before the layers.

use std::path::Path;

use seance_played::layers::{circles, imports};

#[test]
fn no_circle_of_imports_spans_more_than_two_modules() {
    let crates = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap();
    for name in ["rules", "rummy"] {
        let graph = imports(&crates.join(name).join("src"));
        assert!(graph.len() > 8, "{name}: its modules were not read");
        let wide: Vec<_> = circles(&graph)
            .into_iter()
            .filter(|c| c.len() > 2)
            .collect();
        assert!(wide.is_empty(), "crates/{name}: import circles {wide:?}");
    }
}
