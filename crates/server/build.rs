//! Makes `ui/` ready to serve, at build time: every file compressed once (brotli and gzip,
//! where it shrinks), a version from all their bytes for the URLs phones may cache for good
//! (`/v/<version>/…`), and the home page pointing there, listing every module the app loads
//! so a phone fetches them at once, and the table's words, in each of the UI's languages
//! (the server tells the rule sets in it as it starts).

use std::fmt::Write as _;
use std::io::Write as _;
use std::path::{Path, PathBuf};

/// The languages the UI speaks (as `settings.rs` says): one home page for each.
const LANGUAGES: [&str; 3] = ["en", "fr", "it"];

/// Where the home page lists the modules (`ui/index.html` as written has none, and runs).
const MODULES_HERE: &str = "<!-- modulepreload -->";
/// Where the server tells the rule sets it carries (`assets.rs`).
const RULE_SETS_HERE: &str = "<!-- rule sets -->";

fn main() {
    // Read when the script runs, not baked in when it was compiled: a build script reused
    // from another checkout must read this one's `ui/`.
    let ui = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").unwrap()).join("../../ui");
    println!("cargo:rerun-if-changed={}", ui.display());
    let out = PathBuf::from(std::env::var("OUT_DIR").unwrap()).join("ui");
    std::fs::create_dir_all(&out).unwrap();
    // Release builds spend the time on the smallest files; others build quickly.
    let quality = if std::env::var("PROFILE").as_deref() == Ok("release") {
        11
    } else {
        5
    };

    let mut files = Vec::new();
    walk(&ui, &ui, &mut files);
    files.sort();
    let version = version(&files);

    let mut code = format!(
        "/// A hash of every file of `ui/`: the `/v/<version>/` its URLs are cached under.\n\
         const VERSION: &str = \"{version}\";\n\n\
         /// Every file of `ui/`, with its compressed forms.\n\
         static FILES: &[File] = &[\n"
    );
    for (path, bytes) in &files {
        let entry = embed(&out, path, bytes, quality);
        writeln!(code, "    File {{ path: {path:?}, {entry} }},").unwrap();
    }
    code.push_str("];\n\n/// The home page in each language, `(language, page)`, to be finished by the server\n/// (`assets.rs`: the rule sets it carries are told where it says `<!-- rule sets -->`).\nstatic HOMES: &[(&str, &str)] = &[\n");
    let html = std::fs::read_to_string(ui.join("index.html")).unwrap();
    let modules = modules(&ui, "app.js");
    for lang in LANGUAGES {
        let home = home(&html, &version, &modules, lang);
        writeln!(code, "    ({lang:?}, {home:?}),").unwrap();
    }
    code.push_str("];\n");
    std::fs::write(out.join("ui.rs"), code).unwrap();
}

/// Every file under `dir` with its bytes, by its path from `root` with `/` between folders.
fn walk(root: &Path, dir: &Path, files: &mut Vec<(String, Vec<u8>)>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            walk(root, &path, files);
        } else {
            let relative = path.strip_prefix(root).unwrap();
            let parts: Vec<_> = relative.iter().map(|p| p.to_str().unwrap()).collect();
            files.push((parts.join("/"), std::fs::read(&path).unwrap()));
        }
    }
}

/// FNV-1a over every path and its bytes: any change anywhere gives another version.
fn version(files: &[(String, Vec<u8>)]) -> String {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for (path, bytes) in files {
        for &byte in path.as_bytes().iter().chain([&0]).chain(bytes).chain([&0]) {
            hash = (hash ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3);
        }
    }
    format!("{:012x}", hash >> 16)
}

/// The fields of a `File` for `bytes`: its type, its bytes, and its compressed forms where
/// they are smaller, written beside it in `out`.
fn embed(out: &Path, path: &str, bytes: &[u8], quality: u32) -> String {
    let raw = out.join(path);
    std::fs::create_dir_all(raw.parent().unwrap()).unwrap();
    std::fs::write(&raw, bytes).unwrap();
    let mut forms = String::new();
    let kind = mime(path);
    for (field, compressed) in [("brotli", brotli(bytes, quality)), ("gzip", gzip(bytes))] {
        let squeezes = kind.compresses && compressed.len() < bytes.len();
        if squeezes {
            let file = out.join(format!("{path}.{field}"));
            std::fs::write(&file, compressed).unwrap();
            write!(
                forms,
                "{field}: Some(include_bytes!({:?})), ",
                file.display().to_string()
            )
            .unwrap();
        } else {
            write!(forms, "{field}: None, ").unwrap();
        }
    }
    format!(
        "mime: {:?}, raw: include_bytes!({:?}), {forms}",
        kind.mime,
        raw.display().to_string()
    )
}

