//! **The shell of a Varar project: its files, read and written one way
//! for every consumer.**
//!
//! The engine (`varar-core`) decides; this crate is the imperative shell
//! around a project on disk, shared by the `cargo test` harness
//! (`varar-runner`), `cargo varar` and the language server, so that each of
//! them finds the same oaths and reads and writes the same files the same
//! way:
//!
//! - [`config`]: reading `varar.config.json` and `VARAR_UPDATE` (spec 40
//!   §1, §4.5); what they mean is `varar_core::config`;
//! - [`discovery`]: which files are oaths, and reading one strictly (spec
//!   40 §2);
//! - [`files`]: reading any file a project, an artifact or an editor names,
//!   hostile cases closed (a link to a device, a FIFO, a huge file);
//! - [`store`]: the files of a project on disk (spec 40 §4, §6; issues 20
//!   and 34): the baseline `varar.lock.json`, the `.varar/` tree of run
//!   results, the run records and the run history, the caches, written
//!   atomically and removed only when they are ours. It is the only module
//!   that knows where those files are and the only writer of files;
//! - [`project`]: loading a project, the one way every consumer reads one
//!   ([`Project::load`]: config → discovery → the oaths' texts → the lock),
//!   or stage by stage where the harness puts its caches between them;
//! - `root` (feature `evidence`): which project a command works on
//!   (`--root`, or the nearest `varar.config.json` above), and where it
//!   is inside its repository (`repository_prefix`, for CI paths);
//! - `evidence` (feature `evidence`): a project's evidence read from disk
//!   (its result files, run records and sources as they are now) for the
//!   engine's run verdict (`varar_core::verdict`), the one reader of
//!   `cargo varar`'s `report`, `gate`, `junit` and the language server.
//!
//! What it never does: decide (planning, drift, the run's verdict and every
//! format's bytes are the engine's), run a step, print, or exit. Problems
//! are typed errors that name the file (STYLE §2.3); each consumer renders
//! them.
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

pub mod config;
pub mod discovery;
#[cfg(feature = "evidence")]
pub mod evidence;
pub mod files;
pub mod project;
#[cfg(feature = "evidence")]
pub mod root;
pub mod store;

pub use project::{Loaded, Oath, Project, ProjectError};
