//! The **read** stage's pieces (spec 40 §7.2, §7.5, spec 70 §70.2;
//! `stages/` runs the stage): which discovered oaths the run reads and
//! plans (`select.rs`: a run of one item, every `cargo nextest` process,
//! plans only its oath), every oath's text read once and the workspace
//! built over them (`documents.rs`: an oath is planned among the others,
//! whose sections it may link to). The baseline is read here too, by
//! `varar_project::Project`, beside the texts; the earlier run a rerun
//! continues (`VARAR_RERUN=failed`, issue 19) is read from its record, by
//! `finish::record::rerun`, the run record's own reader. `VARAR_TAGS`
//! (issue 38) is read and applied by `tags.rs`.

pub(super) mod documents;
pub(super) mod only;
pub(super) mod select;
pub(super) mod tags;
