//! The test items of a run in the order `cargo test` lists them, named
//! (spec 40 §7.2–7.4, spec 70 §70.5 and §70.6.6): the one order the
//! harness builds its trials in and `cargo varar check` and the language
//! server's lenses name items by, so a name one of them shows is the name
//! `cargo test -- --exact` selects.
//!
//! For each oath in discovery order: an unreadable one is its read-error
//! item; a planned one is its examples in plan order, then the diagnostics
//! written in it, then its drift. Last come the diagnostics written in
//! documents that were not planned themselves (a section an oath links
//! to), by document. A diagnostic belongs to the document its span lies in
//! and is one item however many plans meet it: the same document, span,
//! code and message once, in document order. Names are claimed in that
//! order, so the `[1]`, `[2]`… of a repeated name fall where the harness
//! puts them.

use std::borrow::Borrow;
use std::collections::{BTreeMap, HashSet};
use std::sync::Arc;

use super::scheme::{
    ExampleItems, ItemKind, UniqueNames, diagnostic_item, drift_item, read_error_item,
};
use crate::drift::Drift;
use crate::plan::{Diagnostic, Plan, PlannedExample};

/// One oath of a run, as its items are made.
#[derive(Clone, Copy, Debug)]
pub enum OathItems<'a> {
    /// Planned (among the other oaths, spec 70 §70.3), with its drift
    /// against the lock (spec 40 §5).
    Planned {
        /// Its oathPath.
        path: &'a str,
        /// Its plan.
        plan: &'a Plan,
        /// Its drift.
        drifts: &'a [Drift],
        /// Its examples' names made where it was planned
        /// ([`ExampleNames::of`] of this oath and plan, or
        /// [`ExampleNames::of_heads`] of its examples packed apart, the
        /// plan then holding none): its examples are listed from them.
        /// `None` (or names of another oath): [`items`] makes them from
        /// the plan.
        names: Option<&'a ExampleNames>,
    },
    /// Discovered but not readable (spec 40 §2.4).
    Unreadable {
        /// Its oathPath.
        path: &'a str,
    },
}

/// The names of one plan's examples in plan order, before [`items`] makes
/// them unique: a shell that plans oaths on several threads makes them
/// there, so that only the claiming of names is left to the thread that
/// lists the items.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ExampleNames {
    oath_path: String,
    /// Each made shared at once: claiming a new name keeps it as it is.
    names: Vec<Arc<str>>,
    /// Each example's line (its span's start).
    lines: Vec<u32>,
}

impl ExampleNames {
    /// The names of the examples of `plan`, the plan of the oath at
    /// `oath_path`.
    pub fn of(oath_path: &str, plan: &Plan) -> ExampleNames {
        let heads = (plan.examples.iter()).map(|e| (&e.scope_stack, &*e.name, e.span.start_line));
        ExampleNames::of_heads(oath_path, heads)
    }

    /// The names of the examples of the oath at `oath_path` whose headings,
    /// names and lines are `heads`, in plan order (examples held apart from
    /// their plan, `stored::PackedExamples`).
    pub fn of_heads<'e>(
        oath_path: &str,
        heads: impl IntoIterator<Item = (&'e Arc<[String]>, &'e str, u32)>,
    ) -> ExampleNames {
        let heads = heads.into_iter();
        let mut items = ExampleItems::new(oath_path);
        let mut made = ExampleNames {
            oath_path: oath_path.to_owned(),
            names: Vec::with_capacity(heads.size_hint().0),
            lines: Vec::with_capacity(heads.size_hint().0),
        };
        for (scope_stack, name, line) in heads {
            made.names.push(Arc::from(items.name(scope_stack, name)));
            made.lines.push(line);
        }
        made
    }
}

/// What an item stands for, by its place in the oaths given to [`items`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Origin {
    /// Example `example` of oath `oath`'s plan.
    Example {
        /// The oath's index.
        oath: usize,
        /// The example's index in its plan.
        example: usize,
    },
    /// Diagnostic `diagnostic` of oath `oath`'s plan: the first plan that
    /// met it, when several did.
    Diagnostic {
        /// The oath's index.
        oath: usize,
        /// The diagnostic's index in that plan.
        diagnostic: usize,
    },
    /// Drift `drift` of oath `oath`.
    Drift {
        /// The oath's index.
        oath: usize,
        /// The drift's index among the oath's.
        drift: usize,
    },
    /// Oath `oath`, which could not be read.
    ReadError {
        /// The oath's index.
        oath: usize,
    },
}

