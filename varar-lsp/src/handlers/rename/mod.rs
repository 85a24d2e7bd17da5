//! Renaming a step (pure): a new expression for a step, written into its
//! attribute, and every sentence that matched the old one rewritten in
//! every oath, each keeping its parameter values.
//!
//! Asked from a sentence of an oath or from the expression string of a
//! step attribute ([`step_in_oath`], [`step_in_rust`]); the name edited is
//! the expression. [`rename`] refuses, with the reason, what it cannot do
//! safely:
//!
//! - the new expression holds a control character, a bidirectional-text
//!   control or an invisible character (named by its code point; see
//!   [`crate::analysis::characters`]): it would be written into every oath;
//! - the new expression does not parse, or names an unknown type;
//! - its parameters differ from the old one's (added, removed or of
//!   another type, in order): a sentence's values could not be kept;
//! - the registry refuses it (the same expression as another step);
//! - with it, the project plans differently than just renamed: a
//!   rewritten sentence would not match it, it would match sentences that
//!   are prose or other steps' now, another step would gain or lose a
//!   sentence, or an ambiguity would appear. This is checked by planning
//!   every oath with the new texts and the new registry, as the harness
//!   would.
//!
//! A sentence matched in a section other oaths splice by link is one
//! sentence, rewritten once. Each sentence is rewritten as the new
//! expression reads with its values; where an optional part or an
//! alternation leaves a choice, the reading closest to the old sentence
//! is taken.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use varar_core::expression::{CompiledExpression, Expression, edit_distance};
use varar_core::lock::Lock;
use varar_core::plan::DiagnosticCode;
use varar_core::source::{Source, Span, utf16_len};
use varar_core::untrusted::{code_point, hidden};

use super::actions::rust_string;
use crate::analysis::characters::shown;
use crate::analysis::oaths::Oaths;
use crate::analysis::step_index::StepIndex;
use crate::analysis::usages::{Usages, oath_uses};
use crate::analysis::{Analysis, PlanContext, plan_documents};

/// The registry step (and the range to show) for a rename asked at
/// `offset` of an oath: a sentence some plan matched.
pub fn step_in_oath(analysis: &Analysis, offset: u32) -> Option<(usize, Span)> {
    analysis.step_at(offset).map(|(s, _)| (s.step, s.span))
}

/// The registry step (and the inside of its string literal) for a rename
/// asked at a position (0-based line, UTF-16 column) of a Rust file.
pub fn step_in_rust(
    index: &StepIndex,
    path: &Path,
    line: u32,
    character: u32,
) -> Option<(usize, Span)> {
    let step = index.step_at_literal(path, line, character)?;
    let (_, item) = index.step(step)?;
    let span = item.expression_span;
    // `"…"` is the value plus a quote each side; a raw string is shown whole.
    let inner = span.end_col - span.start_col == utf16_len(&item.expression) + 2
        && span.start_line == span.end_line;
    let span = if inner {
        Span {
            start_offset: span.start_offset + 1,
            end_offset: span.end_offset - 1,
            start_col: span.start_col + 1,
            end_col: span.end_col - 1,
            ..span
        }
    } else {
        span
    };
    Some((step, span))
}

/// What a rename reads: the project as planning sees it.
#[derive(Clone, Copy, Debug)]
pub struct World<'a> {
    /// The steps.
    pub index: &'a StepIndex,
    /// The committed lock.
    pub lock: Option<&'a Lock>,
    /// Every oath, with the editor's text for the open ones.
    pub oaths: &'a Oaths,
}

/// Where an edit goes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Target {
    /// An oath, by oathPath.
    Oath(String),
    /// A Rust file.
    Rust(PathBuf),
}

/// One replacement.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Edit {
    /// The file.
    pub target: Target,
    /// The range replaced (in the text planning saw).
    pub span: Span,
    /// The new text.
    pub text: String,
}

