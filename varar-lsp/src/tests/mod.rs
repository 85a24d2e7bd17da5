//! Helpers the language server's modules share in their unit tests.

pub(crate) mod support;
