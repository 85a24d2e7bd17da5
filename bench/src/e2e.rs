//! End-to-end time of the real harness: a throwaway Cargo project that runs
//! the corpus with `cargo test --release`.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use varar_core::env::{CARGO_TARGET_DIR, VARAR_TIMEOUT, VARAR_UPDATE};
use varar_project::store;

use crate::corpus::{self, Corpus};

/// Release-mode figures of the reference `cargo test` adapter (shared bench
/// README, 2 cores, build excluded, median of 3): (oaths, examples, seconds).
const REFERENCE: &[(usize, usize, f64)] = &[(20, 25, 9.5), (200, 25, 103.0), (1000, 25, 577.0)];

pub const STEPS: &str = include_str!("steps.rs");

/// The same eight steps as `async fn`: the bodies of `steps.rs`, unchanged,
/// so the async figures measure only what an `async fn` step costs.
fn async_steps() -> Result<String, String> {
    let converted = STEPS.replace("\nfn ", "\nasync fn ");
    match converted.matches("\nasync fn ").count() {
        8 => Ok(converted),
        n => Err(format!(
            "steps.rs has {n} top-level step functions, expected 8"
        )),
    }
}

/// The limit set for the timeout figure: never reached, so it measures
/// what enforcing one costs (a thread per example).
const LIMIT: &str = "60s";

/// Build the project once, then time every corpus.
pub fn measure(
    work: &Path,
    corpora: &[(usize, usize)],
    seed: u64,
    runs: usize,
) -> Result<(), String> {
    let project = work.join("project");
    let async_project = work.join("project-async");
    let target = work.join("target");
    write_project(&project, "varar-bench-project", STEPS, Extra::default())?;
    write_project(
        &async_project,
        "varar-bench-project-async",
        &async_steps()?,
        Extra {
            features: ", features = [\"tokio\"]",
            ..Extra::default()
        },
    )?;
    println!();
    println!("== end to end: cargo test --release ({runs} timed runs, median) ==");
    let mut binaries = Vec::new();
    for p in [&project, &async_project] {
        println!("building {} (not timed) ...", p.display());
        let status = cargo(p, &target)
            .args(["test", "--release", "--no-run"])
            .status()
            .map_err(|e| format!("cannot run cargo: {e}"))?;
        if !status.success() {
            return Err(format!("building {} failed", p.display()));
        }
        binaries.push(test_binary(p, &target)?);
    }
    let (binary, async_binary) = (&binaries[0], &binaries[1]);
    for &(n, m) in corpora {
        let corpus = corpus::generate(&work.join(format!("e2e-corpus-{n}x{m}")), n, m, seed)?;
        install(&corpus, &project)?;
        install(&corpus, &async_project)?;
        // One untimed run records the lock and warms the file cache; its
        // summary shows the corpus's planted failures were found.
        let warm = cargo(&project, &target)
            .args(["test", "--release"])
            .output()
            .map_err(|e| format!("cannot run cargo: {e}"))?;
        let summary = summary(&String::from_utf8_lossy(&warm.stdout));
        let mut cargo_times = Vec::new();
        for _ in 0..runs {
            let start = Instant::now();
            cargo(&project, &target)
                .args(["test", "--release"])
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .status()
                .map_err(|e| format!("cannot run cargo: {e}"))?;
            cargo_times.push(start.elapsed());
        }
        // The async project records its own lock before it is timed.
        time_binary(async_binary, &async_project, &[], 1)?;
        let mut binary_times = time_binary(binary, &project, &[], runs)?;
        report(&corpus, n, m, &summary, &mut cargo_times, &mut binary_times);
        let mut async_times = time_binary(async_binary, &async_project, &[], runs)?;
        let mut limit_times = time_binary(binary, &project, &[(VARAR_TIMEOUT, LIMIT)], runs)?;
        report_variants(
            &corpus,
            &mut binary_times,
            &mut async_times,
            &mut limit_times,
        );
    }
    Ok(())
}

/// Run the test binary `runs` times in `project`; the wall times.
fn time_binary(
    binary: &Path,
    project: &Path,
    env: &[(&str, &str)],
    runs: usize,
) -> Result<Vec<Duration>, String> {
    let mut times = Vec::new();
    for _ in 0..runs {
        let start = Instant::now();
        Command::new(binary)
            .current_dir(project)
            .env("CARGO_MANIFEST_DIR", project)
            .env_remove(VARAR_UPDATE)
            .env_remove(VARAR_TIMEOUT)
            .envs(env.iter().copied())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .map_err(|e| format!("cannot run {}: {e}", binary.display()))?;
        times.push(start.elapsed());
    }
    Ok(times)
}

