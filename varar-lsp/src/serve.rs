//! `cargo varar lsp`'s entry (shell): the [`transport`](crate::transport)
//! on stdin/stdout joined to the main loop ([`server`](crate::server))
//! until the editor says `exit`, and why either stopped first.

use crate::server::{self, ServerError};
use crate::transport::{self, TransportError};

/// Why the language server stopped before the editor's `exit`.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum RunError {
    /// The editor broke the protocol or went away.
    #[error(transparent)]
    Server(#[from] ServerError),
    /// The stream from or to the editor could not be read or written.
    #[error(transparent)]
    Transport(#[from] TransportError),
}

/// Serve the language server on stdin/stdout until the editor says
/// `exit`; prints nothing itself (the protocol is the output).
pub fn run() -> Result<(), RunError> {
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
    Ok(())
}
