//! The protocol loop (shell): one thread reads the editor's messages in
//! order, keeps the open documents and the projects, and answers from the
//! pure modules. A change of an open oath re-plans it and publishes its
//! diagnostics as soon as no other message waits (a burst of keystrokes is
//! planned once); a request first plans what changed, so it is always
//! answered from the text the editor has.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::path::{Path, PathBuf};

use lsp_server::{Connection, ErrorCode, Message, Notification, Request, RequestId, Response};
use lsp_types::notification::{
    DidChangeTextDocument, DidChangeWatchedFiles, DidCloseTextDocument, DidOpenTextDocument,
    DidSaveTextDocument, Initialized, LogMessage, Notification as _, PublishDiagnostics,
};
use lsp_types::{
    Diagnostic, InitializeParams, LogMessageParams, MessageType, PublishDiagnosticsParams, Url,
};

use super::analysis::{Analysis, Workspace, plan_document};
use super::diagnostics::{oath_diagnostics, recorded_failures, rust_diagnostics};
use super::workspace::{Changed, Project};
use super::{capabilities, handlers, position};
use crate::evidence::{DocumentText, OathEvidence};
use crate::records::{Code, ErrorRecord};

/// Why the server stopped abnormally.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ServerError {
    /// The editor broke the protocol (or went away during the handshake).
    #[error("language server protocol error: {0}")]
    Protocol(#[from] lsp_server::ProtocolError),
    /// The connection to the editor closed while a message was sent.
    #[error("the editor closed the connection")]
    Disconnected,
}

/// An open oath.
#[derive(Debug)]
pub(crate) struct Document {
    pub(crate) text: String,
    pub(crate) path: PathBuf,
    /// Index into the projects.
    pub(crate) project: usize,
    pub(crate) oath_path: String,
}

/// The server's state.
pub(crate) struct Server {
    connection: Connection,
    pub(crate) projects: Vec<Project>,
    pub(crate) documents: HashMap<Url, Document>,
    pub(crate) analyses: HashMap<Url, Analysis>,
    /// Plans of oaths that are not open, for find references, with the
    /// text and registry generation they were made from.
    pub(crate) closed: HashMap<PathBuf, Analysis>,
    /// Rust files with published diagnostics, to clear them.
    rust_published: HashSet<Url>,
    /// Open oaths changed since their last plan: planned when no message
    /// waits (so a burst of keystrokes is planned once) or before a request.
    dirty: HashSet<Url>,
    /// Whether the client watches files for us.
    watches: bool,
    next_request: i32,
}

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
    connection.initialize_finish(id, capabilities::initialize_result())?;
    let mut server = Server {
        connection,
        projects: Vec::new(),
        documents: HashMap::new(),
        analyses: HashMap::new(),
        closed: HashMap::new(),
        rust_published: HashSet::new(),
        dirty: HashSet::new(),
        watches,
        next_request: 0,
    };
    server.main_loop()
}

impl Server {
    fn main_loop(&mut self) -> Result<(), ServerError> {
        while let Ok(message) = self.connection.receiver.recv() {
            match message {
                Message::Request(request) => {
                    if self.connection.handle_shutdown(&request)? {
                        return Ok(());
                    }
                    self.flush()?;
                    let response = self.request(request);
                    self.send(response.into())?;
                }
                Message::Notification(n) => self.notification(n)?,
                // Answers to our own requests (the watcher registration).
                Message::Response(_) => {}
            }
            if self.connection.receiver.is_empty() {
                self.flush()?;
            }
        }
        Ok(())
    }

    /// Plan and publish every oath changed since its last plan.
    fn flush(&mut self) -> Result<(), ServerError> {
        let dirty: Vec<Url> = self.dirty.drain().collect();
        for uri in dirty {
            self.analyse(&uri);
            self.publish(&uri)?;
        }
        Ok(())
    }

    fn send(&self, message: Message) -> Result<(), ServerError> {
        self.connection
            .sender
            .send(message)
            .map_err(|_| ServerError::Disconnected)
    }

    fn notify<N: lsp_types::notification::Notification>(
        &self,
        params: N::Params,
    ) -> Result<(), ServerError> {
        self.send(Notification::new(N::METHOD.to_string(), params).into())
    }

