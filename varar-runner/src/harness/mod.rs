//! The `cargo test` harness (spec 40 §7): the shell that ties everything to
//! libtest-mimic.
//!
//! On the main thread, before libtest filters anything, it loads the config,
//! discovers every oath, reads the baseline (without locking it), and reads,
//! parses and plans each selected oath **once**, detecting its drift. Each
//! planned example becomes one trial whose closure owns its example (plain
//! `Send` data) and only executes it. A run of one item (`--exact`, one
//! nextest process) selects only that item's oath (`select.rs`).
//!
//! After libtest has run the trials, the collected results are merged into
//! `.varar/`, and a run that records the baseline (not a listing, not a
//! filtered run unless `VARAR_UPDATE` is set) takes the baseline's advisory
//! lock, re-reads it, reconciles and writes it. So a run killed or hung
//! before its trials finished never rewrote the baseline, and the lock is
//! held only for that short read-modify-write, never while planning.

mod color;
mod enumerate;
mod names;
mod pool;
mod runtime;
mod select;
mod timeout;
mod trial;
mod watch;

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Duration;

use libtest_mimic::Arguments;

use crate::config::{Config, load_config, update_mode_from_env};
use crate::discovery::discover;
use crate::execute::install_quiet_panic_hook;
use crate::lifecycle::{Lifecycle, ResourceStore, ResourceTeardown, StepUse};
use crate::lock::{
    Baseline, LOCK_FILE_NAME, OathRecord, pruned_notice, reconcile, stale_notice, stale_paths,
    unsupported_version_notice,
};
use crate::registry::Registry;
use crate::store::{
    lock_baseline, read_lock, read_lock_for, replace_run_result, reread_lock, save_lock,
    write_run_result,
};

use enumerate::Purpose;
use select::Selection;

pub use color::ColorEnv;
pub use names::{UniqueNames, example_item};
use timeout::resolve_limit;
pub use timeout::{Limit, TimeoutError, VARAR_TIMEOUT, parse_limit};

/// The exit code of a run that could not start (libtest's failure code).
const FATAL: u8 = 101;

/// Run every oath of the crate under test as libtest items: the entry point
/// of a `harness = false` test target.
///
/// ```no_run
/// // tests/oaths.rs
/// fn main() -> std::process::ExitCode {
///     varar_runner::harness::run()
/// }
/// ```
pub fn run() -> ExitCode {
    Runner::from_env().run()
}

/// A configured harness run: the project root and which steps take part.
#[derive(Clone, Debug)]
pub struct Runner {
    root: PathBuf,
    modules: Option<Vec<String>>,
    update: Option<bool>,
    timeout: Option<Duration>,
    slow_after: Duration,
}

