//! The baseline of a run and its reconciliation with what the run found
//! (spec 40 §4.5), and the notices the harness prints about it.

use std::collections::{BTreeMap, HashSet};

use crate::env::VARAR_UPDATE;
use crate::json::cmp_utf16;

use super::model::{LOCK_FILE_NAME, LOCK_VERSION, Lock, LockEntry};
use super::write::serialize_lock;

/// The baseline as found on disk at the start of a run.
#[derive(Clone, Debug, PartialEq)]
pub enum Baseline {
    /// No lock file: first run.
    Absent,
    /// A valid lock and what the bytes it was read from were.
    Present {
        /// The parsed lock.
        lock: Lock,
        /// The file's bytes, known by their length and digest, to skip
        /// writing identical content.
        bytes: LockBytes,
    },
    /// A lock of another version: fatal, or re-recorded under
    /// `VARAR_UPDATE` (issue 10).
    Unsupported {
        /// The version as written.
        version: String,
    },
}

/// What a lock file's bytes were, without holding them (a project's lock
/// is the largest file a run reads, and was held whole until the run
/// ended): their length and SHA-256, and whether they are known to be
/// what [`serialize_lock`] writes for the lock they hold.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LockBytes {
    len: usize,
    sha256: String,
    canonical: bool,
}

impl LockBytes {
    /// What `bytes` are (not known to be canonical).
    pub fn of(bytes: &[u8]) -> LockBytes {
        LockBytes {
            len: bytes.len(),
            sha256: crate::hash::sha256_hex(bytes),
            canonical: false,
        }
    }

    /// Whether `bytes` are these bytes (by length, then by digest).
    pub fn same(&self, bytes: &[u8]) -> bool {
        bytes.len() == self.len && crate::hash::sha256_hex(bytes) == self.sha256
    }

    /// How many bytes they are.
    pub fn byte_len(&self) -> u64 {
        self.len as u64
    }

    /// Whether bytes `len` long whose SHA-256 is `sha256` (lowercase
    /// hexadecimal) are these bytes: [`LockBytes::same`] for bytes hashed
    /// a chunk at a time, never held whole.
    pub fn same_digest(&self, len: u64, sha256: &str) -> bool {
        len == self.byte_len() && sha256 == self.sha256
    }

    /// Their SHA-256, in lowercase hexadecimal.
    pub fn sha256(&self) -> &str {
        &self.sha256
    }

    /// Take them as canonical when `sha256` is theirs: the digest of a
    /// text that [`serialize_lock`] wrote (a run's [`Reconciled::canonical`]).
    /// [`reconcile`] then need not serialise a lock that no record
    /// changed to find that nothing is to be written. A wrong digest
    /// claimed for them only leaves a lock formatted by hand as it is
    /// while nothing changes.
    pub fn know_canonical(&mut self, sha256: &str) {
        self.canonical |= self.sha256 == sha256;
    }

    /// Whether they are known to be canonical ([`LockBytes::know_canonical`]).
    pub fn known_canonical(&self) -> bool {
        self.canonical
    }
}

impl Baseline {
    /// The recorded entry of an oath, if there is a usable baseline.
    pub fn entry(&self, oath_path: &str) -> Option<&LockEntry> {
        match self {
            Baseline::Present { lock, .. } => lock.oaths.get(oath_path),
            _ => None,
        }
    }

    /// [`LockBytes::know_canonical`] of a present lock's bytes.
    pub fn know_canonical(&mut self, sha256: &str) {
        if let Baseline::Present { bytes, .. } = self {
            bytes.know_canonical(sha256);
        }
    }
}

/// What this run found for one discovered oath.
#[derive(Clone, Debug, PartialEq)]
pub struct OathRecord {
    /// The oath's path.
    pub oath_path: String,
    /// The fresh entry (§4.2); `None` when the oath could not be read, which
    /// leaves its baseline exactly as it was (§2.4).
    pub entry: Option<LockEntry>,
    /// Whether drift was detected against the baseline (§5).
    pub drifted: bool,
}

/// The result of reconciling a run with its baseline (§4.5).
#[derive(Clone, Debug, PartialEq)]
pub struct Reconciled {
    /// The next lock.
    pub lock: Lock,
    /// Its bytes (§4.3) when the file must be written or they were made
    /// to be compared with it; empty when the file was known to hold them
    /// already (canonical bytes of a lock no record changed).
    pub text: String,
    /// Whether the file must be written.
    pub write: bool,
    /// The SHA-256 of the lock's canonical text when the file holds it
    /// (nothing to write): what a later run may [`LockBytes::know_canonical`].
    pub canonical: Option<String>,
    /// Paths removed because the globs no longer match them (update mode).
    pub pruned: Vec<String>,
    /// Paths kept although the globs no longer match them (normal mode).
    pub stale: Vec<String>,
}

