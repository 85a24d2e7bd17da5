//! **The engine and `cargo test` harness of Varar for Rust.**
//!
//! Users depend on the `varar` facade crate; this crate holds the pipeline
//! (parse → plan → execute → results) as pure functions over immutable data,
//! and the thin shell that reads the config, discovers oaths, keeps
//! `varar.lock.json` and `.varar/` results and binds everything to
//! libtest-mimic (`config`, `discovery`, `store`, `harness`: the only
//! modules with side effects). Every module is private: the facade's items
//! are at the root and in `__private`, and Varar's own tools reach the
//! stages through the hidden [`internal`] module. The Cucumber Expression
//! language is the `varar-expression` crate.
#![forbid(unsafe_code)]
#![warn(missing_docs)]
#![cfg_attr(
    not(test),
    warn(
        clippy::print_stdout,
        clippy::print_stderr,
        clippy::unwrap_used,
        clippy::expect_used
    )
)]

use varar_expression as expression;

mod compare;
mod config;
mod data;
mod discovery;
mod doc;
mod drift;
mod execute;
mod failure;
mod fast_hash;
mod harness;
mod hash;
mod json_text;
mod lifecycle;
mod lock;
mod parse;
mod plan;
mod reference;
mod registry;
mod render;
mod results;
#[cfg(test)]
mod robustness;
mod sentences;
mod source;
mod step;
mod store;
mod text;
mod trace;
mod values;
mod workspace;

pub use data::{DocString, Row, Table};
pub use harness::{Runner, run};
pub use step::Parameter;

/// What the code the `varar` macros generate calls, re-exported by the
/// facade as `varar::__private`. Not a public API: it changes with the
/// macros.
#[doc(hidden)]
pub mod __private {
    pub use crate::data::{DocString, Row, Table};
    pub use crate::step::{
        Access, ArgValue, BoxFuture, Built, DefaultCtor, ExampleState, Handler, Invocation, JsType,
        Lent, Need, NoDefault, Observed, ObservedRow, Parameter, ParameterDef, Probe,
        ResourceBuild, ResourceDef, Returned, Role, SharedResource, StateBuild, StateDef,
        StateParam, StepDef, StepError, StepResult, Stored, TeardownCall, TeardownDef, Trailing,
        TrailingData, ViaDefault, World, a_state_must_be_send, fail_text, own, share, take,
        unwrap_resource, unwrap_shared,
    };
    pub use crate::values::*;
}

/// The engine's stages for Varar's own tools: `cargo varar` (report, gate,
/// JUnit, merge, diff and the language server), the conformance harness
/// and the bench. Not a public API and outside semver: everything else in
/// this crate is private, so the compiler reports what nothing uses
/// (issue 10). The stages themselves are not reachable from outside:
///
/// ```compile_fail
/// use varar_runner::plan::plan; // private: the stages are reached here only
/// ```
///
/// ```
/// use varar_runner::internal::plan::plan;
/// ```
#[doc(hidden)]
pub mod internal {
    /// Config file (spec 40 §1).
    pub mod config {
        pub use crate::config::{CONFIG_FILE_NAME, ConfigError, load_config};
    }
    /// Oath discovery (spec 40 §2).
    pub mod discovery {
        pub use crate::discovery::{
            DiscoveryError, Globs, OathFile, cmp_oath_paths, discover, read_oath,
        };
    }
    /// The document model (spec 10).
    pub mod doc {
        pub use crate::doc::{Attachment, Candidate, Doc, TextKind};
    }
    /// Drift detection (spec 40 §5).
    pub mod drift {
        pub use crate::drift::{Drift, candidates, detect_drift, oath_candidates};
    }
    /// Running examples without the harness.
    pub mod execute {
        pub use crate::execute::{ExampleRun, execute};
    }
    /// Cucumber Expressions.
    pub mod expression {
        pub use varar_expression::*;
    }
    /// Test item names (spec 40 §7.3).
    pub mod harness {
        pub use crate::harness::{UniqueNames, install_quiet_panic_hook};
    }
    /// `sourceHash` (spec 40 §3).
    pub mod hash {
        pub use crate::hash::source_hash;
    }
    /// The drift baseline (spec 40 §4).
    pub mod lock {
        pub use crate::lock::{Baseline, LOCK_FILE_NAME, Lock, LockEntry, LockExample};
    }
    /// Parsing (spec 10).
    pub mod parse {
        pub use crate::parse::parse;
    }
    /// Planning (spec 20).
    pub mod plan {
        pub use crate::plan::{
            Diagnostic, DiagnosticCode, Plan, PlannedExample, PlannedStep, plan, plan_oath,
        };
    }
    /// Step definitions and parameter types (spec 20 §20.1).
    pub mod registry {
        pub use crate::registry::{ParamSpec, Registry, StepSpec};
    }
    /// Failure text (spec 40 §7.6).
    pub mod render {
        pub use crate::render::{Styles, expected_actual, header, snippet};
    }
    /// Run results (spec 30 §30.8).
    pub mod results {
        pub use crate::results::{
            Anchor, CellFailure, DocumentHash, ExampleResult, OathResults, ResultFailure,
            ResultsError, Status, collected_results, example_result, oath_results,
            parse_run_result, results_version,
        };
    }
    /// Sentence splitting (spec 20 §20.5).
    pub mod sentences {
        pub use crate::sentences::split_sentences;
    }
    /// Source text and UTF-16 spans.
    pub mod source {
        pub use crate::source::{Source, Span, utf16_len};
    }
    /// Step roles and arguments.
    pub mod step {
        pub use crate::step::{ArgValue, Role, Trailing};
    }
    /// Reading and writing the project's files.
    pub mod store {
        pub use crate::store::{
            ResultFileError, SCRATCH_DIR, StoreError, read_lock, read_run_result,
            read_run_result_file, read_run_result_in, replace_run_result, write_atomic,
        };
    }
    /// The conformance trace (spec 30 §30.7).
    pub mod trace {
        pub use crate::trace::trace;
    }
    /// Reference blocks, slugs and path arithmetic (spec 70 §70.1).
    pub mod reference {
        pub use crate::reference::{
            Reference, dirname, join, normalise, recognise, section_key, slugify,
        };
    }
    /// The documents an oath may link to (spec 70 §70.2).
    pub mod workspace {
        pub use crate::workspace::{Document, Workspace, WorkspaceError};
    }
}
