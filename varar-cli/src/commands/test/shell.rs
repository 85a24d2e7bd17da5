//! `cargo varar test`'s shell: the project read and planned as `cargo
//! varar check` reads it, `git` run for `--since`, the selection said on
//! stderr (before cargo starts, so it is this shell's to print, as
//! `review`'s questions are), then `cargo test` or `cargo nextest run` in
//! the project root with `VARAR_SELECT` naming the items, its output the
//! user's, its exit code the command's.

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use varar_core::env::{VARAR_SELECT, VARAR_TAGS};
use varar_core::lock::{Baseline, Lock};
use varar_core::tags::TagExpression;
use varar_core::untrusted::{cut_to, terminal_line};
use varar_core::verdict::records::{Code, ErrorRecord};
use varar_lsp::analysis::oaths::Oaths;
use varar_lsp::analysis::rust_sources::{label, rust_files, sources};
use varar_lsp::analysis::step_index::StepIndex;
use varar_lsp::analysis::{Analysis, PlanContext, plan_documents};
use varar_project::evidence::records::ProjectRecords as _;
use varar_project::{Loaded, Project};

use super::args::TestRun;
use super::since::{self, Decision, FileChange, StepFn};
use super::{Picked, Target, by_tags, select_value, selected_text, selector, targets};
use crate::error::Error;
use crate::output::Output;

/// Run `cargo varar test`.
pub fn run(run: &TestRun) -> Result<Output, Error> {
    let root = run
        .project
        .resolve()
        .map_err(|e| Error::from(ErrorRecord::root(&e)))?;
    // The tags the harness will select by: `--tags`, or a `VARAR_TAGS`
    // the caller's environment already holds (cargo passes it on), so
    // that what this command says is what runs. A bad expression stops
    // here, before anything is planned or run.
    let inherited = std::env::var(VARAR_TAGS).ok();
    let tags = match (&run.tags, &inherited) {
        (Some(tags), _) => Some(("--tags", tags.as_str())),
        (None, Some(tags)) => Some((VARAR_TAGS, tags.as_str())),
        (None, None) => None,
    }
    .filter(|(_, t)| !t.trim().is_empty());
    let expression = match tags {
        Some((from, tags)) => Some(TagExpression::parse(tags).map_err(|e| {
            invalid(format!(
                "{from} {:?} is not a tag expression: {e}",
                shown(tags)
            ))
        })?),
        None => None,
    };
    let (analyses, index) = plan(&root)?;
    let targets = targets(&analyses);
    let mut picked: Option<Picked> = None;
    if !run.selectors.is_empty() {
        let chosen = selector::select(&run.selectors, &analyses, &targets).map_err(invalid)?;
        picked = Some(chosen);
    }
    if let Some(reference) = &run.since {
        match changed_since(&root, reference, &analyses, &index, &targets)? {
            Decision::Everything(why) => {
                say(&format!(
                    "--since {}: running everything: {why}",
                    shown(reference)
                ));
            }
            Decision::Picked(changed) => {
                picked = Some(match picked {
                    Some(chosen) => selector::intersect(chosen, &changed),
                    None => changed,
                });
            }
        }
    }
    // Only a selection by place or change travels as names: the harness
    // applies `VARAR_TAGS` itself, with the same rule, so a selection by
    // tags alone never meets `VARAR_SELECT`'s size limit.
    let by_place = picked.is_some();
    if let Some(expression) = &expression {
        picked = Some(by_tags(&targets, &analyses, expression, picked));
    }
    let names: Option<Vec<&str>> = picked.as_ref().map(|p| {
        p.keys()
            .filter_map(|&i| targets.get(i))
            .map(|t| t.name.as_str())
            .collect()
    });
    match &picked {
        Some(p) => {
            for line in selected_text(&targets, p) {
                say(&line);
            }
        }
        None => say(&format!("selected all {} items", targets.len())),
    }
    if let Some((_, tags)) = tags {
        say(&format!(
            "{VARAR_TAGS}={}: passed to the harness, which selects by it too",
            shown(tags)
        ));
    }
    let value = names
        .as_deref()
        .filter(|_| by_place)
        .map(select_value)
        .transpose()
        .map_err(invalid)?;
    if run.list {
        let stdout = match &names {
            Some(names) => names.iter().map(|n| format!("{n}\n")).collect(),
            None => targets.iter().map(|t| format!("{}\n", t.name)).collect(),
        };
        return Ok(Output {
            stdout,
            ..Output::default()
        });
    }
    if names.as_ref().is_some_and(Vec::is_empty) {
        say("nothing to run");
        return Ok(Output::default());
    }
    let code = cargo(&root, run, value.as_deref())?;
    Ok(Output::default().exit(code))
}

