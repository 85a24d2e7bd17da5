//! What one reference block contributes (pure), for its hover: the steps
//! its section splices, or why it splices none.
//!
//! A plan does not say which steps came from which link, so the link is
//! planned on its own, by the engine: a probe document holding only that
//! link, next to the oath (same directory, so its target resolves to the
//! same oath and section), planned with `plan_oath` among the documents the
//! link reaches. Resolution does not depend on the oath the link stands in
//! (spec 70 §70.3.1), so the probe's plan splices exactly what the link
//! does in the oath, and its reference diagnostic is the oath's.

use std::collections::BTreeSet;

use varar_core::plan::plan_oath;
use varar_core::workspace::Workspace;

use super::model::{LinkUse, PlanContext};

/// What a reference block brings to the example it stands in.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Contribution {
    /// Its section's steps, in the order they run.
    Steps(Vec<SplicedStep>),
    /// No step: the first line of the reference diagnostic says why.
    Nothing(String),
    /// The link cannot be planned on its own (a same-file link in an oath
    /// whose file name cannot be written as a link target).
    Unknown,
}

/// One step a reference block splices.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SplicedStep {
    /// The matched text.
    pub text: String,
    /// The oathPath of the document it is written in.
    pub doc_path: String,
    /// Its line there (1-based).
    pub line: u32,
}

/// Plan `link`, a reference block of the oath `oath_path`, on its own.
pub fn contribution(context: &PlanContext<'_>, oath_path: &str, link: &LinkUse) -> Contribution {
    let reference = &link.reference;
    let target = match reference.target.strip_prefix('#') {
        Some(_) => {
            let base = oath_path.rsplit('/').next().unwrap_or(oath_path);
            if base.is_empty() || base.contains(|c: char| c.is_whitespace() || c == ')') {
                return Contribution::Unknown;
            }
            format!("{base}{}", reference.target)
        }
        None => reference.target.clone(),
    };
    // No `/` in the suffix: the probe's directory is the oath's.
    let probe = format!("{oath_path}\u{0}link");
    let probe_text = format!("[{}]({target})\n", reference.text);
    let mut needed: BTreeSet<String> = context.oaths.reaches(&reference.path);
    needed.insert(reference.path.clone());
    let oaths = context.oaths;
    let documents = needed
        .iter()
        .filter_map(|p| Some((p.clone(), oaths.text(p)?)))
        .chain(std::iter::once((probe.clone(), probe_text.as_str())));
    let engine = Workspace::build(documents);
    let Ok(plan) = plan_oath(&engine, &probe, context.index.registry()) else {
        return Contribution::Unknown;
    };
    let steps: Vec<_> = plan.examples.iter().flat_map(|e| &e.steps).collect();
    if steps.is_empty() {
        return match plan.diagnostics.iter().find(|d| d.doc_path.is_none()) {
            Some(d) => Contribution::Nothing(d.message.lines().next().unwrap_or("").to_string()),
            None => Contribution::Unknown,
        };
    }
    Contribution::Steps(
        steps
            .iter()
            .map(|s| SplicedStep {
                text: s.text.to_string(),
                // The probe is its own document: every step, the oath's
                // own included, names the document it is written in.
                doc_path: s.doc_path.clone().unwrap_or_else(|| oath_path.to_string()),
                line: s.match_span.start_line,
            })
            .collect(),
    )
}
