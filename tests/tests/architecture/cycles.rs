//! No module cycles: within each crate, the files form a directed graph
//! (file A → file B when A's non-test code names something B defines), and
//! that graph has no cycle. A parent module that only declares and
//! re-exports its children is not part of a cycle; one whose child reaches
//! back into it for a helper is, and the helper belongs in a file of its own.

use std::collections::{BTreeMap, BTreeSet};

use crate::modules::{CrateTree, FileModule};

/// How deep re-exports are followed.
const REEXPORT_DEPTH: usize = 8;

/// The edges of a crate's file graph.
pub fn edges(tree: &CrateTree) -> BTreeMap<&str, BTreeSet<&str>> {
    let mut out: BTreeMap<&str, BTreeSet<&str>> = BTreeMap::new();
    for file in tree.files.values() {
        let targets = out.entry(file.file.as_str()).or_default();
        for path in &file.paths {
            let Some(target) = tree.defining_file(path, REEXPORT_DEPTH) else {
                continue;
            };
            if target.file != file.file && !is_ancestor_declaration(file, target, path) {
                targets.insert(target.file.as_str());
            }
        }
    }
    out
}

/// A path that only names a module itself (`use super::Thing` is an item;
/// `crate::plan` alone is the module): naming an ancestor module is not a
/// use of what it defines.
fn is_ancestor_declaration(from: &FileModule, target: &FileModule, path: &[String]) -> bool {
    path == target.module.as_slice() && from.module.starts_with(&target.module)
}

/// Every cycle: one per strongly connected component of two or more files,
/// as a path through it that returns to its start, with the component's
/// files.
pub fn cycles(edges: &BTreeMap<&str, BTreeSet<&str>>) -> Vec<(Vec<String>, Vec<String>)> {
    let components = strongly_connected(edges);
    components
        .into_iter()
        .filter(|c| c.len() > 1)
        .map(|c| {
            let members = c.iter().map(|s| (*s).to_owned()).collect();
            (cycle_through(&c, edges), members)
        })
        .collect()
}

/// Tarjan's algorithm, iterative enough for module graphs.
fn strongly_connected<'a>(edges: &BTreeMap<&'a str, BTreeSet<&'a str>>) -> Vec<Vec<&'a str>> {
    struct State<'a> {
        index: BTreeMap<&'a str, usize>,
        low: BTreeMap<&'a str, usize>,
        on_stack: BTreeSet<&'a str>,
        stack: Vec<&'a str>,
        next: usize,
        out: Vec<Vec<&'a str>>,
    }
    fn visit<'a>(v: &'a str, edges: &BTreeMap<&'a str, BTreeSet<&'a str>>, s: &mut State<'a>) {
        s.index.insert(v, s.next);
        s.low.insert(v, s.next);
        s.next += 1;
        s.stack.push(v);
        s.on_stack.insert(v);
        for &w in edges.get(v).into_iter().flatten() {
            if !s.index.contains_key(w) {
                visit(w, edges, s);
                let low = s.low[v].min(s.low[w]);
                s.low.insert(v, low);
            } else if s.on_stack.contains(w) {
                let low = s.low[v].min(s.index[w]);
                s.low.insert(v, low);
            }
        }
        if s.low[v] == s.index[v] {
            let mut component = Vec::new();
            while let Some(w) = s.stack.pop() {
                s.on_stack.remove(w);
                component.push(w);
                if w == v {
                    break;
                }
            }
            component.sort();
            s.out.push(component);
        }
    }
    let mut state = State {
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        on_stack: BTreeSet::new(),
        stack: Vec::new(),
        next: 0,
        out: Vec::new(),
    };
    for &v in edges.keys() {
        if !state.index.contains_key(v) {
            visit(v, edges, &mut state);
        }
    }
    state.out
}

/// A shortest path from the component's first file back to itself.
fn cycle_through(component: &[&str], edges: &BTreeMap<&str, BTreeSet<&str>>) -> Vec<String> {
    let start = component[0];
    let inside: BTreeSet<&str> = component.iter().copied().collect();
    let mut previous: BTreeMap<&str, &str> = BTreeMap::new();
    let mut queue = std::collections::VecDeque::from([start]);
    while let Some(v) = queue.pop_front() {
        for &w in edges.get(v).into_iter().flatten() {
            if w == start {
                // start → … → v, then back to start.
                let mut back = vec![v];
                while let Some(&p) = previous.get(back[back.len() - 1]) {
                    back.push(p);
                }
                let mut path: Vec<String> = vec![start.to_owned()];
                path.extend(
                    back.iter()
                        .rev()
                        .filter(|f| **f != start)
                        .map(|f| (*f).to_owned()),
                );
                path.push(start.to_owned());
                return path;
            }
            if inside.contains(w) && !previous.contains_key(w) {
                previous.insert(w, v);
                queue.push_back(w);
            }
        }
    }
    component.iter().map(|s| (*s).to_owned()).collect()
}

/// The graph of each module's children (a module A → its sibling B when a
/// file in A names something a file in B defines), by parent module
/// (`crate::server`): what a cycle of files does not show, two
/// modules that lean on each other through different files.
pub fn module_edges(
    tree: &CrateTree,
    file_edges: &BTreeMap<&str, BTreeSet<&str>>,
) -> BTreeMap<String, BTreeMap<String, BTreeSet<String>>> {
    let mut out: BTreeMap<String, BTreeMap<String, BTreeSet<String>>> = BTreeMap::new();
    for (from, targets) in file_edges {
        let from = &tree.files[*from].module;
        for to in targets {
            let to = &tree.files[*to].module;
            let common = from.iter().zip(to).take_while(|(a, b)| a == b).count();
            // A file and a file of its own ancestor module: the file check's.
            if common == from.len() || common == to.len() {
                continue;
            }
            out.entry(from[..common].join("::"))
                .or_default()
                .entry(from[common].clone())
                .or_default()
                .insert(to[common].clone());
        }
    }
    out
}

/// Every cycle among the children of each module, as `parent: a → b → a`.
pub fn module_cycles(tree: &CrateTree) -> Vec<String> {
    let files = edges(tree);
    let mut out = Vec::new();
    for (parent, children) in module_edges(tree, &files) {
        let graph: BTreeMap<&str, BTreeSet<&str>> = children
            .iter()
            .map(|(k, v)| (k.as_str(), v.iter().map(String::as_str).collect()))
            .collect();
        for (cycle, _) in cycles(&graph) {
            out.push(format!("{parent}: {}", cycle.join(" → ")));
        }
    }
    out
}
