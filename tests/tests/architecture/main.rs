//! The architecture of the workspace, checked (issue 18): no cycle of
//! files and none of sibling modules (issue 35) in any crate, a pure core in every crate that has one, one
//! place for what only one place may name (issue 35: each environment
//! variable, the store's paths), and a language server whose analysis
//! names no protocol type (issue 35). All read the crates' sources with `syn`,
//! following `mod` declarations from each crate root, so test code is never
//! read and every compiled line is.

mod cycles;
mod modules;
mod protocol;
mod purity;
mod shell_names;

use std::path::{Path, PathBuf};

/// Every package of the workspace with Rust sources of its own.
const PACKAGES: &[&str] = &[
    "varar",
    "varar-core",
    "varar-expression",
    "varar-macros",
    "varar-project",
    "varar-runner",
    "varar-report",
    "varar-lsp",
    "varar-cli",
    "conformance",
    "bench",
];

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .map(Path::to_path_buf)
        .unwrap_or_default()
}

fn trees() -> Vec<modules::CrateTree> {
    PACKAGES
        .iter()
        .flat_map(|p| modules::read_package(&repo(), p).unwrap_or_else(|e| panic!("{e}")))
        .collect()
}

#[test]
fn no_crate_has_a_module_cycle() {
    let mut report = Vec::new();
    let trees = trees();
    assert!(trees.len() >= 10, "only {} crate roots found", trees.len());
    for tree in &trees {
        let edges = cycles::edges(tree);
        for (cycle, members) in cycles::cycles(&edges) {
            let also = if members.len() + 1 > cycle.len() {
                format!(" (the files {} depend on each other)", members.join(", "))
            } else {
                String::new()
            };
            report.push(format!("{}: {}{also}", tree.dir, cycle.join(" → ")));
        }
    }
    assert!(
        report.is_empty(),
        "module cycles (a file that names what another defines, round and round):\n{}",
        report.join("\n")
    );
}

/// Modules, not only files: `commands` and `server` leaning on
/// each other through different files is a cycle too (issue 35).
#[test]
fn no_module_leans_on_a_sibling_that_leans_back() {
    let mut report = Vec::new();
    for tree in &trees() {
        for cycle in cycles::module_cycles(tree) {
            report.push(format!("{}: {cycle}", tree.dir));
        }
    }
    assert!(
        report.is_empty(),
        "module cycles (sibling modules that name what the other defines, round and round):\n{}",
        report.join("\n")
    );
}

#[test]
fn every_core_is_pure() {
    let trees = trees();
    let mut report = Vec::new();
    for shell in purity::SHELLS {
        let tree = trees
            .iter()
            .find(|t| t.dir == shell.root)
            .unwrap_or_else(|| panic!("no crate root {}", shell.root));
        let (findings, checked) =
            purity::check_crate(tree, shell).unwrap_or_else(|e| panic!("{e}"));
        assert!(
            checked >= shell.core_files,
            "{}: only {checked} core files found",
            shell.root
        );
        report.extend(
            findings
                .iter()
                .map(|f| format!("{} uses {}", f.file, f.what)),
        );
    }
    assert!(report.is_empty(), "{}", report.join("\n"));
}

/// The analysis `cargo varar check` shares with the language server names
/// nothing of the protocol: the handlers turn its values into the
/// protocol's.
#[test]
fn the_language_servers_analysis_names_no_protocol_type() {
    let trees = trees();
    let tree = trees
        .iter()
        .find(|t| t.dir == "varar-lsp/src/lib.rs")
        .unwrap_or_else(|| panic!("no crate root varar-lsp/src/lib.rs"));
    let (findings, checked) =
        protocol::check_layer(tree, protocol::ANALYSIS).unwrap_or_else(|e| panic!("{e}"));
    assert!(checked >= 10, "only {checked} files of the analysis found");
    let report: Vec<String> = findings
        .iter()
        .map(|f| format!("{} names {}", f.file, f.what))
        .collect();
    assert!(
        report.is_empty(),
        "the language server's analysis names the protocol (turn its values into the protocol's in a handler):\n{}",
        report.join("\n")
    );
}

/// Where every environment variable of Varar is named.
const ENV_NAMES: &str = "varar-core/src/env.rs";

/// The store: the only module that joins the paths of `.varar/` and the
/// lock.
const STORE: &str = "varar-project/src/store/";

