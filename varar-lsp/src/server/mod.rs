//! The protocol loop (shell): one thread reads the editor's messages in
//! order, keeps the open documents and the projects, and answers from the
//! pure modules. A change of an open oath re-plans it, and every open oath
//! whose plan depends on it (it links to the oath, or the oath links to one
//! of its sections), off the loop, as soon as no other message waits (a
//! burst of keystrokes is planned once), and publishes their diagnostics
//! when the plans are made; a request that reads the plan of a changed
//! oath waits for it (or for `$/cancelRequest`), so it is always answered
//! from the text the editor has, while requests about other documents are
//! answered meanwhile (`waiting`). The state it keeps is in
//! `server_state`, requests are answered in `requests`, planning and
//! publishing are in `sync`.

mod background;
mod events;
mod execute;
pub mod project_state;
mod requests;
mod run_cargo;
pub mod run_output;
mod server_state;
mod sync;
mod waiting;

pub use server_state::ServerError;

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};

use crossbeam_channel::select;
use lsp_server::{Connection, ErrorCode, Message, Notification, Request, RequestId, Response};
use lsp_types::notification::{
    Cancel, DidChangeTextDocument, DidChangeWatchedFiles, DidCloseTextDocument,
    DidOpenTextDocument, DidSaveTextDocument, Notification as _, WorkDoneProgressCancel,
};
use lsp_types::{
    ClientCapabilities, DidChangeTextDocumentParams, DidCloseTextDocumentParams,
    DidSaveTextDocumentParams, InitializeParams, NumberOrString, Url,
};
use varar_project::config::CONFIG_FILE_NAME;

use crate::handlers::diagnostics::{config_diagnostics, rust_diagnostics};
use crate::handlers::lenses::unused_hints;
use crate::handlers::{capabilities, position};
use project_state::{Changed, ProjectState};
use requests::Answer;
use server_state::{ClientCaps, OpenOath, Server};

/// Run the server on a connection until the editor says `exit`.
pub fn run(connection: Connection) -> Result<(), ServerError> {
    let (id, params) = connection.initialize_start()?;
    let params: InitializeParams = serde_json::from_value(params).unwrap_or_default();
    let watches = params
        .capabilities
        .workspace
        .as_ref()
        .and_then(|w| w.did_change_watched_files.as_ref())
        .and_then(|w| w.dynamic_registration)
        .unwrap_or(false);
    let refreshes_tokens = params
        .capabilities
        .workspace
        .as_ref()
        .and_then(|w| w.semantic_tokens.as_ref())
        .and_then(|t| t.refresh_support)
        .unwrap_or(false);
    let client = client_caps(&params.capabilities);
    connection.initialize_finish(id, capabilities::initialize_result())?;
    let (events, incoming) = crossbeam_channel::unbounded();
    let mut server = Server {
        connection,
        projects: Vec::new(),
        documents: HashMap::new(),
        analyses: HashMap::new(),
        plan_deps: HashMap::new(),
        planning: HashMap::new(),
        waiting: Vec::new(),
        closed: HashMap::new(),
        published: HashMap::new(),
        dirty: HashSet::new(),
        watches,
        refreshes_tokens,
        next_request: 0,
        client,
        events,
        incoming,
        runs: HashMap::new(),
        next_run: 0,
        progress_created: HashMap::new(),
        usages: HashMap::new(),
        rust_diagnostics: HashMap::new(),
    };
    // `initialize_finish` consumed the `initialized` notification: this is
    // the moment to ask for file watching.
    server.register_watchers()?;
    server.main_loop()
}

/// What the editor can do that the server uses when it can.
fn client_caps(c: &ClientCapabilities) -> ClientCaps {
    let window = c.window.as_ref();
    let workspace = c.workspace.as_ref();
    ClientCaps {
        progress: window.and_then(|w| w.work_done_progress).unwrap_or(false),
        show_document: window
            .and_then(|w| w.show_document.as_ref())
            .is_some_and(|s| s.support),
        refreshes_lenses: workspace
            .and_then(|w| w.code_lens.as_ref())
            .and_then(|l| l.refresh_support)
            .unwrap_or(false),
        document_changes: workspace
            .and_then(|w| w.workspace_edit.as_ref())
            .and_then(|e| e.document_changes)
            .unwrap_or(false),
    }
}

