//! The module tree of a crate as files, read with `syn` from its root
//! (`src/lib.rs`, `src/main.rs`) through every `mod name;` that is compiled
//! outside tests, and what each file's non-test code refers to: every path
//! (`use` trees, types, expressions) made absolute (`crate::…`), so a
//! reference can be traced to the file that defines what it names.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use syn::visit::{self, Visit};

/// One file of a crate's module tree.
#[derive(Debug, Default)]
pub struct FileModule {
    /// Its path, relative to the repository root.
    pub file: String,
    /// Its module path, `crate` first (`["crate", "plan", "units"]`).
    pub module: Vec<String>,
    /// Its child modules that live in files: name → file.
    pub children: BTreeMap<String, String>,
    /// Items it defines (structs, fns, …, inline modules).
    pub items: Vec<String>,
    /// `use` bindings: local name → absolute path.
    pub uses: BTreeMap<String, Vec<String>>,
    /// `use path::*` targets, absolute.
    pub globs: Vec<Vec<String>>,
    /// Every path its non-test code names, absolute where it is one of
    /// ours (`crate::`, `super::`, `self::`, a child module, a `use`d name).
    pub paths: Vec<Vec<String>>,
    /// The top-level module it belongs to (`None` for the root).
    pub top: Option<String>,
    /// Its text, for the purity check.
    pub text: String,
}

/// A crate's files, by file path.
#[derive(Debug, Default)]
pub struct CrateTree {
    /// The crate's root file, relative to the repository root.
    pub dir: String,
    /// Every file, keyed by its path.
    pub files: BTreeMap<String, FileModule>,
}

