//! Serves `ui/` as the build made it ready (`build.rs`): each file compressed once, brotli
//! or gzip as the browser accepts, and cached for good under `/v/<version>/`, where the
//! version changes with any file. Only the home page is asked for again, and it names the
//! version: a returning phone revalidates one small page and nothing else. An edit to `ui/`
//! shows after the next `cargo build`.

use std::sync::Arc;

use axum::extract::State;
use axum::http::{HeaderMap, HeaderValue, StatusCode, Uri, header};
use axum::response::{IntoResponse, Response};

use crate::Shared;

/// A file of `ui/`, as embedded.
struct File {
    path: &'static str,
    mime: &'static str,
    raw: &'static [u8],
    brotli: Option<&'static [u8]>,
    gzip: Option<&'static [u8]>,
}

include!(concat!(env!("OUT_DIR"), "/ui/ui.rs"));

/// How long a browser keeps a file under the current version without asking: a year, the
/// most HTTP caches honour.
const FOR_GOOD: &str = "public, max-age=31536000, immutable";

pub async fn serve(State(shared): State<Arc<Shared>>, uri: Uri, headers: HeaderMap) -> Response {
    let path = uri.path().trim_start_matches('/');
    let (file, cache) = match path.strip_prefix("v/").and_then(|p| p.split_once('/')) {
        // A page from before an upgrade may still ask for the old version: it gets today's
        // file, not to be kept under the old name.
        Some((version, path)) => (
            find(path),
            if version == VERSION {
                FOR_GOOD
            } else {
                "no-cache"
            },
        ),
        None if path.is_empty() || path == "index.html" => {
            let lang = shared.settings.get().language;
            let home = HOMES.iter().find(|(l, _)| *l == lang).unwrap_or(&HOMES[0]);
            (Some(&home.1), "no-cache")
        }
        None => (find(path), "no-cache"),
    };
    match file {
        Some(file) => respond(file, cache, &headers),
        None => (StatusCode::NOT_FOUND, "Not found").into_response(),
    }
}

/// The address of `path` in `ui/` under the current version, cached for good.
pub fn versioned(path: &str) -> String {
    format!("/v/{VERSION}/{path}")
}

fn find(path: &str) -> Option<&'static File> {
    FILES
        .binary_search_by(|f| f.path.cmp(path))
        .ok()
        .map(|i| &FILES[i])
}

fn respond(file: &File, cache: &'static str, asked: &HeaderMap) -> Response {
    let (encoding, body) = pick(file, asked);
    let etag = format!(
        "\"{VERSION}-{}-{}\"",
        file.raw.len(),
        encoding.unwrap_or("raw")
    );
    let fresh = asked
        .get(header::IF_NONE_MATCH)
        .is_some_and(|v| v.as_bytes() == etag.as_bytes());
    let mut response = if fresh {
        StatusCode::NOT_MODIFIED.into_response()
    } else {
        body.into_response()
    };
    let h = response.headers_mut();
    h.insert(header::CONTENT_TYPE, HeaderValue::from_static(file.mime));
    h.insert(header::CACHE_CONTROL, HeaderValue::from_static(cache));
    if let Ok(etag) = HeaderValue::from_str(&etag) {
        h.insert(header::ETAG, etag);
    }
    if file.brotli.is_some() || file.gzip.is_some() {
        h.insert(header::VARY, HeaderValue::from_static("accept-encoding"));
    }
    if let Some(encoding) = encoding {
        h.insert(header::CONTENT_ENCODING, HeaderValue::from_static(encoding));
    }
    response
}

/// The smallest form the browser accepts: brotli, then gzip, else the file as written.
fn pick(file: &File, asked: &HeaderMap) -> (Option<&'static str>, &'static [u8]) {
    let accepts = |coding: &str| {
        asked
            .get_all(header::ACCEPT_ENCODING)
            .iter()
            .filter_map(|v| v.to_str().ok())
            .flat_map(|v| v.split(','))
            .any(|offer| {
                let mut parts = offer.split(';').map(str::trim);
                let named = parts.next().is_some_and(|n| n.eq_ignore_ascii_case(coding));
                // `q=0` refuses it.
                let refused = parts.any(|p| {
                    p.strip_prefix("q=")
                        .and_then(|q| q.parse::<f32>().ok())
                        .is_some_and(|q| q <= 0.0)
                });
                named && !refused
            })
    };
    match (file.brotli, file.gzip) {
        (Some(brotli), _) if accepts("br") => (Some("br"), brotli),
        (_, Some(gzip)) if accepts("gzip") => (Some("gzip"), gzip),
        _ => (None, file.raw),
    }
}