    /// Send log lines to the editor's log (`window/logMessage`).
    pub(crate) fn log(&self, lines: Vec<String>) -> Result<(), ServerError> {
        for message in lines {
            self.notify::<LogMessage>(LogMessageParams {
                typ: MessageType::WARNING,
                message: format!("varar: {message}"),
            })?;
        }
        Ok(())
    }

    fn request(&mut self, request: Request) -> Response {
        let id = request.id.clone();
        match handlers::handle(self, request) {
            Ok(Some(value)) => Response::new_ok(id, value),
            Ok(None) => Response::new_ok(id, serde_json::Value::Null),
            Err(handlers::RequestError::Unknown(method)) => Response::new_err(
                id,
                ErrorCode::MethodNotFound as i32,
                format!("cargo varar lsp does not answer {method}"),
            ),
            Err(handlers::RequestError::Params(e)) => {
                Response::new_err(id, ErrorCode::InvalidParams as i32, e.to_string())
            }
        }
    }

    fn notification(&mut self, n: Notification) -> Result<(), ServerError> {
        match n.method.as_str() {
            Initialized::METHOD => self.register_watchers(),
            DidOpenTextDocument::METHOD => {
                let Ok(p) =
                    n.extract::<lsp_types::DidOpenTextDocumentParams>(DidOpenTextDocument::METHOD)
                else {
                    return Ok(());
                };
                self.open(p.text_document.uri, p.text_document.text)
            }
            DidChangeTextDocument::METHOD => {
                let Ok(p) = n.extract::<lsp_types::DidChangeTextDocumentParams>(
                    DidChangeTextDocument::METHOD,
                ) else {
                    return Ok(());
                };
                let uri = p.text_document.uri;
                let Some(doc) = self.documents.get_mut(&uri) else {
                    return Ok(());
                };
                for change in &p.content_changes {
                    position::apply_change(&mut doc.text, change);
                }
                self.dirty.insert(uri);
                Ok(())
            }
            DidSaveTextDocument::METHOD => {
                let Ok(p) =
                    n.extract::<lsp_types::DidSaveTextDocumentParams>(DidSaveTextDocument::METHOD)
                else {
                    return Ok(());
                };
                let Ok(path) = p.text_document.uri.to_file_path() else {
                    return Ok(());
                };
                if self.watches {
                    // The watcher reports the save of a Rust file too, but
                    // an editor attached to Rust files may save before the
                    // watcher fires: read it now, the event finds no change.
                    self.files_changed(&[path])
                } else {
                    self.refresh_all()
                }
            }
            DidCloseTextDocument::METHOD => {
                let Ok(p) = n
                    .extract::<lsp_types::DidCloseTextDocumentParams>(DidCloseTextDocument::METHOD)
                else {
                    return Ok(());
                };
                let uri = p.text_document.uri;
                if self.documents.remove(&uri).is_some() {
                    self.analyses.remove(&uri);
                    self.dirty.remove(&uri);
                    self.publish_raw(uri, Vec::new())?;
                }
                Ok(())
            }
            DidChangeWatchedFiles::METHOD => {
                let Ok(p) = n.extract::<lsp_types::DidChangeWatchedFilesParams>(
                    DidChangeWatchedFiles::METHOD,
                ) else {
                    return Ok(());
                };
                let paths: Vec<PathBuf> = p
                    .changes
                    .iter()
                    .filter_map(|c| c.uri.to_file_path().ok())
                    .collect();
                self.files_changed(&paths)
            }
            _ => Ok(()),
        }
    }

