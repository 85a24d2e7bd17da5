//! The digests a run record's manifest names its inputs by (seed 002,
//! issue 19): the config, the lock before and after, every document read
//! and the test binary, each hashed as it is on disk (large files a chunk
//! at a time).

use std::path::Path;
use std::time::{SystemTime, UNIX_EPOCH};

use varar_core::hash::{Sha256, sha256_hex, source_hash};
use varar_core::record::{DocumentDigest, FileDigest};

use super::documents::Texts;
use crate::store;

/// A file's size and modification time: when both are unchanged, so is
/// the digest taken with them (what lets a process that did not write the
/// lock, every `cargo nextest` process, skip hashing it a second time).
pub(super) type Stamp = (u64, Option<SystemTime>);

pub(super) fn stamp(root: &Path, name: &str) -> Option<Stamp> {
    let meta = std::fs::metadata(root.join(name)).ok()?;
    Some((meta.len(), meta.modified().ok()))
}

/// The digest of `<root>/<name>`, if it exists and can be read.
pub(super) fn file_digest(root: &Path, name: &str) -> Option<FileDigest> {
    Some(FileDigest {
        path: name.to_owned(),
        sha256: sha256_of_file(&root.join(name))?,
    })
}

/// The SHA-256 of the file at `path`, read a chunk at a time: a test
/// binary of tens of megabytes is never held whole.
fn sha256_of_file(path: &Path) -> Option<String> {
    use std::io::Read as _;
    let mut file = std::fs::File::open(path).ok()?;
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

/// The digests of the documents `paths` (read as `texts`), in path order.
pub(crate) fn document_digests<'a>(
    texts: &Texts,
    paths: impl IntoIterator<Item = &'a str>,
) -> Vec<DocumentDigest> {
    let mut out: Vec<DocumentDigest> = paths
        .into_iter()
        .filter_map(|path| {
            let text = texts.text(path)?;
            Some(DocumentDigest {
                path: path.to_owned(),
                sha256: sha256_hex(text.as_bytes()),
                source_hash: source_hash(text),
            })
        })
        .collect();
    out.sort_by(|a, b| a.path.cmp(&b.path));
    out
}

/// The test binary's digest, cached beside it (`<binary>.varar-sha256`,
/// keyed by its size and modification time) so that the processes of a
/// nextest run hash it once per build.
pub(super) fn binary_digest() -> Option<FileDigest> {
    let exe = std::env::current_exe().ok()?;
    let name = exe.file_name()?.to_string_lossy().into_owned();
    let meta = std::fs::metadata(&exe).ok()?;
    let mtime = meta
        .modified()
        .ok()
        .and_then(|m| m.duration_since(UNIX_EPOCH).ok())
        .map_or(0, |d| d.as_nanos());
    let key = format!("{} {mtime}", meta.len());
    let mut cache = exe.clone().into_os_string();
    cache.push(".varar-sha256");
    let cache = std::path::PathBuf::from(cache);
    if let Ok(text) = std::fs::read_to_string(&cache)
        && let Some((k, sha)) = text.trim_end().rsplit_once(' ')
        && k == key
        && sha.len() == 64
    {
        return Some(FileDigest {
            path: name,
            sha256: sha.to_owned(),
        });
    }
    let sha = sha256_of_file(&exe)?;
    // Best effort: without the cache the next process hashes it again.
    let _ = store::write_disposable(&cache, format!("{key} {sha}\n").as_bytes());
    Some(FileDigest {
        path: name,
        sha256: sha,
    })
}
