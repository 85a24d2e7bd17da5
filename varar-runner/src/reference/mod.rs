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

pub use link::recognise;
pub use path::{dirname, join};
pub use slug::{normalise, slugify};

/// A reference block's link: what it says and which section it names.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Reference {
    /// The link text as written (may be empty, may hold line breaks and
    /// markup).
    pub text: String,
    /// The link target as written.
    pub target: String,
    /// The oathPath it points at (the referring oath's own for `#…`).
    pub path: String,
    /// The normalised fragment; `""` names the whole file.
    pub slug: String,
}

impl Reference {
    /// Its section key, `<path>#<slug>` (spec 70 §70.2.2).
    pub fn key(&self) -> String {
        section_key(&self.path, &self.slug)
    }

    /// Whether it names a whole file (`x.md`, `x.md#`, `#`).
    pub fn is_whole_file(&self) -> bool {
        self.slug.is_empty()
    }

    /// Where it resolves, as the diagnostics say it: `<path>` for a
    /// whole-file reference, else `<path>#<slug>`.
    pub fn location(&self) -> String {
        if self.is_whole_file() {
            self.path.clone()
        } else {
            self.key()
        }
    }
}

/// The key of the section `slug` of the oath `path`: `<path>#<slug>`, and
/// `<path>#` for the whole file.
///
/// ```
/// assert_eq!(varar_runner::internal::reference::section_key("varar/a.md", "x"), "varar/a.md#x");
/// ```
pub fn section_key(path: &str, slug: &str) -> String {
    let mut key = String::with_capacity(path.len() + 1 + slug.len());
    key.push_str(path);
    key.push('#');
    key.push_str(slug);
    key
}
