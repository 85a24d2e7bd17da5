//! Running an invocation: the command it names, by its folder's shell.

use super::invocation::Invocation;
use crate::commands::{
    annotate, attest, check, diff, flaky, gate, history, junit, lsp, merge, report, review, sarif,
    test, verify,
};
use crate::error::Error;
use crate::output::Output;

/// Run `invocation`. What is worth a warning whatever the outcome (a key
/// the config writes twice) goes to `notes`, for `main` to print first.
pub fn run(invocation: &Invocation, notes: &mut Vec<String>) -> Result<Output, Error> {
    Ok(match invocation {
        Invocation::Report(run) => report::shell::run(run)?,
        Invocation::GateSchema => gate::shell::schema(),
        Invocation::Gate(run) => gate::shell::run(run, notes)?,
        Invocation::Junit(run) => junit::shell::run(run, notes)?,
        Invocation::Ctrf(run) => crate::commands::ctrf::shell::run(run, notes)?,
        Invocation::Merge(run) => merge::shell::run(run)?,
        Invocation::Diff(run) => diff::shell::run(run)?,
        Invocation::CheckSchema => check::shell::schema(),
        Invocation::Check(run) => check::shell::run(run)?,
        Invocation::Lsp => lsp::shell::run()?,
        Invocation::History(run) => history::shell::run(run)?,
        Invocation::Flaky(run) => flaky::shell::run(run)?,
        Invocation::Attest(run) => attest::shell::run(run, notes)?,
        Invocation::Verify(run) => verify::shell::run(run)?,
        Invocation::ReviewSchema => review::shell::schema(),
        Invocation::Review(run) => review::shell::run(run, notes)?,
        Invocation::Annotate(run) => annotate::shell::run(run, notes)?,
        Invocation::Sarif(run) => sarif::shell::run(run, notes)?,
        Invocation::Test(run) => test::shell::run(run)?,
    })
}
