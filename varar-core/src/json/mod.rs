//! JSON as the project's files need it: the one strict reader
//! ([`read`]: config, lock and run results) and the byte-stable writer of
//! their strings and pretty text ([`write`]: the escaping of
//! `JSON.stringify`, key order chosen by the caller).

mod node;
mod quick;
pub mod read;
mod scan;
pub mod write;

pub use read::{Node, Object, ReadError, TOP, first_duplicate, integer, parse, parse_text};
pub use write::{Pretty, cmp_utf16, to_pretty_string, write_string};
