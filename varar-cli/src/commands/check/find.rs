//! Finding the problems (pure): every oath planned among the others, its
//! items named as the harness names them, the sentences and steps that
//! look wrong.

use std::collections::BTreeSet;
use std::path::Path;

use varar_core::config::{CONFIG_FILE_NAME, ConfigWarning};
use varar_core::doc::Candidate;
use varar_core::lock::{Lock, removed_message};
use varar_core::names::{ItemSource, OathItems, items};
use varar_core::plan::NoticeKind;
use varar_core::registry::Role;
use varar_core::source::Span;

use super::model::{CheckReport, Problem, ProblemCode, Severity, finish};
use varar_core::verdict::records::{ErrorRecord, display_path};
use varar_lsp::analysis::guess::{Guesser, step_text};
use varar_lsp::analysis::oaths::Oaths;
use varar_lsp::analysis::step_index::StepIndex;
use varar_lsp::analysis::{Analysis, PlanContext, plan_documents, reuses};

/// What the check reads: the project as the command found it.
#[derive(Debug)]
pub struct CheckInput<'a> {
    /// The project root (paths are shown relative to it).
    pub root: &'a Path,
    /// Every readable oath, `(oathPath, text)`, in discovery order.
    pub oaths: Vec<(String, String)>,
    /// The steps.
    pub index: &'a StepIndex,
    /// The committed lock, when there is one.
    pub lock: Option<&'a Lock>,
    /// The config's warnings (keys written twice).
    pub config: &'a [ConfigWarning],
}

/// Check the project: plan every oath, find its problems, and judge.
pub fn check(input: CheckInput<'_>, errors: Vec<ErrorRecord>) -> CheckReport {
    let CheckInput {
        root,
        oaths: texts,
        index,
        lock,
        config,
    } = input;
    let paths: Vec<String> = texts.iter().map(|(p, _)| p.clone()).collect();
    // The texts move in: a 10 MB oath is not copied.
    let oaths = Oaths::from_disk(texts);
    let context = PlanContext {
        index,
        lock,
        oaths: &oaths,
    };
    let paths: Vec<&str> = paths.iter().map(String::as_str).collect();
    let mut analyses = plan_documents(&context, &paths);
    give_reuses(&oaths, &mut analyses);
    let mut problems = Vec::new();
    let mut named = BTreeSet::new();
    harness_items(&analyses, &mut problems, &mut named);
    for refused in index.problems() {
        let (first, detail) = split_message(&refused.message);
        problems.push(Problem {
            code: ProblemCode::InvalidStep,
            severity: Severity::Error,
            message: first,
            detail,
            ..at(display_path(&refused.path, root), None, refused.span)
        });
    }
    let guesser = Guesser::new(index);
    for a in &analyses {
        unmatched_steps(a, &guesser, &named, &mut problems);
        problems.extend(a.notices.iter().map(|n| Problem {
            code: ProblemCode::of_notice(n.kind),
            severity: Severity::Warning,
            message: n.message.clone(),
            detail: None,
            fix: Some(n.fix.clone()),
            ..at(a.oath_path.clone(), Some(a.oath_path.clone()), n.span)
        }));
    }
    unused_steps(index, root, &analyses, &mut problems);
    removed_examples(&analyses, &mut problems);
    problems.extend(config.iter().map(config_problem));
    problems.sort_by(|a, b| {
        (&a.path, a.line, a.column, a.severity, a.code)
            .cmp(&(&b.path, b.line, b.column, b.severity, b.code))
    });
    finish(
        analyses.len(),
        index.registry().steps.len(),
        problems,
        errors,
    )
}

/// Give each oath what the plans of the oaths linking to it find in its
/// text, as the server does: a section only other oaths run is matched
/// there.
fn give_reuses(oaths: &Oaths, analyses: &mut [Analysis]) {
    let computed: Vec<_> = analyses
        .iter()
        .map(|a| {
            let by = oaths.reached_by(&a.oath_path);
            let others: Vec<&Analysis> = analyses
                .iter()
                .filter(|o| by.contains(&o.oath_path))
                .collect();
            reuses(&a.oath_path, &others)
        })
        .collect();
    for (a, r) in analyses.iter_mut().zip(computed) {
        if r != Default::default() {
            a.set_reuses(r);
        }
    }
}

