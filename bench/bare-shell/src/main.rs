//! The baseline for `bench/startup`: the smallest Tauri 2 app, built the same way as
//! Séance, logging when its page has loaded.

use tauri::webview::PageLoadEvent;
use tauri::{WebviewUrl, WebviewWindowBuilder};

fn main() {
    let launched = std::time::Instant::now();
    tauri::Builder::default()
        .setup(|app| {
            WebviewWindowBuilder::new(app, "main", WebviewUrl::App("index.html".into()))
                .title("Hello")
                .inner_size(1280.0, 800.0)
                .build()?;
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
