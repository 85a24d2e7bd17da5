//! Planning (spec 20 §20.5–20.9): a document and a registry become runnable
//! examples and diagnostics.

mod model;

pub use model::*;
