//! The naming scheme (spec 40 §7.3–7.4): an example's name from its oath,
//! headings and text, the names of the items that are not examples, what a
//! name says read back, and the `[n]` that keeps every name unique.

use std::hash::{Hash, Hasher};
use std::sync::Arc;

use crate::fast_hash::{Fast, FastMap, FastSet};
use crate::json::write::push_uint;
use crate::plan::DiagnosticCode;
use crate::text::{collapse_whitespace, push_collapsed};

/// The kind libtest-mimic prints before every item name (`[varar] name`),
/// which `cargo nextest` may hand back to `--exact`.
pub const KIND_PREFIX: &str = "[varar] ";

/// What kind of test item a name is (spec 40 §7.3–7.4).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[non_exhaustive]
pub enum ItemKind {
    /// A planned example.
    Example,
    /// A baseline example that no longer matches any step (spec 40 §5).
    Drift,
    /// A plan diagnostic (spec 20 §20.9, 70 §70.3.4).
    Diagnostic,
    /// A file discovery found but could not read (spec 40 §2.4).
    ReadError,
}

impl ItemKind {
    /// The kind as written in machine-readable output.
    pub fn as_str(self) -> &'static str {
        match self {
            ItemKind::Example => "example",
            ItemKind::Drift => "drift",
            ItemKind::Diagnostic => "diagnostic",
            ItemKind::ReadError => "read-error",
        }
    }
}

/// The base name of a drift item (its line is the drifted candidate's).
pub fn drift_item(oath_path: &str, line: u32) -> String {
    format!("{oath_path}::varar:drift:{line}")
}

/// The base name of a diagnostic item, in the document it is written in.
pub fn diagnostic_item(document: &str, code: DiagnosticCode, line: u32) -> String {
    format!("{document}::varar:diagnostic:{}:{line}", code.as_str())
}

/// The name of the item of a path that could not be read.
pub fn read_error_item(path: &str) -> String {
    format!("{path}::varar:read-error")
}

/// What a full item name says, read back from the name alone.
///
/// ```
/// use varar_core::names::{ItemKind, ItemName};
/// let drift = ItemName::parse("varar/shelf.md::varar:drift:22[1]");
/// assert_eq!((drift.kind, drift.line), (ItemKind::Drift, Some(22)));
/// let example = ItemName::parse("[varar] varar/a.md::Shop::I add 2");
/// assert_eq!(example.kind, ItemKind::Example);
/// assert!(example.belongs_to("varar/a.md"));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct ItemName<'a> {
    /// The name without libtest's `[varar] ` kind prefix.
    pub name: &'a str,
    /// Its kind.
    pub kind: ItemKind,
    /// For drift and diagnostics: the line in the name.
    pub line: Option<u32>,
    /// For diagnostics: the code as written (`ambiguous-match`, …).
    pub code: Option<&'a str>,
    /// For drift, diagnostics and read errors: the path before `::varar:`.
    pub path: Option<&'a str>,
}

