//! Where each step is used (pure): every sentence of every oath of a
//! project that a step matched, at the document it is written in.
//!
//! One oath's plan gives the sentences it runs: its own, and those its
//! links splice from other documents ([`OathUses`]). A project's usages are
//! kept per oath with what each plan was made from ([`Deps`]), so after an
//! edit only the oaths whose plan no longer holds are planned again
//! ([`project_uses`]). Gathered by step ([`Usages`]), each sentence counts
//! once however many oaths splice it: the "N uses in M oaths" lens above a
//! step function, its references, the hint on a step no oath uses, and the
//! sentences a rename rewrites.

use std::collections::BTreeMap;

use varar_core::source::Span;

use super::oaths::Deps;
use crate::analysis::{Analysis, PlanContext, StepUse, plan_documents};

/// A sentence a step matched.
#[derive(Clone, Debug, PartialEq)]
pub struct Use {
    /// The oathPath of the document it is written in.
    pub doc_path: String,
    /// The step, its span and its parameters in that document.
    pub step: StepUse,
}

/// The sentences one oath's plan runs, and what the plan was made from.
#[derive(Clone, Debug, PartialEq)]
pub struct OathUses {
    /// What the plan was made from.
    pub deps: Deps,
    /// Its own sentences, then those its links splice.
    pub uses: Vec<Use>,
}

/// The sentences of a planned oath.
pub fn oath_uses(analysis: &Analysis) -> OathUses {
    let own = analysis.steps.iter().map(|s| Use {
        doc_path: analysis.oath_path.clone(),
        step: s.clone(),
    });
    let spliced = analysis.spliced.iter().map(|s| Use {
        doc_path: s.doc_path.clone(),
        step: s.step.clone(),
    });
    OathUses {
        deps: analysis.deps.clone(),
        uses: own.chain(spliced).collect(),
    }
}

/// The sentences of every oath of `context`, planning only the oaths whose
/// entry in `previous` no longer holds (or has none). Oaths that are gone
/// are left out.
pub fn project_uses(
    context: &PlanContext<'_>,
    mut previous: BTreeMap<String, OathUses>,
) -> BTreeMap<String, OathUses> {
    let generation = context.index.generation();
    let mut out = BTreeMap::new();
    let mut stale = Vec::new();
    for path in context.oaths.paths() {
        match previous.remove(path) {
            Some(kept) if context.oaths.deps_hold(path, generation, &kept.deps) => {
                out.insert(path.to_string(), kept);
            }
            _ => stale.push(path),
        }
    }
    for analysis in plan_documents(context, &stale) {
        out.insert(analysis.oath_path.clone(), oath_uses(&analysis));
    }
    out
}

/// Every step's sentences, each once.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Usages {
    /// By registry step: its sentences, sorted by document and offset.
    per_step: Vec<Vec<Use>>,
}

impl Usages {
    /// Gather the sentences of every oath by step; `steps` is the size of
    /// the registry.
    pub fn gather<'a>(oaths: impl IntoIterator<Item = &'a OathUses>, steps: usize) -> Usages {
        let mut per_step: Vec<Vec<Use>> = vec![Vec::new(); steps];
        for oath in oaths {
            for u in &oath.uses {
                let Some(found) = per_step.get_mut(u.step.step) else {
                    continue;
                };
                if !found
                    .iter()
                    .any(|f| f.doc_path == u.doc_path && f.step.span == u.step.span)
                {
                    found.push(u.clone());
                }
            }
        }
        for found in &mut per_step {
            found.sort_by(|a, b| {
                (&a.doc_path, a.step.span.start_offset)
                    .cmp(&(&b.doc_path, b.step.span.start_offset))
            });
        }
        Usages { per_step }
    }

    /// The sentences of registry step `step`.
    pub fn of(&self, step: usize) -> &[Use] {
        self.per_step.get(step).map_or(&[], Vec::as_slice)
    }

    /// How many documents hold a sentence of `step`.
    pub fn documents(&self, step: usize) -> usize {
        let mut docs: Vec<&str> = self.of(step).iter().map(|u| u.doc_path.as_str()).collect();
        docs.dedup();
        docs.len()
    }

    /// The places of `step`'s sentences: (oathPath, span).
    pub fn places(&self, step: usize) -> Vec<(String, Span)> {
        self.of(step)
            .iter()
            .map(|u| (u.doc_path.clone(), u.step.span))
            .collect()
    }
}

