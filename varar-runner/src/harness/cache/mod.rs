//! Every cache of the harness, together: what a process may take from an
//! earlier one instead of doing the work again (issues 19, 23; spec 70
//! §70.2.2). None changes what a run finds, plans or records: each is
//! used only when it certainly holds what the work would give now, and a
//! cache that is missing, unreadable or of another key is a miss, the work
//! done as without it. A cache file may be anything (STYLE §2.9): each is
//! read only when it is a regular file ([`TEXT_LIMIT`] bytes at most for
//! the text ones), opened without blocking and without following a link
//! (`store::open_cache_file`), so that a FIFO or a device in its place is
//! a miss, not a run held up. Each is written best effort (a failed write only
//! costs the next process the work) and atomically, by the store's
//! writers (`store::write_disposable`), in `.varar/.cache/` (the binary's
//! digest beside the binary). What each holds, by what key, and what invalidates it:
//!
//! | module | file | holds | key | invalidated by |
//! |---|---|---|---|---|
//! | `discovery.rs` | `.varar/.cache/discovery` | the oaths a walk found, for the next run | the config's globs, the [`Stamp`](stamp::Stamp) of every directory whose listing the walk depended on, and the inode, mode and owner of those it only went through towards the globs' literal directories | a changed glob, directory stamp or passage; a walk that met a symbolic link or an error, or directories too new to vouch for, is not remembered |
//! | `links.rs` | `.varar/.cache/links` | which oaths hold no link (`](`), so the process of one example leaves them unread | oathPath and the file's stamp | a changed stamp; entries of oaths no longer discovered are dropped |
//! | `plans/` | `.varar/.cache/plans/` (one file per oath), `.varar/.cache/plans.pack` (a run of every oath) | each oath's plan and drift candidates, and its text's `sourceHash` | the test binary's SHA-256, the modules steps are taken from, the oath text's SHA-256 | another binary, other modules or an edit; used only by a run in which no document may link; the pack keeps only discovered oaths; a listing reads them (when the binary's digest is cached) and writes none |
//! | `records.rs` | `.varar/.cache/record` | the header of the last record the harness wrote (its run, process, start, whether it ended), remembered by its writer | the record's path and stamp | a changed stamp; another process's record is read |
//! | `canonical.rs` | `.varar/.cache/lock.canonical` | the SHA-256 of the last lock text a run wrote, or found on disk as it would write it, so that a run which changes no entry does not serialise the lock to learn that | the digest itself: a lock with another is serialised and compared, as without it | any other lock; a wrong digest only leaves a lock formatted by hand as it is until an entry changes |
//! | `digests.rs` | `<binary>.varar-sha256`, `.varar/.cache/lock.sha256` | the SHA-256 of the test binary and of the lock, for the run record's manifest | the file's stamp | a changed stamp; the lock's digest is kept only when its stamp is settled |
//! | `stamp.rs` | — | a file's size, modification time and inode: what every key above trusts instead of the bytes | — | a stamp vouches only for bytes read at least `SETTLED` after the file was last modified |

/// The most a text cache file is read: far beyond what a project of a
/// hundred thousand oaths writes; a larger file is no cache (STYLE §2.9:
/// a file in `.varar/` may be anything).
pub(super) const TEXT_LIMIT: u64 = 64 << 20;

pub(super) mod canonical;
pub(super) mod digests;
pub(super) mod discovery;
pub(super) mod links;
pub(super) mod plans;
pub(super) mod records;
pub(super) mod stamp;
