//! End-to-end checks of Varar for Rust.
//!
//! The checks live in `tests/` of this package: they copy the sample project
//! `examples/bakery` to a temporary directory, point its `varar` dependency
//! at this workspace, and run the real `cargo test` (and `cargo nextest run`
//! when it is installed) against it. This library is empty; it exists
//! because Cargo needs one target per package.
