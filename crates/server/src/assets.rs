//! Serves `ui/` as the build made it ready (`build.rs`): each file compressed once, brotli
//! or gzip as the browser accepts, and cached for good under `/v/<version>/`, where the
//! version changes with any file. Only the home page is asked for again, and it names the
//! version: a returning phone revalidates one small page and nothing else. A file sent as it
//! is (a font, an image, a video) may be asked for in part: Safari plays a video only from a
//! server that answers byte ranges. An edit to `ui/` shows after the next `cargo build`.

use std::io::Write as _;
use std::sync::{Arc, OnceLock};

use axum::extract::State;
use axum::http::{HeaderMap, HeaderValue, StatusCode, Uri, header};
use axum::response::{IntoResponse, Response};
use flate2::Compression;
use flate2::write::GzEncoder;

use crate::rulesets;
use crate::shared::Shared;

/// Where the home page tells the rule sets (`ui/index.html`).
const RULE_SETS_HERE: &str = "<!-- rule sets -->";

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
            let chosen = shared.settings.get().language;
            let home = home(chosen.as_deref().unwrap_or_else(|| accepted(&headers)));
            let file = File {
                path: "index.html",
                mime: "text/html",
                raw: &home.page,
                brotli: None,
                gzip: home.gzip.as_deref(),
            };
            let mut response = respond(&file, &home.tag, "no-cache", &headers);
            // Until the table chooses, the page speaks each browser's language.
            response
                .headers_mut()
                .append(header::VARY, HeaderValue::from_static("accept-language"));
            return response;
        }
        None => (find(path), "no-cache"),
    };
    match file {
        Some(file) => respond(file, VERSION, cache, &headers),
        None => (StatusCode::NOT_FOUND, "Not found").into_response(),
    }
}

/// The home page in one language as served: the build's, with the rule sets this server
/// carries told in it, so a first visit routes its link at once (a phone's join link opens
/// its game's seats with no question asked first).
struct Home {
    lang: &'static str,
    page: Vec<u8>,
    /// What a browser accepts over plain http, where brotli is not offered.
    gzip: Option<Vec<u8>>,
    /// Of the page's bytes: a server carrying other rule sets serves another page.
    tag: String,
}

/// The home page in `lang` (the first language's where `ui/` has none), finished once.
fn home(lang: &str) -> &'static Home {
    static FINISHED: OnceLock<Vec<Home>> = OnceLock::new();
    let homes = FINISHED.get_or_init(|| {
        // `</` would end the script: JSON may say `<\/`.
        let told = rulesets::told().to_string().replace("</", "<\\/");
        let script = format!("<script type=\"application/json\" id=\"rule-sets\">{told}</script>");
        HOMES
            .iter()
            .map(|(lang, page)| {
                let page = page.replace(RULE_SETS_HERE, &script).into_bytes();
                let mut gzip = GzEncoder::new(Vec::new(), Compression::best());
                let gzip = gzip.write_all(&page).and_then(|()| gzip.finish()).ok();
                let hash = page.iter().fold(0xcbf2_9ce4_8422_2325_u64, |hash, &byte| {
                    (hash ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3)
                });
                Home {
                    lang,
                    page,
                    gzip,
                    tag: format!("{hash:016x}"),
                }
            })
            .collect()
    });
    homes.iter().find(|h| h.lang == lang).unwrap_or(&homes[0])
}

/// The first language of the browser's `Accept-Language` (by its weights) that Séance
/// speaks, else English: a French tablet on the table link opens in French.
fn accepted(headers: &HeaderMap) -> &'static str {
    let mut weighed: Vec<(f32, &str)> = offers(headers, header::ACCEPT_LANGUAGE)
        .take(16)
        .filter_map(|(tag, weight)| {
            let weight = weight?;
            let lang = crate::settings::LANGUAGES
                .into_iter()
                .find(|lang| tag.get(..2).is_some_and(|t| t.eq_ignore_ascii_case(lang)))?;
            (weight > 0.0).then_some((weight, lang))
        })
        .collect();
    // Stable: of equal weights, the first said.
    weighed.sort_by(|a, b| b.0.total_cmp(&a.0));
    weighed.first().map_or("en", |(_, lang)| lang)
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

/// `file` as `asked`, tagged as of `version`.
fn respond(file: &File, version: &str, cache: &'static str, asked: &HeaderMap) -> Response {
    let (encoding, body) = pick(file, asked);
    let etag = format!(
        "\"{version}-{}-{}\"",
        file.raw.len(),
        encoding.unwrap_or("raw")
    );
    let fresh = asked
        .get(header::IF_NONE_MATCH)
        .is_some_and(|v| v.as_bytes() == etag.as_bytes());
    // Only a file that is never compressed is sent in part: a range is of the bytes as sent.
    let ranged = file.brotli.is_none() && file.gzip.is_none();
    let part = if ranged && !fresh {
        range(asked, &etag, body.len())
    } else {
        None
    };
    let mut response = match (fresh, part) {
        (true, _) => StatusCode::NOT_MODIFIED.into_response(),
        (false, Some(Part::Bytes(first, last))) => {
            (StatusCode::PARTIAL_CONTENT, &body[first..=last]).into_response()
        }
        (false, Some(Part::Outside)) => StatusCode::RANGE_NOT_SATISFIABLE.into_response(),
        (false, None) => body.into_response(),
    };
    let h = response.headers_mut();
    if ranged {
        h.insert(header::ACCEPT_RANGES, HeaderValue::from_static("bytes"));
    }
    let said = match part {
        Some(Part::Bytes(first, last)) => Some(format!("bytes {first}-{last}/{}", body.len())),
        Some(Part::Outside) => Some(format!("bytes */{}", body.len())),
        None => None,
    };
    if let Some(Ok(said)) = said.map(HeaderValue::try_from) {
        h.insert(header::CONTENT_RANGE, said);
    }
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

/// A byte range of a file, as asked for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Part {
    /// From the first byte to the last, both sent.
    Bytes(usize, usize),
    /// Nothing of it is in the file (416).
    Outside,
}

