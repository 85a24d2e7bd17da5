//! Which corpus a measurement runs on (issue 39): the shared ledger
//! ([`crate::corpus`]) or the documentation-shaped one
//! ([`crate::docs_corpus`]).

use std::path::Path;

use crate::corpus::{self, Corpus};

/// Which corpus: the same eight steps, laid out differently.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shape {
    /// The shared corpus: one-shape ledgers, about 2.5 KB per 25 examples.
    Ledger,
    /// Documentation: prose, lists, code, doc strings and tables between the
    /// examples, about 8 KB per 25 examples.
    Docs,
}

impl Shape {
    /// Both, in table order.
    pub const ALL: [Shape; 2] = [Shape::Ledger, Shape::Docs];

    /// Its name on the command line and in the tables.
    pub fn name(self) -> &'static str {
        match self {
            Shape::Ledger => "ledger",
            Shape::Docs => "docs",
        }
    }

    /// The shape named `s`.
    pub fn parse(s: &str) -> Result<Shape, String> {
        Shape::ALL
            .into_iter()
            .find(|shape| shape.name() == s)
            .ok_or_else(|| format!("unknown corpus {s:?} (ledger, docs)"))
    }

    /// Generate `oaths` × `examples` of this shape into `dir` (replacing
    /// what was there) and read it back.
    pub fn generate(
        self,
        dir: &Path,
        oaths: usize,
        examples: usize,
        seed: u64,
    ) -> Result<Corpus, String> {
        match self {
            Shape::Ledger => corpus::generate(dir, oaths, examples, seed),
            Shape::Docs => crate::docs_corpus::generate(dir, oaths, examples, seed),
        }
    }
}
