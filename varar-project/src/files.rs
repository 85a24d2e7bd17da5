//! Reading a file that a project, an artifact or an editor names (STYLE
//! §2.9): `std::fs::read` with the hostile cases closed.
//!
//! A path may be crafted. A committed symbolic link `varar.lock.json →
//! /dev/zero` is read until memory runs out; a FIFO or a terminal in a
//! file's place makes a plain open or read wait for ever. So every read of
//! a file the tool did not just write goes through [`read`] (or
//! [`read_to_string`], [`open`]):
//!
//! - the file is opened without blocking (`O_NONBLOCK`, so that opening a
//!   FIFO returns at once), symbolic links followed as before (a link to a
//!   regular file is a file);
//! - only a regular file is read: anything else is an error of kind
//!   `InvalidInput` that says so;
//! - at most [`FILE_LIMIT`] bytes: a larger file is an error of kind
//!   `InvalidData`, read no further.
//!
//! A missing file is `NotFound`, as with `std::fs`, so callers keep their
//! "no file" branches. Each caller wraps the error with the path, as it did.

use std::fs::{File, Metadata};
use std::io::{self, Read as _};
use std::path::Path;

/// The most bytes read from one file: a gibibyte, far beyond any lock,
/// result file, run record or oath a project holds; memory stays bounded
/// whatever the file claims.
pub const FILE_LIMIT: u64 = 1 << 30;

/// What is wrong with a file that is not read.
#[derive(Debug, thiserror::Error)]
enum Refused {
    #[error("it is not a regular file (a device, a FIFO or a socket is never read)")]
    NotRegular,
    #[error("it is larger than {limit} bytes")]
    TooLarge { limit: u64 },
}

/// The bytes of the file at `path` (see the module's rules), at most
/// [`FILE_LIMIT`].
pub fn read(path: &Path) -> io::Result<Vec<u8>> {
    read_within(path, FILE_LIMIT)
}

/// The text of the file at `path`: [`read`], and UTF-8 (otherwise an error
/// of kind `InvalidData`, as `std::fs::read_to_string` says).
pub fn read_to_string(path: &Path) -> io::Result<String> {
    String::from_utf8(read(path)?).map_err(|e| io::Error::new(io::ErrorKind::InvalidData, e))
}

/// The bytes of the file at `path`, at most `limit` (see the module's
/// rules).
fn read_within(path: &Path, limit: u64) -> io::Result<Vec<u8>> {
    let (file, meta) = opened(path, false)?;
    read_opened(file, &meta, limit)
}

/// [`read_within`] of a file only the tool writes: a symbolic link at
/// `path` is refused (see [`open_with`]).
pub(crate) fn read_own_within(path: &Path, limit: u64) -> io::Result<Vec<u8>> {
    let (file, meta) = opened(path, true)?;
    read_opened(file, &meta, limit)
}

/// The bytes of `file`, whose metadata is `meta` (both from
/// [`open_with_metadata`]), at most `limit`.
pub(crate) fn read_opened(file: File, meta: &Metadata, limit: u64) -> io::Result<Vec<u8>> {
    let len = meta.len();
    if len > limit {
        return Err(too_large(limit));
    }
    let mut bytes = Vec::with_capacity(usize::try_from(len).unwrap_or(0));
    // One byte more than the limit tells a file that grew past it.
    file.take(limit.saturating_add(1)).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > limit {
        return Err(too_large(limit));
    }
    Ok(bytes)
}

/// The file at `path`, opened to read, when it is a regular file (a link
/// to one included); see the module's rules.
pub fn open(path: &Path) -> io::Result<File> {
    open_with(path, false)
}

/// [`open`], and a symbolic link at `path` itself refused (`ELOOP`) when
/// `no_link`: for the files only the tool writes, where a link is never
/// its own.
pub(crate) fn open_with(path: &Path, no_link: bool) -> io::Result<File> {
    opened(path, no_link).map(|(file, _)| file)
}

/// [`open`], with the file's metadata as it was opened (no system call
/// more than the open needs).
pub(crate) fn open_with_metadata(path: &Path) -> io::Result<(File, Metadata)> {
    opened(path, false)
}