impl<'a> ItemName<'a> {
    /// Read a name (with or without the kind prefix).
    pub fn parse(name: &'a str) -> ItemName<'a> {
        let name = name.strip_prefix(KIND_PREFIX).unwrap_or(name);
        let plain = ItemName {
            name,
            kind: ItemKind::Example,
            line: None,
            code: None,
            path: None,
        };
        let Some((path, rest)) = name.rsplit_once("::varar:") else {
            return plain;
        };
        // The `[n]` of a repeated name is not part of what it says.
        let rest = match rest.rfind('[') {
            Some(i) if rest.ends_with(']') => &rest[..i],
            _ => rest,
        };
        let line = |s: &str| s.parse::<u32>().ok();
        if rest == "read-error" {
            return ItemName {
                kind: ItemKind::ReadError,
                path: Some(path),
                ..plain
            };
        }
        if let Some(l) = rest.strip_prefix("drift:").and_then(line) {
            return ItemName {
                kind: ItemKind::Drift,
                line: Some(l),
                path: Some(path),
                ..plain
            };
        }
        if let Some((code, l)) = rest
            .strip_prefix("diagnostic:")
            .and_then(|r| r.rsplit_once(':'))
            && let Some(l) = line(l)
        {
            return ItemName {
                kind: ItemKind::Diagnostic,
                line: Some(l),
                code: Some(code),
                path: Some(path),
                ..plain
            };
        }
        plain
    }

    /// Whether the item belongs to the oath (or unreadable path) `path`:
    /// its name starts with `<path>::`.
    pub fn belongs_to(&self, path: &str) -> bool {
        ItemName::name_belongs_to(self.name, path)
    }

    /// [`ItemName::belongs_to`] of the item named `name`, without reading
    /// the rest of the name (a selection asks it of every oath).
    ///
    /// ```
    /// use varar_core::names::ItemName;
    /// assert!(ItemName::name_belongs_to("[varar] a.md::H::x", "a.md"));
    /// assert!(!ItemName::name_belongs_to("a.md.bak::H::x", "a.md"));
    /// ```
    pub fn name_belongs_to(name: &str, path: &str) -> bool {
        name.strip_prefix(KIND_PREFIX)
            .unwrap_or(name)
            .strip_prefix(path)
            .is_some_and(|rest| rest.starts_with("::"))
    }
}

/// The base name of an example item, before de-duplication.
pub fn example_item(oath_path: &str, scope_stack: &[String], name: &str) -> String {
    with_example_name(headings_part(oath_path, scope_stack), name)
}

/// `<oathPath>::<heading>::<heading>`: what the names of the examples
/// under the same headings start with.
fn headings_part(oath_path: &str, scope_stack: &[String]) -> String {
    let mut out = String::from(oath_path);
    for heading in scope_stack {
        let heading = collapse_whitespace(heading);
        if !heading.is_empty() {
            out.push_str("::");
            out.push_str(&heading);
        }
    }
    out
}

fn with_example_name(mut out: String, name: &str) -> String {
    out.reserve(2 + name.len());
    out.push_str("::");
    push_collapsed(&mut out, name);
    out
}

/// [`example_item`] for each example of one oath in turn, the headings
/// part made once for a run of examples under the same headings (their
/// `scope_stack` is one shared list).
///
/// ```
/// # use std::sync::Arc;
/// # use varar_core::names::{ExampleItems, example_item};
/// let headings: Arc<[String]> = Arc::from(vec!["Shop".to_owned()]);
/// let mut items = ExampleItems::new("varar/a.md");
/// assert_eq!(items.name(&headings, "I add 2"), example_item("varar/a.md", &headings, "I add 2"));
/// assert_eq!(items.name(&headings, "I add 3"), "varar/a.md::Shop::I add 3");
/// ```
#[derive(Debug)]
pub struct ExampleItems<'a> {
    oath_path: &'a str,
    last: Option<(Arc<[String]>, String)>,
}

impl<'a> ExampleItems<'a> {
    /// The names of the examples of `oath_path`.
    pub fn new(oath_path: &'a str) -> Self {
        ExampleItems {
            oath_path,
            last: None,
        }
    }

    /// The base name of an example under `scope_stack` named `name`.
    pub fn name(&mut self, scope_stack: &Arc<[String]>, name: &str) -> String {
        let part = match &self.last {
            Some((stack, part)) if Arc::ptr_eq(stack, scope_stack) => part,
            _ => {
                let part = headings_part(self.oath_path, scope_stack);
                &self.last.insert((Arc::clone(scope_stack), part)).1
            }
        };
        // The whole name in one string, its room taken at once.
        let mut out = String::with_capacity(part.len() + 2 + name.len());
        out.push_str(part);
        with_example_name(out, name)
    }
}

/// Hands out unique names: the first occurrence of a base name is bare, the
/// next ones get `[1]`, `[2]`, … and the counter skips any name already taken.
///
/// A name is kept once, shared with the caller (`Arc<str>`): a run of
/// thousands of items holds each name once, not once per user of it.
#[derive(Debug, Default)]
pub struct UniqueNames {
    taken: FastSet<Hashed>,
    /// The last counter given to each base that was repeated.
    counters: FastMap<Hashed, usize>,
}

/// A name and the hash of its bytes, computed once: a repeated name is
/// looked up several times (in `taken`, its counter, its candidates), and
/// each lookup then costs a word's hash, not the name's (a base used 180
/// times in a long oath is no rarity).
#[derive(Clone, Debug)]
struct Hashed {
    hash: u64,
    name: Arc<str>,
}

