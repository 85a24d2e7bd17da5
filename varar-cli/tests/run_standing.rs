//! One standing of the latest run for every consumer (issue 34), end to
//! end: real `cargo test` runs of a copy of `tests/fixtures/evidence`
//! (steps whose outcome files in a state directory control: a dough that
//! rises twice once `fixed` exists, an oven that blocks until it is killed
//! once `block` exists), its test binary run with a read-only `.varar/` or
//! under a file-size limit, then the real `cargo varar` commands and
//! language server on what they left behind.
//!
//! A read-only `.varar/` is made so for every user: as root (as CI runs),
//! the test binary runs as `nobody` (`setpriv`) and `.varar/` stays root's;
//! otherwise its write bits are taken away (and given back at the end).

#[path = "../../tests/tests/support/mod.rs"]
mod support;

#[path = "common/lsp_client.rs"]
mod lsp_client;

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use lsp_client::{Client, uri};
use serde_json::{Value, json};
use support::{Run, Sample};

/// A copy of the fixture, its state directory, and where its history goes.
struct Fixture {
    sample: Sample,
    state: tempfile::TempDir,
    history: PathBuf,
}

/// The fixture with its link mended; the dough rises twice (`fixed`).
fn fixture() -> Fixture {
    let sample = Sample::copy_of(
        "tests/fixtures/evidence",
        r#"oathmark = { path = "../../../varar" }"#,
    );
    let state = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    std::fs::write(state.path().join("fixed"), "").unwrap_or_else(|e| panic!("{e}"));
    let links = sample
        .read("varar/links.md")
        .replace("[Gone](gone.md#nothing)\n", "");
    std::fs::write(sample.root().join("varar/links.md"), links).unwrap_or_else(|e| panic!("{e}"));
    let history = state.path().join("history");
    Fixture {
        sample,
        state,
        history,
    }
}

impl Fixture {
    fn root(&self) -> &Path {
        self.sample.root()
    }

    fn set(&self, name: &str, on: bool) {
        let path = self.state.path().join(name);
        if on {
            std::fs::write(&path, "").unwrap_or_else(|e| panic!("{e}"));
        } else if path.exists() {
            std::fs::remove_file(&path).unwrap_or_else(|e| panic!("{e}"));
        }
    }