struct Kind {
    mime: &'static str,
    compresses: bool,
}

/// What a file is, by its name; fonts, images and videos are compressed already.
fn mime(path: &str) -> Kind {
    let (mime, compresses) = match path.rsplit('.').next().unwrap_or("") {
        "html" => ("text/html", true),
        "js" => ("text/javascript", true),
        "css" => ("text/css", true),
        "json" => ("application/json", true),
        "webmanifest" => ("application/manifest+json", true),
        "svg" => ("image/svg+xml", true),
        "txt" | "md" => ("text/plain; charset=utf-8", true),
        "woff2" => ("font/woff2", false),
        "png" => ("image/png", false),
        // The silent video that keeps a phone's screen on where the wake lock is not given
        // (`ui/awake/`): served in byte ranges, as Safari asks for a video.
        "mp4" => ("video/mp4", false),
        "webm" => ("video/webm", false),
        _ => ("application/octet-stream", false),
    };
    Kind { mime, compresses }
}

fn brotli(bytes: &[u8], quality: u32) -> Vec<u8> {
    let mut out = Vec::new();
    {
        let mut writer = brotli::CompressorWriter::new(&mut out, 4096, quality, 22);
        writer.write_all(bytes).unwrap();
    }
    out
}

fn gzip(bytes: &[u8]) -> Vec<u8> {
    let mut writer = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
    writer.write_all(bytes).unwrap();
    writer.finish().unwrap()
}

/// Every module `entry` imports, directly or not, in the order first met (static imports
/// only: `import … from './x.js'` and `export … from`, one to a line as `ui/` writes them).
fn modules(ui: &Path, entry: &str) -> Vec<String> {
    let mut found = vec![entry.to_owned()];
    let mut next = 0;
    while next < found.len() {
        let module = found[next].clone();
        next += 1;
        let text = std::fs::read_to_string(ui.join(&module))
            .unwrap_or_else(|e| panic!("ui/{module}, imported, cannot be read: {e}"));
        let folder = Path::new(&module).parent().unwrap().to_owned();
        for line in text.lines().map(str::trim_start) {
            if !(line.starts_with("import ")
                || line.starts_with("export ")
                || line.starts_with('}'))
            {
                continue;
            }
            let Some(spec) = line.split(" from ").nth(1).or(line.strip_prefix("import ")) else {
                continue;
            };
            let spec = spec.trim().trim_end_matches(';');
            let Some(spec) = spec.strip_prefix('\'').and_then(|s| s.strip_suffix('\'')) else {
                continue;
            };
            let path = normalise(&folder.join(spec));
            if !found.contains(&path) {
                found.push(path);
            }
        }
    }
    found
}

/// `a/./b/../c.js` as `a/c.js`.
fn normalise(path: &Path) -> String {
    let mut parts: Vec<&str> = Vec::new();
    for part in path.iter().map(|p| p.to_str().unwrap()) {
        match part {
            "." => {}
            ".." => {
                parts.pop();
            }
            part => parts.push(part),
        }
    }
    parts.join("/")
}

/// The home page as served: every relative address under `/v/<version>/`, every module
/// the app loads listed to be fetched at once, and the words of `lang` asked for with them.
fn home(html: &str, version: &str, modules: &[String], lang: &str) -> String {
    let base = format!("/v/{version}/");
    let mut page = html.to_owned();
    for attribute in [" href=\"", " src=\""] {
        let mut served = String::new();
        let mut rest = page.as_str();
        while let Some(at) = rest.find(attribute) {
            let (before, after) = rest.split_at(at + attribute.len());
            served.push_str(before);
            let value = &after[..after.find('"').unwrap()];
            if !(value.starts_with('/') || value.starts_with('#') || value.contains(':')) {
                served.push_str(&base);
            }
            rest = after;
        }
        served.push_str(rest);
        page = served;
    }
    for marker in [MODULES_HERE, RULE_SETS_HERE] {
        assert!(page.contains(marker), "ui/index.html has no {marker}");
    }
    // The words first: the largest, and the screen waits for them as for the modules.
    let mut links = format!(
        "<link rel=\"preload\" href=\"{base}i18n/{lang}.json\" as=\"fetch\" crossorigin>\n  "
    );
    for module in modules.iter().skip(1) {
        write!(
            links,
            "<link rel=\"modulepreload\" href=\"{base}{module}\">\n  "
        )
        .unwrap();
    }
    page.replace(MODULES_HERE, &links).replacen(
        "<html lang=\"en\">",
        &format!("<html lang=\"{lang}\">"),
        1,
    )
}
