//! Reference blocks (spec 70 §70.1): a paragraph, list item or blockquote
//! that is nothing but a Markdown link to a section of an oath, which
//! planning replaces by that section's steps.
//!
//! [`recognise`] applies the link-only rule to a block's text, [`join`] and
//! [`dirname`] do the path arithmetic, [`normalise`] and [`slugify`] turn a
//! fragment and a heading into the slugs that must meet. Everything here is
//! pure string work: which documents exist is the workspace's business
//! ([`crate::workspace`]).

mod link;
mod path;
mod slug;
#[cfg(test)]
mod tests;

pub use link::{Reference, decoded, recognise, section_key};
pub use path::{dirname, join};
pub use slug::{normalise, slugify};
