//! A copy of the sample project in a temporary directory, and the real
//! `cargo` run against it with a clean environment (STYLE §2.5 "End to end").

#![allow(dead_code)] // each test file uses a different part of this module

use std::collections::BTreeMap;
use std::ffi::OsStr;
use std::fs;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::thread;
use std::time::{Duration, Instant};

mod files;

// Each test file uses a different part of the model, as of this module.
#[allow(unused_imports)]
pub use files::{Lock, LockEntry, LockExample, RunDocument, RunExample, RunResult};

/// The sample project every check copies.
pub const SAMPLE: &str = "examples/bakery";

/// The prose paragraph the drift probe points at: its oath, and the first
/// words of the paragraph (the whole line is the example name).
pub const PROBE_OATH: &str = "varar/shelf.md";
pub const PROBE_START: &str = "Unsold bread goes to the food bank";

/// How long one cargo command may take, the first build included.
pub const TIMEOUT: Duration = Duration::from_secs(900);

/// The number of examples (test items) of each oath of the sample.
pub const EXAMPLES_PER_OATH: &[(&str, usize)] = &[
    ("varar/basket.md", 6),
    // Its only section runs where the other oaths link to it.
    ("varar/opening-the-shop.md", 0),
    ("varar/serving-a-customer.md", 1),
    ("varar/shelf.md", 5),
    ("varar/the-morning-rush.md", 1),
];

/// The workspace root (the parent of this package).
pub fn workspace_root() -> PathBuf {
    let here = Path::new(env!("CARGO_MANIFEST_DIR"));
    here.parent().unwrap_or(here).to_path_buf()
}

/// A private copy of the sample project.
pub struct Sample {
    _dir: tempfile::TempDir,
    root: PathBuf,
    pristine_lock: Vec<u8>,
}

/// What one command did.
pub struct Run {
    pub code: Option<i32>,
    pub stdout: String,
    pub stderr: String,
}

impl Run {
    fn from(output: Output) -> Run {
        Run {
            code: output.status.code(),
            stdout: String::from_utf8_lossy(&output.stdout).into_owned(),
            stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
        }
    }

    /// Both streams, with timings normalised so failures read the same on
    /// every machine.
    pub fn combined(&self) -> String {
        normalize(&format!("{}\n{}", self.stdout, self.stderr))
    }

    /// Panics with the whole output unless the exit code is `code`.
    pub fn assert_code(&self, code: i32, what: &str) {
        assert_eq!(
            self.code,
            Some(code),
            "{what}: unexpected exit code\n{}",
            self.combined()
        );
    }

    /// The names of the items libtest reported as run
    /// (`test [kind] NAME ... ok`), without the kind and padding.
    pub fn executed_items(&self) -> Vec<String> {
        self.stdout
            .lines()
            .filter_map(|l| l.strip_prefix("test "))
            .filter_map(|l| l.rsplit_once(" ... ").map(|(name, _)| name))
            .map(|name| strip_kind(name).trim_end().to_string())
            .collect()
    }

    /// The outcome libtest printed for `item` (`ok`, `FAILED`, …), if it ran.
    pub fn outcome(&self, item: &str) -> Option<String> {
        self.stdout
            .lines()
            .filter_map(|l| l.strip_prefix("test "))
            .filter_map(|l| l.rsplit_once(" ... "))
            .find(|(name, _)| strip_kind(name).trim_end() == item)
            .map(|(_, outcome)| outcome.trim().to_string())
    }

    /// The items of `--list` output (`[kind] NAME: test`), without the kind.
    pub fn listed_items(&self) -> Vec<String> {
        self.stdout
            .lines()
            .filter_map(|l| l.strip_suffix(": test"))
            .map(|name| strip_kind(name).to_string())
            .collect()
    }
}

/// libtest-mimic prints a test's kind as a `[kind] ` prefix of its name.
pub fn strip_kind(name: &str) -> &str {
    match name.split_once("] ") {
        Some((_, rest)) if name.starts_with('[') => rest,
        _ => name,
    }
}

/// Replace durations like `0.01s` and `1.2ms` so output can be compared.
pub fn normalize(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let chars: Vec<char> = text.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        let start = i;
        while i < chars.len() && (chars[i].is_ascii_digit() || chars[i] == '.') {
            i += 1;
        }
        if i > start {
            let unit = ["ms", "s"]
                .into_iter()
                .find(|u| chars[i..].starts_with(&u.chars().collect::<Vec<_>>()));
            let digits: String = chars[start..i].iter().collect();
            match unit {
                Some(u) if digits.contains('.') => {
                    out.push_str("<time>");
                    out.push_str(u);
                    i += u.len();
                }
                _ => out.push_str(&digits),
            }
        } else {
            out.push(chars[i]);
            i += 1;
        }
    }
    out
}