    fn env(&self) -> [(&'static str, String); 2] {
        [
            ("EVIDENCE_STATE", self.state.path().display().to_string()),
            ("VARAR_HISTORY", self.history.display().to_string()),
        ]
    }

    fn cargo(&self, args: &[&str]) -> Run {
        let env = self.env();
        let env: Vec<(&str, &str)> = env.iter().map(|(k, v)| (*k, v.as_str())).collect();
        self.sample.run(args, &env)
    }

    /// `cargo varar <args>` in the copy, seeing the same history.
    fn varar(&self, args: &[&str]) -> (Option<i32>, String, String) {
        let out = Command::new(env!("CARGO_BIN_EXE_cargo-varar"))
            .args(args)
            .current_dir(self.root())
            .env("VARAR_HISTORY", &self.history)
            .output()
            .unwrap_or_else(|e| panic!("cannot run cargo-varar: {e}"));
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stdout).into_owned(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    }

    fn varar_json(&self, args: &[&str]) -> (Option<i32>, Value) {
        let (code, out, err) = self.varar(args);
        let json = serde_json::from_str(&out).unwrap_or_else(|e| panic!("{e}: {out}{err}"));
        (code, json)
    }

    /// `cargo test -- --test-threads 1` with the oven blocking, killed with
    /// SIGKILL while the oven blocks.
    fn killed_run(&self) {
        self.set("block", true);
        let blocked = self.state.path().join("blocked");
        let _ = std::fs::remove_file(&blocked);
        let mut cmd = self.sample.cargo(["test", "--", "--test-threads", "1"]);
        for (k, v) in self.env() {
            cmd.env(k, v);
        }
        let mut cargo = cmd
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap_or_else(|e| panic!("cannot run cargo test: {e}"));
        let start = Instant::now();
        let pid = loop {
            let pid = std::fs::read_to_string(&blocked).unwrap_or_default();
            if !pid.is_empty() {
                break pid;
            }
            assert!(start.elapsed() < support::TIMEOUT, "the oven never blocked");
            assert!(
                cargo.try_wait().ok().flatten().is_none(),
                "cargo test ended before the oven blocked"
            );
            std::thread::sleep(Duration::from_millis(50));
        };
        let killed = Command::new("kill")
            .args(["-KILL", pid.trim()])
            .status()
            .unwrap_or_else(|e| panic!("cannot run kill: {e}"));
        assert!(killed.success(), "kill -KILL {pid}");
        let status = cargo.wait().unwrap_or_else(|e| panic!("{e}"));
        assert!(!status.success(), "the killed run failed: {status}");
        self.set("block", false);
    }

    /// The test binary of the fixture, copied into the state directory
    /// (where an unprivileged user can run it: the workspace's target may
    /// be in a home directory only its owner can enter).
    fn binary(&self) -> PathBuf {
        let out = self
            .sample
            .cargo(["test", "--no-run", "--message-format=json"])
            .output()
            .unwrap_or_else(|e| panic!("cannot run cargo test --no-run: {e}"));
        let built = String::from_utf8_lossy(&out.stdout)
            .lines()
            .filter_map(|l| serde_json::from_str::<Value>(l).ok())
            .find_map(|m| m["executable"].as_str().map(PathBuf::from))
            .unwrap_or_else(|| panic!("no test binary built"));
        let copy = self.state.path().join("oaths-test");
        std::fs::copy(&built, &copy).unwrap_or_else(|e| panic!("{e}"));
        copy
    }

    /// The test binary run as `cargo test` runs it: as an unprivileged
    /// user when the tests run as root (see [`Lockdown`]), or, given
    /// `shell` (`sh -c` text put before it), as this user.
    fn run_binary(&self, binary: &Path, shell: Option<&str>) -> Output {
        let mut cmd = match shell {
            Some(prefix) => {
                let mut c = Command::new("sh");
                c.arg("-c")
                    .arg(format!("{prefix}; exec \"$0\""))
                    .arg(binary);
                c
            }
            None => unprivileged(binary),
        };
        cmd.current_dir(self.root())
            .env("CARGO_MANIFEST_DIR", self.root())
            .env_remove("NEXTEST_RUN_ID")
            .env_remove("VARAR_RUN_ID")
            .env_remove("VARAR_RERUN")
            .env_remove("VARAR_UPDATE");
        for (k, v) in self.env() {
            cmd.env(k, v);
        }
        cmd.output()
            .unwrap_or_else(|e| panic!("cannot run the test binary: {e}"))
    }
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn codes(json: &Value) -> Vec<String> {
    json["errors"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|e| e["code"].as_str().unwrap_or("").to_owned())
        .collect()
}

fn is_root() -> bool {
    Command::new("id")
        .arg("-u")
        .output()
        .is_ok_and(|o| text(&o.stdout).trim() == "0")
}

/// `program`, run as `nobody` when this test runs as root (a root process
/// writes through any permission bits).
fn unprivileged(program: impl AsRef<std::ffi::OsStr>) -> Command {
    if is_root() {
        let mut c = Command::new("setpriv");
        c.args(["--reuid=65534", "--regid=65534", "--clear-groups"])
            .arg(program);
        c
    } else {
        Command::new(program)
    }
}

fn shell(args: &[&str]) {
    let status = Command::new(args[0])
        .args(&args[1..])
        .status()
        .unwrap_or_else(|e| panic!("cannot run {args:?}: {e}"));
    assert!(status.success(), "{args:?}: {status}");
}

/// Directories the unprivileged test binary cannot write, while it can
/// write everything else of the project and the state directory: as root,
/// everything is `nobody`'s but these (root's, not writable by others);
/// otherwise these lose their write bits, given back when it is dropped.
struct Lockdown {
    dirs: Vec<PathBuf>,
    root: bool,
}

impl Lockdown {
    fn new(f: &Fixture, dirs: &[PathBuf]) -> Lockdown {
        let root = is_root();
        if root {
            for open in [f.root().parent(), Some(f.state.path())]
                .into_iter()
                .flatten()
            {
                shell(&["chmod", "755", &open.display().to_string()]);
            }
            for owned in [f.root(), f.state.path()] {
                shell(&["chown", "-R", "65534:65534", &owned.display().to_string()]);
            }
            for d in dirs {
                let d = d.display().to_string();
                shell(&["chown", "-R", "0:0", &d]);
                shell(&["chmod", "-R", "go-w,a+rX", &d]);
            }
        } else {
            for d in dirs {
                shell(&["chmod", "-R", "a-w", &d.display().to_string()]);
            }
        }
        Lockdown {
            dirs: dirs.to_vec(),
            root,
        }
    }
}

impl Drop for Lockdown {
    fn drop(&mut self) {
        if !self.root {
            for d in &self.dirs {
                let _ = Command::new("chmod").args(["-R", "u+w"]).arg(d).status();
            }
        }
    }
}

/// Two runs: the oven is cold on the first (it fails its first attempt
/// in each state directory), then every item passes; the gate passes.
fn green(f: &Fixture) {
    f.cargo(&["test"]).assert_code(101, "the oven is cold once");
    f.cargo(&["test"]).assert_code(0, "every item passes");
    let (code, out, err) = f.varar(&["gate"]);
    assert_eq!(code, Some(0), "{out}{err}");
}

#[test]
fn issue34_every_consumer_reads_a_run_killed_by_sigkill_as_the_gate_does() {
    let f = fixture();
    // Two complete runs in which the dough fails, then one killed mid-run
    // by SIGKILL: the result files on disk are the complete run's.
    f.set("fixed", false);
    f.cargo(&["test"])
        .assert_code(101, "the oven is cold, the dough flat");
    f.cargo(&["test"]).assert_code(101, "the dough is flat");
    let before = f.state.path().join("before");
    lsp_client::copy_tree(&f.root().join(".varar"), &before);
    f.killed_run();

    // The gate and attest: exit 2, incomplete.
    let (code, gate) = f.varar_json(&["gate", "--format", "json"]);
    assert_eq!(code, Some(2), "{gate:#}");
    assert_eq!(gate["standing"], "incomplete", "{gate:#}");
    assert!(
        codes(&gate).iter().all(|c| c == "incomplete_run"),
        "{gate:#}"
    );
    let att = f.state.path().join("att.json");
    let (code, _, err) = f.varar(&["attest", "--out", &att.display().to_string()]);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("error[incomplete_run]"), "{err}");
    assert!(!att.exists());

    // JUnit refuses as the gate does: nothing written.
    let xml = f.state.path().join("junit.xml");
    let (code, out, err) = f.varar(&["junit", "--out", &xml.display().to_string()]);
    assert_eq!(code, Some(2), "{out}{err}");
    assert!(err.contains("error[incomplete_run]"), "{err}");
    assert!(!xml.exists(), "nothing written");

    // The report renders, says so first, and draws no result as current.
    let site = f.state.path().join("site");
    let (code, out, err) = f.varar(&["report", "--out", &site.display().to_string()]);
    assert_eq!(code, Some(0), "{out}{err}");
    assert!(
        err.contains("warning: the latest run is incomplete: "),
        "{err}"
    );
    let index = std::fs::read_to_string(site.join("index.html")).unwrap_or_default();
    assert!(
        index.contains("data-varar-standing=\"incomplete\""),
        "{index}"
    );
    assert!(index.contains("the latest run is incomplete"), "{index}");
    assert!(!index.contains("every example that ran"), "{index}");
    let oven = std::fs::read_to_string(site.join("oaths/varar/oven.md.html")).unwrap_or_default();
    assert!(
        oven.contains("These results are of an earlier run."),
        "{oven}"
    );

    // diff: the killed tree is not compared.
    let (code, diff) = f.varar_json(&[
        "diff",
        "--format",
        "json",
        &before.display().to_string(),
        ".varar",
    ]);
    assert_eq!(code, Some(2), "{diff:#}");
    assert_eq!(
        (&diff["oldRun"], &diff["newRun"]),
        (&json!("complete"), &json!("incomplete")),
        "{diff:#}"
    );
    assert!(
        codes(&diff).iter().all(|c| c == "incomplete_run"),
        "{diff:#}"
    );

    // history marks it, flaky leaves it out.
    let (code, history) = f.varar_json(&["history", "--format", "json"]);
    assert_eq!(code, Some(0), "{history:#}");
    assert_eq!(history["runs"][0]["standing"], "incomplete", "{history:#}");
    assert_eq!(history["runs"][0]["complete"], false);
    assert_eq!(history["runs"][1]["standing"], "complete");
    let (_, flaky) = f.varar_json(&["flaky", "--format", "json"]);
    assert_eq!(flaky["leftOut"]["incomplete"], 1, "{flaky:#}");

    // The language server: the standing at the top of the oath, and the
    // complete run's failure shown as an earlier run's, not as an error.
    let oven_md = f.sample.read("varar/oven.md");
    let oven_uri = uri(&f.root().join("varar/oven.md"));
    let history_dir = f.history.clone();
    let mut client = Client::start_with(f.root(), |c| {
        c.env("VARAR_HISTORY", &history_dir);
    });
    client.request(
        "initialize",
        json!({"processId": null, "rootUri": uri(f.root()), "capabilities": {}}),
    );
    client.notify("initialized", json!({}));
    client.notify(
        "textDocument/didOpen",
        json!({"textDocument": {"uri": oven_uri, "languageId": "markdown", "version": 1, "text": oven_md}}),
    );
    let d = client.diagnostics(&oven_uri, |d| !d.is_empty());
    let standing = d
        .iter()
        .find(|d| d["code"] == "run-standing")
        .unwrap_or_else(|| panic!("no run-standing diagnostic: {d:?}"));
    assert!(
        standing["message"]
            .as_str()
            .is_some_and(|m| m.starts_with("the latest run is incomplete: ")),
        "{standing}"
    );
    let failed: Vec<&Value> = d.iter().filter(|d| d["code"] == "example-failed").collect();
    assert!(!failed.is_empty(), "{d:?}");
    assert!(
        failed.iter().all(|d| d["severity"] == 3),
        "an earlier run's failure is information: {d:?}"
    );
}

#[test]
fn issue34_a_truncated_record_of_an_older_run_no_longer_blocks_the_gate() {
    let f = fixture();
    green(&f);
    // A record of the latest run cut short (as a full disk leaves one);
    // the next complete run is judged, and removes it.
    let runs = f.root().join(".varar/.runs");
    let record = std::fs::read_dir(&runs)
        .into_iter()
        .flatten()
        .flatten()
        .flat_map(|d| std::fs::read_dir(d.path()).into_iter().flatten().flatten())
        .map(|e| e.path())
        .find(|p| p.extension().is_some_and(|e| e == "run"))
        .unwrap_or_else(|| panic!("no record"));
    let bytes = std::fs::read(&record).unwrap_or_default();
    std::fs::write(&record, &bytes[..100]).unwrap_or_else(|e| panic!("{e}"));
    let (code, out, _) = f.varar(&["gate"]);
    assert_eq!(code, Some(2), "the latest run's own record: {out}");
    assert!(
        out.contains("it may be a record of the latest run"),
        "{out}"
    );
    // A rerun finds no readable run, and says why.
    let rerun = f.sample.run(
        &["test"],
        &[
            ("EVIDENCE_STATE", &f.state.path().display().to_string()),
            ("VARAR_HISTORY", &f.history.display().to_string()),
            ("VARAR_RERUN", "failed"),
        ],
    );
    rerun.assert_code(0, "a new run of everything");
    assert!(
        rerun.stderr.contains(
            "there is no readable run record in .varar/.runs/ (1 record file could not be read"
        ),
        "{}",
        rerun.combined()
    );
    f.cargo(&["test"]).assert_code(0, "every item passes");
    let (code, out, err) = f.varar(&["gate"]);
    assert_eq!(
        code,
        Some(0),
        "the older broken record blocks no more: {out}{err}"
    );
    assert!(!record.exists(), "pruned like an older run");

    // One the gate meets before a run prunes it: a warning naming it.
    let old = runs.join("an-old-run");
    std::fs::create_dir_all(&old).unwrap_or_else(|e| panic!("{e}"));
    std::fs::write(old.join("p.run"), &bytes[..100]).unwrap_or_else(|e| panic!("{e}"));
    let an_hour_ago = std::time::SystemTime::now() - Duration::from_secs(3600);
    std::fs::File::open(&old)
        .and_then(|d| d.set_modified(an_hour_ago))
        .unwrap_or_else(|e| panic!("{e}"));
    let (code, out, err) = f.varar(&["gate"]);
    assert_eq!(code, Some(0), "{out}{err}");
    assert!(
        out.contains(
            "warning[invalid_run]: `.varar/.runs/an-old-run/p.run` is not a valid run record"
        ),
        "{out}"
    );
    assert!(out.contains("the next full run removes it"), "{out}");
    let (code, gate) = f.varar_json(&["gate", "--format", "json"]);
    assert_eq!((code, &gate["standing"]), (Some(0), &json!("complete")));
    assert_eq!(gate["warnings"][0]["path"], ".varar/.runs/an-old-run/p.run");
    f.cargo(&["test"]).assert_code(0, "every item passes");
    assert!(!old.exists(), "the next full run removed it");
}

#[test]
fn issue34_a_run_that_cannot_write_to_a_read_only_varar_fails_and_the_gate_refuses() {
    let f = fixture();
    green(&f);
    let binary = f.binary();
    // The dough fails now (no source changed), and `.varar/` is read-only.
    f.set("fixed", false);
    let lock = Lockdown::new(&f, &[f.root().join(".varar")]);
    let out = f.run_binary(&binary, None);
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(101), "{err}");
    assert!(
        err.contains("varar: error: this run's record could not be written to `.varar/.runs/`"),
        "{err}"
    );
    assert!(err.contains("the run history keeps it"), "{err}");
    let (code, gate) = f.varar_json(&["gate", "--format", "json"]);
    assert_eq!(
        code,
        Some(2),
        "the earlier green run does not pass: {gate:#}"
    );
    assert_eq!(gate["standing"], "unrecorded", "{gate:#}");
    assert_eq!(codes(&gate), ["unrecorded_run"], "{gate:#}");
    assert!(
        gate["errors"][0]["message"]
            .as_str()
            .is_some_and(|m| m.contains("which `.varar/.runs` does not")),
        "{gate:#}"
    );
    let (code, _, err) = f.varar(&["junit"]);
    assert_eq!(code, Some(2), "{err}");
    // Every item passes, and still the run fails: its evidence is not
    // where the gate reads it.
    f.set("fixed", true);
    let out = f.run_binary(&binary, None);
    assert_eq!(out.status.code(), Some(101), "{}", text(&out.stderr));
    drop(lock);
}

