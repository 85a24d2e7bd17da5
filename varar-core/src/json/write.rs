//! Byte-stable JSON text (spec 40 §1.4, §4.3, §6): the string escaping of
//! `JSON.stringify` and a two-space pretty printer whose object key order is
//! chosen by the caller. The lock, the canonical config projection and the
//! run-result files all go through here, so their bytes never depend on how
//! `serde_json::Map` happens to be ordered in this build.

use std::cmp::Ordering;
use std::fmt::Write as _;

use serde_json::Value;

/// Append `s` as a JSON string literal, escaped exactly as `JSON.stringify`
/// does (spec 40 §4.3): `"` `\` and U+0000–U+001F only, the usual short forms,
/// `\u00xx` in lowercase hex for the rest; everything else raw UTF-8.
pub fn write_string(out: &mut String, s: &str) {
    out.push('"');
    for ch in s.chars() {
        match ch {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\u{8}' => out.push_str("\\b"),
            '\t' => out.push_str("\\t"),
            '\n' => out.push_str("\\n"),
            '\u{c}' => out.push_str("\\f"),
            '\r' => out.push_str("\\r"),
            c if (c as u32) < 0x20 => {
                // Writing into a String cannot fail.
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

/// Compare two strings by UTF-16 code units, the order `Array.prototype.sort`
/// gives object keys in the reference (spec 40 §1.4, §4.3).
pub fn cmp_utf16(a: &str, b: &str) -> Ordering {
    a.encode_utf16().cmp(b.encode_utf16())
}

/// Pretty-print `value` as `JSON.stringify(value, null, 2)` would, with the
/// members of every object ordered by `key_order`, plus one trailing LF.
pub fn to_pretty_string(value: &Value, key_order: &dyn Fn(&str, &str) -> Ordering) -> String {
    let mut out = String::new();
    write_value(&mut out, value, 0, key_order);
    out.push('\n');
    out
}

fn indent(out: &mut String, depth: usize) {
    for _ in 0..depth {
        out.push_str("  ");
    }
}

fn write_value(
    out: &mut String,
    value: &Value,
    depth: usize,
    key_order: &dyn Fn(&str, &str) -> Ordering,
) {
    match value {
        Value::Null => out.push_str("null"),
        Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Value::Number(n) => {
            let _ = write!(out, "{n}");
        }
        Value::String(s) => write_string(out, s),
        Value::Array(items) => {
            if items.is_empty() {
                out.push_str("[]");
                return;
            }
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                out.push('\n');
                indent(out, depth + 1);
                write_value(out, item, depth + 1, key_order);
            }
            out.push('\n');
            indent(out, depth);
            out.push(']');
        }
        Value::Object(map) => {
            if map.is_empty() {
                out.push_str("{}");
                return;
            }
            let mut members: Vec<(&String, &Value)> = map.iter().collect();
            members.sort_by(|a, b| key_order(a.0, b.0));
            out.push('{');
            for (i, (k, v)) in members.into_iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                out.push('\n');
                indent(out, depth + 1);
                write_string(out, k);
                out.push_str(": ");
                write_value(out, v, depth + 1, key_order);
            }
            out.push('\n');
            indent(out, depth);
            out.push('}');
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn esc(s: &str) -> String {
        let mut out = String::new();
        write_string(&mut out, s);
        out
    }

    #[test]
    fn escapes_like_json_stringify() {
        let cases: &[(&str, &str)] = &[
            ("plain", "\"plain\""),
            ("a\"b\\c", "\"a\\\"b\\\\c\""),
            ("\u{8}\t\n\u{c}\r", "\"\\b\\t\\n\\f\\r\""),
            ("\u{1}\u{1f}\u{0}", "\"\\u0001\\u001f\\u0000\""),
            (
                "\u{7f}\u{2028}\u{2029}/<>&",
                "\"\u{7f}\u{2028}\u{2029}/<>&\"",
            ),
            ("é £ 😀 —", "\"é £ 😀 —\""),
        ];
        for (input, want) in cases {
            assert_eq!(esc(input), *want, "input {input:?}");
        }
    }

    #[test]
    fn escaping_agrees_with_serde_json() {
        let s = "é £ 😀 \" \\ \u{1} \u{1f} \u{7f} \u{2028} / < > & \u{b}";
        assert_eq!(esc(s), serde_json::to_string(s).unwrap_or_default());
    }

    #[test]
    fn utf16_order_differs_from_byte_order_above_the_bmp() {
        // U+FF61 is one unit 0xFF61; U+1F600 starts with the surrogate 0xD83D.
        assert_eq!(cmp_utf16("\u{1F600}", "\u{FF61}"), Ordering::Less);
        assert_eq!("\u{1F600}".cmp("\u{FF61}"), Ordering::Greater);
    }

    #[test]
    fn pretty_printer_matches_serde_json_pretty_for_sorted_keys() {
        let v: Value =
            serde_json::json!({"b": [1, {"x": []}, "s"], "a": {}, "c": [], "d": null, "e": true});
        let ours = to_pretty_string(&v, &cmp_utf16);
        let theirs = serde_json::to_string_pretty(&v).unwrap_or_default() + "\n";
        assert_eq!(ours, theirs);
    }

    #[test]
    fn key_order_is_the_callers() {
        let v: Value = serde_json::json!({"a": 1, "b": 2});
        let reversed = to_pretty_string(&v, &|a: &str, b: &str| b.cmp(a));
        assert_eq!(reversed, "{\n  \"b\": 2,\n  \"a\": 1\n}\n");
    }
}