/// Whether attributes keep an item out of the non-test build: `#[cfg(test)]`
/// or a `cfg(all(…, test, …))`, and `#[test]` functions.
pub fn test_only(attrs: &[syn::Attribute]) -> bool {
    attrs.iter().any(|a| {
        a.path().is_ident("test")
            || (a.path().is_ident("cfg")
                && a.parse_args::<syn::Meta>().is_ok_and(|m| requires_test(&m)))
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

fn path_attr(attrs: &[syn::Attribute]) -> Option<String> {
    attrs
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
        })
}

/// What one file says, before paths are made absolute.
#[derive(Default)]
struct Raw {
    /// (inline modules around it, name, `#[path]`)
    mods: Vec<(Vec<String>, String, Option<String>)>,
    /// The inline modules being visited.
    inline: Vec<String>,
    items: Vec<String>,
    /// (local name or `*`, path as written)
    uses: Vec<(String, Vec<String>)>,
    paths: Vec<Vec<String>>,
    macros: Vec<String>,
}

impl Raw {
    fn use_tree(&mut self, prefix: &[String], tree: &syn::UseTree) {
        match tree {
            syn::UseTree::Path(p) => {
                let mut next = prefix.to_vec();
                next.push(p.ident.to_string());
                self.use_tree(&next, &p.tree);
            }
            syn::UseTree::Name(n) => {
                let mut path = prefix.to_vec();
                let name = n.ident.to_string();
                if name == "self" {
                    let local = prefix.last().cloned().unwrap_or_default();
                    self.uses.push((local, path));
                } else {
                    path.push(name.clone());
                    self.uses.push((name, path));
                }
            }
            syn::UseTree::Rename(r) => {
                let mut path = prefix.to_vec();
                path.push(r.ident.to_string());
                self.uses.push((r.rename.to_string(), path));
            }
            syn::UseTree::Glob(_) => self.uses.push(("*".into(), prefix.to_vec())),
            syn::UseTree::Group(g) => {
                for t in &g.items {
                    self.use_tree(prefix, t);
                }
            }
        }
    }
}

impl<'ast> Visit<'ast> for Raw {
    fn visit_item(&mut self, item: &'ast syn::Item) {
        let (attrs, name): (&[syn::Attribute], Option<String>) = match item {
            syn::Item::Const(i) => (&i.attrs, Some(i.ident.to_string())),
            syn::Item::Enum(i) => (&i.attrs, Some(i.ident.to_string())),
            syn::Item::Fn(i) => (&i.attrs, Some(i.sig.ident.to_string())),
            syn::Item::Impl(i) => (&i.attrs, None),
            syn::Item::Macro(i) => (&i.attrs, i.ident.as_ref().map(|x| x.to_string())),
            syn::Item::Mod(i) => (&i.attrs, Some(i.ident.to_string())),
            syn::Item::Static(i) => (&i.attrs, Some(i.ident.to_string())),
            syn::Item::Struct(i) => (&i.attrs, Some(i.ident.to_string())),
            syn::Item::Trait(i) => (&i.attrs, Some(i.ident.to_string())),
            syn::Item::Type(i) => (&i.attrs, Some(i.ident.to_string())),
            syn::Item::Union(i) => (&i.attrs, Some(i.ident.to_string())),
            syn::Item::Use(i) => (&i.attrs, None),
            _ => return visit::visit_item(self, item),
        };
        if test_only(attrs) {
            return;
        }
        match item {
            syn::Item::Use(u) => self.use_tree(&[], &u.tree),
            syn::Item::Mod(m) if m.content.is_none() => {
                let inline = self.inline.clone();
                self.mods
                    .push((inline, m.ident.to_string(), path_attr(&m.attrs)));
            }
            syn::Item::Mod(m) => {
                self.items.push(m.ident.to_string());
                self.inline.push(m.ident.to_string());
                visit::visit_item(self, item);
                self.inline.pop();
            }
            _ => {
                if let Some(name) = name {
                    self.items.push(name);
                }
                visit::visit_item(self, item);
            }
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

/// Everything one file names: its paths (made absolute later) and macros.
pub struct Names {
    /// Paths as written.
    pub paths: Vec<Vec<String>>,
    /// Macro names (last segment).
    pub macros: Vec<String>,
}

/// The paths and macros of `text`'s non-test code (for the purity check).
pub fn names_in(text: &str) -> Result<Names, String> {
    let parsed = syn::parse_file(text).map_err(|e| e.to_string())?;
    let mut raw = Raw::default();
    raw.visit_file(&parsed);
    let mut paths = raw.paths;
    paths.extend(raw.uses.into_iter().map(|(_, p)| p));
    Ok(Names {
        paths,
        macros: raw.macros,
    })
}

fn module_file(dir: &Path, name: &str, attr: Option<&str>) -> Option<PathBuf> {
    if let Some(p) = attr {
        return Some(dir.join(p));
    }
    [
        dir.join(format!("{name}.rs")),
        dir.join(name).join("mod.rs"),
    ]
    .into_iter()
    .find(|p| p.exists())
}

/// Read the package at `repo/dir`: one tree per crate root that exists
/// (`src/lib.rs`, `src/main.rs`: a library and a binary are two crates).
pub fn read_package(repo: &Path, dir: &str) -> Result<Vec<CrateTree>, String> {
    let mut trees = Vec::new();
    for root in ["src/lib.rs", "src/main.rs"] {
        let file = repo.join(dir).join(root);
        if file.exists() {
            let mut tree = CrateTree {
                dir: format!("{dir}/{root}"),
                ..CrateTree::default()
            };
            walk(repo, &file, vec!["crate".into()], None, &mut tree)?;
            trees.push(tree);
        }
    }
    Ok(trees)
}

fn walk(
    repo: &Path,
    file: &Path,
    module: Vec<String>,
    top: Option<String>,
    tree: &mut CrateTree,
) -> Result<(), String> {
    let rel = file
        .strip_prefix(repo)
        .unwrap_or(file)
        .display()
        .to_string();
    if tree.files.contains_key(&rel) {
        return Ok(());
    }
    let text = std::fs::read_to_string(file).map_err(|e| format!("{rel}: {e}"))?;
    let parsed = syn::parse_file(&text).map_err(|e| format!("{rel}: {e}"))?;
    let mut raw = Raw::default();
    raw.visit_file(&parsed);
    let stem = file.file_stem().and_then(|s| s.to_str()).unwrap_or("");
    let parent = file.parent().unwrap_or(repo);
    let dir = if matches!(stem, "mod" | "lib" | "main") {
        parent.to_path_buf()
    } else {
        parent.join(stem)
    };
    let mut children = BTreeMap::new();
    let mut child_files = Vec::new();
    for (inline, name, attr) in &raw.mods {
        let dir = inline.iter().fold(dir.clone(), |d, m| d.join(m));
        let child = module_file(&dir, name, attr.as_deref())
            .ok_or_else(|| format!("{rel}: no file for `mod {name};`"))?;
        let child_rel = child
            .strip_prefix(repo)
            .unwrap_or(&child)
            .display()
            .to_string();
        if inline.is_empty() {
            children.insert(name.clone(), child_rel);
        }
        let mut path = inline.clone();
        path.push(name.clone());
        child_files.push((path, child));
    }
    let child_names: Vec<&str> = children.keys().map(String::as_str).collect();
    let absolute = |path: &[String]| absolute(&module, &child_names, &raw.uses, path);
    let mut uses = BTreeMap::new();
    let mut globs = Vec::new();
    for (name, path) in &raw.uses {
        if let Some(abs) = absolute_use(&module, &child_names, path) {
            if name == "*" {
                globs.push(abs);
            } else {
                uses.insert(name.clone(), abs);
            }
        }
    }
    let mut paths: Vec<Vec<String>> = raw.paths.iter().filter_map(|p| absolute(p)).collect();
    paths.extend(uses.values().cloned());
    paths.extend(globs.iter().cloned());
    tree.files.insert(
        rel.clone(),
        FileModule {
            file: rel,
            module: module.clone(),
            children,
            items: raw.items,
            uses,
            globs,
            paths,
            top: top.clone(),
            text,
        },
    );
    for (path, child) in child_files {
        let mut child_module = module.clone();
        child_module.extend(path.iter().cloned());
        let top = top.clone().unwrap_or_else(|| path[0].clone());
        walk(repo, &child, child_module, Some(top), tree)?;
    }
    Ok(())
}

/// A `use` path made absolute; `None` for other crates (`std::…`, `serde::…`).
fn absolute_use(module: &[String], children: &[&str], path: &[String]) -> Option<Vec<String>> {
    let first = path.first()?;
    match first.as_str() {
        "crate" => Some(path.to_vec()),
        "self" => Some([module, &path[1..]].concat()),
        "super" => {
            let mut base = module.to_vec();
            let mut rest = path;
            while rest.first().is_some_and(|s| s == "super") {
                base.pop();
                rest = &rest[1..];
            }
            Some([base.as_slice(), rest].concat())
        }
        name if children.contains(&name) => Some([module, path].concat()),
        _ => None,
    }
}

/// Any path of the file made absolute: as a `use` path, or through a name
/// the file `use`s.
fn absolute(
    module: &[String],
    children: &[&str],
    uses: &[(String, Vec<String>)],
    path: &[String],
) -> Option<Vec<String>> {
    if let Some(abs) = absolute_use(module, children, path) {
        return Some(abs);
    }
    let first = path.first()?;
    let (_, used) = uses.iter().find(|(name, _)| name == first)?;
    let base = absolute_use(module, children, used)?;
    Some([base.as_slice(), &path[1..]].concat())
}

impl CrateTree {
    /// The file of the module at `module` (absolute), if it is one of ours.
    fn module_file(&self, module: &[String]) -> Option<&FileModule> {
        self.files.values().find(|f| f.module == module)
    }

    /// The file that defines what the absolute `path` names: the deepest
    /// module file on the path, then through that file's `use`s and globs
    /// when it only re-exports the name. `depth` guards against loops of
    /// re-exports.
    pub fn defining_file(&self, path: &[String], depth: usize) -> Option<&FileModule> {
        let mut file = self.module_file(&path[..1])?;
        let mut i = 1;
        while i < path.len() {
            let segment = &path[i];
            if let Some(child) = file.children.get(segment) {
                file = self.files.get(child)?;
                i += 1;
                continue;
            }
            if file.items.contains(segment) || depth == 0 {
                return Some(file);
            }
            if let Some(target) = file.uses.get(segment) {
                let mut next = target.clone();
                next.extend_from_slice(&path[i + 1..]);
                return self.defining_file(&next, depth - 1).or(Some(file));
            }
            for glob in &file.globs {
                let mut next = glob.clone();
                next.extend_from_slice(&path[i..]);
                if let Some(found) = self.defining_file(&next, depth - 1)
                    && found.file != file.file
                    && found.items.contains(segment)
                {
                    return Some(found);
                }
            }
            return Some(file);
        }
        Some(file)
    }
}