/// The async and timeout figures next to the sync binary's, per example.
fn report_variants(
    corpus: &Corpus,
    sync: &mut [Duration],
    async_: &mut [Duration],
    limited: &mut [Duration],
) {
    let per = |t: Duration| t.as_secs_f64() * 1e6 / corpus.examples_total.max(1) as f64;
    let (s, a, l) = (median(sync), median(async_), median(limited));
    println!(
        "  async fn steps        median {:>8.3} s   (runs: {}), {:.1} µs per example: async overhead {:+.1} µs per example",
        a.as_secs_f64(),
        list(async_),
        per(a),
        per(a) - per(s)
    );
    println!(
        "  sync, {VARAR_TIMEOUT}={LIMIT} median {:>8.3} s   (runs: {}), {:.1} µs per example: timeout overhead {:+.1} µs per example",
        l.as_secs_f64(),
        list(limited),
        per(l),
        per(l) - per(s)
    );
}

fn report(
    corpus: &Corpus,
    n: usize,
    m: usize,
    summary: &str,
    cargo_times: &mut [Duration],
    binary_times: &mut [Duration],
) {
    let cargo = median(cargo_times);
    let binary = median(binary_times);
    println!();
    println!(
        "corpus {n} x {m}: {} oaths, {} examples ({} planted failures), {:.2} MB",
        corpus.oaths.len(),
        corpus.examples_total,
        corpus.expected_failures,
        corpus.bytes() as f64 / 1e6
    );
    println!("  harness result      {summary}");
    println!(
        "  cargo test --release  median {:>8.3} s   (runs: {})",
        cargo.as_secs_f64(),
        list(cargo_times)
    );
    println!(
        "  test binary alone     median {:>8.3} s   (runs: {})",
        binary.as_secs_f64(),
        list(binary_times)
    );
    println!(
        "  per example           {:>8.1} µs (cargo test), {:.1} µs (binary)",
        cargo.as_secs_f64() * 1e6 / corpus.examples_total.max(1) as f64,
        binary.as_secs_f64() * 1e6 / corpus.examples_total.max(1) as f64
    );
    match REFERENCE.iter().find(|(rn, rm, _)| (*rn, *rm) == (n, m)) {
        Some((_, _, secs)) => println!(
            "  reference (varar-cargotest 0.8.1, release) {secs:.1} s: {:.1}x faster",
            secs / cargo.as_secs_f64().max(1e-9)
        ),
        None => println!("  no reference figure for this corpus size"),
    }
}

/// The median of `times` (sorts them).
pub(crate) fn median(times: &mut [Duration]) -> Duration {
    times.sort();
    times.get(times.len() / 2).copied().unwrap_or_default()
}

/// `times` in seconds, comma-separated.
pub(crate) fn list(times: &[Duration]) -> String {
    times
        .iter()
        .map(|t| format!("{:.3}", t.as_secs_f64()))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The libtest summary line, e.g. `FAILED. 4988 passed; 12 failed; …`.
fn summary(stdout: &str) -> String {
    stdout
        .lines()
        .filter_map(|l| l.strip_prefix("test result: "))
        .next_back()
        .map(|s| s.split("; finished").next().unwrap_or(s).to_string())
        .unwrap_or_else(|| "(no summary line)".to_string())
}

/// `cargo` with a clean environment and the benchmark's own target dir.
pub fn cargo(project: &Path, target: &Path) -> Command {
    let mut cmd = Command::new(std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into()));
    cmd.current_dir(project).env(CARGO_TARGET_DIR, target);
    for (key, _) in std::env::vars_os() {
        let k = key.to_string_lossy();
        if k.starts_with("VARAR_") || k == "CI" || k == "CARGO_TERM_COLOR" {
            cmd.env_remove(&key);
        }
    }
    cmd
}

/// What a generated project adds to the common manifest: more
/// dev-dependencies (TOML lines) and a tail (more targets, profile lines).
#[derive(Clone, Copy, Default)]
pub(crate) struct Extra<'a> {
    /// `, features = [...]` for the varar dependency.
    pub features: &'a str,
    /// Lines under `[dev-dependencies]`, after varar.
    pub dev_dependencies: &'a str,
    /// Text after the `oaths` target.
    pub tail: &'a str,
}

