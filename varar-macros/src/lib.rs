//! **Attribute macros of Varar**: `#[stimulus]`, `#[sensor]` and `#[parameter]`.
//!
//! Use them through the `varar` facade crate.
