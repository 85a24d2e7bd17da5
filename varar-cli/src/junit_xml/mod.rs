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
//! - Any unusable input (an invalid result, an unreadable oath) refuses the
//!   whole conversion: a report never half-reads its evidence.

use quick_junit::{NonSuccessKind, Report, TestCase, TestCaseStatus, TestSuite};
use varar_core::names::UniqueNames;
use varar_core::results::OathResults;

use crate::evidence::{EvidenceState, OathEvidence};
use crate::failure_text;
use crate::records::ErrorRecord;

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
    linked_only: &std::collections::BTreeSet<String>,
) -> Result<Junit, Vec<ErrorRecord>> {
    let mut report = Report::new(REPORT_NAME);
    let mut warnings = Vec::new();
    let mut errors = Vec::new();
    for o in oaths {
        match o.state() {
            EvidenceState::Fresh(r) => {
                report.add_test_suite(suite(o, r, true));
            }
            EvidenceState::Stale(r, why) => {
                warnings.push(format!(
                    "`{}` is stale ({why}); its failures are shown without source excerpts",
                    o.result_path
                ));
                report.add_test_suite(suite(o, r, false));
            }
            EvidenceState::Missing if linked_only.contains(&o.oath_path) => {}
            EvidenceState::Missing => warnings.push(format!(
                "`{}` has no result (`{}` does not exist): it did not run and is left out",
                o.oath_path, o.result_path
            )),
            EvidenceState::Unusable(found) => errors.extend(found),
        }
    }
    if errors.is_empty() {
        Ok(Junit { report, warnings })
    } else {
        Err(errors)
    }
}

fn suite(o: &OathEvidence, results: &OathResults, fresh: bool) -> TestSuite {
    let mut suite = TestSuite::new(o.oath_path.as_str());
    suite
        .extra
        .insert("file".into(), o.oath_path.as_str().into());
    let mut names = UniqueNames::default();
    for example in &results.examples {
        let status = match &example.failure {
            None => TestCaseStatus::success(),
            Some(f) => {
                let mut status = TestCaseStatus::non_success(NonSuccessKind::Failure);
                status.set_message(f.message.lines().next().unwrap_or(""));
                let text = if fresh {
                    o.text_of(f.doc_path.as_deref())
                } else {
                    None
                };
                status.set_description(failure_text::render(&o.oath_path, &example.name, f, text));
                status
            }
        };
        let mut case = TestCase::new(names.claim(example.name.clone()), status);
        case.set_classname(o.oath_path.as_str());
        case.extra
            .insert("file".into(), o.oath_path.as_str().into());
        if let Some(line) = example.lines.first() {
            case.extra.insert("line".into(), line.to_string().into());
        }
        suite.add_test_case(case);
    }
    suite
}

#[cfg(test)]
mod tests;
