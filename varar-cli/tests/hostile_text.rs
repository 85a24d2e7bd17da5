//! Failure text a step does not control the size or the bytes of (issue
//! 34), end to end: real `cargo test` runs of a copy of
//! `tests/fixtures/hostile` (a step that panics with 20 MiB, a sensor that
//! returns 20 MiB, a step whose panic message holds ESC, BEL, NUL and
//! U+202E), then the real `cargo varar` on what they left behind.

#[path = "../../tests/tests/support/mod.rs"]
mod support;

use std::path::{Path, PathBuf};

use support::Sample;

/// The cut's limit (`varar_core::untrusted::TEXT_LIMIT`).
const LIMIT: usize = 64 * 1024;
/// 20 MiB, what the steps fail with.
const HUGE: usize = 20 * 1024 * 1024;
/// Far above what a few cut messages take, far below one uncut message.
const BOUND: usize = 16 * LIMIT;

fn fixture() -> Sample {
    Sample::copy_of(
        "tests/fixtures/hostile",
        r#"oathmark = { path = "../../../varar" }"#,
    )
}

/// `cargo varar <args>` in the copy: exit code, stdout, stderr.
fn varar(sample: &Sample, args: &[&str]) -> (Option<i32>, String, String) {
    sample.output_of(env!("CARGO_BIN_EXE_cargo-varar"), args)
}

/// What the note of a 20 MiB text cut at the limit says.
fn note() -> String {
    format!("… [{} bytes cut]", HUGE - (LIMIT - 36))
}

/// The start of `text`, for a failure message that must not print 20 MB.
fn head(text: &str) -> &str {
    let mut end = text.len().min(2000);
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    &text[..end]
}

fn assert_bounded(what: &str, text: &str) {
    assert!(
        text.len() < BOUND,
        "{what} holds {} bytes (bound {BOUND}):\n{}",
        text.len(),
        head(text)
    );
    assert!(
        text.contains(&note()),
        "{what} does not say how much was cut:\n{}",
        head(text)
    );
}

/// Every file under `dir`, recursively.
fn files_under(dir: &Path) -> Vec<PathBuf> {
    let mut found = Vec::new();
    let mut todo = vec![dir.to_path_buf()];
    while let Some(dir) = todo.pop() {
        for entry in std::fs::read_dir(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display())) {
            let path = entry.unwrap_or_else(|e| panic!("{e}")).path();
            if path.is_dir() {
                todo.push(path);
            } else {
                found.push(path);
            }
        }
    }
    found
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

#[test]
fn issue34_a_20_mb_panic_and_a_20_mb_actual_value_are_cut_everywhere_they_are_kept_or_shown() {
    let sample = fixture();
    let run = sample.run(&["test"], &[]);
    run.assert_code(101, "the huge steps fail");
    assert_bounded("the cargo test output", &run.stdout);

    let result = read(&sample.root().join(".varar/varar/huge.md.json"));
    assert_bounded("the result file", &result);
    let parsed: serde_json::Value = serde_json::from_str(&result).unwrap_or_else(|e| panic!("{e}"));
    let examples = parsed["examples"].as_array().cloned().unwrap_or_default();
    let actual = examples
        .iter()
        .find_map(|e| e["failure"]["cells"][0]["actual"].as_str())
        .unwrap_or_else(|| panic!("no failing cell:\n{}", head(&result)));
    assert!(
        actual.len() <= LIMIT && actual.ends_with(&note()),
        "{}",
        head(actual)
    );
    for e in &examples {
        let stack = e["failure"]["stack"].as_str().unwrap_or_default();
        assert!(stack.len() <= LIMIT, "stack of {}", e["name"]);
        assert!(
            stack.contains("    at "),
            "the frame is kept: {}",
            &stack[stack.len().saturating_sub(200)..]
        );
    }

    let runs = files_under(&sample.root().join(".varar/.runs"));
    assert_eq!(runs.len(), 1, "{runs:?}");
    assert_bounded("the run record", &read(&runs[0]));

    let (code, gate, _) = varar(&sample, &["gate"]);
    assert_eq!(code, Some(1), "{}", head(&gate));
    assert_bounded("the gate's text", &gate);
    let (code, gate_json, _) = varar(&sample, &["gate", "--format", "json"]);
    assert_eq!(code, Some(1), "{}", head(&gate_json));
    assert_bounded("the gate's JSON", &gate_json);
    let (code, junit, _) = varar(&sample, &["junit"]);
    assert_eq!(code, Some(0), "{}", head(&junit));
    assert_bounded("the JUnit XML", &junit);

    let site = sample.root().join("target/site");
    let shown = site.display().to_string();
    let (code, _, stderr) = varar(&sample, &["report", "--out", &shown]);
    assert_eq!(code, Some(0), "{stderr}");
    let pages: Vec<String> = files_under(&site).iter().map(|p| read(p)).collect();
    let total: usize = pages.iter().map(String::len).sum();
    assert!(total < BOUND, "the report holds {total} bytes");
    assert!(
        pages.iter().any(|p| p.contains(&note())),
        "the report does not say how much was cut"
    );
}

