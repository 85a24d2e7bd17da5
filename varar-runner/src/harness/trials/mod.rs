//! The **trials** stage (spec 40 §7.2 phase 1, spec 70 §70.2, §70.6.6;
//! `stages/` runs it): every selected oath planned once among the others
//! with its drift, by the engine, and turned into libtest trials in the
//! engine's one order of items (`enumerate.rs`); one oath as enumeration
//! keeps it once planned, its steps packed and its lock record made on its
//! planning thread (`planned.rs`, issue 39); each item's name, kind, oath
//! and line and how it ended, for the run record (`items.rs`, issue 19);
//! one planned oath as its trials share it, with the sink of its examples'
//! results (`oath_run.rs`, spec 40 §6); the trial of one example, which
//! reads back its steps (`example.rs`); the selected oaths planned side by
//! side (`parallel.rs`). Plans kept between runs are `cache/plans/`.

pub(super) mod enumerate;
mod example;
pub(super) mod items;
pub(super) mod oath_run;
pub(super) mod parallel;
mod planned;
mod text;
