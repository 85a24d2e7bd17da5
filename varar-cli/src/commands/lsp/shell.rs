//! `cargo varar lsp` (shell): serve the language server
//! ([`varar_lsp::run`]) on stdin/stdout until the editor says `exit`.
//! Input the protocol cannot carry on from (see [`varar_lsp::transport`])
//! stops the server with a message on stderr and exit status 2, never
//! silently.

use crate::error::Error;
use crate::output::Output;

/// Run the server over stdio; prints nothing itself (the protocol is the
/// output). It fails when it stopped before the editor's `exit`.
pub fn run() -> Result<Output, Error> {
    varar_lsp::run().map_err(Error::LanguageServer)?;
    Ok(Output::default())
}