impl Server {
    /// Take the editor's messages and the background's events as they
    /// come; when neither waits, plan what changed and start a round of
    /// usages where one is due.
    fn main_loop(&mut self) -> Result<(), ServerError> {
        loop {
            select! {
                recv(self.connection.receiver) -> message => {
                    let Ok(message) = message else { break };
                    match message {
                        Message::Request(request) => {
                            if request.method == "shutdown" {
                                self.stop_runs();
                                self.cancel_waiting_all()?;
                                self.send(Response::new_ok(request.id, serde_json::Value::Null).into())?;
                                return self.until_exit();
                            }
                            self.take_request(request)?;
                        }
                        Message::Notification(n) => self.notification(n)?,
                        // Answers to our own requests (registrations,
                        // progress tokens, refreshes).
                        Message::Response(response) => self.answered(&response)?,
                    }
                }
                recv(self.incoming) -> event => {
                    if let Ok(event) = event {
                        self.event(event)?;
                    }
                }
            }
            self.answer_waiting()?;
            if self.connection.receiver.is_empty() && self.incoming.is_empty() {
                self.flush()?;
                for project in 0..self.projects.len() {
                    self.start_usages(project);
                }
            }
        }
        self.stop_runs();
        Ok(())
    }

    /// After `shutdown`: wait for `exit`. A late answer to one of our
    /// requests (a token refresh the editor answers while shutting down) is
    /// ignored and a request refused, instead of stopping with a protocol
    /// error as `lsp_server`'s own shutdown handling does.
    fn until_exit(&mut self) -> Result<(), ServerError> {
        while let Ok(message) = self.connection.receiver.recv() {
            match message {
                Message::Notification(n) if n.method == "exit" => return Ok(()),
                Message::Request(request) => self.send(
                    Response::new_err(
                        request.id,
                        ErrorCode::InvalidRequest as i32,
                        "the server is shutting down".to_string(),
                    )
                    .into(),
                )?,
                Message::Notification(_) | Message::Response(_) => {}
            }
        }
        Ok(())
    }

    /// Plan and publish every oath changed since its last plan, and what
    /// depends on it (off the loop: see `sync`).
    pub(super) fn flush(&mut self) -> Result<(), ServerError> {
        let dirty: HashSet<Url> = self.dirty.drain().collect();
        let mut projects: Vec<usize> = Vec::new();
        for uri in &dirty {
            let Some(doc) = self.documents.get(uri) else {
                continue;
            };
            self.projects[doc.project]
                .oaths
                .edit(&doc.oath_path, &doc.text);
            if !projects.contains(&doc.project) {
                projects.push(doc.project);
            }
        }
        for project in projects {
            self.sync(project, &dirty, false)?;
        }
        Ok(())
    }

    /// The answer to a request, unless it is answered later.
    pub(super) fn request(&mut self, request: Request) -> Option<Response> {
        let id = request.id.clone();
        Some(match requests::handle(self, request) {
            Ok(Answer::Now(Some(value))) => Response::new_ok(id, value),
            Ok(Answer::Now(None)) => Response::new_ok(id, serde_json::Value::Null),
            Ok(Answer::Later) => return None,
            Ok(Answer::Failed(message)) => {
                Response::new_err(id, ErrorCode::RequestFailed as i32, message)
            }
            Err(requests::RequestError::Unknown(method)) => Response::new_err(
                id,
                ErrorCode::MethodNotFound as i32,
                format!("cargo varar lsp does not answer {method}"),
            ),
            Err(requests::RequestError::Params(e)) => {
                Response::new_err(id, ErrorCode::InvalidParams as i32, e.to_string())
            }
        })
    }

    fn notification(&mut self, n: Notification) -> Result<(), ServerError> {
        match n.method.as_str() {
            DidOpenTextDocument::METHOD => extract::<DidOpenTextDocument>(n).map_or(Ok(()), |p| {
                let d = p.text_document;
                self.open(d.uri, d.version, d.text)
            }),
            DidChangeTextDocument::METHOD => {
                extract::<DidChangeTextDocument>(n).map_or(Ok(()), |p| self.changed(p))
            }
            DidSaveTextDocument::METHOD => {
                extract::<DidSaveTextDocument>(n).map_or(Ok(()), |p| self.saved(&p))
            }
            DidCloseTextDocument::METHOD => {
                extract::<DidCloseTextDocument>(n).map_or(Ok(()), |p| self.closed(&p))
            }
            DidChangeWatchedFiles::METHOD => {
                extract::<DidChangeWatchedFiles>(n).map_or(Ok(()), |p| {
                    let paths: Vec<PathBuf> = p
                        .changes
                        .iter()
                        .filter_map(|c| c.uri.to_file_path().ok())
                        .collect();
                    self.files_changed(&paths)
                })
            }
            Cancel::METHOD => {
                if let Some(p) = extract::<Cancel>(n) {
                    let id = match p.id {
                        NumberOrString::Number(n) => RequestId::from(n),
                        NumberOrString::String(s) => RequestId::from(s),
                    };
                    if !self.cancel_waiting(&id)? {
                        self.cancel(Some(id), None);
                    }
                }
                Ok(())
            }
            WorkDoneProgressCancel::METHOD => {
                if let Some(p) = extract::<WorkDoneProgressCancel>(n) {
                    self.cancel(None, Some(p.token));
                }
                Ok(())
            }
            _ => Ok(()),
        }
    }

