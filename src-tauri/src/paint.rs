//! How the table's window paints: shared with `bench/bare-shell`, the startup benchmark's
//! baseline, so that both stand on the same floor.

/// WebKitGTK paints the page without composited layers: the table screen is a still page
/// repainted once a second at most, and its layers' backing store (tiles of the whole page,
/// drawn by software GL where there is no GPU) cost about 90 MiB of the web process's
/// memory for nothing the players see (`bench/startup`).
#[cfg(target_os = "linux")]
pub fn without_layers(window: &tauri::WebviewWindow) -> tauri::Result<()> {
    use webkit2gtk::{HardwareAccelerationPolicy, SettingsExt, WebViewExt};
    window.with_webview(|webview| {
        if let Some(settings) = webview.inner().settings() {
            settings.set_hardware_acceleration_policy(HardwareAccelerationPolicy::Never);
        }
    })
}

/// Elsewhere the system's webview decides.
#[cfg(not(target_os = "linux"))]
pub fn without_layers(_: &tauri::WebviewWindow) -> tauri::Result<()> {
    Ok(())
}
