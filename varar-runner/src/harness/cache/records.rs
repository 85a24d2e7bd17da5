//! The header of the last record this project's harness wrote
//! (`.varar/.cache/record`), remembered by the process that wrote it, for
//! the next run (issue 39).
//!
//! A run that replaces the earlier runs reads the header of every other
//! run's record (`finish/record`): whether its process ended, and when it
//! started. Read from the file, that is a strict parse of the whole record,
//! its items included: a millisecond for every thousand examples of an
//! unoptimised build, for a header the process that wrote it knew. So that
//! process remembers it, with the file's [`Stamp`] taken once its last
//! write is in place, and the next run takes it from here while the file
//! keeps that stamp.
//!
//! The stamp need not have settled (`stamp.rs`): the header is not what
//! was read of the bytes but what their writer wrote. Every write of a
//! record puts a new file in place, another inode; only the process whose
//! record it is writes it, and its last write is the one remembered.

use std::path::Path;

use super::stamp::Stamp;
use varar_core::record::RecordHeader;
use varar_project::store;

/// The cache's file, in `.varar/.cache/`.
const CACHE_FILE: &str = "record";

/// The first line of the file.
const HEADER: &str = "varar record header 1";

/// Remember that the record at `path` has the header `header` (best
/// effort): what the process that just wrote it calls once its last write
/// is in place. A header with a line break in one of its strings is not
/// remembered.
pub(in crate::harness) fn remember(root: &Path, path: &Path, header: &RecordHeader) {
    let Some(stamp) = Stamp::of_file(path) else {
        return;
    };
    let Some(path) = path.to_str() else {
        return;
    };
    let project = match &header.project {
        Some(project) => format!("={project}"),
        None => "-".to_owned(),
    };
    let complete = if header.complete { "1" } else { "0" };
    let lines = [
        path,
        &header.run_id,
        &header.process_id,
        &header.started_at,
        &project,
    ];
    if lines.iter().any(|l| l.contains(['\n', '\r'])) {
        return;
    }
    let text = format!("{HEADER}\n{stamp}\n{complete}\n{}\n", lines.join("\n"));
    let Ok(dir) = store::ensure_cache_dir(root) else {
        return;
    };
    let _ = store::write_disposable(&dir.join(CACHE_FILE), text.as_bytes());
}

/// What the cache says of the project at `root`: given a record's path,
/// its header, when the cache remembers that file and it keeps its stamp.
pub(in crate::harness) fn known(root: &Path) -> impl Fn(&Path) -> Option<RecordHeader> {
    let remembered = store::read_cache(root, CACHE_FILE, super::TEXT_LIMIT)
        .and_then(|bytes| String::from_utf8(bytes).ok())
        .and_then(|text| parse(&text));
    move |path| {
        let (stamp, at, header) = remembered.as_ref()?;
        (path.to_str() == Some(at.as_str()) && Stamp::of_file(path) == Some(*stamp))
            .then(|| header.clone())
    }
}

/// The cache's text read back: the stamp, the path and the header.
fn parse(text: &str) -> Option<(Stamp, String, RecordHeader)> {
    let mut lines = text.lines();
    if lines.next()? != HEADER {
        return None;
    }
    let stamp = Stamp::parse(lines.next()?)?;
    let complete = match lines.next()? {
        "1" => true,
        "0" => false,
        _ => return None,
    };
    let mut next = || lines.next().map(str::to_owned);
    let (path, run_id, process_id, started_at, project) =
        (next()?, next()?, next()?, next()?, next()?);
    let project = match project.as_str() {
        "-" => None,
        _ => Some(project.strip_prefix('=')?.to_owned()),
    };
    if lines.next().is_some() {
        return None;
    }
    Some((
        stamp,
        path,
        RecordHeader {
            run_id,
            process_id,
            complete,
            started_at,
            project,
        },
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ok<T, E: std::fmt::Display>(r: Result<T, E>) -> T {
        r.unwrap_or_else(|e| panic!("{e}"))
    }

    fn header(project: Option<&str>) -> RecordHeader {
        RecordHeader {
            run_id: "run 1".to_owned(),
            process_id: "p-1".to_owned(),
            complete: true,
            started_at: "2026-12-06T20:00:00.000Z".to_owned(),
            project: project.map(str::to_owned),
        }
    }

    #[test]
    fn a_remembered_header_holds_while_its_record_keeps_its_stamp() {
        let dir = ok(tempfile::tempdir());
        let root = dir.path();
        let record = root.join("a.run");
        let other = root.join("b.run");
        ok(std::fs::write(&record, "{}"));
        ok(std::fs::write(&other, "{}"));
        for project in [None, Some("p"), Some("")] {
            remember(root, &record, &header(project));
            assert_eq!(known(root)(&record), Some(header(project)));
            assert_eq!(known(root)(&other), None, "another record");
        }
        // Written again (another file put in place): read it.
        ok(std::fs::write(root.join("c"), "{ }"));
        ok(std::fs::rename(root.join("c"), &record));
        assert_eq!(known(root)(&record), None);
        // No cache, or one that is not whole: read it.
        assert_eq!(known(&root.join("elsewhere"))(&record), None);
        remember(root, &record, &header(None));
        let cache = store::cache_path(root, CACHE_FILE);
        let text = ok(std::fs::read_to_string(&cache));
        for broken in [
            text.replace(HEADER, "varar record header 0"),
            text.replace("\n1\n", "\n2\n"),
            text.replace("\n-\n", "\nproject\n"),
            text.lines().take(6).collect::<Vec<_>>().join("\n"),
            format!("{text}more\n"),
        ] {
            ok(std::fs::write(&cache, &broken));
            assert_eq!(known(root)(&record), None, "{broken}");
        }
    }

    #[test]
    fn a_header_with_a_line_break_is_not_remembered() {
        let dir = ok(tempfile::tempdir());
        let root = dir.path();
        let record = root.join("a.run");
        ok(std::fs::write(&record, "{}"));
        let mut broken = header(None);
        broken.run_id = "run\n1".to_owned();
        remember(root, &record, &broken);
        assert_eq!(known(root)(&record), None);
    }
}
