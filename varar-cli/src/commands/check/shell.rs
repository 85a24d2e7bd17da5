//! `cargo varar check`: read the project as the language server reads it
//! (`varar_project::Project::load`: the config, every oath it selects, the
//! committed lock; and the Rust sources of the package and its path
//! dependencies), hand it to
//! [`super::check`] and return the report as text or JSON. Runs nothing;
//! writes nothing.

use std::path::Path;

use varar_core::lock::{Baseline, LOCK_FILE_NAME, Lock};
use varar_project::store::{StoreError, lock_path};
use varar_project::{Loaded, Project};

use super::args::CheckRun;
use super::{CheckInput, CheckReport, SCHEMA, check, render_text};
use crate::error::Error;
use crate::output::{Output, emit};
use varar_core::verdict::records::{Code, ErrorRecord, display_path};
use varar_lsp::analysis::rust_sources::{label, rust_files, sources};
use varar_lsp::analysis::step_index::StepIndex;
use varar_project::evidence::records::ProjectRecords;
use varar_project::root::ProjectRoot;

/// `cargo varar check --schema`.
pub fn schema() -> Output {
    Output {
        stdout: SCHEMA.to_owned(),
        ..Output::default()
    }
}

/// Run `cargo varar check`. A project that cannot be read is no error: it
/// is a report with errors (exit 2) in the format asked for.
pub fn run(run: &CheckRun) -> Result<Output, Error> {
    let report = report(&run.project);
    Ok(emit(&report, run.format, render_text, None)?.exit(report.exit_code))
}

/// The check of the project at `project`.
pub fn report(project: &ProjectRoot) -> CheckReport {
    let root = match project.resolve() {
        Ok(root) => root,
        Err(e) => return CheckReport::unusable(vec![ErrorRecord::root(&e)]),
    };
    let mut errors = Vec::new();
    let Loaded {
        project,
        oaths: found,
        lock,
    } = match Project::load(&root) {
        Ok(loaded) => loaded,
        Err(e) => return CheckReport::unusable(vec![ErrorRecord::config(&e, &root)]),
    };
    let found = match found {
        Ok(found) => found,
        Err(e) => return CheckReport::unusable(vec![ErrorRecord::discovery(&e, &root)]),
    };
    if found.is_empty() {
        errors.push(ErrorRecord::new(
            Code::NoOaths,
            "the config selects no oath: nothing to check",
        ));
    }
    let mut oaths = Vec::with_capacity(found.len());
    for oath in found {
        match oath.text {
            Ok(text) => oaths.push((oath.file.oath_path, text)),
            Err(e) => errors.push(ErrorRecord::discovery(&e, &root)),
        }
    }
    let lock = usable_lock(&root, lock, &mut errors);
    let index = steps(&root, &mut errors);
    let input = CheckInput {
        root: &root,
        oaths,
        index: &index,
        lock: lock.as_ref(),
        config: &project.config.warnings,
    };
    check(input, errors)
}

/// The committed lock: absent is fine, unreadable is an input error.
fn usable_lock(
    root: &Path,
    lock: Result<Baseline, StoreError>,
    errors: &mut Vec<ErrorRecord>,
) -> Option<Lock> {
    let record =
        |message: String| ErrorRecord::new(Code::InputError, message).with_path(LOCK_FILE_NAME);
    match lock {
        Ok(Baseline::Present { lock, .. }) => Some(lock),
        Ok(Baseline::Unsupported { version }) => {
            errors.push(record(format!(
                "{LOCK_FILE_NAME} has version {version}, which this cargo varar does not read"
            )));
            None
        }
        Ok(_) => None,
        Err(e) => {
            let absolute = lock_path(root).display().to_string();
            errors.push(record(e.to_string().replace(&absolute, LOCK_FILE_NAME)));
            None
        }
    }
}

/// The steps of the package, read as the language server reads them; a
/// file that cannot be read or parsed is an input error (its steps are
/// unknown, so every plan could be wrong).
fn steps(root: &Path, errors: &mut Vec<ErrorRecord>) -> StepIndex {
    let sources = sources(root);
    let mut texts = Vec::new();
    for path in rust_files(&sources) {
        match varar_project::files::read_to_string(&path) {
            Ok(text) => {
                let label = label(&sources, &path);
                texts.push((path, label, text));
            }
            Err(e) => errors.push(
                ErrorRecord::new(
                    Code::InputError,
                    format!("cannot read `{}`: {e}", display_path(&path, root)),
                )
                .with_path(display_path(&path, root)),
            ),
        }
    }
    let index = StepIndex::load(texts);
    for file in index.files() {
        if let Some(e) = &file.error {
            let shown = display_path(&file.path, root);
            let mut record = ErrorRecord::new(
                Code::InputError,
                format!(
                    "{shown}:{}:{}: the steps of this file cannot be read: {}",
                    e.span.start_line, e.span.start_col, e.message
                ),
            )
            .with_path(shown);
            record.line = Some(e.span.start_line);
            errors.push(record);
        }
    }
    index
}
