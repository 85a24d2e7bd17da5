//! What varar recognises as its own on disk (STYLE §2.9 "delete only what
//! you wrote", issue 34): the temporary files its atomic writer leaves
//! behind only when it is killed, the entries of a run directory
//! (`.varar/.runs/<run>/`, a history's `<run>/`), and when a temporary is
//! an orphan that a later process may remove. Nothing else is ever removed:
//! a run directory holding anything these do not recognise is left whole.
//!
//! Pure: the shell lists directories (symbolic links not followed), reads
//! the clock and asks whether a process is running; this decides.

/// The name every temporary file of ours starts with.
pub const TEMP_PREFIX: &str = ".varar-tmp-";

/// How old (in milliseconds) a temporary of ours must be before any
/// process removes it whatever its name says: far longer than any write
/// takes, so that only orphans qualify, a temporary without a process id
/// in its name (an earlier version's) included.
pub const STALE_TEMPORARY_MS: u64 = 10 * 60 * 1000;

/// The start of the name of a temporary that process `pid` writes:
/// [`TEMP_PREFIX`], the process id and a `-`. A later process learns from
/// it whether the writer still runs (see [`is_orphan`]).
///
/// ```
/// use varar_core::owned::{temporary_prefix, temporary_writer};
/// let name = format!("{}a1B2c3", temporary_prefix(4242));
/// assert_eq!(name, ".varar-tmp-4242-a1B2c3");
/// assert_eq!(temporary_writer(&name), Some(4242));
/// ```
pub fn temporary_prefix(pid: u32) -> String {
    format!("{TEMP_PREFIX}{pid}-")
}

/// Whether `name` is one of our temporaries' names.
pub fn is_temporary(name: &str) -> bool {
    name.starts_with(TEMP_PREFIX)
}

/// The process that writes the temporary `name`, when its name says (see
/// [`temporary_prefix`]); `None` for another name, or a temporary of an
/// earlier version, whose random tail holds no `-`.
pub fn temporary_writer(name: &str) -> Option<u32> {
    let rest = name.strip_prefix(TEMP_PREFIX)?;
    let (pid, _) = rest.split_once('-')?;
    if pid.is_empty() || !pid.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    pid.parse().ok().filter(|&pid| pid > 0)
}

/// Whether the temporary `name`, last modified at `modified_ms`, is an
/// orphan at `now_ms` that a run which started at `since_ms` may remove:
///
/// - its name names its writer (see [`temporary_prefix`]), that process is
///   not running (`running`, asked only then), and it was last modified
///   before `since_ms`: a process that died before this run began cannot
///   still be writing it, and a live process's temporary is never touched,
///   this run's own included;
/// - or it is older than [`STALE_TEMPORARY_MS`], whatever its name: a
///   process id reused by a live process, or a temporary written by an
///   earlier version, goes then.
///
/// Names that are not ours are never orphans.
pub fn is_orphan(
    name: &str,
    modified_ms: u64,
    since_ms: u64,
    now_ms: u64,
    running: impl FnOnce(u32) -> bool,
) -> bool {
    if !is_temporary(name) {
        return false;
    }
    if now_ms.saturating_sub(modified_ms) > STALE_TEMPORARY_MS {
        return true;
    }
    match temporary_writer(name) {
        Some(pid) => modified_ms < since_ms && !running(pid),
        None => false,
    }
}

/// The kind of a directory entry, as a listing shows it: a symbolic link
/// is a link, never what it points at.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EntryKind {
    /// A regular file.
    File,
    /// A directory.
    Dir,
    /// A symbolic link.
    Symlink,
    /// Anything else (a socket, a fifo, a device).
    Other,
}

/// What an entry of a run directory is to us.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RunEntry {
    /// A process record: a regular file `<process id>.run`.
    Record,
    /// One of our temporaries (a regular file): removable when it is an
    /// orphan ([`is_orphan`]).
    Temporary,
    /// Anything else: the directory is not ours to remove.
    Foreign,
}

/// What the entry `name` of kind `kind` of a run directory is. A record's
/// name is a process id made a file name (never starting with a dot),
/// then `.run`.
pub fn run_entry(name: &str, kind: EntryKind) -> RunEntry {
    if kind != EntryKind::File {
        return RunEntry::Foreign;
    }
    if is_temporary(name) {
        return RunEntry::Temporary;
    }
    match name.strip_suffix(".run") {
        Some(stem) if is_id_name(stem) => RunEntry::Record,
        _ => RunEntry::Foreign,
    }
}

