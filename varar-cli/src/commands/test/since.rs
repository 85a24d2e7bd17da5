//! `cargo varar test --since REF` (pure): what changed since a git ref,
//! read from `git diff --unified=0` (the working tree against the ref;
//! the shell adds each untracked file as wholly new), and the items it
//! selects:
//!
//! - the items whose own lines (paragraphs, their tables and fences; a
//!   header-bound row, its row and the header above) meet a changed hunk
//!   of their oath;
//! - the items that run lines of another document (a section their links
//!   name, the steps spliced in) that changed;
//! - the items calling a step whose function (attribute to closing brace,
//!   as the language server's step index reads it) changed.
//!
//! When unsure, everything runs, and the reason is said: any other change
//! to a Rust source, a Cargo file (`Cargo.toml`, `Cargo.lock`,
//! `.cargo/config.toml`, `rust-toolchain.toml`), `varar.config.json` or
//! `varar.lock.json`, a Markdown file of the project deleted or renamed,
//! or a diff that cannot be read.

use std::collections::{BTreeMap, BTreeSet};

use varar_core::untrusted::{cut_to, terminal_line};

use super::{Picked, Target, Why};

/// One changed file: its path before and after (repository-relative;
/// `None`: added or deleted) and the changed lines of the new side.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FileChange {
    /// The path in the ref, `None` when added.
    pub old: Option<String>,
    /// The path in the working tree, `None` when deleted.
    pub new: Option<String>,
    /// Changed lines of the new side, `(first, last)`; a deletion is the
    /// two lines around it.
    pub hunks: Vec<(u32, u32)>,
}

impl FileChange {
    /// An untracked file: every line new.
    pub fn untracked(path: &str) -> FileChange {
        FileChange {
            old: None,
            new: Some(path.to_owned()),
            hunks: vec![(1, u32::MAX)],
        }
    }

    fn path(&self) -> &str {
        self.new.as_deref().or(self.old.as_deref()).unwrap_or("")
    }

    /// Added, deleted or renamed: not the same file on both sides.
    fn moved(&self) -> bool {
        self.old != self.new
    }
}

/// The most files a diff may name before it is read as "everything".
pub const MAX_FILES: usize = 100_000;

/// Read the output of `git diff --unified=0 --no-color` (with the default
/// `a/` and `b/` prefixes). Paths git quotes are unquoted.
pub fn parse_diff(text: &str) -> Result<Vec<FileChange>, String> {
    let mut files: Vec<FileChange> = Vec::new();
    // The old and new lines left in the current hunk: its `+`/`-` lines
    // are content, whatever they look like.
    let mut left = (0u32, 0u32);
    for line in text.lines() {
        if left != (0, 0) {
            match line.as_bytes().first() {
                Some(b'-') => left.0 = left.0.saturating_sub(1),
                Some(b'+') => left.1 = left.1.saturating_sub(1),
                Some(b'\\') => {}
                _ => return Err(format!("a hunk ends early at `{}`", quote(line))),
            }
            continue;
        }
        let Some(file) = files
            .last_mut()
            .filter(|_| !line.starts_with("diff --git "))
        else {
            let Some(rest) = line.strip_prefix("diff --git ") else {
                return Err(format!("unexpected line `{}`", quote(line)));
            };
            if files.len() >= MAX_FILES {
                return Err(format!("more than {MAX_FILES} files changed"));
            }
            let (old, new) = header_paths(rest)?;
            files.push(FileChange {
                old: Some(old),
                new: Some(new),
                hunks: Vec::new(),
            });
            continue;
        };
        if line.starts_with("new file mode") || line.starts_with("copy from ") {
            file.old = None;
        } else if line.starts_with("deleted file mode") {
            file.new = None;
        } else if let Some(p) = line.strip_prefix("rename from ") {
            file.old = Some(unquote(p));
        } else if let Some(p) = line.strip_prefix("rename to ") {
            file.new = Some(unquote(p));
        } else if let Some(p) = line.strip_prefix("--- ") {
            file.old = side(p, "a/");
        } else if let Some(p) = line.strip_prefix("+++ ") {
            file.new = side(p, "b/");
        } else if line.starts_with("Binary files ") {
            file.hunks.push((1, u32::MAX));
        } else if let Some(rest) = line.strip_prefix("@@ ") {
            let (hunk, counts) = hunk(rest).ok_or_else(|| format!("bad hunk `{}`", quote(line)))?;
            file.hunks.push(hunk);
            left = counts;
        }
    }
    if left != (0, 0) {
        return Err("the diff ends inside a hunk".to_owned());
    }
    Ok(files)
}

