//! The server's state (shell, part of the server): the connection to the
//! editor, the projects, the open oaths and their last plans, what was
//! published; and the one way out to the editor ([`Server::send`]).

use std::collections::{HashMap, HashSet};
use std::path::PathBuf;

use lsp_server::{Connection, Message, Notification};
use lsp_types::notification::{LogMessage, PublishDiagnostics};
use lsp_types::{Diagnostic, LogMessageParams, MessageType, PublishDiagnosticsParams, Url};

use super::analysis::Analysis;
use super::project_state::ProjectState;

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
    /// Plans of oaths that are not open, by project and oathPath: for find
    /// references, and for what their links splice from open oaths. Each
    /// records what it was made from, so it is re-planned only when that
    /// changed.
    pub(crate) closed: HashMap<(usize, String), Analysis>,
    /// Rust files with published diagnostics, to clear them.
    pub(super) rust_published: HashSet<Url>,
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
