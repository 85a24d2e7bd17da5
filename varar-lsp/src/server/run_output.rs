//! What a `cargo test` run started from the editor says (pure): which
//! items it may run, the command line, and its output read line by line
//! into progress messages and, at the end, an outcome.
//!
//! Only items the server planned are run (STYLE §2.9): one of the names
//! the oath's `▶ Run` lenses give in its current plan, compared exactly
//! ([`Selection::planned`]), or every item of an oath of the project. No
//! name is ever read as an option: the names go after `--` (the end of
//! options) both for cargo and for the test binary, each one `argv` entry
//! ([`cargo_args`]; `run_cargo` starts no shell).
//!
//! cargo's own lines come on stderr (`Compiling bakery`, and with
//! `--message-format short` one line per compiler error:
//! `tests/steps/basket.rs:20:5: error[E0308]: mismatched types`); the
//! harness's on stdout (`running 6 tests`, `test [varar] … ... ok`,
//! `test result: …`). A run that printed no `test result:` and failed did
//! not get to run its tests: a build error (or the harness stopped before
//! its first trial), whose messages are kept to be shown.

use varar_core::names::KIND_PREFIX;

use crate::analysis::characters::shown;

/// Why `varar.run` refused an item: the server did not plan it. Nothing
/// was started.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "\"{}\" is not an item of {} as the server plans it now: nothing was run (run an example from its ▶ Run lens)",
    shown(.item),
    shown(.oath)
)]
pub struct NotPlanned {
    /// The item asked for.
    pub item: String,
    /// The oath of the command's `uri`.
    pub oath: String,
}

/// Which items a run selects.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Selection {
    /// One item, by its full name (`--exact`).
    Item(String),
    /// Every item of an oath (its drift and diagnostics too).
    Oath(String),
}

impl Selection {
    /// What a `varar.run` of oath `oath` selects: every item of the oath
    /// when no `item` is given, else `item` if it is exactly one of
    /// `planned` (the names of the oath's items in its current plan, as its
    /// lenses give them), else nothing, and why.
    pub fn planned(
        oath: &str,
        item: Option<String>,
        planned: &[String],
    ) -> Result<Selection, NotPlanned> {
        match item {
            None => Ok(Selection::Oath(oath.to_string())),
            Some(item) if planned.contains(&item) => Ok(Selection::Item(item)),
            Some(item) => Err(NotPlanned {
                item,
                oath: oath.to_string(),
            }),
        }
    }

    /// The test binary's arguments that select the items: `--exact --
    /// <name>`, or `-- <prefix>` with the oath's prefix with libtest's
    /// kind, which only the oath's items contain (`[varar] varar/a.md::`
    /// is not in `[varar] x/varar/a.md::…`). The name comes after `--`, so
    /// that one starting with `-` (an oath under a directory named
    /// `--logfile=…`) is a name, never an option.
    pub fn test_args(&self) -> Vec<String> {
        match self {
            Selection::Item(name) => vec!["--exact".to_string(), "--".to_string(), name.clone()],
            Selection::Oath(path) => vec!["--".to_string(), format!("{KIND_PREFIX}{path}::")],
        }
    }

    /// In words, for the progress title.
    pub fn describe(&self) -> String {
        match self {
            Selection::Item(name) => name.clone(),
            Selection::Oath(path) => format!("every example of {path}"),
        }
    }
}

/// The `cargo` arguments of a run of `target` (a test target's name) in
/// the package whose manifest is `manifest`: each value in the argument of
/// its option (`--test=<target>`), then `--` and the test binary's
/// arguments, whose names come after a `--` of their own
/// ([`Selection::test_args`]).
pub fn cargo_args(manifest: &str, target: &str, selection: &Selection) -> Vec<String> {
    let mut args = vec![
        "test".to_string(),
        format!("--manifest-path={manifest}"),
        format!("--test={target}"),
    ];
    args.extend(
        [
            "--message-format=short",
            "--color=never",
            "--",
            "--color=never",
        ]
        .iter()
        .map(|s| (*s).to_string()),
    );
    args.extend(selection.test_args());
    args
}

