//! The **setup** stage's pieces (spec 40 §7.2; `stages/` runs the
//! stage): what the run was told before it reads anything, each read
//! once. libtest's command line (`arguments.rs`, spec 40 §7: the shapes
//! `cargo test` and `cargo nextest` use), what code gave a
//! [`Runner`](crate::Runner) (`settings.rs`), whether failure text is
//! coloured (`color.rs`, STYLE §2.6) and the per-example time limit
//! (`timeout.rs`, spec 60.7). The config and discovery are
//! `varar_project`'s; the discovery cache is in `cache/`.

pub(super) mod arguments;
pub(super) mod color;
pub(super) mod settings;
pub(super) mod timeout;
