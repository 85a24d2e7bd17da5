//! The `cargo test` harness (spec 40 §7): the shell that ties everything to
//! libtest-mimic.
//!
//! On the main thread, before libtest filters anything, it loads the config,
//! discovers every oath, reads the baseline (without locking it), reads
//! every oath **once** into the run's workspace (spec 70 §70.2: an oath is
//! planned among the others, whose sections it may link to), and parses and
//! plans each selected oath once, detecting its drift. Each planned example
//! becomes one trial whose closure owns its example (plain `Send` data) and
//! only executes it. A run of one item (`--exact`, one nextest process)
//! plans only that item's oath (`select.rs`).
//!
//! After libtest has run the trials, the collected results are merged into
//! `.varar/`, and a run that records the baseline (not a listing, not a
//! filtered run unless `VARAR_UPDATE` is set) takes the baseline's advisory
//! lock, re-reads it, reconciles and writes it. So a run killed or hung
//! before its trials finished never rewrote the baseline, and the lock is
//! held only for that short read-modify-write, never while planning.

mod color;
mod documents;
mod enumerate;
mod names;
mod panics;
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
use crate::discovery::discover_all;
use crate::lifecycle::{Lifecycle, ResourceStore, ResourceTeardown, StepUse};
use crate::lock::{
    Baseline, LOCK_FILE_NAME, OathRecord, pruned_notice, reconcile, stale_notice, stale_paths,
    unsupported_version_error,
};
use crate::registry::Registry;
use crate::results::{merge_results, parse_run_result};
use crate::store::{
    lock_baseline, read_lock, read_lock_for, replace_run_result, reread_lock, save_lock,
    update_run_result,
};

use enumerate::Purpose;
use select::Selection;

pub use color::ColorEnv;
pub use names::UniqueNames;
pub use panics::install_quiet_panic_hook;
use timeout::resolve_limit;
pub use timeout::{Limit, VARAR_TIMEOUT};