/// The new side's changed lines of `-a[,b] +c[,d] @@…`, and the old and
/// new line counts.
fn hunk(rest: &str) -> Option<((u32, u32), (u32, u32))> {
    let mut parts = rest.split(' ');
    let old = parts.next()?.strip_prefix('-')?;
    let new = parts.next()?.strip_prefix('+')?;
    let range = |s: &str| -> Option<(u32, u32)> {
        match s.split_once(',') {
            Some((start, count)) => Some((start.parse().ok()?, count.parse().ok()?)),
            None => Some((s.parse().ok()?, 1)),
        }
    };
    let ((_, old_count), (start, count)) = (range(old)?, range(new)?);
    let lines = if count == 0 {
        // Lines deleted after line `start`: the lines on either side.
        (start.max(1), start.saturating_add(1))
    } else {
        (start, start.saturating_add(count - 1))
    };
    Some((lines, (old_count, count)))
}

/// The path of `--- a/x` or `+++ b/x` (`/dev/null`: none).
fn side(text: &str, prefix: &str) -> Option<String> {
    // Git ends a name holding a space with a tab (as GNU diff does).
    let text = text.strip_suffix('\t').unwrap_or(text);
    if text == "/dev/null" {
        return None;
    }
    let path = unquote(text);
    Some(path.strip_prefix(prefix).map(str::to_owned).unwrap_or(path))
}

/// The two paths of `a/x b/y` (`diff --git`): quoted, or the same path
/// twice (the only case the later lines may not name them).
fn header_paths(rest: &str) -> Result<(String, String), String> {
    if rest.starts_with('"') {
        let end = closing_quote(rest).ok_or_else(|| format!("bad header `{}`", quote(rest)))?;
        let old = unquote(&rest[..=end]);
        let new = unquote(rest[end + 1..].trim_start());
        let strip = |p: String, pre: &str| p.strip_prefix(pre).map(str::to_owned).unwrap_or(p);
        return Ok((strip(old, "a/"), strip(new, "b/")));
    }
    let n = rest.len().saturating_sub(5) / 2;
    match (rest.get(..2), rest.get(2..2 + n), rest.get(2 + n..)) {
        (Some("a/"), Some(path), Some(tail)) if tail.strip_prefix(" b/") == Some(path) => {
            Ok((path.to_owned(), path.to_owned()))
        }
        // A rename without quotes: the later `rename` lines name it.
        _ => Ok((String::new(), String::new())),
    }
}

fn closing_quote(text: &str) -> Option<usize> {
    let bytes = text.as_bytes();
    let mut i = 1;
    while i < bytes.len() {
        match bytes[i] {
            b'\\' => i += 2,
            b'"' => return Some(i),
            _ => i += 1,
        }
    }
    None
}

/// A path as git writes it: bare, or C-quoted (`"a\tb\303\251"`).
pub fn unquote(text: &str) -> String {
    let Some(inner) = text.strip_prefix('"').and_then(|t| t.strip_suffix('"')) else {
        return text.to_owned();
    };
    let mut out = Vec::with_capacity(inner.len());
    let mut bytes = inner.bytes().peekable();
    while let Some(b) = bytes.next() {
        if b != b'\\' {
            out.push(b);
            continue;
        }
        let Some(e) = bytes.next() else { break };
        out.push(match e {
            b'a' => 7,
            b'b' => 8,
            b't' => b'\t',
            b'n' => b'\n',
            b'v' => 11,
            b'f' => 12,
            b'r' => b'\r',
            b'0'..=b'3' => {
                let mut value = u32::from(e - b'0');
                for _ in 0..2 {
                    if let Some(d) = bytes.next_if(|d| (b'0'..=b'7').contains(d)) {
                        value = value * 8 + u32::from(d - b'0');
                    }
                }
                u8::try_from(value).unwrap_or(b'?')
            }
            other => other,
        });
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// One step function, where the step index found it: the file relative
/// to the repository, its lines (attribute to closing brace).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StepFn {
    /// The file, relative to the repository's top.
    pub file: String,
    /// Its first line.
    pub start: u32,
    /// Its last line.
    pub end: u32,
    /// Its registry index.
    pub step: usize,
    /// The function's name.
    pub name: String,
}

/// What the project is, for reading the changes.
#[derive(Clone, Copy, Debug)]
pub struct Project<'a> {
    /// The project root relative to the repository's top, `""` or ending
    /// in `/`.
    pub prefix: &'a str,
    /// Every oathPath.
    pub oaths: &'a [&'a str],
    /// Every step function.
    pub steps: &'a [StepFn],
}

