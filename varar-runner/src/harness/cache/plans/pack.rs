//! The pack: every oath's plan of a run of every oath, in one file
//! (`.varar/.cache/plans.pack`). Such a run reads its index at its start
//! (each oath's line, the bodies skipped), then each oath's body when it
//! is planned, from the file it opened; it writes the pack again only
//! when a plan changed or an oath went. One file, not
//! one per oath: a file system allocates an inode for each file created,
//! and on one that has just deleted as many (a project's `.varar/` removed
//! and made again), each allocation searches past the recently freed ones.
//!
//! `<PACK_HEADER> <steps>`, then per oath a line `<text's SHA-256> <body
//! length> <oathPath>` and the body (`varar_core::stored`).

use std::collections::HashMap;
use std::fs::File;
use std::io::{BufRead, BufReader, Read, Seek, SeekFrom};
use std::ops::Range;
use std::path::{Path, PathBuf};
use std::sync::mpsc::{self, Receiver, Sender, TryRecvError};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::Duration;

use varar_project::store;

/// The first words of the pack's first line, and the format's version
/// (2: plans hold their notices, issue 37; 6: a dead drift candidate may
/// be kept without its name; 7: a body starts with its text's
/// `sourceHash`).
const PACK_HEADER: &str = "varar plans 7";

/// How often the writer takes what the planners kept. It never waits in
/// the channel, so a planner's send wakes no thread: a wake per oath
/// (hundreds in a run) cost a context switch each, on a machine whose
/// every core plans.
const TAKE_EVERY: Duration = Duration::from_millis(5);

/// The pack of a run: the one read at its start, and the thread that
/// writes the next while the run goes on.
#[derive(Debug)]
pub(super) struct Packing {
    old: Arc<Old>,
    to_writer: Option<Sender<Kept>>,
    writer: Option<JoinHandle<()>>,
}

/// The pack as read: the file opened at the run's start, and each oath's
/// text digest and where its body lies in it. Bodies are read one at a
/// time, when wanted, from the file opened (issue 39: holding the whole
/// pack kept its bytes beside every plan decoded from them, a second
/// run's peak). A pack written meanwhile by another run is a new file:
/// the one opened stays as it was.
#[derive(Debug, Default)]
struct Old {
    file: Mutex<Option<File>>,
    entries: HashMap<String, (String, Range<u64>)>,
}

/// One oath's plan for the next pack.
#[derive(Debug)]
struct Kept {
    oath_path: String,
    text_sha: String,
    body: Body,
}

#[derive(Debug)]
enum Body {
    /// The same as in the pack read.
    Unchanged(Range<u64>),
    /// Planned now.
    Made(Vec<u8>),
}

/// The steps a pack's plans were made with (`PlanCache`'s key).
pub(super) enum Steps {
    /// Known: the pack read is the one of these steps, if any.
    Known(String),
    /// Known only once the test binary is hashed, which goes on while the
    /// run plans (`digests::hash_binary_aside`): a binary built since the
    /// last run that hashed it has no pack of its own to read. The writer
    /// learns them before it writes (`None`: it writes nothing).
    Later(Box<dyn FnOnce() -> Option<String> + Send>),
}

impl Packing {
    /// The pack at `path` for `steps`, and its writer.
    pub(super) fn open(path: PathBuf, steps: Steps) -> Packing {
        let header = |steps: &str| format!("{PACK_HEADER} {steps}");
        let (old, later) = match steps {
            Steps::Known(steps) => {
                let header = header(&steps);
                let old = Old::open(&path, &header).unwrap_or_default();
                let known: Box<dyn FnOnce() -> Option<String> + Send> = Box::new(|| Some(header));
                (old, known)
            }
            Steps::Later(steps) => (
                Old::default(),
                Box::new(move || Some(header(&steps()?))) as _,
            ),
        };
        let old = Arc::new(old);
        let (to_writer, kept) = mpsc::channel();
        let writer = std::thread::Builder::new()
            .name("varar-plans".to_owned())
            .spawn({
                let old = Arc::clone(&old);
                move || write_pack(&path, later, &old, kept)
            })
            .ok();
        Packing {
            old,
            // Without a writer, nothing is kept.
            to_writer: writer.is_some().then_some(to_writer),
            writer,
        }
    }

