//! Which oaths hold no link, by their file's stamp (`.varar/.cache/links`):
//! what lets the process of one example (every `cargo nextest` test of an
//! example) leave unread the oaths that cannot matter to it.
//!
//! Planning one oath needs only what other documents link to (spec 70
//! §70.2.2) and the documents it reaches. An oath without `](` links to
//! nothing, so unless something links to it, its text changes nothing in
//! another oath's plan. A run that read an oath writes its size,
//! modification time, inode and whether it may link; a later example
//! process that finds the same stamp on a linkless oath does not read it.
//! Only an oath whose stamp vouches for the text read is recorded
//! (`stamp.rs`).

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use super::stamp::Stamp;
use varar_project::discovery::OathFile;
use varar_project::store;

/// The index's file, in `.varar/.cache/`.
const INDEX_FILE: &str = "links";

/// The first line of the file.
const HEADER: &str = "varar link index 1";

/// Per oathPath: the stamp its text was read with, and whether that text
/// may hold a link.
#[derive(Debug, Default)]
pub(in crate::harness) struct LinkIndex {
    entries: BTreeMap<String, (Stamp, bool)>,
    /// Whether the entries differ from the file's.
    changed: bool,
}

impl PartialEq for LinkIndex {
    fn eq(&self, other: &Self) -> bool {
        self.entries == other.entries
    }
}

impl LinkIndex {
    /// The project's index; empty when there is none or it cannot be read
    /// (then every oath is read, as without one).
    pub(in crate::harness) fn load(root: &Path) -> LinkIndex {
        store::read_cache(root, INDEX_FILE, super::TEXT_LIMIT)
            .and_then(|bytes| String::from_utf8(bytes).ok())
            .map(|text| LinkIndex::parse(&text))
            .unwrap_or_default()
    }

    fn parse(text: &str) -> LinkIndex {
        let mut lines = text.lines();
        if lines.next() != Some(HEADER) {
            return LinkIndex::default();
        }
        let entries = lines
            .filter_map(|line| {
                // `<size> <mtime> <inode> <0|1> <oathPath>`
                let (stamp, rest) = Stamp::parse_prefix(line)?;
                let (links, path) = match rest?.as_bytes() {
                    [b'0', b' ', ..] => (false, &rest?[2..]),
                    [b'1', b' ', ..] => (true, &rest?[2..]),
                    _ => return None,
                };
                Some((path.to_owned(), (stamp, links)))
            })
            .collect();
        LinkIndex {
            entries,
            changed: false,
        }
    }

    /// Whether the oath at `oath_path`, whose file is at `file`, is known
    /// to hold no link: its entry says so and the file still has the
    /// entry's stamp (one `stat`).
    pub(in crate::harness) fn is_linkless(&self, oath_path: &str, file: &Path) -> bool {
        let Some(&(stamp, false)) = self.entries.get(oath_path) else {
            return false;
        };
        Stamp::of_file(file) == Some(stamp)
    }

    /// Record `oath_path` as read with `stamp`, linking or not; without a
    /// stamp to trust (or text), it has no entry.
    pub(in crate::harness) fn record(&mut self, oath_path: &str, read: Option<(Stamp, bool)>) {
        let old = match read {
            Some(entry) => self.entries.insert(oath_path.to_owned(), entry),
            None => self.entries.remove(oath_path),
        };
        self.changed |= old != read;
    }

    /// Keep only the entries of the oaths discovered now, `oaths`. With
    /// nothing recorded anew and no more entries than oaths, there is
    /// nothing to drop worth a write (an entry for a path no longer there
    /// matches nothing).
    pub(in crate::harness) fn retain_discovered(&mut self, oaths: &[OathFile]) {
        if !self.changed && self.entries.len() <= oaths.len() {
            return;
        }
        let discovered: BTreeSet<&str> = oaths.iter().map(|o| o.oath_path.as_str()).collect();
        let before = self.entries.len();
        self.entries
            .retain(|path, _| discovered.contains(path.as_str()));
        self.changed |= self.entries.len() != before;
    }

    /// Write the index to `.varar/.cache/` if its entries changed since it was
    /// loaded. Best effort: without it, every oath is read.
    pub(in crate::harness) fn save(&self, root: &Path) {
        if !self.changed {
            return;
        }
        let Ok(dir) = store::ensure_cache_dir(root) else {
            return;
        };
        let mut text = String::with_capacity(64 * (self.entries.len() + 1));
        text.push_str(HEADER);
        text.push('\n');
        for (path, (stamp, links)) in &self.entries {
            // A path with a line break cannot be a line: it is always read.
            if path.contains(['\n', '\r']) {
                continue;
            }
            let links = if *links { 1 } else { 0 };
            text.push_str(&format!("{stamp} {links} {path}\n"));
        }
        let _ = store::write_disposable(&dir.join(INDEX_FILE), text.as_bytes());
    }
}

#[cfg(test)]
mod tests {
    use std::time::{Duration, SystemTime};

    use super::*;

    fn ok<T, E: std::fmt::Display>(r: Result<T, E>) -> T {
        r.unwrap_or_else(|e| panic!("{e}"))
    }

    fn settled_file(dir: &Path, name: &str, text: &str) -> (std::path::PathBuf, Stamp) {
        let path = dir.join(name);
        ok(std::fs::write(&path, text));
        let long_ago = SystemTime::now() - Duration::from_secs(60);
        ok(ok(std::fs::File::options().write(true).open(&path)).set_modified(long_ago));
        let meta = ok(std::fs::metadata(&path));
        let stamp = Stamp::settled(&meta, SystemTime::now());
        (path, stamp.unwrap_or_else(|| panic!("settled")))
    }

    #[test]
    fn a_linkless_oath_is_known_by_its_stamp_until_the_file_changes() {
        let dir = ok(tempfile::tempdir());
        let (plain, plain_stamp) = settled_file(dir.path(), "a.md", "# A\n\nI add 2.\n");
        let (linking, linking_stamp) = settled_file(dir.path(), "b.md", "[A](a.md)\n");
        let mut index = LinkIndex::default();
        index.record("varar/a b.md", Some((plain_stamp, false)));
        index.record("varar/b.md", Some((linking_stamp, true)));
        index.save(dir.path());
        let loaded = LinkIndex::load(dir.path());
        assert_eq!(loaded, index, "a path with a space survives the round trip");
        assert!(loaded.is_linkless("varar/a b.md", &plain));
        assert!(!loaded.is_linkless("varar/b.md", &linking), "it may link");
        assert!(!loaded.is_linkless("varar/c.md", &plain), "no entry");
        // An edit gives another stamp: the oath is read again.
        ok(std::fs::write(&plain, "# A\n\n[B](b.md)\n"));
        assert!(!loaded.is_linkless("varar/a b.md", &plain));
        assert!(!loaded.is_linkless("varar/a b.md", &dir.path().join("gone.md")));
    }

    #[test]
    fn another_format_or_a_broken_line_is_no_entry() {
        assert_eq!(
            LinkIndex::parse("varar link index 2\n1 2 3 0 a.md\n"),
            LinkIndex::default()
        );
        let index =
            LinkIndex::parse("varar link index 1\n1 2 3 0 a.md\nx 2 3 0 b.md\n1 2 3 7 c.md\n");
        assert_eq!(index.entries.len(), 1);
        assert!(index.entries.contains_key("a.md"));
    }
}
