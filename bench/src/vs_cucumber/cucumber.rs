//! The cucumber-rs side of the comparison: its project written from the
//! templates in `bench/cucumber/` and built, and how both test binaries are
//! started.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

use super::process::run_quiet;
use crate::e2e::{cargo, write};
use crate::feature;
use crate::project::{Profile, Project};

const MANIFEST: &str = include_str!("../../cucumber/Cargo.toml");
const LOCK: &str = include_str!("../../cucumber/Cargo.lock");
const LIB: &str = include_str!("../../cucumber/src/lib.rs");
const MAIN: &str = include_str!("../../cucumber/tests/ledger.rs");
const STEPS: &str = include_str!("../../cucumber/tests/steps/mod.rs");

/// The cucumber-rs project of one profile.
pub(super) struct Cucumber {
    dir: PathBuf,
    binary: PathBuf,
}

impl Cucumber {
    /// Its directory and target directory under `work`.
    pub(super) fn paths(work: &Path, profile: Profile) -> (PathBuf, PathBuf) {
        (
            work.join(format!("cucumber-{}", profile.label())),
            work.join(format!("target-cucumber-{}", profile.label())),
        )
    }

    /// Write the project from the templates (features are installed later).
    pub(super) fn write(work: &Path, profile: Profile) -> Result<(PathBuf, PathBuf), String> {
        let (dir, target) = Cucumber::paths(work, profile);
        write(&dir.join("Cargo.toml"), MANIFEST)?;
        write(&dir.join("Cargo.lock"), LOCK)?;
        write(&dir.join("src/lib.rs"), LIB)?;
        write(&dir.join("tests/ledger.rs"), MAIN)?;
        write(&dir.join("tests/steps/mod.rs"), STEPS)?;
        Ok((dir, target))
    }

    /// Write and build it (not timed).
    pub(super) fn build(work: &Path, profile: Profile) -> Result<Cucumber, String> {
        let (dir, target) = Cucumber::write(work, profile)?;
        println!("building {} (not timed) ...", dir.display());
        run_quiet(
            cargo(&dir, &target)
                .args(["test", "--no-run", "--test", "ledger"])
                .args(profile.cargo_args()),
            format!("building {} failed", dir.display()),
        )?;
        let binary = crate::e2e::built_test(&dir, &target, profile.cargo_args(), "ledger")?;
        Ok(Cucumber { dir, binary })
    }

    /// Replace the project's features with these.
    pub(super) fn install(&self, features: &[(String, String)]) -> Result<(), String> {
        let old = self.dir.join(feature::FEATURES_DIR);
        if old.exists() {
            fs::remove_dir_all(&old).map_err(|e| format!("{}: {e}", old.display()))?;
        }
        for (path, text) in features {
            write(&self.dir.join(path), text)?;
        }
        Ok(())
    }

    /// The test binary, run as `cargo test` would.
    pub(super) fn command(&self) -> Command {
        let mut cmd = Command::new(&self.binary);
        cmd.current_dir(&self.dir)
            .env("CARGO_MANIFEST_DIR", &self.dir);
        quiet_env(&mut cmd);
        cmd
    }
}

/// Our test binary, run as `cargo test` would.
pub(super) fn ours_command(project: &Project) -> Command {
    let mut cmd = Command::new(&project.oaths);
    cmd.current_dir(&project.dir)
        .env("CARGO_MANIFEST_DIR", &project.dir);
    quiet_env(&mut cmd);
    cmd
}

/// The same environment for both binaries: no backtraces captured on the
/// planted failures' panics, no Varar variables.
pub(super) fn quiet_env(cmd: &mut Command) {
    cmd.env_remove("RUST_BACKTRACE")
        .env_remove("RUST_LIB_BACKTRACE");
    for (key, _) in std::env::vars_os() {
        if key.to_string_lossy().starts_with("VARAR_") {
            cmd.env_remove(&key);
        }
    }
}

/// The version of `name` in the cucumber project's lock.
pub(super) fn locked_version(name: &str) -> String {
    let mut lines = LOCK.lines();
    while let Some(line) = lines.next() {
        if line == format!("name = \"{name}\"")
            && let Some(v) = lines
                .next()
                .and_then(|l| l.strip_prefix("version = \""))
                .and_then(|l| l.strip_suffix('"'))
        {
            return v.to_string();
        }
    }
    "?".to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_lock_names_cucumber_0_23() {
        assert!(locked_version("cucumber").starts_with("0.23."));
        assert_ne!(locked_version("tokio"), "?");
        assert_eq!(locked_version("no-such-crate"), "?");
    }
}