/// The drift and diagnostic items of the run, as problems; `named` gets
/// the (document, line) of each.
fn harness_items(
    analyses: &[Analysis],
    problems: &mut Vec<Problem>,
    named: &mut BTreeSet<(String, u32)>,
) {
    let planned: Vec<OathItems<'_>> = analyses.iter().map(Analysis::items).collect();
    for item in items(&planned) {
        let document = item.document.to_string();
        let problem = match item.source(&planned) {
            Some(ItemSource::Diagnostic(d)) => {
                let (first, detail) = split_message(&d.message);
                Problem {
                    code: ProblemCode::of(d.code),
                    severity: Severity::Error,
                    message: first,
                    detail,
                    item: Some(item.name.to_string()),
                    ..at(document.clone(), Some(document.clone()), d.span)
                }
            }
            Some(ItemSource::Drift(d)) => {
                let (first, detail) = split_message(&d.harness_message());
                Problem {
                    code: ProblemCode::Drift,
                    severity: Severity::Error,
                    message: first,
                    detail,
                    example: Some(d.name.clone()),
                    item: Some(item.name.to_string()),
                    ..at(document.clone(), Some(document.clone()), d.span)
                }
            }
            _ => continue,
        };
        named.insert((document, problem.line));
        problems.push(problem);
    }
}

/// The lock's examples no paragraph re-identifies any more (issue 37), as
/// the engine's one pass finds them for `cargo test`: a warning at the
/// line the lock recorded, since `cargo test` does not fail them.
fn removed_examples(analyses: &[Analysis], problems: &mut Vec<Problem>) {
    for a in analyses {
        for gone in &a.removed {
            let line = u32::try_from(gone.line).unwrap_or(0).max(1);
            problems.push(Problem {
                code: ProblemCode::RemovedExample,
                severity: Severity::Warning,
                message: format!("removed example {}", removed_message(&gone.name)),
                example: Some(gone.name.clone()),
                line,
                column: 1,
                ..at(
                    a.oath_path.clone(),
                    Some(a.oath_path.clone()),
                    Span::default(),
                )
            });
        }
    }
}

/// The sentences of an oath no step matches that look like steps, outside
/// the paragraphs an error already names.
fn unmatched_steps(
    a: &Analysis,
    guesser: &Guesser<'_>,
    named: &BTreeSet<(String, u32)>,
    problems: &mut Vec<Problem>,
) {
    let containing = Containing::new(&a.doc.examples);
    // The lines of this oath an error names, looked up by range.
    let lines: BTreeSet<u32> = named
        .range((a.oath_path.clone(), 0)..=(a.oath_path.clone(), u32::MAX))
        .map(|(_, line)| *line)
        .collect();
    for sentence in a.sentences.iter().filter(|s| !s.matched) {
        // Most sentences of a long oath are prose with no value: ruled
        // out first, with one pass over their bytes.
        if !guesser.may_have_value(&sentence.text) {
            continue;
        }
        let Some(text) = step_text(&sentence.text).filter(|t| guesser.may_have_value(t)) else {
            continue;
        };
        // A step header-bound planning drops matches it: the notice says
        // so, not "no step matches".
        let dropped = a.notices.iter().any(|n| {
            n.kind == NoticeKind::DroppedSteps
                && n.span.start_offset < sentence.span.end_offset
                && sentence.span.start_offset < n.span.end_offset
        });
        if dropped {
            continue;
        }
        let reported = containing.first(sentence.span).is_some_and(|c| {
            lines
                .range(c.span.start_line..=c.span.end_line)
                .next()
                .is_some()
        });
        if reported {
            continue;
        }
        let g = guesser.guess(text);
        if !g.looks_like_step() {
            continue;
        }
        let role = match g.role {
            Role::Stimulus => "stimulus",
            Role::Sensor => "sensor",
        };
        problems.push(Problem {
            code: ProblemCode::UnmatchedStep,
            severity: Severity::Warning,
            message: format!(
                "no step matches \"{}\", which looks like a step (a {role} `{}`?)",
                text, g.expression
            ),
            detail: None,
            expression: Some(g.expression),
            ..at(
                a.oath_path.clone(),
                Some(a.oath_path.clone()),
                sentence.span,
            )
        });
    }
}

