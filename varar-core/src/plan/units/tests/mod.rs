//! Tests of §20.7 on hand-built candidates.

use regex::Regex;

use super::*;
use crate::doc::{CandidateBody, SegmentOffset, TableRow, TextKind};
use crate::plan::matching::{RawHit, RawParam, match_block};
use varar_expression::ArgValue;

mod header_bound;

/// Steps as `(expression, regex, parameter type names)`: each capture group
/// is one parameter; a `string` group's inner span drops the quotes.
pub(super) struct RegexSteps(pub Vec<(&'static str, &'static str, &'static [&'static str])>);

impl Matcher for RegexSteps {
    fn step_count(&self) -> usize {
        self.0.len()
    }
    fn scan(&self, step: usize, sentence: &str) -> Vec<RawHit> {
        let (_, pattern, names) = self.0[step];
        let Ok(re) = Regex::new(pattern) else {
            return Vec::new();
        };
        re.captures_iter(sentence)
            .filter_map(|c| {
                let whole = c.get(0)?;
                let params = names
                    .iter()
                    .enumerate()
                    .filter_map(|(i, name)| {
                        let g = c.get(i + 1)?;
                        let quoted = *name == "string";
                        Some(RawParam {
                            start: g.start(),
                            end: g.end(),
                            inner_start: g.start() + usize::from(quoted),
                            inner_end: g.end() - usize::from(quoted),
                            type_name: (*name).into(),
                            value: ArgValue::Text(g.as_str().to_string()),
                        })
                    })
                    .collect();
                Some(RawHit {
                    step,
                    start: whole.start(),
                    end: whole.end(),
                    params: Some(params),
                })
            })
            .collect()
    }
    fn expression(&self, step: usize) -> &str {
        self.0[step].0
    }
    fn location(&self, step: usize) -> (&str, u32) {
        ("t.steps.rs", 10 * (step as u32 + 1))
    }
}

/// Sentences split at `. ` and LF only: enough for these tests.
pub(super) fn sentences(text: &str) -> Vec<(String, u32)> {
    let mut out = Vec::new();
    let mut start = 0usize;
    let bytes: Vec<(usize, char)> = text.char_indices().collect();
    for (k, &(i, c)) in bytes.iter().enumerate() {
        let next = bytes.get(k + 1).map(|&(_, c)| c);
        let end = if c == '\n' {
            Some(i)
        } else if matches!(c, '.' | '!' | '?') && matches!(next, None | Some(' ' | '\n')) {
            Some(i + 1)
        } else {
            None
        };
        if let Some(e) = end {
            push(&mut out, text, start, e);
            start = i + c.len_utf8();
        }
    }
    push(&mut out, text, start, text.len());
    out
}

fn push(out: &mut Vec<(String, u32)>, text: &str, start: usize, end: usize) {
    let seg = &text[start..end];
    let trimmed = seg.trim_start();
    let lead = seg.len() - trimmed.len();
    let t = trimmed.trim_end();
    if !t.is_empty() {
        out.push((
            t.to_string(),
            crate::source::utf16_len(&text[..start + lead]),
        ));
    }
}

/// A one-segment block from source offsets.
pub(super) fn block(src: &Source<'_>, kind: TextKind, start: u32, end: u32) -> TextBlock {
    TextBlock {
        kind,
        text: src.slice_utf16(start, end).to_string(),
        span: src.span(start, end),
        segment_map: vec![SegmentOffset {
            text_offset: 0,
            source_offset: start,
        }],
    }
}

/// The UTF-16 offset of the first occurrence of `needle`.
pub(super) fn at(src: &Source<'_>, needle: &str) -> u32 {
    src.utf16_of_byte(src.text().find(needle).unwrap_or(usize::MAX))
}

/// A line (1-based) as (start, end) UTF-16 offsets, LF excluded.
fn line(src: &Source<'_>, n: u32) -> (u32, u32) {
    let start = src.line_start(n).unwrap_or(0);
    let end = src.line_start(n + 1).map_or(src.len_utf16(), |s| s - 1);
    (start, end)
}

/// A table row from a source line (cells trimmed, spaces only).
fn row(src: &Source<'_>, n: u32) -> TableRow {
    let (start, end) = line(src, n);
    let text = src.slice_utf16(start, end);
    let first = text.find('|').unwrap_or(0);
    let last = text.rfind('|').unwrap_or(text.len());
    let mut cells = Vec::new();
    let mut cell_spans = Vec::new();
    let mut offset = first + 1;
    for piece in text[first + 1..last].split('|') {
        let lead = piece.len() - piece.trim_start().len();
        let cell = piece.trim();
        let from = start + crate::source::utf16_len(&text[..offset + lead]);
        let from = if cell.is_empty() {
            start + crate::source::utf16_len(&text[..offset + piece.len()])
        } else {
            from
        };
        cells.push(cell.to_string());
        cell_spans.push(src.span(from, from + crate::source::utf16_len(cell)));
        offset += piece.len() + 1;
    }
    TableRow {
        cells,
        cell_spans,
        span: src.span(start, end),
    }
}

