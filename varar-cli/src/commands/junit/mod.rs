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
//! - An example's tags (issue 38, [`varar_core::tags`]), read from its
//!   oath's text when its results are fresh, are its case's properties,
//!   one `<property name="tag" value="@slow"/>` per tag (seed 003's
//!   profile allows `properties` in a `testcase`).
//! - Every text that goes into the XML (names, paths, messages) first has
//!   each character XML 1.0 cannot hold replaced by its escape `\u{FFFE}`
//!   ([`xml_chars`]): the file stays well-formed and nothing vanishes.

use std::collections::BTreeSet;

use quick_junit::{NonSuccessKind, Property, Report, TestCase, TestCaseStatus, TestSuite};
use varar_core::names::{ItemKind, UniqueNames};
use varar_core::record::{ItemEvidence, Outcome, RunRecord};
use varar_core::results::OathResults;
use varar_core::tags::TagIndex;

use varar_core::verdict::current::Latest;
use varar_core::verdict::evidence::{EvidenceState, OathEvidence, ProjectEvidence};
use varar_core::verdict::records::ErrorRecord;
use varar_core::verdict::run_evidence::{RunEvidence, example_item, failed_items};
use varar_core::verdict::standing::{RunStanding, Standing};

/// The name of the `testsuites` element.
pub const REPORT_NAME: &str = "varar";

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
    convert(oaths, linked_only, None, None)
}

/// The project's JUnit report: [`build_with`], with the items of the
/// latest run, or the gate's records when the run cannot be judged (see
/// the module docs).
pub fn build_project(project: &ProjectEvidence) -> Result<Junit, Vec<ErrorRecord>> {
    let standing = project.standing();
    let refused = !standing.judgeable() && standing.standing != Standing::Missing;
    match convert(
        &project.oaths,
        &project.linked_only,
        Some(&project.run),
        Some(&standing),
    ) {
        Ok(_) if refused => Err(standing.problems),
        Ok(mut junit) => {
            if standing.standing == Standing::Missing {
                junit.warnings.push(format!(
                    "there is no run record in `{}`: drift, diagnostics and read errors, which \
                     result files do not hold, are not listed",
                    project.run.dir
                ));
            }
            junit
                .warnings
                .extend(standing.warnings.iter().map(|w| w.message.clone()));
            Ok(junit)
        }
        Err(mut errors) => {
            if refused {
                errors.extend(standing.problems);
            }
            Err(errors)
        }
    }
}

/// The conversion; `standing`, the latest run's, decides with the texts
/// what is current ([`varar_core::verdict::current::drawn`]).
fn convert(
    oaths: &[OathEvidence],
    linked_only: &BTreeSet<String>,
    run: Option<&RunEvidence>,
    standing: Option<&RunStanding>,
) -> Result<Junit, Vec<ErrorRecord>> {
    let mut report = Report::new(REPORT_NAME);
    let mut warnings = Vec::new();
    let mut errors = Vec::new();
    // A project's run is judged before (`build_project`): here it is whole.
    let latest = run.and_then(|r| r.latest.as_ref());
    let mut suited = BTreeSet::new();
    for o in oaths {
        let with_items = |mut suite: TestSuite| {
            if let Some(run) = latest {
                add_items(&mut suite, run, &o.oath_path);
            }
            suite
        };
        match o.state(Latest {
            standing,
            run: latest,
        }) {
            EvidenceState::Fresh(r) => {
                suited.insert(o.oath_path.as_str());
                report.add_test_suite(with_items(suite(o, r, true, latest)));
            }
            EvidenceState::Stale(r, why)
            | EvidenceState::Unvouched(r, why)
            | EvidenceState::Earlier(r, why) => {
                warnings.push(format!(
                    "`{}` is stale ({why}); its failures are shown without source excerpts",
                    o.result_path
                ));
                suited.insert(o.oath_path.as_str());
                report.add_test_suite(with_items(suite(o, r, false, latest)));
            }
            EvidenceState::Missing if linked_only.contains(&o.oath_path) => {}
            EvidenceState::Missing => warnings.push(format!(
                "`{}` has no result ({}): it did not run and is left out",
                o.oath_path,
                o.missing_reason()
            )),
            EvidenceState::Unusable(found) => errors.extend(found),
        }
    }
    if let Some(run) = latest {
        // Items of oaths (or documents, or paths) without a suite of their own.
        let mut others: Vec<&str> = Vec::new();
        for item in failed_items(run).filter(|i| i.kind != ItemKind::Example) {
            let oath = item.oath_path.as_str();
            if !suited.contains(oath) && !others.contains(&oath) {
                others.push(oath);
            }
        }
        for oath in others {
            let mut suite = new_suite(oath);
            add_items(&mut suite, run, oath);
            report.add_test_suite(suite);
        }
    }
    if errors.is_empty() {
        Ok(Junit { report, warnings })
    } else {
        Err(errors)
    }
}

