//! The run history (issue 20): where the complete runs are kept beyond the
//! last one (`<target>/varar/history/<run id>/<process id>.run`), and which
//! of them the next run prunes. Pure: the shell reads the environment, the
//! clock and the directory listing, this decides.
//!
//! Limits come from the environment (config keys are closed by the spec),
//! so a project sets them once in `.cargo/config.toml`'s `[env]`:
//!
//! | variable | default | meaning |
//! | --- | --- | --- |
//! | `VARAR_HISTORY` | `<target>/varar/history` (see [`history_dir`]) | the directory, or `off` |
//! | `VARAR_HISTORY_RUNS` | [`DEFAULT_RUNS`] | runs kept at most |
//! | `VARAR_HISTORY_SIZE` | [`DEFAULT_BYTES`] (256 MiB) | bytes kept at most (`K`, `M`, `G` suffixes, powers of 1024) |
//! | `VARAR_HISTORY_DAYS` | [`DEFAULT_DAYS`] | days a run is kept at most (`0`: no age limit) |
//!
//! Pruning deletes, so the history is a directory varar made and marked
//! (issue 34, STYLE §2.9): [`judge_history`] decides, from what the shell
//! saw at the place (symbolic links not followed), whether a run may use
//! it, adopt it or must refuse it. A missing directory is created with
//! the marker [`HISTORY_MARKER`]; a marked one is used; an empty one is
//! adopted (marked). At the default place only, an unmarked history an
//! earlier version wrote is adopted when every entry is recognisably one
//! of our run directories ([`crate::owned::is_run_dir`]). Anything else
//! is refused: a symbolic link, what is not a directory, a directory
//! holding anything else, and, marked or not, the project's directory,
//! cargo's target directory or a parent of either, or a place inside the
//! project's `.varar/`. A refused history is one warning; the run goes on
//! without it.

use std::path::{Path, PathBuf};

mod place;

use crate::env::{VARAR_HISTORY_DAYS, VARAR_HISTORY_RUNS, VARAR_HISTORY_SIZE};

pub use place::{
    Clash, HISTORY_MARKER, HistoryOrigin, HistoryRefusal, HistorySeen, HistoryUse, MARKER_TEXT,
    SeenEntry, clash, judge_history,
};

/// Runs kept by default.
pub const DEFAULT_RUNS: usize = 100;
/// Bytes kept by default: 256 MiB.
pub const DEFAULT_BYTES: u64 = 256 * 1024 * 1024;
/// Days a run is kept by default.
pub const DEFAULT_DAYS: u64 = 30;

/// How much history is kept.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HistoryLimits {
    /// Runs kept at most (at least 1: the run being written).
    pub runs: usize,
    /// Bytes kept at most; the run being written is kept whatever its size.
    pub bytes: u64,
    /// Days kept at most; `0` keeps runs of any age.
    pub days: u64,
}

impl Default for HistoryLimits {
    fn default() -> Self {
        HistoryLimits {
            runs: DEFAULT_RUNS,
            bytes: DEFAULT_BYTES,
            days: DEFAULT_DAYS,
        }
    }
}

/// A limit that could not be read: the variable, its value and why.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{var}={value:?} is not {expected}; the default is used")]
pub struct LimitError {
    /// The variable.
    pub var: &'static str,
    /// Its value.
    pub value: String,
    /// What it should be.
    pub expected: &'static str,
}

impl HistoryLimits {
    /// The limits from the variables' values (`var` gives a variable's
    /// value, `None` when unset or empty), every bad value a [`LimitError`]
    /// and the default in its place.
    pub fn from_vars(var: impl Fn(&str) -> Option<String>) -> (HistoryLimits, Vec<LimitError>) {
        let mut limits = HistoryLimits::default();
        let mut errors = Vec::new();
        let mut bad = |var: &'static str, value: String, expected: &'static str| {
            errors.push(LimitError {
                var,
                value,
                expected,
            })
        };
        if let Some(v) = var(VARAR_HISTORY_RUNS) {
            match v.trim().parse::<usize>() {
                Ok(n) if n > 0 => limits.runs = n,
                _ => bad(VARAR_HISTORY_RUNS, v, "a number of runs (1 or more)"),
            }
        }
        if let Some(v) = var(VARAR_HISTORY_SIZE) {
            match parse_size(&v) {
                Some(n) => limits.bytes = n,
                None => bad(
                    VARAR_HISTORY_SIZE,
                    v,
                    "a size in bytes (like 1048576, 512K, 64M or 1G)",
                ),
            }
        }
        if let Some(v) = var(VARAR_HISTORY_DAYS) {
            match v.trim().parse::<u64>() {
                Ok(n) => limits.days = n,
                Err(_) => bad(VARAR_HISTORY_DAYS, v, "a number of days (0: no age limit)"),
            }
        }
        (limits, errors)
    }
}