impl Sample {
    /// Copy the sample (without `target/` and `.varar/`) and point its
    /// `oathmark` dependency at this workspace.
    pub fn copy() -> Sample {
        Sample::copy_of(
            SAMPLE,
            r#"oathmark = { version = "0.1", path = "../../varar" }"#,
        )
    }

    /// Copy the project at `rel` (relative to the workspace) the same way;
    /// `relative` is the exact `oathmark = { …, path = … }` line of its
    /// root manifest, whose path is rewritten to this workspace's absolute
    /// one.
    pub fn copy_of(rel: &str, relative: &str) -> Sample {
        let ws = workspace_root();
        let from = ws.join(rel);
        let dir = tempfile::Builder::new()
            .prefix("varar-e2e-")
            .tempdir()
            .unwrap_or_else(|e| panic!("cannot create a temporary directory: {e}"));
        let name = Path::new(rel)
            .file_name()
            .unwrap_or_else(|| OsStr::new("project"));
        let root = dir.path().join(name);
        copy_tree(&from, &root);

        let manifest = root.join("Cargo.toml");
        let text = read_string(&manifest);
        assert!(
            text.contains(relative),
            "{rel}/Cargo.toml must depend on oathmark with {relative}"
        );
        // Only the path changes: features and other keys stay as written.
        let absolute = ws.join("varar");
        let path = relative
            .split_once("path = ")
            .and_then(|(_, rest)| rest.split('"').nth(1))
            .unwrap_or_else(|| panic!("{relative} has no quoted path"));
        let rewritten = text.replace(
            relative,
            &relative.replace(
                &format!("{path:?}"),
                &format!("{:?}", absolute.display().to_string()),
            ),
        );
        write(&manifest, rewritten.as_bytes());

        // Resolve with the versions this workspace already uses, so the copy
        // needs nothing new from the registry and shares build artifacts.
        if !root.join("Cargo.lock").exists() {
            let ws_lock = ws.join("Cargo.lock");
            if ws_lock.exists() {
                fs::copy(&ws_lock, root.join("Cargo.lock"))
                    .unwrap_or_else(|e| panic!("cannot copy Cargo.lock: {e}"));
            }
        }

        let pristine_lock = fs::read(root.join("varar.lock.json")).unwrap_or_default();
        Sample {
            _dir: dir,
            root,
            pristine_lock,
        }
    }

    /// A new project made of `files` (path, text), named `name`, its
    /// `Cargo.lock` the workspace's (nothing new from the registry).
    pub fn of_files(name: &str, files: &[(&str, String)]) -> Sample {
        let dir = tempfile::Builder::new()
            .prefix("varar-e2e-")
            .tempdir()
            .unwrap_or_else(|e| panic!("cannot create a temporary directory: {e}"));
        let root = dir.path().join(name);
        for (rel, text) in files {
            write(&root.join(rel), text.as_bytes());
        }
        let ws_lock = workspace_root().join("Cargo.lock");
        if ws_lock.exists() && !root.join("Cargo.lock").exists() {
            fs::copy(&ws_lock, root.join("Cargo.lock"))
                .unwrap_or_else(|e| panic!("cannot copy Cargo.lock: {e}"));
        }
        Sample {
            _dir: dir,
            root,
            pristine_lock: Vec::new(),
        }
    }

    /// The copy's project root.
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// The lock exactly as the sample ships it (empty if it ships none).
    pub fn pristine_lock(&self) -> &[u8] {
        &self.pristine_lock
    }

    /// The current bytes of the copy's `varar.lock.json` (empty if absent).
    pub fn lock_bytes(&self) -> Vec<u8> {
        fs::read(self.root.join("varar.lock.json")).unwrap_or_default()
    }

    /// Panics unless `varar.lock.json` is byte-identical to the shipped one.
    pub fn assert_lock_pristine(&self, what: &str, run: Option<&Run>) {
        let now = self.lock_bytes();
        if now != self.pristine_lock {
            panic!(
                "{what}: varar.lock.json differs from the one the sample ships\n\
                 --- shipped\n{}\n--- now\n{}\n--- output\n{}",
                String::from_utf8_lossy(&self.pristine_lock),
                String::from_utf8_lossy(&now),
                run.map(Run::combined).unwrap_or_default()
            );
        }
    }

    /// Replace the copy's `varar.lock.json`.
    pub fn write_lock(&self, bytes: &[u8]) {
        write(&self.root.join("varar.lock.json"), bytes);
    }

    /// Remove a file or directory of the copy, if present.
    pub fn remove(&self, rel: &str) {
        let p = self.root.join(rel);
        if p.is_dir() {
            fs::remove_dir_all(&p).unwrap_or_else(|e| panic!("cannot remove {rel}: {e}"));
        } else if p.exists() {
            fs::remove_file(&p).unwrap_or_else(|e| panic!("cannot remove {rel}: {e}"));
        }
    }

