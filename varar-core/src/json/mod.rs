//! JSON as the project's files need it: the one strict reader
//! ([`read`]: config, lock and run results; [`parse_noting_duplicates`]
//! also names the keys written twice) and the byte-stable writer of
//! their strings and pretty text (`write`: the escaping of
//! `JSON.stringify`, key order chosen by the caller).

mod duplicates;
mod node;
mod quick;
pub mod read;
mod scan;
pub mod write;

pub use duplicates::{DuplicateKey, KeyPlace, parse_noting_duplicates};
pub(crate) use quick::Cursor;
#[cfg(test)]
pub(crate) use quick::damaged;
pub use read::{Node, Object, ReadError, TOP, first_duplicate, integer, parse, parse_text};
pub use write::{Pretty, cmp_utf16, to_pretty_string, write_string};