/// The file at `path`, opened without blocking, and its metadata, when it
/// is a regular file; a link at `path` refused when `no_link`.
fn opened(path: &Path, no_link: bool) -> io::Result<(File, Metadata)> {
    let mut options = std::fs::OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        use rustix::fs::OFlags;
        use std::os::unix::fs::OpenOptionsExt as _;
        let mut flags = OFlags::NONBLOCK;
        if no_link {
            flags |= OFlags::NOFOLLOW;
        }
        options.custom_flags(i32::try_from(flags.bits()).unwrap_or(0));
    }
    #[cfg(not(unix))]
    let _ = no_link;
    let file = options.open(path)?;
    let meta = file.metadata()?;
    if !meta.is_file() {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            Refused::NotRegular,
        ));
    }
    Ok((file, meta))
}

fn too_large(limit: u64) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidData, Refused::TooLarge { limit })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ok<T, E: std::fmt::Display>(r: Result<T, E>) -> T {
        r.unwrap_or_else(|e| panic!("{e}"))
    }

    #[test]
    fn a_regular_file_is_read_whole_and_a_missing_one_is_not_found() {
        let dir = ok(tempfile::tempdir());
        let path = dir.path().join("f");
        assert_eq!(
            read(&path).map_err(|e| e.kind()).err(),
            Some(io::ErrorKind::NotFound)
        );
        ok(std::fs::write(&path, "hello"));
        assert_eq!(ok(read(&path)), b"hello");
        assert_eq!(ok(read_to_string(&path)), "hello");
        ok(std::fs::write(&path, [0xff]));
        assert_eq!(
            read_to_string(&path).map_err(|e| e.kind()).err(),
            Some(io::ErrorKind::InvalidData)
        );
    }

    #[test]
    fn a_file_over_the_limit_is_refused_naming_the_limit() {
        let dir = ok(tempfile::tempdir());
        let path = dir.path().join("f");
        ok(std::fs::write(&path, "12345"));
        assert_eq!(ok(read_within(&path, 5)), b"12345");
        let e = read_within(&path, 4).err().map(|e| e.to_string());
        assert_eq!(e.as_deref(), Some("it is larger than 4 bytes"));
    }

    #[test]
    fn a_directory_is_refused() {
        let dir = ok(tempfile::tempdir());
        let e = read(dir.path()).err().map(|e| e.kind());
        // Linux opens a directory and reads nothing; the type says no.
        assert!(
            matches!(
                e,
                Some(io::ErrorKind::InvalidInput | io::ErrorKind::IsADirectory)
            ),
            "{e:?}"
        );
    }

    #[cfg(unix)]
    #[test]
    fn a_link_to_a_device_or_a_fifo_is_refused_at_once() {
        let dir = ok(tempfile::tempdir());
        let zero = dir.path().join("lock.json");
        ok(std::os::unix::fs::symlink("/dev/zero", &zero));
        let e = read(&zero).err().map(|e| e.to_string());
        assert_eq!(
            e.as_deref(),
            Some("it is not a regular file (a device, a FIFO or a socket is never read)")
        );
        let fifo = dir.path().join("fifo");
        ok(rustix::fs::mkfifoat(
            rustix::fs::CWD,
            &fifo,
            rustix::fs::Mode::from_raw_mode(0o600),
        ));
        // A blocking open would wait for a writer that never comes: the
        // read is given ten seconds, so that such a wait fails the test.
        let (sent, done) = std::sync::mpsc::channel();
        std::thread::spawn(move || sent.send(read(&fifo).map_err(|e| e.kind())));
        let kind = done.recv_timeout(std::time::Duration::from_secs(10));
        assert_eq!(kind.ok(), Some(Err(io::ErrorKind::InvalidInput)));
    }

    #[cfg(unix)]
    #[test]
    fn a_link_is_followed_unless_refused() {
        let dir = ok(tempfile::tempdir());
        let target = dir.path().join("target");
        ok(std::fs::write(&target, "x"));
        let link = dir.path().join("link");
        ok(std::os::unix::fs::symlink(&target, &link));
        assert!(open(&link).is_ok());
        assert!(open_with(&link, true).is_err());
    }
}
