//! `cargo varar annotate`: the findings of the latest run
//! ([`varar_core::verdict::findings`], issue 38 point 1) as annotations a
//! CI server shows on the Markdown line, so that a pull request shows the
//! red cell in the oath (pure; the shell is [`shell`]).
//!
//! - `--format github` (the default): one GitHub Actions workflow command
//!   per finding and line, `::error` for an error, `::warning` for a
//!   warning, `::notice` for a note, with `file`, `line`, `col`,
//!   `endLine`, `endColumn` (columns only when the result is of the text
//!   as it is now, and only for a span on one line, as GitHub requires)
//!   and `title`. Escaped exactly as GitHub's toolkit
//!   escapes them ([`escape_data`], [`escape_property`]): after escaping,
//!   a message holds no line break and a property no `:` or `,`, so no
//!   text of a step can end the command or start one of its own.
//! - `--format gitlab`: a GitLab Code Quality report, a JSON array of
//!   issues (`description`, `check_name` = the rule id, `fingerprint`,
//!   `severity`: `major` for an error, `minor` for a warning, `info` for a
//!   note, `location.path` and `location.positions` with columns or
//!   `location.lines.begin`).
//! - Paths are the repository's (both servers want them so): the project's
//!   directory inside the repository (`--path-prefix`, else found from
//!   `.git`) before each oathPath ([`varar_core::verdict::findings::repository_path`]).
//! - Columns count UTF-16 code units, 1-based; the end column is the one
//!   just past the span, as in SARIF.

use serde_json::{Value, json};
use varar_core::verdict::findings::{Finding, Level, repository_path};

pub mod args;
pub mod shell;

/// `text` as GitHub's toolkit escapes a command's message
/// (`escapeData`): `%`, CR and LF percent-encoded.
pub fn escape_data(text: &str) -> String {
    text.replace('%', "%25")
        .replace('\r', "%0D")
        .replace('\n', "%0A")
}

/// `text` as GitHub's toolkit escapes a command's property
/// (`escapeProperty`): as [`escape_data`], and `:` and `,`.
pub fn escape_property(text: &str) -> String {
    escape_data(text).replace(':', "%3A").replace(',', "%2C")
}

/// The workflow command of a level.
fn command(level: Level) -> &'static str {
    match level {
        Level::Error => "error",
        Level::Warning => "warning",
        Level::Note => "notice",
    }
}

/// Every finding as a GitHub workflow command, one per line; `prefix` is
/// the project's directory in the repository.
pub fn github(findings: &[Finding], prefix: &str) -> String {
    let mut out = String::new();
    for f in findings {
        let mut properties = vec![format!(
            "file={}",
            escape_property(&repository_path(prefix, &f.oath_path))
        )];
        if let Some(region) = f.region {
            properties.push(format!("line={}", region.start_line));
            if let Some(c) = region.span {
                // GitHub takes columns only on one line ("cannot be sent
                // when startLine and endLine are different values").
                let one_line = c.end_line == region.start_line;
                if one_line {
                    properties.push(format!("col={}", c.start_column));
                }
                properties.push(format!("endLine={}", c.end_line));
                if one_line {
                    properties.push(format!("endColumn={}", c.end_column));
                }
            }
        }
        properties.push(format!("title={}", escape_property(&f.title)));
        out.push_str(&format!(
            "::{} {}::{}\n",
            command(f.level),
            properties.join(","),
            escape_data(&f.message)
        ));
    }
    out
}

/// GitLab's severity of a level.
fn severity(level: Level) -> &'static str {
    match level {
        Level::Error => "major",
        Level::Warning => "minor",
        Level::Note => "info",
    }
}

/// Every finding as a GitLab Code Quality issue.
pub fn gitlab(findings: &[Finding], prefix: &str) -> Value {
    let issues: Vec<Value> = findings
        .iter()
        .map(|f| {
            let path = repository_path(prefix, &f.oath_path);
            // GitLab needs a line: a finding of a whole document is on its first.
            let location = match f.region {
                Some(r) => match r.span {
                    Some(c) => json!({"path": path, "positions": {
                        "begin": {"line": r.start_line, "column": c.start_column},
                        "end": {"line": c.end_line, "column": c.end_column},
                    }}),
                    None => json!({"path": path, "lines": {"begin": r.start_line}}),
                },
                None => json!({"path": path, "lines": {"begin": 1}}),
            };
            json!({
                "type": "issue",
                "check_name": f.kind.rule_id(),
                "description": description(f),
                "content": {"body": f.message},
                "categories": ["Bug Risk"],
                "severity": severity(f.level),
                "fingerprint": f.fingerprint,
                "location": location,
            })
        })
        .collect();
    Value::Array(issues)
}

/// One line for GitLab's list: the title and the message's first line.
fn description(f: &Finding) -> String {
    match f.message.lines().next() {
        Some(first) if !first.is_empty() => format!("{}: {first}", f.title),
        _ => f.title.clone(),
    }
}

#[cfg(test)]
mod tests;
