//! Test item names (spec 40 §7.3, the project decision).
//!
//! `<oathPath>::<heading>::…::<example name>`: every heading above the
//! example, innermost last, then the example's whole name (whitespace runs
//! collapsed, never cut: a filter with any part of the name must select
//! it). A header-bound row carries its binding step as the last heading,
//! so rows read `…::I report the score and grade::10 / A`. The names are
//! unique in the binary (`[1]`, `[2]`… on repeats), stable under edits
//! elsewhere in the file, and filterable by oath path, by heading and by
//! any words of the example.
//!
//! The items that are not examples (spec 40 §7.4) are named here too, and
//! read back by [`ItemName::parse`]: `<oathPath>::varar:drift:<line>`,
//! `<document>::varar:diagnostic:<code>:<line>` and
//! `<path>::varar:read-error`. Every producer and reader of item names (the
//! harness, its selection of one item, the run record, `cargo varar`) goes
//! through this module (`scheme.rs`), and [`items`] is the one order they
//! are listed in (spec 40 §7.2, `order.rs`).

mod order;
mod scheme;

pub use order::{ExampleNames, Item, ItemSource, OathItems, Origin, example_items, items};
pub use scheme::{
    ExampleItems, ItemKind, ItemName, KIND_PREFIX, UniqueNames, diagnostic_item, drift_item,
    example_item, read_error_item,
};