#[test]
fn issue34_a_run_killed_by_a_file_size_limit_leaves_a_directory_the_gate_refuses_to_pass() {
    let f = fixture();
    green(&f);
    let binary = f.binary();
    // No record fits in a block: the first write of the run kills it
    // (SIGXFSZ), after its run directory was made.
    let out = f.run_binary(&binary, Some("ulimit -f 1"));
    assert!(!out.status.success(), "killed: {:?}", out.status);
    let (code, gate) = f.varar_json(&["gate", "--format", "json"]);
    assert_eq!(code, Some(2), "{gate:#}");
    assert_eq!(gate["standing"], "unrecorded", "{gate:#}");
    assert_eq!(codes(&gate), ["unrecorded_run"], "{gate:#}");
    let path = gate["errors"][0]["path"].as_str().unwrap_or("");
    assert!(path.starts_with(".varar/.runs/varar-"), "{gate:#}");
    assert!(
        gate["errors"][0]["message"]
            .as_str()
            .is_some_and(|m| m.contains("a file-size limit")),
        "{gate:#}"
    );
    // The next run is judged again.
    f.cargo(&["test"]).assert_code(0, "every item passes");
    let (code, out, err) = f.varar(&["gate"]);
    assert_eq!(code, Some(0), "{out}{err}");
}