/// The project planned as `check` plans it, and its steps.
fn plan(root: &Path) -> Result<(Vec<Analysis>, StepIndex), Error> {
    let Loaded {
        oaths: found, lock, ..
    } = Project::load(root).map_err(|e| Error::from(ErrorRecord::config(&e, root)))?;
    let found = found.map_err(|e| Error::from(ErrorRecord::discovery(&e, root)))?;
    let mut texts = Vec::with_capacity(found.len());
    for oath in found {
        match oath.text {
            Ok(text) => texts.push((oath.file.oath_path, text)),
            // Its read-error item is the harness's; nothing here selects it.
            Err(e) => say(&format!("warning: {e}")),
        }
    }
    let lock: Option<Lock> = match lock {
        Ok(Baseline::Present { lock, .. }) => Some(lock),
        _ => None,
    };
    let index = step_index(root);
    let paths: Vec<String> = texts.iter().map(|(p, _)| p.clone()).collect();
    let oaths = Oaths::from_disk(texts);
    let context = PlanContext {
        index: &index,
        lock: lock.as_ref(),
        oaths: &oaths,
    };
    let paths: Vec<&str> = paths.iter().map(String::as_str).collect();
    Ok((plan_documents(&context, &paths), index))
}

/// The steps of the package, read as the language server reads them.
fn step_index(root: &Path) -> StepIndex {
    let sources = sources(root);
    let mut texts = Vec::new();
    for path in rust_files(&sources) {
        if let Ok(text) = varar_project::files::read_to_string(&path) {
            let label = label(&sources, &path);
            texts.push((path, label, text));
        }
    }
    StepIndex::load(texts)
}

/// What changed since `reference`, by `git`, and what it selects.
fn changed_since(
    root: &Path,
    reference: &str,
    analyses: &[Analysis],
    index: &StepIndex,
    targets: &[Target],
) -> Result<Decision, Error> {
    // A ref is never an option, whatever it holds.
    if reference.starts_with('-') || reference.is_empty() || reference.contains('\0') {
        return Err(invalid(format!(
            "--since `{}` is no git ref (a ref never starts with `-`)",
            shown(reference)
        )));
    }
    let top = match git(root, &["rev-parse", "--show-toplevel"]) {
        Ok(top) => PathBuf::from(top.trim_end_matches('\n')),
        Err(why) => return Ok(Decision::Everything(format!("git failed: {why}"))),
    };
    let verify = format!("{reference}^{{commit}}");
    let commit = match git(
        root,
        &[
            "rev-parse",
            "--verify",
            "--quiet",
            "--end-of-options",
            &verify,
        ],
    ) {
        Ok(commit) => commit.trim().to_owned(),
        Err(_) => {
            return Err(invalid(format!(
                "--since `{}` names no commit of this repository",
                shown(reference)
            )));
        }
    };
    let prefix = project_prefix(root, &top);
    let diff = git(
        &top,
        &[
            "-c",
            "core.quotePath=true",
            "diff",
            "--no-color",
            "--no-ext-diff",
            "--no-textconv",
            "--no-relative",
            "--find-renames",
            "--unified=0",
            "--src-prefix=a/",
            "--dst-prefix=b/",
            &commit,
            "--",
        ],
    );
    let untracked = git(
        &top,
        &[
            "ls-files",
            "--others",
            "--exclude-standard",
            "--full-name",
            "-z",
        ],
    );
    let (diff, untracked) = match (diff, untracked) {
        (Ok(d), Ok(u)) => (d, u),
        (Err(why), _) | (_, Err(why)) => {
            return Ok(Decision::Everything(format!("git failed: {why}")));
        }
    };
    let mut changes = match since::parse_diff(&diff) {
        Ok(changes) => changes,
        Err(why) => {
            return Ok(Decision::Everything(format!(
                "the diff cannot be read: {why}"
            )));
        }
    };
    changes.extend(
        untracked
            .split('\0')
            .filter(|p| !p.is_empty())
            .map(FileChange::untracked),
    );
    if !changes.is_empty() {
        say(&format!(
            "--since {}: changed: {}",
            shown(reference),
            since::changed_files(&changes)
        ));
    }
    let steps = step_functions(index, &top);
    let oaths: Vec<&str> = analyses.iter().map(|a| a.oath_path.as_str()).collect();
    let project = since::Project {
        prefix: &prefix,
        oaths: &oaths,
        steps: &steps,
    };
    Ok(since::decide(&changes, project, targets))
}

