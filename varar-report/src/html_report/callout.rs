//! The callout of one failure: a numbered note written in the text next to
//! its span, always visible (not a hover tooltip), linked back to the span.
//! Expected and actual are labelled in words, so the note reads the same
//! without colour, in print and to a screen reader.

use std::fmt::Write as _;

use super::html::escape_into;
use super::links::Links;
use super::overlay::{Detail, Note, Overlay};

/// Write the callout of note `n` (`has_mark`: whether a span was drawn).
pub fn write(out: &mut String, overlay: &Overlay, links: &Links<'_>, n: usize, has_mark: bool) {
    let Some(note) = overlay.notes.get(n) else {
        return;
    };
    let num = n + 1;
    let _ = write!(
        out,
        "<span class=\"varar-callout\" id=\"varar-note-{num}\" role=\"note\" data-varar-state=\"failed\">"
    );
    if has_mark {
        let _ = write!(
            out,
            "<a class=\"varar-ref\" href=\"#varar-mark-{num}\" title=\"go to the failing text\">✗ {num}</a> "
        );
    } else {
        let _ = write!(out, "<span class=\"varar-ref\">✗ {num}</span> ");
    }
    detail(out, note);
    context(out, note, links);
    out.push_str("</span>");
}

/// The words of a note: expected/actual, or the message.
pub fn detail(out: &mut String, note: &Note) {
    match &note.detail {
        Detail::Cell { expected, actual } => {
            out.push_str("<span class=\"varar-k\">expected</span> <code class=\"varar-expected\">");
            escape_into(out, expected);
            out.push_str(
                "</code> <span class=\"varar-k\">actual</span> <code class=\"varar-actual\">",
            );
            escape_into(out, actual);
            out.push_str("</code>");
        }
        Detail::Message(message) => {
            out.push_str("<span class=\"varar-k\">failed:</span> <span class=\"varar-message\">");
            escape_into(out, message);
            out.push_str("</span>");
        }
        Detail::Item { kind, message } => {
            let _ = write!(
                out,
                "<span class=\"varar-k\">{kind}:</span> <span class=\"varar-message varar-item-message\">"
            );
            escape_into(out, message);
            out.push_str("</span>");
        }
    }
}

/// Where else a note belongs: the document its span is in, or the oath
/// whose example failed here.
pub fn context(out: &mut String, note: &Note, links: &Links<'_>) {
    if let Some(doc) = &note.elsewhere {
        out.push_str(" <span class=\"varar-where\">(in ");
        document_link(out, links, doc, note.line);
        out.push_str(")</span>");
    }
    if let Some(oath) = &note.origin {
        out.push_str(" <span class=\"varar-where\">(example “");
        escape_into(out, &note.example);
        out.push_str("” of ");
        document_link(out, links, oath, 0);
        out.push_str(")</span>");
    }
}

/// `varar/shared.md line 7`, linked to that page (and line) when it has one.
fn document_link(out: &mut String, links: &Links<'_>, oath_path: &str, line: u32) {
    match links.page(oath_path) {
        Some(href) => {
            out.push_str("<a href=\"");
            escape_into(out, &href);
            if line > 0 {
                let _ = write!(out, "#L{line}");
            }
            out.push_str("\">");
            escape_into(out, oath_path);
            out.push_str("</a>");
        }
        None => escape_into(out, oath_path),
    }
    if line > 0 {
        let _ = write!(out, " line {line}");
    }
}
