//! Work the server does off its loop (shell, part of the server), so that
//! no document waits for it: the usages of a project's steps (every oath
//! planned), a rename (every oath planned twice), the HTML report, and
//! test runs (`run_cargo`). Each job owns a copy of what it reads and
//! reports an [`Event`](super::events::Event); the loop takes it as it
//! takes the editor's messages.
//!
//! Usages are computed in rounds: after any change in a project a round
//! starts unless one is going on or the last one still describes the
//! project ([`UsageKey`]); each round plans only the oaths whose plan no
//! longer holds. A round's end answers the `textDocument/codeLens`
//! requests of Rust files that waited for it, publishes the hints on steps
//! no oath uses, and asks the editor to fetch the lenses again.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::Arc;

use lsp_server::{ErrorCode, Request, RequestId, Response};
use lsp_types::{
    DocumentChanges, MessageType, OneOf, OptionalVersionedTextDocumentIdentifier,
    ShowDocumentParams, TextDocumentEdit, TextEdit, Url, WorkspaceEdit,
};

use super::events::{Event, UsageKey};
use super::requests;
use super::server_state::{Server, ServerError};
use crate::analysis::PlanContext;
use crate::analysis::usages::{OathUses, Usages, project_uses};
use crate::handlers::position::range;
use crate::handlers::rename::{Edit, Target, World, rename};
use varar_project::root::ProjectRoot;
use varar_report::html_report::links::page_path;
use varar_report::report::{ReportRun, open, outcome};

impl Server {
    /// What of project `project` a round of usages made now would describe.
    pub(crate) fn usage_key(&self, project: usize) -> UsageKey {
        let p = &self.projects[project];
        (p.epoch, p.index.generation(), p.oaths.version())
    }

    /// Start a round of usages of `project` unless one is going on or the
    /// last still holds.
    pub(crate) fn start_usages(&mut self, project: usize) {
        let key = self.usage_key(project);
        let state = self.usages.entry(project).or_default();
        if state.running || state.current.as_ref().is_some_and(|(k, _)| *k == key) {
            return;
        }
        state.running = true;
        let cache = std::mem::take(&mut state.cache);
        let p = &self.projects[project];
        let (index, oaths) = (p.index.clone(), p.oaths.clone());
        let events = self.events.clone();
        std::thread::spawn(move || {
            let context = PlanContext {
                index: &index,
                lock: None,
                oaths: &oaths,
            };
            let per_oath = project_uses(&context, cache);
            let usages = Usages::gather(per_oath.values(), index.registry().steps.len());
            let _ = events.send(Event::Usages {
                project,
                key,
                per_oath,
                usages,
            });
        });
    }

    /// The usages of `project` if the last round still describes it.
    pub(crate) fn fresh_usages(&self, project: usize) -> Option<Arc<Usages>> {
        let key = self.usage_key(project);
        let (k, usages) = self.usages.get(&project)?.current.as_ref()?;
        (*k == key).then(|| Arc::clone(usages))
    }

    /// Take what background work reports.
    pub(crate) fn event(&mut self, event: Event) -> Result<(), ServerError> {
        match event {
            Event::RunProgress {
                run,
                message,
                percentage,
            } => self.run_progress(run, message, percentage),
            Event::RunEnded { run, outcome, log } => self.run_ended(run, outcome, &log),
            Event::Planned {
                project,
                epoch,
                planned,
            } => self.planned(project, epoch, planned),
            Event::Usages {
                project,
                key,
                per_oath,
                usages,
            } => self.usages_done(project, key, per_oath, usages),
            Event::Renamed {
                request,
                project,
                result,
            } => {
                let response = match result {
                    Ok(edits) => {
                        let edit = self.workspace_edit(project, edits);
                        Response::new_ok(request, edit)
                    }
                    Err(refusal) => Response::new_err(
                        request,
                        ErrorCode::RequestFailed as i32,
                        format!("cannot rename: {refusal}"),
                    ),
                };
                self.send(response.into())
            }
            Event::Reported { request, page } => self.reported(request, page),
        }
    }

    fn usages_done(
        &mut self,
        project: usize,
        key: UsageKey,
        per_oath: BTreeMap<String, OathUses>,
        usages: Usages,
    ) -> Result<(), ServerError> {
        if self.projects.get(project).is_none_or(|p| p.epoch != key.0) {
            // The project was loaded again meanwhile: a new round follows.
            if let Some(state) = self.usages.get_mut(&project) {
                state.running = false;
            }
            if project < self.projects.len() {
                self.start_usages(project);
            }
            return Ok(());
        }
        let usages = Arc::new(usages);
        let (waiting, changed) = {
            let state = self.usages.entry(project).or_default();
            state.running = false;
            state.cache = per_oath;
            let changed = state.current.as_ref().is_none_or(|(_, u)| **u != *usages);
            state.current = Some((key, Arc::clone(&usages)));
            (std::mem::take(&mut state.waiting), changed)
        };
        for (request, path) in waiting {
            let lenses = requests::rust_lenses(self, project, &path, &usages);
            self.send(Response::new_ok(request, lenses).into())?;
        }
        if !changed {
            // Same uses as before (an edit that moved no step): nothing to
            // draw again. A round still follows if the project changed.
            self.start_usages(project);
            return Ok(());
        }
        self.publish_rust(project)?;
        if self.client.refreshes_lenses {
            self.next_request += 1;
            let id = RequestId::from(format!("varar-{}", self.next_request));
            let refresh = Request::new(
                id,
                "workspace/codeLens/refresh".to_string(),
                serde_json::Value::Null,
            );
            self.send(refresh.into())?;
        }
        // Changed while it ran: another round.
        self.start_usages(project);
        Ok(())
    }