/// The project root relative to the repository's top: `""` or `dir/`.
fn project_prefix(root: &Path, top: &Path) -> String {
    let root = root.canonicalize().unwrap_or_else(|_| root.to_path_buf());
    let top = top.canonicalize().unwrap_or_else(|_| top.to_path_buf());
    let rel = root.strip_prefix(&top).unwrap_or(Path::new(""));
    let mut prefix = rel.to_string_lossy().replace('\\', "/");
    if !prefix.is_empty() {
        prefix.push('/');
    }
    prefix
}

/// Every step function, its file relative to the repository's top.
fn step_functions(index: &StepIndex, top: &Path) -> Vec<StepFn> {
    let top = top.canonicalize().unwrap_or_else(|_| top.to_path_buf());
    (0..index.registry().steps.len())
        .filter_map(|i| {
            let (file, item) = index.step(i)?;
            let path = file
                .path
                .canonicalize()
                .unwrap_or_else(|_| file.path.clone());
            let rel = path.strip_prefix(&top).ok()?;
            let span = item.function.span;
            Some(StepFn {
                file: rel.to_string_lossy().replace('\\', "/"),
                start: span.start_line,
                end: span.end_line,
                step: i,
                name: item.function.name.clone(),
            })
        })
        .collect()
}

/// `git <args>` in `dir`: its stdout, or why it failed. Never a shell;
/// every value is one argument after the options.
fn git(dir: &Path, args: &[&str]) -> Result<String, String> {
    let out = Command::new("git")
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::null())
        .output()
        .map_err(|e| format!("cannot run git: {e}"))?;
    if !out.status.success() {
        let stderr = String::from_utf8_lossy(&out.stderr);
        let first = stderr.lines().next().unwrap_or("").to_owned();
        return Err(format!(
            "git {} exited with {}: {first}",
            args.first().unwrap_or(&""),
            out.status
        ));
    }
    String::from_utf8(out.stdout).map_err(|_| "git's output is not UTF-8".to_owned())
}

/// Run cargo in `root` and return its exit code.
fn cargo(root: &Path, run: &TestRun, select: Option<&str>) -> Result<u8, Error> {
    let program = std::env::var_os("CARGO").unwrap_or_else(|| OsString::from("cargo"));
    let mut command = Command::new(program);
    if run.nextest {
        command.args(["nextest", "run"]);
    } else {
        command.arg("test");
    }
    command.args(&run.cargo_args).current_dir(root);
    // The names travel in the environment, never as arguments; running
    // everything clears a selection inherited from the caller.
    match select {
        Some(value) => command.env(VARAR_SELECT, value),
        None => command.env_remove(VARAR_SELECT),
    };
    if let Some(tags) = &run.tags {
        command.env(VARAR_TAGS, tags);
    }
    let status = command.status().map_err(|e| {
        invalid(format!(
            "cannot run cargo {}: {e}",
            if run.nextest { "nextest run" } else { "test" }
        ))
    })?;
    Ok(exit_code(status))
}

/// Cargo's exit code; a signal, 128 plus its number, as a shell says it.
fn exit_code(status: std::process::ExitStatus) -> u8 {
    #[cfg(unix)]
    {
        use std::os::unix::process::ExitStatusExt as _;
        if let Some(signal) = status.signal() {
            return u8::try_from(128 + signal).unwrap_or(u8::MAX);
        }
    }
    status.code().map_or(1, |c| u8::try_from(c).unwrap_or(1))
}

/// An unusable input (exit 2).
fn invalid(message: String) -> Error {
    Error::from(ErrorRecord::new(Code::InvalidArguments, message))
}

/// A value of the user's, as a message shows it.
fn shown(text: &str) -> String {
    terminal_line(&cut_to(text, 200)).into_owned()
}

/// One line on stderr, as `main` prints the others.
fn say(line: &str) {
    #[allow(clippy::print_stderr)]
    {
        eprintln!("cargo varar: {}", terminal_line(line));
    }
}
