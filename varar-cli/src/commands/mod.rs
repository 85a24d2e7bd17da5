//! One module per command (shell: each reads the project and writes its
//! output); the pure work is in [`crate::report`].

pub mod report;
