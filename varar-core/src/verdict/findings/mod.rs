//! The located findings of a project's latest run (issue 38, points 1 and
//! 2): one list, computed once, that every CI output renders (`cargo
//! varar annotate` as GitHub workflow commands or a GitLab Code Quality
//! report, `cargo varar sarif` as SARIF 2.1.0), so that they can never
//! place a failure differently. Pure: the evidence is read by
//! `varar-project`'s `evidence` module; the bytes of each format are the
//! commands'.
//!
//! - A failed example is an error at the exact span of its failure in the
//!   Markdown: the result file's anchor (UTF-16 offsets), converted once
//!   by [`crate::source::Source`] to 1-based lines and columns in UTF-16
//!   code units (SARIF's default `columnKind`), the same line and column
//!   `cargo test` prints in the failure's header
//!   ([`crate::render::header`]). Its document is the failure's `docPath`
//!   when it points into another oath (spec 70 §70.4.4).
//! - A result that is not drawn as current ([`crate::verdict::current::drawn`]:
//!   the text changed since the run, or no run vouches for it) gets only
//!   its recorded line, no columns, and the message says why.
//! - Every drift, diagnostic and read-error item whose last attempt
//!   failed in the latest run is an error at its line.
//! - An item that failed and then passed on a retry (recovered, a flake)
//!   and an example the lock listed that the run no longer checks
//!   (removed, issue 37) are warnings.
//! - A run the gate cannot judge ([`crate::verdict::standing`]) is refused
//!   with the gate's own records, as `cargo varar junit` refuses it, so CI
//!   never shows an earlier run's failures as this run's; so is any
//!   unusable evidence.
//! - Messages and titles are text the project does not control: bounded
//!   ([`crate::untrusted::cut_to`]) and their control and bidirectional
//!   characters escaped ([`crate::untrusted::terminal_text`]); each format
//!   still escapes its own syntax.
//! - Each finding has a stable fingerprint: its rule, its document and
//!   its item's name (and which repeat of that name), never its line, so
//!   that a finding moved by an edit above it is still the same one.

use std::collections::BTreeMap;

use crate::hash::sha256_hex;
use crate::lock::removed_message;
use crate::names::ItemKind;
use crate::record::{ItemEvidence, RunRecord};
use crate::results::{ExampleResult, ResultFailure};
use crate::source::Source;
use crate::untrusted::{cut_to, terminal_line, terminal_text};
use crate::verdict::current::Latest;
use crate::verdict::evidence::{EvidenceState, OathEvidence, ProjectEvidence};
use crate::verdict::records::ErrorRecord;
use crate::verdict::run_evidence::{example_item, failed_items, last_failure, plural};
use crate::verdict::standing::Standing;

/// The most bytes of a finding's message: enough for a cell's expected
/// and actual values, short enough for an annotation (GitHub keeps the
/// first 64 KiB of a whole step's annotations).
pub const MESSAGE_LIMIT: usize = 4 * 1024;
/// The most bytes of a finding's title.
pub const TITLE_LIMIT: usize = 200;

/// How serious a finding is (SARIF's `level`, GitHub's command).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Level {
    /// The run failed because of it.
    Error,
    /// Worth a look; the run did not fail because of it.
    Warning,
    /// For information.
    Note,
}

impl Level {
    /// `error`, `warning` or `note`: SARIF's words, and GitHub's commands
    /// but the last (which GitHub calls `notice`).
    pub fn as_str(self) -> &'static str {
        match self {
            Level::Error => "error",
            Level::Warning => "warning",
            Level::Note => "note",
        }
    }
}

/// What a finding is: each kind is a rule with a stable id.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
#[non_exhaustive]
pub enum Kind {
    /// An example failed.
    FailedExample,
    /// A baseline example no longer matches any step (spec 40 §5).
    Drift,
    /// A plan diagnostic (spec 20 §20.9).
    Diagnostic,
    /// A file discovery found could not be read (spec 40 §2.4).
    ReadError,
    /// An item failed, then passed on a retry.
    Recovered,
    /// An example the lock listed that nothing checks any more (issue 37).
    Removed,
}