/// The one byte range `asked` asks for of a file of `len` bytes tagged `etag`, or `None` for
/// the whole file: no range asked, several (a browser's video asks for one at a time), one
/// in another unit or not understood, or an `If-Range` naming another version.
fn range(asked: &HeaderMap, etag: &str, len: usize) -> Option<Part> {
    let spec = asked.get(header::RANGE)?.to_str().ok()?.trim();
    if asked
        .get(header::IF_RANGE)
        .is_some_and(|tag| tag.as_bytes() != etag.as_bytes())
    {
        return None;
    }
    let (first, last) = spec.strip_prefix("bytes=")?.split_once('-')?;
    let (first, last) = (first.trim(), last.trim());
    let end = len.checked_sub(1);
    if first.is_empty() {
        // `bytes=-N`: the last N bytes.
        let n: usize = last.parse().ok()?;
        return Some(match end {
            Some(end) if n > 0 => Part::Bytes(len.saturating_sub(n), end),
            _ => Part::Outside,
        });
    }
    let first: usize = first.parse().ok()?;
    let last: Option<usize> = if last.is_empty() {
        None
    } else {
        Some(last.parse().ok()?)
    };
    if last.is_some_and(|last| last < first) {
        return None;
    }
    Some(match end {
        Some(end) if first <= end => Part::Bytes(first, last.map_or(end, |l| l.min(end))),
        _ => Part::Outside,
    })
}

/// The smallest form the browser accepts: brotli, then gzip, else the file as written.
/// What a weighted header (`Accept-Encoding`, `Accept-Language`) offers, in its order: each
/// name with its weight, 1 where it says none, `None` where its weight is no number.
fn offers(
    asked: &HeaderMap,
    name: header::HeaderName,
) -> impl Iterator<Item = (&str, Option<f32>)> {
    asked
        .get_all(name)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .map(|offer| {
            let mut parts = offer.split(';').map(str::trim);
            let named = parts.next().unwrap_or("");
            let weight = parts
                .find_map(|p| p.strip_prefix("q="))
                .map_or(Some(1.0), |q| q.trim().parse::<f32>().ok());
            (named, weight)
        })
}

fn pick(file: &File, asked: &HeaderMap) -> (Option<&'static str>, &'static [u8]) {
    // `q=0` refuses a coding; a weight that is no number refuses nothing.
    let accepts = |coding: &str| {
        offers(asked, header::ACCEPT_ENCODING).any(|(named, weight)| {
            named.eq_ignore_ascii_case(coding) && weight.is_none_or(|q| q > 0.0)
        })
    };
    match (file.brotli, file.gzip) {
        (Some(brotli), _) if accepts("br") => (Some("br"), brotli),
        (_, Some(gzip)) if accepts("gzip") => (Some("gzip"), gzip),
        _ => (None, file.raw),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn asked(range: &str, if_range: Option<&str>) -> HeaderMap {
        let mut headers = HeaderMap::new();
        headers.insert(header::RANGE, HeaderValue::from_str(range).unwrap());
        if let Some(tag) = if_range {
            headers.insert(header::IF_RANGE, HeaderValue::from_str(tag).unwrap());
        }
        headers
    }

    #[test]
    fn a_byte_range_is_read_as_browsers_ask_it() {
        let part = |range: &str| super::range(&asked(range, None), "\"v\"", 100);
        assert_eq!(part("bytes=0-1"), Some(Part::Bytes(0, 1)));
        assert_eq!(part("bytes=10-"), Some(Part::Bytes(10, 99)));
        assert_eq!(part("bytes=90-500"), Some(Part::Bytes(90, 99)));
        assert_eq!(part("bytes=-30"), Some(Part::Bytes(70, 99)));
        assert_eq!(part("bytes=-300"), Some(Part::Bytes(0, 99)));
        assert_eq!(part("bytes=100-"), Some(Part::Outside));
        assert_eq!(part("bytes=-0"), Some(Part::Outside));
        // The whole file: several ranges, another unit, nonsense, a range backwards.
        for whole in [
            "bytes=0-1,5-6",
            "items=0-1",
            "bytes=a-b",
            "bytes=5-1",
            "bytes 0-1",
        ] {
            assert_eq!(part(whole), None, "{whole}");
        }
        let tagged = |tag: &str| super::range(&asked("bytes=0-1", Some(tag)), "\"v\"", 100);
        assert_eq!(tagged("\"v\""), Some(Part::Bytes(0, 1)));
        assert_eq!(
            tagged("\"older\""),
            None,
            "another version: the whole of this one"
        );
        assert_eq!(
            super::range(&asked("bytes=0-", None), "\"v\"", 0),
            Some(Part::Outside)
        );
    }
}
