//! Helpers shared by the report's unit tests.

use std::collections::BTreeMap;

use varar_core::results::{
    Anchor, CellFailure, DocumentHash, ExampleResult, OathResults, ResultFailure, Status,
};

use crate::html_report::links::Links;
use crate::html_report::markdown::{Rendered, render};
use crate::html_report::overlay::{self, Foreign, Overlay};
use crate::html_report::{OathInput, ResultsInput, Site};
use varar_core::hash::source_hash;
use varar_core::parse::parse;
use varar_core::source::Source;

/// An oath whose results (if any) the latest run, which read `text`,
/// wrote.
pub fn oath(path: &str, text: &str, results: ResultsInput) -> OathInput {
    OathInput {
        oath_path: path.into(),
        text: Ok(text.into()),
        results,
        vouched: varar_core::verdict::testing::vouched(&[(path, text)]),
    }
}

/// The file of the site at `path`.
pub fn file<'a>(site: &'a Site, path: &str) -> &'a str {
    site.files
        .iter()
        .find(|f| f.path == path)
        .map(|f| f.contents.as_str())
        .unwrap_or_else(|| {
            panic!(
                "no {path} in {:?}",
                site.files.iter().map(|f| &f.path).collect::<Vec<_>>()
            )
        })
}

/// The UTF-16 range of the `nth` occurrence of `needle` in `text`.
pub fn range_of(text: &str, needle: &str, nth: usize) -> (u32, u32) {
    let byte = text
        .match_indices(needle)
        .nth(nth)
        .map(|(i, _)| i)
        .unwrap_or_else(|| panic!("{needle:?} not in {text:?}"));
    let from = text[..byte].encode_utf16().count() as u32;
    (from, from + needle.encode_utf16().count() as u32)
}

/// A failed example with these cells (or this anchor).
pub fn failed(
    name: &str,
    lines: Vec<u32>,
    cells: &[(u32, u32, &str)],
    anchor: Option<(u32, u32)>,
) -> ExampleResult {
    ExampleResult {
        name: name.into(),
        status: Status::Failed,
        lines,
        failure: Some(ResultFailure {
            line: 0,
            message: "the message".into(),
            stack: String::new(),
            cells: cells
                .iter()
                .map(|&(from, to, actual)| CellFailure {
                    from,
                    to,
                    actual: actual.into(),
                })
                .collect(),
            anchor: anchor.map(|(from, to)| Anchor { from, to }),
            doc_path: None,
        }),
    }
}

/// A passed example.
pub fn passed(name: &str, lines: Vec<u32>) -> ExampleResult {
    ExampleResult {
        name: name.into(),
        status: Status::Passed,
        lines,
        failure: None,
    }
}

/// Fresh results of `text` at `oath_path`.
pub fn results_of(oath_path: &str, text: &str, examples: Vec<ExampleResult>) -> OathResults {
    OathResults {
        version: 1,
        oath_path: oath_path.into(),
        source_hash: source_hash(text),
        documents: Vec::new(),
        examples,
    }
}

/// Overlay and rendering of one oath with its own results.
pub fn draw(text: &str, results: &OathResults, foreign: &[Foreign<'_>]) -> (Overlay, Rendered) {
    let source = Source::new(text);
    let doc = parse(&results.oath_path, &source);
    let overlay = overlay::build(&source, &doc, Some(results), foreign, None);
    let oaths = std::collections::BTreeSet::new();
    let links = Links {
        from: &results.oath_path,
        oaths: &oaths,
    };
    let rendered = render(text, &overlay, &links);
    (overlay, rendered)
}

/// The text inside every `<mark>` of each note (1-based), concatenated.
pub fn marks_by_note(html: &str) -> BTreeMap<usize, String> {
    let mut out: BTreeMap<usize, String> = BTreeMap::new();
    let mut rest = html;
    while let Some(i) = rest.find("<mark ") {
        rest = &rest[i..];
        let tag_end = rest.find('>').unwrap_or(rest.len());
        let tag = &rest[..tag_end];
        let note: usize = tag
            .split("data-varar-note=\"")
            .nth(1)
            .and_then(|s| s.split('"').next())
            .and_then(|n| n.parse().ok())
            .unwrap_or_else(|| panic!("a mark without a note: {tag}"));
        let body_end = rest.find("</mark>").unwrap_or(rest.len());
        let body = &rest[tag_end + 1..body_end];
        out.entry(note).or_default().push_str(&unescape(body));
        rest = &rest[body_end..];
    }
    out
}

/// Undo [`crate::html_report::html::escape`].
pub fn unescape(s: &str) -> String {
    s.replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&#39;", "'")
        .replace("&amp;", "&")
}

/// An oath that links to a section of another document.
pub const CHECKOUT: &str =
    "# Checkout\n\nI add 1.\n\n[Fill](shared.md#fill)\n\nThen the total is 3.\n";
/// The linked document.
pub const SHARED: &str = "# Shared\n\n## Fill\n\nI add 2.\n";

/// Version-2 results of [`CHECKOUT`] whose one example failed at the `2`
/// of [`SHARED`] (`docPath`), recording `shared_hash` for it.
pub fn checkout_results(shared_hash: String) -> OathResults {
    let (from, to) = range_of(SHARED, "2", 0);
    let mut r = results_of(
        "varar/checkout.md",
        CHECKOUT,
        vec![failed(
            "I add 1",
            vec![3, 7],
            &[(from, to, "5")],
            Some((from, to)),
        )],
    );
    r.version = 2;
    r.documents = vec![DocumentHash {
        path: "varar/shared.md".into(),
        source_hash: shared_hash,
    }];
    if let Some(f) = r.examples[0].failure.as_mut() {
        f.doc_path = Some("varar/shared.md".into());
        f.line = 5;
    }
    r
}