impl Kind {
    /// Every kind, in rule order.
    pub const ALL: [Kind; 6] = [
        Kind::FailedExample,
        Kind::Drift,
        Kind::Diagnostic,
        Kind::ReadError,
        Kind::Recovered,
        Kind::Removed,
    ];

    /// The stable rule id (machine output: never renamed).
    pub fn rule_id(self) -> &'static str {
        match self {
            Kind::FailedExample => "varar/failed-example",
            Kind::Drift => "varar/drift",
            Kind::Diagnostic => "varar/diagnostic",
            Kind::ReadError => "varar/read-error",
            Kind::Recovered => "varar/recovered",
            Kind::Removed => "varar/removed-example",
        }
    }

    /// The rule's short description.
    pub fn description(self) -> &'static str {
        match self {
            Kind::FailedExample => "An example of an oath failed",
            Kind::Drift => "A baseline example no longer matches any step (drift)",
            Kind::Diagnostic => "The oath cannot be planned as written (a plan diagnostic)",
            Kind::ReadError => "A file discovery found could not be read",
            Kind::Recovered => "An item failed, then passed on a retry (flaky)",
            Kind::Removed => "An example varar.lock.json lists is no longer checked",
        }
    }

    /// The level of a finding of this kind.
    pub fn level(self) -> Level {
        match self {
            Kind::Recovered | Kind::Removed => Level::Warning,
            _ => Level::Error,
        }
    }

    fn of_item(kind: ItemKind) -> Kind {
        match kind {
            ItemKind::Example => Kind::FailedExample,
            ItemKind::Drift => Kind::Drift,
            ItemKind::Diagnostic => Kind::Diagnostic,
            ItemKind::ReadError => Kind::ReadError,
        }
    }
}

/// Where in its document a finding is: 1-based lines, 1-based columns in
/// UTF-16 code units, the end exclusive (SARIF's region).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Region {
    /// The first line.
    pub start_line: u32,
    /// The span, when the text it points into is the one run.
    pub span: Option<Columns>,
}

/// The columns of a [`Region`] with their end line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Columns {
    /// The column of the first code unit.
    pub start_column: u32,
    /// The line of the end.
    pub end_line: u32,
    /// The column just past the last code unit.
    pub end_column: u32,
}

/// One located finding.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Finding {
    /// How serious it is.
    pub level: Level,
    /// What it is (its rule).
    pub kind: Kind,
    /// The oathPath of the document it is in, relative to the project
    /// root, `/`-separated.
    pub oath_path: String,
    /// Where in the document; `None`: the document as a whole.
    pub region: Option<Region>,
    /// One line: what failed (bounded, escaped).
    pub title: String,
    /// Why (bounded, escaped; may hold line breaks).
    pub message: String,
    /// The item's name (the example's name for a result).
    pub item: String,
    /// Stable across runs and edits elsewhere: 32 hex digits.
    pub fingerprint: String,
}

/// A project's findings, and what is worth saying about them.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Findings {
    /// Every finding, errors of the oaths in discovery order first.
    pub findings: Vec<Finding>,
    /// Things that do not stop the list (a stale result, no run record).
    pub warnings: Vec<String>,
}

