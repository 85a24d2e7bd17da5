//! `cargo varar report`: read the config, every oath it selects, the run
//! results in `.varar/` and the baseline, render the site, and write it
//! into the output directory. Runs no test and writes nothing outside the
//! output directory.

use std::path::{Path, PathBuf};

use varar_runner::internal::config::{ConfigError, load_config};
use varar_runner::internal::discovery::{DiscoveryError, discover, read_oath};
use varar_runner::internal::lock::Baseline;
use varar_runner::internal::store::{ResultFileError, StoreError, read_lock, read_run_result};

use crate::cli::ReportArgs;
use crate::report::{OathInput, ProjectInput, ResultsInput, render_site};
use crate::root::{self, RootError};
use crate::site::{SiteError, write_site};

/// The default output directory, under the project root (criterion's
/// `target/criterion/report/` convention).
pub const DEFAULT_OUT: &str = "target/varar/report";

/// Why no report was written.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ReportError {
    /// No project root.
    #[error(transparent)]
    Root(#[from] RootError),
    /// The config is invalid.
    #[error(transparent)]
    Config(#[from] ConfigError),
    /// Discovery failed.
    #[error(transparent)]
    Discovery(#[from] DiscoveryError),
    /// The site could not be written.
    #[error(transparent)]
    Site(#[from] SiteError),
}

/// An input the report could not use; the rest of the site is written and
/// the command exits 2.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum InputProblem {
    /// A result file is unreadable or refused by the strict reader.
    #[error(transparent)]
    Results(#[from] ResultFileError),
    /// An oath could not be read.
    #[error(transparent)]
    Oath(#[from] DiscoveryError),
}

/// Something worth saying that does not change the exit code.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Warning {
    /// The baseline could not be used: "not run" counts are unknown.
    #[error("{source}; the report cannot tell which examples did not run")]
    Lock {
        /// Why.
        #[source]
        source: StoreError,
    },
    /// The baseline has a version this project does not read.
    #[error(
        "varar.lock.json has version {version}; the report cannot tell which examples did not run"
    )]
    LockVersion {
        /// The version found.
        version: String,
    },
    /// `--open` could not start a browser.
    #[error("cannot open `{}` in a browser: {source}", path.display())]
    Open {
        /// index.html.
        path: PathBuf,
        /// Why.
        #[source]
        source: std::io::Error,
    },
}

/// What a report run did.
#[derive(Debug)]
pub struct ReportOutcome {
    /// The written `index.html`.
    pub index: PathBuf,
    /// Inputs that could not be used (each shown in the site as unreadable).
    pub problems: Vec<InputProblem>,
    /// Everything else worth saying.
    pub warnings: Vec<Warning>,
}

impl ReportOutcome {
    /// 0, or 2 when some input could not be used. Failed examples do not
    /// change it: the report describes, it does not judge.
    pub fn exit_code(&self) -> u8 {
        if self.problems.is_empty() { 0 } else { 2 }
    }
}

/// Run `cargo varar report` from `cwd`.
pub fn run(args: &ReportArgs, cwd: &Path) -> Result<ReportOutcome, ReportError> {
    let root = root::resolve(args.root.root.as_deref(), cwd)?;
    let out = match &args.out {
        Some(out) => cwd.join(out),
        None => root.join(DEFAULT_OUT),
    };
    let config = load_config(&root)?;
    let oaths = discover(&root, &config)?;
    let mut problems = Vec::new();
    let mut warnings = Vec::new();
    let mut input = ProjectInput {
        name: root
            .canonicalize()
            .ok()
            .and_then(|p| p.file_name().map(|n| n.to_string_lossy().into_owned()))
            .unwrap_or_else(|| root.display().to_string()),
        oaths: Vec::with_capacity(oaths.len()),
        lock: None,
    };
    match read_lock(&root) {
        Ok(Baseline::Present { lock, .. }) => input.lock = Some(lock),
        Ok(Baseline::Unsupported { version }) => warnings.push(Warning::LockVersion { version }),
        Ok(_) => {}
        Err(source) => warnings.push(Warning::Lock { source }),
    }
    for oath in &oaths {
        let text = read_oath(oath).map_err(|e| {
            let reason = e.to_string();
            problems.push(InputProblem::Oath(e));
            reason
        });
        let results = match read_run_result(&root, &oath.oath_path) {
            Ok(None) => ResultsInput::Missing,
            Ok(Some(results)) => ResultsInput::Read(results),
            Err(e) => {
                let reason = e.to_string();
                problems.push(InputProblem::Results(e));
                ResultsInput::Unreadable(reason)
            }
        };
        input.oaths.push(OathInput {
            oath_path: oath.oath_path.clone(),
            text,
            results,
        });
    }
    let site = render_site(&input);
    let index = write_site(&out, &site)?;
    if args.open
        && let Err(source) = open(&index)
    {
        warnings.push(Warning::Open {
            path: index.clone(),
            source,
        });
    }
    Ok(ReportOutcome {
        index,
        problems,
        warnings,
    })
}

/// Open `path` with `$BROWSER` when set, else the platform's opener.
fn open(path: &Path) -> std::io::Result<()> {
    let mut command = match std::env::var_os("BROWSER").filter(|b| !b.is_empty()) {
        Some(browser) => std::process::Command::new(browser),
        None if cfg!(target_os = "macos") => std::process::Command::new("open"),
        None if cfg!(windows) => {
            let mut c = std::process::Command::new("cmd");
            c.args(["/C", "start", ""]);
            c
        }
        None => std::process::Command::new("xdg-open"),
    };
    let status = command.arg(path).status()?;
    if status.success() {
        Ok(())
    } else {
        Err(std::io::Error::other(format!(
            "the opener exited with {status}"
        )))
    }
}
