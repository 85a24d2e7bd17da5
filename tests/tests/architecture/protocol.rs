//! The language server's analysis is protocol-free (issue 35): no file of
//! `varar-lsp`'s `analysis` layer names a type of the Language Server
//! Protocol (`lsp_types`, `lsp_server`) or the JSON the protocol carries
//! (`serde_json::Value`, `json!`). `cargo varar check` reads oaths with
//! that analysis; a plan becomes protocol values only in the handlers.
//! Read with `syn` from each file's non-test code, as the purity check
//! reads it.

use crate::modules::{CrateTree, names_in};
use crate::purity::Finding;

/// The analysis layer of the language server.
pub const ANALYSIS: &str = "varar-lsp/src/analysis/";

/// Path segment sequences the analysis may not name (`use` trees and
/// paths alike).
const PROTOCOL_PATHS: &[&[&str]] = &[&["lsp_types"], &["lsp_server"], &["serde_json", "Value"]];

/// Macros that build protocol values.
const PROTOCOL_MACROS: &[&str] = &["json"];

/// Whether `path` contains `banned` as consecutive segments.
fn names(path: &[String], banned: &[&str]) -> bool {
    path.windows(banned.len())
        .any(|w| w.iter().zip(banned).all(|(a, b)| a == b))
}

/// What of the protocol one file's non-test code names.
pub fn check_source(file: &str, text: &str) -> Result<Vec<Finding>, String> {
    let found = names_in(text).map_err(|e| format!("{file}: {e}"))?;
    let mut findings = Vec::new();
    for path in &found.paths {
        if PROTOCOL_PATHS.iter().any(|b| names(path, b)) {
            findings.push(Finding {
                file: file.to_string(),
                what: format!("`{}`", path.join("::")),
            });
        }
    }
    for mac in &found.macros {
        if PROTOCOL_MACROS.contains(&mac.as_str()) {
            findings.push(Finding {
                file: file.to_string(),
                what: format!("`{mac}!`"),
            });
        }
    }
    Ok(findings)
}

/// What of the protocol the files of `tree` under `dir` name, and how many
/// files were read.
pub fn check_layer(tree: &CrateTree, dir: &str) -> Result<(Vec<Finding>, usize), String> {
    let mut findings = Vec::new();
    let mut checked = 0;
    for file in tree.files.values().filter(|f| f.file.starts_with(dir)) {
        checked += 1;
        findings.extend(check_source(&file.file, &file.text)?);
    }
    Ok((findings, checked))
}
