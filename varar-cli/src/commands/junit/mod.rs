//! `cargo varar junit`: the run results as JUnit XML for CI servers (pure;
//! the shell is [`crate::commands::junit`]). Built on quick-junit, the
//! writer cargo-nextest uses.
//!
//! - One `testsuite` per selected oath that has results (`name` and
//!   `file` = its oathPath), in discovery order; one `testcase` per
//!   example (`classname` = the oathPath, `name` = the example's name,
//!   `file` = the oathPath, `line` = its first line); a failed example has a
//!   `failure` whose `message` is the first line of the recorded message
//!   and whose body is the failure rendered as the harness renders it.
//! - Inside the common profile CI servers accept (seed 003): only
//!   `testsuites`/`testsuite`/`testcase`/`failure`, only the attributes it
//!   allows, counts that agree with the cases, no timing (results carry
//!   none), and `(classname, name)` unique: repeated example names get
//!   `[1]`, `[2]`… as the harness's test names do.
//! - An oath without results did not run: it is left out, with a warning.
//!   A stale result is converted (it is what ran), with a warning, and its
//!   failures are shown without source excerpts, whose offsets could point
//!   at the wrong text.
//! - Any unusable input (an invalid result, an unreadable oath, an
//!   unreadable run record) refuses the whole conversion: a report never
//!   half-reads its evidence.
//! - The latest run ([`varar_core::verdict::run_evidence`], issue 19) adds what result
//!   files do not hold: every drift, diagnostic and read-error item whose
//!   last attempt failed is a failing case of its oath's suite (a suite of
//!   its own when the oath has none: a diagnostic in a linked document, a
//!   path that could not be read), named by the item's full name, its
//!   message the failure's text. An example that failed and then passed on
//!   a retry passes, and says so in its `system-out` (seed 003's profile
//!   has no `flakyFailure` or `rerunFailure`).
//! - `--profile nextest` (issue 38, opt-in) writes the attempts as
//!   cargo-nextest's own JUnit does ([`attempts`]): a recovered example
//!   passes with one `flakyFailure` per earlier attempt, an example that
//!   failed on every attempt fails with one `rerunFailure` per earlier
//!   attempt, and every case of the run has nextest's `timestamp` and
//!   `time`. The default, `--profile common`, stays seed 003's profile.
//! - What is listed is decided once in [`cases`], which `cargo varar ctrf`
//!   reads too: both reports list the same cases.
//! - A project's report is converted only from a run the gate can judge
//!   ([`varar_core::verdict::standing`], issue 34): a latest run that is unreadable,
//!   unrecorded, stale or incomplete refuses the conversion with the
//!   gate's own records, so that a CI server never shows an earlier run's
//!   passes as this run's. A project with no run record at all (results of
//!   another port, or of a Varar before issue 19) has no run to contradict
//!   its result files, and none that names their texts by SHA-256: they
//!   are converted as stale (no excerpts), with a warning, as every other
//!   consumer shows them ([`varar_core::verdict::current::drawn`]; the gate and
//!   `attest` refuse to judge it). A record of an earlier run that cannot
//!   be read is a warning.
//! - Every text that goes into the XML (names, paths, messages) first has
//!   each character XML 1.0 cannot hold replaced by its escape `\u{FFFE}`
//!   ([`xml_chars`]): the file stays well-formed and nothing vanishes.

use std::collections::BTreeSet;

use clap::ValueEnum;
use quick_junit::{NonSuccessKind, Property, Report, TestCase, TestCaseStatus, TestSuite};
use varar_core::names::ItemKind;
use varar_core::record::{ItemEvidence, Outcome};
use varar_core::verdict::evidence::{OathEvidence, ProjectEvidence};
use varar_core::verdict::records::ErrorRecord;

use cases::{Cases, Suite};

/// The name of the `testsuites` element.
pub const REPORT_NAME: &str = "varar";

/// Which JUnit dialect is written (`--profile`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, ValueEnum)]
pub enum Profile {
    /// Seed 003's common profile: retries said in `system-out`.
    #[default]
    Common,
    /// cargo-nextest's: every earlier attempt as a `flakyFailure` or
    /// `rerunFailure`, with timing.
    Nextest,
}

/// A converted project.
#[derive(Debug)]
pub struct Junit {
    /// The report, ready to serialise.
    pub report: Report,
    /// Things worth saying that do not stop the conversion.
    pub warnings: Vec<String>,
}