/// The findings of `project`, or the records of why its evidence cannot
/// be shown (see the module docs).
pub fn findings(project: &ProjectEvidence) -> Result<Findings, Vec<ErrorRecord>> {
    let standing = project.standing();
    let mut errors = Vec::new();
    if !standing.judgeable() && standing.standing != Standing::Missing {
        errors.extend(standing.problems.iter().cloned());
    }
    let latest = project.run.latest.as_ref();
    let mut out = Builder::default();
    for o in &project.oaths {
        match o.state(Latest {
            standing: Some(&standing),
            run: latest,
        }) {
            EvidenceState::Fresh(r) => out.examples(o, &r.examples, None, latest),
            EvidenceState::Stale(r, why)
            | EvidenceState::Unvouched(r, why)
            | EvidenceState::Earlier(r, why) => {
                if r.examples.iter().any(|e| e.failure.is_some()) {
                    out.warnings.push(format!(
                        "`{}` is not of the text as it is now ({why}): its failures are placed \
                         on their recorded lines only",
                        o.result_path
                    ));
                }
                out.examples(o, &r.examples, Some(&why), latest);
            }
            EvidenceState::Missing => {}
            EvidenceState::Unusable(found) => errors.extend(found),
        }
    }
    if !errors.is_empty() {
        return Err(errors);
    }
    match latest {
        Some(run) => out.run_items(run),
        None => out.warnings.push(format!(
            "there is no run record in `{}`: drift, diagnostics, read errors and retries, which \
             result files do not hold, are not listed",
            project.run.dir
        )),
    }
    out.warnings
        .extend(standing.warnings.iter().map(|w| w.message.clone()));
    Ok(Findings {
        findings: out.findings,
        warnings: out.warnings,
    })
}

/// The list as it grows, with the repeats of each fingerprint's key.
#[derive(Default)]
struct Builder {
    findings: Vec<Finding>,
    warnings: Vec<String>,
    repeats: BTreeMap<(Kind, String, String), usize>,
}

/// What a finding is made of, before it is bounded and fingerprinted.
struct Raw<'a> {
    kind: Kind,
    oath_path: &'a str,
    region: Option<Region>,
    title: String,
    message: String,
    item: &'a str,
}

impl Builder {
    fn push(&mut self, raw: Raw<'_>) {
        let key = (raw.kind, raw.oath_path.to_owned(), raw.item.to_owned());
        let repeat = self.repeats.entry(key).or_insert(0);
        let fingerprint = fingerprint(raw.kind, raw.oath_path, raw.item, *repeat);
        *repeat += 1;
        self.findings.push(Finding {
            level: raw.kind.level(),
            kind: raw.kind,
            oath_path: raw.oath_path.to_owned(),
            region: raw.region,
            title: terminal_line(&cut_to(&raw.title, TITLE_LIMIT)).into_owned(),
            message: terminal_text(&cut_to(&raw.message, MESSAGE_LIMIT)).into_owned(),
            item: raw.item.to_owned(),
            fingerprint,
        });
    }

    /// Each failed example of `o`; `stale` says why its offsets may point
    /// at other text (then only its line is given).
    fn examples(
        &mut self,
        o: &OathEvidence,
        examples: &[ExampleResult],
        stale: Option<&str>,
        run: Option<&RunRecord>,
    ) {
        for example in examples {
            let Some(failure) = &example.failure else {
                continue;
            };
            let path = failure.doc_path.as_deref().unwrap_or(&o.oath_path);
            let text = stale
                .is_none()
                .then(|| o.text_of(failure.doc_path.as_deref()));
            let region = failure_region(failure, example, text.flatten());
            let mut message = failure.message.clone();
            if let Some(why) = stale {
                message.push_str(&format!(
                    "\n(placed on its recorded line only: the result is not of the text as it \
                     is now: {why})"
                ));
            }
            let item = run
                .and_then(|run| example_item(run, &o.oath_path, example))
                .map_or(example.name.as_str(), |i| i.name.as_str());
            self.push(Raw {
                kind: Kind::FailedExample,
                oath_path: path,
                region,
                title: format!("failed: {}", example.name),
                message,
                item,
            });
        }
    }

