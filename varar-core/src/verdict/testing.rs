//! Records built as the harness writes them, for the unit tests of the
//! verdict and of its consumers (`varar-cli`, `varar-report`), which turn
//! on the feature `test-support` for their tests only.

use crate::hash::{sha256_hex, source_hash};
use crate::record::{
    DocumentDigest, FileDigest, Item, Manifest, Options, ProcessRecord, RECORD_FORMAT,
    RECORD_VERSION,
};

use crate::names::ItemName;
use crate::record::{Outcome, RunRecord};
use crate::verdict::current::Vouched;
use crate::verdict::evidence::{OathEvidence, ProjectEvidence};
use crate::verdict::run_evidence::{CONFIG_PATH, FileNow, RunEvidence};

/// A complete process record of run `run` started at `started` (a time of
/// day, `HH:MM:SS`) with these items, having read `docs`.
pub fn process(
    run: &str,
    pid: &str,
    started: &str,
    docs: &[(&str, &str)],
    items: Vec<Item>,
) -> ProcessRecord {
    ProcessRecord {
        version: RECORD_VERSION,
        format: RECORD_FORMAT.to_owned(),
        varar: "0.1.0".to_owned(),
        run_id: run.to_owned(),
        process_id: pid.to_owned(),
        complete: true,
        project: None,
        started_at: format!("2026-12-01T{started}.000Z"),
        ended_at: Some(format!("2026-12-01T{started}.500Z")),
        arguments: Vec::new(),
        options: Options {
            update: false,
            timeout: None,
            threads: None,
            runtime: "built-in".to_owned(),
        },
        nextest: None,
        rerun: None,
        manifest: Manifest {
            config: Some(FileDigest {
                path: CONFIG_PATH.to_owned(),
                sha256: sha256_hex(CONFIG.as_bytes()),
            }),
            lock_before: None,
            lock_after: None,
            documents: docs.iter().map(|(p, t)| doc(p, t)).collect(),
            test_binary: None,
            reproducible: false,
            limitations: Vec::new(),
        },
        items,
        unselected: Vec::new(),
        unwritten: Vec::new(),
        removed: Vec::new(),
    }
}

/// The config every built record read.
pub const CONFIG: &str = r#"{"docs": {"include": ["varar/**/*.md"]}}"#;

/// What a run that read `docs` (path, text) vouches for.
pub fn vouched(docs: &[(&str, &str)]) -> Vouched {
    docs.iter()
        .map(|(p, t)| ((*p).to_owned(), doc(p, t)))
        .collect()
}

/// A document digest of `text`.
pub fn doc(path: &str, text: &str) -> DocumentDigest {
    DocumentDigest {
        path: path.to_owned(),
        sha256: sha256_hex(text.as_bytes()),
        source_hash: source_hash(text),
    }
}

/// An item of `oath` on `line`: its kind read from its name; `failed`
/// gives the message of a failed attempt.
pub fn item(
    name: &str,
    oath: &str,
    line: u32,
    attempt: u32,
    outcome: Option<Outcome>,
    failed: Option<&str>,
) -> Item {
    Item {
        name: name.into(),
        kind: ItemName::parse(name).kind,
        oath_path: oath.into(),
        line,
        attempt,
        outcome,
        duration_ms: outcome.map(|_| 0.5),
        message: failed.map(str::to_owned),
    }
}

/// The project at `/p` of `oaths`, with `run` as its run evidence.
pub fn project(oaths: Vec<OathEvidence>, run: RunEvidence) -> ProjectEvidence {
    ProjectEvidence {
        root: "/p".into(),
        oaths,
        linked_only: Default::default(),
        baselined: Default::default(),
        run,
    }
}

/// The evidence of these records, every source as the records read it.
pub fn evidence_of(records: Vec<ProcessRecord>) -> RunEvidence {
    let mut evidence = RunEvidence::of_runs(".varar/.runs", RunRecord::combine(records));
    evidence.now.config = Some(FileNow::Sha256(sha256_hex(CONFIG.as_bytes())));
    if let Some(run) = &evidence.latest {
        for d in run.documents() {
            evidence
                .now
                .documents
                .insert(d.path.clone(), FileNow::Sha256(d.sha256.clone()));
        }
    }
    evidence
}

/// Two oath texts with the same `sourceHash`: an edit that moves a cell
/// by one character (a copy of `varar-cli/tests/fixtures/colliding/`,
/// which the end-to-end test runs).
pub const BEFORE: &str = include_str!("testdata/colliding/before.md");
/// The edited text of [`BEFORE`].
pub const AFTER: &str = include_str!("testdata/colliding/after.md");