impl Hashed {
    fn new(name: Arc<str>) -> Hashed {
        let mut hasher = Fast::default();
        hasher.write(name.as_bytes());
        Hashed {
            hash: hasher.finish(),
            name,
        }
    }
}

impl PartialEq for Hashed {
    fn eq(&self, other: &Hashed) -> bool {
        self.hash == other.hash && self.name == other.name
    }
}

impl Eq for Hashed {}

impl Hash for Hashed {
    fn hash<H: Hasher>(&self, state: &mut H) {
        state.write_u64(self.hash);
    }
}

impl UniqueNames {
    /// Room for `additional` more names without growing (what a run that
    /// knows its number of items claims at once, instead of rehashing its
    /// set of names a dozen times).
    pub fn reserve(&mut self, additional: usize) {
        self.taken.reserve(additional);
    }

    /// A unique name for `base`: itself when it is new, so a name made
    /// shared (`Arc<str>`) ahead, on another thread, is kept as it is.
    pub fn claim(&mut self, base: impl Into<Arc<str>>) -> Arc<str> {
        // Inserted at once: a name is looked up once when it is new
        // (nearly every name is).
        let base = Hashed::new(base.into());
        if self.taken.insert(base.clone()) {
            return base.name;
        }
        let counter = self.counters.entry(base.clone()).or_insert(0);
        loop {
            *counter += 1;
            let mut candidate = String::with_capacity(base.name.len() + 8);
            candidate.push_str(&base.name);
            candidate.push('[');
            push_uint(&mut candidate, u64::try_from(*counter).unwrap_or(u64::MAX));
            candidate.push(']');
            let candidate = Hashed::new(Arc::from(candidate));
            if self.taken.insert(candidate.clone()) {
                return candidate.name;
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
    fn the_names_of_an_oath_in_turn_are_those_made_one_by_one() {
        let shop: Arc<[String]> = Arc::from(s(&["Shop", "Two  words"]));
        let till: Arc<[String]> = Arc::from(s(&["Till"]));
        let none: Arc<[String]> = Arc::from(s(&[]));
        // The same list again, then another, then the first once more, and
        // an equal list that is not the same one.
        let shop_again: Arc<[String]> = Arc::from(s(&["Shop", "Two  words"]));
        let order = [&shop, &shop, &till, &shop, &none, &shop_again];
        let mut items = ExampleItems::new("varar/a.md");
        for (i, stack) in order.into_iter().enumerate() {
            let name = format!("I add  {i}\napples");
            assert_eq!(
                items.name(stack, &name),
                example_item("varar/a.md", stack, &name)
            );
        }
    }

    #[test]
    fn every_kind_of_item_reads_back_as_it_was_written() {
        let cases = [
            (
                drift_item("varar/shelf.md", 22),
                ItemKind::Drift,
                Some(22),
                None,
            ),
            (
                diagnostic_item("varar/a b.md", DiagnosticCode::ReferenceCycle, 5),
                ItemKind::Diagnostic,
                Some(5),
                Some("reference-cycle"),
            ),
            (
                read_error_item("varar/x.md"),
                ItemKind::ReadError,
                None,
                None,
            ),
        ];
        for (name, kind, line, code) in cases {
            for written in [
                name.clone(),
                format!("{name}[3]"),
                format!("{KIND_PREFIX}{name}"),
            ] {
                let item = ItemName::parse(&written);
                assert_eq!(
                    (item.kind, item.line, item.code),
                    (kind, line, code),
                    "{written}"
                );
                assert!(item.path.is_some_and(|p| name.starts_with(p)), "{written}");
            }
        }
        let example = ItemName::parse("varar/a.md::Shop::the varar:drift:x thing");
        assert_eq!(example.kind, ItemKind::Example);
        assert!(example.belongs_to("varar/a.md"));
        assert!(!example.belongs_to("varar/a"));
        assert!(!ItemName::parse("varar/a.mdx::y").belongs_to("varar/a.md"));
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
        assert_eq!(&*names.claim("a"), "a");
        assert_eq!(&*names.claim("a[1]"), "a[1]");
        assert_eq!(&*names.claim("a"), "a[2]");
        assert_eq!(&*names.claim("a"), "a[3]");
        assert_eq!(&*names.claim("b"), "b");
    }
}
