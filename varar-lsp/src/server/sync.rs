//! Keeping the plans and the published diagnostics in step with the oaths
//! (shell, part of the server).
//!
//! After any change in a project, [`Server::sync`]:
//! 1. re-plans every open oath whose plan no longer holds (its text, a text
//!    its links reach, the links naming its sections or the steps changed:
//!    [`Deps`](crate::analysis::oaths::Deps)), all in one engine workspace, on a
//!    thread of its own with a copy of what it reads, so that no request
//!    about another document and no cancellation waits for it; a plan that
//!    no longer holds when it is made (the editor changed the text
//!    meanwhile) is dropped and made again;
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

use super::events::Event;
use super::server_state::{Server, ServerError};
use crate::analysis::oaths::Deps;
use crate::analysis::{Analysis, PlanContext, plan_documents_with, reuses};
use crate::handlers::diagnostics::{
    Latest, holds_earlier, located_diagnostics, oath_diagnostics, recorded_failures,
    standing_diagnostic,
};
use varar_core::verdict::current::RunRead;
use varar_core::verdict::evidence::{DocumentText, OathEvidence};
use varar_core::verdict::records::{Code, ErrorRecord};

impl Server {
    /// Bring a project's plans and diagnostics up to date; `edited` are the
    /// open oaths the editor changed (their tokens are asked for anyway),
    /// `force` re-plans every open oath. The open oaths whose plan no
    /// longer holds are planned off the loop (the rest follows when they
    /// are, see [`Self::planned`]); while a planning of the project goes
    /// on, what is asked here follows when it ends.
    pub(crate) fn sync(
        &mut self,
        project: usize,
        edited: &HashSet<Url>,
        force: bool,
    ) -> Result<(), ServerError> {
        let state = self.planning.entry(project).or_default();
        state.edited.extend(edited.iter().cloned());
        state.force |= force;
        if state.in_flight.is_some() {
            return Ok(());
        }
        self.start_planning(project)
    }

    /// The open oaths of a project: (uri, oathPath).
    fn open_in(&self, project: usize) -> Vec<(Url, String)> {
        self.documents
            .iter()
            .filter(|(_, d)| d.project == project)
            .map(|(u, d)| (u.clone(), d.oath_path.clone()))
            .collect()
    }

    /// Whether the last plan of an open oath was made from what planning
    /// it now would read (its text, the texts its links reach, the links
    /// naming its sections, the steps).
    fn plan_holds(&self, project: usize, uri: &Url, oath_path: &str) -> bool {
        let p = &self.projects[project];
        self.plan_deps
            .get(uri)
            .is_some_and(|d| p.oaths.deps_hold(oath_path, p.index.generation(), d))
    }

    /// Whether an open oath of a project must be planned again.
    fn needs_planning(&self, project: usize) -> bool {
        self.planning.get(&project).is_some_and(|s| s.force)
            || self
                .open_in(project)
                .iter()
                .any(|(u, p)| !self.plan_holds(project, u, p))
    }

    /// Whether the plan of an open oath is the one of the text planning
    /// sees, and no planning of it waits or goes on: a request about it
    /// can be answered. `true` for a document that is not an open oath.
    pub(crate) fn plan_is_current(&self, uri: &Url) -> bool {
        let Some(doc) = self.documents.get(uri) else {
            return true;
        };
        let busy = self
            .planning
            .get(&doc.project)
            .is_some_and(|s| s.force || s.in_flight.as_ref().is_some_and(|f| f.contains(uri)));
        !busy && !self.dirty.contains(uri) && self.plan_holds(doc.project, uri, &doc.oath_path)
    }

    /// Step 1: plan, on a thread of its own with a copy of what it reads,
    /// the open oaths whose plan no longer holds (every open oath when
    /// forced); when none, go on with the rest at once.
    fn start_planning(&mut self, project: usize) -> Result<(), ServerError> {
        let force = self
            .planning
            .get_mut(&project)
            .is_some_and(|s| std::mem::take(&mut s.force));
        let stale: Vec<(Url, String)> = self
            .open_in(project)
            .into_iter()
            .filter(|(u, p)| force || !self.plan_holds(project, u, p))
            .collect();
        if stale.is_empty() {
            return self.finish_sync(project, &HashSet::new());
        }
        let p = &self.projects[project];
        let (index, lock, oaths) = (p.index.clone(), p.lock.clone(), p.oaths.clone());
        let memo = std::sync::Arc::clone(&p.memo);
        let epoch = p.epoch;
        let events = self.events.clone();
        self.planning.entry(project).or_default().in_flight =
            Some(stale.iter().map(|(u, _)| u.clone()).collect());
        std::thread::spawn(move || {
            let context = PlanContext {
                index: &index,
                lock: lock.as_ref(),
                oaths: &oaths,
            };
            let paths: Vec<&str> = stale.iter().map(|(_, p)| p.as_str()).collect();
            let mut analyses: HashMap<String, Analysis> =
                plan_documents_with(&context, &paths, &memo)
                    .into_iter()
                    .map(|a| (a.oath_path.clone(), a))
                    .collect();
            let planned = stale
                .iter()
                .map(|(uri, path)| {
                    let deps = oaths.deps(path, index.generation());
                    (uri.clone(), deps, analyses.remove(path))
                })
                .collect();
            let _ = events.send(Event::Planned {
                project,
                epoch,
                planned,
            });
        });
        Ok(())
    }

