//! The quick path of reading a run-result file (issue 39): its text read
//! straight into [`OathResults`], with no [`Node`](crate::json::Node) tree
//! between, as the lock's quick path does (`lock/quick.rs`). A filtered run
//! and every process of a nextest run merge their results into the file
//! they find, so they read it first: building the tree, checking it for
//! repeated keys and then the model took some 4% of a one-item process of
//! a documentation-shaped oath in an unoptimised build.
//!
//! It reads only what it reads exactly as the strict reader does: the
//! members the format names, each value of its type, each key once per
//! object, a `failure` exactly when the status is `failed`, `from <= to`,
//! and no version-2 member in a version-1 file. Anything else (another
//! version, a member it does not know, which the strict reader ignores, a
//! line written as `5.0`, a string escape the byte loop leaves to
//! serde_json, any error) declines, and the strict reader (`mod.rs`) reads
//! the text again and decides.

use crate::json::Cursor;

use super::super::model::{
    Anchor, CellFailure, DocumentHash, ExampleResult, OathResults, ResultFailure, Status,
};

/// `text` as a run-result file the strict reader would read the same, its
/// version still to be checked (the caller reads only the versions it
/// knows), or `None`: the strict reader decides.
pub(super) fn results(text: &str) -> Option<OathResults> {
    let mut c = Cursor::new(text);
    let mut seen = Seen::default();
    let (mut version, mut oath_path, mut source_hash) = (None, None, None);
    let (mut documents, mut examples) = (None, None);
    c.members(|c, key| {
        match &*key {
            "version" => version = Some(seen.first(0, c.unsigned())?),
            "oathPath" => oath_path = Some(seen.first(1, c.string_value())?),
            "sourceHash" => source_hash = Some(seen.first(2, c.string_value())?),
            "documents" => documents = Some(seen.first(3, list(c, document))?),
            "examples" => examples = Some(seen.first(4, list(c, example))?),
            _ => return None,
        }
        Some(())
    })?;
    if !c.at_end() {
        return None;
    }
    // Which versions are read is the caller's check.
    let version = u32::try_from(version?).ok()?;
    let examples: Vec<ExampleResult> = examples?;
    // Version-2 members in a version-1 file are the strict reader's error.
    let version_2 = documents.is_some()
        || examples
            .iter()
            .any(|e| e.failure.as_ref().is_some_and(|f| f.doc_path.is_some()));
    if version == 1 && version_2 {
        return None;
    }
    Some(OathResults {
        version,
        oath_path: oath_path?,
        source_hash: source_hash?,
        documents: documents.unwrap_or_default(),
        examples,
    })
}

/// The keys of one object already read, by number: a key read again
/// declines (the strict reader refuses it).
#[derive(Default)]
struct Seen(u16);

impl Seen {
    /// `value`, when key `key` had not been read in this object.
    fn first<T>(&mut self, key: u8, value: Option<T>) -> Option<T> {
        let bit = 1u16 << key;
        if self.0 & bit != 0 {
            return None;
        }
        self.0 |= bit;
        value
    }
}

/// An array, each element read by `one`.
fn list<T>(
    c: &mut Cursor<'_>,
    mut one: impl FnMut(&mut Cursor<'_>) -> Option<T>,
) -> Option<Vec<T>> {
    let mut all = Vec::new();
    c.elements(|c| {
        all.push(one(c)?);
        Some(())
    })?;
    Some(all)
}

/// A line or offset: a plain integer from 0 to 2^32 − 1.
fn offset(c: &mut Cursor<'_>) -> Option<u32> {
    u32::try_from(c.unsigned()?).ok()
}

/// A message, stack or actual value, cut as the strict reader cuts it.
fn text(c: &mut Cursor<'_>) -> Option<String> {
    let value = c.string_value()?;
    Some(match crate::untrusted::cut(&value) {
        std::borrow::Cow::Borrowed(_) => value,
        std::borrow::Cow::Owned(cut) => cut,
    })
}

fn document(c: &mut Cursor<'_>) -> Option<DocumentHash> {
    let mut seen = Seen::default();
    let (mut path, mut source_hash) = (None, None);
    c.members(|c, key| {
        match &*key {
            "path" => path = Some(seen.first(0, c.string_value())?),
            "sourceHash" => source_hash = Some(seen.first(1, c.string_value())?),
            _ => return None,
        }
        Some(())
    })?;
    Some(DocumentHash {
        path: path?,
        source_hash: source_hash?,
    })
}

fn example(c: &mut Cursor<'_>) -> Option<ExampleResult> {
    let mut seen = Seen::default();
    let (mut name, mut status, mut lines, mut failure) = (None, None, None, None);
    c.members(|c, key| {
        match &*key {
            "name" => name = Some(seen.first(0, c.string_value())?),
            "status" => {
                let value = match c.string_value()?.as_str() {
                    "passed" => Status::Passed,
                    "failed" => Status::Failed,
                    _ => return None,
                };
                status = Some(seen.first(1, Some(value))?);
            }
            "lines" => lines = Some(seen.first(2, list(c, offset))?),
            "failure" => failure = Some(seen.first(3, result_failure(c))?),
            _ => return None,
        }
        Some(())
    })?;
    let status = status?;
    // A failure exactly when the example failed.
    if (status == Status::Failed) != failure.is_some() {
        return None;
    }
    Some(ExampleResult {
        name: name?,
        status,
        lines: lines?,
        failure,
    })
}

fn result_failure(c: &mut Cursor<'_>) -> Option<ResultFailure> {
    let mut seen = Seen::default();
    let (mut line, mut message, mut stack) = (None, None, None);
    let (mut cells, mut anchor, mut doc_path) = (None, None, None);
    c.members(|c, key| {
        match &*key {
            "line" => line = Some(seen.first(0, offset(c))?),
            "message" => message = Some(seen.first(1, text(c))?),
            "stack" => stack = Some(seen.first(2, text(c))?),
            "cells" => cells = Some(seen.first(3, list(c, cell))?),
            "anchor" => {
                let (from, to) = seen.first(4, range(c, |_, _| None::<()>))?.0;
                anchor = Some(Anchor { from, to });
            }
            "docPath" => doc_path = Some(seen.first(5, c.string_value())?),
            _ => return None,
        }
        Some(())
    })?;
    Some(ResultFailure {
        line: line?,
        message: message?,
        stack: stack?,
        cells: cells.unwrap_or_default(),
        anchor,
        doc_path,
    })
}

fn cell(c: &mut Cursor<'_>) -> Option<CellFailure> {
    let ((from, to), actual) = range(c, |c, key| match key {
        "actual" => text(c),
        _ => None,
    })?;
    Some(CellFailure {
        from,
        to,
        actual: actual?,
    })
}

/// An object of `from` and `to` (`from <= to`), and at most one other
/// member, read by `other` (its key given; `None` declines).
fn range<T>(
    c: &mut Cursor<'_>,
    mut other: impl FnMut(&mut Cursor<'_>, &str) -> Option<T>,
) -> Option<((u32, u32), Option<T>)> {
    let mut seen = Seen::default();
    let (mut from, mut to, mut rest) = (None, None, None);
    c.members(|c, key| {
        match &*key {
            "from" => from = Some(seen.first(0, offset(c))?),
            "to" => to = Some(seen.first(1, offset(c))?),
            key => rest = Some(seen.first(2, other(c, key))?),
        }
        Some(())
    })?;
    let (from, to) = (from?, to?);
    (from <= to).then_some(((from, to), rest))
}