/// Write a throwaway project whose `tests/oaths.rs` runs `steps` through
/// varar, with the workspace's `Cargo.lock` so nothing new is fetched.
pub(crate) fn write_project(
    project: &Path,
    name: &str,
    steps: &str,
    extra: Extra<'_>,
) -> Result<(), String> {
    let varar = crate::paths::workspace_root().join("varar");
    let Extra {
        features,
        dev_dependencies,
        tail,
    } = extra;
    let manifest = format!(
        r#"[package]
name = "{name}"
version = "0.0.0"
edition = "2024"
publish = false

[workspace]

[lib]
path = "src/lib.rs"
test = false
doctest = false

[dev-dependencies]
oathmark = {{ path = {:?}{features} }}
{dev_dependencies}
[[test]]
name = "oaths"
harness = false
{tail}"#,
        varar.display().to_string()
    );
    write(&project.join("Cargo.toml"), &manifest)?;
    write(
        &project.join("src/lib.rs"),
        "//! Generated by varar-bench: the corpus's steps are in tests/steps/mod.rs.\n",
    )?;
    write(
        &project.join("tests/oaths.rs"),
        "//! Generated by varar-bench.\nmod steps;\nfn main() -> std::process::ExitCode {\n    varar::run()\n}\n",
    )?;
    // A directory module, so Cargo does not make it a test target of its own.
    write(&project.join("tests/steps/mod.rs"), steps)?;
    let stale = project.join("tests/steps.rs");
    if stale.exists() {
        fs::remove_file(&stale).map_err(|e| format!("{}: {e}", stale.display()))?;
    }
    let lock = project.join("Cargo.lock");
    if !lock.exists() {
        // Same dependency versions as the workspace: nothing new to fetch.
        let _ = fs::copy(crate::paths::workspace_root().join("Cargo.lock"), &lock);
    }
    Ok(())
}

/// Put the corpus's oaths and config into the project, with no lock and no
/// results left from another corpus.
fn install(corpus: &Corpus, project: &Path) -> Result<(), String> {
    for p in [project.join("varar"), store::scratch_dir(project)] {
        if p.exists() {
            fs::remove_dir_all(&p).map_err(|e| format!("{}: {e}", p.display()))?;
        }
    }
    let lock = store::lock_path(project);
    if lock.exists() {
        fs::remove_file(&lock).map_err(|e| format!("{}: {e}", lock.display()))?;
    }
    fs::copy(
        corpus.root.join("varar.config.json"),
        project.join("varar.config.json"),
    )
    .map_err(|e| format!("varar.config.json: {e}"))?;
    for (oath_path, text) in &corpus.oaths {
        write(&project.join(oath_path), text)?;
    }
    Ok(())
}

/// The path of the built `oaths` test binary.
fn test_binary(project: &Path, target: &Path) -> Result<PathBuf, String> {
    built_test(project, target, &["--release"], "oaths")
}

/// The path of the test binary `name` that `cargo test --no-run <args>`
/// builds in `project`.
pub fn built_test(
    project: &Path,
    target: &Path,
    args: &[&str],
    name: &str,
) -> Result<PathBuf, String> {
    let output = cargo(project, target)
        .args(["test", "--no-run", "--message-format=json"])
        .args(args)
        .stderr(Stdio::null())
        .output()
        .map_err(|e| format!("cannot run cargo: {e}"))?;
    String::from_utf8_lossy(&output.stdout)
        .lines()
        .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
        .filter(|v| v["target"]["name"] == name)
        .find_map(|v| v["executable"].as_str().map(PathBuf::from))
        .ok_or_else(|| format!("cargo did not report the {name} test binary"))
}

pub fn write(path: &Path, text: &str) -> Result<(), String> {
    // A file that already holds `text` is left alone: a project's sources
    // rewritten as they were made cargo rebuild and relink its test
    // binary at every bench run, just before its runs are timed.
    if fs::read(path).is_ok_and(|held| held == text.as_bytes()) {
        return Ok(());
    }
    if let Some(parent) = path.parent() {
        fs::create_dir_all(parent).map_err(|e| format!("{}: {e}", parent.display()))?;
    }
    fs::write(path, text).map_err(|e| format!("{}: {e}", path.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_async_variant_has_the_same_eight_steps() {
        let steps = async_steps().unwrap();
        assert_eq!(
            steps.matches("\n#[stimulus(").count() + steps.matches("\n#[sensor(").count(),
            8
        );
        assert!(steps.contains("\nasync fn deposits(account: &mut Account"));
        assert!(
            steps.contains("    fn deposit(&mut self, amount: i64)"),
            "methods stay sync"
        );
    }

    #[test]
    fn summary_drops_the_timing() {
        let out = "running 3 tests\ntest result: FAILED. 2 passed; 1 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.01s\n";
        assert_eq!(
            summary(out),
            "FAILED. 2 passed; 1 failed; 0 ignored; 0 measured; 0 filtered out"
        );
        assert_eq!(summary(""), "(no summary line)");
    }

    #[test]
    fn median_of_three_is_the_middle() {
        let mut t = [
            Duration::from_secs(3),
            Duration::from_secs(1),
            Duration::from_secs(2),
        ];
        assert_eq!(median(&mut t), Duration::from_secs(2));
    }
}