/// One test item.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Item {
    /// Its full name (without libtest's `[varar] ` kind), unique in the
    /// run.
    pub name: Arc<str>,
    /// The document it belongs to: the oath of an example, a drift or a
    /// read error, the document a diagnostic's span lies in (one string
    /// shared by the items of a document).
    pub document: Arc<str>,
    /// Its 1-based line in [`Item::document`]; 0 for a read error.
    pub line: u32,
    /// What it stands for.
    pub origin: Origin,
}

/// What an item stands for, looked up in its oaths ([`Item::source`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum ItemSource<'a> {
    /// A planned example.
    Example(&'a PlannedExample),
    /// A plan diagnostic.
    Diagnostic(&'a Diagnostic),
    /// A drifted lock example.
    Drift(&'a Drift),
    /// An oath that could not be read.
    ReadError,
}

impl Item {
    /// Its kind.
    pub fn kind(&self) -> ItemKind {
        match self.origin {
            Origin::Example { .. } => ItemKind::Example,
            Origin::Diagnostic { .. } => ItemKind::Diagnostic,
            Origin::Drift { .. } => ItemKind::Drift,
            Origin::ReadError { .. } => ItemKind::ReadError,
        }
    }

    /// What it stands for in `oaths`, the oaths it was made from.
    pub fn source<'a>(&self, oaths: &[OathItems<'a>]) -> Option<ItemSource<'a>> {
        let planned = |oath: usize| match oaths.get(oath)? {
            OathItems::Planned { plan, drifts, .. } => Some((*plan, *drifts)),
            OathItems::Unreadable { .. } => None,
        };
        Some(match self.origin {
            Origin::Example { oath, example } => {
                ItemSource::Example(planned(oath)?.0.examples.get(example)?)
            }
            Origin::Diagnostic { oath, diagnostic } => {
                ItemSource::Diagnostic(planned(oath)?.0.diagnostics.get(diagnostic)?)
            }
            Origin::Drift { oath, drift } => ItemSource::Drift(planned(oath)?.1.get(drift)?),
            Origin::ReadError { .. } => ItemSource::ReadError,
        })
    }
}

