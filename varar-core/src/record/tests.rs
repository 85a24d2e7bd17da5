use super::*;
use crate::names::ItemKind;

fn record(run: &str, process: &str, started: &str, items: Vec<Item>) -> ProcessRecord {
    ProcessRecord {
        version: RECORD_VERSION,
        format: RECORD_FORMAT.to_owned(),
        varar: "0.1.0".to_owned(),
        run_id: run.to_owned(),
        process_id: process.to_owned(),
        complete: true,
        project: None,
        started_at: started.to_owned(),
        ended_at: Some(started.to_owned()),
        arguments: vec!["--exact".to_owned(), "a.md::x".to_owned()],
        options: Options {
            update: false,
            timeout: Some("30s".to_owned()),
            threads: None,
            runtime: "built-in".to_owned(),
        },
        nextest: Some(NextestRun {
            run_id: run.to_owned(),
            attempt: Some(1),
            total_attempts: Some(2),
            test_name: Some("a.md::x".to_owned()),
        }),
        rerun: None,
        manifest: Manifest {
            config: Some(FileDigest {
                path: "varar.config.json".to_owned(),
                sha256: "0".repeat(64),
            }),
            lock_before: None,
            lock_after: None,
            documents: vec![DocumentDigest {
                path: "a.md".to_owned(),
                sha256: "a".repeat(64),
                source_hash: "fnv1a:00000000".to_owned(),
            }],
            test_binary: None,
            reproducible: false,
            limitations: vec!["steps are user code".to_owned()],
        },
        items,
        unselected: Vec::new(),
        unwritten: Vec::new(),
        removed: Vec::new(),
    }
}

fn item(name: &str, attempt: u32, outcome: Option<Outcome>) -> Item {
    Item {
        name: name.into(),
        kind: ItemKind::Example,
        oath_path: "a.md".into(),
        line: 3,
        attempt,
        outcome,
        duration_ms: outcome.map(|_| 1.5),
        message: (outcome == Some(Outcome::Failed)).then(|| "boom".to_owned()),
    }
}

#[test]
fn what_the_writer_writes_reads_back_equal() {
    let mut r = record(
        "run-1",
        "p1",
        "2026-12-01T07:00:00.000Z",
        vec![
            item("a.md::x", 1, Some(Outcome::Failed)),
            item("a.md::y", 1, None),
        ],
    );
    r.unselected = vec!["a.md::z".to_owned()];
    r.rerun = Some(RerunOf {
        mode: "failed".to_owned(),
        group: "g".to_owned(),
    });
    let text = r.to_text().unwrap_or_else(|e| panic!("{e}"));
    let back = parse_process_record(text.as_bytes()).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(back, r);
    // Issue 34's members: the project, and the result files not written.
    r.project = Some("b".repeat(64));
    r.unwritten = vec!["a.md".to_owned()];
    r.complete = false;
    let text = r.to_text().unwrap_or_else(|e| panic!("{e}"));
    let back = parse_process_record(text.as_bytes()).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(back, r);
    assert!(back.ended(), "it wrote its end, without its results");
    assert!(text.contains("\"kind\": \"example\""), "{text}");
    assert!(!text.contains("null"), "absent members are omitted: {text}");
}

#[test]
fn issue37_removed_examples_read_back_and_combine_once_per_run() {
    let mut r = record("run-1", "p1", "2026-12-01T07:00:00.000Z", Vec::new());
    let text = r.to_text().unwrap_or_else(|e| panic!("{e}"));
    assert!(
        !text.contains("removed"),
        "absent when there are none: {text}"
    );
    let gone = |path: &str, line| RemovedExample {
        oath_path: path.to_owned(),
        name: "I put 1 baguette in the basket".to_owned(),
        line,
    };
    r.removed = vec![gone("b.md", 17), gone("a.md", -3)];
    let text = r.to_text().unwrap_or_else(|e| panic!("{e}"));
    let back = parse_process_record(text.as_bytes()).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(back, r);
    // Two processes of one run that both name one removal list it once.
    let mut other = r.clone();
    other.process_id = "p2".to_owned();
    other.removed.truncate(1);
    let run = RunRecord::of("run-1".to_owned(), vec![r, other]);
    assert_eq!(run.removed(), [&gone("a.md", -3), &gone("b.md", 17)]);
    // A wrong shape is refused with its place.
    let bad = text.replace("\"line\": 17", "\"line\": \"17\"");
    let err = parse_process_record(bad.as_bytes())
        .err()
        .map(|e| e.to_string());
    assert!(err.is_some_and(|e| e.contains("removed[0].line")), "{bad}");
}

