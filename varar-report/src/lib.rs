//! **The HTML report of Varar: a static site of a project's oaths and
//! their run results.**
//!
//! One page per oath: the Markdown rendered, every example marked passed
//! or failed, each failure highlighted at the exact text it names with
//! expected and actual next to it, the latest run's drift and diagnostic
//! items at their line, and each example's outcomes over the kept runs
//! (issue 20). The index states the latest run's standing as the gate
//! reads it, and no result the run does not vouch for is drawn as current
//! (issue 34): the judging is the engine's (`varar_core::verdict`), the
//! reading of the project `varar_project::evidence`'s.
//!
//! - [`html_report`]: the site as a pure function (the model, the
//!   Markdown and the failures overlaid on it, the pages, the links);
//! - [`site`]: writing it into its output directory (shell), only over a
//!   directory that is new, empty or a previous report;
//! - [`report`]: the whole report (shell): the project read, the site
//!   rendered and written; what `cargo varar report` and the language
//!   server's "open report" both call.
#![forbid(unsafe_code)]
#![deny(missing_docs)]
#![cfg_attr(
    not(test),
    warn(
        clippy::print_stdout,
        clippy::print_stderr,
        clippy::unwrap_used,
        clippy::expect_used
    )
)]

pub mod html_report;
pub mod report;
pub mod site;
