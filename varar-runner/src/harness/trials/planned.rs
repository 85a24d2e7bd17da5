//! One oath as enumeration keeps it once planned (issue 39): on the thread
//! that planned it, its item names, example keys and lock record are made,
//! its drift candidates freed and its examples' steps packed, so that what
//! every oath holds until its trials run is as small as it can be.

use std::sync::Arc;

use crate::harness::read::documents::linked_documents;
use varar_core::lock::{LockExample, OathRecord, UpdateSummary};
use varar_core::names::ExampleNames;
use varar_core::planned::PlannedOath;
use varar_core::results::ExampleKey;
use varar_core::source::Tables;
use varar_core::stored::PackedSteps;
use varar_core::threads::side_by_side;

/// A planned oath and what its items need of its parsed document, taken
/// while planning: the parses are dropped before the items are made.
pub(super) struct Planned {
    /// Its plan and drift.
    pub(super) oath: PlannedOath,
    /// The position tables of its text.
    pub(super) tables: Arc<Tables>,
    /// Its `sourceHash`.
    pub(super) hash: String,
    /// Each example's key, in plan order.
    pub(super) keys: Vec<ExampleKey>,
    /// Each example's item name before it is made unique in the run, in
    /// plan order: made here, on the planning threads, so that only the
    /// claiming of names is left to the one thread that builds items.
    pub(super) names: ExampleNames,
    /// The other documents its steps were written in.
    pub(super) linked: Vec<String>,
    /// Its examples' steps and row bindings, taken out of its plan once
    /// everything above is made (issue 39): until its trials run, a plan
    /// holds the rest of each example.
    pub(super) packed: Arc<PackedSteps>,
    /// Its lock record, made on the planning thread: the drift candidates
    /// are freed as soon as it is, not once every oath is planned.
    pub(super) record: Option<OathRecord>,
    /// What its lock entry says beside drift (see `Prepared::changes`, `enumerate.rs`).
    pub(super) changes: UpdateSummary,
}

/// How many examples an oath has before its plan is stored on a thread of
/// its own while its names are made (a thread costs what storing a few
/// examples does).
const STORE_ASIDE_FROM: usize = 2048;

/// Where a planned oath's steps are when [`Planned::new`] gets it.
pub(super) enum Steps<S> {
    /// In its plan, just made; the plan cache's `store`, when there is
    /// one, is given the oath once its steps are packed.
    Planned(Option<S>),
    /// Packed already: read back from the plan cache.
    Stored(PackedSteps),
}

impl Planned {
    /// The oath at `path`, whose text has the `sourceHash` `hash`, planned
    /// as `oath`, with what its items and its lock record need beside it
    /// (`update`: under `VARAR_UPDATE`), its steps packed.
    pub(super) fn new(
        (path, hash): (&str, String),
        mut oath: PlannedOath,
        tables: Arc<Tables>,
        steps: Steps<impl Fn(&PlannedOath, &PackedSteps) + Sync>,
        update: bool,
    ) -> Planned {
        let (linked, packed, store) = match steps {
            Steps::Planned(store) => {
                let linked = linked_documents(&oath.plan);
                let packed = PackedSteps::pack(&mut oath.plan.examples);
                // What is left of the examples is held until they run: not
                // the spare room of the list they were gathered in.
                oath.plan.examples.shrink_to_fit();
                (linked, packed, store)
            }
            // A stored plan is used only by a run in which no document
            // may link (`cache/plans/`): its steps are all its oath's.
            Steps::Stored(packed) => (Vec::new(), packed, None),
        };
        let parts = || {
            let keys = (oath.plan.examples.iter().enumerate())
                .map(|(i, shell)| ExampleKey::of_packed(shell, packed.lines(i)))
                .collect();
            (keys, ExampleNames::of(path, &oath.plan))
        };
        let (keys, names) = match store {
            Some(store) if oath.plan.examples.len() >= STORE_ASIDE_FROM => {
                side_by_side(parts, &|| store(&oath, &packed)).0
            }
            Some(store) => {
                store(&oath, &packed);
                parts()
            }
            None => parts(),
        };
        let record = Some(oath.take_record(path, &hash));
        let mut changes = UpdateSummary::default();
        changes_of(update, path, &mut oath, &mut changes);
        Planned {
            keys,
            names,
            linked,
            packed: Arc::new(packed),
            record,
            changes,
            hash,
            tables,
            oath,
        }
    }
}

/// Add what `oath`'s lock entry says beside drift to `changes` (issue 37):
/// its removed examples, and under `update` the drift it accepts as prose
/// and its new examples (the summary's; a run without it names none, and
/// they are let go here).
fn changes_of(update: bool, path: &str, oath: &mut PlannedOath, changes: &mut UpdateSummary) {
    let of = |list: Vec<LockExample>| list.into_iter().map(move |e| (path.to_owned(), e));
    changes
        .removed
        .extend(of(std::mem::take(&mut oath.removed)));
    let (accepted, added) = (
        std::mem::take(&mut oath.accepted),
        std::mem::take(&mut oath.added),
    );
    if update {
        let accepted = accepted.into_iter().map(|d| LockExample {
            name: d.name,
            line: i64::from(d.line),
        });
        changes.accepted.extend(of(accepted.collect()));
        changes.added.extend(of(added));
    }
}
