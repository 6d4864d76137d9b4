//! The table window: a Tauri 2 webview on the server's own URL — the same HTTP and
//! WebSocket API the phones use, so the window holds no logic of its own.

use std::sync::Mutex;

use seance_server::instance::InstanceLock;
use seance_server::{Config, Requests, Server};
use tauri::webview::PageLoadEvent;
use tauri::{AppHandle, Manager, RunEvent, WebviewUrl, WebviewWindowBuilder};

const LABEL: &str = "table";

/// The server lives in the app's state so the exit handler can stop it.
struct Running(Mutex<Option<(Server, InstanceLock)>>);

/// Whether a window can be opened here (Linux and BSDs need X11 or Wayland).
pub fn display_available() -> bool {
    if cfg!(any(target_os = "windows", target_os = "macos")) {
        return true;
    }
    ["DISPLAY", "WAYLAND_DISPLAY"]
        .iter()
        .any(|v| std::env::var_os(v).is_some_and(|s| !s.is_empty()))
}

pub fn run(lock: InstanceLock, config: Config) -> Result<(), Box<dyn std::error::Error>> {
    let launched = std::time::Instant::now();
    // The server starts (its journal checked, its port bound) while GTK starts.
    let starting = tauri::async_runtime::spawn(Server::start(config.clone()));
    let app = tauri::Builder::default()
        .setup(move |app| {
            let mut server = tauri::async_runtime::block_on(starting)??;
            lock.publish(&server.record())?;
            tracing::info!("phones join at {}", server.join_url());
            let window = WebviewWindowBuilder::new(
                app,
                LABEL,
                WebviewUrl::External(server.local_url().parse()?),
            )
            .title("Séance")
            .inner_size(1280.0, 800.0)
            .min_inner_size(360.0, 560.0)
            .build()?;
            crate::paint::without_layers(&window)?;
            let handle = app.handle().clone();
            follow(&handle, &mut server, config);
            app.manage(Running(Mutex::new(Some((server, lock)))));
            Ok(())
        })
        .on_page_load(move |_, payload| {
            if payload.event() == PageLoadEvent::Finished {
                tracing::info!(
                    "table screen loaded {} ms after launch",
                    launched.elapsed().as_millis()
                );
            }
        })
        .build(tauri::generate_context!())?;
    app.run(|app, event| {
        if let RunEvent::Exit = event {
            let running = app.state::<Running>().0.lock().expect("server slot").take();
            if let Some((server, lock)) = running {
                tauri::async_runtime::block_on(server.shutdown());
                drop(lock);
            }
        }
    });
    Ok(())
}

/// JavaScriptCore runs the table screen's scripts in its interpreter, without compiling
/// them: the screen builds a view a few times a second at most, which the interpreter does
/// at once, and the compilers' code and their own pages cost about 4 MiB of the web process
/// at the home screen and 5 MiB in a game. And it collects the garbage once the heap has
/// grown by 2 MiB, or in proportion to what lives if that is more, rather than by 32 MiB at
/// least (its default for a page): the screen's live objects are a few MiB, and with the
/// default a game's old views held about 1 MiB more (`bench/startup`).
/// WebKitGTK's processes take JavaScriptCore's options from the environment they inherit;
/// one set by hand is kept.
#[cfg(target_os = "linux")]
pub fn lighter_javascript() {
    for (option, value) in [("JSC_useJIT", "0"), ("JSC_largeHeapSize", "2097152")] {
        if std::env::var_os(option).is_none() {
            // SAFETY: called first thing in `main`, before any thread is started: nothing
            // reads the environment meanwhile.
            unsafe { std::env::set_var(option, value) };
        }
    }
}

/// Elsewhere the system's webview has its own engine.
#[cfg(not(target_os = "linux"))]
pub fn lighter_javascript() {}

/// Brings the window to the front when a later launch asks, and starts the server again
/// (on the same port) when the table has chosen what to do with a journal in trouble.
fn follow(handle: &AppHandle, server: &mut Server, config: Config) {
    let Requests {
        mut focus,
        mut restart,
    } = server.take_requests().expect("requests are taken once");
    let front = handle.clone();
    tauri::async_runtime::spawn(async move {
        while focus.recv().await.is_some() {
            if let Some(window) = front.get_webview_window(LABEL) {
                let _ = window.unminimize();
                let _ = window.show();
                let _ = window.set_focus();
            }
        }
    });
    let handle = handle.clone();
    tauri::async_runtime::spawn(async move {
        if restart.recv().await.is_none() {
            return;
        }
        let running = handle
            .state::<Running>()
            .0
            .lock()
            .expect("server slot")
            .take();
        let Some((server, lock)) = running else {
            return;
        };
        let config = Config {
            port: server.port(),
            ..config
        };
        server.shutdown().await;
        match Server::start(config.clone()).await {
            Ok(mut next) => {
                let _ = lock.publish(&next.record());
                if let (Some(window), Ok(url)) =
                    (handle.get_webview_window(LABEL), next.local_url().parse())
                {
                    let _ = window.navigate(url);
                }
                follow(&handle, &mut next, config);
                *handle.state::<Running>().0.lock().expect("server slot") = Some((next, lock));
            }
            Err(e) => {
                tracing::error!("the server could not start again: {e}");
                handle.exit(1);
            }
        }
    });
}
