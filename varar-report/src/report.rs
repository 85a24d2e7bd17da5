//! The report (shell), for `cargo varar report` and the language server's
//! "open report": read the config, every oath it selects, the run
//! results in `.varar/`, the baseline and the kept runs, render the site,
//! and write it into the output directory. Runs no test and writes nothing outside the
//! output directory. The latest run's standing, as the gate reads it
//! ([`varar_core::verdict::standing`]), is stated at the top of the index, and no result
//! it does not vouch for is drawn as current (issue 34).

use std::path::{Path, PathBuf};

use varar_core::lock::Baseline;
use varar_project::ProjectError;
use varar_project::discovery::DiscoveryError;
use varar_project::store::{ResultFileError, StoreError, result_path_shown};

use varar_core::verdict::current::{RunRead, Vouched};
use varar_core::verdict::evidence::ProjectEvidence;
use varar_core::verdict::flaky::strips;
use varar_core::verdict::records::{Code, ErrorRecord};
use varar_core::verdict::standing::Standing;
use varar_project::evidence::kept::read_kept;
use varar_project::evidence::{ProjectSnapshot, read_project};
use varar_project::root::{ProjectRoot, RootError};

use crate::html_report::{OathInput, ProjectInput, ResultsInput, render_site};
use crate::site::{SiteError, write_site};

/// The default output directory, under the project root (criterion's
/// `target/criterion/report/` convention).
pub const DEFAULT_OUT: &str = "target/varar/report";

/// What a report is asked: `cargo varar report`'s validated arguments,
/// or the language server's report of a project (never opened: the
/// editor opens the page).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReportRun {
    /// Where the project is.
    pub project: ProjectRoot,
    /// `--out DIR`, absolute; `None`: `target/varar/report` under the root.
    pub out: Option<PathBuf>,
    /// `--open`.
    pub open: bool,
}

/// Why no report was written.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ReportError {
    /// No project root.
    #[error(transparent)]
    Root(#[from] RootError),
    /// The project could not be read.
    #[error(transparent)]
    Project(#[from] ProjectError),
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
    /// A run record of the latest run (or of a run that may be later)
    /// could not be read or was refused (one of an unknown version is left
    /// out instead; one of an earlier run is a warning): the latest run
    /// may be another.
    #[error("{}", .0.message)]
    Record(ErrorRecord),
}

/// Something worth saying that does not change the exit code.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Warning {
    /// The config writes a key twice (`varar.config.json:3:3: …`).
    #[error("{0}")]
    Config(String),
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
    /// A record of the run history could not be read: the strips leave
    /// its run out.
    #[error("{0} (left out of the history)")]
    History(ErrorRecord),
    /// The latest run cannot be judged (issue 34): the report says so at
    /// the top of the index and draws no result it does not vouch for as
    /// current.
    #[error("{0}; the report says so, and draws no result of an earlier run as current")]
    Standing(String),
    /// A record of an earlier run could not be read: it is left out.
    #[error("{}", .0.message)]
    EarlierRecord(ErrorRecord),
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

impl ReportError {
    /// Always 2.
    pub fn exit_code(&self) -> u8 {
        2
    }
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

/// Read the project, render the site, write it: `cargo varar report`,
/// and the language server's "open report".
pub fn outcome(run: &ReportRun) -> Result<ReportOutcome, ReportError> {
    let root = run.project.resolve()?;
    let out = run.out.clone().unwrap_or_else(|| root.join(DEFAULT_OUT));
    let mut snapshot = read_project(&root)?;
    // The latest run's standing, as the gate reads it (issue 34); a config
    // selecting no oath has no evidence, and no standing.
    let evidence = snapshot.evidence().ok();
    let standing = evidence.as_ref().map(ProjectEvidence::standing);
    let read = RunRead::of(evidence.as_ref().and_then(|e| e.run.latest.as_ref()));
    let latest = evidence.and_then(|e| e.run.latest).filter(|latest| {
        standing
            .as_ref()
            .is_some_and(|s| s.run_id.as_deref() == Some(latest.run_id.as_str()))
    });
    let (mut input, mut problems, mut warnings) = report_input(snapshot, &read);
    input.run = latest;
    if let Some(s) = &standing {
        for p in &s.problems {
            if p.code == Code::InvalidRun {
                problems.push(InputProblem::Record(p.clone()));
            }
        }
        // Without any run record the index says so, and no result is
        // drawn (no record names its text), but none is an earlier run's.
        if !s.judgeable() && s.standing != Standing::Missing {
            warnings.push(Warning::Standing(s.headline()));
        }
        warnings.extend(s.warnings.iter().cloned().map(Warning::EarlierRecord));
    }
    input.standing = standing;
    // Without a history (`VARAR_HISTORY=off`) there are no strips.
    if let Ok(kept) = read_kept(&run.project, &[]) {
        input.history = strips((&kept.runs, &kept.partial), &kept.now);
        warnings.extend(kept.unreadable.into_iter().map(Warning::History));
    }
    let site = render_site(&input);
    let index = write_site(&out, &site)?;
    if run.open
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

/// What the report is made of, from what was read (`read`: what the
/// latest readable run read, which vouches for the texts of the results):
/// every input that could not be used is a problem (drawn as unreadable in
/// the site), an unusable baseline a warning.
fn report_input(
    snapshot: ProjectSnapshot,
    read: &RunRead,
) -> (ProjectInput, Vec<InputProblem>, Vec<Warning>) {
    let mut problems = Vec::new();
    let mut warnings: Vec<Warning> = snapshot
        .config_warnings()
        .into_iter()
        .map(Warning::Config)
        .collect();
    let root = &snapshot.root;
    let mut input = ProjectInput {
        name: root
            .canonicalize()
            .ok()
            .and_then(|p| p.file_name().map(|n| n.to_string_lossy().into_owned()))
            .unwrap_or_else(|| root.display().to_string()),
        oaths: Vec::with_capacity(snapshot.oaths.len()),
        lock: None,
        run: None,
        history: Vec::new(),
        standing: None,
    };
    match snapshot.baseline {
        Ok(Baseline::Present { lock, .. }) => input.lock = Some(lock),
        Ok(Baseline::Unsupported { version }) => warnings.push(Warning::LockVersion { version }),
        Ok(_) => {}
        Err(source) => warnings.push(Warning::Lock { source }),
    }
    for oath in snapshot.oaths {
        let text = oath.text.map_err(|e| {
            let reason = e.to_string();
            problems.push(InputProblem::Oath(e));
            reason
        });
        let results = match oath.results {
            Ok(None) => ResultsInput::Missing,
            Ok(Some(results)) => ResultsInput::Read(results),
            Err(e) if e.unknown_version().is_some() => ResultsInput::NewerFormat(
                e.newer_format_reason(&result_path_shown(&oath.file.oath_path))
                    .unwrap_or_default(),
            ),
            Err(e) => {
                let reason = e.to_string();
                problems.push(InputProblem::Results(e));
                ResultsInput::Unreadable(reason)
            }
        };
        let vouched = match &results {
            ResultsInput::Read(r) => read.vouched(
                std::iter::once(oath.file.oath_path.as_str())
                    .chain(r.documents.iter().map(|d| d.path.as_str())),
            ),
            _ => Vouched::new(),
        };
        input.oaths.push(OathInput {
            oath_path: oath.file.oath_path,
            text,
            results,
            vouched,
        });
    }
    (input, problems, warnings)
}

/// Open `path` with `$BROWSER` when set, else the platform's opener.
pub fn open(path: &Path) -> std::io::Result<()> {
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