/// How a run ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RunOutcome {
    /// The tests ran.
    Ran {
        /// Items that passed.
        passed: usize,
        /// Items that failed.
        failed: usize,
    },
    /// The selection matched no item (the oath was changed and not saved,
    /// or the item is gone).
    NothingRan,
    /// The tests could not run: the build failed, or the harness stopped
    /// before its first trial. The error lines (at most a few), else the
    /// last lines of output.
    DidNotRun {
        /// What went wrong, one line each.
        errors: Vec<String>,
    },
    /// The user cancelled it.
    Cancelled,
    /// `cargo` could not be started.
    NotStarted(String),
}

impl RunOutcome {
    /// One line for the end of the progress and the message shown.
    pub fn summary(&self) -> String {
        match self {
            RunOutcome::Ran { passed, failed: 0 } => format!("{passed} passed"),
            RunOutcome::Ran { passed, failed } => format!("{failed} failed, {passed} passed"),
            RunOutcome::NothingRan => "no test matched: save the oath and run again".to_string(),
            RunOutcome::DidNotRun { errors } => match errors.as_slice() {
                [] => "cargo test did not run the oaths".to_string(),
                [one] => format!("cargo test did not run the oaths: {one}"),
                [first, rest @ ..] => format!(
                    "cargo test did not run the oaths: {first} (and {} more; see the log)",
                    rest.len()
                ),
            },
            RunOutcome::Cancelled => "cancelled".to_string(),
            RunOutcome::NotStarted(why) => format!("cannot start cargo: {why}"),
        }
    }

    /// `passed`, `failed`, `nothing-ran`, `did-not-run`, `cancelled` or
    /// `not-started`: the `status` of the command's answer.
    pub fn status(&self) -> &'static str {
        match self {
            RunOutcome::Ran { failed: 0, .. } => "passed",
            RunOutcome::Ran { .. } => "failed",
            RunOutcome::NothingRan => "nothing-ran",
            RunOutcome::DidNotRun { .. } => "did-not-run",
            RunOutcome::Cancelled => "cancelled",
            RunOutcome::NotStarted(_) => "not-started",
        }
    }
}

/// How many error lines an outcome keeps.
const KEPT_ERRORS: usize = 5;

/// The output of a run so far.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RunOutput {
    total: Option<usize>,
    passed: usize,
    failed: usize,
    finished: bool,
    errors: Vec<String>,
    error_count: usize,
    last: Vec<String>,
}

impl RunOutput {
    /// A line of cargo's stderr; the progress message it makes, if any.
    pub fn stderr(&mut self, line: &str) -> Option<String> {
        let trimmed = line.trim();
        self.keep_last(trimmed);
        if is_error(trimmed) {
            self.error_count += 1;
            if self.errors.len() < KEPT_ERRORS {
                self.errors.push(trimmed.to_string());
            }
            return None;
        }
        let (word, rest) = trimmed.split_once(' ')?;
        match word {
            "Compiling" => Some(format!(
                "building {}",
                rest.split_whitespace().next().unwrap_or(rest)
            )),
            "Running" => Some("running the oaths".to_string()),
            _ => None,
        }
    }

    /// A line of the test binary's stdout; the progress message it makes,
    /// if any.
    pub fn stdout(&mut self, line: &str) -> Option<String> {
        let trimmed = line.trim_end();
        self.keep_last(trimmed);
        if let Some(n) = trimmed
            .strip_prefix("running ")
            .and_then(|r| r.split_whitespace().next())
            .and_then(|n| n.parse::<usize>().ok())
        {
            self.total = Some(n);
            return Some(format!("running {}", plural(n, "test")));
        }
        if trimmed.starts_with("test result:") {
            self.finished = true;
            return None;
        }
        let (_, outcome) = trimmed.strip_prefix("test ")?.rsplit_once(" ... ")?;
        match outcome.trim() {
            "ok" => self.passed += 1,
            "FAILED" => self.failed += 1,
            _ => return None,
        }
        let done = self.passed + self.failed;
        Some(match self.total {
            Some(total) => format!("{done}/{total}, {} failed", self.failed),
            None => format!("{done} done, {} failed", self.failed),
        })
    }

