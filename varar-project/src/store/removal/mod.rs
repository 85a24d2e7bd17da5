//! Removing only what we wrote (STYLE §2.9, issue 34). Nothing here calls
//! `remove_dir_all`: a run directory (`.varar/.runs/<run>/`, a history's
//! `<run>/`) goes entry by entry, only the entries `varar_core::owned`
//! recognises (process records, orphaned temporaries), then the directory
//! itself with `remove_dir`, which fails on anything that appeared since;
//! a directory reached through a symbolic link, or holding anything else,
//! is left whole. And the sweep of killed writers' leftovers: our orphaned
//! temporaries anywhere under `.varar/`, once per run, never through a
//! symbolic link.
//!
//! Which temporary is an orphan is `varar_core::owned::is_orphan`: its
//! name carries its writer's process id, and it goes when that process no
//! longer runs and it was last modified before this run began (or when it
//! is ten minutes old, whatever its name). A concurrent process's
//! temporary, a nextest sibling's or a concurrent `cargo test`'s, is never
//! removed while it runs.

use std::fs::{FileType, Metadata};
use std::path::Path;
use std::time::{SystemTime, UNIX_EPOCH};

use varar_core::owned::{EntryKind, RunEntry, is_orphan, is_temporary, run_entry};

/// When the run that removes leftovers began: temporaries of dead
/// processes last modified before then are orphans.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Orphans {
    since_ms: u64,
}

impl Orphans {
    /// For a run that began at `started`.
    pub fn since(started: SystemTime) -> Orphans {
        Orphans {
            since_ms: millis(started),
        }
    }

    /// For a run that began `started_ms` milliseconds after the epoch.
    pub fn since_ms(started_ms: u64) -> Orphans {
        Orphans {
            since_ms: started_ms,
        }
    }

    /// Whether the entry `name` (`meta`, not followed) is an orphaned
    /// temporary of ours at `now`.
    pub(super) fn orphan(&self, name: &str, meta: &Metadata, now: SystemTime) -> bool {
        let modified = meta.modified().map_or(u64::MAX, millis);
        meta.is_file() && is_orphan(name, modified, self.since_ms, millis(now), running)
    }
}

/// Whether the process `pid` runs (or may: anything but "no such
/// process" says it does, so that its temporaries are kept).
fn running(pid: u32) -> bool {
    #[cfg(unix)]
    {
        let Some(pid) = i32::try_from(pid)
            .ok()
            .and_then(rustix::process::Pid::from_raw)
        else {
            return true;
        };
        !matches!(
            rustix::process::test_kill_process(pid),
            Err(rustix::io::Errno::SRCH)
        )
    }
    #[cfg(not(unix))]
    {
        // No cheap portable answer: only the age rule removes them.
        let _ = pid;
        true
    }
}

/// Milliseconds since the epoch.
pub(super) fn millis(t: SystemTime) -> u64 {
    t.duration_since(UNIX_EPOCH)
        .map_or(0, |d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX))
}

/// The kind of an entry, its symbolic link not followed.
pub(super) fn kind_of(t: FileType) -> EntryKind {
    if t.is_symlink() {
        EntryKind::Symlink
    } else if t.is_dir() {
        EntryKind::Dir
    } else if t.is_file() {
        EntryKind::File
    } else {
        EntryKind::Other
    }
}

/// Whether `path` is a directory itself, not a symbolic link to one.
pub(super) fn is_real_dir(path: &Path) -> bool {
    std::fs::symlink_metadata(path).is_ok_and(|m| m.is_dir())
}

/// Remove the run directory `dir` if it holds only what we write there:
/// its records and orphaned temporaries are removed, then the directory.
/// Returns whether it is gone. A link, a directory holding anything else
/// (a live process's temporary included), or one that cannot be listed, is
/// left whole.
pub fn remove_run_dir(dir: &Path, orphans: &Orphans) -> bool {
    if !is_real_dir(dir) {
        return false;
    }
    let Ok(listing) = std::fs::read_dir(dir) else {
        return false;
    };
    let now = SystemTime::now();
    let mut ours = Vec::new();
    for entry in listing {
        let Ok(entry) = entry else { return false };
        let (Ok(kind), Some(name)) = (
            entry.file_type(),
            entry.file_name().to_str().map(str::to_owned),
        ) else {
            return false;
        };
        let removable = match run_entry(&name, kind_of(kind)) {
            RunEntry::Record => true,
            RunEntry::Temporary => entry
                .metadata()
                .is_ok_and(|m| orphans.orphan(&name, &m, now)),
            RunEntry::Foreign => false,
        };
        if !removable {
            return false;
        }
        ours.push(entry.path());
    }
    for path in ours {
        match std::fs::remove_file(&path) {
            Err(e) if e.kind() != std::io::ErrorKind::NotFound => return false,
            _ => {}
        }
    }
    std::fs::remove_dir(dir).is_ok()
}

/// Remove the orphaned temporaries of `dir`'s own entries (not its
/// subdirectories'). Best effort; returns how many went.
pub(super) fn remove_orphans_in(dir: &Path, orphans: &Orphans, now: SystemTime) -> usize {
    let Ok(listing) = std::fs::read_dir(dir) else {
        return 0;
    };
    let mut removed = 0;
    for entry in listing.flatten() {
        let name = entry.file_name();
        let Some(name) = name.to_str().filter(|n| is_temporary(n)) else {
            continue;
        };
        // Only our temporaries are looked at: no `stat` per result file.
        let orphan = entry
            .metadata()
            .is_ok_and(|m| orphans.orphan(name, &m, now));
        if orphan && std::fs::remove_file(entry.path()).is_ok() {
            removed += 1;
        }
    }
    removed
}

/// Remove the orphaned temporaries anywhere under `dir` (never through a
/// symbolic link: links are not followed, and a `dir` that is one is left
/// alone). Best effort; returns how many went.
pub(super) fn remove_orphans_under(dir: &Path, orphans: &Orphans) -> usize {
    if !is_real_dir(dir) {
        return 0;
    }
    let now = SystemTime::now();
    let walk = walkdir::WalkDir::new(dir)
        .follow_links(false)
        .follow_root_links(false)
        .min_depth(1);
    let mut removed = 0;
    for entry in walk.into_iter().flatten() {
        let Some(name) = entry.file_name().to_str().filter(|n| is_temporary(n)) else {
            continue;
        };
        let orphan = entry.file_type().is_file()
            && entry
                .metadata()
                .is_ok_and(|m| orphans.orphan(name, &m, now));
        if orphan && std::fs::remove_file(entry.path()).is_ok() {
            removed += 1;
        }
    }
    removed
}

#[cfg(test)]
mod tests;
