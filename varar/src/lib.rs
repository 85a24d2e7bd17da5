//! **Markdown documentation as tests.**
#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub use varar_runner::data::{DocString, Row, Table};

#[doc(hidden)]
pub mod __private {
    pub use inventory;
    pub use varar_runner::step::*;
}