/// A table whose header is on line `header` (delimiter row next) and whose
/// last row is on line `last`.
pub(super) fn table(src: &Source<'_>, header: u32, last: u32) -> Attachment {
    Attachment::Table(Table {
        span: src.span(line(src, header).0, line(src, last).1),
        header: row(src, header),
        rows: (header + 2..=last).map(|n| row(src, n)).collect(),
    })
}

/// A fence from its opening to its closing line.
pub(super) fn fence(src: &Source<'_>, open: u32, close: u32, info: &str) -> Attachment {
    let body_start = line(src, open + 1).0;
    let body_end = line(src, close).0;
    Attachment::Fence(Fence {
        span: src.span(line(src, open).0, line(src, close).1),
        info: info.to_string(),
        body: src.slice_utf16(body_start, body_end).to_string(),
        body_span: src.span(body_start, body_end),
    })
}

pub(super) fn candidate(text: TextBlock, attachments: Vec<Attachment>, pbd: bool) -> Candidate {
    let end = attachments.last().map_or(text.span, Attachment::span);
    Candidate {
        scope_stack: vec!["Scope".into()].into(),
        span: Span {
            end_offset: end.end_offset,
            end_line: end.end_line,
            end_col: end.end_col,
            ..text.span
        },
        body: CandidateBody { text, attachments },
        preceded_by_delimiter: pbd,
    }
}

fn run<'d>(c: &'d Candidate, src: &Source<'_>, steps: &RegexSteps) -> (Unit<'d>, Vec<Diagnostic>) {
    let owned = sentences(&c.body.text.text);
    let refs: Vec<SentenceRef<'_>> = owned
        .iter()
        .map(|(t, s)| SentenceRef { text: t, start: *s })
        .collect();
    let mut diags = Vec::new();
    let matched = match_block(&refs, steps);
    let unit = plan_candidate(c, &refs, &matched, src, steps, &mut diags, &mut Vec::new());
    (unit, diags)
}

fn matched_steps(unit: Unit<'_>) -> Vec<PlannedStep> {
    match unit {
        Unit::Matched(m) => m.steps,
        other => panic!("expected a matched unit, got {other:?}"),
    }
}

fn off(s: &Span) -> (u32, u32, u32, u32, u32, u32) {
    (
        s.start_offset,
        s.end_offset,
        s.start_line,
        s.start_col,
        s.end_line,
        s.end_col,
    )
}

const NUMERALS: &str =
    "# Roman numerals\n\n## Converting 1\n\nI convert 1 to roman numerals. The result is I.\n";

fn numerals() -> RegexSteps {
    RegexSteps(vec![
        (
            "I convert {int} to roman numerals",
            r"I convert (-?[0-9]+) to roman numerals",
            &["int"],
        ),
        ("The result is {word}.", r"The result is (\S+)\.", &["word"]),
    ])
}

#[test]
fn bundle_01_worked_offsets() {
    let src = Source::new(NUMERALS);
    let c = candidate(block(&src, TextKind::Paragraph, 35, 82), vec![], true);
    let (unit, diags) = run(&c, &src, &numerals());
    assert!(diags.is_empty());
    let steps = matched_steps(unit);
    assert_eq!(steps.len(), 2);
    assert_eq!(&*steps[0].text, "I convert 1 to roman numerals");
    assert_eq!(off(&steps[0].match_span), (35, 64, 5, 1, 5, 30));
    assert_eq!(off(&steps[0].param_spans[0]), (45, 46, 5, 11, 5, 12));
    assert_eq!(&*steps[0].args[0].raw, "1");
    assert_eq!(steps[0].args[0].parameter_type.as_ref(), "int");
    assert_eq!(&*steps[1].text, "The result is I.");
    assert_eq!(off(&steps[1].match_span), (66, 82, 5, 32, 5, 48));
    assert_eq!(off(&steps[1].param_spans[0]), (80, 81, 5, 46, 5, 47));
    assert_eq!(
        steps[1].matched_expression.as_ref(),
        "The result is {word}."
    );
    assert_eq!(steps[1].step, 1);
}

const EMOJI: &str = "# 😀 Emoji World\n\n## It greets after an emoji\n\n- I greet \"😀wörld\".\n\n| Café | 日本語 |\n|------|--------|\n| a    | b      |\n";

