//! QR codes: of the join URL and of a finished game's short link to BG Stats as PNG for
//! screens, of the join URL in block characters for a terminal.
//!
//! A screen's QR code is a PNG of one pixel per module, which the screens scale up square
//! (`image-rendering: pixelated`): WebKit draws an SVG image as a page of its own, some
//! megabytes each, where a few hundred bytes of pixels do.

use base64::Engine;
use qrcode::render::unicode;
use qrcode::{Color, EcLevel, QrCode};

/// The light margin every reader expects around the code, in modules.
const QUIET_ZONE: usize = 4;

fn code(text: &str) -> QrCode {
    // Séance's links are well under the capacity of the largest QR version at level M.
    QrCode::with_error_correction_level(text, EcLevel::M).expect("a link fits in a QR code")
}

/// Dark modules on white with the quiet zone, one pixel each, as a black-and-white PNG.
pub fn png(text: &str) -> Vec<u8> {
    let code = code(text);
    let modules = code.width();
    let side = modules + 2 * QUIET_ZONE;
    let colors = code.to_colors();
    let dark = |x: usize, y: usize| {
        let (x, y) = (x.checked_sub(QUIET_ZONE), y.checked_sub(QUIET_ZONE));
        matches!((x, y), (Some(x), Some(y)) if x < modules && y < modules
            && colors[y * modules + x] == Color::Dark)
    };
    // One bit a pixel, set for white, each row filled out to a whole byte.
    let row = side.div_ceil(8);
    let mut pixels = vec![0u8; row * side];
    for y in 0..side {
        for x in (0..side).filter(|&x| !dark(x, y)) {
            pixels[y * row + x / 8] |= 0x80 >> (x % 8);
        }
    }
    let side = u32::try_from(side).expect("a QR code is at most 185 modules wide");
    encode(side, &pixels, row)
}

/// A black-and-white PNG of `side` × `side` pixels, `row` bytes of `pixels` a row. Written
/// by hand, its image stored (a few hundred bytes): no compressor is worth its code here.
fn encode(side: u32, pixels: &[u8], row: usize) -> Vec<u8> {
    // Each row is led by its filter, none; the rows are one zlib stream of stored blocks.
    let mut raw = Vec::with_capacity(pixels.len() + pixels.len() / row);
    for line in pixels.chunks(row) {
        raw.push(0);
        raw.extend_from_slice(line);
    }
    let mut zlib = vec![0x78, 0x01];
    let blocks = raw.chunks(usize::from(u16::MAX)).collect::<Vec<_>>();
    for (i, block) in blocks.iter().enumerate() {
        let len = u16::try_from(block.len()).expect("a stored block is at most 65535 bytes");
        zlib.push(u8::from(i + 1 == blocks.len()));
        zlib.extend_from_slice(&len.to_le_bytes());
        zlib.extend_from_slice(&(!len).to_le_bytes());
        zlib.extend_from_slice(block);
    }
    zlib.extend_from_slice(&adler32(&raw).to_be_bytes());
    let mut header = Vec::with_capacity(13);
    header.extend_from_slice(&side.to_be_bytes());
    header.extend_from_slice(&side.to_be_bytes());
    // One bit a pixel, grey; deflate, adaptive filters, not interlaced.
    header.extend_from_slice(&[1, 0, 0, 0, 0]);
    let mut png = b"\x89PNG\r\n\x1a\n".to_vec();
    for (kind, data) in [(b"IHDR", &header), (b"IDAT", &zlib), (b"IEND", &Vec::new())] {
        let len = u32::try_from(data.len()).expect("a QR code's chunk is small");
        png.extend_from_slice(&len.to_be_bytes());
        let start = png.len();
        png.extend_from_slice(kind);
        png.extend_from_slice(data);
        let crc = crc32(&png[start..]);
        png.extend_from_slice(&crc.to_be_bytes());
    }
    png
}

fn adler32(data: &[u8]) -> u32 {
    let (mut a, mut b) = (1u32, 0u32);
    for &byte in data {
        a = (a + u32::from(byte)) % 65_521;
        b = (b + a) % 65_521;
    }
    (b << 16) | a
}

/// The CRC-32 a PNG chunk ends with (ISO 3309, reflected, bit by bit: a few chunks).
fn crc32(data: &[u8]) -> u32 {
    let mut crc = !0u32;
    for &byte in data {
        crc ^= u32::from(byte);
        for _ in 0..8 {
            crc = if crc & 1 == 1 {
                (crc >> 1) ^ 0xEDB8_8320
            } else {
                crc >> 1
            };
        }
    }
    !crc
}

/// [`png`] as a `data:` URL, for a page to show without asking for it again.
pub fn png_data_url(text: &str) -> String {
    let encoded = base64::engine::general_purpose::STANDARD.encode(png(text));
    format!("data:image/png;base64,{encoded}")
}

/// Two rows per character; light blocks drawn, so it scans on a dark terminal.
pub fn terminal(text: &str) -> String {
    code(text)
        .render::<unicode::Dense1x2>()
        .dark_color(unicode::Dense1x2::Light)
        .light_color(unicode::Dense1x2::Dark)
        .build()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The PNG's pixels, decoded: `true` for dark.
    fn decoded(png: &[u8]) -> (usize, Vec<bool>) {
        let mut decoder = png::Decoder::new(std::io::Cursor::new(png));
        decoder.set_transformations(png::Transformations::EXPAND);
        let mut reader = decoder.read_info().unwrap();
        let mut pixels = vec![0; reader.output_buffer_size().unwrap()];
        let info = reader.next_frame(&mut pixels).unwrap();
        assert_eq!(info.width, info.height);
        let side = info.width as usize;
        let dark = pixels[..side * side].iter().map(|&p| p == 0).collect();
        (side, dark)
    }

    #[test]
    fn the_png_holds_the_code_module_for_module_within_its_quiet_zone() {
        let text = "http://192.168.1.20:4747/?code=ABCDEFGHJK";
        let code = code(text);
        let (side, dark) = decoded(&png(text));
        let modules = code.width();
        assert_eq!(side, modules + 2 * QUIET_ZONE);
        let colors = code.to_colors();
        for y in 0..side {
            for x in 0..side {
                let inside = (QUIET_ZONE..QUIET_ZONE + modules).contains(&x)
                    && (QUIET_ZONE..QUIET_ZONE + modules).contains(&y);
                let expected =
                    inside && colors[(y - QUIET_ZONE) * modules + (x - QUIET_ZONE)] == Color::Dark;
                assert_eq!(dark[y * side + x], expected, "({x}, {y})");
            }
        }
        assert!(png_data_url(text).starts_with("data:image/png;base64,iVBORw0KGgo"));
    }
}
