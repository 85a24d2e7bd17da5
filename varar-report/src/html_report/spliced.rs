//! What a link paragraph splices (spec 70 §70.3.1), for the reader to
//! expand under it: the paragraphs of the linked section, read from the
//! linked oath's text as it is now. Pure.
//!
//! Every candidate of the section is listed (prose too: the report cannot
//! tell which ones match a step), a nested link paragraph as its link, one
//! level deep. A link that points at no oath of the report, or at a
//! section that is empty, says so instead.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use varar_core::doc::Doc;
use varar_core::workspace::Document;

use super::html::escape;
use super::links::Links;

/// The HTML to put under each link paragraph of `doc` (written in the
/// oath `oath_path`), by the start line of its text block. `texts` are
/// the texts of every oath of the report.
pub fn expansions(
    oath_path: &str,
    doc: &Doc,
    texts: &BTreeMap<&str, &str>,
    links: &Links<'_>,
) -> BTreeMap<u32, String> {
    let mut out = BTreeMap::new();
    for c in &doc.examples {
        let Some(r) = varar_core::reference::recognise(&c.body.text.text, oath_path) else {
            continue;
        };
        let mut html = String::from("<details class=\"varar-spliced\"><summary>");
        let href = links.page(&r.path).map(|mut h| {
            if !r.slug.is_empty() {
                h.push('#');
                h.push_str(&r.slug);
            }
            h
        });
        let location = escape(&r.location());
        let steps = texts
            .get(r.path.as_str())
            .map(|text| section(&r.path, text, &r.slug));
        match (&steps, href) {
            (Some(steps), Some(href)) if !steps.is_empty() => {
                let _ = write!(
                    html,
                    "the steps it splices, from <a href=\"{}\">{location}</a></summary>\n<ol>\n",
                    escape(&href)
                );
            }
            (Some(steps), _) if !steps.is_empty() => {
                let _ = write!(
                    html,
                    "the steps it splices, from {location}</summary>\n<ol>\n"
                );
            }
            (Some(_), _) => {
                let _ = writeln!(html, "{location} is empty</summary>");
            }
            (None, _) => {
                let _ = writeln!(html, "{location} is not an oath of this report</summary>");
            }
        }
        if let Some(steps) = steps.filter(|s| !s.is_empty()) {
            for step in steps {
                let _ = writeln!(html, "<li>{}</li>", escape(&step));
            }
            html.push_str("</ol>\n");
        }
        html.push_str("</details>\n");
        out.insert(c.body.text.span.start_line, html);
    }
    out
}

/// The text of every candidate of section `slug` of the oath `path`.
fn section(path: &str, text: &str, slug: &str) -> Vec<String> {
    let document = Document::parse(path, text);
    document
        .section(slug)
        .into_iter()
        .filter_map(|i| document.doc().examples.get(i))
        .map(|c| {
            c.body
                .text
                .text
                .split_whitespace()
                .collect::<Vec<_>>()
                .join(" ")
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;

    use varar_core::parse::parse;
    use varar_core::source::Source;

    use super::*;

    #[test]
    fn a_link_paragraph_expands_to_the_paragraphs_of_its_section() {
        let shop =
            "# Shop\n\n## Stocking the shelf\n\nI stock 12 <croissants>.\n\n## Other\n\nI sweep.\n";
        let main =
            "# Main\n\n[Stock](shop.md#stocking-the-shelf)\n\nI sell 2.\n\n[Gone](gone.md)\n";
        let texts = BTreeMap::from([("varar/shop.md", shop), ("varar/main.md", main)]);
        let oaths: BTreeSet<String> = texts.keys().map(|k| (*k).to_owned()).collect();
        let links = Links {
            from: "varar/main.md",
            oaths: &oaths,
        };
        let doc = parse("varar/main.md", &Source::new(main));
        let html = expansions("varar/main.md", &doc, &texts, &links);
        assert_eq!(html.keys().copied().collect::<Vec<_>>(), [3, 7]);
        assert_eq!(
            html[&3],
            "<details class=\"varar-spliced\"><summary>the steps it splices, from <a \
             href=\"../../oaths/varar/shop.md.html#stocking-the-shelf\">varar/shop.md#stocking-the-shelf</a></summary>\n\
             <ol>\n<li>I stock 12 &lt;croissants&gt;.</li>\n</ol>\n</details>\n"
        );
        assert!(html[&7].contains("varar/gone.md is not an oath of this report"));
    }
}