/// The exit code of a run that could not start (libtest's failure code).
const FATAL: u8 = 101;

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
        let found = discover_all(&self.root, &config).map_err(|e| e.to_string())?;
        let oaths = found.oaths;
        // A typo in a glob must not turn CI green: a run that finds nothing
        // to test fails (issue 10).
        if oaths.is_empty() && found.unreadable.is_empty() {
            return Err(nothing_discovered(&config, &self.root));
        }
        if registry.steps.is_empty() {
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
        // Every oath is read once: planning one oath needs the others'
        // links and headings (spec 70 §70.2), even in a run of one item.
        let texts = documents::Texts::read(&oaths, selection != Selection::Nothing);
        let workspace = texts.workspace();
        let planned = selection.oaths(&oaths, &workspace);

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
        // A lock of another format is never silently ignored: drift could
        // not be checked. Re-recording it needs explicit consent.
        if let Baseline::Unsupported { version } = &baseline {
            if !update {
                return Err(unsupported_version_error(LOCK_FILE_NAME, version));
            }
            if records {
                notice(&format!(
                    "varar: {LOCK_FILE_NAME}: lock version {version} is re-recorded as version 2 \
                 (VARAR_UPDATE is set)"
                ));
            }
        }
        let purpose = if args.list {
            Purpose::List
        } else {
            Purpose::Run
        };
        let inputs = enumerate::Inputs {
            oaths: &planned,
            texts: &texts,
            workspace: &workspace,
            baseline: &baseline,
            update,
            styles: &styles,
            purpose,
        };
        let mut prepared = enumerate::prepare(inputs, &shared, &watch);
        drop(workspace);
        // A path discovery could not read is one failing item; the rest runs.
        for (path, error) in &found.unreadable {
            if selection.wants(path) {
                prepared.trials.push(enumerate::failing(
                    format!("{path}::varar:read-error"),
                    error.to_string(),
                ));
            }
        }
        // Its baseline entry, if it had one, is kept, as for an unreadable
        // oath (spec 40 §2.4).
        let discovered: Vec<String> = oaths
            .iter()
            .map(|o| o.oath_path.clone())
            .chain(found.unreadable.iter().map(|(path, _)| path.clone()))
            .collect();
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

    /// Write each planned oath's results to `.varar/` (spec 40 §6, issue
    /// 10): exactly the examples of its current plan, each as this run
    /// recorded it or, when it did not run now, as the stored file of the
    /// same source did. A file whose every example ran is replaced without
    /// being read; nothing is created for an oath none of whose examples
    /// ran. Failures are warnings.
    fn write_results(&self, oaths: &[Arc<enumerate::OathRun>]) {
        for oath in oaths {
            let fresh = oath.results();
            let written = if oath.complete() {
                match fresh.to_text() {
                    Ok(text) => replace_run_result(&self.root, &oath.path, text.as_bytes()),
                    Err(e) => Ok(unwritable(&oath.path, &e)),
                }
            } else {
                update_run_result(&self.root, &oath.path, |stored| {
                    let stored = stored.and_then(|bytes| parse_run_result(bytes).ok());
                    if stored.is_none() && fresh.examples.is_empty() {
                        return None;
                    }
                    let merged = merge_results(stored.as_ref(), &fresh, &oath.planned, &oath.ran());
                    match merged.to_text() {
                        Ok(text) => Some(text.into_bytes()),
                        Err(e) => {
                            unwritable(&oath.path, &e);
                            None
                        }
                    }
                })
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

/// Why a run found no oath, naming what was searched: no config, or globs
/// that match nothing (issue 10).
fn nothing_discovered(config: &Config, root: &Path) -> String {
    if config.missing {
        return format!(
            "no varar.config.json in {}, so no oath was found and nothing was tested; add one, \
             e.g. {{\"docs\": {{\"include\": [\"varar/**/*.md\"]}}}}",
            root.display()
        );
    }
    let excluded = if config.docs_exclude.is_empty() {
        String::new()
    } else {
        format!(" (less docs.exclude {:?})", config.docs_exclude)
    };
    format!(
        "no oath matched docs.include {:?}{excluded} under {} ({}), so nothing was tested; \
         check the globs (they match paths relative to that directory, e.g. \"varar/**/*.md\")",
        config.docs_include,
        root.display(),
        config.path.display()
    )
}

/// Say that an oath's results could not be serialised (which cannot happen
/// for this model: strings and integers only); `false`, nothing written.
fn unwritable(oath_path: &str, error: &serde_json::Error) -> bool {
    notice(&format!(
        "varar: warning: cannot serialise the results of {oath_path}: {error}"
    ));
    false
}

/// Harness notices go to stderr, like libtest's own.
fn notice(text: &str) {
    #[allow(clippy::print_stderr)]
    {
        eprintln!("{text}");
    }
}

#[cfg(test)]
mod tests {
    use std::path::PathBuf;

    use super::*;

    #[test]
    fn issue10_4_nothing_discovered_names_the_globs_and_the_directory() {
        let root = Path::new("/work/shop");
        let missing = Config::empty(root.join("varar.config.json"));
        let text = nothing_discovered(&missing, root);
        assert!(
            text.starts_with("no varar.config.json in /work/shop, so no oath was found"),
            "{text}"
        );
        let config = Config {
            docs_include: vec!["varra/**/*.md".into()],
            docs_exclude: vec!["varra/drafts/**".into()],
            missing: false,
            ..Config::empty(PathBuf::from("/work/shop/varar.config.json"))
        };
        assert_eq!(
            nothing_discovered(&config, root),
            "no oath matched docs.include [\"varra/**/*.md\"] (less docs.exclude \
             [\"varra/drafts/**\"]) under /work/shop (/work/shop/varar.config.json), so nothing \
             was tested; check the globs (they match paths relative to that directory, e.g. \
             \"varar/**/*.md\")"
        );
    }
}