/// What `refusal` (a reader's error, if any) says of `text`, a record's
/// text, with another version or another format.
fn refuses_other_versions_and_formats(text: &str, refusal: impl Fn(&[u8]) -> Option<RecordError>) {
    let newer = text.replacen("\"version\": 1", "\"version\": 2", 1);
    let err = refusal(newer.as_bytes());
    assert!(
        err.as_ref().is_some_and(RecordError::is_unknown_version),
        "{err:?}"
    );
    let other = text.replacen("varar-run-record", "something-else", 1);
    assert_eq!(
        refusal(other.as_bytes()).map(|e| e.to_string()).as_deref(),
        Some("not a run record (format \"something-else\")")
    );
}

#[test]
fn the_reader_refuses_what_is_not_a_record_of_this_version() {
    let text = record("r", "p", "t", vec![item("a", 1, Some(Outcome::Passed))])
        .to_text()
        .unwrap_or_default();
    let refuse = |t: &str| {
        parse_process_record(t.as_bytes())
            .err()
            .map(|e| e.to_string())
    };
    let twice = text.replacen(
        "\"complete\": true",
        "\"complete\": true,\n  \"complete\": true",
        1,
    );
    assert_eq!(
        refuse(&twice).as_deref(),
        Some("the top level has the key \"complete\" twice")
    );
    let digest = text.replacen(&"a".repeat(64), "ABC", 1);
    assert_eq!(
        refuse(&digest).as_deref(),
        Some("manifest.documents[0].sha256 must be 64 lowercase hexadecimal digits")
    );
    refuses_other_versions_and_formats(&text, |b| parse_process_record(b).err());
    let kind = text.replacen("\"example\"", "\"bench\"", 1);
    assert!(refuse(&kind).is_some_and(|e| e.starts_with("items[0].kind must be")));
    let extra = text.replacen(
        "\"complete\": true",
        "\"complete\": true,\n  \"later\": [1]",
        1,
    );
    assert!(
        parse_process_record(extra.as_bytes()).is_ok(),
        "unknown members are ignored"
    );
}

#[test]
fn a_header_reads_as_the_whole_record_says_and_refuses_what_it_refuses() {
    let mut r = record(
        "run-1",
        "p1",
        "2026-12-01T07:00:00.000Z",
        vec![item("a.md::x", 1, Some(Outcome::Failed))],
    );
    r.complete = false;
    r.project = Some("c".repeat(64));
    let text = r.to_text().unwrap_or_default();
    let header = parse_record_header(text.as_bytes()).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(
        header,
        RecordHeader {
            run_id: "run-1".to_owned(),
            process_id: "p1".to_owned(),
            complete: false,
            started_at: "2026-12-01T07:00:00.000Z".to_owned(),
            project: Some("c".repeat(64)),
        }
    );
    let refuse = |t: &str| {
        parse_record_header(t.as_bytes())
            .err()
            .map(|e| e.to_string())
    };
    refuses_other_versions_and_formats(&text, |b| parse_record_header(b).err());
    let twice = text.replacen(
        "\"complete\": false",
        "\"complete\": false,\n  \"complete\": true",
        1,
    );
    assert_eq!(
        refuse(&twice).as_deref(),
        Some("the top level has the key \"complete\" twice")
    );
    // Broken JSON among the items the header skips is still refused, as
    // the whole reader refuses it.
    let cut = &text[..text.len() - 3];
    assert_eq!(
        refuse(cut),
        parse_process_record(cut.as_bytes())
            .err()
            .map(|e| e.to_string())
    );
    assert!(refuse(cut).is_some());
}

