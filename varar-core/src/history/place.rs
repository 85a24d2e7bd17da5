//! Where the run history may be (issue 34, STYLE §2.9): pruning deletes,
//! so the history is a directory varar made and marked. [`judge_history`]
//! decides, from what the shell saw at the place (symbolic links not
//! followed), whether a run creates, uses or adopts it, or refuses it with
//! a reason the warning gives.

use std::path::Path;

use crate::owned::{EntryKind, is_run_dir, is_temporary};

/// The file that marks a directory as a history varar made: pruning
/// removes runs only in a directory that holds it (a regular file).
pub const HISTORY_MARKER: &str = ".varar-history";

/// What the marker says to whoever finds it.
pub const MARKER_TEXT: &str = "This directory is varar's run history (VARAR_HISTORY). varar \
     removes the runs it wrote here beyond its limits\n(VARAR_HISTORY_RUNS, VARAR_HISTORY_SIZE, \
     VARAR_HISTORY_DAYS) and nothing else.\n";

/// Where the history's place came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HistoryOrigin {
    /// `<target>/varar/history`, where every version of varar kept it.
    Default,
    /// `VARAR_HISTORY`.
    Named,
}

/// A directory the history must never be, nor be a parent of, nor be
/// inside (for `.varar/`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Clash {
    /// The project's directory, or a parent of it.
    ProjectRoot,
    /// Cargo's target directory, or a parent of it.
    TargetDir,
    /// Inside the project's `.varar/`, whose runs each run replaces.
    Scratch,
}

/// Which of the guarded directories `place` clashes with: `place`, `root`,
/// `target` and `scratch` (the project's `.varar/`) as the shell resolved
/// them (symbolic links of their parents followed, so that `..` and links
/// cannot hide a parent).
pub fn clash(place: &Path, root: &Path, target: &Path, scratch: &Path) -> Option<Clash> {
    if root.starts_with(place) {
        Some(Clash::ProjectRoot)
    } else if target.starts_with(place) {
        Some(Clash::TargetDir)
    } else if place.starts_with(scratch) {
        Some(Clash::Scratch)
    } else {
        None
    }
}

/// An entry of an unmarked directory at the history's place.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SeenEntry {
    /// Its name (`None` when it is not UTF-8: never one of ours).
    pub name: Option<String>,
    /// Its kind.
    pub kind: EntryKind,
    /// A directory's entries, when the shell listed them (at the default
    /// place only, to recognise an earlier version's history).
    pub entries: Option<Vec<(String, EntryKind)>>,
}

/// What the shell saw at the history's place (its last component's
/// symbolic link not followed).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum HistorySeen {
    /// Nothing there.
    Missing,
    /// A symbolic link.
    Symlink,
    /// A file, or anything but a directory.
    NotADirectory,
    /// A directory holding our marker.
    Marked,
    /// A directory without our marker, and what it holds.
    Unmarked(Vec<SeenEntry>),
}

/// What a run does with the history's place.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HistoryUse {
    /// Create the directory, with its marker.
    Create,
    /// Use it as it is: it is marked.
    Use,
    /// Mark it, then use it: it is empty, or an earlier version's history.
    Adopt,
}

/// Why a run leaves the history's place alone.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum HistoryRefusal {
    /// It is, or holds, a directory it must not (see [`Clash`]).
    #[error("{}", match .0 {
        Clash::ProjectRoot => "it is the project's directory or a parent of it",
        Clash::TargetDir => "it is cargo's target directory or a parent of it",
        Clash::Scratch => "it is inside the project's `.varar/`, which every run replaces",
    })]
    Clash(Clash),
    /// A symbolic link: pruning never follows one.
    #[error("it is a symbolic link (varar prunes only a directory it made, never through a link)")]
    Symlink,
    /// Not a directory.
    #[error("it is not a directory")]
    NotADirectory,
    /// A directory varar did not mark, holding something.
    #[error(
        "it holds {} and no `{HISTORY_MARKER}` marker: varar did not make it, and prunes only \
         what it made",
        shown(.entry)
    )]
    Foreign {
        /// The first entry that is not ours, or not ours to adopt.
        entry: Option<String>,
    },
}

fn shown(entry: &Option<String>) -> String {
    match entry {
        // Debug quoting escapes what a terminal would act on.
        Some(name) => format!("{name:?}"),
        None => "a name that is not UTF-8".to_owned(),
    }
}

/// What a run does with the history's place: where it came from
/// (`origin`), the directory it clashes with, if any (see [`clash`]), and
/// what is there.
pub fn judge_history(
    origin: HistoryOrigin,
    clashes: Option<Clash>,
    seen: &HistorySeen,
) -> Result<HistoryUse, HistoryRefusal> {
    // A link is refused as a link: what it points at is not looked at.
    if let Some(clash) = clashes.filter(|_| *seen != HistorySeen::Symlink) {
        return Err(HistoryRefusal::Clash(clash));
    }
    let entries = match seen {
        HistorySeen::Missing => return Ok(HistoryUse::Create),
        HistorySeen::Symlink => return Err(HistoryRefusal::Symlink),
        HistorySeen::NotADirectory => return Err(HistoryRefusal::NotADirectory),
        HistorySeen::Marked => return Ok(HistoryUse::Use),
        HistorySeen::Unmarked(entries) => entries,
    };
    // Our own temporaries (a concurrent process's marker, say) are not
    // content.
    let mut content = entries
        .iter()
        .filter(|e| !(e.kind == EntryKind::File && e.name.as_deref().is_some_and(is_temporary)));
    let foreign = match origin {
        HistoryOrigin::Named => content.next(),
        HistoryOrigin::Default => content.find(|e| !earlier_run(e)),
    };
    match foreign {
        None => Ok(HistoryUse::Adopt),
        Some(e) => Err(HistoryRefusal::Foreign {
            entry: e.name.clone(),
        }),
    }
}

/// Whether `entry` is a run directory an earlier version wrote.
fn earlier_run(entry: &SeenEntry) -> bool {
    match (&entry.name, &entry.entries) {
        (Some(name), Some(entries)) => is_run_dir(
            name,
            entry.kind,
            entries.iter().map(|(n, k)| (n.as_str(), *k)),
        ),
        _ => false,
    }
}