    /// The editor changed an open oath: planned when no message waits.
    fn changed(&mut self, p: DidChangeTextDocumentParams) -> Result<(), ServerError> {
        let uri = p.text_document.uri;
        let Some(doc) = self.documents.get_mut(&uri) else {
            return Ok(());
        };
        doc.version = p.text_document.version;
        for change in &p.content_changes {
            position::apply_change(&mut doc.text, change);
        }
        self.dirty.insert(uri);
        Ok(())
    }

    /// The editor saved a file: read what it affects.
    fn saved(&mut self, p: &DidSaveTextDocumentParams) -> Result<(), ServerError> {
        let Ok(path) = p.text_document.uri.to_file_path() else {
            return Ok(());
        };
        if self.watches {
            // The watcher reports the save of a Rust file too, but an
            // editor attached to Rust files may save before the watcher
            // fires: read it now, the event finds no change.
            self.files_changed(&[path])
        } else {
            self.refresh_all()
        }
    }

    /// The editor closed an oath: the file's text counts again.
    fn closed(&mut self, p: &DidCloseTextDocumentParams) -> Result<(), ServerError> {
        let uri = &p.text_document.uri;
        let Some(doc) = self.documents.remove(uri) else {
            return Ok(());
        };
        self.analyses.remove(uri);
        self.plan_deps.remove(uri);
        self.dirty.remove(uri);
        // The file's text counts again (unsaved edits are gone).
        let disk = varar_project::files::read(&doc.path)
            .ok()
            .and_then(|b| String::from_utf8(b).ok());
        self.projects[doc.project].oaths.close(&doc.oath_path, disk);
        self.sync(doc.project, &HashSet::new(), false)
    }

    fn register_watchers(&mut self) -> Result<(), ServerError> {
        if !self.watches {
            return Ok(());
        }
        let watchers: Vec<lsp_types::FileSystemWatcher> = [
            "**/*.md",
            "**/*.rs",
            "**/varar.lock.json",
            "**/varar.config.json",
            "**/Cargo.toml",
            "**/.varar/**/*.json",
        ]
        .iter()
        .map(|g| lsp_types::FileSystemWatcher {
            glob_pattern: lsp_types::GlobPattern::String((*g).to_string()),
            kind: None,
        })
        .collect();
        let registration = lsp_types::Registration {
            id: "varar-watched-files".to_string(),
            method: DidChangeWatchedFiles::METHOD.to_string(),
            register_options: serde_json::to_value(
                lsp_types::DidChangeWatchedFilesRegistrationOptions { watchers },
            )
            .ok(),
        };
        self.next_request += 1;
        self.send(
            Request::new(
                RequestId::from(format!("varar-{}", self.next_request)),
                "client/registerCapability".to_string(),
                lsp_types::RegistrationParams {
                    registrations: vec![registration],
                },
            )
            .into(),
        )
    }

    /// The project `path` belongs to (loaded on first use), by the config
    /// at or above it.
    pub(crate) fn project_for(&mut self, path: &Path) -> Result<Option<usize>, ServerError> {
        let Some(dir) = path.parent() else {
            return Ok(None);
        };
        let Ok(root) = varar_project::root::resolve(None, dir) else {
            return Ok(None);
        };
        let root = crate::analysis::rust_sources::normalize(&root);
        if let Some(i) = self.projects.iter().position(|p| p.root == root) {
            return Ok(Some(i));
        }
        let mut log = Vec::new();
        let project = ProjectState::load(&root, &mut log);
        self.log(log)?;
        self.projects.push(project);
        let i = self.projects.len() - 1;
        self.publish_rust(i)?;
        Ok(Some(i))
    }

