//! A real VS Code: code-server 4.100.3 (VS Code in the browser) with the
//! extension of `editors/vscode` installed from its `.vsix` by code-server's
//! own `--install-extension`, as a user installs it, driven in Debian's
//! headless Chromium by `editors/vscode/test/drive.js` (playwright-core) on
//! a copy of the bakery that builds. ▶ Run on a failing example draws its
//! failure (a real `cargo test` started by the server), ▶ Run again once the
//! step is fixed clears it, and the uses stand above the step functions.
//!
//! Needs what `editors/vscode/test/install.sh` installs and builds (`.ci/run`
//! runs it) in `target/vscode-test`, or in `$VARAR_VSCODE_TEST`: code-server,
//! playwright-core and the `.vsix`; without them the test fails, it never
//! skips. Unix only (as code-server's npm package).
#![cfg(unix)]

#[path = "common/lsp_client.rs"]
mod lsp_client;

use std::os::unix::process::CommandExt as _;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// Where install.sh put code-server and playwright-core.
fn installed() -> PathBuf {
    let dir = std::env::var_os("VARAR_VSCODE_TEST")
        .map_or_else(|| workspace().join("target/vscode-test"), PathBuf::from);
    assert!(
        dir.join(".installed-4.100.3").is_file(),
        "code-server is not installed in {}: run editors/vscode/test/install.sh (.ci/run does)",
        dir.display()
    );
    dir
}

/// A file's text; a failure names the file.
fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// code-server's command line: the server, and its extension installer.
fn code_server(installed: &Path) -> Command {
    let mut command = Command::new("node");
    command.arg(installed.join("node_modules/code-server/out/node/entry.js"));
    command
}

/// The `.vsix` install.sh built, installed into `extensions` by code-server's
/// command line. The installed files are then compared with the sources, so
/// a package older than `editors/vscode` fails here rather than testing
/// yesterday's extension.
fn install_extension(installed: &Path, user_data: &Path, extensions: &Path) {
    let source = workspace().join("editors/vscode");
    let manifest: serde_json::Value = serde_json::from_str(&read(&source.join("package.json")))
        .unwrap_or_else(|e| panic!("editors/vscode/package.json: {e}"));
    let field = |key: &str| {
        manifest[key]
            .as_str()
            .unwrap_or_else(|| panic!("editors/vscode/package.json has no {key}"))
            .to_string()
    };
    let (publisher, name, version) = (field("publisher"), field("name"), field("version"));
    let vsix = installed.join(format!("{name}-{version}.vsix"));
    assert!(
        vsix.is_file(),
        "{} is missing: run editors/vscode/test/install.sh, which builds it (.ci/run does)",
        vsix.display()
    );
    let output = code_server(installed)
        .args(["--config", "/dev/null", "--user-data-dir"])
        .arg(user_data)
        .arg("--extensions-dir")
        .arg(extensions)
        .arg("--install-extension")
        .arg(&vsix)
        .stdin(Stdio::null())
        .output()
        .unwrap_or_else(|e| panic!("node cannot run ({e}): this test needs Node 20 on the PATH"));
    assert!(
        output.status.success(),
        "code-server --install-extension {} failed ({}): {}{}",
        vsix.display(),
        output.status,
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    let target = extensions.join(format!("{publisher}.{name}-{version}"));
    assert!(
        target
            .join("node_modules/vscode-languageclient/package.json")
            .is_file(),
        "code-server did not install {} with its dependencies in {}",
        vsix.display(),
        target.display()
    );
    let stale = |file: &str| {
        format!(
            "{file} in {} differs from editors/vscode's: rerun editors/vscode/test/install.sh",
            vsix.display()
        )
    };
    // vsce stores the README as readme.md.
    for (packaged, file) in [
        ("extension.js", "extension.js"),
        ("readme.md", "README.md"),
        ("LICENSE-MIT", "LICENSE-MIT"),
        ("LICENSE-APACHE", "LICENSE-APACHE"),
    ] {
        assert!(
            read(&target.join(packaged)) == read(&source.join(file)),
            "{}",
            stale(file)
        );
    }
    // VS Code adds its own `__metadata` to the installed manifest.
    let mut packaged: serde_json::Value =
        serde_json::from_str(&read(&target.join("package.json"))).unwrap_or_else(|e| panic!("{e}"));
    if let Some(object) = packaged.as_object_mut() {
        object.remove("__metadata");
    }
    assert!(packaged == manifest, "{}", stale("package.json"));
}

/// What went between the editor and the server, for a failure message:
/// each message's method (or the id it answers) in order, and the end of
/// the server's stderr.
fn traffic(state: &Path) -> String {
    let methods = |file: &str| -> String {
        let text = std::fs::read_to_string(state.join(file)).unwrap_or_default();
        let mut out = Vec::new();
        for body in text.split("Content-Length:").skip(1) {
            let Some(json) = body.find('{').map(|at| &body[at..]) else {
                continue;
            };
            let mut values =
                serde_json::Deserializer::from_str(json).into_iter::<serde_json::Value>();
            let Some(Ok(message)) = values.next() else {
                out.push("(unreadable)".to_string());
                continue;
            };
            let id = &message["id"];
            out.push(match message["method"].as_str() {
                Some(method) if id.is_null() => method.to_string(),
                Some(method) => format!("{method}#{id}"),
                None if message.get("error").is_some() => format!("error#{id}"),
                None => format!("answer#{id}"),
            });
        }
        if out.is_empty() {
            "(nothing)".to_string()
        } else {
            out.join(" ")
        }
    };
    let stderr = std::fs::read_to_string(state.join("server.log")).unwrap_or_default();
    let tail: String = stderr
        .chars()
        .rev()
        .take(4000)
        .collect::<Vec<_>>()
        .into_iter()
        .rev()
        .collect();
    format!(
        "editor to server: {}\nserver to editor: {}\nserver's stderr: {tail}",
        methods("in.log"),
        methods("out.log")
    )
}

/// A port nothing listens on now.
fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .unwrap_or_else(|e| panic!("{e}"))
}

