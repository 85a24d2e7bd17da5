//! The functional core stays pure (DEVELOPERS.md, STYLE §2.2), checked by
//! syntax: every module the crate compiles outside tests is parsed with
//! `syn`, following `mod` declarations from `lib.rs` (so a test module is
//! never read, wherever it sits, and every core line is, wherever a
//! `#[cfg(test)]` appears). Outside the shell modules, no code may touch
//! the file system, the environment, the process, the network or the
//! clock, print, or change process-wide state such as the panic hook.

use std::path::{Path, PathBuf};

use syn::visit::{self, Visit};

/// Top-level modules allowed side effects: the imperative shell.
const SHELL: &[&str] = &["config", "discovery", "store", "harness"];

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

/// One problem: where, and what.
#[derive(Debug, PartialEq, Eq)]
struct Finding {
    file: String,
    what: String,
}

/// Whether attributes put an item out of the non-test build:
/// `#[cfg(test)]`, or a `cfg` that requires `test` with `all(…)`.
fn test_only(attrs: &[syn::Attribute]) -> bool {
    attrs.iter().any(|a| {
        a.path().is_ident("cfg")
            && a.parse_args::<syn::Meta>()
                .is_ok_and(|meta| requires_test(&meta))
    })
}

fn requires_test(meta: &syn::Meta) -> bool {
    match meta {
        syn::Meta::Path(p) => p.is_ident("test"),
        syn::Meta::List(list) if list.path.is_ident("all") => list
            .parse_args_with(
                syn::punctuated::Punctuated::<syn::Meta, syn::Token![,]>::parse_terminated,
            )
            .is_ok_and(|metas| metas.iter().any(requires_test)),
        _ => false,
    }
}

/// The segments of every path and flattened `use` tree, and every macro,
/// of the non-test code of one file.
#[derive(Default)]
struct Collector {
    paths: Vec<Vec<String>>,
    macros: Vec<String>,
    /// `mod name;` declarations (file modules) of non-test code, with a
    /// `#[path]` if given.
    modules: Vec<(String, Option<String>)>,
}

impl Collector {
    fn use_tree(&mut self, prefix: &[String], tree: &syn::UseTree) {
        match tree {
            syn::UseTree::Path(p) => {
                let mut next = prefix.to_vec();
                next.push(p.ident.to_string());
                self.use_tree(&next, &p.tree);
            }
            syn::UseTree::Name(n) => self.push_use(prefix, &n.ident),
            syn::UseTree::Rename(r) => self.push_use(prefix, &r.ident),
            syn::UseTree::Glob(_) => self.paths.push(prefix.to_vec()),
            syn::UseTree::Group(g) => {
                for item in &g.items {
                    self.use_tree(prefix, item);
                }
            }
        }
    }

    fn push_use(&mut self, prefix: &[String], ident: &syn::Ident) {
        let mut path = prefix.to_vec();
        path.push(ident.to_string());
        self.paths.push(path);
    }
}

impl<'ast> Visit<'ast> for Collector {
    fn visit_item(&mut self, item: &'ast syn::Item) {
        let attrs = match item {
            syn::Item::Const(i) => &i.attrs,
            syn::Item::Enum(i) => &i.attrs,
            syn::Item::Fn(i) => &i.attrs,
            syn::Item::Impl(i) => &i.attrs,
            syn::Item::Macro(i) => &i.attrs,
            syn::Item::Mod(i) => &i.attrs,
            syn::Item::Static(i) => &i.attrs,
            syn::Item::Struct(i) => &i.attrs,
            syn::Item::Trait(i) => &i.attrs,
            syn::Item::Type(i) => &i.attrs,
            syn::Item::Use(i) => &i.attrs,
            _ => return visit::visit_item(self, item),
        };
        if test_only(attrs) {
            return;
        }
        match item {
            syn::Item::Use(u) => self.use_tree(&[], &u.tree),
            syn::Item::Mod(m) if m.content.is_none() => {
                let path =
                    m.attrs
                        .iter()
                        .find(|a| a.path().is_ident("path"))
                        .and_then(|a| match &a.meta {
                            syn::Meta::NameValue(nv) => match &nv.value {
                                syn::Expr::Lit(syn::ExprLit {
                                    lit: syn::Lit::Str(s),
                                    ..
                                }) => Some(s.value()),
                                _ => None,
                            },
                            _ => None,
                        });
                self.modules.push((m.ident.to_string(), path));
            }
            _ => visit::visit_item(self, item),
        }
    }

    fn visit_impl_item(&mut self, item: &'ast syn::ImplItem) {
        let attrs = match item {
            syn::ImplItem::Fn(f) => &f.attrs,
            syn::ImplItem::Const(c) => &c.attrs,
            syn::ImplItem::Type(t) => &t.attrs,
            _ => return visit::visit_impl_item(self, item),
        };
        if !test_only(attrs) {
            visit::visit_impl_item(self, item);
        }
    }

