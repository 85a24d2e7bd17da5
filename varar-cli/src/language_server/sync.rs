//! Keeping the plans and the published diagnostics in step with the oaths
//! (shell, part of the server).
//!
//! After any change in a project, [`Server::sync`]:
//! 1. re-plans every open oath whose plan no longer holds (its text, a text
//!    its links reach, the links naming its sections or the steps changed:
//!    [`Deps`](super::oaths::Deps)), all in one engine workspace;
//! 2. gives each open oath what the plans of the oaths linking to it find
//!    in its text (spliced steps, diagnostics), planning those that are not
//!    open from the project's texts, once per change of what they read;
//! 3. publishes the diagnostics of every open oath that was re-planned or
//!    whose diagnostics changed, and of every document that is not open but
//!    holds a diagnostic of an open oath's plan (a problem in a section it
//!    splices); clears what is no longer there;
//! 4. asks the editor to fetch the semantic tokens again when an open oath
//!    the editor did not change got new tokens (another oath started or
//!    stopped linking to it).

use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};

use lsp_server::{Request, RequestId};
use lsp_types::{Diagnostic, Url};

use super::analysis::{Analysis, PlanContext, plan_documents, reuses};
use super::diagnostics::{located_diagnostics, oath_diagnostics, recorded_failures};
use super::server_state::{Server, ServerError};
use crate::evidence::{DocumentText, OathEvidence};
use crate::records::{Code, ErrorRecord};

impl Server {
    /// Bring a project's plans and diagnostics up to date; `edited` are the
    /// open oaths the editor changed (their tokens are asked for anyway),
    /// `force` re-plans every open oath.
    pub(crate) fn sync(
        &mut self,
        project: usize,
        edited: &HashSet<Url>,
        force: bool,
    ) -> Result<(), ServerError> {
        let open: Vec<(Url, String)> = self
            .documents
            .iter()
            .filter(|(_, d)| d.project == project)
            .map(|(u, d)| (u.clone(), d.oath_path.clone()))
            .collect();
        let replanned = self.replan_open(project, &open, force);
        let retokened = self.give_reuses(project, &open);
        self.publish_project(project, &open, &replanned)?;
        let others_changed = replanned
            .iter()
            .chain(&retokened)
            .any(|u| !edited.contains(u));
        if others_changed && self.refreshes_tokens {
            self.next_request += 1;
            let id = RequestId::from(format!("varar-{}", self.next_request));
            let request = Request::new(
                id,
                "workspace/semanticTokens/refresh".to_string(),
                serde_json::Value::Null,
            );
            self.send(request.into())?;
        }
        Ok(())
    }

    /// Step 1: the open oaths whose plan no longer holds, planned again.
    fn replan_open(&mut self, project: usize, open: &[(Url, String)], force: bool) -> HashSet<Url> {
        let p = &self.projects[project];
        let generation = p.index.generation();
        let stale: Vec<(Url, &str)> = open
            .iter()
            .filter(|(uri, path)| {
                force
                    || self
                        .analyses
                        .get(uri)
                        .is_none_or(|a| a.deps != p.oaths.deps(path, generation))
            })
            .map(|(uri, path)| (uri.clone(), path.as_str()))
            .collect();
        if stale.is_empty() {
            return HashSet::new();
        }
        let context = PlanContext {
            index: &p.index,
            lock: p.lock.as_ref(),
            oaths: &p.oaths,
        };
        let paths: Vec<&str> = stale.iter().map(|(_, p)| *p).collect();
        let mut planned: HashMap<String, Analysis> = plan_documents(&context, &paths)
            .into_iter()
            .map(|a| (a.oath_path.clone(), a))
            .collect();
        let mut replanned = HashSet::new();
        for (uri, path) in stale {
            if let Some(analysis) = planned.remove(path) {
                self.analyses.insert(uri.clone(), analysis);
                replanned.insert(uri);
            }
        }
        replanned
    }

    /// Make sure every oath of `paths` that is not open has a plan that
    /// still holds in the cache.
    pub(crate) fn ensure_closed(&mut self, project: usize, paths: &BTreeSet<String>) {
        let p = &self.projects[project];
        let generation = p.index.generation();
        let stale: Vec<&str> = paths
            .iter()
            .filter(|path| !p.oaths.is_open(path))
            .filter(|path| {
                self.closed
                    .get(&(project, (*path).clone()))
                    .is_none_or(|a| a.deps != p.oaths.deps(path, generation))
            })
            .map(String::as_str)
            .collect();
        if stale.is_empty() {
            return;
        }
        let context = PlanContext {
            index: &p.index,
            lock: p.lock.as_ref(),
            oaths: &p.oaths,
        };
        for analysis in plan_documents(&context, &stale) {
            self.closed
                .insert((project, analysis.oath_path.clone()), analysis);
        }
    }

    /// The plan of an oath of a project: the open oath's, else the cached
    /// one (see [`Self::ensure_closed`]).
    pub(crate) fn analysis_of(&self, project: usize, oath_path: &str) -> Option<&Analysis> {
        self.documents
            .iter()
            .find(|(_, d)| d.project == project && d.oath_path == oath_path)
            .and_then(|(u, _)| self.analyses.get(u))
            .or_else(|| self.closed.get(&(project, oath_path.to_string())))
    }