/// A size: a number of bytes, with an optional `K`, `M` or `G` (or `KB`,
/// `KiB`, …: all powers of 1024), any case.
///
/// ```
/// use varar_core::history::parse_size;
/// assert_eq!(parse_size("512"), Some(512));
/// assert_eq!(parse_size("64M"), Some(64 << 20));
/// assert_eq!(parse_size("1 GiB"), Some(1 << 30));
/// assert_eq!(parse_size("lots"), None);
/// ```
pub fn parse_size(text: &str) -> Option<u64> {
    let text = text.trim();
    let digits = text
        .find(|c: char| !c.is_ascii_digit())
        .unwrap_or(text.len());
    let number: u64 = text[..digits].parse().ok()?;
    let unit = text[digits..].trim().to_ascii_lowercase();
    let shift = match unit.as_str() {
        "" | "b" => 0,
        "k" | "kb" | "kib" => 10,
        "m" | "mb" | "mib" => 20,
        "g" | "gb" | "gib" => 30,
        _ => return None,
    };
    number.checked_mul(1u64 << shift)
}

/// Where the history is: `VARAR_HISTORY` (`off`: nowhere; relative to
/// `root`), else `<target>/varar/history` (see [`target_dir`]), and which
/// of the two it is.
pub fn history_dir(
    root: &Path,
    history: Option<&str>,
    target_dir_var: Option<&str>,
    found_target: Option<&Path>,
) -> Option<(PathBuf, HistoryOrigin)> {
    match history.map(str::trim).filter(|h| !h.is_empty()) {
        Some("off") => None,
        Some(dir) => Some((root.join(dir), HistoryOrigin::Named)),
        None => {
            let target = target_dir(root, target_dir_var, found_target);
            Some((target.join("varar").join("history"), HistoryOrigin::Default))
        }
    }
}

/// Cargo's target directory for the project at `root`: `CARGO_TARGET_DIR`
/// (`target_dir_var`, relative to `root`), else `found_target` (the
/// shell's find: the `target/` of the nearest ancestor of `root` that
/// cargo marked with its `CACHEDIR.TAG`, so a workspace member's history
/// lands in the workspace's target), else `<root>/target`.
pub fn target_dir(
    root: &Path,
    target_dir_var: Option<&str>,
    found_target: Option<&Path>,
) -> PathBuf {
    match (target_dir_var.filter(|t| !t.is_empty()), found_target) {
        (Some(t), _) => root.join(t),
        (None, Some(found)) => found.to_path_buf(),
        (None, None) => root.join("target"),
    }
}

/// A run in the history, as its directory listing shows it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KeptRun {
    /// Its directory's name.
    pub name: String,
    /// When its directory last changed, in milliseconds since the epoch.
    pub modified_ms: u64,
    /// The bytes of its files.
    pub bytes: u64,
}

/// The runs of `runs` to remove so that the history keeps within `limits`
/// at `now_ms`: the newest are kept while they fit (the run `keep`, being
/// written, always, and counted first); a run older than the age limit, and
/// every run older than one that did not fit the count or the size, goes.
pub fn runs_to_prune(
    runs: &[KeptRun],
    keep: &str,
    limits: &HistoryLimits,
    now_ms: u64,
) -> Vec<String> {
    let mut newest: Vec<&KeptRun> = runs.iter().collect();
    newest.sort_by(|a, b| b.modified_ms.cmp(&a.modified_ms).then(a.name.cmp(&b.name)));
    let (mut count, mut bytes) = match newest.iter().find(|r| r.name == keep) {
        Some(own) => (1usize, own.bytes),
        None => (1, 0),
    };
    let max_age_ms = limits.days.saturating_mul(86_400_000);
    let mut full = false;
    let mut out = Vec::new();
    for run in newest.into_iter().filter(|r| r.name != keep) {
        let too_old = limits.days > 0 && now_ms.saturating_sub(run.modified_ms) > max_age_ms;
        full = full || count >= limits.runs || bytes.saturating_add(run.bytes) > limits.bytes;
        if full || too_old {
            out.push(run.name.clone());
        } else {
            count += 1;
            bytes += run.bytes;
        }
    }
    out
}

#[cfg(test)]
mod tests;
