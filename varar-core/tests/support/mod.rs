//! Helpers shared by the integration tests of `varar-core`: spans and
//! planned steps made by hand, with predictable positions.

#![allow(dead_code)]

pub mod markdown;

use varar_core::plan::PlannedStep;
use varar_core::source::Span;

/// A one-line span at `from..to` on `line`.
pub fn span(from: u32, to: u32, line: u32) -> Span {
    Span {
        start_offset: from,
        end_offset: to,
        start_line: line,
        start_col: 1,
        end_line: line,
        end_col: 1 + to - from,
    }
}

/// A step of registry entry `index` with text at `from..` on `line`, and no
/// parameters or attachments.
pub fn step(index: usize, text: &str, from: u32, line: u32) -> PlannedStep {
    let to = from + text.len() as u32;
    PlannedStep {
        text: text.into(),
        match_span: span(from, to, line),
        param_spans: Vec::new(),
        inner_spans: Vec::new(),
        step: index,
        matched_expression: text.into(),
        args: Vec::new(),
        data_table: None,
        doc_string: None,
        doc_path: None,
    }
}
