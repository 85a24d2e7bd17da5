//! Test item names (spec 40 §7.3, the project decision).
//!
//! `<oathPath>::<heading>::…::<example name>`: every heading above the
//! example, innermost last, then the example's whole name (whitespace runs
//! collapsed, never cut: a filter with any part of the name must select
//! it). A header-bound row carries its binding step as the last heading,
//! so rows read `…::I report the score and grade::10 / A`. The names are
//! unique in the binary (`[1]`, `[2]`… on repeats), stable under edits
//! elsewhere in the file, and filterable by oath path, by heading and by
//! any words of the example.

use crate::fast_hash::{FastMap, FastSet};
use crate::text::collapse_whitespace;

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
    out.push_str(&collapse_whitespace(name));
    out
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
    fn issue10_8_long_names_are_kept_whole() {
        let long = "I put every loaf we baked this morning on the shelf and my change is £2.50";
        let item = example_item("a.md", &s(&["Shop"]), long);
        assert_eq!(item, format!("a.md::Shop::{long}"));
        assert!(
            item.contains("my change is"),
            "a filter on the end selects it"
        );
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
