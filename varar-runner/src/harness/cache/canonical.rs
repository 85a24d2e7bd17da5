//! The digest of the last lock text a run wrote or found on disk as it
//! writes it (`.varar/.cache/lock.canonical`): a run whose lock has that
//! digest knows its bytes to be canonical, and does not serialise the
//! lock again to learn that a run which changed no entry has nothing to
//! write (`varar_core::lock::reconcile`, issue 39). The key is the
//! digest itself, so a lock edited since is not taken as canonical.

use std::path::Path;

use varar_project::store;

/// The cache file, in `.varar/.cache/`.
const LOCK_CANONICAL_CACHE: &str = "lock.canonical";

/// The digest remembered, if the cache holds one: 64 lowercase hexadecimal
/// digits and a line feed, nothing else.
pub(in crate::harness) fn canonical_lock(root: &Path) -> Option<String> {
    // Read at most what a digest takes: the file may be anything.
    let bytes = store::read_cache(root, LOCK_CANONICAL_CACHE, 65)?;
    let digest = bytes.strip_suffix(b"\n")?;
    let hex = |b: &u8| b.is_ascii_digit() || (b'a'..=b'f').contains(b);
    (digest.len() == 64 && digest.iter().all(hex))
        .then(|| String::from_utf8(digest.to_vec()).ok())
        .flatten()
}

/// Remember `sha256` as the digest of a canonical lock text. Best effort.
pub(in crate::harness) fn remember_canonical_lock(root: &Path, sha256: &str) {
    if sha256.len() != 64 {
        return;
    }
    if let Ok(dir) = store::ensure_cache_dir(root) {
        let _ = store::write_disposable(
            &dir.join(LOCK_CANONICAL_CACHE),
            format!("{sha256}\n").as_bytes(),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_digest_remembered_reads_back_and_anything_else_is_none() {
        let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        let root = dir.path();
        assert_eq!(canonical_lock(root), None, "nothing yet");
        let sha = "0123456789abcdef".repeat(4);
        remember_canonical_lock(root, &sha);
        assert_eq!(canonical_lock(root).as_deref(), Some(sha.as_str()));
        let file = store::cache_dir(root).join(LOCK_CANONICAL_CACHE);
        for bad in [
            "0123456789ABCDEF".repeat(4) + "\n",
            "0123456789abcdef".repeat(4),
            "0123456789abcdef".repeat(4) + "\n\n",
            "0123456789abcdef".repeat(4) + "0\n",
            "g123456789abcdef".repeat(4) + "\n",
            String::new(),
        ] {
            std::fs::write(&file, &bad).unwrap_or_else(|e| panic!("{e}"));
            assert_eq!(canonical_lock(root), None, "{bad:?}");
        }
    }

    #[test]
    fn what_is_not_a_digest_is_not_remembered() {
        let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        let root = dir.path();
        remember_canonical_lock(root, "short");
        assert_eq!(canonical_lock(root), None, "not a digest: no write");
    }
}