    /// How far along the tests are, in percent, when known.
    pub fn percentage(&self) -> Option<u32> {
        let total = self.total.filter(|t| *t > 0)?;
        Some((100 * (self.passed + self.failed) / total).min(100) as u32)
    }

    /// The outcome once the process ended with `success`.
    pub fn outcome(&self, success: bool) -> RunOutcome {
        if self.finished {
            if self.total == Some(0) {
                return RunOutcome::NothingRan;
            }
            return RunOutcome::Ran {
                passed: self.passed,
                failed: self.failed,
            };
        }
        if success {
            return RunOutcome::NothingRan;
        }
        let mut errors = self.errors.clone();
        if errors.is_empty() {
            errors = self.last.clone();
        } else if self.error_count > errors.len() {
            errors.push(format!(
                "… {} more",
                plural(self.error_count - errors.len(), "error")
            ));
        }
        RunOutcome::DidNotRun { errors }
    }

    fn keep_last(&mut self, line: &str) {
        if line.is_empty() {
            return;
        }
        self.last.push(line.to_string());
        if self.last.len() > 3 {
            self.last.remove(0);
        }
    }
}

/// A compiler or cargo error line: `error…` or `path:line:col: error…`.
fn is_error(line: &str) -> bool {
    let after_place = line
        .split_once(": error")
        .filter(|(place, _)| place.matches(':').count() >= 2 && !place.contains(' '))
        .map(|(_, rest)| rest);
    line.starts_with("error") || after_place.is_some()
}