    /// The oath files on disk (`varar/**/*.md`), as sorted oathPaths.
    pub fn oath_files(&self) -> Vec<String> {
        let mut found = Vec::new();
        collect_md(&self.root, &self.root.join("varar"), &mut found);
        found.sort();
        found
    }

    /// The text of a file of the copy.
    pub fn read(&self, rel: &str) -> String {
        read_string(&self.root.join(rel))
    }

    /// Replace the first `from` in the copy's file at `rel` with `to`;
    /// `from` must be there.
    pub fn edit(&self, rel: &str, from: &str, to: &str) {
        let text = self.read(rel);
        assert!(text.contains(from), "{rel} has no {from:?}");
        write(&self.root.join(rel), text.replacen(from, to, 1).as_bytes());
    }

    /// `program <args>` run in the copy (a built binary such as
    /// `cargo-varar`): its exit code, stdout and stderr.
    pub fn output_of(&self, program: &str, args: &[&str]) -> (Option<i32>, String, String) {
        self.output_with(program, args, &[])
    }

    /// [`Sample::output_of`] with extra environment variables.
    pub fn output_with(
        &self,
        program: &str,
        args: &[&str],
        env: &[(&str, &str)],
    ) -> (Option<i32>, String, String) {
        let out = Command::new(program)
            .args(args)
            .envs(env.iter().copied())
            .current_dir(&self.root)
            .output()
            .unwrap_or_else(|e| panic!("cannot run {program}: {e}"));
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stdout).into_owned(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    }

    /// `cargo <args>` in the copy with a clean environment.
    pub fn cargo<I, S>(&self, args: I) -> Command
    where
        I: IntoIterator<Item = S>,
        S: AsRef<OsStr>,
    {
        let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
        let mut cmd = Command::new(cargo);
        cmd.args(args).current_dir(&self.root);
        for (key, _) in std::env::vars_os() {
            let k = key.to_string_lossy();
            let scrub = matches!(
                k.as_ref(),
                "CI" | "NO_COLOR" | "CLICOLOR_FORCE" | "CARGO_TERM_COLOR" | "RUST_TEST_THREADS"
            ) || k.starts_with("VARAR_")
                || k.starts_with("NEXTEST");
            if scrub {
                cmd.env_remove(&key);
            }
        }
        // One shared target directory: the workspace's crates are built once
        // for all copies; cargo's own lock serialises concurrent builds.
        cmd.env(
            "CARGO_TARGET_DIR",
            workspace_root().join("target").join("e2e"),
        );
        cmd.env("CARGO_TERM_COLOR", "never");
        // The copies share one target directory: each keeps no run history
        // there unless its test points `VARAR_HISTORY` at its own.
        cmd.env("VARAR_HISTORY", "off");
        cmd
    }

    /// Run `cargo <args>` with extra environment variables. A run that
    /// takes longer than [`TIMEOUT`] (a hung harness) is killed and fails
    /// the test instead of hanging the suite.
    pub fn run(&self, args: &[&str], env: &[(&str, &str)]) -> Run {
        let mut cmd = self.cargo(args);
        for (k, v) in env {
            cmd.env(k, v);
        }
        cmd.stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        let mut child = cmd
            .spawn()
            .unwrap_or_else(|e| panic!("cannot run cargo {args:?}: {e}"));
        let stdout = drain(child.stdout.take());
        let stderr = drain(child.stderr.take());
        let start = Instant::now();
        let status = loop {
            match child.try_wait() {
                Ok(Some(status)) => break status,
                Ok(None) if start.elapsed() > TIMEOUT => {
                    let _ = child.kill();
                    let _ = child.wait();
                    panic!("cargo {args:?} did not finish within {TIMEOUT:?}; killed");
                }
                Ok(None) => thread::sleep(Duration::from_millis(50)),
                Err(e) => panic!("cannot wait for cargo {args:?}: {e}"),
            }
        };
        let join = |h: thread::JoinHandle<Vec<u8>>| h.join().unwrap_or_default();
        Run::from(Output {
            status,
            stdout: join(stdout),
            stderr: join(stderr),
        })
    }

    /// `cargo test` in the copy.
    pub fn cargo_test(&self, extra: &[&str], env: &[(&str, &str)]) -> Run {
        let mut args = vec!["test"];
        args.extend_from_slice(extra);
        self.run(&args, env)
    }

