//! `cargo varar lsp` (shell): serve the language server on stdin/stdout
//! until the editor says `exit`.

use super::output::Output;
use crate::language_server::{ServerError, server};

/// Why the language server stopped before the editor's `exit`.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum LspError {
    /// The editor broke the protocol or went away.
    #[error(transparent)]
    Server(#[from] ServerError),
}

impl LspError {
    /// Always 2.
    pub fn exit_code(&self) -> u8 {
        2
    }
}

/// Run the server over stdio; prints nothing itself (the protocol is the
/// output).
pub fn run() -> Result<Output, LspError> {
    let (connection, io_threads) = lsp_server::Connection::stdio();
    server::run(connection)?;
    // The reader thread ends at end of input; after `exit` the editor
    // closes it.
    let _ = io_threads.join();
    Ok(Output::default())
}
