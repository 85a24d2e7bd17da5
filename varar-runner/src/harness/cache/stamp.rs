//! A file's stamp: its size, modification time and inode. What lets a
//! process trust what an earlier one learnt of a file's bytes (their
//! digest, whether they may link) without reading them: a file that keeps
//! its stamp kept its bytes, provided it was last modified at least
//! [`SETTLED`] before they were read. A rewrite of the same size within
//! one timestamp tick of the file system would keep the stamp; a later one
//! never does, and a file renamed into place (an atomic write, `cp -p`) is
//! another inode.

use std::fmt;
use std::path::Path;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

/// How long before its bytes were read a file must have been last
/// modified for its stamp to vouch for them (far longer than any file
/// system's timestamp granularity).
pub(in crate::harness) const SETTLED: Duration = Duration::from_secs(2);

/// A file's size, modification time (ns since the epoch) and inode (0
/// where there is none).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(in crate::harness) struct Stamp {
    len: u64,
    modified_ns: u128,
    inode: u64,
}

impl Stamp {
    /// The stamp of a file's metadata (none without a modification time).
    pub(in crate::harness) fn of(meta: &std::fs::Metadata) -> Option<Stamp> {
        let modified_ns = meta
            .modified()
            .ok()?
            .duration_since(UNIX_EPOCH)
            .ok()?
            .as_nanos();
        #[cfg(unix)]
        let inode = std::os::unix::fs::MetadataExt::ino(meta);
        #[cfg(not(unix))]
        let inode = 0;
        Some(Stamp {
            len: meta.len(),
            modified_ns,
            inode,
        })
    }

    /// The stamp of the file at `path` (symbolic links followed).
    pub(in crate::harness) fn of_file(path: &Path) -> Option<Stamp> {
        Stamp::of(&std::fs::metadata(path).ok()?)
    }

    /// The stamp of the directory at `path`, by its status change time
    /// where there is one: an entry added, removed or renamed changes it,
    /// and so does a change of permissions (which could make it
    /// unlistable), which its modification time would not show.
    pub(in crate::harness) fn of_dir(path: &Path) -> Option<Stamp> {
        let meta = std::fs::metadata(path).ok()?;
        #[cfg(unix)]
        {
            use std::os::unix::fs::MetadataExt as _;
            let secs = u128::try_from(meta.ctime()).ok()?;
            let nanos = u128::try_from(meta.ctime_nsec()).ok()?;
            Some(Stamp {
                len: 0,
                modified_ns: secs * 1_000_000_000 + nanos,
                inode: meta.ino(),
            })
        }
        #[cfg(not(unix))]
        Stamp::of(&meta)
    }

    /// The stamp of `meta` if it vouches for bytes read at `read_at`.
    pub(in crate::harness) fn settled(
        meta: &std::fs::Metadata,
        read_at: SystemTime,
    ) -> Option<Stamp> {
        Stamp::of(meta).filter(|s| s.settled_at(read_at))
    }

    /// Whether the file was last modified at least [`SETTLED`] before
    /// `at`.
    pub(in crate::harness) fn settled_at(&self, at: SystemTime) -> bool {
        at.duration_since(UNIX_EPOCH)
            .is_ok_and(|now| now.as_nanos().saturating_sub(self.modified_ns) >= SETTLED.as_nanos())
    }

    /// A stamp written by [`Stamp`]'s `Display`: three numbers.
    pub(in crate::harness) fn parse(text: &str) -> Option<Stamp> {
        match Stamp::parse_prefix(text)? {
            (stamp, None) => Some(stamp),
            (_, Some(_)) => None,
        }
    }

    /// The stamp `line` starts with, and what follows it after a space, if
    /// anything does (a cache's line: a stamp, then what it vouches for).
    /// A plain loop over bytes: the caches hold a line per oath, read by
    /// every nextest process, in unoptimised builds too.
    pub(in crate::harness) fn parse_prefix(line: &str) -> Option<(Stamp, Option<&str>)> {
        let bytes = line.as_bytes();
        let mut at = 0;
        let mut numbers = [0u64; 3];
        for (i, n) in numbers.iter_mut().enumerate() {
            if i > 0 {
                if bytes.get(at) != Some(&b' ') {
                    return None;
                }
                at += 1;
            }
            let start = at;
            while at < bytes.len() && bytes[at].is_ascii_digit() {
                *n = n.wrapping_mul(10).wrapping_add(u64::from(bytes[at] - b'0'));
                at += 1;
            }
            // Up to 19 digits cannot overflow (nanoseconds since the epoch
            // have 19 until the year 2286); more is no stamp written here.
            if at == start || at - start > 19 {
                return None;
            }
        }
        let [len, modified_ns, inode] = numbers;
        let stamp = Stamp {
            len,
            modified_ns: u128::from(modified_ns),
            inode,
        };
        match bytes.get(at) {
            None => Some((stamp, None)),
            // A space is one byte: what follows starts a character.
            Some(b' ') => Some((stamp, Some(&line[at + 1..]))),
            Some(_) => None,
        }
    }
}

impl fmt::Display for Stamp {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {} {}", self.len, self.modified_ns, self.inode)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_stamp_reads_back_and_settles_after_its_time() {
        let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        let path = dir.path().join("a");
        std::fs::write(&path, "abc").unwrap_or_else(|e| panic!("{e}"));
        let stamp = Stamp::of_file(&path).unwrap_or_else(|| panic!("a stamp"));
        assert_eq!(Stamp::parse(&stamp.to_string()), Some(stamp));
        assert_eq!(Stamp::parse("1 2"), None);
        assert_eq!(Stamp::parse("1 2 3 4"), None);
        assert_eq!(Stamp::parse("1 x 3"), None);
        assert_eq!(Stamp::parse("1 2 3 "), None);
        assert_eq!(Stamp::parse(" 1 2 3"), None);
        assert_eq!(Stamp::parse("1  2 3"), None);
        assert_eq!(Stamp::parse("99999999999999999999 2 3"), None, "20 digits");
        let line = format!("{stamp} 0 varar/a b.md");
        assert_eq!(
            Stamp::parse_prefix(&line),
            Some((stamp, Some("0 varar/a b.md")))
        );
        assert_eq!(Stamp::parse_prefix("1 2 3x"), None);
        let now = SystemTime::now();
        assert!(!stamp.settled_at(now), "just written");
        assert!(stamp.settled_at(now + SETTLED));
        std::fs::write(&path, "abd").unwrap_or_else(|e| panic!("{e}"));
        let later = SystemTime::now() + Duration::from_secs(1);
        let file = std::fs::File::options()
            .write(true)
            .open(&path)
            .unwrap_or_else(|e| panic!("{e}"));
        file.set_modified(later).unwrap_or_else(|e| panic!("{e}"));
        assert_ne!(
            Stamp::of_file(&path),
            Some(stamp),
            "a new modification time"
        );
    }
}
