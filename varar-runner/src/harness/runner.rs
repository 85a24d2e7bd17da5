//! The harness's entry points: [`run`] and the [`Runner`] builder. A run
//! goes through the stages of `stages/`; a fatal problem is printed once
//! and exits with libtest's failure code.

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Duration;

use libtest_mimic::Arguments;

use super::error::FATAL;
use super::print;
use super::run::watch;
use super::setup::settings::Settings;

/// Run every oath of the crate under test as libtest items: the entry point
/// of a `harness = false` test target.
///
/// ```no_run
/// // tests/oaths.rs
/// fn main() -> std::process::ExitCode {
///     varar_runner::run()
/// }
/// ```
pub fn run() -> ExitCode {
    Runner::from_env().run()
}

/// A configured harness run: the project root and which steps take part.
#[derive(Clone, Debug)]
pub struct Runner {
    settings: Settings,
}

impl Runner {
    /// A runner for the project rooted at `root` (where `varar.config.json`,
    /// `varar.lock.json` and `.varar/` live).
    pub fn new(root: impl Into<PathBuf>) -> Self {
        Runner {
            settings: Settings {
                root: root.into(),
                modules: None,
                update: None,
                timeout: None,
                slow_after: watch::SLOW_AFTER,
                ends_process: false,
            },
        }
    }

    /// A runner for the crate whose test is running: `CARGO_MANIFEST_DIR`
    /// (set by `cargo test` and `cargo nextest`), else the current directory.
    pub fn from_env() -> Self {
        let root = std::env::var_os("CARGO_MANIFEST_DIR")
            .map(PathBuf::from)
            .or_else(|| std::env::current_dir().ok())
            .unwrap_or_else(|| PathBuf::from("."));
        Runner::new(root)
    }

    /// Only use steps and parameter types declared in modules whose path
    /// starts with one of these prefixes (all of them by default).
    pub fn steps_from(mut self, module_prefixes: &[&str]) -> Self {
        self.settings.modules = Some(module_prefixes.iter().map(|m| m.to_string()).collect());
        self
    }

    /// Accept drift (`true`) or not, instead of reading `VARAR_UPDATE`.
    pub fn accept_drift(mut self, update: bool) -> Self {
        self.settings.update = Some(update);
        self
    }

    /// Fail an example that runs longer than `limit` (spec 60.7), instead of
    /// reading `VARAR_TIMEOUT`. The run goes on and ends normally even when
    /// a blocking step never returns: its thread is abandoned.
    pub fn timeout(mut self, limit: Duration) -> Self {
        self.settings.timeout = Some(limit);
        self
    }

    /// When no limit is set, print the `SLOW` notice for an example still
    /// running after `after` instead of 60 s. For Varar's own tests; not a
    /// setting users need.
    #[doc(hidden)]
    pub fn slow_notice_after(mut self, after: Duration) -> Self {
        self.settings.slow_after = after;
        self
    }

    /// The project root.
    pub fn root(&self) -> &Path {
        &self.settings.root
    }

    /// Run with the process's command-line arguments: the `main` of a test
    /// target, which returns what this returns. (What the run built in
    /// memory is left for the process's end to reclaim.)
    pub fn run(mut self) -> ExitCode {
        self.settings.ends_process = true;
        self.run_with(super::setup::arguments::from_env())
    }

    /// Run with explicit libtest arguments.
    pub fn run_with(self, args: Arguments) -> ExitCode {
        match super::stages::run(&self.settings, &args) {
            Ok(code) => code,
            Err(error) => {
                print::fatal(&error);
                ExitCode::from(FATAL)
            }
        }
    }
}
