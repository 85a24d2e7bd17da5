//! `cargo varar lsp` (shell): serve the language server on stdin/stdout
//! until the editor says `exit`.

use crate::cli::LspArgs;
use crate::lsp::server::{self, ServerError};

/// Run the server over stdio.
pub fn run(_args: &LspArgs) -> Result<(), ServerError> {
    let (connection, io_threads) = lsp_server::Connection::stdio();
    server::run(connection)?;
    // The reader thread ends at end of input; after `exit` the editor
    // closes it.
    let _ = io_threads.join();
    Ok(())
}