/// Whether `name` is a name varar gives a run's directory or a record's
/// stem: a run or process id made a file name (`[A-Za-z0-9._-]`, not
/// starting with a dot, never empty).
pub fn is_id_name(name: &str) -> bool {
    !name.is_empty()
        && !name.starts_with('.')
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'_' | b'-'))
}

/// Whether a directory named `name` of kind `kind`, whose entries are
/// `entries`, is a run directory we wrote: a real directory of an id's
/// name that holds only records and temporaries.
pub fn is_run_dir<'a>(
    name: &str,
    kind: EntryKind,
    mut entries: impl Iterator<Item = (&'a str, EntryKind)>,
) -> bool {
    kind == EntryKind::Dir
        && is_id_name(name)
        && entries.all(|(name, kind)| run_entry(name, kind) != RunEntry::Foreign)
}

#[cfg(test)]
mod tests {
    use super::*;

    const MIN: u64 = 60 * 1000;

    #[test]
    fn a_temporary_names_its_writer_only_in_our_own_form() {
        assert_eq!(temporary_writer(".varar-tmp-12-abc"), Some(12));
        assert_eq!(temporary_writer(".varar-tmp-12-7-p.link"), Some(12));
        for name in [
            ".varar-tmp-Epja9I",
            ".varar-tmp-123456",
            ".varar-tmp--abc",
            ".varar-tmp-0-abc",
            ".varar-tmp-1x-abc",
            ".varar-tmp-99999999999-abc",
            ".other-tmp-12-abc",
            "12-abc",
        ] {
            assert_eq!(temporary_writer(name), None, "{name}");
        }
    }

    #[test]
    fn a_dead_writers_temporary_from_before_the_run_is_an_orphan_a_live_ones_is_not() {
        let (since, now) = (100 * MIN, 100 * MIN + 5);
        let dead = |_| false;
        let alive = |_| true;
        let name = ".varar-tmp-77-abc";
        assert!(is_orphan(name, since - 1, since, now, dead));
        assert!(
            !is_orphan(name, since - 1, since, now, alive),
            "still running"
        );
        assert!(
            !is_orphan(name, since, since, now, dead),
            "written since the run began: maybe by another machine's process"
        );
        // Ten minutes old: whatever the name says.
        let old = now - STALE_TEMPORARY_MS - 1;
        assert!(is_orphan(name, old, since, now, alive));
        assert!(is_orphan(".varar-tmp-Epja9I", old, since, now, alive));
        assert!(!is_orphan(".varar-tmp-Epja9I", since - 1, since, now, dead));
        assert!(!is_orphan("results.json", 0, since, now, dead), "not ours");
    }

    #[test]
    fn a_run_directory_is_ours_only_when_it_holds_records_and_temporaries() {
        use EntryKind::{Dir, File, Symlink};
        assert_eq!(run_entry("1-2-3.run", File), RunEntry::Record);
        assert_eq!(run_entry(".varar-tmp-1-x", File), RunEntry::Temporary);
        for (name, kind) in [
            ("1-2-3.run", Symlink),
            ("1-2-3.run", Dir),
            (".hidden.run", File),
            ("notes.txt", File),
            (".varar-tmp-1-x", Dir),
            (".run", File),
        ] {
            assert_eq!(run_entry(name, kind), RunEntry::Foreign, "{name}");
        }
        let ours = [("p.run", File), (".varar-tmp-9-a", File)];
        assert!(is_run_dir("varar-1-ab", Dir, ours.into_iter()));
        assert!(is_run_dir("nextest_1", Dir, std::iter::empty()));
        assert!(!is_run_dir("varar-1-ab", Symlink, std::iter::empty()));
        assert!(!is_run_dir(".git", Dir, std::iter::empty()));
        assert!(!is_run_dir("my photos", Dir, std::iter::empty()));
        let mixed = [("p.run", File), ("taxes.pdf", File)];
        assert!(!is_run_dir("src", Dir, mixed.into_iter()));
    }
}
