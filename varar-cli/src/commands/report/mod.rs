//! `cargo varar report`: the static HTML site of the oaths and their
//! results. The report itself is [`varar_report`]'s (the language server's
//! "open report" calls it too); here are its arguments ([`args`]) and its
//! shell ([`shell`]: what `main` prints of it).

pub mod args;
pub mod shell;