#[test]
fn bundle_11_list_item_offsets_and_table_attachment() {
    let src = Source::new(EMOJI);
    let start = at(&src, "I greet");
    assert_eq!(start, 49);
    let item = TextKind::ListItem {
        ordered: false,
        marker_span: src.span(47, 48),
    };
    let block = block(&src, item, start, start + 18);
    let c = candidate(block, vec![table(&src, 7, 9)], true);
    let steps = RegexSteps(vec![(
        "I greet {string}",
        r#"I greet ("[^"]*")"#,
        &["string"],
    )]);
    let (unit, diags) = run(&c, &src, &steps);
    assert!(diags.is_empty());
    let steps = matched_steps(unit);
    assert_eq!(off(&steps[0].match_span), (49, 66, 5, 3, 5, 20));
    assert_eq!(off(&steps[0].param_spans[0]), (57, 66, 5, 11, 5, 20));
    assert_eq!(off(&steps[0].inner_spans[0]), (58, 65, 5, 12, 5, 19));
    assert_eq!(&*steps[0].args[0].raw, "\"😀wörld\"");
    let table = steps[0].data_table.as_ref().map(|t| t.header.cells.clone());
    assert_eq!(table, Some(vec!["Café".to_string(), "日本語".to_string()]));
}

#[test]
fn blockquote_lifting_uses_the_last_segment_at_or_before_the_offset() {
    let text = "> alpha.\n> beta gamma.\n";
    let src = Source::new(text);
    let block = TextBlock {
        kind: TextKind::Blockquote,
        text: "alpha.\nbeta gamma.".into(),
        span: src.span(0, 22),
        segment_map: vec![
            SegmentOffset {
                text_offset: 0,
                source_offset: 2,
            },
            SegmentOffset {
                text_offset: 7,
                source_offset: 11,
            },
        ],
    };
    let c = candidate(block, vec![], true);
    let steps = RegexSteps(vec![("gamma", "gamma", &[]), ("alpha", "alpha", &[])]);
    let got = matched_steps(run(&c, &src, &steps).0);
    let spans: Vec<_> = got.iter().map(|s| off(&s.match_span)).collect();
    assert_eq!(spans, vec![(2, 7, 1, 3, 1, 8), (16, 21, 2, 8, 2, 13)]);
    assert_eq!(src.slice_utf16(16, 21), "gamma");
}

