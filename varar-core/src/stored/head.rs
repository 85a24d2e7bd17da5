//! The head of a packed example: what a run names it by, read from its
//! section without the rest of it.

use std::sync::Arc;

use crate::source::Span;

/// What an example is named by, read from its section without the rest.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Head<'p> {
    /// Its name.
    pub name: &'p str,
    /// The headings above it.
    pub scope_stack: &'p Arc<[String]>,
    /// Its span.
    pub span: Span,
}
