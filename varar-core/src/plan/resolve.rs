//! Resolving a reference block (spec 70 §70.3.1, §70.3.4): the matched
//! units its section contributes, recursively through nested links, with
//! the four reference diagnostics.
//!
//! Every contributed step carries the document it was written in when that
//! is not the oath being planned, through any depth of nesting (spec 70
//! §70.6.2); so does every diagnostic. Referenced content is planned afresh
//! for each reference that reaches it, so its diagnostics repeat once per
//! reference (the harness reports each once per document, span and code).

use super::matching::Matcher;
use super::model::{Diagnostic, DiagnosticCode};
use super::split::SplitSentence;
use super::units::{MatchedUnit, ReferenceUnit, Unit, plan_one};
use crate::reference::Reference;
use crate::source::Span;
use crate::workspace::{View, Workspace};

/// Resolves the reference blocks of one oath, collecting their diagnostics.
pub(crate) struct Resolver<'d, 't, 'x> {
    pub workspace: &'d Workspace<'t>,
    /// The oath being planned.
    pub oath: View<'d>,
    pub matcher: &'x dyn Matcher,
    pub split: &'x dyn Fn(&str) -> Vec<SplitSentence>,
    /// In resolution order, nested ones before the outer `reference-empty`.
    pub diagnostics: Vec<Diagnostic>,
}

impl<'d> Resolver<'d, '_, '_> {
    /// The matched units `unit`'s section contributes, in section order
    /// (nested references spliced where they stand).
    pub fn resolve(&mut self, unit: &ReferenceUnit<'d>) -> Vec<MatchedUnit<'d>> {
        let mut parts = Vec::new();
        let from = self.oath;
        self.resolve_in(
            unit.reference,
            unit.candidate.span,
            from,
            &mut Vec::new(),
            &mut parts,
        );
        parts
    }

    fn resolve_in(
        &mut self,
        reference: &Reference,
        span: Span,
        from: View<'d>,
        chain: &mut Vec<String>,
        parts: &mut Vec<MatchedUnit<'d>>,
    ) {
        let key = reference.key();
        if chain.contains(&key) {
            chain.push(key);
            let message = cycle_message(chain);
            chain.pop();
            self.report(&from, DiagnosticCode::ReferenceCycle, span, message);
            return;
        }
        let Some(target) = self.target(reference, &from) else {
            let message = format!(
                "Reference to \"{}\" points at \"{}\", which is not an oath in this workspace.\n\
                 Check the path, and that the file is matched by the `docs` globs in \
                 varar.config.json.",
                reference.text, reference.path
            );
            self.report(&from, DiagnosticCode::ReferenceNotFound, span, message);
            return;
        };
        if !reference.is_whole_file() {
            let named = target.headings_named(&reference.slug);
            if named.len() > 1 {
                let lines: Vec<String> = named
                    .iter()
                    .map(|h| h.span.start_line.to_string())
                    .collect();
                let message = format!(
                    "Reference to \"{}\" is ambiguous: \"{}\" has {} headings with the anchor \
                     \"#{}\" (lines {}).\nRename the headings so each has an anchor of its own.",
                    reference.text,
                    reference.path,
                    named.len(),
                    reference.slug,
                    lines.join(", ")
                );
                self.report(&from, DiagnosticCode::AmbiguousAnchor, span, message);
                return;
            }
        }
        let before = parts.len();
        chain.push(key);
        for index in target.section(&reference.slug) {
            let candidate = &target.doc.examples[index];
            if let Some(inner) = target.reference(index) {
                self.resolve_in(inner, candidate.span, target, chain, parts);
                continue;
            }
            let mut found = Vec::new();
            let unit = plan_one(
                candidate,
                target.source,
                self.matcher,
                self.split,
                &mut found,
                // A spliced section's quirks are its own document's to
                // show (notices are about the oath's own text).
                &mut Vec::new(),
            );
            for diagnostic in found {
                self.push(&target, diagnostic);
            }
            // Header-bound rows cannot be spliced and unmatched units are no
            // delimiters here: only matched units contribute.
            if let Unit::Matched(mut unit) = unit {
                if let Some(doc_path) = self.doc_path(&target) {
                    for step in &mut unit.steps {
                        step.doc_path = Some(doc_path.clone());
                    }
                    // Its unmatched sentences lie in the other document,
                    // which the example's note (drawn from the oath) cannot
                    // show at those offsets.
                    unit.unmatched.clear();
                }
                parts.push(unit);
            }
        }
        chain.pop();
        if parts.len() == before {
            let message = format!(
                "Reference to \"{}\" resolves to \"{}\", which contributes no steps.\n\
                 Check the heading the anchor names, and that its section contains a matching \
                 paragraph.",
                reference.text,
                reference.location()
            );
            self.report(&from, DiagnosticCode::ReferenceEmpty, span, message);
        }
    }

    /// The document `reference` names, seen from `from`: `from` itself for a
    /// link into its own file, else the workspace's document.
    fn target(&self, reference: &Reference, from: &View<'d>) -> Option<View<'d>> {
        if reference.path == from.path {
            return Some(*from);
        }
        if reference.path == self.oath.path {
            return Some(self.oath);
        }
        self.workspace.document(&reference.path).map(|d| d.view())
    }

    /// `Some(path)` of `view` unless it is the oath being planned.
    fn doc_path(&self, view: &View<'_>) -> Option<String> {
        (view.path != self.oath.path).then(|| view.path.to_owned())
    }

    fn report(&mut self, from: &View<'_>, code: DiagnosticCode, span: Span, message: String) {
        self.diagnostics.push(Diagnostic {
            code,
            span,
            message,
            doc_path: self.doc_path(from),
        });
    }

    fn push(&mut self, view: &View<'_>, mut diagnostic: Diagnostic) {
        diagnostic.doc_path = self.doc_path(view);
        self.diagnostics.push(diagnostic);
    }
}

/// `Reference cycle: k1 → k2 → … → k1.`
pub(crate) fn cycle_message(chain: &[String]) -> String {
    format!("Reference cycle: {}.", chain.join(" \u{2192} "))
}