impl Usages {
    /// The places of every value of the custom parameter type `name` in
    /// the sentences of any step, (oathPath, span), sorted by document and
    /// offset; and how many documents hold one.
    pub fn parameter_places(&self, name: &str) -> (Vec<(String, Span)>, usize) {
        let mut places: Vec<(String, Span)> = self
            .per_step
            .iter()
            .flatten()
            .flat_map(|u| {
                u.step
                    .params
                    .iter()
                    .filter(|p| *p.parameter_type == *name)
                    .map(|p| (u.doc_path.clone(), p.span))
            })
            .collect();
        places.sort_by(|a, b| (&a.0, a.1.start_offset).cmp(&(&b.0, b.1.start_offset)));
        let mut docs: Vec<&str> = places.iter().map(|(d, _)| d.as_str()).collect();
        docs.dedup();
        let documents = docs.len();
        (places, documents)
    }
}

/// "3 uses in 2 oaths", "1 use in 1 oath", "no uses".
pub fn title(uses: usize, documents: usize) -> String {
    match (uses, documents) {
        (0, _) => "no uses in any oath".to_string(),
        (1, _) => "1 use in 1 oath".to_string(),
        (n, 1) => format!("{n} uses in 1 oath"),
        (n, m) => format!("{n} uses in {m} oaths"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::oaths::Oaths;
    use crate::tests::support::bakery;

    const SHARED: &str = "# Shared\n\n## Stock\n\nthe baker puts 3 buns on the shelf.\n";
    const A: &str = "# A\n\n[Stock](shared.md#stock)\n\nI sell 1 buns from the shelf.\n";
    const B: &str = "# B\n\n[Stock](shared.md#stock)\n\nI sell 2 buns from the shelf. I sell 1 buns from the shelf.\n";

    #[test]
    fn a_spliced_sentence_counts_once_and_only_stale_oaths_are_planned_again() {
        let index = bakery();
        let mut oaths = Oaths::from_disk([
            ("shared.md".to_string(), SHARED.to_string()),
            ("a.md".to_string(), A.to_string()),
            ("b.md".to_string(), B.to_string()),
        ]);
        let context = PlanContext {
            index: &index,
            lock: None,
            oaths: &oaths,
        };
        let per_oath = project_uses(&context, BTreeMap::new());
        let usages = Usages::gather(per_oath.values(), index.registry().steps.len());
        let puts = index
            .registry()
            .steps
            .iter()
            .position(|s| s.spec.expression.starts_with("the baker puts"))
            .unwrap_or_else(|| panic!("puts"));
        let sell = index
            .registry()
            .steps
            .iter()
            .position(|s| s.spec.expression.starts_with("I sell"))
            .unwrap_or_else(|| panic!("sell"));
        assert_eq!(
            (usages.of(puts).len(), usages.documents(puts)),
            (1, 1),
            "{:?}",
            usages.places(puts)
        );
        assert_eq!((usages.of(sell).len(), usages.documents(sell)), (3, 2));
        assert_eq!(title(3, 2), "3 uses in 2 oaths");
        assert_eq!(title(1, 1), "1 use in 1 oath");
        assert_eq!(title(0, 0), "no uses in any oath");
        // Only b.md changed: a.md and shared.md keep their entries.
        oaths.disk("b.md", Some(B.replace("I sell 1 buns", "I sell 5 buns")));
        let context = PlanContext {
            index: &index,
            lock: None,
            oaths: &oaths,
        };
        let before = per_oath.clone();
        let again = project_uses(&context, per_oath);
        assert_eq!(again.get("a.md"), before.get("a.md"));
        assert_ne!(again.get("b.md"), before.get("b.md"));
    }
}