fn plural(n: usize, word: &str) -> String {
    if n == 1 {
        format!("1 {word}")
    } else {
        format!("{n} {word}s")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_command_line_selects_one_item_or_one_oath() {
        let one = Selection::Item("varar/a.md::Shop::I add 2".into());
        assert_eq!(
            cargo_args("/p/Cargo.toml", "oaths", &one),
            [
                "test",
                "--manifest-path=/p/Cargo.toml",
                "--test=oaths",
                "--message-format=short",
                "--color=never",
                "--",
                "--color=never",
                "--exact",
                "--",
                "varar/a.md::Shop::I add 2"
            ]
        );
        assert_eq!(
            Selection::Oath("varar/a.md".into()).test_args(),
            ["--", "[varar] varar/a.md::"]
        );
    }

    /// An oath under a directory named `--logfile=varar`: its names and
    /// its prefix come after the end of options, where neither cargo nor
    /// the test binary reads an option, and a target or manifest named
    /// like an option is the value of its own.
    #[test]
    fn names_like_options_come_after_the_end_of_options() {
        let name = "--logfile=varar/a.md::Shop::I put 1 bun in the basket";
        let args = cargo_args("-p/Cargo.toml", "--lib", &Selection::Item(name.into()));
        assert_eq!(
            &args[1..3],
            ["--manifest-path=-p/Cargo.toml", "--test=--lib"]
        );
        let ends: Vec<usize> = (0..args.len()).filter(|&i| args[i] == "--").collect();
        assert_eq!(ends.len(), 2, "{args:?}");
        assert_eq!(args[ends[1] - 1], "--exact");
        assert_eq!(&args[ends[1] + 1..], [name]);
        assert!(
            args[..ends[0]]
                .iter()
                .all(|a| a == "test" || a.starts_with("--") && a.contains('=')),
            "every cargo option holds its value: {args:?}"
        );
        let oath = cargo_args(
            "/p/Cargo.toml",
            "oaths",
            &Selection::Oath("--logfile=varar/a.md".into()),
        );
        assert_eq!(
            &oath[oath.len() - 2..],
            ["--", "[varar] --logfile=varar/a.md::"]
        );
    }

    /// `varar.run` with the item `--logfile=/some/path` ran the whole suite
    /// and wrote the file; only a name the oath's plan gives, exactly, is
    /// run.
    #[test]
    fn only_a_planned_item_is_selected_and_the_refusal_names_it_escaped() {
        let planned = vec![
            "varar/a.md::Shop::I add 2".to_string(),
            "varar/a.md::Shop::I add 2[1]".to_string(),
        ];
        let select = |item: Option<&str>| {
            Selection::planned("varar/a.md", item.map(str::to_string), &planned)
        };
        assert_eq!(
            select(Some("varar/a.md::Shop::I add 2[1]")),
            Ok(Selection::Item("varar/a.md::Shop::I add 2[1]".into()))
        );
        assert_eq!(select(None), Ok(Selection::Oath("varar/a.md".into())));
        for not_planned in [
            "--logfile=/tmp/x.log",
            "[varar] varar/a.md::Shop::I add 2",
            "varar/a.md::Shop::I add",
            "varar/a.md::Shop::I add 2 ",
            "varar/a.md::varar:drift:3",
            "",
        ] {
            assert!(select(Some(not_planned)).is_err(), "{not_planned:?}");
        }
        let refused = select(Some("--logfile=/tmp/x\u{202E}gol.\u{1B}[2J"));
        assert_eq!(
            refused.map_err(|e| e.to_string()),
            Err("\"--logfile=/tmp/x\\u{202E}gol.\\u{001B}[2J\" is not an item of varar/a.md as the \
                 server plans it now: nothing was run (run an example from its ▶ Run lens)"
                .to_string())
        );
    }

    #[test]
    fn progress_then_an_outcome() {
        let mut out = RunOutput::default();
        assert_eq!(
            out.stderr("   Compiling bakery v0.1.0 (/tmp/x)").as_deref(),
            Some("building bakery")
        );
        assert_eq!(
            out.stdout("running 2 tests").as_deref(),
            Some("running 2 tests")
        );
        assert_eq!(
            out.stdout("test [varar] varar/a.md::x ... ok").as_deref(),
            Some("1/2, 0 failed")
        );
        assert_eq!(out.percentage(), Some(50));
        out.stdout("test [varar] varar/a.md::y ... FAILED");
        out.stdout("test result: FAILED. 1 passed; 1 failed; 0 ignored");
        let outcome = out.outcome(false);
        assert_eq!(
            outcome,
            RunOutcome::Ran {
                passed: 1,
                failed: 1
            }
        );
        assert_eq!(outcome.summary(), "1 failed, 1 passed");
        assert_eq!(outcome.status(), "failed");
    }

    #[test]
    fn a_build_error_is_kept_and_nothing_matched_is_told() {
        let mut out = RunOutput::default();
        out.stderr("   Compiling bakery v0.1.0 (/tmp/x)");
        out.stderr("tests/steps/basket.rs:20:5: error[E0308]: mismatched types");
        out.stderr("error: could not compile `bakery` (test \"oaths\") due to 1 previous error");
        let outcome = out.outcome(false);
        assert_eq!(
            outcome.summary(),
            "cargo test did not run the oaths: tests/steps/basket.rs:20:5: error[E0308]: mismatched types (and 1 more; see the log)"
        );
        let mut out = RunOutput::default();
        out.stdout("running 0 tests");
        out.stdout("test result: ok. 0 passed; 0 failed");
        assert_eq!(out.outcome(true), RunOutcome::NothingRan);
        assert!(!is_error("warning: unused: error"));
        assert!(is_error("src/lib.rs:1:2: error: x"));
    }
}
