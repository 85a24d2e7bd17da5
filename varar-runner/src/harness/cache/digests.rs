//! The digests a run record's manifest names its inputs by (seed 002,
//! issue 19): the lock before and after, every document read and the test
//! binary, each hashed as it is on disk (large files a chunk at a time).
//! The config's is taken from the bytes the run read
//! (`varar_project::Project::config_sha256`).

use std::path::Path;
use std::sync::OnceLock;
use std::time::SystemTime;

use varar_core::hash::Sha256;
use varar_core::record::FileDigest;

use super::stamp::Stamp;
use varar_core::lock::LOCK_FILE_NAME;
use varar_project::store;

/// The SHA-256 of the file at `path`, read a chunk at a time: a test
/// binary of tens of megabytes is never held whole.
fn sha256_of_file(path: &Path) -> Option<String> {
    use std::io::Read as _;
    let mut file = varar_project::files::open(path).ok()?;
    let mut hasher = Sha256::new();
    let mut chunk = vec![0; 1 << 16];
    loop {
        match file.read(&mut chunk) {
            Ok(0) => return Some(hasher.finish_hex()),
            Ok(n) => hasher.update(&chunk[..n]),
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(_) => return None,
        }
    }
}

/// The test binary's digest, cached beside it (`<binary>.varar-sha256`)
/// so that the processes of a nextest run hash it once per build. The
/// linker writes a binary once, so its cache is kept from the first hash;
/// a process asks once (its record and its plan cache both name it), and
/// waits for it if [`hash_binary_aside`] is hashing it.
pub(in crate::harness) fn binary_digest() -> Option<FileDigest> {
    BINARY.get_or_init(read_binary_digest).clone()
}

/// The test binary's digest, once known: what [`binary_digest`] gives.
static BINARY: OnceLock<Option<FileDigest>> = OnceLock::new();

/// Make the test binary's digest known early, for what names it later
/// (issue 39): taken from its cache beside the binary when that holds,
/// and otherwise hashed on a thread of its own while the run goes on. A
/// binary built since its last run is tens of megabytes (80 MB of a debug
/// build, 0.06 s to hash there): hashed first, it delayed every first run
/// after a rebuild by that much. Called before anything asks for it.
pub(in crate::harness) fn hash_binary_aside() {
    if BINARY.get().is_some() || binary_digest_if_cached().is_some() {
        return;
    }
    let spawned = std::thread::Builder::new()
        .name("varar-binary-digest".to_owned())
        .spawn(|| drop(binary_digest()));
    // No thread to spare: it is hashed when first asked.
    drop(spawned);
}

/// The test binary's digest if it is known now (its cache held, or it is
/// hashed), without waiting for a hash under way: a binary whose digest
/// is not known yet was built since the last run that asked.
pub(in crate::harness) fn binary_digest_if_known() -> Option<FileDigest> {
    BINARY.get().cloned().flatten()
}

/// The test binary's digest when it is known or its cache beside the
/// binary holds it; never hashed (a listing, which records nothing, does
/// not hash a binary of tens of megabytes to read the plans kept for it).
pub(in crate::harness) fn binary_digest_if_cached() -> Option<FileDigest> {
    if let Some(known) = BINARY.get() {
        return known.clone();
    }
    let known = binary_digest_by(cached)?;
    let _ = BINARY.set(Some(known.clone()));
    Some(known)
}

fn read_binary_digest() -> Option<FileDigest> {
    binary_digest_by(|exe, cache| cached_sha256(exe, cache, false))
}

/// The test binary's digest as `sha256` gives it from the binary's path
/// and where its digest is cached beside it.
fn binary_digest_by(sha256: impl FnOnce(&Path, &Path) -> Option<String>) -> Option<FileDigest> {
    let exe = std::env::current_exe().ok()?;
    let name = exe.file_name()?.to_string_lossy().into_owned();
    let mut cache = exe.clone().into_os_string();
    cache.push(".varar-sha256");
    Some(FileDigest {
        path: name,
        sha256: sha256(&exe, Path::new(&cache))?,
    })
}

/// The lock's digest, cached in `.varar/.cache/lock.sha256` so that a
/// nextest process, which never writes the lock, does not read a lock of
/// thousands of entries to hash it; only a settled lock's digest is
/// cached (`stamp.rs`).
pub(in crate::harness) fn lock_digest(root: &Path) -> Option<FileDigest> {
    let lock = store::lock_path(root);
    if !lock.exists() {
        return None;
    }
    // Without a cache directory, the lock is hashed all the same.
    let sha256 = match store::ensure_cache_dir(root) {
        Ok(dir) => cached_sha256(&lock, &dir.join(LOCK_DIGEST_CACHE), true),
        Err(_) => sha256_of_file(&lock),
    };
    Some(FileDigest {
        path: LOCK_FILE_NAME.to_owned(),
        sha256: sha256?,
    })
}