#[test]
fn a_failed_then_passed_item_recovered_and_its_last_attempt_counts() {
    let first = record(
        "run",
        "p1",
        "2026-12-01T07:00:00.000Z",
        vec![item("a.md::x", 1, Some(Outcome::Failed))],
    );
    let retry = record(
        "run",
        "p2",
        "2026-12-01T07:00:01.000Z",
        vec![item("a.md::x", 2, Some(Outcome::Passed))],
    );
    let runs = RunRecord::combine(vec![retry, first]);
    assert_eq!(runs.len(), 1);
    let x = runs[0].item("a.md::x").unwrap_or_else(|| panic!("x ran"));
    assert_eq!(
        x.attempts.iter().map(|a| a.attempt).collect::<Vec<_>>(),
        [1, 2]
    );
    assert_eq!(x.outcome(), Some(Outcome::Passed));
    assert!(x.recovered());
    assert!(runs[0].complete());
    assert!(runs[0].not_run().is_empty());
}

#[test]
fn an_item_of_a_process_that_never_ended_did_not_run() {
    let mut died = record(
        "run",
        "p1",
        "2026-12-01T07:00:00.000Z",
        vec![
            item("a.md::x", 1, Some(Outcome::Passed)),
            item("a.md::y", 1, None),
        ],
    );
    died.complete = false;
    died.ended_at = None;
    died.unselected = vec!["a.md::z".to_owned()];
    let run = RunRecord::of("run".to_owned(), vec![died]);
    assert!(!run.complete());
    assert_eq!(run.ended_at(), None);
    assert_eq!(run.not_run(), ["a.md::y", "a.md::z"]);
    assert!(!run.item("a.md::y").is_some_and(ItemEvidence::recovered));
}

#[test]
fn runs_are_grouped_by_id_latest_first() {
    let old = record("old", "p", "2026-12-01T06:00:00.000Z", vec![]);
    let new = record("new", "p", "2026-12-01T07:00:00.000Z", vec![]);
    let runs = RunRecord::combine(vec![old, new]);
    let ids: Vec<&str> = runs.iter().map(|r| r.run_id.as_str()).collect();
    assert_eq!(ids, ["new", "old"]);
}

#[test]
fn the_writer_writes_what_serde_json_pretty_writes() {
    let serde = |r: &ProcessRecord| serde_json::to_string_pretty(r).unwrap_or_default() + "\n";
    let mut r = record(
        "run-\"1\"",
        "p1\\",
        "2026-12-01T07:00:00.000Z",
        vec![
            item("a.md::x \u{1}\u{1f}\t\n é 😀", 1, Some(Outcome::Failed)),
            item("a.md::y", 2, None),
            item("a.md::z", 1, Some(Outcome::Passed)),
        ],
    );
    let floats = [
        1.0,
        0.1,
        1e-7,
        123_456_789.125,
        0.0,
        0.042_593,
        1e16,
        5e-324,
        f64::MAX,
    ];
    for (i, ms) in floats.into_iter().enumerate() {
        let mut it = item(&format!("a.md::ms{i}"), 1, Some(Outcome::Ignored));
        it.duration_ms = Some(ms);
        r.items.push(it);
    }
    assert_eq!(r.to_text().unwrap_or_default(), serde(&r));
    r.unselected = vec!["a.md::u".to_owned(), "b.md::v".to_owned()];
    r.rerun = Some(RerunOf {
        mode: "failed".to_owned(),
        group: "g".to_owned(),
    });
    r.options.threads = Some(2);
    r.project = Some("d".repeat(64));
    r.unwritten = vec!["a.md".to_owned(), "b \"c\".md".to_owned()];
    r.options.timeout = None;
    r.nextest = None;
    r.ended_at = None;
    r.arguments.clear();
    r.manifest.lock_before = r.manifest.config.clone();
    r.manifest.lock_after = r.manifest.config.clone();
    r.manifest.test_binary = r.manifest.config.clone();
    r.manifest.documents.clear();
    assert_eq!(r.to_text().unwrap_or_default(), serde(&r));
    r.items.clear();
    r.manifest.limitations.clear();
    r.manifest.config = None;
    assert_eq!(r.to_text().unwrap_or_default(), serde(&r));
}

