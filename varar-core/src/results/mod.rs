//! The run-result payload `.varar/<oathPath>.json` (spec 30 §30.8): the
//! typed model, the builders from planned examples and their runs, the one
//! merge of a run into the stored file (spec 40 §6, issue 10), the one
//! writer ([`OathResults::to_text`]) and, in `read`, the one strict reader
//! (versions 1 and 2, spec 70 §70.4). Optional members are absent, never
//! `null`. Pure: the store reads and writes the bytes.

mod build;
mod merge;
mod model;
mod read;

pub(crate) use build::example_lines;
pub use build::{
    ExampleKey, collected_results, example_result, oath_results, results_version, sort_line,
};
pub use merge::merge_results;
pub use model::{
    Anchor, CellFailure, DocumentHash, ExampleResult, OathResults, ResultFailure, Status,
};
pub use read::{ResultsError, parse_run_result};