#[test]
fn every_environment_variable_is_named_once() {
    let mut named: std::collections::BTreeMap<String, Vec<String>> = Default::default();
    for tree in trees() {
        for file in tree.files.values() {
            let found = shell_names::named_in(&file.text).unwrap_or_else(|e| panic!("{e}"));
            for name in found.variables {
                named.entry(name).or_default().push(file.file.clone());
            }
        }
    }
    let mut report = Vec::new();
    for (name, files) in &named {
        // The bench's own variable is named once in the bench.
        let home_ok = name.starts_with("VARAR_BENCH_") || files.iter().all(|f| f == ENV_NAMES);
        if files.len() != 1 || !home_ok {
            report.push(format!("{name} is written in {}", files.join(", ")));
        }
    }
    assert!(named.contains_key("VARAR_UPDATE"), "{named:?}");
    assert!(
        report.is_empty(),
        "an environment variable's name written outside {ENV_NAMES} (use its constant):\n{}",
        report.join("\n")
    );
}

#[test]
fn only_the_store_joins_the_paths_of_its_files() {
    let mut report = Vec::new();
    for tree in trees() {
        for file in tree.files.values() {
            if file.file.starts_with(STORE) {
                continue;
            }
            let found = shell_names::named_in(&file.text).unwrap_or_else(|e| panic!("{e}"));
            for arg in found.store_joins {
                report.push(format!("{} joins {arg}", file.file));
            }
        }
    }
    assert!(
        report.is_empty(),
        "a path of the store's files joined outside {STORE} (use the store's functions):\n{}",
        report.join("\n")
    );
}

#[test]
fn the_name_checks_read_code_not_tests() {
    let source = r#"
        const A: &str = "VARAR_UPDATE";
        fn f(root: &Path) {
            std::env::var("VARAR_RERUN");
            let _ = root.join(SCRATCH_DIR).join(store::CACHE_DIR);
            let _ = root.join(".varar/x.json");
            let _ = root.join("varar.config.json");
            let _ = format!("VARAR_UPDATE=1 in a message");
        }
        #[cfg(test)]
        mod tests {
            fn t(root: &Path) { std::env::var("VARAR_TIMEOUT"); root.join(RUNS_DIR); }
        }
    "#;
    let found = shell_names::named_in(source).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(found.variables, ["VARAR_UPDATE", "VARAR_RERUN"]);
    assert_eq!(
        found.store_joins,
        ["store::CACHE_DIR", "SCRATCH_DIR", "\".varar/x.json\""]
    );
}

#[test]
fn the_purity_check_reads_syntax_and_skips_only_test_code() {
    let source = r#"
        use std::fs;
        use std::{env::var, io::Write as _};
        use std::time::Instant;

        fn core() {
            let _ = std::process::id();
            std::panic::set_hook(Box::new(|_| {}));
            println!("hi");
        }

        #[cfg(test)]
        mod tests {
            fn fine() { std::fs::read("x"); println!("ok"); }
        }

        struct S;
        impl S {
            #[cfg(test)]
            fn helper() { std::env::set_var("A", "1"); }
            fn real(&self) { eprintln!("no"); }
        }

        #[cfg(all(test, unix))]
        fn also_test() { std::fs::remove_file("x"); }
    "#;
    let findings = purity::check_source("x.rs", source).unwrap_or_else(|e| panic!("{e}"));
    let mut what: Vec<&str> = findings.iter().map(|f| f.what.as_str()).collect();
    what.sort();
    let mut want = [
        "`std::fs` (names std::fs)",
        "`std::env::var` (names std::env)",
        "`std::time::Instant` (names Instant)",
        "`std::process::id` (names std::process)",
        "`std::panic::set_hook` (names set_hook)",
        "`println!`",
        "`eprintln!`",
    ];
    want.sort();
    assert_eq!(what, want);
}

#[test]
fn the_cycle_check_finds_a_cycle_through_a_parent_and_names_it() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let write = |rel: &str, text: &str| write_fixture(dir.path(), rel, text);
    write("pkg/src/lib.rs", "mod plan;\nmod registry;\n");
    // plan/mod.rs only declares and re-exports: not part of a cycle.
    write(
        "pkg/src/plan/mod.rs",
        "mod model;\nmod units;\npub use model::*;\n",
    );
    write("pkg/src/plan/model.rs", "pub struct Plan;\n");
    // units → registry → plan::Plan (model): no cycle yet.
    write(
        "pkg/src/plan/units.rs",
        "use crate::registry::Registry;\nfn f(_: Registry) {}\n",
    );
    write(
        "pkg/src/registry.rs",
        "pub struct Registry(crate::plan::Plan);\n",
    );
    let trees = modules::read_package(dir.path(), "pkg").unwrap_or_else(|e| panic!("{e}"));
    assert!(cycles::cycles(&cycles::edges(&trees[0])).is_empty());
    // The registry now reaches into units: registry ↔ units.
    write(
        "pkg/src/registry.rs",
        "pub struct Registry(crate::plan::Plan);\nfn g() { super::plan::units::f; }\n",
    );
    write(
        "pkg/src/plan/units.rs",
        "use crate::registry::Registry;\npub fn f(_: Registry) {}\n",
    );
    let trees = modules::read_package(dir.path(), "pkg").unwrap_or_else(|e| panic!("{e}"));
    let found: Vec<Vec<String>> = cycles::cycles(&cycles::edges(&trees[0]))
        .into_iter()
        .map(|(cycle, _)| cycle)
        .collect();
    assert_eq!(
        found,
        [vec![
            "pkg/src/plan/units.rs".to_owned(),
            "pkg/src/registry.rs".to_owned(),
            "pkg/src/plan/units.rs".to_owned(),
        ]]
    );
}