/// The lock digest's cache file, in `.varar/.cache/`.
const LOCK_DIGEST_CACHE: &str = "lock.sha256";

/// The SHA-256 of `path`, through `cache`, which holds `<stamp> <sha256>`:
/// while the file keeps its [`Stamp`], it is not read again. The cache is
/// written (best effort) when the file kept its stamp while it was hashed
/// and, if `settled`, the stamp vouches for the bytes hashed (a test
/// binary, written once by the linker, needs no settling time: the first
/// processes after a build must not each hash 70 MB).
fn cached_sha256(path: &Path, cache: &Path, settled: bool) -> Option<String> {
    if let Some(sha) = cached(path, cache) {
        return Some(sha);
    }
    let before = Stamp::of_file(path);
    let now = SystemTime::now();
    let sha = sha256_of_file(path)?;
    if let Some(stamp) = before
        && Stamp::of_file(path) == before
        && (!settled || stamp.settled_at(now))
        && cache.parent().is_some_and(Path::is_dir)
    {
        // Best effort: without the cache the next process hashes again.
        let _ = store::write_disposable(cache, format!("{stamp} {sha}\n").as_bytes());
    }
    Some(sha)
}

/// The SHA-256 of `path` that `cache` holds, while the file keeps the
/// stamp it was cached with.
fn cached(path: &Path, cache: &Path) -> Option<String> {
    let stamp = Stamp::of_file(path)?;
    // A stamp and a digest: a few hundred bytes at most.
    let text = String::from_utf8(store::read_cache_file(cache, 4096)?).ok()?;
    let (cached, sha) = text.trim_end().rsplit_once(' ')?;
    (Stamp::parse(cached) == Some(stamp) && sha.len() == 64).then(|| sha.to_owned())
}

#[cfg(test)]
mod tests {
    use std::path::PathBuf;
    use std::time::Duration;

    use super::*;

    fn ok<T, E: std::fmt::Display>(r: Result<T, E>) -> T {
        r.unwrap_or_else(|e| panic!("{e}"))
    }

    /// A file holding `bytes` (last modified at `modified`, if given) and
    /// where its digest is cached, in a fresh directory.
    fn file_and_cache(
        bytes: &[u8],
        modified: Option<SystemTime>,
    ) -> (tempfile::TempDir, PathBuf, PathBuf) {
        let dir = ok(tempfile::tempdir());
        let file = dir.path().join("lock");
        let cache = dir.path().join("lock.sha256");
        write(&file, bytes, modified);
        (dir, file, cache)
    }

    fn write(file: &Path, bytes: &[u8], modified: Option<SystemTime>) {
        ok(std::fs::write(file, bytes));
        if let Some(at) = modified {
            ok(ok(std::fs::File::options().write(true).open(file)).set_modified(at));
        }
    }

    #[test]
    fn a_settled_files_digest_is_cached_by_its_stamp() {
        let long_ago = SystemTime::now() - Duration::from_secs(60);
        let (_dir, file, cache) = file_and_cache(b"abc", Some(long_ago));
        let abc = "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad";
        assert_eq!(cached_sha256(&file, &cache, true).as_deref(), Some(abc));
        assert!(ok(std::fs::read_to_string(&cache)).ends_with(&format!(" {abc}\n")));
        // The stamp is what is trusted: the same stamp is not read again.
        let stamp = ok(std::fs::read_to_string(&cache));
        ok(std::fs::write(&cache, stamp.replace(abc, &"0".repeat(64))));
        assert_eq!(
            cached_sha256(&file, &cache, true).as_deref(),
            Some("0".repeat(64).as_str())
        );
        // Another stamp (a new modification time) is hashed again.
        write(&file, b"abd", Some(long_ago - Duration::from_secs(1)));
        let abd = cached_sha256(&file, &cache, true);
        assert_eq!(abd.as_deref().map(str::len), Some(64));
        assert_ne!(abd.as_deref(), Some(abc));
        assert_ne!(abd.as_deref(), Some("0".repeat(64).as_str()));
    }

    #[test]
    fn a_file_modified_just_now_is_hashed_but_not_cached() {
        let (dir, file, cache) = file_and_cache(b"abc", None);
        assert!(cached_sha256(&file, &cache, true).is_some());
        assert!(
            !cache.exists(),
            "a rewrite in the same tick could keep the stamp"
        );
        // Without a settling time (the test binary, written once) it is.
        assert!(cached_sha256(&file, &cache, false).is_some());
        assert!(cache.exists());
        assert!(cached_sha256(&dir.path().join("absent"), &cache, false).is_none());
    }
}
