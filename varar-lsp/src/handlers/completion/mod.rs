//! Completion of step expressions while writing a sentence (pure).
//!
//! The typed part of the sentence (from the sentence's start on the line to
//! the cursor) is compared word by word with each expression: a literal
//! word must match (the last typed word may be a prefix of it), a
//! parameter matches any word. Each step that fits is offered as a snippet
//! that replaces the typed part: parameters become placeholders named
//! after their type (`{string}` keeps its quotes and `{emph}` its stars
//! around the placeholder), an alternation `a/b` becomes a choice, optional
//! text is written out. The list is marked incomplete, so the editor asks
//! again as the sentence grows.

use lsp_types::{
    CompletionItem, CompletionItemKind, CompletionList, CompletionTextEdit, Documentation,
    InsertTextFormat, MarkupContent, MarkupKind, Range, TextEdit,
};
use varar_core::registry::Role;
use varar_core::source::Source;

use super::position::position;
use crate::analysis::step_index::StepIndex;

/// The completion list at a UTF-16 offset of an oath's text.
pub fn complete(text: &str, offset: u32, index: &StepIndex) -> CompletionList {
    let source = Source::new(text);
    let offset = offset.min(source.len_utf16());
    let line = source.line_of(offset);
    let line_start = source.line_start(line).unwrap_or(0);
    let before = source.slice_utf16(line_start, offset);
    let typed_start = sentence_start(before);
    let typed = &before[typed_start..];
    let from = line_start + varar_core::source::utf16_len(&before[..typed_start]);
    let range = Range::new(position(&source, from), position(&source, offset));
    let typed_words: Vec<&str> = typed.split(' ').filter(|w| !w.is_empty()).collect();
    let open_word = !typed.is_empty() && !typed.ends_with(' ');
    let mut items = Vec::new();
    for (i, step) in index.registry().steps.iter().enumerate() {
        let expression = &step.spec.expression;
        if !fits(expression, &typed_words, open_word) {
            continue;
        }
        let (detail, docs) = match index.step(i) {
            Some((file, item)) => (
                format!(
                    "{} · {}:{}",
                    match item.role {
                        Role::Stimulus => "stimulus",
                        Role::Sensor => "sensor",
                    },
                    file.label,
                    item.function.line
                ),
                format!(
                    "```rust\n{}\n```\n{}",
                    item.function.signature, item.function.docs
                ),
            ),
            None => (String::new(), String::new()),
        };
        items.push(CompletionItem {
            label: expression.to_string(),
            kind: Some(CompletionItemKind::FUNCTION),
            detail: Some(detail),
            documentation: Some(Documentation::MarkupContent(MarkupContent {
                kind: MarkupKind::Markdown,
                value: docs,
            })),
            filter_text: Some(typed.to_string()),
            sort_text: Some(format!("{i:05}")),
            insert_text_format: Some(InsertTextFormat::SNIPPET),
            text_edit: Some(CompletionTextEdit::Edit(TextEdit {
                range,
                new_text: snippet(expression),
            })),
            ..CompletionItem::default()
        });
    }
    CompletionList {
        is_incomplete: true,
        items,
    }
}

/// Byte offset where the sentence being written starts in the line's text
/// before the cursor: after the last terminator followed by a space, else
/// after the block markers (`- `, `* `, `+ `, `1. `, `> `) and indentation.
fn sentence_start(before: &str) -> usize {
    let bytes = before.as_bytes();
    let mut start = 0;
    for i in 1..bytes.len() {
        if bytes[i] == b' ' && matches!(bytes[i - 1], b'.' | b'!' | b'?') {
            start = i + 1;
        }
    }
    if start > 0 {
        return start + (before[start..].len() - before[start..].trim_start().len());
    }
    let mut rest = before;
    loop {
        let trimmed = rest.trim_start();
        let marker = ["- ", "* ", "+ ", "> "]
            .iter()
            .find(|m| trimmed.starts_with(**m))
            .map(|m| m.len())
            .or_else(|| {
                let digits = trimmed.bytes().take_while(u8::is_ascii_digit).count();
                (digits > 0
                    && (trimmed[digits..].starts_with(". ") || trimmed[digits..].starts_with(") ")))
                .then_some(digits + 2)
            });
        match marker {
            Some(n) => rest = &trimmed[n..],
            None => return before.len() - trimmed.len(),
        }
    }
}

/// One word of an expression.
enum Word {
    /// Literal text: the spellings a typed word may have (`user(s)` →
    /// `user`, `users`; `eat/drink` → both).
    Literal(Vec<String>),
    /// A word holding a parameter of this type.
    Param(String),
}

/// Whether a typed word can be (the start of) a value of a parameter type.
fn could_be(type_name: &str, typed: &str) -> bool {
    let first = typed.chars().next();
    match type_name {
        "int" | "byte" | "short" | "long" | "biginteger" | "float" | "double" | "bigdecimal" => {
            first.is_some_and(|c| c.is_ascii_digit() || matches!(c, '-' | '+' | '.'))
        }
        "string" => matches!(first, Some('"' | '\'')),
        "emph" => matches!(first, Some('*' | '_')),
        _ => true,
    }
}

