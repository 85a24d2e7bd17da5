//! A rerun (`VARAR_RERUN=failed`, issue 19): the variable read, and the
//! earlier run it continues.

use std::collections::HashMap;

use super::{self as record, Identity, store_runs};
use crate::harness::error::HarnessError;
use crate::harness::print;
use crate::harness::read::documents::Texts;
use crate::harness::read::select::Selection;
use crate::harness::setup::settings::Settings;
use varar_core::env::VARAR_RERUN;

/// `VARAR_RERUN`: unset or empty is a normal run, `failed` a rerun;
/// anything else is an error (a closed set, like `VARAR_UPDATE`).
pub(in crate::harness) fn rerun_mode() -> Result<Option<&'static str>, HarnessError> {
    match std::env::var(VARAR_RERUN) {
        Err(std::env::VarError::NotPresent) => Ok(None),
        Ok(v) if v.is_empty() => Ok(None),
        Ok(v) if v == "failed" => Ok(Some("failed")),
        Ok(v) => Err(HarnessError::Rerun { value: v }),
        Err(std::env::VarError::NotUnicode(v)) => Err(HarnessError::Rerun {
            value: v.to_string_lossy().into_owned(),
        }),
    }
}

/// A rerun continues the latest complete run of the sources as they are
/// now: `identity` joins that run and remembers what to run again. With
/// nothing to rerun, nothing is selected; without such a run, the run is a
/// new one, as if `VARAR_RERUN` were unset (said on stderr).
pub(in crate::harness) fn continue_run(
    runner: &Settings,
    texts: &Texts,
    identity: &mut Identity,
    mode: &str,
    selection: Selection,
) -> Selection {
    let current: HashMap<String, String> = texts
        .readable()
        .filter_map(|(path, _)| Some((path.to_owned(), texts.sha256(path)?.to_owned())))
        .collect();
    match record::rerun_of(store_runs(&runner.root), &identity.group(), &current) {
        Ok((run_id, continuation)) => {
            let nothing = continuation.items.is_empty();
            if nothing {
                print::notice(&format!(
                    "varar: {VARAR_RERUN}={mode}: nothing to rerun: every item of run {run_id} passed"
                ));
            }
            identity.run_id = run_id;
            identity.rerun = Some(continuation);
            if nothing {
                Selection::Nothing
            } else {
                selection
            }
        }
        Err(why) => {
            print::notice(&format!(
                "varar: {VARAR_RERUN}={mode}: {why}, so this run runs everything it selects, as a new run"
            ));
            selection
        }
    }
}
