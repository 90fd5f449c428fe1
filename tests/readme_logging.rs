//! The documented logging lines (`src/docs/serving.md`, the serving guide on `serve`) in an
//! app that already installed a `log` logger, as many eframe apps do (`env_logger`, or their
//! own): they must not panic. With tracing-subscriber's default features they did ("failed to set global default subscriber: SetLoggerError"): its
//! `tracing-log` feature makes `init()` install a `log` logger too. The guide's dependency line
//! leaves that feature out. A test binary of its own, as both loggers are process-global.
//!
//! `tests/it/readme.rs` checks that the guide holds these lines and that dependency line.

use std::sync::atomic::{AtomicUsize, Ordering};

/// The app's own `log` logger: counts what it is given.
struct AppLogger;

static LOGGED: AtomicUsize = AtomicUsize::new(0);

impl log::Log for AppLogger {
    fn enabled(&self, _: &log::Metadata<'_>) -> bool {
        true
    }

    fn log(&self, _: &log::Record<'_>) {
        LOGGED.fetch_add(1, Ordering::Relaxed);
    }

    fn flush(&self) {}
}

#[test]
fn the_readme_logging_lines_work_after_the_app_installed_a_log_logger() {
    log::set_boxed_logger(Box::new(AppLogger)).expect("the app's logger, first");
    log::set_max_level(log::LevelFilter::Info);
    // README:begin
    use tracing_subscriber::prelude::*;
    tracing_subscriber::registry()
        .with(tracing_subscriber::fmt::layer().with_writer(std::io::stderr))
        .with(tracing_subscriber::EnvFilter::from_default_env())
        .with(tracing_subscriber::filter::filter_fn(egui_mcp_bridge::log_filter))
        .init();
    // README:end
    log::info!("the app's log line");
    assert_eq!(LOGGED.load(Ordering::Relaxed), 1, "the app's logger still gets its lines");
    tracing::warn!("a bridge-side line goes to the tracing subscriber");
}