    fn register_watchers(&mut self) -> Result<(), ServerError> {
        if !self.watches {
            return Ok(());
        }
        let watchers: Vec<lsp_types::FileSystemWatcher> = [
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
    fn project_for(&mut self, path: &Path) -> Result<Option<usize>, ServerError> {
        let Some(dir) = path.parent() else {
            return Ok(None);
        };
        let Ok(root) = crate::root::resolve(None, dir) else {
            return Ok(None);
        };
        let root = super::discovery::normalize(&root);
        if let Some(i) = self.projects.iter().position(|p| p.root == root) {
            return Ok(Some(i));
        }
        let mut log = Vec::new();
        let project = Project::load(&root, &mut log);
        self.log(log)?;
        self.projects.push(project);
        let i = self.projects.len() - 1;
        self.publish_rust(i)?;
        Ok(Some(i))
    }

    fn open(&mut self, uri: Url, text: String) -> Result<(), ServerError> {
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
        self.closed.remove(&path);
        self.documents.insert(
            uri.clone(),
            Document {
                text,
                path,
                project,
                oath_path,
            },
        );
        self.analyse(&uri);
        self.publish(&uri)
    }

    /// Re-plan an open oath.
    pub(crate) fn analyse(&mut self, uri: &Url) {
        let Some(doc) = self.documents.get(uri) else {
            return;
        };
        let project = &self.projects[doc.project];
        let workspace = Workspace {
            index: &project.index,
            lock: project.lock.as_ref(),
        };
        let analysis = plan_document(&workspace, &doc.oath_path, &doc.text);
        self.analyses.insert(uri.clone(), analysis);
    }

    /// The text of an oath of a project: the editor's if it is open, else
    /// the file's.
    pub(crate) fn text_of(&self, project: usize, oath_path: &str) -> Option<String> {
        let path = self.projects[project].root.join(oath_path);
        self.documents
            .values()
            .find(|d| d.path == path)
            .map(|d| d.text.clone())
            .or_else(|| std::fs::read_to_string(&path).ok())
    }

    fn publish(&self, uri: &Url) -> Result<(), ServerError> {
        let (Some(doc), Some(analysis)) = (self.documents.get(uri), self.analyses.get(uri)) else {
            return Ok(());
        };
        let evidence = self.evidence(doc.project, &doc.oath_path);
        let recorded = recorded_failures(&doc.oath_path, &evidence);
        self.publish_raw(uri.clone(), oath_diagnostics(analysis, &recorded))
    }

    fn publish_raw(&self, uri: Url, diagnostics: Vec<Diagnostic>) -> Result<(), ServerError> {
        self.notify::<PublishDiagnostics>(PublishDiagnosticsParams {
            uri,
            diagnostics,
            version: None,
        })
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
                result_path: format!("{}/{oath}.json", varar_runner::internal::store::SCRATCH_DIR),
                text: self.text_of(project, oath).ok_or_else(|| {
                    ErrorRecord::new(Code::InputError, format!("{oath} cannot be read"))
                }),
                results: Ok(Some(results.clone())),
                documents,
            });
        }
        out
    }

    /// Publish the diagnostics of every Rust file of a project that has
    /// some, and clear those that no longer have any.
    fn publish_rust(&mut self, project: usize) -> Result<(), ServerError> {
        let p = &self.projects[project];
        let mut now = Vec::new();
        for file in p.index.files() {
            let diagnostics = rust_diagnostics(file, p.index.problems());
            if let Ok(uri) = Url::from_file_path(&file.path) {
                now.push((uri, diagnostics));
            }
        }
        for (uri, diagnostics) in now {
            if diagnostics.is_empty() {
                if self.rust_published.remove(&uri) {
                    self.publish_raw(uri, diagnostics)?;
                }
            } else {
                self.rust_published.insert(uri.clone());
                self.publish_raw(uri, diagnostics)?;
            }
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

    /// Act on what changed: reload a project, re-plan its open oaths,
    /// re-publish diagnostics.
    fn apply(&mut self, changes: Vec<(usize, Changed)>) -> Result<(), ServerError> {
        for (project, c) in changes {
            if c.project {
                let mut log = Vec::new();
                let root = self.projects[project].root.clone();
                self.projects[project] = Project::load(&root, &mut log);
                self.log(log)?;
            }
            if c != Changed::default() {
                // Steps, the lock (drift) or results changed: re-plan and
                // re-publish every open oath of the project.
                self.closed.clear();
                let uris: Vec<Url> = self
                    .documents
                    .iter()
                    .filter(|(_, d)| d.project == project)
                    .map(|(u, _)| u.clone())
                    .collect();
                for uri in &uris {
                    self.analyse(uri);
                    self.publish(uri)?;
                }
            }
            if c.project || c.rust {
                self.publish_rust(project)?;
            }
        }
        Ok(())
    }
}
