//! End-to-end: real Chromium against the headless server, and the real Tauri window under
//! Xvfb through tauri-driver and WebKitWebDriver. Each driver starts once for its suite.
//! Screenshots land in `target/e2e-screenshots/`.

mod at_once;
mod awake;
mod chromium;
mod climax;
mod history;
mod layout;
mod network;
mod new_edition;
mod phones;
mod rummy;
mod table;
mod tablets;
mod window;

use seance_e2e::{Browsers, Engine};
use std::future::Future;
use std::pin::Pin;
use std::time::Duration;

type Test = (&'static str, Pin<Box<dyn Future<Output = ()> + Send>>);

/// Runs each test whose name holds `filter` in its own task (a panic fails that test
/// only) with a time limit, and says how long each took (the suite must fit CI's time)
/// or, when it fails, what its browsers last said.
async fn run(
    tests: Vec<Test>,
    filter: Option<&str>,
    passed: &mut usize,
    failed: &mut Vec<&'static str>,
) {
    for (name, test) in tests {
        if filter.is_some_and(|f| !name.contains(f)) {
            continue;
        }
        let began = std::time::Instant::now();
        let began_at = std::time::SystemTime::now();
        let outcome = tokio::time::timeout(Duration::from_secs(120), tokio::spawn(test)).await;
        match outcome {
            Ok(Ok(())) => {
                println!(
                    "test {name} ... ok ({:.1} s)",
                    began.elapsed().as_secs_f64()
                );
                *passed += 1;
            }
            Ok(Err(panic)) => {
                println!("test {name} ... FAILED: {panic}");
                print!("{}", seance_e2e::driver_logs_since(began_at));
                failed.push(name);
            }
            Err(_) => {
                println!("test {name} ... FAILED: timed out after 120 s");
                print!("{}", seance_e2e::driver_logs_since(began_at));
                failed.push(name);
            }
        }
    }
}

/// A helper that started a process of its own (as a driver starts a browser) is dropped:
/// nothing of it may be left.
fn helpers_end_with_all_they_started() {
    let mut command = std::process::Command::new("sh");
    command.args(["-c", "sleep 120 & wait"]);
    let helper = seance_e2e::Process::spawn(&mut command).unwrap();
    std::thread::sleep(std::time::Duration::from_millis(300));
    let group = helper.0.id();
    assert!(
        seance_e2e::left_running().contains(&"sleep".to_owned()),
        "the grandchild runs"
    );
    drop(helper);
    std::thread::sleep(std::time::Duration::from_millis(300));
    let left = seance_e2e::left_running();
    assert!(
        !left.contains(&"sleep".to_owned()),
        "group {group} left {left:?}"
    );
}

fn main() -> std::process::ExitCode {
    let filter = std::env::args().skip(1).find(|a| !a.starts_with('-'));
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let (mut passed, mut failed) = runtime.block_on(async {
        let mut passed = 0;
        let mut failed = Vec::new();
        run(
            vec![(
                "a helper process ends with all it started",
                Box::pin(async { helpers_end_with_all_they_started() }),
            )],
            filter.as_deref(),
            &mut passed,
            &mut failed,
        )
        .await;
        // A filter picks tests by name ("table", "window: opens"…); Chromium is started
        // unless only the window tests are wanted.
        let filter = filter.as_deref();
        if filter.is_none_or(|f| {
            !["window", "webkit", "firefox"]
                .iter()
                .any(|e| f.starts_with(e))
        }) {
            let suite = chromium::Suite::start();
            run(suite.tests(), filter, &mut passed, &mut failed).await;
            run(awake::tests(suite.port()), filter, &mut passed, &mut failed).await;
            run(table::tests(suite.port()), filter, &mut passed, &mut failed).await;
            run(
                phones::tests(suite.port()),
                filter,
                &mut passed,
                &mut failed,
            )
            .await;
            run(
                climax::tests(suite.port()),
                filter,
                &mut passed,
                &mut failed,
            )
            .await;
            run(rummy::tests(suite.port()), filter, &mut passed, &mut failed).await;
            let tests = history::tests(suite.port());
            run(tests, filter, &mut passed, &mut failed).await;
            let tests = new_edition::tests(suite.port());
            run(tests, filter, &mut passed, &mut failed).await;
            let tests = network::tests(suite.port())
                .into_iter()
                .chain(network::in_engine(seance_e2e::Browsers::chromium(
                    suite.port(),
                )))
                .collect();
            run(tests, filter, &mut passed, &mut failed).await;
            run(
                layout::tests(suite.port()),
                filter,
                &mut passed,
                &mut failed,
            )
            .await;
            let tests = tablets::tests(suite.port());
            run(tests, filter, &mut passed, &mut failed).await;
            let tests = at_once::in_engine(seance_e2e::Browsers::chromium(suite.port()));
            run(tests, filter, &mut passed, &mut failed).await;
        }
        // The phones and the table's browser screen in the other engines people bring.
        for engine in [Engine::WebKit, Engine::Firefox] {
            if filter.is_none_or(|f| f.starts_with(engine.name()) || engine.name().starts_with(f)) {
                let browsers = Browsers::start(engine);
                let mut tests = phones::in_engine(browsers.clone());
                tests.extend(at_once::in_engine(browsers.clone()));
                tests.extend(awake::in_engine(browsers.clone()));
                tests.extend(network::in_engine(browsers.clone()));
                tests.extend(tablets::in_engine(browsers.clone()));
                tests.extend(table::in_engine(browsers));
                run(tests, filter, &mut passed, &mut failed).await;
            }
        }
        if filter.is_none_or(|f| "window".starts_with(f) || f.starts_with("window")) {
            let suite = window::Suite::start();
            run(suite.tests(), filter, &mut passed, &mut failed).await;
        }
        (passed, failed)
    });
    // Every browser, driver and server a test started is gone with its test.
    std::thread::sleep(std::time::Duration::from_millis(500));
    let left = seance_e2e::left_running();
    if left.is_empty() {
        println!("test nothing a test started is left running ... ok");
        passed += 1;
    } else {
        println!("test nothing a test started is left running ... FAILED: {left:?}");
        failed.push("nothing a test started is left running");
    }
    println!("\ne2e: {passed} passed, {} failed", failed.len());
    if failed.is_empty() {
        std::process::ExitCode::SUCCESS
    } else {
        println!("failures: {}", failed.join(", "));
        std::process::ExitCode::FAILURE
    }
}