    fn visit_path(&mut self, path: &'ast syn::Path) {
        self.paths
            .push(path.segments.iter().map(|s| s.ident.to_string()).collect());
        visit::visit_path(self, path);
    }

    fn visit_macro(&mut self, mac: &'ast syn::Macro) {
        if let Some(last) = mac.path.segments.last() {
            self.macros.push(last.ident.to_string());
        }
        visit::visit_macro(self, mac);
    }
}

/// Whether `path` contains `banned` as consecutive segments.
fn names(path: &[String], banned: &[&str]) -> bool {
    path.windows(banned.len())
        .any(|w| w.iter().zip(banned).all(|(a, b)| a == b))
}

/// The problems of one file's source, and its file modules.
fn check_source(file: &str, text: &str) -> Result<(Vec<Finding>, Collector), String> {
    let parsed = syn::parse_file(text).map_err(|e| format!("{file}: {e}"))?;
    let mut collector = Collector::default();
    collector.visit_file(&parsed);
    let mut findings = Vec::new();
    for path in &collector.paths {
        if let Some(banned) = BANNED_PATHS.iter().find(|b| names(path, b)) {
            findings.push(Finding {
                file: file.to_string(),
                what: format!("`{}` (names {})", path.join("::"), banned.join("::")),
            });
        }
    }
    for mac in &collector.macros {
        if BANNED_MACROS.contains(&mac.as_str()) {
            findings.push(Finding {
                file: file.to_string(),
                what: format!("`{mac}!`"),
            });
        }
    }
    Ok((findings, collector))
}

/// The file of module `name` declared in `file` (`dir` is where its
/// children live).
fn module_file(dir: &Path, name: &str, path_attr: Option<&str>) -> Option<PathBuf> {
    if let Some(p) = path_attr {
        return Some(dir.join(p));
    }
    [
        dir.join(format!("{name}.rs")),
        dir.join(name).join("mod.rs"),
    ]
    .into_iter()
    .find(|p| p.exists())
}

/// Check the module tree from `file`: `top` is the top-level module it
/// belongs to (`None` for `lib.rs`).
fn walk(
    src: &Path,
    file: &Path,
    top: Option<&str>,
    checked: &mut usize,
    findings: &mut Vec<Finding>,
) -> Result<(), String> {
    let rel = file.strip_prefix(src).unwrap_or(file).display().to_string();
    let text = std::fs::read_to_string(file).map_err(|e| format!("{rel}: {e}"))?;
    let (found, collector) = check_source(&rel, &text)?;
    let shell = top.is_some_and(|t| SHELL.contains(&t));
    if !shell {
        *checked += 1;
        findings.extend(found);
    }
    // Children of `a.rs` live in `a/`; of `a/mod.rs` and `lib.rs`, beside them.
    let stem = file.file_stem().and_then(|s| s.to_str()).unwrap_or("");
    let parent = file.parent().unwrap_or(src);
    let dir = if stem == "mod" || stem == "lib" {
        parent.to_path_buf()
    } else {
        parent.join(stem)
    };
    for (name, path_attr) in &collector.modules {
        let child = module_file(&dir, name, path_attr.as_deref())
            .ok_or_else(|| format!("{rel}: no file for `mod {name};`"))?;
        walk(src, &child, Some(top.unwrap_or(name)), checked, findings)?;
    }
    Ok(())
}

#[test]
fn core_modules_have_no_side_effects() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut checked = 0;
    let mut findings = Vec::new();
    walk(&src, &src.join("lib.rs"), None, &mut checked, &mut findings)
        .unwrap_or_else(|e| panic!("{e}"));
    assert!(
        checked > 40,
        "only {checked} core files found: is the walk right?"
    );
    let report: Vec<String> = findings
        .iter()
        .map(|f| format!("{} uses {}", f.file, f.what))
        .collect();
    assert!(report.is_empty(), "{}", report.join("\n"));
}

#[test]
fn issue10_17_the_check_reads_syntax_and_skips_only_test_code() {
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
    let (findings, _) = check_source("x.rs", source).unwrap_or_else(|e| panic!("{e}"));
    let what: Vec<&str> = findings.iter().map(|f| f.what.as_str()).collect();
    assert_eq!(
        what,
        [
            "`std::fs` (names std::fs)",
            "`std::env::var` (names std::env)",
            "`std::time::Instant` (names Instant)",
            "`std::process::id` (names std::process)",
            "`std::panic::set_hook` (names set_hook)",
            "`println!`",
            "`eprintln!`",
        ]
    );
}
