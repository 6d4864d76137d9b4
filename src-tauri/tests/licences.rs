//! `ui/licences.json` (Settings → Licences) against what the app is built from: Séance's own
//! licence, its font's, and every library in the dependency tree on each system the app is
//! released for (`about.toml`'s targets), none missing and none left over from an older
//! `Cargo.lock`. When this fails, run `scripts/licences`.

use std::collections::BTreeSet;
use std::path::Path;
use std::process::Command;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap()
}

fn read(path: &str) -> String {
    std::fs::read_to_string(root().join(path)).unwrap()
}

fn licences() -> serde_json::Value {
    serde_json::from_str(&read("ui/licences.json")).expect("ui/licences.json is JSON")
}

/// `name version` of every library the file credits.
fn credited() -> BTreeSet<String> {
    licences()["libraries"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|licence| {
            assert!(
                !licence["text"].as_str().unwrap().trim().is_empty(),
                "{} has its text",
                licence["name"]
            );
            licence["used_by"].as_array().unwrap().clone()
        })
        .map(|name| name.as_str().unwrap().to_owned())
        .collect()
}

/// The systems the app is released for, as `about.toml` lists them.
fn targets() -> Vec<String> {
    let about = read("about.toml");
    let list = about
        .split_once("targets = [")
        .and_then(|(_, rest)| rest.split_once(']'))
        .expect("about.toml lists its targets")
        .0;
    list.split(',')
        .map(|t| t.trim().trim_matches('"').to_owned())
        .filter(|t| !t.is_empty())
        .collect()
}

/// `name version` of every library built into the app for `target` (not our own crates, not
/// what only runs at build time).
fn built_in(target: &str) -> BTreeSet<String> {
    let out = Command::new(env!("CARGO"))
        .args([
            "tree",
            "--locked",
            "-p",
            "seance",
            "-e",
            "normal,no-proc-macro",
        ])
        .args(["--target", target, "--prefix", "none", "--format", "{p}"])
        .current_dir(root())
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "cargo tree: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .filter(|line| !line.contains(&*root().to_string_lossy()))
        .filter_map(|line| {
            let mut words = line.split(' ');
            Some(format!(
                "{} {}",
                words.next()?,
                words.next()?.trim_start_matches('v')
            ))
        })
        .collect()
}

/// `name version` of every package in `Cargo.lock`.
fn locked() -> BTreeSet<String> {
    let lock = read("Cargo.lock");
    lock.split("[[package]]")
        .filter_map(|package| {
            let field = |key: &str| {
                package
                    .lines()
                    .find_map(|l| l.strip_prefix(&format!("{key} = \"")))
                    .map(|v| v.trim_end_matches('"').to_owned())
            };
            Some(format!("{} {}", field("name")?, field("version")?))
        })
        .collect()
}

#[test]
fn every_library_built_into_the_app_is_credited_with_its_licence() {
    let credited = credited();
    for target in targets() {
        let missing: Vec<_> = built_in(&target).difference(&credited).cloned().collect();
        assert!(
            missing.is_empty(),
            "built into the app for {target} but not in ui/licences.json (run scripts/licences): {missing:?}"
        );
    }
}

#[test]
fn no_library_is_credited_that_the_app_no_longer_uses() {
    let stale: Vec<_> = credited().difference(&locked()).cloned().collect();
    assert!(
        stale.is_empty(),
        "in ui/licences.json but not in Cargo.lock (run scripts/licences): {stale:?}"
    );
}

#[test]
fn the_app_and_its_font_carry_their_own_licences() {
    let licences = licences();
    assert_eq!(licences["app"]["text"], read("LICENSE"));
    assert_eq!(licences["app"]["licence"], "MIT");
    let manifest = read("Cargo.toml");
    assert!(
        manifest.contains("license = \"MIT\""),
        "the workspace's licence is the one shown"
    );
    assert_eq!(licences["fonts"][0]["text"], read("ui/fonts/OFL.txt"));
}
