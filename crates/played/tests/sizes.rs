//! Rooms a newcomer can read: outside tests, no code file of the workspace (its crates, the
//! window's shell, the screens) is over 500 lines, and no Rust function over 80 lines.
//! Tests are left out: a test reads as the story it plays, however long.

use std::path::{Path, PathBuf};

use seance_played::layers::files;

const FILE_MOST: usize = 500;
const FN_MOST: usize = 80;

/// The workspace's folder.
fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The code of a Rust file before its tests.
fn before_tests(text: &str) -> &str {
    text.split("\n#[cfg(test)]\nmod tests").next().unwrap()
}

/// `line` with its strings, character literals and comment taken out: what is left of it
/// opens and closes blocks.
fn braces(line: &str) -> String {
    let mut kept = String::new();
    let mut chars = line.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '"' => {
                while let Some(c) = chars.next() {
                    match c {
                        '\\' => {
                            chars.next();
                        }
                        '"' => break,
                        _ => {}
                    }
                }
            }
            // A character literal ('{', '\''), not a lifetime ('a).
            '\'' if matches!(chars.clone().nth(1), Some('\'')) || chars.peek() == Some(&'\\') => {
                let escaped = chars.next() == Some('\\');
                if escaped {
                    chars.next();
                }
                chars.next();
            }
            '/' if chars.peek() == Some(&'/') => break,
            c => kept.push(c),
        }
    }
    kept
}

/// Each function of `code` (not those of its tests) with its length in lines and its first
/// line.
fn functions(code: &str) -> Vec<(usize, String)> {
    let lines: Vec<&str> = code.lines().collect();
    let starts = |line: &str| {
        let mut words = line.split_whitespace().peekable();
        while let Some(word) = words.peek() {
            if word.starts_with("pub") || ["async", "const", "unsafe"].contains(word) {
                words.next();
            } else {
                break;
            }
        }
        words.next() == Some("fn")
    };
    let mut found = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        if !starts(lines[i]) {
            i += 1;
            continue;
        }
        let (mut depth, mut opened) = (0i32, false);
        let mut j = i;
        while j < lines.len() {
            let kept = braces(lines[j]);
            for c in kept.chars() {
                match c {
                    '{' => (depth, opened) = (depth + 1, true),
                    '}' => depth -= 1,
                    _ => {}
                }
            }
            if (opened && depth == 0) || (!opened && kept.trim_end().ends_with(';')) {
                break;
            }
            j += 1;
        }
        if opened {
            found.push((j - i + 1, lines[i].trim().to_owned()));
        }
        i = j + 1;
    }
    found
}

#[test]
fn no_code_file_is_over_500_lines_nor_a_function_over_80() {
    let root = root();
    let mut rust = Vec::new();
    for crate_dir in std::fs::read_dir(root.join("crates")).unwrap() {
        files(&crate_dir.unwrap().path().join("src"), "rs", &mut rust);
    }
    files(&root.join("src-tauri/src"), "rs", &mut rust);
    let mut screens = Vec::new();
    files(&root.join("ui"), "js", &mut screens);
    assert!(rust.len() > 50 && screens.len() > 30, "the files are found");
    let mut long = Vec::new();
    for path in rust.iter().chain(&screens) {
        let text = std::fs::read_to_string(path).unwrap();
        let code = before_tests(&text);
        let name = path.strip_prefix(&root).unwrap().display().to_string();
        let length = code.lines().count();
        if length > FILE_MOST {
            long.push(format!("{name}: {length} lines"));
        }
        if path.extension().is_some_and(|e| e == "rs") {
            for (length, first) in functions(code).into_iter().filter(|f| f.0 > FN_MOST) {
                long.push(format!("{name}: {length} lines in `{first}`"));
            }
        }
    }
    assert!(long.is_empty(), "too long to read:\n{}", long.join("\n"));
}

#[test]
fn the_count_sees_a_function_whole_whatever_its_strings_hold() {
    let code = "pub(crate) async fn a() {\n    let s = \"}}\";\n    let c = '{';\n    // }\n    if x {\n        y(&'a z);\n    }\n}\nfn b();\nconst fn c() { 1 }\n";
    assert_eq!(
        functions(code),
        [
            (8, "pub(crate) async fn a() {".to_owned()),
            (1, "const fn c() { 1 }".to_owned())
        ]
    );
}
