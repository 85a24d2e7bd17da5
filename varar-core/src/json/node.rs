//! The tree the strict reader builds (`read.rs`, by serde_json or by the
//! byte loop of `quick.rs`), and how a place in it is named: its own
//! module, so that neither reader names the other's items.

/// A JSON value whose objects keep every member in document order,
/// duplicates included.
#[derive(Clone, Debug, PartialEq)]
pub enum Node {
    /// `null`.
    Null,
    /// `true` or `false`.
    Bool(bool),
    /// A number, as serde_json reads it.
    Number(serde_json::Number),
    /// A string, decoded.
    String(String),
    /// An array.
    Array(Vec<Node>),
    /// An object's members as written.
    Object(Vec<(String, Node)>),
}

/// How the top level of a document is named in the reader's messages.
pub const TOP: &str = "the top level";

/// The place of member `key` of the object at `at`: `key` at the top level,
/// `at.key` below it.
pub fn member_at(at: &str, key: &str) -> String {
    if at == TOP {
        key.to_owned()
    } else {
        format!("{at}.{key}")
    }
}
