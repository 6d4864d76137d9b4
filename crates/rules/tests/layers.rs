//! Both rules crates stand in layers: no circle of imports between more than two of their
//! modules. A module that needs one above it is a sign that something sits in the wrong
//! place (a decision check in a scoring module, the rule set's face in the state's module),
//! and circles grow: they were 11 files here and 5 in Mystery Rummy before the layers.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// Each module of the crate at `src` (but `lib.rs`, the top) and the modules it names,
/// outside its tests.
fn imports(src: &Path) -> BTreeMap<String, BTreeSet<String>> {
    let modules: BTreeSet<String> = std::fs::read_dir(src)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "rs"))
        .map(|p| p.file_stem().unwrap().to_string_lossy().into_owned())
        .filter(|m| m != "lib")
        .collect();
    modules
        .iter()
        .map(|module| {
            let text = std::fs::read_to_string(src.join(format!("{module}.rs"))).unwrap();
            let code = text.split("\n#[cfg(test)]").next().unwrap();
            let named = named_after_crate(code)
                .into_iter()
                .filter(|m| modules.contains(m) && m != module)
                .collect();
            (module.clone(), named)
        })
        .collect()
}

/// The first segment of every `crate::` path in `code`, grouped imports included.
fn named_after_crate(code: &str) -> Vec<String> {
    let ident = |s: &str| -> String {
        s.chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect()
    };
    let mut named = Vec::new();
    for (at, _) in code.match_indices("crate::") {
        let rest = &code[at + "crate::".len()..];
        let Some(group) = rest.strip_prefix('{') else {
            named.push(ident(rest));
            continue;
        };
        // `crate::{a::B, c::{D, E}}`: the names right after `{` or `,` at the first depth.
        let (mut depth, mut start) = (1, true);
        for (i, c) in group.char_indices() {
            match c {
                '{' => depth += 1,
                '}' if depth == 1 => break,
                '}' => depth -= 1,
                ',' if depth == 1 => start = true,
                c if c.is_whitespace() => {}
                _ if start && depth == 1 => {
                    named.push(ident(&group[i..]));
                    start = false;
                }
                _ => {}
            }
        }
    }
    named
}

/// The circles of `graph`: its strongly connected components of more than one module.
fn circles(graph: &BTreeMap<String, BTreeSet<String>>) -> Vec<BTreeSet<String>> {
    let reach = |from: &String| {
        let mut seen = BTreeSet::new();
        let mut next = vec![from.clone()];
        while let Some(m) = next.pop() {
            for n in &graph[&m] {
                if seen.insert(n.clone()) {
                    next.push(n.clone());
                }
            }
        }
        seen
    };
    let reached: BTreeMap<_, _> = graph.keys().map(|m| (m.clone(), reach(m))).collect();
    let mut found: Vec<BTreeSet<String>> = Vec::new();
    for m in graph.keys() {
        let circle: BTreeSet<String> = reached[m]
            .iter()
            .filter(|n| reached[*n].contains(m))
            .cloned()
            .collect();
        if circle.len() > 1 && !found.contains(&circle) {
            found.push(circle);
        }
    }
    found
}

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

#[test]
fn grouped_and_inline_paths_are_read() {
    let code = "use crate::{a::B, c::{D, E}};\nuse crate::f::G;\nfn x() { crate::h::i() }";
    assert_eq!(named_after_crate(code), ["a", "c", "f", "h"]);
    let graph = BTreeMap::from([
        ("a".to_string(), BTreeSet::from(["b".to_string()])),
        ("b".to_string(), BTreeSet::from(["c".to_string()])),
        ("c".to_string(), BTreeSet::from(["a".to_string()])),
        ("d".to_string(), BTreeSet::new()),
    ]);
    assert_eq!(circles(&graph).len(), 1);
    assert_eq!(circles(&graph)[0].len(), 3);
}
