//! `cargo varar flaky`: which items both passed and failed over the kept
//! runs of the current sources (issue 20); the comparison is the engine's
//! ([`varar_core::verdict::flaky`]), the text for people is here. Pure.

pub mod args;
pub mod shell;
mod text;

pub use text::render_text;

#[cfg(test)]
mod tests;
