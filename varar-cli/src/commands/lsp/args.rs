//! The arguments of `cargo varar lsp`: nothing to validate.

use clap::Args;

/// `cargo varar lsp`.
#[derive(Debug, Args)]
pub struct LspArgs {
    /// Talk over stdin/stdout (the only transport; accepted because
    /// editor clients pass it).
    #[arg(long)]
    pub stdio: bool,
}