fn new_suite(oath_path: &str) -> TestSuite {
    let mut suite = TestSuite::new(x(oath_path));
    suite.extra.insert("file".into(), x(oath_path).into());
    suite
}

/// Every drift, diagnostic and read-error item of `oath_path` whose last
/// attempt failed, as a failing case of `suite`.
fn add_items(suite: &mut TestSuite, run: &RunRecord, oath_path: &str) {
    let items =
        failed_items(run).filter(|i| i.kind != ItemKind::Example && i.oath_path == oath_path);
    for item in items {
        let message = varar_core::verdict::run_evidence::last_failure(item).unwrap_or("failed");
        let mut status = TestCaseStatus::non_success(NonSuccessKind::Failure);
        status.set_message(x(message.lines().next().unwrap_or("")));
        status.set_type(item.kind.as_str());
        status.set_description(x(message));
        let mut case = TestCase::new(x(&item.name), status);
        case.set_classname(x(oath_path));
        case.extra.insert("file".into(), x(oath_path).into());
        if item.line > 0 {
            case.extra
                .insert("line".into(), item.line.to_string().into());
        }
        suite.add_test_case(case);
    }
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
        let what = match (a.outcome, a.message.as_deref()) {
            (Some(Outcome::Failed), Some(m)) => format!("failed: {m}"),
            (Some(Outcome::Failed), None) => "failed".to_owned(),
            (Some(Outcome::Ignored), _) => "ignored".to_owned(),
            (Some(Outcome::Passed), _) => "passed".to_owned(),
            (None, _) => "did not end".to_owned(),
        };
        out.push_str(&format!("attempt {}: {what}\n", a.attempt));
    }
    out
}

fn suite(
    o: &OathEvidence,
    results: &OathResults,
    fresh: bool,
    run: Option<&RunRecord>,
) -> TestSuite {
    let mut suite = new_suite(&o.oath_path);
    let mut names = UniqueNames::default();
    // A stale result's lines may point into another text: no tags.
    let tags = fresh.then(|| o.text_of(None).map(TagIndex::of)).flatten();
    for example in &results.examples {
        let status = match &example.failure {
            None => TestCaseStatus::success(),
            Some(f) => {
                let mut status = TestCaseStatus::non_success(NonSuccessKind::Failure);
                status.set_message(x(f.message.lines().next().unwrap_or("")));
                let text = if fresh {
                    o.text_of(f.doc_path.as_deref())
                } else {
                    None
                };
                status.set_description(x(&failure_text::render(
                    &o.oath_path,
                    &example.name,
                    f,
                    text,
                )));
                status
            }
        };
        let mut case = TestCase::new(x(&names.claim(example.name.clone())), status);
        case.set_classname(x(&o.oath_path));
        case.extra.insert("file".into(), x(&o.oath_path).into());
        if let Some(&line) = example.lines.first() {
            case.extra.insert("line".into(), line.to_string().into());
            for tag in tags.iter().flat_map(|t| t.at(line)) {
                case.add_property(Property::new("tag", x(tag)));
            }
        }
        if let Some(item) = run
            .and_then(|run| example_item(run, &o.oath_path, example))
            .filter(|i| i.recovered() && example.failure.is_none())
        {
            case.set_system_out(x(&recovered_note(item)));
        }
        suite.add_test_case(case);
    }
    suite
}

/// `text` as XML can hold it (see [`xml_chars`]).
fn x(text: &str) -> String {
    xml_chars::xml_text(text).into_owned()
}

pub mod xml_chars;

pub mod args;
pub mod failure_text;
pub mod shell;

#[cfg(test)]
mod tests;