    /// Check that the lock is well formed, then return it.
    pub fn parse_lock(&self) -> Lock {
        let bytes = self.lock_bytes();
        assert!(!bytes.is_empty(), "varar.lock.json is missing or empty");
        let lock: Lock = serde_json::from_slice(&bytes)
            .unwrap_or_else(|e| panic!("varar.lock.json is not a valid lock: {e}"));
        assert_eq!(lock.version, 2, "lock version");
        assert_eq!(
            lock.to_bytes(),
            bytes,
            "varar.lock.json is not in the canonical layout"
        );
        lock
    }

    /// Check every run-result file of `oaths` and return them by oathPath.
    pub fn parse_results(&self, oaths: &[String]) -> BTreeMap<String, RunResult> {
        let lock = self.parse_lock();
        let mut out = BTreeMap::new();
        for oath in oaths {
            let rel = format!(".varar/{oath}.json");
            // An oath whose every section other oaths link to has no
            // example of its own, so no result file (spec 70 §70.4.5).
            if EXAMPLES_PER_OATH.contains(&(oath.as_str(), 0)) {
                assert!(!self.root.join(&rel).exists(), "{rel} should not exist");
                continue;
            }
            let text = self.read(&rel);
            let result: RunResult = serde_json::from_str(&text)
                .unwrap_or_else(|e| panic!("{rel} is not a run result: {e}\n{text}"));
            // Version 2 exactly when it names the documents its linked
            // steps come from, with their hashes as the lock records them.
            let version = if result.documents.is_empty() { 1 } else { 2 };
            assert_eq!(result.version, version, "{rel}: version");
            for d in &result.documents {
                assert_eq!(
                    Some(&d.source_hash),
                    lock.oaths.get(&d.path).map(|e| &e.source_hash),
                    "{rel}: the hash of {} differs from the lock's",
                    d.path
                );
            }
            assert_eq!(&result.oath_path, oath, "{rel}: oathPath");
            assert_eq!(
                Some(&result.source_hash),
                lock.oaths.get(oath).map(|e| &e.source_hash),
                "{rel}: sourceHash differs from the lock's"
            );
            let firsts: Vec<u64> = result
                .examples
                .iter()
                .map(|e| e.lines.first().copied().unwrap_or(0))
                .collect();
            let mut sorted = firsts.clone();
            sorted.sort();
            assert_eq!(firsts, sorted, "{rel}: examples not in document order");
            for e in &result.examples {
                assert!(
                    !e.lines.is_empty(),
                    "{rel}: example {:?} has no lines",
                    e.name
                );
                assert!(
                    e.status == "passed" || e.status == "failed",
                    "{rel}: status {:?}",
                    e.status
                );
                assert_eq!(
                    e.status == "failed",
                    e.failure.is_some(),
                    "{rel}: failure present iff failed ({:?})",
                    e.name
                );
            }
            out.insert(oath.clone(), result);
        }
        out
    }
}

/// Collect a child's stream on a thread, so neither pipe can fill up.
fn drain<R: Read + Send + 'static>(stream: Option<R>) -> thread::JoinHandle<Vec<u8>> {
    thread::spawn(move || {
        let mut buf = Vec::new();
        if let Some(mut s) = stream {
            let _ = s.read_to_end(&mut buf);
        }
        buf
    })
}

fn copy_tree(from: &Path, to: &Path) {
    fs::create_dir_all(to).unwrap_or_else(|e| panic!("cannot create {}: {e}", to.display()));
    let entries =
        fs::read_dir(from).unwrap_or_else(|e| panic!("cannot read {}: {e}", from.display()));
    for entry in entries {
        let entry = entry.unwrap_or_else(|e| panic!("cannot read {}: {e}", from.display()));
        let name = entry.file_name();
        if name == "target" || name == ".varar" {
            continue;
        }
        let path = entry.path();
        if path.is_dir() {
            copy_tree(&path, &to.join(&name));
        } else {
            fs::copy(&path, to.join(&name))
                .unwrap_or_else(|e| panic!("cannot copy {}: {e}", path.display()));
        }
    }
}

fn collect_md(root: &Path, dir: &Path, out: &mut Vec<String>) {
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            collect_md(root, &path, out);
        } else if path.extension().is_some_and(|e| e == "md") {
            let rel = path.strip_prefix(root).unwrap_or(&path);
            let segments: Vec<String> = rel
                .components()
                .map(|c| c.as_os_str().to_string_lossy().into_owned())
                .collect();
            out.push(segments.join("/"));
        }
    }
}

fn read_string(path: &Path) -> String {
    fs::read_to_string(path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()))
}

fn write(path: &Path, bytes: &[u8]) {
    if let Some(parent) = path.parent() {
        fs::create_dir_all(parent)
            .unwrap_or_else(|e| panic!("cannot create {}: {e}", parent.display()));
    }
    fs::write(path, bytes).unwrap_or_else(|e| panic!("cannot write {}: {e}", path.display()));
}
