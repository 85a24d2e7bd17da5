//! `cargo varar lsp` (shell): serve the language server on stdin/stdout
//! until the editor says `exit`. Input the protocol cannot carry on from
//! (see [`crate::language_server::transport`]) stops the server with a
//! message on stderr and exit status 2, never silently.

use super::output::Output;
use crate::language_server::transport::{self, TransportError};
use crate::language_server::{ServerError, server};

/// Why the language server stopped before the editor's `exit`.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum LspError {
    /// The editor broke the protocol or went away.
    #[error(transparent)]
    Server(#[from] ServerError),
    /// The stream from or to the editor could not be read or written.
    #[error(transparent)]
    Transport(#[from] TransportError),
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
    let (connection, transport) = transport::stdio();
    let served = server::run(connection);
    // The server has dropped its connection: the writer ends once it has
    // written everything, the reader at `exit` or at the end of input. A
    // broken stream explains why the server stopped, so it comes first;
    // after a protocol error the reader may still wait for input, and is
    // only asked when it has stopped.
    if served.is_ok() || transport.reader_stopped(std::time::Duration::from_secs(1)) {
        transport.join()?;
    }
    served?;
    Ok(Output::default())
}