/// What the changes select.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Decision {
    /// Everything runs, for this reason.
    Everything(String),
    /// These items.
    Picked(Picked),
}

/// The items `changes` select in `project`.
pub fn decide(changes: &[FileChange], project: Project<'_>, targets: &[Target]) -> Decision {
    let mut docs: BTreeMap<&str, Vec<(u32, u32)>> = BTreeMap::new();
    let mut steps: BTreeMap<usize, &str> = BTreeMap::new();
    for change in changes {
        let path = change.path();
        let shown = || terminal_line(&cut_to(path, 200)).into_owned();
        let in_project = |p: &str| p.strip_prefix(project.prefix).map(str::to_owned);
        let rel = in_project(path);
        let name = path.rsplit('/').next().unwrap_or(path);
        let markdown = |p: &Option<String>| {
            p.as_deref()
                .and_then(in_project)
                .is_some_and(|p| p.ends_with(".md"))
        };
        if change.old.is_some()
            && change.moved()
            && (markdown(&change.old) || markdown(&change.new))
        {
            return Decision::Everything(format!(
                "`{}` was deleted or renamed",
                terminal_line(&cut_to(change.old.as_deref().unwrap_or(""), 200))
            ));
        }
        if let Some(oath) = rel
            .as_deref()
            .and_then(|r| project.oaths.iter().find(|o| **o == r))
        {
            docs.entry(oath).or_default().extend(&change.hunks);
            continue;
        }
        if path.ends_with(".rs") || change.old.as_deref().is_some_and(|p| p.ends_with(".rs")) {
            if change.moved() {
                return Decision::Everything(format!(
                    "the Rust source `{}` was added, deleted or renamed",
                    shown()
                ));
            }
            for &(start, end) in &change.hunks {
                let hit: Vec<&StepFn> = project
                    .steps
                    .iter()
                    .filter(|s| s.file == path && s.start <= end && start <= s.end)
                    .collect();
                let inside = hit.iter().any(|s| s.start <= start && end <= s.end);
                if !inside {
                    return Decision::Everything(format!(
                        "`{}:{start}` changed outside any step function",
                        shown()
                    ));
                }
                for s in hit {
                    steps.insert(s.step, &s.name);
                }
            }
            continue;
        }
        let cargo = matches!(
            name,
            "Cargo.toml" | "Cargo.lock" | "rust-toolchain" | "rust-toolchain.toml"
        ) || path.contains(".cargo/config");
        let varar = rel.is_some() && matches!(name, "varar.config.json" | "varar.lock.json");
        if cargo || varar {
            return Decision::Everything(format!("`{}` changed", shown()));
        }
    }
    let mut picked = Picked::new();
    for (i, t) in targets.iter().enumerate() {
        let hunks_of = |path: &str| docs.get(path).map(Vec::as_slice).unwrap_or_default();
        let own = t.own.iter().any(|l| {
            hunks_of(&l.path)
                .iter()
                .any(|&(s, e)| l.meets(&l.path, s, e))
        });
        let linked = t.reaches.iter().find(|l| {
            hunks_of(&l.path)
                .iter()
                .any(|&(s, e)| l.meets(&l.path, s, e))
        });
        let step = t.steps.iter().find_map(|s| steps.get(s));
        let why = if own {
            Why::Paragraph
        } else if let Some(l) = linked {
            Why::Linked(l.path.clone())
        } else if let Some(name) = step {
            Why::Step((*name).to_owned())
        } else {
            continue;
        };
        picked.insert(i, why);
    }
    Decision::Picked(picked)
}

/// The names of the changed files, for a message (at most a few).
pub fn changed_files(changes: &[FileChange]) -> String {
    let names: BTreeSet<&str> = changes.iter().map(FileChange::path).collect();
    let shown: Vec<String> = names
        .iter()
        .take(5)
        .map(|n| format!("`{}`", terminal_line(&cut_to(n, 200))))
        .collect();
    let more = names.len().saturating_sub(5);
    if more > 0 {
        format!("{} and {more} more", shown.join(", "))
    } else {
        shown.join(", ")
    }
}

fn quote(line: &str) -> String {
    terminal_line(&cut_to(line, 200)).into_owned()
}
