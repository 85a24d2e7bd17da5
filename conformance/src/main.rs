//! `varar-conformance doc|registry|plan|trace <path>`: print a conformance artifact.
fn main() {}
