//! Helpers shared by the unit tests of the CI commands.

use varar_runner::internal::results::{ExampleResult, ResultFailure, Status};

/// An example on `lines`, failed with `failed` as its message when given.
pub fn example(name: &str, lines: &[u32], failed: Option<&str>) -> ExampleResult {
    ExampleResult {
        name: name.into(),
        status: if failed.is_some() {
            Status::Failed
        } else {
            Status::Passed
        },
        lines: lines.to_vec(),
        failure: failed.map(|m| ResultFailure {
            line: lines.first().copied().unwrap_or(0),
            message: m.into(),
            stack: m.into(),
            cells: Vec::new(),
            anchor: None,
            doc_path: None,
        }),
    }
}
