//! The test items `cargo test` makes of planned oaths (spec 40 §7.3–7.4),
//! named exactly as the harness names them (pure).
//!
//! Every name comes from [`varar_core::names`], claimed in the harness's
//! order so that the `[1]`, `[2]`… of a repeated name fall where the
//! harness puts them: for each oath in discovery order, its examples in
//! plan order, then the diagnostics written in it, then its drift; last,
//! the diagnostics written in documents that were not planned themselves
//! (a section an oath links to), by document. A diagnostic belongs to the
//! document its span lies in and is one item however many plans meet it
//! (spec 70 §70.6.6): the same document, span, code and message once.
//!
//! `cargo varar check` lists the drift and diagnostic items (what the run
//! would fail before any step runs); the language server's "Run" lenses
//! pass an example's name to `cargo test -- --exact`.

use std::collections::{BTreeMap, HashSet};

use varar_core::drift::Drift;
use varar_core::names::{ExampleItems, ItemKind, UniqueNames, diagnostic_item, drift_item};
use varar_core::plan::{Diagnostic, Plan, PlannedExample};

/// One planned oath: its oathPath, its plan and its drift against the lock.
#[derive(Clone, Copy, Debug)]
pub struct PlannedOath<'a> {
    /// Its oathPath.
    pub path: &'a str,
    /// Its plan (among the other oaths, spec 70).
    pub plan: &'a Plan,
    /// Its drift.
    pub drifts: &'a [Drift],
}

/// What an item stands for.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum ItemSource<'a> {
    /// An example of the plan, by its index there.
    Example(usize, &'a PlannedExample),
    /// A plan diagnostic.
    Diagnostic(&'a Diagnostic),
    /// A drifted baseline example.
    Drift(&'a Drift),
}

/// One test item.
#[derive(Clone, Debug, PartialEq)]
pub struct Item<'a> {
    /// Its full name (without libtest's `[varar] ` kind).
    pub name: String,
    /// The document it belongs to: the oath of an example or of a drift,
    /// the document a diagnostic's span lies in.
    pub document: String,
    /// What it stands for.
    pub source: ItemSource<'a>,
}

impl Item<'_> {
    /// Its kind.
    pub fn kind(&self) -> ItemKind {
        match self.source {
            ItemSource::Example(..) => ItemKind::Example,
            ItemSource::Diagnostic(_) => ItemKind::Diagnostic,
            ItemSource::Drift(_) => ItemKind::Drift,
        }
    }

    /// Its 1-based line in [`Self::document`].
    pub fn line(&self) -> u32 {
        match self.source {
            ItemSource::Example(_, e) => e.span.start_line,
            ItemSource::Diagnostic(d) => d.span.start_line,
            ItemSource::Drift(d) => d.line,
        }
    }
}

/// Every item of `oaths` (in discovery order), in the order the harness
/// lists them.
pub fn items<'a>(oaths: &[PlannedOath<'a>]) -> Vec<Item<'a>> {
    let mut by_document = diagnostics_by_document(oaths);
    let mut names = UniqueNames::default();
    let mut out = Vec::new();
    for oath in oaths {
        let mut items = ExampleItems::new(oath.path);
        for (i, example) in oath.plan.examples.iter().enumerate() {
            out.push(Item {
                name: names
                    .claim(items.name(&example.scope_stack, &example.name))
                    .to_string(),
                document: oath.path.to_string(),
                source: ItemSource::Example(i, example),
            });
        }
        for d in by_document.remove(oath.path).unwrap_or_default() {
            out.push(diagnostic(&mut names, oath.path, d));
        }
        for d in oath.drifts {
            out.push(Item {
                name: names.claim(drift_item(oath.path, d.line)).to_string(),
                document: oath.path.to_string(),
                source: ItemSource::Drift(d),
            });
        }
    }
    for (document, found) in by_document {
        for d in found {
            out.push(diagnostic(&mut names, &document, d));
        }
    }
    out
}

/// The items of one oath's examples, as [`items`] names them when the oath
/// is planned first (an example's name is unique within its oath, so its
/// place among the others does not change it).
pub fn example_items<'a>(oath_path: &'a str, plan: &'a Plan) -> Vec<Item<'a>> {
    items(&[PlannedOath {
        path: oath_path,
        plan,
        drifts: &[],
    }])
    .into_iter()
    .filter(|i| i.kind() == ItemKind::Example)
    .collect()
}

fn diagnostic<'a>(names: &mut UniqueNames, document: &str, d: &'a Diagnostic) -> Item<'a> {
    Item {
        name: names
            .claim(diagnostic_item(document, d.code, d.span.start_line))
            .to_string(),
        document: document.to_string(),
        source: ItemSource::Diagnostic(d),
    }
}

/// The diagnostics of every plan by the document they lie in, each
/// (document, span, code, message) once, in document order.
fn diagnostics_by_document<'a>(oaths: &[PlannedOath<'a>]) -> BTreeMap<String, Vec<&'a Diagnostic>> {
    let mut seen: HashSet<(String, u32, u32, &str, &str)> = HashSet::new();
    let mut out: BTreeMap<String, Vec<&'a Diagnostic>> = BTreeMap::new();
    for oath in oaths {
        for d in &oath.plan.diagnostics {
            let document = d.doc_path.as_deref().unwrap_or(oath.path);
            let key = (
                document.to_string(),
                d.span.start_offset,
                d.span.end_offset,
                d.code.as_str(),
                d.message.as_str(),
            );
            if seen.insert(key) {
                out.entry(document.to_string()).or_default().push(d);
            }
        }
    }
    for found in out.values_mut() {
        Diagnostic::sort_in_document_order(found);
    }
    out
}

#[cfg(test)]
mod tests;
