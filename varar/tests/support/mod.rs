//! A throwaway project for in-process harness runs: oaths in a temp dir,
//! `Runner::run_with` with libtest's output sent to a log file.

#![allow(dead_code)] // each test file uses a different part of this module

use std::path::PathBuf;
use std::process::ExitCode;

use varar::Runner;

/// A project root with `varar.config.json` and the given oaths.
pub struct Project {
    _dir: tempfile::TempDir,
    pub root: PathBuf,
}

impl Project {
    pub fn new(oaths: &[(&str, &str)]) -> Project {
        let bytes: Vec<(&str, &[u8])> = oaths.iter().map(|(p, t)| (*p, t.as_bytes())).collect();
        Project::with_bytes(&bytes)
    }

    /// [`Project::new`] with oaths given as bytes (for files that are not
    /// UTF-8).
    pub fn with_bytes(oaths: &[(&str, &[u8])]) -> Project {
        let dir = tempfile::tempdir().expect("temp dir");
        let root = dir.path().to_path_buf();
        std::fs::write(
            root.join("varar.config.json"),
            r#"{ "docs": { "include": ["varar/**/*.md"] } }"#,
        )
        .expect("config");
        for (path, text) in oaths {
            let p = root.join(path);
            std::fs::create_dir_all(p.parent().expect("parent")).expect("dirs");
            std::fs::write(p, text).expect("oath");
        }
        Project { _dir: dir, root }
    }

    /// Run with the steps of `module` and libtest arguments `extra`;
    /// `configure` adjusts the runner. Returns (exit code, libtest's log).
    pub fn run_with(
        &self,
        module: &str,
        extra: &[&str],
        configure: impl FnOnce(Runner) -> Runner,
    ) -> (ExitCode, String) {
        let log = self.root.join("libtest.log");
        let log_str = log.to_str().expect("utf-8 path").to_string();
        let mut argv = vec!["oaths", "--logfile", &log_str];
        if !extra.contains(&"--test-threads") {
            argv.extend(["--test-threads", "4"]);
        }
        argv.extend_from_slice(extra);
        let args = libtest_mimic::Arguments::from_iter(argv);
        let runner = Runner::new(&self.root)
            .steps_from(&[module])
            .accept_drift(false);
        let code = configure(runner).run_with(args);
        let text = std::fs::read_to_string(&log).unwrap_or_default();
        let _ = std::fs::remove_file(&log);
        (code, text)
    }

    /// [`Project::run_with`] with the runner as it is.
    pub fn run(&self, module: &str, extra: &[&str]) -> (ExitCode, String) {
        self.run_with(module, extra, |r| r)
    }

    /// The text of a file of the project, if it exists.
    pub fn read(&self, rel: &str) -> Option<String> {
        std::fs::read_to_string(self.root.join(rel)).ok()
    }

    /// A path in the project.
    pub fn path(&self, rel: &str) -> PathBuf {
        self.root.join(rel)
    }

    /// The run-result file of `oath`, parsed.
    pub fn results(&self, oath: &str) -> serde_json::Value {
        let text = std::fs::read_to_string(self.root.join(format!(".varar/{oath}.json")))
            .expect("results written");
        serde_json::from_str(&text).expect("valid JSON")
    }
}

pub fn failed() -> ExitCode {
    ExitCode::from(101)
}

/// The failure message of the example whose first line is `line`.
pub fn failure_at(results: &serde_json::Value, line: i64) -> Option<String> {
    results["examples"]
        .as_array()
        .expect("examples")
        .iter()
        .find(|e| e["lines"][0].as_i64() == Some(line))
        .and_then(|e| e["failure"]["message"].as_str().map(str::to_string))
}
