//! The edits a review makes, pure: bytes in, bytes out. The shell writes
//! them atomically.

use super::model::ValueCell;
use crate::lock::{LockError, ParsedLock, parse_lock, serialize_lock};
use crate::source::Source;

/// Why an edit cannot be made. Nothing is written then.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ReviewError {
    /// The lock could not be read.
    #[error("`varar.lock.json` cannot be read")]
    InvalidLock(#[source] LockError),
    /// The lock is of a version this port does not write.
    #[error("`varar.lock.json` is of version {0}, which this version of varar does not write")]
    UnsupportedLock(String),
    /// The lock's bytes are not the ones its writer makes of it (spec 40
    /// §4.3), so writing it again would change more than one entry.
    #[error(
        "`varar.lock.json` is not written as `cargo test` writes it (spec 40 §4.3): run `cargo \
         test` once, then review"
    )]
    LockNotCanonical,
    /// Two values to write overlap.
    #[error("two values to write in `{oath_path}` overlap")]
    Overlap {
        /// The oath.
        oath_path: String,
    },
    /// The text at a value's span is not the expected text the review saw.
    #[error("`{oath_path}` no longer holds `{expected}` where the run compared it")]
    ExpectedMoved {
        /// The oath.
        oath_path: String,
        /// The expected text.
        expected: String,
    },
}

/// One example to drop from an oath's lock entry.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LockDrop {
    /// The oath.
    pub oath_path: String,
    /// The example's name as the lock holds it.
    pub name: String,
    /// The line to look near (`exact`: the line it must have).
    pub line: i64,
    /// Whether only an example of exactly that line goes (a removal, whose
    /// line is the lock's), or the nearest of that name (a drift, whose
    /// line is the paragraph's now; ties go to the earlier).
    pub exact: bool,
}

/// The lock `bytes` with each of `drops` dropped from its oath's entry, the
/// other entries and examples unchanged byte for byte; and, for each drop,
/// whether the lock held it. Refused when the lock is not as its writer
/// would write it (then more than the entry would change).
pub fn drop_from_lock(
    bytes: &[u8],
    drops: &[LockDrop],
) -> Result<(String, Vec<bool>), ReviewError> {
    let mut lock = match parse_lock(bytes).map_err(ReviewError::InvalidLock)? {
        ParsedLock::Valid(lock) => lock,
        ParsedLock::UnsupportedVersion { version } => {
            return Err(ReviewError::UnsupportedLock(version));
        }
    };
    if serialize_lock(&lock).as_bytes() != bytes {
        return Err(ReviewError::LockNotCanonical);
    }
    let mut found = Vec::with_capacity(drops.len());
    for drop in drops {
        let Some(entry) = lock.oaths.get_mut(&drop.oath_path) else {
            found.push(false);
            continue;
        };
        let best = entry
            .examples
            .iter()
            .enumerate()
            .filter(|(_, e)| e.name == drop.name && (!drop.exact || e.line == drop.line))
            .min_by_key(|(i, e)| ((e.line - drop.line).unsigned_abs(), *i))
            .map(|(i, _)| i);
        if let Some(i) = best {
            entry.examples.remove(i);
        }
        found.push(best.is_some());
    }
    Ok((serialize_lock(&lock), found))
}

/// `text` (the oath `oath_path`) with each cell's observed value written
/// over exactly its expected text, which must still be there.
pub fn write_values(
    oath_path: &str,
    text: &str,
    cells: &[ValueCell],
) -> Result<String, ReviewError> {
    let source = Source::new(text);
    let mut sorted: Vec<&ValueCell> = cells.iter().collect();
    sorted.sort_by_key(|c| std::cmp::Reverse(c.from));
    let mut out = text.to_owned();
    let mut limit = source.len_utf16();
    for cell in sorted {
        if cell.from > cell.to || cell.to > limit {
            return Err(ReviewError::Overlap {
                oath_path: oath_path.to_owned(),
            });
        }
        if source.slice_utf16(cell.from, cell.to) != cell.expected || cell.expected.is_empty() {
            return Err(ReviewError::ExpectedMoved {
                oath_path: oath_path.to_owned(),
                expected: cell.expected.clone(),
            });
        }
        let (from, to) = (
            source.byte_of_utf16(cell.from),
            source.byte_of_utf16(cell.to),
        );
        out.replace_range(from..to, &cell.actual);
        limit = cell.from;
    }
    Ok(out)
}