#[test]
fn the_module_check_finds_siblings_that_lean_on_each_other_through_different_files() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let write = |rel: &str, text: &str| write_fixture(dir.path(), rel, text);
    write("pkg/src/lib.rs", "mod server;\nmod commands;\n");
    write("pkg/src/server/mod.rs", "mod loop_;\nmod report;\n");
    write("pkg/src/server/report.rs", "pub fn open() {}\n");
    // The server's loop calls a command: server → commands.
    write(
        "pkg/src/server/loop_.rs",
        "fn run() { crate::commands::report(); }\n",
    );
    write("pkg/src/commands.rs", "pub fn report() {}\n");
    let trees = modules::read_package(dir.path(), "pkg").unwrap_or_else(|e| panic!("{e}"));
    assert!(cycles::module_cycles(&trees[0]).is_empty());
    // The command now borrows the server's report code, from another file
    // than the one that calls it: no file cycle, a module cycle.
    write(
        "pkg/src/commands.rs",
        "pub fn report() { crate::server::report::open(); }\n",
    );
    write("pkg/src/server/mod.rs", "mod loop_;\npub mod report;\n");
    let trees = modules::read_package(dir.path(), "pkg").unwrap_or_else(|e| panic!("{e}"));
    assert!(cycles::cycles(&cycles::edges(&trees[0])).is_empty());
    assert_eq!(
        cycles::module_cycles(&trees[0]),
        ["crate: commands → server → commands"]
    );
}

#[test]
fn the_protocol_check_finds_a_protocol_type_named_in_the_analysis() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let write = |rel: &str, text: &str| write_fixture(dir.path(), rel, text);
    write("lsp/src/lib.rs", "pub mod analysis;\npub mod handlers;\n");
    // The handlers speak the protocol; the analysis only in its tests.
    write(
        "lsp/src/handlers.rs",
        "use lsp_types::Range;\npub fn f() -> serde_json::Value { serde_json::json!(null) }\n",
    );
    write(
        "lsp/src/analysis/mod.rs",
        "pub mod plan;\n#[cfg(test)]\nmod tests { use lsp_types::Range; }\n",
    );
    write("lsp/src/analysis/plan.rs", "pub struct Plan(pub u32);\n");
    let read = || modules::read_package(dir.path(), "lsp").unwrap_or_else(|e| panic!("{e}"));
    let (findings, checked) =
        protocol::check_layer(&read()[0], "lsp/src/analysis/").unwrap_or_else(|e| panic!("{e}"));
    assert_eq!((findings, checked), (vec![], 2));
    // The plan now answers in the protocol's terms.
    write(
        "lsp/src/analysis/plan.rs",
        "use lsp_types::{Position, Range};\nuse serde_json::{Value, json};\n\
         pub struct Plan(pub lsp_server::RequestId);\n\
         pub fn at(_: Position) -> Value { json!(1) }\n",
    );
    let (findings, _) =
        protocol::check_layer(&read()[0], "lsp/src/analysis/").unwrap_or_else(|e| panic!("{e}"));
    let mut what: Vec<&str> = findings.iter().map(|f| f.what.as_str()).collect();
    what.sort();
    assert_eq!(
        what,
        [
            "`json!`",
            "`lsp_server::RequestId`",
            "`lsp_types::Position`",
            "`lsp_types::Range`",
            "`serde_json::Value`",
        ]
    );
    assert!(
        findings
            .iter()
            .all(|f| f.file == "lsp/src/analysis/plan.rs"),
        "{findings:?}"
    );
}

/// Write `text` at `rel` under `root`, making its directories: the fixture
/// crates of the checks' own tests.
fn write_fixture(root: &Path, rel: &str, text: &str) {
    let path = root.join(rel);
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent).unwrap_or_else(|e| panic!("{e}"));
    }
    std::fs::write(path, text).unwrap_or_else(|e| panic!("{e}"));
}