    /// Step 2: what the plans of the oaths reaching each open oath find in
    /// it. Returns the open oaths whose steps changed.
    fn give_reuses(&mut self, project: usize, open: &[(Url, String)]) -> HashSet<Url> {
        let oaths = &self.projects[project].oaths;
        let reaching: Vec<(Url, String, BTreeSet<String>)> = open
            .iter()
            .map(|(u, p)| (u.clone(), p.clone(), oaths.reached_by(p)))
            .collect();
        let all: BTreeSet<String> = reaching
            .iter()
            .flat_map(|(_, _, r)| r.iter().cloned())
            .collect();
        self.ensure_closed(project, &all);
        let computed: Vec<(Url, _)> = reaching
            .iter()
            .map(|(uri, path, by)| {
                let others: Vec<&Analysis> = by
                    .iter()
                    .filter_map(|o| self.analysis_of(project, o))
                    .collect();
                (uri.clone(), reuses(path, &others))
            })
            .collect();
        let mut changed = HashSet::new();
        for (uri, reuses) in computed {
            if let Some(analysis) = self.analyses.get_mut(&uri) {
                let before: Vec<_> = analysis.all_steps().into_iter().cloned().collect();
                analysis.set_reuses(reuses);
                let after: Vec<_> = analysis.all_steps().into_iter().cloned().collect();
                if before != after {
                    changed.insert(uri);
                }
            }
        }
        changed
    }

    /// Step 3: publish what changed.
    fn publish_project(
        &mut self,
        project: usize,
        open: &[(Url, String)],
        replanned: &HashSet<Url>,
    ) -> Result<(), ServerError> {
        let mut now: BTreeMap<Url, Vec<Diagnostic>> = BTreeMap::new();
        for (uri, path) in open {
            let Some(analysis) = self.analyses.get(uri) else {
                continue;
            };
            let evidence = self.evidence(project, path);
            let recorded = recorded_failures(path, &evidence);
            now.insert(uri.clone(), oath_diagnostics(analysis, &recorded));
        }
        // Documents not open that hold a diagnostic of an open oath's plan.
        let open_analyses: Vec<&Analysis> = open
            .iter()
            .filter_map(|(u, _)| self.analyses.get(u))
            .collect();
        let located: BTreeSet<&str> = open_analyses
            .iter()
            .flat_map(|a| &a.plan.diagnostics)
            .filter_map(|d| d.doc_path.as_deref())
            .filter(|p| !open.iter().any(|(_, o)| o == p))
            .collect();
        let root = &self.projects[project].root;
        for path in located {
            if let Ok(uri) = Url::from_file_path(root.join(path)) {
                now.insert(uri, located_diagnostics(path, &open_analyses));
            }
        }
        let gone: Vec<Url> = self
            .published
            .iter()
            .filter(|(u, (p, _))| *p == project && !now.contains_key(*u))
            .map(|(u, _)| u.clone())
            .collect();
        for uri in gone {
            if let Some((_, old)) = self.published.remove(&uri)
                && !old.is_empty()
            {
                self.publish_raw(uri, Vec::new())?;
            }
        }
        for (uri, diagnostics) in now {
            let unchanged = self
                .published
                .get(&uri)
                .is_some_and(|(_, old)| *old == diagnostics);
            if unchanged && !replanned.contains(&uri) {
                continue;
            }
            self.published
                .insert(uri.clone(), (project, diagnostics.clone()));
            self.publish_raw(uri, diagnostics)?;
        }
        Ok(())
    }

    /// The text of an oath of a project as planning sees it (the editor's
    /// if it is open), else the file's.
    pub(crate) fn text_of(&self, project: usize, oath_path: &str) -> Option<String> {
        let p = &self.projects[project];
        p.oaths
            .text(oath_path)
            .map(str::to_string)
            .or_else(|| std::fs::read_to_string(p.root.join(oath_path)).ok())
    }

    /// The evidence of every result that may hold a failure shown in
    /// `document`: its own, and every result with a `docPath` naming it.
    fn evidence(&self, project: usize, document: &str) -> Vec<OathEvidence> {
        let p = &self.projects[project];
        let mut out = Vec::new();
        for (oath, results) in &p.results {
            let names_document = results
                .examples
                .iter()
                .any(|e| e.failure.as_ref().and_then(|f| f.doc_path.as_deref()) == Some(document));
            if oath != document && !names_document {
                continue;
            }
            let documents: BTreeMap<String, DocumentText> = results
                .documents
                .iter()
                .map(|d| {
                    let text = match self.text_of(project, &d.path) {
                        Some(text) => DocumentText::Text(text),
                        None => DocumentText::Missing,
                    };
                    (d.path.clone(), text)
                })
                .collect();
            out.push(OathEvidence {
                oath_path: oath.clone(),
                result_path: varar_runner::store::result_path_shown(oath),
                text: self.text_of(project, oath).ok_or_else(|| {
                    ErrorRecord::new(Code::InputError, format!("{oath} cannot be read"))
                }),
                results: Ok(Some(results.clone())),
                documents,
                absent_because: None,
            });
        }
        out
    }
}
