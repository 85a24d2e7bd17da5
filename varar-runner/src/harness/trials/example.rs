//! The trial of one planned example: it reads back the example, packed
//! since planning (issue 39), runs it, and gives its result to its oath's
//! sink.

use std::sync::Arc;

use super::items::Ended;
use super::oath_run::OathRun;
use crate::harness::run::trial::{RunShared, run_example};
use varar_core::render::report;
use varar_core::results::example_result;
use varar_core::stored::PackedExamples;

/// The body of example `index`'s trial, named `name`, the example one of
/// `packed`: it reads it back and only executes it.
pub(super) fn example_body(
    (index, name): (usize, Arc<str>),
    packed: Arc<PackedExamples>,
    oath: Arc<OathRun>,
    shared: Arc<RunShared>,
) -> impl FnOnce() -> Ended + Send + 'static {
    move || {
        let Some(example) = packed.unpack(index) else {
            // The bytes were written by this process: only a defect of
            // ours gets here, and it fails the one example it touches.
            let message =
                "varar: the planned example could not be read back; please report this".to_owned();
            return Err((message.clone(), Some(message)));
        };
        drop(packed);
        let example = Arc::new(example);
        // Watched from its start (not from enumeration, when every plan is
        // still held); the watchdog reads the step texts from the plan.
        let progress = shared.watch.add(&name, Arc::clone(&example) as Arc<_>);
        let run = run_example(&shared, &example, &progress);
        oath.record(index, example_result(&example, &run, &oath.path));
        // Its failure's text first: it may read its document again, which
        // the oath forgets once its results are written.
        let outcome = match &run.failure {
            None => Ok(()),
            Some(failure) => {
                let styles = &shared.styles;
                let mut text = oath.report(&example, failure, styles);
                text.push_str(&report::teardown_notes(&run.teardown, failure, styles));
                let message = failure.bounded_message();
                let first = message.lines().next().unwrap_or_default().to_owned();
                Err((text, Some(first)))
            }
        };
        // The last example of an oath writes its results, while the other
        // trials run: the file system's work overlaps theirs instead of
        // following the run.
        if let Some(root) = &shared.results_root
            && oath.complete()
        {
            oath.replace_results(root);
        }
        outcome
    }
}
