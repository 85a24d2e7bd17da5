//! The step definitions of the 16 conformance bundles (spec 20 §20.13,
//! spec 30 §30.10), one directory per bundle and one step file per bundle,
//! named with the stem the trace expects (`numerals.steps.rs` →
//! `contextKey.stepFile` `numerals.steps`).
//!
//! Every bundle registers into the same `inventory`, so a bundle's registry
//! is built from the definitions under its own module only.

use varar_runner::LinkedSteps;

/// The corpus bundle directory names, in corpus order.
pub const BUNDLES: &[&str] = &[
    "01-roman-numerals",
    "02-context-isolation",
    "03-expected-failure",
    "04-tables-and-docstrings",
    "05-ambiguous-match",
    "06-doc-string-mismatch",
    "07-row-check-mismatch",
    "08-string-capture",
    "10-error-fence-without-step",
    "11-emoji-offsets",
    "13-custom-parameter-type",
    "14-stateless-steps",
    "15-custom-parameter-format",
    "17-unexpected-pass",
    "18-multi-table-example",
    "19-emphasis-parameter",
];

/// Bundle `01-roman_numerals`.
pub mod b01_roman_numerals {
    #[path = "numerals.steps.rs"]
    mod numerals_steps;
}

/// Bundle `02-context_isolation`.
pub mod b02_context_isolation {
    #[path = "counter.steps.rs"]
    mod counter_steps;
}

/// Bundle `03-expected_failure`.
pub mod b03_expected_failure {
    #[path = "division.steps.rs"]
    mod division_steps;
}

/// Bundle `04-tables_and_docstrings`.
pub mod b04_tables_and_docstrings {
    #[path = "echo.steps.rs"]
    mod echo_steps;
}

/// Bundle `05-ambiguous_match`.
pub mod b05_ambiguous_match {
    #[path = "cukes.steps.rs"]
    mod cukes_steps;
}

/// Bundle `06-doc_string_mismatch`.
pub mod b06_doc_string_mismatch {
    #[path = "echo.steps.rs"]
    mod echo_steps;
}

/// Bundle `07-row_check_mismatch`.
pub mod b07_row_check_mismatch {
    #[path = "report.steps.rs"]
    mod report_steps;
}

/// Bundle `08-string_capture`.
pub mod b08_string_capture {
    #[path = "greet.steps.rs"]
    mod greet_steps;
}

/// Bundle `10-error_fence_without_step`.
pub mod b10_error_fence_without_step {
    #[path = "cukes.steps.rs"]
    mod cukes_steps;
}

/// Bundle `11-emoji_offsets`.
pub mod b11_emoji_offsets {
    #[path = "greet.steps.rs"]
    mod greet_steps;
}

/// Bundle `13-custom_parameter_type`.
pub mod b13_custom_parameter_type {
    #[path = "airports.steps.rs"]
    mod airports_steps;
}

/// Bundle `14-stateless_steps`.
pub mod b14_stateless_steps {
    #[path = "squares.steps.rs"]
    mod squares_steps;
}

/// Bundle `15-custom_parameter_format`.
pub mod b15_custom_parameter_format {
    #[path = "money.steps.rs"]
    mod money_steps;
}

/// Bundle `17-unexpected_pass`.
pub mod b17_unexpected_pass {
    #[path = "quiet.steps.rs"]
    mod quiet_steps;
}

/// Bundle `18-multi_table_example`.
pub mod b18_multi_table_example {
    #[path = "basket.steps.rs"]
    mod basket_steps;
}

/// Bundle `19-emphasis_parameter`.
pub mod b19_emphasis_parameter {
    #[path = "mention.steps.rs"]
    mod mention_steps;
}

/// The module a bundle's steps live in: `01-roman-numerals` →
/// `b01_roman_numerals`.
fn module_of(bundle: &str) -> Option<String> {
    BUNDLES
        .contains(&bundle)
        .then(|| format!("b{}", bundle.replace('-', "_")))
}

/// The registry of one bundle (by its corpus directory name, e.g.
/// `01-roman-numerals`): its parameter types and steps, and nobody else's.
pub fn registry_for(bundle: &str) -> Result<LinkedSteps, String> {
    let module = module_of(bundle).ok_or_else(|| format!("unknown bundle `{bundle}`"))?;
    let prefix = format!("{}::{module}", module_path!());
    let nested = format!("{prefix}::");
    LinkedSteps::from_inventory(|path| path == prefix || path.starts_with(&nested))
        .map_err(|e| e.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_bundle_has_steps_and_only_its_own() {
        for bundle in BUNDLES {
            let registry = match registry_for(bundle) {
                Ok(r) => r,
                Err(e) => panic!("{bundle}: {e}"),
            };
            let json = registry.registry().to_json();
            let steps = json["steps"].as_array().map_or(0, Vec::len);
            assert!(steps > 0, "{bundle} has no steps");
        }
        assert_eq!(BUNDLES.len(), 16);
    }

    #[test]
    fn registries_match_the_registry_goldens() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus/bundles");
        for bundle in BUNDLES {
            let golden = std::fs::read_to_string(root.join(bundle).join("golden/registry.json"))
                .unwrap_or_else(|e| panic!("{bundle}: {e}"));
            let golden: serde_json::Value =
                serde_json::from_str(&golden).unwrap_or_else(|e| panic!("{bundle}: {e}"));
            let registry = registry_for(bundle).unwrap_or_else(|e| panic!("{bundle}: {e}"));
            assert_eq!(registry.registry().to_json(), golden, "{bundle}");
        }
    }

    #[test]
    fn unknown_bundles_are_an_error() {
        assert_eq!(
            registry_for("99-nothing").err().as_deref(),
            Some("unknown bundle `99-nothing`")
        );
    }
}
