//! A project in a fresh temporary directory, and the real `cargo-varar`
//! binary run in it (STYLE §2.5), shared by the CLI tests.

#![allow(dead_code)] // each test file uses a different part of this module

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::Value;

use varar_core::hash::source_hash;

pub mod verdicts;

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

// ---- run records (issue 19) ---------------------------------------------------

/// One item of a run record, as the harness writes it: its kind read from
/// its name (`ItemName`), `outcome` absent while it has not ended.
pub fn item(
    name: &str,
    oath: &str,
    line: u32,
    attempt: u32,
    outcome: Option<&str>,
    message: Option<&str>,
) -> String {
    let kind = varar_core::names::ItemName::parse(name).kind.as_str();
    let mut fields = vec![
        format!(
            "\"name\": {}",
            serde_json::to_string(name).unwrap_or_default()
        ),
        format!("\"kind\": \"{kind}\""),
        format!("\"oathPath\": \"{oath}\""),
        format!("\"line\": {line}"),
        format!("\"attempt\": {attempt}"),
    ];
    if let Some(outcome) = outcome {
        fields.push(format!("\"outcome\": \"{outcome}\""));
        fields.push("\"durationMs\": 0.25".to_owned());
    }
    if let Some(message) = message {
        fields.push(format!(
            "\"message\": {}",
            serde_json::to_string(message).unwrap_or_default()
        ));
    }
    format!("    {{\n      {}\n    }}", fields.join(",\n      "))
}

/// A process of a run: its ids, when it started (`HH:MM:SS`), whether it
/// reached its end, and the documents it read (digested as they are now).
pub struct Process<'a> {
    pub run: &'a str,
    pub id: &'a str,
    pub started: &'a str,
    pub complete: bool,
    pub documents: &'a [&'a str],
}

impl Process<'_> {
    /// A complete process of run `run` that read basket.md and shelf.md.
    pub fn of(run: &str) -> Process<'_> {
        Process {
            run,
            id: "p1",
            started: "07:00:00",
            complete: true,
            documents: &["varar/basket.md", "varar/shelf.md"],
        }
    }
}

/// Write `<tree>/.runs/<run>/<process>.run` as the harness writes it, with
/// these items (see [`item`]).
pub fn write_record(p: &Project, tree: &str, process: &Process<'_>, items: &[String]) {
    use varar_core::hash::sha256_hex;
    let digest = |rel: &str| sha256_hex(&std::fs::read(p.root().join(rel)).unwrap_or_default());
    let documents: Vec<String> = process
        .documents
        .iter()
        .map(|d| {
            let text = std::fs::read_to_string(p.root().join(d)).unwrap_or_default();
            format!(
                "      {{\n        \"path\": \"{d}\",\n        \"sha256\": \"{}\",\n        \"sourceHash\": \"{}\"\n      }}",
                digest(d),
                source_hash(&text)
            )
        })
        .collect();
    let ended = if process.complete {
        format!("\n  \"endedAt\": \"2026-12-01T{}.900Z\",", process.started)
    } else {
        String::new()
    };
    let text = format!(
        r#"{{
  "version": 1,
  "format": "varar-run-record",
  "varar": "0.1.0",
  "runId": "{run}",
  "processId": "{id}",
  "complete": {complete},
  "startedAt": "2026-12-01T{started}.000Z",{ended}
  "arguments": [],
  "options": {{
    "update": false,
    "runtime": "built-in"
  }},
  "manifest": {{
    "config": {{
      "path": "varar.config.json",
      "sha256": "{config}"
    }},
    "documents": [
{documents}
    ],
    "reproducible": false,
    "limitations": []
  }},
  "items": [
{items}
  ]
}}
"#,
        run = process.run,
        id = process.id,
        complete = process.complete,
        started = process.started,
        config = digest("varar.config.json"),
        documents = documents.join(",\n"),
        items = items.join(",\n"),
    );
    p.write(
        &format!("{tree}/.runs/{}/{}.run", process.run, process.id),
        &text,
    );
}

/// The items of the examples [`all_passed`] records, every one passed.
pub fn passed_items() -> Vec<String> {
    vec![
        item(
            "varar/basket.md::The basket::I add 2. The total is 3",
            "varar/basket.md",
            3,
            1,
            Some("passed"),
            None,
        ),
        item(
            "varar/basket.md::The basket::I add 1. The total is 1",
            "varar/basket.md",
            5,
            1,
            Some("passed"),
            None,
        ),
        item(
            "varar/shelf.md::The shelf::I stock 3 buns",
            "varar/shelf.md",
            3,
            1,
            Some("passed"),
            None,
        ),
    ]
}

/// The record of the run that wrote [`Project::basket_results`]: it read
/// basket.md, one example failed and one passed. Without it no record says
/// which text the results were made from (by SHA-256), and the report
/// calls them stale (issue 34).
pub fn basket_run(p: &Project) {
    let process = Process {
        documents: &["varar/basket.md"],
        ..Process::of("run-1")
    };
    let items = [
        item(
            "varar/basket.md::The basket::I add 2. The total is 3",
            "varar/basket.md",
            3,
            1,
            Some("failed"),
            Some("cell 1: expected 3 but was 2"),
        ),
        item(
            "varar/basket.md::The basket::I add 1. The total is 1",
            "varar/basket.md",
            5,
            1,
            Some("passed"),
            None,
        ),
    ];
    write_record(p, ".varar", &process, &items);
}

/// A complete run in `.varar/` in which every example passed.
pub fn passing_run(p: &Project) {
    write_record(p, ".varar", &Process::of("run-1"), &passed_items());
}