/// Every item of `oaths` (in discovery order), in the order `cargo test`
/// lists them.
///
/// ```
/// use varar_core::names::{ItemKind, OathItems, items};
/// use varar_core::plan::plan;
/// use varar_core::registry::{Registry, Role, StepSpec, Trailing};
/// use varar_core::{parse::parse, source::Source};
///
/// let registry = Registry::build(
///     Vec::new(),
///     vec![StepSpec::new("I add {int}", Role::Stimulus, "steps.rs", 3, Trailing::None)],
/// )
/// .unwrap();
/// let text = "# Till\n\nI add 2.\n\n---\n\nI add 2.\n";
/// let source = Source::new(text);
/// let till = plan(&parse("varar/till.md", &source), &source, &registry);
/// let found = items(&[
///     OathItems::Unreadable { path: "varar/gone.md" },
///     OathItems::Planned { path: "varar/till.md", plan: &till, drifts: &[], names: None },
/// ]);
/// let names: Vec<(&str, ItemKind)> = found.iter().map(|i| (&*i.name, i.kind())).collect();
/// assert_eq!(
///     names,
///     [
///         ("varar/gone.md::varar:read-error", ItemKind::ReadError),
///         ("varar/till.md::Till::I add 2", ItemKind::Example),
///         ("varar/till.md::Till::I add 2[1]", ItemKind::Example),
///     ]
/// );
/// ```
pub fn items(oaths: &[OathItems<'_>]) -> Vec<Item> {
    let mut by_document = diagnostics_by_document(oaths);
    let count = oaths
        .iter()
        .map(|oath| match oath {
            OathItems::Planned {
                path,
                plan,
                drifts,
                names,
            } => {
                let examples = match names {
                    Some(made) if made.oath_path == *path => made.names.len(),
                    _ => plan.examples.len(),
                };
                examples + plan.diagnostics.len() + drifts.len()
            }
            OathItems::Unreadable { .. } => 1,
        })
        .sum();
    let mut names = UniqueNames::default();
    names.reserve(count);
    let mut out = Vec::with_capacity(count);
    for (oath, entry) in oaths.iter().enumerate() {
        let (path, plan, drifts, made) = match *entry {
            OathItems::Unreadable { path } => {
                out.push(Item {
                    name: names.claim(read_error_item(path)),
                    document: Arc::from(path),
                    line: 0,
                    origin: Origin::ReadError { oath },
                });
                continue;
            }
            OathItems::Planned {
                path,
                plan,
                drifts,
                names: made,
            } => (path, plan, drifts, made),
        };
        let document: Arc<str> = Arc::from(path);
        let making;
        let examples = match made {
            Some(made) if made.oath_path == path => made,
            _ => {
                making = ExampleNames::of(path, plan);
                &making
            }
        };
        for (example, (base, &line)) in examples.names.iter().zip(&examples.lines).enumerate() {
            out.push(Item {
                name: names.claim(Arc::clone(base)),
                document: Arc::clone(&document),
                line,
                origin: Origin::Example { oath, example },
            });
        }
        for met in by_document.remove(path).unwrap_or_default() {
            out.push(met.item(&mut names, &document));
        }
        for (drift, d) in drifts.iter().enumerate() {
            out.push(Item {
                name: names.claim(drift_item(path, d.line)),
                document: Arc::clone(&document),
                line: d.line,
                origin: Origin::Drift { oath, drift },
            });
        }
    }
    for (document, found) in by_document {
        let document: Arc<str> = Arc::from(document);
        for met in found {
            out.push(met.item(&mut names, &document));
        }
    }
    out
}

/// The items of one oath's examples, as [`items`] names them when the
/// oath is listed first (an example's name is unique within its oath, so
/// its place among the others does not change it): what the editor's
/// `▶ Run` of an example passes to `cargo test -- --exact`.
pub fn example_items(oath_path: &str, plan: &Plan) -> Vec<Item> {
    let oath = OathItems::Planned {
        path: oath_path,
        plan,
        drifts: &[],
        names: None,
    };
    let mut found = items(&[oath]);
    found.retain(|i| i.kind() == ItemKind::Example);
    found
}

/// A diagnostic as a plan met it.
struct Met<'a> {
    oath: usize,
    index: usize,
    diagnostic: &'a Diagnostic,
}

impl Borrow<Diagnostic> for Met<'_> {
    fn borrow(&self) -> &Diagnostic {
        self.diagnostic
    }
}

impl Met<'_> {
    /// Its item, in `document`.
    fn item(&self, names: &mut UniqueNames, document: &Arc<str>) -> Item {
        let d = self.diagnostic;
        Item {
            name: names.claim(diagnostic_item(document, d.code, d.span.start_line)),
            document: Arc::clone(document),
            line: d.span.start_line,
            origin: Origin::Diagnostic {
                oath: self.oath,
                diagnostic: self.index,
            },
        }
    }
}

/// The diagnostics of every plan by the document they lie in, each
/// (document, span, code, message) once, in document order.
fn diagnostics_by_document<'a>(oaths: &[OathItems<'a>]) -> BTreeMap<&'a str, Vec<Met<'a>>> {
    let mut seen: HashSet<(&str, u32, u32, &str, &str)> = HashSet::new();
    let mut out: BTreeMap<&'a str, Vec<Met<'a>>> = BTreeMap::new();
    for (oath, entry) in oaths.iter().enumerate() {
        let OathItems::Planned { path, plan, .. } = *entry else {
            continue;
        };
        for (index, d) in plan.diagnostics.iter().enumerate() {
            let document = d.doc_path.as_deref().unwrap_or(path);
            let key = (
                document,
                d.span.start_offset,
                d.span.end_offset,
                d.code.as_str(),
                d.message.as_str(),
            );
            if seen.insert(key) {
                out.entry(document).or_default().push(Met {
                    oath,
                    index,
                    diagnostic: d,
                });
            }
        }
    }
    for found in out.values_mut() {
        Diagnostic::sort_in_document_order(found);
    }
    out
}
