use varar_core::verdict::findings::{Columns, Finding, Kind, Level, Region};

use super::*;

/// Text a step controls, as the findings hand it on (controls already
/// escaped there; line breaks, `::`, `%`, `,` and `:` left for the format).
const HOSTILE: &str = "50% off, a:b\r\n::error file=forged.md,line=1::forged\n%0A%25 \\u{001B}[2J";

fn finding(level: Level, kind: Kind, region: Option<Region>, text: &str) -> Finding {
    Finding {
        level,
        kind,
        oath_path: "varar/a b,c:d%.md".into(),
        region,
        title: format!("failed: {}", text.replace(['\r', '\n'], " ")),
        message: text.into(),
        item: "varar/a.md::x".into(),
        fingerprint: "0123456789abcdef0123456789abcdef".into(),
    }
}

fn spanned() -> Option<Region> {
    Some(Region {
        start_line: 13,
        span: Some(Columns {
            start_column: 51,
            end_line: 13,
            end_column: 56,
        }),
    })
}

/// What GitHub's runner reads back from an escaped data or property.
fn unescape(text: &str) -> String {
    text.replace("%0D", "\r")
        .replace("%0A", "\n")
        .replace("%3A", ":")
        .replace("%2C", ",")
        .replace("%25", "%")
}

#[test]
fn data_and_properties_are_escaped_as_githubs_toolkit_escapes_them() {
    assert_eq!(escape_data("a%b\rc\nd:e,f"), "a%25b%0Dc%0Ad:e,f");
    assert_eq!(escape_property("a%b\rc\nd:e,f"), "a%25b%0Dc%0Ad%3Ae%2Cf");
    // `%` first: an escape already in the text is not read back as one.
    assert_eq!(escape_data("%0A"), "%250A");
    assert_eq!(unescape(&escape_property(HOSTILE)), HOSTILE);
}

#[test]
fn one_command_per_finding_with_its_region_and_nothing_forged() {
    let findings = [
        finding(Level::Error, Kind::FailedExample, spanned(), HOSTILE),
        finding(
            Level::Warning,
            Kind::Recovered,
            Some(Region {
                start_line: 7,
                span: None,
            }),
            "flaky",
        ),
        finding(Level::Note, Kind::ReadError, None, ""),
    ];
    let out = github(&findings, "examples/bakery");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 3, "{out}");
    assert!(out.ends_with('\n'));
    let file = "file=examples/bakery/varar/a b%2Cc%3Ad%25.md";
    assert_eq!(
        lines[0],
        format!(
            "::error {file},line=13,col=51,endLine=13,endColumn=56,title={}::{}",
            escape_property(&findings[0].title),
            escape_data(HOSTILE)
        )
    );
    assert_eq!(
        lines[1],
        format!("::warning {file},line=7,title=failed%3A flaky::flaky")
    );
    assert_eq!(lines[2], format!("::notice {file},title=failed%3A ::"));
    // Read back as the runner reads it: the command, its properties split
    // at `,` and `=`, the message after the first `::` that follows them.
    let rest = lines[0].strip_prefix("::error ").unwrap_or_default();
    let (properties, message) = rest.split_once("::").unwrap_or_default();
    assert_eq!(unescape(message), HOSTILE);
    let properties: Vec<(&str, String)> = properties
        .split(',')
        .map(|p| {
            let (k, v) = p.split_once('=').unwrap_or_default();
            (k, unescape(v))
        })
        .collect();
    assert_eq!(
        properties[0],
        ("file", "examples/bakery/varar/a b,c:d%.md".into())
    );
    assert_eq!(properties[5], ("title", findings[0].title.clone()));
    assert_eq!(properties.len(), 6);
}

#[test]
fn a_span_over_several_lines_has_no_columns_for_github() {
    let region = Some(Region {
        start_line: 3,
        span: Some(Columns {
            start_column: 5,
            end_line: 4,
            end_column: 2,
        }),
    });
    let out = github(&[finding(Level::Error, Kind::Drift, region, "m")], "");
    assert_eq!(
        out,
        "::error file=varar/a b%2Cc%3Ad%25.md,line=3,endLine=4,title=failed%3A m::m\n"
    );
}

#[test]
fn gitlab_code_quality_issues_with_positions_or_lines() {
    let findings = [
        finding(
            Level::Error,
            Kind::FailedExample,
            spanned(),
            "cell 1: expected\nmore",
        ),
        finding(
            Level::Warning,
            Kind::Removed,
            Some(Region {
                start_line: 7,
                span: None,
            }),
            "gone",
        ),
        finding(Level::Note, Kind::ReadError, None, ""),
    ];
    let issues = gitlab(&findings, "");
    let issues = issues.as_array().cloned().unwrap_or_default();
    assert_eq!(issues.len(), 3);
    assert_eq!(
        issues[0],
        json!({
            "type": "issue",
            "check_name": "varar/failed-example",
            "description": "failed: cell 1: expected more: cell 1: expected",
            "content": {"body": "cell 1: expected\nmore"},
            "categories": ["Bug Risk"],
            "severity": "major",
            "fingerprint": "0123456789abcdef0123456789abcdef",
            "location": {"path": "varar/a b,c:d%.md", "positions": {
                "begin": {"line": 13, "column": 51},
                "end": {"line": 13, "column": 56},
            }},
        })
    );
    assert_eq!(issues[1]["severity"], "minor");
    assert_eq!(issues[1]["location"]["lines"], json!({"begin": 7}));
    assert_eq!(issues[2]["severity"], "info");
    assert_eq!(issues[2]["location"]["lines"], json!({"begin": 1}));
    assert_eq!(issues[2]["description"], "failed: ");
}
