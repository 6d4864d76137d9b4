//! The screens' modules stand in layers: no module of `ui/` imports one that imports it
//! back, however far round (dynamic imports counted). The app (`ui/app.js`, which only the
//! page loads) alone holds its state: a screen is a function of the context it is handed,
//! made by `ui/context.js`, which only the app imports.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Component, Path, PathBuf};

/// `ui/`'s modules (the vendored libraries aside), each with the modules it imports, as
/// paths under `ui/`.
fn imports() -> BTreeMap<String, BTreeSet<String>> {
    let ui = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../ui");
    let mut modules = BTreeMap::new();
    let mut todo = vec![PathBuf::new()];
    while let Some(dir) = todo.pop() {
        for entry in std::fs::read_dir(ui.join(&dir)).unwrap() {
            let name = PathBuf::from(entry.unwrap().file_name());
            let path = dir.join(&name);
            if ui.join(&path).is_dir() {
                if name != Path::new("vendor") {
                    todo.push(path);
                }
            } else if path.extension().is_some_and(|e| e == "js") {
                let text = std::fs::read_to_string(ui.join(&path)).unwrap();
                modules.insert(named(&path), imported(&dir, &text));
            }
        }
    }
    modules
}

fn named(path: &Path) -> String {
    path.to_string_lossy().replace('\\', "/")
}

/// The relative modules `text` (a module in `dir`) imports: `from './x.js'`, `import('./x.js')`.
fn imported(dir: &Path, text: &str) -> BTreeSet<String> {
    let mut found = BTreeSet::new();
    for opening in ["from '", "import('"] {
        for (at, _) in text.match_indices(opening) {
            let rest = &text[at + opening.len()..];
            let Some((spec, _)) = rest.split_once('\'') else {
                continue;
            };
            if !spec.starts_with('.') || !spec.ends_with(".js") {
                continue;
            }
            let mut path = dir.to_path_buf();
            for part in Path::new(spec).components() {
                match part {
                    Component::ParentDir => {
                        path.pop();
                    }
                    Component::Normal(p) => path.push(p),
                    _ => {}
                }
            }
            found.insert(named(&path));
        }
    }
    found
}

/// A circle of imports through `module`, if there is one: the modules on it.
fn circle(
    modules: &BTreeMap<String, BTreeSet<String>>,
    module: &str,
    path: &mut Vec<String>,
    done: &mut BTreeSet<String>,
) -> Option<Vec<String>> {
    if let Some(at) = path.iter().position(|m| m == module) {
        return Some(path[at..].to_vec());
    }
    if !done.insert(module.to_owned()) {
        return None;
    }
    path.push(module.to_owned());
    for next in modules.get(module).into_iter().flatten() {
        if let Some(found) = circle(modules, next, path, done) {
            return Some(found);
        }
    }
    path.pop();
    None
}

#[test]
fn no_module_imports_one_that_imports_it_back() {
    let modules = imports();
    assert!(modules.len() > 30, "the modules were found: {modules:?}");
    assert!(
        modules["app.js"].contains("screens/mysterium.js"),
        "dynamic imports are read"
    );
    let mut done = BTreeSet::new();
    for module in modules.keys() {
        if let Some(found) = circle(&modules, module, &mut Vec::new(), &mut done) {
            panic!("an import circle in ui/: {}", found.join(" → "));
        }
    }
}

/// The modules of `ui/` that import `module`.
fn importers_of(module: &str) -> Vec<String> {
    imports()
        .into_iter()
        .filter(|(_, imported)| imported.contains(module))
        .map(|(importer, _)| importer)
        .collect()
}

#[test]
fn screens_take_their_context_not_the_app() {
    let importers = importers_of("app.js");
    assert!(
        importers.is_empty(),
        "modules importing app.js: {importers:?}"
    );
}

#[test]
fn only_the_app_makes_the_screens_context() {
    assert_eq!(
        importers_of("context.js"),
        ["app.js"],
        "modules importing the app's context: a screen takes it as it is handed"
    );
}