    fn open(&mut self, uri: Url, version: i32, text: String) -> Result<(), ServerError> {
        let Ok(path) = uri.to_file_path() else {
            return Ok(());
        };
        if path.extension().is_none_or(|x| x != "md") {
            // A Rust file (the server attached to Rust for find
            // references): load its project, so references work before
            // any oath is opened.
            if path.extension().is_some_and(|x| x == "rs") {
                self.project_for(&path)?;
            }
            if !self.watches {
                return self.refresh_all();
            }
            return Ok(());
        }
        let Some(project) = self.project_for(&path)? else {
            return Ok(());
        };
        if !self.watches {
            self.refresh(project)?;
        }
        let Some(oath_path) = self.projects[project].oath_path(&path) else {
            // Markdown the config does not select is not an oath.
            return Ok(());
        };
        self.documents.insert(
            uri.clone(),
            OpenOath {
                version,
                text: text.clone(),
                path,
                project,
                oath_path: oath_path.clone(),
            },
        );
        self.projects[project].oaths.open(&oath_path, &text);
        self.sync(project, &HashSet::from([uri]), false)
    }

    /// Publish the diagnostics of every Rust file of a project that
    /// changed: its own problems, and (once a round of usages describes
    /// the project) a hint on each step no oath uses; and those of its
    /// `varar.config.json` (keys written twice), kept with them.
    pub(crate) fn publish_rust(&mut self, project: usize) -> Result<(), ServerError> {
        let usages = self.fresh_usages(project);
        let p = &self.projects[project];
        let mut now = Vec::new();
        if let Ok(uri) = Url::from_file_path(p.root.join(CONFIG_FILE_NAME)) {
            now.push((uri, config_diagnostics(&p.config_warnings)));
        }
        for file in p.index.files() {
            let mut diagnostics = rust_diagnostics(file, p.index.problems());
            if let Some(usages) = &usages {
                diagnostics.extend(unused_hints(&p.index, &file.path, usages));
            }
            if let Ok(uri) = Url::from_file_path(&file.path) {
                now.push((uri, diagnostics));
            }
        }
        for (uri, diagnostics) in now {
            let unchanged = match self.rust_diagnostics.get(&uri) {
                Some(before) => *before == diagnostics,
                None => diagnostics.is_empty(),
            };
            if unchanged {
                continue;
            }
            if diagnostics.is_empty() {
                self.rust_diagnostics.remove(&uri);
            } else {
                self.rust_diagnostics
                    .insert(uri.clone(), diagnostics.clone());
            }
            self.publish_raw(uri, diagnostics)?;
        }
        Ok(())
    }

    fn files_changed(&mut self, paths: &[PathBuf]) -> Result<(), ServerError> {
        let mut log = Vec::new();
        let mut changes: Vec<(usize, Changed)> = Vec::new();
        for path in paths {
            for (i, project) in self.projects.iter_mut().enumerate() {
                let c = project.reload(path, &mut log);
                if c != Changed::default() {
                    changes.push((i, c));
                }
            }
        }
        self.log(log)?;
        self.apply(changes)
    }

    fn refresh(&mut self, project: usize) -> Result<(), ServerError> {
        let mut log = Vec::new();
        let c = self.projects[project].refresh(&mut log);
        self.log(log)?;
        self.apply(vec![(project, c)])
    }

    fn refresh_all(&mut self) -> Result<(), ServerError> {
        for i in 0..self.projects.len() {
            self.refresh(i)?;
        }
        Ok(())
    }

    /// Act on what changed: reload a project, re-plan its open oaths and
    /// what depends on a changed oath, re-publish diagnostics.
    pub(crate) fn apply(&mut self, changes: Vec<(usize, Changed)>) -> Result<(), ServerError> {
        for (project, c) in changes {
            if c.project {
                let mut log = Vec::new();
                let root = self.projects[project].root.clone();
                self.projects[project] = ProjectState::load(&root, &mut log);
                self.log(log)?;
                // The editor's texts still win over the files.
                let open: Vec<(String, String)> = self
                    .documents
                    .values()
                    .filter(|d| d.project == project)
                    .map(|d| (d.oath_path.clone(), d.text.clone()))
                    .collect();
                for (oath_path, text) in open {
                    self.projects[project].oaths.open(&oath_path, &text);
                }
            }
            if c != Changed::default() {
                // Steps, the lock (drift), results or an oath changed: what
                // depends on them is re-planned (every open oath when the
                // steps, the lock or the project changed) and re-published.
                let force = c.project || c.steps || c.evidence;
                if force {
                    self.closed.retain(|(p, _), _| *p != project);
                }
                self.sync(project, &HashSet::new(), force)?;
            }
            if c.project || c.rust {
                self.publish_rust(project)?;
            }
        }
        Ok(())
    }
}

/// The parameters of a notification `N`; `None` when they do not fit (the
/// notification is ignored, as the protocol asks).
fn extract<N: lsp_types::notification::Notification>(n: Notification) -> Option<N::Params> {
    n.extract::<N::Params>(N::METHOD).ok()
}
