//! Property test: any Markdown-ish input parses without panicking, and every
//! span in the model points at the text the model says it does.

mod support;

use proptest::prelude::*;
use proptest::test_runner::Config;
use support::markdown::{markdownish, nested_lines};
use varar_core::doc::{Attachment, Doc, Fence, Table, TextBlock, TextKind};
use varar_core::parse::parse;
use varar_core::sentences::split_sentences;
use varar_core::source::{Source, Span, utf16_len};

proptest! {
    #![proptest_config(Config {
        cases: 256,
        failure_persistence: None,
        ..Config::default()
    })]

    #[test]
    fn every_span_points_at_its_text(src in markdownish()) {
        let source = Source::new(&src);
        let doc = parse("p.md", &source);
        check_doc(&source, &doc)?;
        prop_assert!(serde_json::to_value(&doc).is_ok());
    }

    #[test]
    fn nested_containers_keep_spans_exact(src in nested_lines()) {
        let source = Source::new(&src);
        let doc = parse("p.md", &source);
        check_doc(&source, &doc)?;
    }

    #[test]
    fn any_string_parses(src in any::<String>()) {
        let source = Source::new(&src);
        let doc = parse("p.md", &source);
        check_doc(&source, &doc)?;
    }
}

fn check_span(source: &Source<'_>, span: Span, past_end: u32) -> Result<(), TestCaseError> {
    prop_assert!(span.start_offset <= span.end_offset, "{span:?}");
    prop_assert!(span.end_offset <= source.len_utf16() + past_end, "{span:?}");
    // Lines and columns agree with the offsets.
    prop_assert_eq!(source.span(span.start_offset, span.end_offset), span);
    Ok(())
}

fn check_doc(source: &Source<'_>, doc: &Doc) -> Result<(), TestCaseError> {
    for c in &doc.examples {
        check_span(source, c.span, 0)?;
        check_text(source, &c.body.text)?;
        prop_assert_eq!(c.span.start_offset, c.body.text.span.start_offset);
        let end = c
            .body
            .attachments
            .last()
            .map_or(c.body.text.span, Attachment::span);
        prop_assert_eq!(c.span.end_offset, end.end_offset);
        for a in &c.body.attachments {
            check_attachment(source, a)?;
        }
    }
    for a in &doc.orphan_attachments {
        check_attachment(source, a)?;
    }
    Ok(())
}

fn check_text(source: &Source<'_>, block: &TextBlock) -> Result<(), TestCaseError> {
    check_span(source, block.span, 0)?;
    prop_assert!(!block.segment_map.is_empty());
    // Each line of the block text lifts to the same text in the source.
    let text = Source::new(&block.text);
    let mut line_start = 0u32;
    for line in block.text.split('\n') {
        let len = utf16_len(line);
        let from = block.lift(line_start);
        prop_assert!(from >= block.span.start_offset && from + len <= block.span.end_offset);
        prop_assert_eq!(source.slice_utf16(from, from + len), line, "{:?}", block);
        line_start += len + 1;
    }
    if let TextKind::Paragraph = block.kind
        && let [only] = block.segment_map.as_slice()
        && only.source_offset == block.span.start_offset
    {
        // A paragraph outside containers is exactly its span.
        prop_assert_eq!(
            source.slice_utf16(block.span.start_offset, block.span.end_offset),
            block.text.as_str()
        );
    }
    if let TextKind::ListItem { marker_span, .. } = block.kind {
        check_span(source, marker_span, 0)?;
        let marker = source.slice_utf16(marker_span.start_offset, marker_span.end_offset);
        let bullet = matches!(marker, "-" | "*" | "+");
        let number = marker.len() >= 2
            && marker.ends_with(['.', ')'])
            && marker[..marker.len() - 1]
                .bytes()
                .all(|b| b.is_ascii_digit());
        prop_assert!(bullet || number, "marker {marker:?}");
    }
    for s in split_sentences(&block.text) {
        prop_assert_eq!(text.slice_utf16(s.start, s.end), s.text.as_str());
    }
    Ok(())
}

fn check_attachment(source: &Source<'_>, a: &Attachment) -> Result<(), TestCaseError> {
    match a {
        Attachment::Table(t) => check_table(source, t),
        Attachment::Fence(f) => check_fence(source, f),
    }
}

fn check_table(source: &Source<'_>, t: &Table) -> Result<(), TestCaseError> {
    check_span(source, t.span, 0)?;
    for row in std::iter::once(&t.header).chain(&t.rows) {
        check_span(source, row.span, 0)?;
        prop_assert!(row.span.start_offset >= t.span.start_offset);
        prop_assert!(row.span.end_offset <= t.span.end_offset);
        prop_assert_eq!(row.cells.len(), row.cell_spans.len());
        for (cell, span) in row.cells.iter().zip(&row.cell_spans) {
            check_span(source, *span, 0)?;
            prop_assert!(span.start_offset >= row.span.start_offset);
            prop_assert!(span.end_offset <= row.span.end_offset);
            prop_assert_eq!(
                source.slice_utf16(span.start_offset, span.end_offset),
                cell.as_str()
            );
        }
    }
    Ok(())
}

fn check_fence(source: &Source<'_>, f: &Fence) -> Result<(), TestCaseError> {
    check_span(source, f.span, 0)?;
    // An unclosed fence's body may end one past the source (spec 10 §3.3).
    check_span(source, f.body_span, 1)?;
    prop_assert!(f.body_span.start_offset >= f.span.start_offset);
    // The body's lines appear in order in the source the body span covers
    // (container markers and fence indentation are dropped between them).
    let region = source.slice_utf16(f.body_span.start_offset, f.body_span.end_offset);
    let mut rest = region;
    for piece in f.body.split(['\n', '\r']) {
        let at = rest.find(piece);
        prop_assert!(at.is_some(), "{piece:?} not in {rest:?} ({region:?})");
        rest = &rest[at.unwrap_or(0) + piece.len()..];
    }
    Ok(())
}