#[test]
fn issue34_result_files_that_cannot_be_written_are_recorded_and_never_shown_as_current() {
    let f = fixture();
    green(&f);
    let binary = f.binary();
    // The dough fails now; its result file cannot be replaced, while the
    // run record can be written.
    f.set("fixed", false);
    let lock = Lockdown::new(&f, &[f.root().join(".varar/varar")]);
    let out = f.run_binary(&binary, None);
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(101), "{err}");
    // The links' results are the same bytes as before: not written, and
    // not missed.
    assert!(
        err.contains("varar: error: the results of `varar/oven.md` could not be written"),
        "{err}"
    );
    let (code, gate) = f.varar_json(&["gate", "--format", "json"]);
    assert_eq!(code, Some(2), "{gate:#}");
    assert_eq!(gate["standing"], "unrecorded", "{gate:#}");
    assert_eq!(codes(&gate), ["unrecorded_run"], "{gate:#}");
    assert_eq!(gate["errors"][0]["path"], ".varar/varar/oven.md.json");
    assert_eq!(gate["errors"][0]["oathPath"], "varar/oven.md");
    // JUnit would have shown the earlier run's passes: it refuses.
    let (code, out, err) = f.varar(&["junit"]);
    assert_eq!(code, Some(2), "{out}{err}");
    assert!(err.contains("error[unrecorded_run]"), "{err}");
    drop(lock);
}
