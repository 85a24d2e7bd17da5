//! `cargo varar lsp`: the language server for editors. The server is
//! [`varar_lsp`]; here are its arguments ([`args`]) and its
//! shell ([`shell`]: served over stdin/stdout).

pub mod args;
pub mod shell;