    /// The pack at `path` for `steps`, read and never written: no writer.
    pub(super) fn read_only(path: PathBuf, steps: &str) -> Packing {
        let old = Old::open(&path, &format!("{PACK_HEADER} {steps}")).unwrap_or_default();
        Packing {
            old: Arc::new(old),
            to_writer: None,
            writer: None,
        }
    }

    /// What the pack read holds for the oath at `oath_path` whose text has
    /// the SHA-256 `text_sha`, read by `read` (`None`: the body is not
    /// kept for the next pack either).
    pub(super) fn load<T>(
        &self,
        oath_path: &str,
        text_sha: &str,
        read: impl FnOnce(&[u8]) -> Option<T>,
    ) -> Option<T> {
        let (sha, range) = self.old.entries.get(oath_path)?;
        if sha != text_sha {
            return None;
        }
        let loaded = read(&self.old.body(range)?)?;
        self.keep(oath_path, text_sha, Body::Unchanged(range.clone()));
        Some(loaded)
    }

    /// Keep `body`, planned now, as that oath's.
    pub(super) fn store(&self, oath_path: &str, text_sha: &str, body: Vec<u8>) {
        self.keep(oath_path, text_sha, Body::Made(body));
    }

    fn keep(&self, oath_path: &str, text_sha: &str, body: Body) {
        if let Some(to_writer) = &self.to_writer {
            let _ = to_writer.send(Kept {
                oath_path: oath_path.to_owned(),
                text_sha: text_sha.to_owned(),
                body,
            });
        }
    }

    /// Every oath is planned or loaded: nothing more is kept. The pack
    /// read is let go here, not at the run's end (issue 39): its bytes
    /// were as large as every plan it held, and stayed beside the plans
    /// decoded from it while every example ran. The writer keeps them only
    /// while it writes the next pack, if it must; it is not waited for.
    pub(super) fn planned(&mut self) {
        drop(self.to_writer.take());
        self.old = Arc::default();
        if let Some(writer) = &self.writer {
            // Now, not at its next look.
            writer.thread().unpark();
        }
    }

    /// Wait until the next pack is written, if it must be.
    pub(super) fn finish(&mut self) {
        self.planned();
        if let Some(writer) = self.writer.take() {
            // The writer ignores every failure; it does not panic.
            let _ = writer.join();
        }
    }
}

impl Old {
    /// The index of the pack at `path` under `header`; `None` for another
    /// format or other steps, or no file. A damaged entry ends it (those
    /// before it stay).
    fn open(path: &Path, header: &str) -> Option<Old> {
        let file = store::open_cache_file(path)?;
        let len = file.metadata().ok()?.len();
        let mut reader = BufReader::new(file);
        let mut line = Vec::new();
        let mut at = read_line(&mut reader, &mut line)?;
        if line != header.as_bytes() {
            return None;
        }
        let mut entries = HashMap::new();
        while let Some(read) = read_line(&mut reader, &mut line) {
            let Ok(text) = std::str::from_utf8(&line) else {
                break;
            };
            let mut fields = text.splitn(3, ' ');
            let (Some(sha), Some(body_len), Some(oath_path)) =
                (fields.next(), fields.next(), fields.next())
            else {
                break;
            };
            let Ok(body_len) = body_len.parse::<u64>() else {
                break;
            };
            let start = at + read;
            let body = start..start.saturating_add(body_len);
            if body.end > len {
                break;
            }
            let Ok(skip) = i64::try_from(body_len) else {
                break;
            };
            if reader.seek_relative(skip).is_err() {
                break;
            }
            at = body.end;
            entries.insert(oath_path.to_owned(), (sha.to_owned(), body));
        }
        Some(Old {
            file: Mutex::new(Some(reader.into_inner())),
            entries,
        })
    }

