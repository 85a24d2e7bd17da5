//! Test item names (spec 40 §7.3, the project decision).
//!
//! `<oathPath>::<heading>::…::<example name>`: every heading above the
//! example, innermost last, then the example's own name (cut at a readable
//! length). A header-bound row carries its binding step as the last heading,
//! so rows read `…::I report the score and grade::10 / A`. The names are
//! unique in the binary (`[1]`, `[2]`… on repeats), stable under edits
//! elsewhere in the file, and filterable by oath path and by heading.

use crate::fast_hash::{FastMap, FastSet};
use crate::text::collapse_whitespace;

/// Longest example name kept in an item name, in characters.
const MAX_NAME_CHARS: usize = 60;

/// The base name of an example item, before de-duplication.
pub fn example_item(oath_path: &str, scope_stack: &[String], name: &str) -> String {
    let mut out = String::from(oath_path);
    for heading in scope_stack {
        let heading = collapse_whitespace(heading);
        if !heading.is_empty() {
            out.push_str("::");
            out.push_str(&heading);
        }
    }
    out.push_str("::");
    out.push_str(&shorten(&collapse_whitespace(name)));
    out
}

/// Cut a name at [`MAX_NAME_CHARS`] characters, marking the cut with `…`.
fn shorten(name: &str) -> String {
    if name.chars().count() <= MAX_NAME_CHARS {
        return name.to_string();
    }
    let cut: String = name.chars().take(MAX_NAME_CHARS - 1).collect();
    format!("{}…", cut.trim_end())
}

/// Hands out unique names: the first occurrence of a base name is bare, the
/// next ones get `[1]`, `[2]`, … and the counter skips any name already taken.
#[derive(Debug, Default)]
pub struct UniqueNames {
    taken: FastSet<String>,
    counters: FastMap<String, usize>,
}

impl UniqueNames {
    /// A unique name for `base`.
    pub fn claim(&mut self, base: String) -> String {
        if self.taken.insert(base.clone()) {
            return base;
        }
        let counter = self.counters.entry(base.clone()).or_insert(0);
        loop {
            *counter += 1;
            let candidate = format!("{base}[{counter}]");
            if self.taken.insert(candidate.clone()) {
                return candidate;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(v: &[&str]) -> Vec<String> {
        v.iter().map(|x| x.to_string()).collect()
    }

    #[test]
    fn headings_then_name() {
        assert_eq!(
            example_item("varar/a.md", &s(&["Shop", "Basket"]), "I add 2 apples"),
            "varar/a.md::Shop::Basket::I add 2 apples"
        );
        assert_eq!(example_item("a.md", &[], "x"), "a.md::x");
    }

    #[test]
    fn whitespace_collapses_and_empty_headings_vanish() {
        assert_eq!(
            example_item("a.md", &s(&["", "Two  words"]), "line one\nline  two"),
            "a.md::Two words::line one line two"
        );
    }

    #[test]
    fn long_names_are_cut_readably() {
        let long = "word ".repeat(30);
        let item = example_item("a.md", &[], &long);
        let name = item.trim_start_matches("a.md::");
        assert!(name.ends_with('…'));
        assert!(name.chars().count() <= MAX_NAME_CHARS);
    }

    #[test]
    fn duplicates_are_numbered_and_never_collide() {
        let mut names = UniqueNames::default();
        assert_eq!(names.claim("a".into()), "a");
        assert_eq!(names.claim("a[1]".into()), "a[1]");
        assert_eq!(names.claim("a".into()), "a[2]");
        assert_eq!(names.claim("a".into()), "a[3]");
        assert_eq!(names.claim("b".into()), "b");
    }
}
