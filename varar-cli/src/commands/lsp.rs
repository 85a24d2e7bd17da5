//! `cargo varar lsp` (shell): serve the language server
//! ([`varar_lsp::run`]) on stdin/stdout until the editor says `exit`.
//! Input the protocol cannot carry on from (see [`varar_lsp::transport`])
//! stops the server with a message on stderr and exit status 2, never
//! silently.

use super::output::Output;

/// Why the language server stopped before the editor's `exit`: the
/// server's own reason ([`varar_lsp::RunError`]), as it says it.
#[derive(Debug, thiserror::Error)]
#[error(transparent)]
pub struct LspError(#[from] varar_lsp::RunError);

impl LspError {
    /// Always 2.
    pub fn exit_code(&self) -> u8 {
        2
    }
}

/// Run the server over stdio; prints nothing itself (the protocol is the
/// output).
pub fn run() -> Result<Output, LspError> {
    varar_lsp::run()?;
    Ok(Output::default())
}