/// The words of an expression.
fn words(expression: &str) -> Vec<Word> {
    split_words(expression)
        .into_iter()
        .map(|w| {
            if let Some(open) = w.find('{').filter(|_| !w.contains("\\{")) {
                let name: String = w[open + 1..].chars().take_while(|&c| c != '}').collect();
                return Word::Param(name);
            }
            let alternatives = split_unescaped(&w, '/');
            let mut spellings = Vec::new();
            for alt in alternatives {
                spellings.push(unescape(&without_optionals(&alt, false)));
                spellings.push(unescape(&without_optionals(&alt, true)));
            }
            Word::Literal(spellings)
        })
        .collect()
}

/// Whether the typed words begin the expression.
fn fits(expression: &str, typed: &[&str], open_word: bool) -> bool {
    let words = words(expression);
    if typed.len() > words.len() {
        return false;
    }
    typed.iter().zip(&words).enumerate().all(|(i, (t, w))| {
        let last = i + 1 == typed.len() && open_word;
        match w {
            Word::Param(type_name) => could_be(type_name, t),
            Word::Literal(spellings) => spellings
                .iter()
                .any(|s| s == t || (last && s.starts_with(t))),
        }
    })
}

/// An expression as a snippet.
pub fn snippet(expression: &str) -> String {
    let mut out = String::new();
    let mut n = 0;
    for (i, word) in split_words(expression).into_iter().enumerate() {
        if i > 0 {
            out.push(' ');
        }
        let alternatives = split_unescaped(&word, '/');
        if alternatives.len() > 1 && !word.contains('{') {
            n += 1;
            let choices: Vec<String> = alternatives
                .iter()
                .map(|a| escape_choice(&unescape(&without_optionals(a, true))))
                .collect();
            out.push_str(&format!("${{{n}|{}|}}", choices.join(",")));
            continue;
        }
        let mut chars = word.chars().peekable();
        while let Some(c) = chars.next() {
            match c {
                '\\' => {
                    if let Some(next) = chars.next() {
                        push_literal(&mut out, next);
                    }
                }
                '{' => {
                    let name: String = chars.by_ref().take_while(|&c| c != '}').collect();
                    n += 1;
                    let placeholder = if name.is_empty() { "text" } else { &name };
                    let (open, close) = match name.as_str() {
                        "string" => ("\"", "\""),
                        "emph" => ("*", "*"),
                        _ => ("", ""),
                    };
                    out.push_str(&format!("{open}${{{n}:{placeholder}}}{close}"));
                }
                '(' | ')' => {}
                c => push_literal(&mut out, c),
            }
        }
    }
    out.push_str("$0");
    out
}

fn push_literal(out: &mut String, c: char) {
    if matches!(c, '$' | '}' | '\\') {
        out.push('\\');
    }
    out.push(c);
}

fn escape_choice(s: &str) -> String {
    let mut out = String::new();
    for c in s.chars() {
        if matches!(c, '$' | '}' | '\\' | ',' | '|') {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

/// Split at unescaped spaces.
fn split_words(expression: &str) -> Vec<String> {
    split_unescaped(expression, ' ')
        .into_iter()
        .filter(|w| !w.is_empty())
        .collect()
}

/// Split at every unescaped `sep` (escapes kept in the parts).
fn split_unescaped(s: &str, sep: char) -> Vec<String> {
    let mut parts = vec![String::new()];
    let mut chars = s.chars();
    while let Some(c) = chars.next() {
        if c == '\\' {
            if let Some(part) = parts.last_mut() {
                part.push(c);
                if let Some(next) = chars.next() {
                    part.push(next);
                }
            }
        } else if c == sep {
            parts.push(String::new());
        } else if let Some(part) = parts.last_mut() {
            part.push(c);
        }
    }
    parts
}

/// The word with its unescaped `(optional)` parts dropped or written out.
fn without_optionals(word: &str, keep: bool) -> String {
    let mut out = String::new();
    let mut depth = 0;
    let mut chars = word.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => {
                if depth == 0 || keep {
                    out.push(c);
                    if let Some(next) = chars.next() {
                        out.push(next);
                    }
                } else {
                    chars.next();
                }
            }
            '(' => depth += 1,
            ')' if depth > 0 => depth -= 1,
            c if depth == 0 || keep => out.push(c),
            _ => {}
        }
    }
    out
}

fn unescape(s: &str) -> String {
    let mut out = String::new();
    let mut chars = s.chars();
    while let Some(c) = chars.next() {
        if c == '\\' {
            if let Some(next) = chars.next() {
                out.push(next);
            }
        } else {
            out.push(c);
        }
    }
    out
}

#[cfg(test)]
mod tests;