/// What [`Containing`] looks up: a block with its span.
pub(super) trait Spanned {
    /// Its span.
    fn span(&self) -> Span;
}

impl Spanned for Candidate {
    fn span(&self) -> Span {
        self.span
    }
}

/// The first candidate, in source order, whose span holds a span: found by
/// binary search (issue 34: a linear search per sentence made `check`
/// quadratic on a long oath).
pub(super) struct Containing<'a, C> {
    candidates: &'a [C],
    /// The furthest end of the candidates up to each: it never decreases,
    /// and first reaches a span's end at the first candidate that does.
    furthest: Vec<u32>,
}

impl<'a, C: Spanned> Containing<'a, C> {
    pub(super) fn new(candidates: &'a [C]) -> Containing<'a, C> {
        let mut furthest = Vec::with_capacity(candidates.len());
        let mut end = 0;
        for c in candidates {
            end = end.max(c.span().end_offset);
            furthest.push(end);
        }
        Containing {
            candidates,
            furthest,
        }
    }

    /// The first candidate (they are in source order) that starts at or
    /// before `span` and ends at or after it.
    pub(super) fn first(&self, span: Span) -> Option<&'a C> {
        let started = self
            .candidates
            .partition_point(|c| c.span().start_offset <= span.start_offset);
        let first = self.furthest.partition_point(|&end| end < span.end_offset);
        (first < started).then(|| &self.candidates[first])
    }
}

/// The steps no sentence of any oath uses.
fn unused_steps(
    index: &StepIndex,
    root: &Path,
    analyses: &[Analysis],
    problems: &mut Vec<Problem>,
) {
    let mut used = vec![false; index.registry().steps.len()];
    for a in analyses {
        let steps = a.steps.iter().map(|s| s.step);
        let spliced = a.spliced.iter().map(|s| s.step.step);
        for step in steps.chain(spliced) {
            if let Some(u) = used.get_mut(step) {
                *u = true;
            }
        }
    }
    for (step, _) in used.iter().enumerate().filter(|(_, u)| !**u) {
        let Some((file, item)) = index.step(step) else {
            continue;
        };
        let role = match item.role {
            Role::Stimulus => "stimulus",
            Role::Sensor => "sensor",
        };
        problems.push(Problem {
            code: ProblemCode::UnusedStep,
            severity: Severity::Warning,
            message: format!(
                "no oath uses the {role} `{}` (fn {})",
                item.expression, item.function.name
            ),
            detail: None,
            expression: Some(item.expression.clone()),
            ..at(display_path(&file.path, root), None, item.expression_span)
        });
    }
}

/// A problem's place, everything else empty.
fn at(path: String, oath_path: Option<String>, span: Span) -> Problem {
    Problem {
        code: ProblemCode::Drift,
        severity: Severity::Error,
        message: String::new(),
        detail: None,
        path,
        oath_path,
        example: None,
        line: span.start_line,
        column: span.start_col,
        item: None,
        expression: None,
        fix: None,
    }
}

/// A warning about the config, as a problem at its key (line 1, column 1
/// when the reader could not say where).
fn config_problem(w: &ConfigWarning) -> Problem {
    let place = w.place();
    Problem {
        code: ProblemCode::DuplicateKey,
        severity: Severity::Warning,
        message: w.reason(),
        detail: None,
        path: CONFIG_FILE_NAME.to_owned(),
        oath_path: None,
        example: None,
        line: place.map_or(1, |p| p.line),
        column: place.map_or(1, |p| p.column),
        item: None,
        expression: None,
        fix: None,
    }
}

/// The first line of a message and the rest.
fn split_message(message: &str) -> (String, Option<String>) {
    match message.split_once('\n') {
        Some((first, rest)) => (first.to_string(), Some(rest.to_string())),
        None => (message.to_string(), None),
    }
}