    /// The body at `range` of the file opened.
    fn body(&self, range: &Range<u64>) -> Option<Vec<u8>> {
        let len = usize::try_from(range.end - range.start).ok()?;
        // A poisoned lock only means another reader panicked mid-read;
        // every read seeks first.
        let mut file = self.file.lock().unwrap_or_else(|e| e.into_inner());
        let file = file.as_mut()?;
        file.seek(SeekFrom::Start(range.start)).ok()?;
        let mut body = vec![0; len];
        file.read_exact(&mut body).ok()?;
        Some(body)
    }

    /// Close the file opened: nothing more is read (and a system that
    /// refuses to replace an open file may now replace it).
    fn close(&self) {
        drop(self.file.lock().unwrap_or_else(|e| e.into_inner()).take());
    }
}

/// Read the next line of `reader` into `line` without its LF; how many
/// bytes it took, LF included. `None` at the end, or for a last line
/// without an LF (a pack cut short).
fn read_line(reader: &mut impl BufRead, line: &mut Vec<u8>) -> Option<u64> {
    line.clear();
    let read = reader.read_until(b'\n', line).ok()?;
    if line.pop() != Some(b'\n') {
        return None;
    }
    u64::try_from(read).ok()
}

/// Write the next pack at `path` from what the run kept, streamed as it
/// comes: not at all while everything is as in the pack read, which it
/// then stays.
fn write_pack(
    path: &std::path::Path,
    header: impl FnOnce() -> Option<String>,
    old: &Old,
    kept: Receiver<Kept>,
) {
    let mut kept = Taken(kept);
    let mut before = Vec::new();
    let mut first_made = None;
    for entry in kept.by_ref() {
        if matches!(entry.body, Body::Made(_)) {
            first_made = Some(entry);
            break;
        }
        before.push(entry);
    }
    // All as it was, and no oath gone: the pack read stays.
    if first_made.is_none() && before.len() == old.entries.len() {
        return;
    }
    let Some(header) = header() else {
        return;
    };
    let _ = store::write_disposable_with(path, |sink| {
        writeln!(sink, "{header}")?;
        let rest = before.into_iter().chain(first_made).chain(kept);
        for entry in rest {
            // A path with a line break cannot be a line: it is planned
            // every time.
            if entry.oath_path.contains(['\n', '\r']) {
                continue;
            }
            let body = match &entry.body {
                // An unchanged body is copied from the pack read; one
                // that cannot be read now is left out (planned next time).
                Body::Unchanged(range) => match old.body(range) {
                    Some(body) => std::borrow::Cow::Owned(body),
                    None => continue,
                },
                Body::Made(bytes) => std::borrow::Cow::Borrowed(bytes.as_slice()),
            };
            writeln!(
                sink,
                "{} {} {}",
                entry.text_sha,
                body.len(),
                entry.oath_path
            )?;
            sink.write_all(&body)?;
        }
        // Every unchanged body is copied: the pack read is replaced next.
        old.close();
        Ok(())
    });
}

/// What the planners keep, as the writer takes it: every [`TAKE_EVERY`]
/// (or when [`Packing::finish`] wakes it), until the run keeps no more.
struct Taken(Receiver<Kept>);

impl Iterator for Taken {
    type Item = Kept;

    fn next(&mut self) -> Option<Kept> {
        loop {
            match self.0.try_recv() {
                Ok(entry) => return Some(entry),
                Err(TryRecvError::Disconnected) => return None,
                Err(TryRecvError::Empty) => std::thread::park_timeout(TAKE_EVERY),
            }
        }
    }
}
