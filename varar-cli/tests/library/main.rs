//! The library's pure modules through its public API: the gate's verdict,
//! merging and comparing results trees, and the language server's
//! features on oaths that reuse sections by link (spec 70), planned as the
//! server plans them. Shared fixtures are in [`support`].

mod lsp_reuse;
mod support;
mod tree_diff;
mod tree_merge;
mod verdict;
