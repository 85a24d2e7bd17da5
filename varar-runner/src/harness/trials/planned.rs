//! One oath as enumeration keeps it once planned (issue 39): on the thread
//! that planned it, its lock record is made, its drift candidates freed and
//! its examples packed, so that what every oath holds until its trials run
//! is as small as it can be. Its item names are made from the packed
//! examples once every oath is planned.

use std::sync::Arc;

use crate::harness::read::documents::linked_documents;
use varar_core::lock::{LockExample, OathRecord, UpdateSummary};
use varar_core::names::ExampleNames;
use varar_core::planned::PlannedOath;
use varar_core::source::Tables;
use varar_core::stored::PackedExamples;

/// A planned oath and what its items need of its parsed document, taken
/// while planning: the parses are dropped before the items are made.
pub(super) struct Planned {
    /// Its plan and drift.
    pub(super) oath: PlannedOath,
    /// The position tables of its text, when its parse made them (none
    /// for a plan read back from the cache); let go with its text.
    pub(super) tables: Option<Arc<Tables>>,
    /// Its `sourceHash`.
    pub(super) hash: String,
    /// Each example's item name before it is made unique in the run, and
    /// its line, in plan order: made from the packed examples' heads once
    /// every oath is planned and the texts are let go ([`Planned::name`],
    /// on two threads), not while the texts are held (issue 39).
    pub(super) names: ExampleNames,
    /// The other documents its steps were written in.
    pub(super) linked: Vec<String>,
    /// Its examples, taken out of its plan once everything above is made
    /// (issue 39): its plan holds none.
    pub(super) packed: Arc<PackedExamples>,
    /// Its lock record, made on the planning thread: the drift candidates
    /// are freed as soon as it is, not once every oath is planned.
    pub(super) record: Option<OathRecord>,
    /// What its lock entry says beside drift (see `Prepared::changes`, `enumerate.rs`).
    pub(super) changes: UpdateSummary,
}

/// Where a planned oath's examples are when [`Planned::new`] gets it.
pub(super) enum Examples<S> {
    /// In its plan, just made; the plan cache's `store`, when there is
    /// one, is given the oath once its examples are packed.
    Planned(Option<S>),
    /// Packed already: read back from the plan cache.
    Stored(PackedExamples),
}

impl Planned {
    /// The oath at `path`, whose text has the `sourceHash` `hash`, planned
    /// as `oath`, with what its items and its lock record need beside it
    /// (`update`: under `VARAR_UPDATE`), its examples packed.
    pub(super) fn new(
        (path, hash): (&str, String),
        mut oath: PlannedOath,
        tables: Option<Arc<Tables>>,
        examples: Examples<impl Fn(&PlannedOath, &PackedExamples)>,
        update: bool,
    ) -> Planned {
        let (linked, packed) = match examples {
            Examples::Planned(store) => {
                let linked = linked_documents(&oath.plan);
                let packed = PackedExamples::pack(std::mem::take(&mut oath.plan.examples));
                if let Some(store) = store {
                    store(&oath, &packed);
                }
                (linked, packed)
            }
            // A stored plan is used only by a run in which no document
            // may link (`cache/plans/`): its steps are all its oath's.
            Examples::Stored(packed) => (Vec::new(), packed),
        };
        let record = Some(oath.take_record(path, &hash));
        let mut changes = UpdateSummary::default();
        changes_of(update, path, &mut oath, &mut changes);
        Planned {
            names: ExampleNames::default(),
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

impl Planned {
    /// The names of its examples, the oath at `path`'s, from their packed
    /// heads (every head reads: the examples were packed by this run, or
    /// their heads read by `stored::decode_packed`).
    pub(super) fn name(&self, path: &str) -> ExampleNames {
        let heads = (0..self.packed.len()).filter_map(|i| self.packed.head(i));
        let heads = heads.map(|h| (h.scope_stack, h.name, h.span.start_line));
        ExampleNames::of_heads(path, heads)
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
