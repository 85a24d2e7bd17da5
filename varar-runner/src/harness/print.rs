//! Everything the harness itself prints, on stderr like libtest's own
//! notices: the only place in the runner that prints (the trials' failure
//! text is handed to libtest-mimic, which prints it).

use std::fmt::Display;

use super::error::HarnessError;
use varar_core::env::VARAR_UPDATE;
use varar_core::lock::LOCK_FILE_NAME;
use varar_core::untrusted::terminal_text;

/// One notice line (or lines), escaped for the terminal: the paths,
/// names, step texts and error messages it holds are not ours (issue 34).
/// Its line breaks stay (some notices list problems line by line).
pub(crate) fn notice(text: &str) {
    let text = terminal_text(text);
    #[allow(clippy::print_stderr)]
    {
        eprintln!("{text}");
    }
}

/// A problem that does not stop the run.
pub(crate) fn warning(problem: impl Display) {
    notice(&format!("varar: warning: {problem}"));
}

/// Something the run does by the spec that the text does not show (a
/// quirk of planning, issue 37): it fails nothing.
pub(crate) fn note(what: impl Display) {
    notice(&format!("varar: note: {what}"));
}

/// Say that something went wrong that fails the run (its tests may all
/// have passed).
pub(crate) fn error(problem: impl Display) {
    notice(&format!("varar: error: {problem}"));
}

/// Say that an oath's results could not be serialised (which cannot happen
/// for this model: strings and integers only); `false`, nothing written.
pub(crate) fn unserialisable(oath_path: &str, error: &serde_json::Error) -> bool {
    warning(format_args!(
        "cannot serialise the results of {oath_path}: {error}"
    ));
    false
}

/// A problem that stops the run.
pub(crate) fn fatal(error: &HarnessError) {
    notice(&format!("error: {error}"));
}

/// The run found oaths but no registered step.
pub(crate) fn no_steps() {
    notice(
        "varar: no step is registered in this test binary, so no paragraph can run; \
         if the steps live in another crate, add `use that_crate as _;` to the test target",
    );
}

/// A lock of another version is about to be re-recorded, with consent.
pub(crate) fn rerecording_lock(version: &str) {
    notice(&format!(
        "varar: {LOCK_FILE_NAME}: lock version {version} is re-recorded as version 2 \
         ({VARAR_UPDATE} is set)"
    ));
}
