//! What each request and notification of the editor answers (pure): a
//! plan from the [`analysis`](crate::analysis) in, protocol values out.
//! The main loop (`server`) finds the document and its
//! plan and turns the position into an offset; these modules decide.

pub mod actions;
pub mod capabilities;
pub mod completion;
pub mod diagnostics;
pub mod lenses;
pub mod navigation;
pub mod position;
pub mod rename;
pub mod tokens;