/// code-server in a process group of its own (it forks its extension
/// host and file watcher): the whole group is stopped when the test ends.
struct Server(Child);

impl Drop for Server {
    fn drop(&mut self) {
        if let Some(group) = rustix::process::Pid::from_raw(self.0.id() as i32) {
            let _ = rustix::process::kill_process_group(group, rustix::process::Signal::TERM);
        }
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

#[test]
fn vscode_runs_an_example_from_its_lens_and_shows_the_uses_of_the_steps() {
    let installed = installed();
    let dir = lsp_client::buildable_bakery();
    let root = dir.path();
    let steps = std::fs::read_to_string(root.join("tests/steps/basket.rs"))
        .unwrap_or_else(|e| panic!("{e}"));
    let wrong = steps.replace("till.item_count()", "till.item_count() + 1");
    assert_ne!(wrong, steps);
    std::fs::write(root.join("tests/steps/basket.rs"), wrong).unwrap_or_else(|e| panic!("{e}"));

    let state = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let user = state.path().join("user-data/User");
    std::fs::create_dir_all(&user).unwrap_or_else(|e| panic!("{e}"));
    // The server as the extension starts it, with what it reads, writes
    // and prints to stderr kept beside it (for the failure message).
    let settings = serde_json::json!({
        "varar.server.command": "/bin/sh",
        "varar.server.args": [
            "-c",
            r#"tee -a "$0/in.log" | "$1" varar lsp 2>>"$0/server.log" | tee -a "$0/out.log""#,
            state.path(),
            env!("CARGO_BIN_EXE_cargo-varar"),
        ],
        "workbench.startupEditor": "none",
        "security.workspace.trust.enabled": false,
        "telemetry.telemetryLevel": "off",
    });
    std::fs::write(user.join("settings.json"), settings.to_string())
        .unwrap_or_else(|e| panic!("{e}"));
    let extensions = state.path().join("extensions");
    install_extension(&installed, &state.path().join("user-data"), &extensions);

    let port = free_port();
    let mut command = code_server(&installed);
    lsp_client::cargo_env(&mut command);
    command
        .args([
            "--auth",
            "none",
            "--disable-telemetry",
            "--disable-workspace-trust",
        ])
        .args(["--config", "/dev/null", "--bind-addr"])
        .arg(format!("127.0.0.1:{port}"))
        .arg("--user-data-dir")
        .arg(state.path().join("user-data"))
        .arg("--extensions-dir")
        .arg(&extensions)
        .process_group(0)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null());
    let _server =
        Server(command.spawn().unwrap_or_else(|e| {
            panic!("node cannot run ({e}): this test needs Node 20 on the PATH")
        }));
    let deadline = Instant::now() + Duration::from_secs(60);
    while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
        assert!(Instant::now() < deadline, "code-server did not listen");
        std::thread::sleep(Duration::from_millis(100));
    }

    let result = state.path().join("result.json");
    let chromium = std::env::var("VARAR_CHROMIUM").unwrap_or_else(|_| "/usr/bin/chromium".into());
    let output = Command::new("node")
        .arg(workspace().join("editors/vscode/test/drive.js"))
        .env(
            "VARAR_PLAYWRIGHT",
            installed.join("node_modules/playwright-core"),
        )
        .env("VARAR_CHROMIUM", chromium)
        .env("VARAR_VSCODE_URL", format!("http://127.0.0.1:{port}"))
        .env("VARAR_VSCODE_FOLDER", root)
        .env("VARAR_VSCODE_RESULT", &result)
        .env("VARAR_VSCODE_SHOTS", state.path())
        .output()
        .unwrap_or_else(|e| panic!("{e}"));
    let text = std::fs::read_to_string(&result).unwrap_or_default();
    assert!(
        output.status.success(),
        "drive.js failed ({text}): {}\n{}",
        String::from_utf8_lossy(&output.stderr),
        traffic(state.path())
    );
    let answer: serde_json::Value =
        serde_json::from_str(&text).unwrap_or_else(|e| panic!("{e}: {text}"));
    let strings = |key: &str| -> Vec<String> {
        answer[key]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|v| v.as_str().map(|s| s.replace('\u{a0}', " ")))
            .collect()
    };
    let mut expected = vec!["▶ Run oath".to_string(), "Report".to_string()];
    expected.extend(std::iter::repeat_n("▶ Run".to_string(), 6));
    assert_eq!(strings("oath_lenses"), expected, "{answer}");
    assert_eq!(answer["before"], 0, "{answer}");
    assert_eq!(answer["failed"], 1, "{answer}");
    assert_eq!(answer["after_fix"], 0, "{answer}");
    assert_eq!(
        strings("step_lenses"),
        [
            "3 uses in 2 oaths",
            "5 uses in 3 oaths",
            "3 uses in 3 oaths",
            "1 use in 1 oath"
        ],
        "{answer}"
    );
}