#[test]
fn ordered_list_item_lifting_skips_the_marker() {
    let text = "10. I greet \"x\".\n";
    let src = Source::new(text);
    let kind = TextKind::ListItem {
        ordered: true,
        marker_span: src.span(0, 3),
    };
    let c = candidate(block(&src, kind, 4, 16), vec![], true);
    let steps = RegexSteps(vec![("I greet {string}", r#"I greet ("x")"#, &["string"])]);
    let got = matched_steps(run(&c, &src, &steps).0);
    assert_eq!(off(&got[0].match_span), (4, 15, 1, 5, 1, 16));
    assert_eq!(off(&got[0].param_spans[0]), (12, 15, 1, 13, 1, 16));
}

const CUKES: &str = "# Cukes\n\nI have 5 cukes.\n\n```error\nboom\n```\n";

fn cukes() -> RegexSteps {
    RegexSteps(vec![
        ("I have {int} cukes", r"I have ([0-9]+) cukes", &["int"]),
        ("I have 5 cukes", r"I have 5 cukes", &[]),
    ])
}

#[test]
fn ambiguity_then_error_fence_diagnostics() {
    let src = Source::new(CUKES);
    let c = candidate(
        block(&src, TextKind::Paragraph, 9, 24),
        vec![fence(&src, 5, 7, "error")],
        true,
    );
    let (unit, diags) = run(&c, &src, &cukes());
    assert_eq!(unit, Unit::Unmatched);
    let got: Vec<_> = diags.iter().map(|d| (d.code, off(&d.span))).collect();
    assert_eq!(
        got,
        vec![
            (DiagnosticCode::AmbiguousMatch, (9, 23, 3, 1, 3, 15)),
            (DiagnosticCode::ErrorFenceWithoutStep, (26, 43, 5, 1, 7, 4)),
        ]
    );
    assert_eq!(
        diags[0].message,
        "Ambiguous step: \"I have 5 cukes\"\nMatched by:\n  'I have {int} cukes'    at t.steps.rs:10\n  'I have 5 cukes'    at t.steps.rs:20"
    );
}

#[test]
fn prose_with_error_fence_reports_the_fence() {
    let src = Source::new("# Nope\n\nThis prose matches nothing.\n\n```error\nboom\n```\n");
    let c = candidate(
        block(&src, TextKind::Paragraph, 8, 35),
        vec![fence(&src, 5, 7, "error")],
        true,
    );
    let (unit, diags) = run(&c, &src, &cukes());
    assert_eq!(unit, Unit::Unmatched);
    assert_eq!(diags.len(), 1);
    assert_eq!(off(&diags[0].span), (37, 54, 5, 1, 7, 4));
}

#[test]
fn prose_without_fence_is_silent() {
    let src = Source::new("Nothing here.\n");
    let c = candidate(block(&src, TextKind::Paragraph, 0, 13), vec![], true);
    let (unit, diags) = run(&c, &src, &cukes());
    assert_eq!(unit, Unit::Unmatched);
    assert!(diags.is_empty());
}

const DIVISION: &str =
    "I divide 1 by 0.\n\n```error\n  division\n  by zero \n```\n\n```text\nlater\n```\n";

fn division() -> RegexSteps {
    RegexSteps(vec![(
        "I divide {int} by {int}",
        r"I divide ([0-9]+) by ([0-9]+)",
        &["int", "int"],
    )])
}

#[test]
fn error_fence_sets_fail_with_trimmed_message_and_is_no_doc_string() {
    let src = Source::new(DIVISION);
    let c = candidate(
        block(&src, TextKind::Paragraph, 0, 16),
        vec![fence(&src, 3, 6, "error"), fence(&src, 8, 10, "text")],
        true,
    );
    let (unit, diags) = run(&c, &src, &division());
    assert!(diags.is_empty());
    let Unit::Matched(m) = unit else {
        panic!("expected a matched unit");
    };
    assert_eq!(
        m.expected,
        Expectation::Fail {
            message: Some("division\n  by zero".into())
        }
    );
    // body[1] is the error fence, and body[2] never attaches.
    assert_eq!(m.steps[0].doc_string, None);
    assert_eq!(m.steps[0].data_table, None);
    let raws: Vec<_> = m.steps[0].args.iter().map(|a| &*a.raw).collect();
    assert_eq!(raws, ["1", "0"]);
}

#[test]
fn error_fence_after_body_1_still_counts_and_empty_body_gives_no_message() {
    let src = Source::new("I divide 1 by 0.\n\n```text\nx\n```\n\n```error\n \n```\n");
    let c = candidate(
        block(&src, TextKind::Paragraph, 0, 16),
        vec![fence(&src, 3, 5, "text"), fence(&src, 7, 9, "error")],
        true,
    );
    let Unit::Matched(m) = run(&c, &src, &division()).0 else {
        panic!("expected a matched unit");
    };
    assert_eq!(m.expected, Expectation::Fail { message: None });
    let doc = m.steps[0].doc_string.clone();
    assert_eq!(doc.as_ref().map(|d| d.content.as_str()), Some("x\n"));
    assert_eq!(doc.as_ref().map(|d| d.content_type.as_str()), Some("text"));
}

#[test]
fn error_info_is_case_sensitive() {
    let src = Source::new("I divide 1 by 0.\n\n```Error\nx\n```\n");
    let c = candidate(
        block(&src, TextKind::Paragraph, 0, 16),
        vec![fence(&src, 3, 5, "Error")],
        true,
    );
    let Unit::Matched(m) = run(&c, &src, &division()).0 else {
        panic!("expected a matched unit");
    };
    assert_eq!(m.expected, Expectation::Pass);
    assert!(m.steps[0].doc_string.is_some());
}

#[test]
fn body_1_goes_to_the_last_step_and_later_tables_are_ignored() {
    let text = "alpha. beta.\n\n```\ndoc\n```\n\n| beta |\n|---|\n| 1 |\n";
    let src = Source::new(text);
    let c = candidate(
        block(&src, TextKind::Paragraph, 0, 12),
        vec![fence(&src, 3, 5, ""), table(&src, 7, 9)],
        true,
    );
    let steps = RegexSteps(vec![("alpha", "alpha", &[]), ("beta", "beta", &[])]);
    let got = matched_steps(run(&c, &src, &steps).0);
    assert_eq!(got.len(), 2);
    assert_eq!(got[0].doc_string, None);
    let doc = got[1].doc_string.clone();
    assert_eq!(
        doc.map(|d| (d.content, d.content_type)),
        Some(("doc\n".into(), "".into()))
    );
    // The `beta` table is body[2]: never header-bound, never attached.
    assert!(got.iter().all(|s| s.data_table.is_none()));
}

const REPORT: &str = "# Scoring\n\n## A wrong score is caught\n\nI report the score and grade.\n\n| score | grade |\n| ----- | ----- |\n| 10    | A     |\n";

#[test]
fn the_ascii_word_class_is_the_unicode_one() {
    let re = regex::Regex::new(r"^[\p{L}\p{N}_]$").expect("constant regex");
    for c in (0u8..=127).map(char::from) {
        assert_eq!(is_word_char(c), re.is_match(&c.to_string()), "{c:?}");
    }
    assert!(is_word_char('é') && is_word_char('٣') && !is_word_char('\u{301}'));
}
