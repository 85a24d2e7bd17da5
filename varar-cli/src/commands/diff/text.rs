//! The diff for people: Markdown that reads as plain text in a terminal
//! and renders as a short PR comment (one heading, one section per oath,
//! one bullet per change). Pure. Names, paths and messages are escaped
//! for the terminal, on one line (issue 34); the escapes read as text in
//! Markdown too.

use varar_core::lock::SHOWN_NAME;
use varar_core::untrusted::{cut_to, terminal_line};

use super::{Change, ChangeKind, DiffReport, DiffStatus, Outcome};

/// Render the report.
pub fn render(report: &DiffReport) -> String {
    let mut out = String::new();
    if report.status == DiffStatus::Error {
        for e in &report.errors {
            out.push_str(&format!("{e}\n"));
        }
        out.push_str(&format!(
            "diff: error: {} problem(s) reading `{}` and `{}`; nothing was compared\n",
            report.errors.len(),
            terminal_line(&report.old),
            terminal_line(&report.new)
        ));
        return out;
    }
    let s = &report.summary;
    if report.oaths.is_empty() {
        out.push_str(&format!(
            "### varar: no changes ({} example(s) passed in both runs)\n",
            s.unchanged
        ));
        removed_from_lock(&mut out, report);
        return out;
    }
    out.push_str(&format!(
        "### varar: {} regressed, {} fixed, {} added, {} removed, {} still failing\n",
        s.regressed, s.fixed, s.added, s.removed, s.still_failing
    ));
    for oath in &report.oaths {
        out.push_str(&format!("\n#### {}", code_span(&oath.path)));
        match oath.source_changed {
            Some(true) => out.push_str(" (edited between the runs)"),
            Some(false) => {}
            None if oath.changes.iter().all(|c| c.kind == ChangeKind::Added) => {
                out.push_str(" (new)");
            }
            None => out.push_str(" (no results any more)"),
        }
        out.push_str("\n\n");
        for change in &oath.changes {
            out.push_str(&bullet(change));
        }
    }
    removed_from_lock(&mut out, report);
    if s.unchanged > 0 {
        out.push_str(&format!(
            "\n{} other example(s) passed in both runs.\n",
            s.unchanged
        ));
    }
    out
}

/// The examples NEW's latest run found no more in its lock (issue 37), one
/// bullet each with its old line and text.
fn removed_from_lock(out: &mut String, report: &DiffReport) {
    if report.removed_from_lock.is_empty() {
        return;
    }
    out.push_str(
        "\n#### No longer checked\n\nNEW's run found these examples of `varar.lock.json` no more \
         (deleted, or reworded past recognition):\n\n",
    );
    for r in &report.removed_from_lock {
        out.push_str(&format!(
            "- **removed from the lock** {}, line {}: {}\n",
            code_span(&r.oath_path),
            r.line,
            markdown_text(&cut_to(&r.name, SHOWN_NAME))
        ));
    }
}

fn bullet(c: &Change) -> String {
    let shown = c.new.as_ref().or(c.old.as_ref());
    let line = shown
        .and_then(|o| o.line)
        .map(|l| format!(", line {l}"))
        .unwrap_or_default();
    let message = |o: Option<&Outcome>| o.and_then(|o| o.message.as_deref()).map(code_span);
    let detail = match c.kind {
        ChangeKind::Regressed => message(c.new.as_ref()).map(|m| format!(": {m}")),
        ChangeKind::Added if c.new.as_ref().is_some_and(|o| o.status == "failed") => {
            message(c.new.as_ref()).map(|m| format!(", **fails**: {m}"))
        }
        ChangeKind::StillFailing if c.message_changed == Some(true) => {
            match (message(c.old.as_ref()), message(c.new.as_ref())) {
                (Some(a), Some(b)) => Some(format!(", message changed: {a} → {b}")),
                _ => None,
            }
        }
        ChangeKind::StillFailing => message(c.new.as_ref()).map(|m| format!(": {m}")),
        _ => None,
    };
    let word = match c.kind {
        ChangeKind::Regressed => "regressed",
        ChangeKind::Fixed => "fixed",
        ChangeKind::Added => "added",
        ChangeKind::Removed => "removed",
        ChangeKind::StillFailing => "still failing",
    };
    format!(
        "- **{word}**{line}: {}{}\n",
        markdown_text(&c.example),
        detail.unwrap_or_default()
    )
}

