//! Runs every example of the oaths in `varar/` as a test.
//!
//! `cargo test` builds this target with `harness = false` (see Cargo.toml),
//! so `varar::run` owns `main`: it reads `varar.config.json`, makes one test
//! per example, and takes the usual libtest arguments (`--list`, filters,
//! `--exact`, `--test-threads`, …).

mod steps;

fn main() -> std::process::ExitCode {
    varar::run()
}
