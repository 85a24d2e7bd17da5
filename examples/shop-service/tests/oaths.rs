//! Runs every example of the oaths in `varar/` as a test, against the shop
//! service started once for the whole run (see `steps/mod.rs`).

mod steps;

fn main() -> std::process::ExitCode {
    varar::run()
}