    /// Work out a rename of registry step `step` of `project` to `new` off
    /// the loop; the answer goes to `request`.
    pub(crate) fn start_rename(
        &mut self,
        request: RequestId,
        project: usize,
        step: usize,
        new: String,
    ) {
        let p = &self.projects[project];
        let (index, lock, oaths) = (p.index.clone(), p.lock.clone(), p.oaths.clone());
        let events = self.events.clone();
        std::thread::spawn(move || {
            let world = World {
                index: &index,
                lock: lock.as_ref(),
                oaths: &oaths,
            };
            let result = rename(&world, step, &new);
            let _ = events.send(Event::Renamed {
                request,
                project,
                result,
            });
        });
    }

    /// The edits as the protocol's, with the version of every open oath
    /// when the editor takes versioned edits.
    fn workspace_edit(&self, project: usize, edits: Vec<Edit>) -> WorkspaceEdit {
        let root = &self.projects[project].root;
        let mut by_uri: BTreeMap<Url, (Option<i32>, Vec<TextEdit>)> = BTreeMap::new();
        for edit in edits {
            let path = match &edit.target {
                Target::Oath(oath) => root.join(oath),
                Target::Rust(path) => path.clone(),
            };
            let Ok(uri) = Url::from_file_path(&path) else {
                continue;
            };
            let version = self.documents.get(&uri).map(|d| d.version);
            let entry = by_uri.entry(uri).or_insert((version, Vec::new()));
            entry.1.push(TextEdit {
                range: range(&edit.span),
                new_text: edit.text,
            });
        }
        if self.client.document_changes {
            let changes = by_uri
                .into_iter()
                .map(|(uri, (version, edits))| TextDocumentEdit {
                    text_document: OptionalVersionedTextDocumentIdentifier { uri, version },
                    edits: edits.into_iter().map(OneOf::Left).collect(),
                })
                .collect();
            WorkspaceEdit {
                document_changes: Some(DocumentChanges::Edits(changes)),
                ..WorkspaceEdit::default()
            }
        } else {
            WorkspaceEdit {
                changes: Some(
                    by_uri
                        .into_iter()
                        .map(|(uri, (_, edits))| (uri, edits))
                        .collect(),
                ),
                ..WorkspaceEdit::default()
            }
        }
    }

    /// Write the report of `project` off the loop; the page of `oath_path`
    /// is opened when it is written.
    pub(crate) fn start_report(&mut self, request: RequestId, project: usize, oath_path: String) {
        let root = self.projects[project].root.clone();
        let events = self.events.clone();
        std::thread::spawn(move || {
            let run = ReportRun {
                project: ProjectRoot {
                    explicit: Some(root.clone()),
                    cwd: root,
                },
                out: None,
                open: false,
            };
            let page = outcome(&run)
                .map_err(|e| e.to_string())
                .and_then(|outcome| {
                    let dir = outcome
                        .index
                        .parent()
                        .map(PathBuf::from)
                        .ok_or_else(|| "the report has no directory".to_string())?;
                    Ok(dir.join(page_path(&oath_path)))
                });
            let _ = events.send(Event::Reported { request, page });
        });
    }

    /// Open the page: by the editor when it can (`window/showDocument`),
    /// else in the browser the report's `--open` uses.
    fn reported(
        &mut self,
        request: RequestId,
        page: Result<PathBuf, String>,
    ) -> Result<(), ServerError> {
        let page = match page {
            Ok(page) => page,
            Err(why) => {
                self.show(MessageType::ERROR, format!("no report was written: {why}"))?;
                return self
                    .send(Response::new_err(request, ErrorCode::RequestFailed as i32, why).into());
            }
        };
        let uri = Url::from_file_path(&page).ok();
        let opened = match (&uri, self.client.show_document) {
            (Some(uri), true) => {
                self.next_request += 1;
                let id = RequestId::from(format!("varar-{}", self.next_request));
                let show = Request::new(
                    id,
                    "window/showDocument".to_string(),
                    ShowDocumentParams {
                        uri: uri.clone(),
                        external: Some(true),
                        take_focus: Some(true),
                        selection: None,
                    },
                );
                self.send(show.into())?;
                true
            }
            _ => open(&page).is_ok(),
        };
        if !opened {
            self.show(
                MessageType::INFO,
                format!("the report of this oath is {}", page.display()),
            )?;
        }
        let answer = serde_json::json!({"page": uri.map(|u| u.to_string())});
        self.send(Response::new_ok(request, answer).into())
    }
}