    /// The latest run's failed drift, diagnostic and read-error items, its
    /// recovered items and its removed examples.
    fn run_items(&mut self, run: &RunRecord) {
        for item in failed_items(run).filter(|i| i.kind != ItemKind::Example) {
            let kind = Kind::of_item(item.kind);
            self.push(Raw {
                kind,
                oath_path: &item.oath_path,
                region: line_region(item.line),
                title: format!("{}: {}", item.kind.as_str(), item.name),
                message: last_failure(item).unwrap_or("failed").to_owned(),
                item: &item.name,
            });
        }
        for item in run.items.iter().filter(|i| i.recovered()) {
            self.push(Raw {
                kind: Kind::Recovered,
                oath_path: &item.oath_path,
                region: line_region(item.line),
                title: format!("flaky: {}", item.name),
                message: recovered_message(item),
                item: &item.name,
            });
        }
        for removed in run.removed() {
            let line = u32::try_from(removed.line).unwrap_or(0);
            self.push(Raw {
                kind: Kind::Removed,
                oath_path: &removed.oath_path,
                region: line_region(line),
                title: format!("removed example: {}", removed.name),
                message: removed_message(&removed.name),
                item: &removed.name,
            });
        }
    }
}

/// The region of a failure: the anchor's span in `text` (the document run,
/// `None` when it is not known to be), else its recorded line, else the
/// example's first line, else the document as a whole.
pub fn failure_region(
    failure: &ResultFailure,
    example: &ExampleResult,
    text: Option<&str>,
) -> Option<Region> {
    let span = text.map(Source::new).and_then(|source| {
        let anchor = failure.anchor?;
        (anchor.from <= anchor.to && anchor.to <= source.len_utf16())
            .then(|| source.span(anchor.from, anchor.to))
    });
    match span {
        Some(s) => Some(Region {
            start_line: s.start_line,
            span: Some(Columns {
                start_column: s.start_col,
                end_line: s.end_line,
                end_column: s.end_col,
            }),
        }),
        None => line_region(failure.line).or_else(|| line_region(*example.lines.first()?)),
    }
}

/// The path of `oath_path` inside the repository, for CI servers that
/// want paths from the repository root: `prefix` (the project's
/// directory there, `/`-separated; `""` or `.` at the root; `\` read as
/// `/`) and the oathPath, joined by one `/`.
///
/// ```
/// use varar_core::verdict::findings::repository_path;
/// assert_eq!(repository_path("examples/bakery/", "varar/basket.md"), "examples/bakery/varar/basket.md");
/// assert_eq!(repository_path("", "varar/basket.md"), "varar/basket.md");
/// assert_eq!(repository_path("./ci\\x", "a.md"), "ci/x/a.md");
/// ```
pub fn repository_path(prefix: &str, oath_path: &str) -> String {
    let prefix = prefix.replace('\\', "/");
    let parts: Vec<&str> = prefix
        .split('/')
        .filter(|p| !p.is_empty() && *p != ".")
        .chain(std::iter::once(oath_path))
        .collect();
    parts.join("/")
}

/// A whole line; `None` for line 0 (no line known).
fn line_region(line: u32) -> Option<Region> {
    (line > 0).then_some(Region {
        start_line: line,
        span: None,
    })
}

/// What a recovered item's warning says: how many attempts did not pass,
/// and the last failure's message.
fn recovered_message(item: &ItemEvidence) -> String {
    let earlier = item.attempts.len().saturating_sub(1);
    let mut message = format!(
        "passed on attempt {} after {} that did not pass",
        item.attempts.len(),
        plural(earlier, "earlier attempt")
    );
    if let Some(failed) = last_failure(item) {
        message.push_str(": ");
        message.push_str(failed);
    }
    message
}

/// 32 hex digits of SHA-256 over the rule, the document, the item's name
/// and which repeat of them it is, each ended by a NUL (none of them holds
/// one unescaped, so no two keys run together).
fn fingerprint(kind: Kind, oath_path: &str, item: &str, repeat: usize) -> String {
    let key = format!("{}\0{oath_path}\0{item}\0{repeat}\0", kind.rule_id());
    let mut hex = sha256_hex(key.as_bytes());
    hex.truncate(32);
    hex
}

#[cfg(test)]
mod tests;
