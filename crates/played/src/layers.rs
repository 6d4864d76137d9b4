//! A crate's modules as a graph of who imports whom, and its circles, for the tests that
//! hold the crates to layers (`crates/rules/tests/layers.rs`, `crates/server/tests/layers.rs`).

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// Each module of the crate at `src` (but `lib.rs`, the top) and the modules it names,
/// outside its tests. A module's own folder (`games/timer.rs`, and the folders within it)
/// counts as the module.
pub fn imports(src: &Path) -> BTreeMap<String, BTreeSet<String>> {
    graph(src, "crate::")
}

/// Each module in the folder `folder` of the crate at `src` (`http`: `http/routes.rs`,
/// `http/routes/…`) and the modules of that folder it names (`crate::http::socket`).
pub fn imports_within(src: &Path, folder: &str) -> BTreeMap<String, BTreeSet<String>> {
    graph(&src.join(folder), &format!("crate::{folder}::"))
}

/// The modules of `dir` and those of them each names after `prefix`.
fn graph(dir: &Path, prefix: &str) -> BTreeMap<String, BTreeSet<String>> {
    let modules: BTreeSet<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "rs"))
        .map(|p| p.file_stem().unwrap().to_string_lossy().into_owned())
        .filter(|m| m != "lib")
        .collect();
    let code = |path: &Path| {
        let text = std::fs::read_to_string(path).unwrap();
        text.split("\n#[cfg(test)]").next().unwrap().to_string()
    };
    modules
        .iter()
        .map(|module| {
            let mut paths = vec![dir.join(format!("{module}.rs"))];
            files(&dir.join(module), "rs", &mut paths);
            let files: Vec<String> = paths.iter().map(|p| code(p)).collect();
            let named = files
                .iter()
                .flat_map(|code| named_after(code, prefix))
                .filter(|m| modules.contains(m) && m != module)
                .collect();
            (module.clone(), named)
        })
        .collect()
}

/// Every file named `*.{ext}` under `folder`, if there is one, its own folders' too but a
/// `vendor` folder's (libraries of others, kept as they came).
pub fn files(folder: &Path, ext: &str, found: &mut Vec<std::path::PathBuf>) {
    for path in std::fs::read_dir(folder)
        .into_iter()
        .flatten()
        .map(|e| e.unwrap().path())
    {
        if path.is_dir() && !path.ends_with("vendor") {
            files(&path, ext, found);
        } else if path.extension().is_some_and(|e| e == ext) {
            found.push(path);
        }
    }
}

/// The first segment after `prefix` of every path in `code` that begins with it, grouped
/// imports included.
fn named_after(code: &str, prefix: &str) -> Vec<String> {
    let ident = |s: &str| -> String {
        s.chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect()
    };
    let mut named = Vec::new();
    for (at, _) in code.match_indices(prefix) {
        let rest = &code[at + prefix.len()..];
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
pub fn circles(graph: &BTreeMap<String, BTreeSet<String>>) -> Vec<BTreeSet<String>> {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn grouped_and_inline_paths_are_read() {
        let code = "use crate::{a::B, c::{D, E}};\nuse crate::f::G;\nfn x() { crate::h::i() }";
        assert_eq!(named_after(code, "crate::"), ["a", "c", "f", "h"]);
        let within = "use crate::http::{socket, trouble};\nuse crate::games;";
        assert_eq!(named_after(within, "crate::http::"), ["socket", "trouble"]);
        let graph = BTreeMap::from([
            ("a".to_string(), BTreeSet::from(["b".to_string()])),
            ("b".to_string(), BTreeSet::from(["c".to_string()])),
            ("c".to_string(), BTreeSet::from(["a".to_string()])),
            ("d".to_string(), BTreeSet::new()),
        ]);
        assert_eq!(circles(&graph).len(), 1);
        assert_eq!(circles(&graph)[0].len(), 3);
    }
}
