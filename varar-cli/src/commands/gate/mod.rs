//! `cargo varar gate`: may this change merge? The judgement is the
//! engine's ([`varar_core::verdict::gate`]); here are its arguments
//! ([`args`]), its shell ([`shell`]: the evidence read, the verdict printed)
//! and the JSON Schema of its output.

pub mod args;
pub mod shell;

/// The JSON Schema of the `--format json` output (draft 2020-12), also
/// committed as `varar-cli/schema/gate.schema.json`.
pub const SCHEMA: &str = include_str!("../../../schema/gate.schema.json");