/// Why a rename was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum Refusal {
    /// No step there.
    #[error("there is no step to rename here")]
    NoStep,
    /// The new expression is not one.
    #[error("`{expression}` is not a step expression: {reason}")]
    Expression {
        /// The new expression.
        expression: String,
        /// The parser's message.
        reason: String,
    },
    /// The new expression holds a character a step text may not hold.
    #[error(
        "`{expression}` holds {code_point} at character {at}, {reason}; a rename would write it into every oath that uses the step"
    )]
    Character {
        /// The new expression, with what a reader cannot see escaped.
        expression: String,
        /// The character, as `U+202E`.
        code_point: String,
        /// Its place in the new expression, 1-based, in characters.
        at: usize,
        /// What it is and why it is refused.
        reason: &'static str,
    },
    /// Its parameters differ.
    #[error(
        "the parameters would change from {old} to {new}: a rename keeps each sentence's values, so it cannot add, remove or retype one"
    )]
    Parameters {
        /// The old ones, as `{int} {word}`.
        old: String,
        /// The new ones.
        new: String,
    },
    /// The registry refuses it.
    #[error("the steps would not build: {0}")]
    Registry(String),
    /// A rewritten sentence would not match it.
    #[error("\"{text}\" ({place}) would not match `{expression}` once rewritten")]
    WouldNotMatch {
        /// The rewritten sentence.
        text: String,
        /// `oathPath:line`.
        place: String,
        /// The new expression.
        expression: String,
    },
    /// It would match a sentence it does not match now.
    #[error("`{expression}` would also match \"{text}\" ({place}), which it does not match now")]
    Captures {
        /// The new expression.
        expression: String,
        /// The sentence.
        text: String,
        /// `oathPath:line`.
        place: String,
    },
    /// Another step would gain or lose sentences.
    #[error("the step `{other}` would match {before} sentence(s) before and {after} after")]
    Steals {
        /// The other step's expression.
        other: String,
        /// Its sentences now.
        before: usize,
        /// Its sentences after.
        after: usize,
    },
    /// An ambiguity would appear.
    #[error("the new expression would be ambiguous with another step at {place}: {message}")]
    Ambiguous {
        /// `oathPath:line`.
        place: String,
        /// The first line of the ambiguity.
        message: String,
    },
}

/// The edits that rename registry step `step` to `new`, or why not.
pub fn rename(world: &World<'_>, step: usize, new: &str) -> Result<Vec<Edit>, Refusal> {
    let (file, item) = world.index.step(step).ok_or(Refusal::NoStep)?;
    if new == item.expression {
        return Ok(Vec::new());
    }
    if let Some((at, c, why)) = new
        .chars()
        .enumerate()
        .find_map(|(at, c)| hidden(c).map(|why| (at + 1, c, why)))
    {
        return Err(Refusal::Character {
            expression: shown(new),
            code_point: code_point(c),
            at,
            reason: why.reason(),
        });
    }
    let expression_error = |reason: String| Refusal::Expression {
        expression: new.to_string(),
        reason,
    };
    let parsed = Expression::parse(new).map_err(|e| expression_error(e.to_string()))?;
    CompiledExpression::from_source(new, world.index.registry().types())
        .map_err(|e| expression_error(e.to_string()))?;
    let old_names = Expression::parse(&item.expression)
        .map(|e| {
            e.parameter_names()
                .iter()
                .map(|n| n.to_string())
                .collect::<Vec<_>>()
        })
        .unwrap_or_default();
    let new_names: Vec<String> = parsed
        .parameter_names()
        .iter()
        .map(|n| n.to_string())
        .collect();
    if old_names != new_names {
        return Err(Refusal::Parameters {
            old: braces(&old_names),
            new: braces(&new_names),
        });
    }
    let renamed = world
        .index
        .with_expression(step, new)
        .ok_or(Refusal::NoStep)?;
    if let Some(p) = renamed
        .problems()
        .iter()
        .find(|p| p.path == file.path && p.span == item.expression_span)
    {
        return Err(Refusal::Registry(p.message.clone()));
    }
    let before = plan_all(world.index, world.lock, world.oaths);
    let usages = gather(&before, world.index);
    let mut edits: Vec<Edit> = usages
        .of(step)
        .iter()
        .map(|u| {
            let values: Vec<&str> = u.step.params.iter().map(|p| &*p.raw).collect();
            Edit {
                target: Target::Oath(u.doc_path.clone()),
                span: u.step.span,
                text: closest(&parsed.renderings(&values, 64), &u.step.text),
            }
        })
        .collect();
    let oaths = edited(world.oaths, &edits);
    let after = plan_all(&renamed, world.lock, &oaths);
    verify(
        (&before, &after),
        (world.index, &renamed),
        step,
        new,
        &expected(&edits),
    )?;
    edits.push(Edit {
        target: Target::Rust(file.path.clone()),
        span: item.expression_span,
        text: rust_string(new),
    });
    Ok(edits)
}

fn braces(names: &[String]) -> String {
    if names.is_empty() {
        return "none".to_string();
    }
    names
        .iter()
        .map(|n| format!("{{{n}}}"))
        .collect::<Vec<_>>()
        .join(" ")
}

fn plan_all(index: &StepIndex, lock: Option<&Lock>, oaths: &Oaths) -> Vec<Analysis> {
    let context = PlanContext { index, lock, oaths };
    let paths: Vec<&str> = oaths.paths().collect();
    plan_documents(&context, &paths)
}

fn gather(analyses: &[Analysis], index: &StepIndex) -> Usages {
    let per_oath: Vec<_> = analyses.iter().map(oath_uses).collect();
    Usages::gather(&per_oath, index.registry().steps.len())
}

/// The reading of the new expression closest to the old sentence.
fn closest(readings: &[String], old: &str) -> String {
    readings
        .iter()
        .min_by_key(|r| edit_distance(r, old))
        .cloned()
        .unwrap_or_default()
}