#[test]
fn a_streamed_record_is_the_same_bytes_in_chunks() {
    // Enough items for many of the writer's chunks, and for its batches
    // written on two threads (from 4 096 items, 1 024 each; the last one
    // short).
    let items = (0..10_000)
        .map(|i| item(&format!("a.md::example {i}"), 1, Some(Outcome::Passed)))
        .collect();
    let r = record("run-1", "p1", "2026-12-01T07:00:00.000Z", items);
    let text = r.to_text().unwrap_or_else(|e| panic!("{e}"));
    assert!(text.len() > 1_000_000, "{}", text.len());
    assert_eq!(
        text,
        serde_json::to_string_pretty(&r).unwrap_or_default() + "\n"
    );
    struct Chunks(Vec<u8>, usize);
    impl std::io::Write for Chunks {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            self.1 += 1;
            self.0.extend_from_slice(buf);
            Ok(buf.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }
    let mut sink = Chunks(Vec::new(), 0);
    r.write_to(&mut sink).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(String::from_utf8_lossy(&sink.0), text);
    assert!(sink.1 > 5, "written as it was made: {} writes", sink.1);
}

#[test]
fn a_sink_that_fails_fails_the_streamed_record() {
    struct Full;
    impl std::io::Write for Full {
        fn write(&mut self, _: &[u8]) -> std::io::Result<usize> {
            Err(std::io::Error::other("disk full"))
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }
    let r = record(
        "run-1",
        "p1",
        "2026-12-01T07:00:00.000Z",
        vec![item("a.md::x", 1, None)],
    );
    let e = r.write_to(&mut Full).map(|()| "written");
    assert_eq!(e.map_err(|e| e.to_string()), Err("disk full".to_owned()));
}

#[test]
fn a_record_written_with_items_kept_elsewhere_is_the_record_with_those_items() {
    // A running process writes its record from its own list of items: the
    // bytes are those of the record holding the items, on one thread or
    // on two (thousands of items).
    struct Kept(Vec<(String, Option<Outcome>, Option<String>)>);
    impl RecordItems for Kept {
        fn count(&self) -> usize {
            self.0.len()
        }
        fn item(&self, index: usize) -> ItemView<'_> {
            let (name, outcome, message) = &self.0[index];
            ItemView {
                name,
                kind: crate::names::ItemKind::Example,
                oath_path: "a.md",
                line: 3,
                attempt: 1,
                outcome: *outcome,
                duration_ms: outcome.map(|_| 1.5),
                message: message.as_deref(),
            }
        }
    }
    for count in [0, 1, 5000] {
        let kept = Kept(
            (0..count)
                .map(|i| {
                    let failed = i % 3 == 0;
                    let outcome = failed.then_some(Outcome::Failed).or(Some(Outcome::Passed));
                    (
                        format!("a.md::x{i}"),
                        outcome,
                        failed.then(|| format!("no {i}")),
                    )
                })
                .collect(),
        );
        let items: Vec<Item> = (0..count)
            .map(|i| {
                let v = kept.item(i);
                Item {
                    name: v.name.into(),
                    kind: v.kind,
                    oath_path: v.oath_path.into(),
                    line: v.line,
                    attempt: v.attempt,
                    outcome: v.outcome,
                    duration_ms: v.duration_ms,
                    message: v.message.map(str::to_owned),
                }
            })
            .collect();
        let whole = record("run-1", "p1", "2026-12-01T07:00:00.000Z", items);
        let empty = record("run-1", "p1", "2026-12-01T07:00:00.000Z", Vec::new());
        let mut written = Vec::new();
        empty
            .write_with_items_to(&mut written, &kept)
            .unwrap_or_else(|e| panic!("{e}"));
        let text = whole.to_text().unwrap_or_default();
        assert_eq!(String::from_utf8_lossy(&written), text, "{count} items");
    }
}