    /// A planning of a project ended: keep each plan that still holds
    /// (none when the project was loaded again meanwhile), go on with the
    /// rest of [`Self::sync`], and plan again what changed meanwhile.
    pub(crate) fn planned(
        &mut self,
        project: usize,
        epoch: u64,
        planned: Vec<(Url, Deps, Option<Analysis>)>,
    ) -> Result<(), ServerError> {
        self.planning.entry(project).or_default().in_flight = None;
        let Some(p) = self.projects.get(project) else {
            return Ok(());
        };
        let mut replanned = HashSet::new();
        if p.epoch == epoch {
            let generation = p.index.generation();
            for (uri, deps, analysis) in planned {
                let holds = self.documents.get(&uri).is_some_and(|d| {
                    d.project == project && p.oaths.deps_hold(&d.oath_path, generation, &deps)
                });
                if !holds {
                    continue;
                }
                self.plan_deps.insert(uri.clone(), deps);
                if let Some(analysis) = analysis {
                    if let Some(old) = self.analyses.insert(uri.clone(), analysis) {
                        drop_off_the_loop(old);
                    }
                    replanned.insert(uri);
                }
            }
        }
        self.finish_sync(project, &replanned)?;
        if self.needs_planning(project) {
            self.start_planning(project)?;
        }
        Ok(())
    }

    /// Steps 2 to 4, once the stale plans of a project are made.
    fn finish_sync(&mut self, project: usize, replanned: &HashSet<Url>) -> Result<(), ServerError> {
        let edited = self
            .planning
            .get_mut(&project)
            .map(|s| std::mem::take(&mut s.edited))
            .unwrap_or_default();
        let open = self.open_in(project);
        let retokened = self.give_reuses(project, &open);
        self.publish_project(project, &open, replanned)?;
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
                    .is_none_or(|a| !p.oaths.deps_hold(path, generation, &a.deps))
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
        for analysis in plan_documents_with(&context, &stale, &p.memo) {
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
                // Only the spliced steps and the own steps' `reused_by`
                // can change (not a copy of every step of a 5 MB oath,
                // twice, on each keystroke: issue 39), and the steps are
                // the same exactly when those are.
                let reused_by = |a: &Analysis| -> Vec<(usize, Vec<String>)> {
                    a.steps
                        .iter()
                        .enumerate()
                        .filter(|(_, s)| !s.reused_by.is_empty())
                        .map(|(i, s)| (i, s.reused_by.clone()))
                        .collect()
                };
                let before = (reused_by(analysis), analysis.reuses.steps.clone());
                analysis.set_reuses(reuses);
                if before != (reused_by(analysis), analysis.reuses.steps.clone()) {
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
        // The latest run as the gate reads it, once for every open oath.
        let view = if open.is_empty() {
            None
        } else {
            Some(self.projects[project].run_view())
        };
        let latest = Latest {
            standing: view.as_ref().and_then(|v| v.standing.as_ref()),
            run: view.as_ref().and_then(|v| v.run.as_ref()),
        };
        for (uri, path) in open {
            let Some(analysis) = self.analyses.get(uri) else {
                continue;
            };
            let evidence = self.evidence(project, path, view.as_ref().map(|v| &v.read));
            let recorded = recorded_failures(path, &evidence, latest);
            let mut diagnostics: Vec<Diagnostic> =
                standing_diagnostic(latest, holds_earlier(path, &evidence, latest))
                    .into_iter()
                    .collect();
            diagnostics.extend(oath_diagnostics(analysis, &recorded));
            now.insert(uri.clone(), diagnostics);
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
            .or_else(|| varar_project::files::read_to_string(&p.root.join(oath_path)).ok())
    }

    /// The evidence of every result that may hold a failure shown in
    /// `document`: its own, and every result with a `docPath` naming it;
    /// `read`, what the latest run read, vouches for their texts.
    fn evidence(
        &self,
        project: usize,
        document: &str,
        read: Option<&RunRead>,
    ) -> Vec<OathEvidence> {
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
            let vouched = read.map(|r| {
                r.vouched(
                    std::iter::once(oath.as_str()).chain(documents.keys().map(String::as_str)),
                )
            });
            out.push(OathEvidence {
                vouched: vouched.unwrap_or_default(),
                oath_path: oath.clone(),
                result_path: varar_project::store::result_path_shown(oath),
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

/// Free a replaced plan on a thread of its own: a 5 MB oath's takes
/// milliseconds to free (issue 39), which the diagnostics and the tokens of
/// the new one need not wait for.
fn drop_off_the_loop(old: Analysis) {
    let spawned = std::thread::Builder::new()
        .name("varar-drop".to_owned())
        .spawn(move || drop(old));
    // No thread to be had: it is freed here when the error drops.
    drop(spawned);
}