/// `text` without the colour sequences (`ESC [ digits ; m`) libtest and
/// Varar paint with.
fn without_colour(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find('\u{1b}') {
        out.push_str(&rest[..at]);
        let after = &rest[at + 1..];
        let sgr = after.strip_prefix('[').and_then(|s| {
            let end = s.find(|c: char| !(c.is_ascii_digit() || c == ';'))?;
            s[end..].starts_with('m').then(|| &s[end + 1..])
        });
        match sgr {
            Some(next) => rest = next,
            None => {
                out.push('\u{1b}');
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

/// Panics unless `text` holds no raw control character (but line breaks
/// and tabs) and no bidirectional control.
fn assert_no_raw_control(what: &str, text: &str) {
    let raw: Vec<(usize, char)> = text
        .char_indices()
        .filter(|(_, c)| {
            (c.is_control() && *c != '\n' && *c != '\t')
                || matches!(c, '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}')
        })
        .collect();
    assert!(raw.is_empty(), "{what} holds raw controls {raw:?}:\n{text}");
}

const ESCAPED: &str = r"esc\u{001B}[2J bel\u{0007} nul\u{0000} rlo\u{202E}txt";

#[test]
fn issue34_esc_bel_nul_and_an_rlo_override_in_a_panic_message_reach_no_terminal_raw() {
    let sample = fixture();
    // In colour, as on a terminal: libtest-mimic strips nothing then.
    let run = sample.run(&["test", "--", "--color", "always"], &[]);
    run.assert_code(101, "the hostile steps fail");
    assert_no_raw_control("the cargo test output", &without_colour(&run.stdout));
    assert_no_raw_control("the cargo test stderr", &without_colour(&run.stderr));
    assert!(run.stdout.contains(ESCAPED), "{}", head(&run.stdout));

    let (code, gate, stderr) = varar(&sample, &["gate"]);
    assert_eq!(code, Some(1), "{}", head(&gate));
    assert_no_raw_control("the gate's text", &gate);
    assert_no_raw_control("the gate's stderr", &stderr);
    assert!(
        gate.contains(&format!("    {ESCAPED}\n")),
        "{}",
        head(&gate)
    );
}

/// Replace every failure's `message`, `stack` and cell `actual` of a
/// result file, and every item's `message` of a record, with `text`.
fn craft(value: &mut serde_json::Value, text: &str) {
    use serde_json::Value;
    match value {
        Value::Object(map) => {
            for (key, member) in map.iter_mut() {
                match (key.as_str(), &member) {
                    ("message" | "stack" | "actual", Value::String(_)) => {
                        *member = Value::String(text.to_owned());
                    }
                    _ => craft(member, text),
                }
            }
        }
        Value::Array(items) => items.iter_mut().for_each(|v| craft(v, text)),
        _ => {}
    }
}

fn rewrite(path: &Path, text: &str) {
    let mut value: serde_json::Value =
        serde_json::from_str(&read(path)).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    craft(&mut value, text);
    let written = serde_json::to_string_pretty(&value).unwrap_or_else(|e| panic!("{e}"));
    std::fs::write(path, written).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
}

#[test]
fn issue34_a_crafted_result_file_and_record_holding_20_mb_of_controls_are_cut_and_escaped_by_every_consumer()
 {
    let sample = fixture();
    sample
        .run(&["test"], &[])
        .assert_code(101, "the hostile steps fail");
    // What an older harness, or anyone with write access to an artifact,
    // may leave: 20 MiB messages that start by driving the terminal.
    let controls = "esc\u{1b}[2J bel\u{7} nul\u{0} rlo\u{202e}txt";
    let hostile = format!("{controls}{}", "z".repeat(HUGE - controls.len()));
    let varar_dir = sample.root().join(".varar");
    for path in files_under(&varar_dir) {
        let name = path.to_string_lossy();
        if name.ends_with(".md.json") || name.ends_with(".run") {
            rewrite(&path, &hostile);
        }
    }

    let (code, gate, stderr) = varar(&sample, &["gate"]);
    assert_eq!(code, Some(1), "{}\n{stderr}", head(&gate));
    assert_bounded("the gate's text", &gate);
    assert_no_raw_control("the gate's text", &gate);
    assert!(gate.contains(ESCAPED), "{}", head(&gate));
    let (_, gate_json, _) = varar(&sample, &["gate", "--format", "json"]);
    assert_bounded("the gate's JSON", &gate_json);
    let (_, junit, _) = varar(&sample, &["junit"]);
    assert_bounded("the JUnit XML", &junit);
    assert_no_raw_control("the JUnit XML", &junit);

    let site = sample.root().join("target/site");
    let (code, _, stderr) = varar(&sample, &["report", "--out", &site.display().to_string()]);
    assert_eq!(code, Some(0), "{stderr}");
    let total: usize = files_under(&site).iter().map(|p| read(p).len()).sum();
    assert!(total < BOUND, "the report holds {total} bytes");

    std::fs::create_dir_all(sample.root().join("empty")).unwrap_or_else(|e| panic!("{e}"));
    let (_, diff, stderr) = varar(&sample, &["diff", "empty", ".varar"]);
    assert_bounded("the diff", &diff);
    assert_no_raw_control("the diff", &diff);
    assert_no_raw_control("the diff's stderr", &stderr);
    assert!(diff.contains(ESCAPED), "{}", head(&diff));

    let (code, _, stderr) = varar(&sample, &["merge", "merged", ".varar"]);
    assert_eq!(code, Some(0), "{stderr}");
    for path in files_under(&sample.root().join("merged")) {
        let text = read(&path);
        assert!(
            text.len() < BOUND,
            "{} holds {} bytes",
            path.display(),
            text.len()
        );
    }
}