/// Reconcile (§4.5): refresh every oath without drift (all of them under
/// `update`), freeze drifted ones, prune or report entries the full
/// discovery (`discovered`, never a filtered subset) no longer contains, and
/// decide whether to write. The baseline's entries and the records' are
/// moved into the next lock, not copied: at a run's end they were all held
/// twice (issue 39).
pub fn reconcile(
    baseline: Baseline,
    records: Vec<OathRecord>,
    discovered: &[String],
    update: bool,
) -> Reconciled {
    let absent = matches!(baseline, Baseline::Absent);
    let (mut next, bytes) = match baseline {
        Baseline::Present { lock, bytes } => (lock.oaths, Some(bytes)),
        _ => (BTreeMap::new(), None),
    };
    // Whether the next lock differs from the baseline's: compared entry by
    // entry, which costs less than serialising it (issue 39).
    let mut changed = false;
    for record in records {
        let Some(entry) = record.entry else {
            continue;
        };
        if update || !record.drifted {
            changed |= next.get(&record.oath_path) != Some(&entry);
            next.insert(record.oath_path, entry);
        }
    }
    let discovered: HashSet<&str> = discovered.iter().map(String::as_str).collect();
    let mut unmatched: Vec<String> = next
        .keys()
        .filter(|k| !discovered.contains(k.as_str()))
        .cloned()
        .collect();
    unmatched.sort_by(|a, b| cmp_utf16(a, b));
    let (pruned, stale) = if update {
        for path in &unmatched {
            next.remove(path);
        }
        (unmatched, Vec::new())
    } else {
        (Vec::new(), unmatched)
    };
    changed |= !pruned.is_empty();
    let lock = Lock { oaths: next };
    if let Some(bytes) = &bytes
        && bytes.canonical
        && !changed
    {
        // The file holds the canonical text of this very lock.
        return Reconciled {
            lock,
            text: String::new(),
            write: false,
            canonical: Some(bytes.sha256.clone()),
            pruned,
            stale,
        };
    }
    let text = serialize_lock(&lock);
    let write = match &bytes {
        Some(bytes) => !bytes.same(text.as_bytes()),
        None if absent => !discovered.is_empty(),
        // Only under update does a run get this far with an unsupported
        // lock: the user consented to replacing it.
        None => update,
    };
    let canonical = match bytes {
        Some(bytes) if !write => Some(bytes.sha256),
        _ => None,
    };
    Reconciled {
        lock,
        text,
        write,
        canonical,
        pruned,
        stale,
    }
}

/// The baseline's oath paths that the full discovery (`discovered`) no
/// longer contains, in UTF-16 order: what [`reconcile`] reports as stale,
/// without building the next lock (§4.5 step 2).
pub fn stale_paths(baseline: &Baseline, discovered: &[String]) -> Vec<String> {
    let Baseline::Present { lock, .. } = baseline else {
        return Vec::new();
    };
    let discovered: HashSet<&str> = discovered.iter().map(String::as_str).collect();
    let mut stale: Vec<String> = lock
        .oaths
        .keys()
        .filter(|k| !discovered.contains(k.as_str()))
        .cloned()
        .collect();
    stale.sort_by(|a, b| cmp_utf16(a, b));
    stale
}

/// Notice for an entry pruned under update mode (§4.5 step 2).
pub fn pruned_notice(oath_path: &str) -> String {
    format!("varar: pruned {oath_path} from {LOCK_FILE_NAME} (no longer matched by docs globs)")
}

/// Notice for an entry kept although the globs no longer match it (§4.5).
pub fn stale_notice(oath_path: &str) -> String {
    format!(
        "varar: {LOCK_FILE_NAME} still lists {oath_path}, which the docs globs no longer match \
         — re-run with {VARAR_UPDATE}=1 to prune it"
    )
}

/// Why a run stops at a lock of another version (issue 10; spec 40 §4.4
/// warned instead); `path` is how the harness names the file.
pub fn unsupported_version_error(path: &str, version: &str) -> String {
    format!(
        "{path}: unsupported lock version {version}: this varar reads and writes version \
         {LOCK_VERSION}, so drift cannot be checked against it; re-record it with \
         {VARAR_UPDATE}=1 cargo test and commit it (or delete it)"
    )
}
