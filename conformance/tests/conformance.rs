//! One trial per bundle and artifact, compared with its golden by content.
fn main() {}
