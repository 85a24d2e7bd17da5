//! An editor's side of the language server protocol, for the tests that
//! drive the real `cargo-varar lsp` binary over stdio: framed JSON-RPC
//! messages, requests awaited by id, notifications kept until asked for,
//! and the server's own requests (registrations) answered.

#![allow(dead_code)] // each test file uses a different part of this module

use std::io::{BufRead, BufReader, Read, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

const TIMEOUT: Duration = Duration::from_secs(60);

pub struct Client {
    child: Child,
    stdin: ChildStdin,
    incoming: Receiver<Value>,
    /// Notifications and server requests received and not yet asked for.
    pending: Vec<Value>,
    /// Answers to requests sent with [`Client::send_request`], by id.
    answers: Vec<Value>,
    next_id: i64,
}

impl Client {
    /// Start `cargo-varar varar lsp --stdio` in `cwd`, as cargo runs it.
    pub fn start(cwd: &Path) -> Client {
        Client::start_with(cwd, |_| {})
    }

    /// [`Client::start`], with the command adjusted first (environment).
    pub fn start_with(cwd: &Path, configure: impl FnOnce(&mut Command)) -> Client {
        let mut command = Command::new(env!("CARGO_BIN_EXE_cargo-varar"));
        configure(&mut command);
        let mut child = command
            .args(["varar", "lsp", "--stdio"])
            .current_dir(cwd)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .unwrap_or_else(|e| panic!("cannot start cargo-varar: {e}"));
        let stdin = child.stdin.take().unwrap_or_else(|| panic!("stdin"));
        let stdout = child.stdout.take().unwrap_or_else(|| panic!("stdout"));
        let (tx, incoming) = channel();
        std::thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            loop {
                let mut length = None;
                loop {
                    let mut line = String::new();
                    match reader.read_line(&mut line) {
                        Ok(0) | Err(_) => return,
                        Ok(_) => {}
                    }
                    let line = line.trim_end();
                    if line.is_empty() {
                        break;
                    }
                    if let Some(n) = line.strip_prefix("Content-Length: ") {
                        length = n.parse::<usize>().ok();
                    }
                }
                let Some(length) = length else { return };
                let mut body = vec![0; length];
                if reader.read_exact(&mut body).is_err() {
                    return;
                }
                let Ok(message) = serde_json::from_slice::<Value>(&body) else {
                    return;
                };
                if tx.send(message).is_err() {
                    return;
                }
            }
        });
        Client {
            child,
            stdin,
            incoming,
            pending: Vec::new(),
            answers: Vec::new(),
            next_id: 0,
        }
    }

    fn send(&mut self, message: &Value) {
        let body = message.to_string();
        write!(self.stdin, "Content-Length: {}\r\n\r\n{body}", body.len())
            .and_then(|()| self.stdin.flush())
            .unwrap_or_else(|e| panic!("the server went away: {e}"));
    }

    fn receive(&mut self, deadline: Instant) -> Value {
        let left = deadline.saturating_duration_since(Instant::now());
        match self.incoming.recv_timeout(left) {
            Ok(message) => self.take(message),
            Err(RecvTimeoutError::Timeout) => panic!("no message from the server in time"),
            Err(RecvTimeoutError::Disconnected) => panic!("the server closed its output"),
        }
    }

    /// A message received: the server's own requests (registrations,
    /// progress tokens, refreshes) get an answer.
    fn take(&mut self, message: Value) -> Value {
        if message.get("method").is_some() && message.get("id").is_some() {
            let id = message["id"].clone();
            self.send(&json!({"jsonrpc": "2.0", "id": id, "result": null}));
        }
        message
    }

    /// The next message from the server, in the order it came (what an
    /// earlier call kept is left aside); the server's requests are
    /// answered.
    pub fn next_message(&mut self) -> Value {
        self.receive(Instant::now() + TIMEOUT)
    }

    /// Keep what has arrived, without waiting.
    fn drain(&mut self) {
        while let Ok(message) = self.incoming.try_recv() {
            let message = self.take(message);
            self.keep(message);
        }
    }

    /// Send a request and return its `result` (panics on an error answer).
    pub fn request(&mut self, method: &str, params: Value) -> Value {
        let id = self.send_request(method, params);
        let answer = self.answer(id);
        if let Some(error) = answer.get("error") {
            panic!("{method} failed: {error}");
        }
        answer["result"].clone()
    }

    /// Send a request without waiting for its answer; its id.
    pub fn send_request(&mut self, method: &str, params: Value) -> i64 {
        self.next_id += 1;
        let id = self.next_id;
        self.send(&json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}));
        id
    }

    /// Whether the answer to request `id` has arrived (without waiting).
    pub fn answered(&mut self, id: i64) -> bool {
        self.drain();
        self.answers.iter().any(|a| a["id"] == json!(id))
    }

    /// The whole answer to request `id` (`result` or `error`), waiting
    /// for it; messages that arrive meanwhile are kept.
    pub fn answer(&mut self, id: i64) -> Value {
        self.answer_within(id, TIMEOUT)
    }

    /// [`Client::answer`] with a longer wait (a `cargo test` that builds).
    pub fn answer_within(&mut self, id: i64, wait: Duration) -> Value {
        let deadline = Instant::now() + wait;
        loop {
            if let Some(i) = self.answers.iter().position(|a| a["id"] == json!(id)) {
                return self.answers.remove(i);
            }
            let message = self.receive(deadline);
            self.keep(message);
        }
    }

    fn keep(&mut self, message: Value) {
        if message.get("method").is_none() {
            self.answers.push(message);
        } else {
            self.pending.push(message);
        }
    }

    pub fn notify(&mut self, method: &str, params: Value) {
        self.send(&json!({"jsonrpc": "2.0", "method": method, "params": params}));
    }

    /// The next notification (or server request) `method` whose params
    /// satisfy `want`; earlier ones that do not are dropped.
    pub fn wait_for(&mut self, method: &str, want: impl Fn(&Value) -> bool) -> Value {
        self.wait_for_within(method, want, TIMEOUT)
    }

    /// [`Client::wait_for`] with another wait.
    pub fn wait_for_within(
        &mut self,
        method: &str,
        want: impl Fn(&Value) -> bool,
        wait: Duration,
    ) -> Value {
        if let Some(i) = self
            .pending
            .iter()
            .position(|m| m["method"] == method && want(&m["params"]))
        {
            let found = self.pending.remove(i);
            self.pending.drain(..i);
            return found["params"].clone();
        }
        self.pending.clear();
        let deadline = Instant::now() + wait;
        loop {
            let message = self.receive(deadline);
            if message["method"] == method && want(&message["params"]) {
                return message["params"].clone();
            }
            if message.get("method").is_none() {
                self.answers.push(message);
            }
        }
    }

    /// Every notification `method` received and not yet asked for.
    pub fn received(&mut self, method: &str) -> Vec<Value> {
        self.drain();
        self.pending
            .iter()
            .filter(|m| m["method"] == method)
            .map(|m| m["params"].clone())
            .collect()
    }

    /// The diagnostics next published for `uri` that satisfy `want`.
    pub fn diagnostics(&mut self, uri: &str, want: impl Fn(&[Value]) -> bool) -> Vec<Value> {
        let params = self.wait_for("textDocument/publishDiagnostics", |p| {
            p["uri"] == uri && p["diagnostics"].as_array().is_some_and(|d| want(d))
        });
        params["diagnostics"]
            .as_array()
            .cloned()
            .unwrap_or_default()
    }

    /// `shutdown`, `exit`, and the exit status.
    pub fn stop(mut self) -> std::process::ExitStatus {
        self.request("shutdown", Value::Null);
        self.notify("exit", Value::Null);
        let deadline = Instant::now() + TIMEOUT;
        loop {
            if let Some(status) = self.child.try_wait().unwrap_or_else(|e| panic!("{e}")) {
                return status;
            }
            assert!(Instant::now() < deadline, "the server did not exit");
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

impl Drop for Client {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A `file://` URI.
pub fn uri(path: &Path) -> String {
    format!("file://{}", path.display())
}

/// Copy a directory tree (without `target/` and `.varar/`).
pub fn copy_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap_or_else(|e| panic!("{e}"));
    for entry in std::fs::read_dir(from).unwrap_or_else(|e| panic!("{e}")) {
        let entry = entry.unwrap_or_else(|e| panic!("{e}"));
        let name = entry.file_name();
        if name == "target" || name == ".varar" {
            continue;
        }
        let path = entry.path();
        if path.is_dir() {
            copy_tree(&path, &to.join(&name));
        } else {
            std::fs::copy(&path, to.join(&name)).unwrap_or_else(|e| panic!("{e}"));
        }
    }
}

/// A copy of the bakery sample in a fresh temporary directory.
pub fn bakery() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let sample = Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples/bakery");
    copy_tree(&sample, dir.path());
    dir
}

/// The workspace root (the parent of varar-cli).
pub fn workspace_root() -> std::path::PathBuf {
    let here = Path::new(env!("CARGO_MANIFEST_DIR"));
    here.parent().unwrap_or(here).to_path_buf()
}

/// A copy of the bakery that `cargo test` can build: its `varar` path
/// dependency points at this workspace, and it resolves with the
/// workspace's `Cargo.lock`, so it needs nothing new from the registry.
pub fn buildable_bakery() -> tempfile::TempDir {
    let dir = bakery();
    let manifest = dir.path().join("Cargo.toml");
    let text = std::fs::read_to_string(&manifest).unwrap_or_else(|e| panic!("{e}"));
    let relative = r#"oathmark = { version = "0.1", path = "../../varar" }"#;
    assert!(
        text.contains(relative),
        "the bakery depends on varar by path"
    );
    let absolute = format!(
        "oathmark = {{ version = \"0.1\", path = {:?} }}",
        workspace_root().join("varar").display().to_string()
    );
    std::fs::write(&manifest, text.replace(relative, &absolute)).unwrap_or_else(|e| panic!("{e}"));
    std::fs::copy(
        workspace_root().join("Cargo.lock"),
        dir.path().join("Cargo.lock"),
    )
    .unwrap_or_else(|e| panic!("{e}"));
    dir
}

/// The environment of a `cargo` started for a test: what would change
/// the harness's output scrubbed, and one target directory shared by every
/// copy (the workspace's crates are built once; cargo's lock serialises
/// concurrent builds).
pub fn cargo_env(command: &mut Command) -> &mut Command {
    for (key, _) in std::env::vars_os() {
        let k = key.to_string_lossy();
        let scrub = matches!(
            k.as_ref(),
            "CI" | "NO_COLOR" | "CLICOLOR_FORCE" | "CARGO_TERM_COLOR" | "RUST_TEST_THREADS"
        ) || k.starts_with("VARAR_")
            || k.starts_with("NEXTEST");
        if scrub {
            command.env_remove(&key);
        }
    }
    command.env(
        "CARGO_TARGET_DIR",
        workspace_root().join("target").join("e2e"),
    )
}

/// Write `.varar/.runs/run-1/p1.run` under `root` as the harness writes it:
/// a complete process that read `documents` as they are now and ran one
/// item of `oath` (which ended `outcome`). It says which text the results
/// of `oath` were made from, by SHA-256; without it the server draws no
/// recorded failure (issue 34).
pub fn record_run(root: &Path, documents: &[&str], oath: &str, outcome: &str) {
    use varar_core::hash::{sha256_hex, source_hash};
    let read = |rel: &str| std::fs::read(root.join(rel)).unwrap_or_else(|e| panic!("{rel}: {e}"));
    let documents: Vec<Value> = documents
        .iter()
        .map(|d| {
            let bytes = read(d);
            json!({
                "path": d,
                "sha256": sha256_hex(&bytes),
                "sourceHash": source_hash(&String::from_utf8_lossy(&bytes)),
            })
        })
        .collect();
    let record = json!({
        "version": 1,
        "format": "varar-run-record",
        "varar": "0.1.0",
        "runId": "run-1",
        "processId": "p1",
        "complete": true,
        "startedAt": "2026-12-01T07:00:00.000Z",
        "endedAt": "2026-12-01T07:00:00.900Z",
        "arguments": [],
        "options": {"update": false, "runtime": "built-in"},
        "manifest": {
            "config": {"path": "varar.config.json", "sha256": sha256_hex(&read("varar.config.json"))},
            "documents": documents,
            "reproducible": false,
            "limitations": []
        },
        "items": [{
            "name": format!("{oath}::the example"),
            "kind": "example",
            "oathPath": oath,
            "line": 1,
            "attempt": 1,
            "outcome": outcome,
            "durationMs": 0.25
        }]
    });
    let dir = root.join(".varar/.runs/run-1");
    std::fs::create_dir_all(&dir).unwrap_or_else(|e| panic!("{e}"));
    std::fs::write(dir.join("p1.run"), record.to_string()).unwrap_or_else(|e| panic!("{e}"));
}