impl Runner {
    /// A runner for the project rooted at `root` (where `varar.config.json`,
    /// `varar.lock.json` and `.varar/` live).
    pub fn new(root: impl Into<PathBuf>) -> Self {
        Runner {
            root: root.into(),
            modules: None,
            update: None,
            timeout: None,
            slow_after: watch::SLOW_AFTER,
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
        self.modules = Some(module_prefixes.iter().map(|m| m.to_string()).collect());
        self
    }

    /// Accept drift (`true`) or not, instead of reading `VARAR_UPDATE`.
    pub fn accept_drift(mut self, update: bool) -> Self {
        self.update = Some(update);
        self
    }

    /// Fail an example that runs longer than `limit` (spec 60.7), instead of
    /// reading `VARAR_TIMEOUT`. The run goes on and ends normally even when
    /// a blocking step never returns: its thread is abandoned.
    pub fn timeout(mut self, limit: Duration) -> Self {
        self.timeout = Some(limit);
        self
    }

    /// When no limit is set, print the `SLOW` notice for an example still
    /// running after `after` instead of 60 s. For Varar's own tests; not a
    /// setting users need.
    #[doc(hidden)]
    pub fn slow_notice_after(mut self, after: Duration) -> Self {
        self.slow_after = after;
        self
    }

    /// The project root.
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// Run with the process's command-line arguments.
    pub fn run(self) -> ExitCode {
        self.run_with(Arguments::from_args())
    }

    /// Run with explicit libtest arguments.
    pub fn run_with(self, args: Arguments) -> ExitCode {
        match self.run_inner(&args) {
            Ok(code) => code,
            Err(message) => {
                #[allow(clippy::print_stderr)]
                {
                    eprintln!("error: {message}");
                }
                ExitCode::from(FATAL)
            }
        }
    }

    fn limit(&self) -> Result<Option<Limit>, String> {
        resolve_limit(self.timeout, std::env::var(VARAR_TIMEOUT))
    }

    fn run_inner(&self, args: &Arguments) -> Result<ExitCode, String> {
        install_quiet_panic_hook();
        let styles = color::styles(args, ColorEnv::read());
        let config = load_config(&self.root).map_err(|e| e.to_string())?;
        let update = match self.update {
            Some(update) => update,
            None => update_mode_from_env()
                .map_err(|e| e.to_string())?
                .is_update(),
        };
        let limit = self.limit()?;
        let (registry, lifecycle) = self.registry()?;
        let oaths = discover(&self.root, &config).map_err(|e| e.to_string())?;
        if oaths.is_empty() {
            notice(&nothing_discovered(&config, &self.root));
        } else if registry.steps.is_empty() {
            notice(
                "varar: no step is registered in this test binary, so no paragraph can run; \
                 if the steps live in another crate, add `use that_crate as _;` to the test target",
            );
        }
        let runtime = runtime::Runtime::start(!args.list)?;
        let shared = Arc::new(trial::RunShared {
            resources: Arc::new(ResourceStore::new(lifecycle.resources.clone())),
            registry,
            lifecycle,
            runtime: runtime.handle(),
            limit: limit.clone(),
            threads: pool::Pool::new(),
        });
        let watch = watch::Watch::new();
        // Listing has no side effects; a filtered run (nextest runs one item
        // per process) leaves the baseline to full runs, unless the user
        // asked to accept drift.
        let partial = args.filter.is_some() || !args.skip.is_empty() || args.ignored;
        let records = !args.list && (!partial || update);
        let selection = Selection::of(args, records);
        let planned = selection.oaths(&oaths);

        // Drift is detected against the baseline as it is now; nothing is
        // locked while planning and running.
        let baseline = match selection {
            Selection::Nothing => Baseline::Absent,
            Selection::All => read_lock(&self.root).map_err(|e| e.to_string())?,
            // Only the planned oaths' entries are needed (and this run
            // never writes the lock).
            Selection::Item(_) => {
                let wanted = |path: &str| planned.iter().any(|o| o.oath_path == path);
                read_lock_for(&self.root, &wanted).map_err(|e| e.to_string())?
            }
        };
        if let Baseline::Unsupported { version } = &baseline {
            notice(&unsupported_version_notice(LOCK_FILE_NAME, version));
        }
        let purpose = if args.list {
            Purpose::List
        } else {
            Purpose::Run
        };
        let prepared = enumerate::prepare(
            &planned, &shared, &watch, &baseline, update, &styles, purpose,
        );
        let discovered: Vec<String> = oaths.iter().map(|o| o.oath_path.clone()).collect();
        if !records {
            for path in stale_paths(&baseline, &discovered) {
                notice(&stale_notice(&path));
            }
        }
        let watchdog = match (&limit, args.list) {
            (None, false) => Some(watch::Watchdog::start(
                Arc::clone(&watch),
                self.slow_after,
                notice,
            )),
            _ => None,
        };
        let conclusion = libtest_mimic::run(args, prepared.trials);
        drop(watchdog);

        if !args.list {
            self.write_results(&prepared.oaths);
        }
        // Recorded only now, after the trials: a killed or hung run never
        // rewrote the baseline.
        let recorded = if records {
            self.record_baseline(baseline, &prepared.records, &discovered, update)
        } else {
            Ok(())
        };
        let torn_down = tear_down_resources(&shared);
        runtime.shut_down();
        for line in watch.never_returned() {
            notice(&line);
        }
        recorded?;
        // A failed resource teardown fails the run; the results are written.
        Ok(if torn_down {
            conclusion.exit_code()
        } else {
            ExitCode::from(FATAL)
        })
    }

    /// Write each oath's results to `.varar/` (spec 40 §6): merged into the
    /// stored ones when only some of its examples ran, replacing them when
    /// all did. Failures are warnings.
    fn write_results(&self, oaths: &[Arc<enumerate::OathRun>]) {
        for oath in oaths {
            let Some(results) = oath.results() else {
                continue;
            };
            let value = match serde_json::to_value(&results) {
                Ok(v) => v,
                Err(e) => {
                    notice(&format!(
                        "varar: cannot serialise results of {}: {e}",
                        oath.path
                    ));
                    continue;
                }
            };
            let written = if oath.complete() {
                replace_run_result(&self.root, &oath.path, &value)
            } else {
                write_run_result(&self.root, &oath.path, &value)
            };
            if let Err(e) = written {
                notice(&format!("varar: warning: {e}"));
            }
        }
    }

    fn registry(&self) -> Result<(Arc<Registry>, Arc<Lifecycle>), String> {
        let modules = self.modules.clone();
        let include = move |module_path: &str| match &modules {
            None => true,
            Some(prefixes) => prefixes.iter().any(|p| module_path.starts_with(p.as_str())),
        };
        let registry = Registry::from_inventory(&include)
            .map_err(|e| format!("the registered steps have problems:\n{e}"))?;
        let uses: Vec<StepUse<'_>> = registry
            .steps
            .iter()
            .map(|s| StepUse {
                expression: &s.spec.expression,
                file: &s.spec.file,
                line: s.spec.line,
                state: s.spec.state,
            })
            .collect();
        let lifecycle = Lifecycle::from_inventory(&include, &uses).map_err(|e| {
            format!("the registered resources, states and teardowns have problems:\n{e}")
        })?;
        Ok((Arc::new(registry), Arc::new(lifecycle)))
    }

    /// Record the baseline (spec 40 §4.5) after the trials: under the
    /// advisory lock, re-read it (another run may have written it since this
    /// one started), reconcile this run's records with it and write it.
    fn record_baseline(
        &self,
        earlier: Baseline,
        records: &[OathRecord],
        discovered: &[String],
        update: bool,
    ) -> Result<(), String> {
        let _guard = match lock_baseline(&self.root) {
            Ok(guard) => Some(guard),
            Err(e) => {
                notice(&format!("varar: warning: {e}"));
                None
            }
        };
        let current = match reread_lock(&self.root, earlier) {
            Ok(current) => current,
            // The user asked for the write: not doing it is fatal.
            Err(e) if update => return Err(e.to_string()),
            Err(e) => {
                notice(&format!(
                    "varar: warning: {e}; the baseline was not recorded"
                ));
                return Ok(());
            }
        };
        let reconciled = reconcile(&current, records, discovered, update);
        if reconciled.write {
            match save_lock(&self.root, &reconciled) {
                Ok(_) => {}
                Err(e) if update => return Err(e.to_string()),
                Err(e) => notice(&format!("varar: warning: {e}")),
            }
        }
        for path in &reconciled.pruned {
            notice(&pruned_notice(path));
        }
        for path in &reconciled.stale {
            notice(&stale_notice(path));
        }
        Ok(())
    }
}

/// Tear the run's resources down (spec 60.6), after the last example and
/// before the runtime stops. `false` when one failed: the run then fails.
fn tear_down_resources(shared: &trial::RunShared) -> bool {
    let lifecycle = &shared.lifecycle;
    let problems = shared.runtime.with_driver(None, |driver| {
        shared
            .resources
            .teardown_all(|id| lifecycle.teardown(id).map(|t| t.run), driver)
    });
    let mut ok = true;
    for problem in problems {
        match problem {
            ResourceTeardown::Failed(message) => {
                ok = false;
                notice(&format!("error: {message}"));
            }
            ResourceTeardown::Skipped(message) => notice(&format!("varar: {message}")),
        }
    }
    ok
}

/// Why a run found no oath: no config, or globs that match nothing.
fn nothing_discovered(config: &Config, root: &Path) -> String {
    if config.missing {
        format!(
            "varar: no varar.config.json in {}; nothing to run (add one with \
             {{\"docs\": {{\"include\": [\"varar/**/*.md\"]}}}})",
            root.display()
        )
    } else {
        format!(
            "varar: no oaths matched docs.include {:?} in {}",
            config.docs_include,
            config.path.display()
        )
    }
}

/// Harness notices go to stderr, like libtest's own.
fn notice(text: &str) {
    #[allow(clippy::print_stderr)]
    {
        eprintln!("{text}");
    }
}