/// `text` as Markdown that renders as exactly that text, on one line,
/// and still reads as it in a terminal: the characters that can start
/// inline Markdown (links, images, HTML, autolinks, emphasis, code,
/// strikethrough, math, entities, mentions) are backslash-escaped, as
/// CommonMark lets every ASCII punctuation character be; `:` only before
/// `//` and `.` only after `www` (the bare URLs GFM links); line breaks
/// become spaces. A name sits mid-line after `- **word**: `, where no
/// block construct can start. The other controls are escaped for the
/// terminal afterwards, so their backslashes are not doubled.
fn markdown_text(text: &str) -> String {
    terminal_line(&markdown(text)).into_owned()
}

fn markdown(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 8);
    let chars: Vec<char> = text.chars().collect();
    for (i, &c) in chars.iter().enumerate() {
        let escaped = match c {
            '\n' | '\r' => {
                out.push(' ');
                continue;
            }
            '\\' | '`' | '*' | '_' | '[' | ']' | '<' | '>' | '&' | '!' | '~' | '|' | '$' | '@' => {
                true
            }
            ':' => chars.get(i + 1..i + 3) == Some(&['/', '/'][..]),
            '.' => {
                i >= 3
                    && chars[i - 3..i]
                        .iter()
                        .collect::<String>()
                        .eq_ignore_ascii_case("www")
            }
            _ => false,
        };
        if escaped {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

/// The first line of `text` as a Markdown code span (a fence longer than
/// any run of backticks inside; `…` when lines were left out).
fn code_span(text: &str) -> String {
    let mut lines = text.lines();
    let first = terminal_line(lines.next().unwrap_or(""));
    let more = if lines.next().is_some() { " …" } else { "" };
    let longest = first.split(|c| c != '`').map(str::len).max().unwrap_or(0);
    let fence = "`".repeat(longest + 1);
    let pad = if first.starts_with('`') || first.ends_with('`') {
        " "
    } else {
        ""
    };
    format!("{fence}{pad}{first}{pad}{fence}{more}")
}

#[cfg(test)]
mod tests {
    use super::{code_span, markdown_text};

    #[test]
    fn markdown_text_escapes_what_can_start_inline_markdown() {
        assert_eq!(markdown_text("a <b> *c*"), "a \\<b\\> \\*c\\*");
        assert_eq!(markdown_text("two\nlines"), "two lines");
        assert_eq!(
            markdown_text("I add 2. The total is 3"),
            "I add 2. The total is 3"
        );
        assert_eq!(markdown_text("a.md::x:drift:3"), "a.md::x:drift:3");
        assert_eq!(
            markdown_text("see https://x.invalid or WWW.x @me"),
            "see https\\://x.invalid or WWW\\.x \\@me"
        );
    }

    #[test]
    fn issue34_controls_in_names_and_messages_are_escaped_for_the_terminal() {
        assert_eq!(
            markdown_text("a\u{1b}[2J *b*\u{202e}"),
            "a\\u{001B}\\[2J \\*b\\*\\u{202E}"
        );
        assert_eq!(
            code_span("bel\u{7} nul\u{0}\rx\nnext"),
            "`bel\\u{0007} nul\\u{0000}\\u{000D}x` …"
        );
    }

    #[test]
    fn code_spans_survive_backticks_and_keep_one_line() {
        assert_eq!(code_span("expected 3 but was 2"), "`expected 3 but was 2`");
        assert_eq!(code_span("a `b` c"), "``a `b` c``");
        assert_eq!(code_span("`x`"), "`` `x` ``");
        assert_eq!(code_span("one\ntwo"), "`one` …");
    }
}
