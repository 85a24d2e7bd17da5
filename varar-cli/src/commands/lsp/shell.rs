//! `cargo varar lsp` (shell): serve the language server on stdin/stdout
//! until the editor says `exit`. Input the protocol cannot carry on from
//! (see [`crate::language_server::transport`]) stops the server with a
//! message on stderr and exit status 2, never silently.

use crate::error::Error;
use crate::language_server::server;
use crate::language_server::transport;
use crate::output::Output;

/// Run the server over stdio; prints nothing itself (the protocol is the
/// output). It fails when it stopped before the editor's `exit`.
pub fn run() -> Result<Output, Error> {
    let (connection, transport) = transport::stdio();
    let served = server::run(connection);
    // The server has dropped its connection: the writer ends once it has
    // written everything, the reader at `exit` or at the end of input. A
    // broken stream explains why the server stopped, so it comes first;
    // after a protocol error the reader may still wait for input, and is
    // only asked when it has stopped.
    if served.is_ok() || transport.reader_stopped(std::time::Duration::from_secs(1)) {
        transport.join().map_err(Error::Transport)?;
    }
    served.map_err(Error::LanguageServer)?;
    Ok(Output::default())
}