/// Convert every oath's evidence, or say why it cannot be.
pub fn build(oaths: &[OathEvidence]) -> Result<Junit, Vec<ErrorRecord>> {
    build_with(oaths, &std::collections::BTreeSet::new())
}

/// [`build`], where the oaths of `linked_only` have no suite and no
/// warning: they run, and are reported, inside the oaths that link to them
/// (spec 70 §70.4.5).
pub fn build_with(
    oaths: &[OathEvidence],
    linked_only: &BTreeSet<String>,
) -> Result<Junit, Vec<ErrorRecord>> {
    Ok(report(
        cases::cases(oaths, linked_only, None, None)?,
        Profile::Common,
    ))
}

/// The project's JUnit report in `profile`: the cases of
/// [`cases::project_cases`], or the gate's records when the run cannot be
/// judged (see the module docs).
pub fn build_project(
    project: &ProjectEvidence,
    profile: Profile,
) -> Result<Junit, Vec<ErrorRecord>> {
    Ok(report(cases::project_cases(project)?, profile))
}

/// The cases as a JUnit report.
fn report(cases: Cases<'_>, profile: Profile) -> Junit {
    let mut report = Report::new(REPORT_NAME);
    for suite in &cases.suites {
        report.add_test_suite(test_suite(suite, profile));
    }
    Junit {
        report,
        warnings: cases.warnings,
    }
}

fn test_suite(suite: &Suite<'_>, profile: Profile) -> TestSuite {
    let oath_path = suite.oath_path;
    let mut out = TestSuite::new(x(oath_path));
    out.extra.insert("file".into(), x(oath_path).into());
    for case in &suite.cases {
        let mut status = match &case.failure {
            None => TestCaseStatus::success(),
            Some(f) => {
                let mut status = TestCaseStatus::non_success(NonSuccessKind::Failure);
                status.set_message(x(&f.message));
                if case.kind != ItemKind::Example {
                    status.set_type(case.kind.as_str());
                }
                status.set_description(x(&f.text));
                status
            }
        };
        if profile == Profile::Nextest {
            attempts::add_reruns(&mut status, case);
        }
        let mut test_case = TestCase::new(x(&case.name), status);
        test_case.set_classname(x(oath_path));
        test_case.extra.insert("file".into(), x(oath_path).into());
        if let Some(line) = case.line {
            test_case
                .extra
                .insert("line".into(), line.to_string().into());
        }
        for tag in &case.tags {
            test_case.add_property(Property::new("tag", x(tag)));
        }
        match profile {
            Profile::Common => {
                if let Some(item) = case
                    .item
                    .filter(|i| i.recovered() && case.failure.is_none())
                {
                    test_case.set_system_out(x(&recovered_note(item)));
                }
            }
            Profile::Nextest => attempts::time_case(&mut test_case, case),
        }
        out.add_test_case(test_case);
    }
    out
}

/// The `system-out` of an example that recovered: which attempts failed
/// before the last one passed.
fn recovered_note(item: &ItemEvidence) -> String {
    let mut out = format!(
        "recovered: passed on attempt {} after {} that did not pass\n",
        item.attempts.len(),
        varar_core::verdict::run_evidence::plural(item.attempts.len() - 1, "earlier attempt")
    );
    for a in &item.attempts[..item.attempts.len() - 1] {
        out.push_str(&format!("attempt {}: {}\n", a.attempt, attempt_said(a)));
    }
    out
}

/// How an attempt ended, in words.
fn attempt_said(a: &varar_core::record::Attempt) -> String {
    match (a.outcome, a.message.as_deref()) {
        (Some(Outcome::Failed), Some(m)) => format!("failed: {m}"),
        (Some(Outcome::Failed), None) => "failed".to_owned(),
        (Some(Outcome::Ignored), _) => "ignored".to_owned(),
        (Some(Outcome::Passed), _) => "passed".to_owned(),
        (None, _) => "did not end".to_owned(),
    }
}

/// `text` as XML can hold it (see [`xml_chars`]).
fn x(text: &str) -> String {
    xml_chars::xml_text(text).into_owned()
}

pub mod xml_chars;

pub mod args;
pub mod attempts;
pub mod cases;
pub mod failure_text;
pub mod shell;

#[cfg(test)]
mod tests;
