//! The server's state (shell, part of the server): the connection to the
//! editor, the projects, the open oaths and their last plans, what was
//! published, the work going on in the background (test runs, usages,
//! renames, reports) and what the editor can do; and the one way out to
//! the editor ([`Server::send`]).

use std::collections::{BTreeMap, HashMap, HashSet};
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use crossbeam_channel::{Receiver, Sender};
use lsp_server::{Connection, Message, Notification, Request, RequestId};
use lsp_types::notification::{LogMessage, PublishDiagnostics, ShowMessage};
use lsp_types::{
    Diagnostic, LogMessageParams, MessageType, NumberOrString, PublishDiagnosticsParams,
    ShowMessageParams, Url,
};

use super::events::{Event, UsageKey};
use super::project_state::ProjectState;
use crate::analysis::Analysis;
use crate::analysis::oaths::Deps;
use crate::analysis::usages::{OathUses, Usages};

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
pub(crate) struct OpenOath {
    /// The editor's version of the text.
    pub(crate) version: i32,
    pub(crate) text: String,
    pub(crate) path: PathBuf,
    /// Index into the projects.
    pub(crate) project: usize,
    pub(crate) oath_path: String,
}

/// The server's state.
pub(crate) struct Server {
    pub(super) connection: Connection,
    pub(crate) projects: Vec<ProjectState>,
    pub(crate) documents: HashMap<Url, OpenOath>,
    pub(crate) analyses: HashMap<Url, Analysis>,
    /// What the last plan of each open oath was made from, whether or not
    /// it could be planned: it is planned again only when that changed.
    pub(crate) plan_deps: HashMap<Url, Deps>,
    /// The planning of each project's open oaths (by project index).
    pub(crate) planning: HashMap<usize, Planning>,
    /// Requests waiting for the plans they read, in the order they came.
    pub(super) waiting: Vec<Request>,
    /// Plans of oaths that are not open, by project and oathPath: for find
    /// references, and for what their links splice from open oaths. Each
    /// records what it was made from, so it is re-planned only when that
    /// changed.
    pub(crate) closed: HashMap<(usize, String), Analysis>,
    /// The diagnostics last published on each Markdown document, with its
    /// project: to publish only what changed and to clear what went.
    pub(crate) published: HashMap<Url, (usize, Vec<Diagnostic>)>,
    /// Open oaths changed since their last plan: planned when no message
    /// waits (so a burst of keystrokes is planned once) or before a request.
    pub(super) dirty: HashSet<Url>,
    /// Whether the client watches files for us.
    pub(super) watches: bool,
    /// Whether the client re-asks for semantic tokens when told to
    /// (`workspace/semanticTokens/refresh`): an open oath's tokens change
    /// when another oath links to it.
    pub(crate) refreshes_tokens: bool,
    pub(crate) next_request: i32,
    /// What else the editor can do.
    pub(crate) client: ClientCaps,
    /// Where background work reports.
    pub(crate) events: Sender<Event>,
    pub(super) incoming: Receiver<Event>,
    /// The test runs going on, by id.
    pub(crate) runs: HashMap<u64, ActiveRun>,
    pub(crate) next_run: u64,
    /// Our `window/workDoneProgress/create` requests waiting for an
    /// answer: the run each is for.
    pub(crate) progress_created: HashMap<RequestId, u64>,
    /// The usages of each project's steps (by project index).
    pub(crate) usages: HashMap<usize, UsageState>,
    /// Rust files (and configs) with published diagnostics, with what was
    /// published.
    pub(crate) rust_diagnostics: HashMap<Url, Vec<Diagnostic>>,
}

/// The planning of one project's open oaths, off the loop (see `sync`).
#[derive(Debug, Default)]
pub(crate) struct Planning {
    /// The open oaths being planned, while a planning goes on.
    pub(crate) in_flight: Option<HashSet<Url>>,
    /// Every open oath is to be planned again (the steps, the lock or the
    /// results changed), by the next planning.
    pub(crate) force: bool,
    /// The open oaths the editor changed since diagnostics were last
    /// published: their tokens are asked for anyway.
    pub(crate) edited: HashSet<Url>,
}

/// What the editor told it can do, beyond what every editor does.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct ClientCaps {
    /// `window.workDoneProgress`: it shows server-created progress.
    pub(crate) progress: bool,
    /// `window.showDocument`: it opens a URI (a browser for `external`).
    pub(crate) show_document: bool,
    /// `workspace.codeLens.refreshSupport`.
    pub(crate) refreshes_lenses: bool,
    /// `workspace.workspaceEdit.documentChanges`: versioned edits.
    pub(crate) document_changes: bool,
}

/// A test run going on.
#[derive(Debug)]
pub(crate) struct ActiveRun {
    pub(crate) project: usize,
    /// The `workspace/executeCommand` request it answers when it ends.
    pub(crate) request: RequestId,
    /// Its progress token, once the editor has it.
    pub(crate) token: Option<NumberOrString>,
    /// Whether `begin` was sent.
    pub(crate) begun: bool,
    /// What runs, in words.
    pub(crate) title: String,
    /// Set to stop it.
    pub(crate) cancel: Arc<AtomicBool>,
}

/// The usages of one project's steps.
#[derive(Debug, Default)]
pub(crate) struct UsageState {
    /// Per oath, what its plan uses and was made from (for the next
    /// round).
    pub(crate) cache: BTreeMap<String, OathUses>,
    /// The last usages computed, and what of the project they describe.
    pub(crate) current: Option<(UsageKey, Arc<Usages>)>,
    /// A round is going on.
    pub(crate) running: bool,
    /// `textDocument/codeLens` requests on Rust files waiting for a round.
    pub(crate) waiting: Vec<(RequestId, PathBuf)>,
}

impl Server {
    pub(crate) fn send(&self, message: Message) -> Result<(), ServerError> {
        self.connection
            .sender
            .send(message)
            .map_err(|_| ServerError::Disconnected)
    }

    pub(crate) fn notify<N: lsp_types::notification::Notification>(
        &self,
        params: N::Params,
    ) -> Result<(), ServerError> {
        self.send(Notification::new(N::METHOD.to_string(), params).into())
    }

    /// Show a message to the user (`window/showMessage`).
    pub(crate) fn show(&self, typ: MessageType, message: String) -> Result<(), ServerError> {
        self.notify::<ShowMessage>(ShowMessageParams {
            typ,
            message: format!("varar: {message}"),
        })
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

    pub(crate) fn publish_raw(
        &self,
        uri: Url,
        diagnostics: Vec<Diagnostic>,
    ) -> Result<(), ServerError> {
        self.notify::<PublishDiagnostics>(PublishDiagnosticsParams {
            uri,
            diagnostics,
            version: None,
        })
    }
}
