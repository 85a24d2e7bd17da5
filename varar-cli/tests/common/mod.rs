//! A project in a fresh temporary directory, and the real `cargo-varar`
//! binary run in it (STYLE §2.5), shared by the CLI tests.

#![allow(dead_code)] // each test file uses a different part of this module

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::Value;

use varar_core::hash::source_hash;

pub const BASKET: &str = "# The basket\n\nI add 2. The total is 3.\n\nI add 1. The total is 1.\n";
pub const SHELF: &str = "# The shelf\n\nI stock 3 buns.\n";

/// A project in a temporary directory.
pub struct Project {
    dir: tempfile::TempDir,
}

impl Project {
    pub fn new() -> Project {
        let p = Project {
            dir: tempfile::tempdir().unwrap_or_else(|e| panic!("{e}")),
        };
        p.write(
            "varar.config.json",
            r#"{"docs": {"include": ["varar/**/*.md"]}}"#,
        );
        p.write("varar/basket.md", BASKET);
        p.write("varar/shelf.md", SHELF);
        p
    }

    pub fn root(&self) -> &Path {
        self.dir.path()
    }

    pub fn write(&self, rel: &str, text: &str) {
        let path = self.root().join(rel);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).unwrap_or_else(|e| panic!("{e}"));
        }
        std::fs::write(&path, text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    }

    pub fn read(&self, rel: &str) -> String {
        std::fs::read_to_string(self.root().join(rel)).unwrap_or_else(|e| panic!("{rel}: {e}"))
    }

    /// The results of basket.md as the harness writes them: one failure.
    pub fn basket_results(&self) {
        let from = BASKET.find("3.").unwrap_or(0);
        let results = format!(
            r#"{{
  "version": 1,
  "oathPath": "varar/basket.md",
  "sourceHash": "{}",
  "examples": [
    {{"name": "I add 2. The total is 3", "status": "failed", "lines": [3],
      "failure": {{"line": 3, "message": "cell 1: expected 3 but was 2", "stack": "",
        "cells": [{{"from": {from}, "to": {to}, "actual": "2"}}], "anchor": {{"from": {from}, "to": {to}}}}}}},
    {{"name": "I add 1. The total is 1", "status": "passed", "lines": [5]}}
  ]
}}
"#,
            source_hash(BASKET),
            to = from + 1
        );
        self.write(".varar/varar/basket.md.json", &results);
    }

    pub fn run(&self, args: &[&str]) -> Output {
        self.run_in(self.root(), args)
    }

    pub fn run_in(&self, cwd: &Path, args: &[&str]) -> Output {
        Command::new(env!("CARGO_BIN_EXE_cargo-varar"))
            .args(args)
            .current_dir(cwd)
            .env_remove("BROWSER")
            .output()
            .unwrap_or_else(|e| panic!("cannot run cargo-varar: {e}"))
    }
}

pub fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

pub fn files_under(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).into_iter().flatten().flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else {
                out.push(p.strip_prefix(dir).unwrap_or(&p).to_path_buf());
            }
        }
    }
    out.sort();
    out
}

pub const PASSED_BASKET: &str = r#"[{"name": "I add 2. The total is 3", "status": "passed", "lines": [3]},
    {"name": "I add 1. The total is 1", "status": "passed", "lines": [5]}]"#;
pub const PASSED_SHELF: &str = r#"[{"name": "I stock 3 buns", "status": "passed", "lines": [3]}]"#;

/// Write `<tree>/<oath>.json` for `text` with these examples.
pub fn result(p: &Project, tree: &str, oath: &str, text: &str, examples: &str) {
    p.write(
        &format!("{tree}/{oath}.json"),
        &format!(
            r#"{{"version": 1, "oathPath": "{oath}", "sourceHash": "{}", "examples": {examples}}}"#,
            source_hash(text)
        ),
    );
}

pub fn all_passed(p: &Project) {
    result(p, ".varar", "varar/basket.md", BASKET, PASSED_BASKET);
    result(p, ".varar", "varar/shelf.md", SHELF, PASSED_SHELF);
}

pub fn code(out: &Output) -> Option<i32> {
    out.status.code()
}

pub fn codes(value: &Value) -> Vec<String> {
    value["errors"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|e| e["code"].as_str().unwrap_or("").to_owned())
        .collect()
}

/// Every file under `dir` with its bytes.
pub fn snapshot(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    files_under(dir)
        .into_iter()
        .map(|f| {
            let bytes = std::fs::read(dir.join(&f)).unwrap_or_default();
            (f.display().to_string(), bytes)
        })
        .collect()
}
