//! Markdown-like text for property tests: fragments of every construct the
//! parser cares about, and whole lines of nested containers.

use proptest::prelude::*;

/// Fragments that exercise every block rule and every position hazard
/// (CRLF, BOM, tabs, astral chars, combining marks).
const FRAGMENTS: &[&str] = &[
    "#",
    "## ",
    " ",
    "  ",
    "    ",
    "\t",
    "-",
    "- ",
    "* ",
    "+",
    "1. ",
    "2)",
    ">",
    "> ",
    "|",
    " | ",
    "\\|",
    "|---|",
    "| - |",
    "```",
    "````",
    "~~~",
    "`",
    "\"",
    "\n",
    "\n",
    "\n",
    "\r\n",
    "\n\n",
    "a",
    "word",
    "I add 2.",
    "😀",
    "e\u{301}",
    "\u{feff}",
    "---",
    "***",
    "===",
    "<!-- x -->",
    "<div>",
    "[r]: u",
    "*x*",
    ".",
    "!",
    "?",
    "\\",
    "é",
    "日",
    "\r",
    "\u{a0}",
    "text",
    "1.",
    "10)",
    "  - ",
    "> >",
    "```js x",
    "| a | b |\n|---|---|\n",
    "&amp;",
    "[l](u)",
];

/// Line prefixes that nest containers.
const PREFIXES: &[&str] = &[
    "", "", "> ", ">", "- ", "* ", "1. ", "  ", "   ", "    ", "\t", "> - ", "- > ", "  - ", ">  ",
    "> > ", "10) ", "\u{feff}",
];

/// Line contents.
const CONTENTS: &[&str] = &[
    "",
    "a",
    "I add 2 apples.",
    "```",
    "```text",
    "~~~",
    "| a | b |",
    "|---|---|",
    "a | b",
    "# H",
    "Title #",
    "---",
    "***",
    "===",
    "<!-- c -->",
    "😀 e\u{301}",
    "x  ",
    "\\",
    "- ",
];

/// Documents of whole lines: nested container prefixes, block openers and
/// text, with LF or CRLF endings.
pub fn nested_lines() -> impl Strategy<Value = String> {
    let line = (
        prop::sample::select(PREFIXES),
        prop::sample::select(PREFIXES),
        prop::sample::select(CONTENTS),
        prop::sample::select(&["\n", "\n", "\r\n"][..]),
    )
        .prop_map(|(a, b, c, end)| format!("{a}{b}{c}{end}"));
    prop::collection::vec(line, 0..16).prop_map(|v| v.concat())
}

pub fn markdownish() -> impl Strategy<Value = String> {
    prop::collection::vec(prop::sample::select(FRAGMENTS), 0..48).prop_map(|v| v.concat())
}
