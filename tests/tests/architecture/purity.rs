//! The functional core stays pure (DEVELOPERS.md, STYLE §2.2), checked by
//! syntax over every file the crates compile outside tests: outside the
//! shell, no code touches the file system, the environment, the process,
//! the network or the clock, prints, or changes process-wide state such as
//! the panic hook.

use crate::modules::{CrateTree, names_in};

/// Path segment sequences core code may not name (`use` trees and paths
/// alike, so `use std::fs;` and `std::fs::read` are both caught).
const BANNED_PATHS: &[&[&str]] = &[
    &["std", "fs"],
    &["std", "env"],
    &["std", "process"],
    &["std", "net"],
    &["SystemTime"],
    &["Instant"],
    &["stdout"],
    &["stderr"],
    &["stdin"],
    // Process-wide state: only the shell installs hooks.
    &["set_hook"],
    &["take_hook"],
    &["set_var"],
    &["remove_var"],
    &["set_current_dir"],
];

const BANNED_MACROS: &[&str] = &["println", "eprintln", "print", "eprint", "dbg"];

/// Where side effects are allowed, per crate root: top-level modules (by
/// name) or files (by path under the crate's `src/`).
pub struct Shell {
    /// The crate root, e.g. `varar-runner/src/lib.rs`.
    pub root: &'static str,
    /// Top-level modules that are shell.
    pub modules: &'static [&'static str],
    /// Files that are shell.
    pub files: &'static [&'static str],
    /// At least this many core files: a crate root read wrong finds none.
    pub core_files: usize,
}

/// The shell of every crate whose core is checked. A crate root not listed
/// here is not checked (binaries that are shell through and through:
/// `cargo-varar`'s `main.rs`, the bench, the conformance binary).
pub const SHELLS: &[Shell] = &[
    // The pure engine: no shell at all.
    Shell {
        root: "varar-core/src/lib.rs",
        modules: &[],
        files: &[],
        core_files: 5,
    },
    Shell {
        root: "varar-expression/src/lib.rs",
        modules: &[],
        files: &[],
        core_files: 5,
    },
    // The shell of a project: all of it touches the disk or the
    // environment (the loader, `project`, through the others) but the
    // crate root.
    Shell {
        root: "varar-project/src/lib.rs",
        modules: &[
            "config",
            "discovery",
            "evidence",
            "files",
            "project",
            "root",
            "store",
        ],
        files: &[],
        core_files: 1,
    },
    Shell {
        root: "varar-runner/src/lib.rs",
        modules: &["harness"],
        files: &[],
        core_files: 5,
    },
    // The report: the site is pure, reading the project and writing the
    // site are its shell.
    Shell {
        root: "varar-report/src/lib.rs",
        modules: &["report", "site"],
        files: &[],
        core_files: 5,
    },
    // The language server: the main loop and the stdio connection are its
    // shell, and where a project's steps are (manifests read, directories
    // listed); the handlers, the analysis, the events and the reading of a
    // run's output are pure.
    Shell {
        root: "varar-lsp/src/lib.rs",
        modules: &["serve", "transport"],
        files: &[
            "server/mod.rs",
            "server/server_state.rs",
            "server/sync.rs",
            "server/waiting.rs",
            "server/requests.rs",
            "server/project_state.rs",
            "server/background.rs",
            "server/execute.rs",
            "server/run_cargo.rs",
            "analysis/rust_sources.rs",
        ],
        core_files: 20,
    },
    Shell {
        root: "varar-cli/src/lib.rs",
        // Each command's shell (`commands/<name>/shell.rs`, and `merge`'s
        // arguments, checked against the file system); its pure work
        // beside it is core.
        modules: &["tree"],
        files: &[
            "output.rs",
            "commands/attest/shell.rs",
            "commands/check/shell.rs",
            "commands/ctrf/shell.rs",
            "commands/diff/shell.rs",
            "commands/flaky/shell.rs",
            "commands/gate/shell.rs",
            "commands/history/shell.rs",
            "commands/junit/shell.rs",
            "commands/lsp/shell.rs",
            "commands/merge/args.rs",
            "commands/merge/shell.rs",
            "commands/report/shell.rs",
            "commands/verify/shell.rs",
            "commands/review/shell.rs",
            "commands/annotate/shell.rs",
            "commands/sarif/shell.rs",
            "commands/test/shell.rs",
        ],
        core_files: 5,
    },
];

/// One problem: where, and what.
#[derive(Debug, PartialEq, Eq)]
pub struct Finding {
    /// The file.
    pub file: String,
    /// What it names.
    pub what: String,
}

/// Whether `path` contains `banned` as consecutive segments.
fn names(path: &[String], banned: &[&str]) -> bool {
    path.windows(banned.len())
        .any(|w| w.iter().zip(banned).all(|(a, b)| a == b))
}

/// The problems of one file's source.
pub fn check_source(file: &str, text: &str) -> Result<Vec<Finding>, String> {
    let found = names_in(text).map_err(|e| format!("{file}: {e}"))?;
    let mut findings = Vec::new();
    for path in &found.paths {
        if let Some(banned) = BANNED_PATHS.iter().find(|b| names(path, b)) {
            findings.push(Finding {
                file: file.to_string(),
                what: format!("`{}` (names {})", path.join("::"), banned.join("::")),
            });
        }
    }
    for mac in &found.macros {
        if BANNED_MACROS.contains(&mac.as_str()) {
            findings.push(Finding {
                file: file.to_string(),
                what: format!("`{mac}!`"),
            });
        }
    }
    Ok(findings)
}

/// The problems of a crate's core files, and how many files were checked.
pub fn check_crate(tree: &CrateTree, shell: &Shell) -> Result<(Vec<Finding>, usize), String> {
    let src = shell.root.rsplit_once('/').map_or("", |(dir, _)| dir);
    let mut findings = Vec::new();
    let mut checked = 0;
    for file in tree.files.values() {
        let under_src = file.file.strip_prefix(src).unwrap_or(&file.file);
        let under_src = under_src.trim_start_matches('/');
        let in_shell = file
            .top
            .as_deref()
            .is_some_and(|t| shell.modules.contains(&t))
            || shell.files.contains(&under_src);
        if in_shell {
            continue;
        }
        checked += 1;
        findings.extend(check_source(&file.file, &file.text)?);
    }
    Ok((findings, checked))
}
