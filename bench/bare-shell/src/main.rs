//! The baseline for `bench/startup`: the smallest Tauri 2 app, built the same way as
//! Séance and painting the same way (on Linux, WebKitGTK without composited layers, as
//! Séance's window), logging when its page has loaded.

// Séance's window's own painting (`src-tauri/src/paint.rs`): the same floor for both.
#[path = "../../../src-tauri/src/paint.rs"]
mod paint;

use tauri::webview::PageLoadEvent;
use tauri::{WebviewUrl, WebviewWindowBuilder};

fn main() {
    let launched = std::time::Instant::now();
    tauri::Builder::default()
        .setup(|app| {
            let window =
                WebviewWindowBuilder::new(app, "main", WebviewUrl::App("index.html".into()))
                    .title("Hello")
                    .inner_size(1280.0, 800.0)
                    .build()?;
            paint::without_layers(&window)?;
            Ok(())
        })
        .on_page_load(move |_, payload| {
            if payload.event() == PageLoadEvent::Finished {
                eprintln!(
                    "page loaded {} ms after launch",
                    launched.elapsed().as_millis()
                );
            }
        })
        .run(tauri::generate_context!())
        .expect("the bare shell runs");
}