/// The oaths with the edits applied.
fn edited(oaths: &Oaths, edits: &[Edit]) -> Oaths {
    let mut out = oaths.clone();
    for (path, edits) in by_oath(edits) {
        let Some(text) = oaths.text(&path) else {
            continue;
        };
        let source = Source::new(text);
        let mut new = text.to_string();
        for e in edits.iter().rev() {
            let from = source.byte_of_utf16(e.span.start_offset);
            let to = source.byte_of_utf16(e.span.end_offset);
            new.replace_range(from..to, &e.text);
        }
        if out.is_open(&path) {
            out.edit(&path, &new);
        } else {
            out.disk(&path, Some(new));
        }
    }
    out
}

/// The edits of each oath, in document order.
fn by_oath(edits: &[Edit]) -> BTreeMap<String, Vec<&Edit>> {
    let mut out: BTreeMap<String, Vec<&Edit>> = BTreeMap::new();
    for e in edits {
        if let Target::Oath(path) = &e.target {
            out.entry(path.clone()).or_default().push(e);
        }
    }
    for edits in out.values_mut() {
        edits.sort_by_key(|e| e.span.start_offset);
    }
    out
}

/// A rewritten sentence where it lands: its oath, its UTF-16 range in the
/// new text, its 1-based line, the text.
type Landing = (String, u32, u32, u32, String);

/// Where each rewritten sentence lands in the edited texts.
fn expected(edits: &[Edit]) -> Vec<Landing> {
    let mut out = Vec::new();
    for (path, edits) in by_oath(edits) {
        let mut shift: i64 = 0;
        for e in edits {
            let start = (i64::from(e.span.start_offset) + shift) as u32;
            let len = utf16_len(&e.text);
            out.push((
                path.clone(),
                start,
                start + len,
                e.span.start_line,
                e.text.clone(),
            ));
            shift += i64::from(len) - i64::from(e.span.end_offset - e.span.start_offset);
        }
    }
    out
}

/// Refuse unless the project with the new texts and registry plans as a
/// rename should: the renamed step matches exactly the rewritten
/// sentences, every other step as many sentences as before, and no new
/// ambiguity.
fn verify(
    (before, after): (&[Analysis], &[Analysis]),
    (old_index, new_index): (&StepIndex, &StepIndex),
    step: usize,
    new: &str,
    expected: &[Landing],
) -> Result<(), Refusal> {
    let ambiguities = |analyses: &[Analysis]| -> BTreeMap<String, usize> {
        let mut out = BTreeMap::new();
        for a in analyses {
            for d in &a.plan.diagnostics {
                if d.code == DiagnosticCode::AmbiguousMatch {
                    let doc = d.doc_path.clone().unwrap_or_else(|| a.oath_path.clone());
                    *out.entry(doc).or_insert(0) += 1;
                }
            }
        }
        out
    };
    let (b, a) = (ambiguities(before), ambiguities(after));
    for (doc, count) in &a {
        if *count > b.get(doc).copied().unwrap_or(0) {
            let d = after
                .iter()
                .flat_map(|x| {
                    x.plan.diagnostics.iter().map(move |d| {
                        (d.doc_path.clone().unwrap_or_else(|| x.oath_path.clone()), d)
                    })
                })
                .find(|(p, d)| p == doc && d.code == DiagnosticCode::AmbiguousMatch);
            let (line, message) = d.map_or((0, String::new()), |(_, d)| {
                (
                    d.span.start_line,
                    d.message.lines().next().unwrap_or("").to_string(),
                )
            });
            return Err(Refusal::Ambiguous {
                place: format!("{doc}:{line}"),
                message,
            });
        }
    }
    let then = gather(before, old_index);
    let now = gather(after, new_index);
    let found = now.of(step);
    for (path, start, end, line, text) in expected {
        let hit = found.iter().any(|u| {
            &u.doc_path == path
                && u.step.span.start_offset == *start
                && u.step.span.end_offset == *end
        });
        if !hit {
            return Err(Refusal::WouldNotMatch {
                text: text.clone(),
                place: format!("{path}:{line}"),
                expression: new.to_string(),
            });
        }
    }
    if let Some(extra) = found.iter().find(|u| {
        !expected
            .iter()
            .any(|(path, start, ..)| &u.doc_path == path && u.step.span.start_offset == *start)
    }) {
        return Err(Refusal::Captures {
            expression: new.to_string(),
            text: extra.step.text.to_string(),
            place: format!("{}:{}", extra.doc_path, extra.step.span.start_line),
        });
    }
    for (other, registered) in new_index.registry().steps.iter().enumerate() {
        if other == step {
            continue;
        }
        let (b, a) = (then.of(other).len(), now.of(other).len());
        if b != a {
            return Err(Refusal::Steals {
                other: registered.spec.expression.to_string(),
                before: b,
                after: a,
            });
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests;
