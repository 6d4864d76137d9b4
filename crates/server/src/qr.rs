//! QR codes: of the join URL and of a finished game's short link to BG Stats as SVG for
//! screens, of the join URL in block characters for a terminal.

use qrcode::render::{svg, unicode};
use qrcode::{EcLevel, QrCode};

fn code(text: &str) -> QrCode {
    // Séance's links are well under the capacity of the largest QR version at level M.
    QrCode::with_error_correction_level(text, EcLevel::M).expect("a link fits in a QR code")
}

/// Dark modules on white with the quiet zone, as an SVG document.
pub fn svg(text: &str) -> String {
    code(text)
        .render::<svg::Color<'_>>()
        .min_dimensions(240, 240)
        .dark_color(svg::Color("#000000"))
        .light_color(svg::Color("#ffffff"))
        .build()
}

/// Two rows per character; light blocks drawn, so it scans on a dark terminal.
pub fn terminal(text: &str) -> String {
    code(text)
        .render::<unicode::Dense1x2>()
        .dark_color(unicode::Dense1x2::Light)
        .light_color(unicode::Dense1x2::Dark)
        .build()
}
