//! Build once, run anywhere (issue 38 point 7), end to end, as the
//! README's recipe does it: one checkout of the sample builds a
//! `cargo nextest archive`; two other checkouts, at other paths, run one
//! `--partition` each from that archive with `--workspace-remap` (no
//! compilation), sharing one `VARAR_RUN_ID`; a fourth checkout merges their
//! `.varar/` trees, and `gate`, `junit`, `attest` and `verify` judge the
//! merged evidence as one complete run, with the example that fails on
//! purpose named at its line.
//!
//! The test fails, never skips, when cargo-nextest is missing: `.ci/run`
//! installs it.

#[path = "../../tests/tests/support/mod.rs"]
mod support;

use support::{EXAMPLES_PER_OATH, Sample};

/// The run id every shard is given, as the README's recipe sets it.
const RUN_ID: &str = "pipeline-38";

/// A checkout of the sample with the same failing cell as every other.
fn checkout() -> Sample {
    let sample = Sample::copy();
    sample.edit(
        "varar/basket.md",
        "the total is £2.40",
        "the total is £2.50",
    );
    sample
}

/// `cargo varar <args>` in `sample`: exit code and both streams.
fn varar(sample: &Sample, args: &[&str]) -> (Option<i32>, String, String) {
    sample.output_of(env!("CARGO_BIN_EXE_cargo-varar"), args)
}

#[test]
fn an_archive_built_once_runs_as_partitions_in_other_checkouts_and_merges_into_one_run() {
    let build = checkout();
    let version = build.run(&["nextest", "--version"], &[]);
    assert_eq!(
        version.code,
        Some(0),
        "cargo-nextest is needed for this test (.ci/run installs it with \
         `cargo install --locked cargo-nextest`):\n{}",
        version.combined()
    );
    let archives = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let archive = archives.path().join("bakery.tar.zst");
    let archive = archive.to_str().unwrap_or_else(|| panic!("a UTF-8 path"));
    build
        .run(&["nextest", "archive", "--archive-file", archive], &[])
        .assert_code(0, "cargo nextest archive");
    assert!(
        !build.root().join(".varar").exists(),
        "building the archive runs nothing"
    );

    // Two other checkouts, as two CI machines would have.
    let shards: Vec<Sample> = (1..=2).map(|_| checkout()).collect();
    for (k, shard) in (1..=2).zip(&shards) {
        let root = shard.root().display().to_string();
        let partition = format!("count:{k}/2");
        let run = shard.run(
            &[
                "nextest",
                "run",
                "--archive-file",
                archive,
                "--workspace-remap",
                &root,
                "--no-fail-fast",
                "--partition",
                &partition,
            ],
            &[("VARAR_RUN_ID", RUN_ID)],
        );
        assert!(
            matches!(run.code, Some(0) | Some(100)),
            "shard {partition} from the archive\n{}",
            run.combined()
        );
        assert!(
            !run.combined().contains("Compiling"),
            "a shard runs the archive's binaries, it builds nothing\n{}",
            run.combined()
        );
        assert!(
            shard.root().join(".varar/.runs").join(RUN_ID).is_dir(),
            "shard {partition} records its part of run {RUN_ID} in its own checkout\n{}",
            run.combined()
        );
    }

    // The gate's checkout: the shards' trees merged into its `.varar/`.
    let gate = checkout();
    let trees: Vec<String> = shards
        .iter()
        .map(|s| s.root().join(".varar").display().to_string())
        .collect();
    let mut merge = vec!["merge", ".varar"];
    merge.extend(trees.iter().map(String::as_str));
    let (code, out, err) = varar(&gate, &merge);
    assert_eq!(code, Some(0), "merge\n{out}{err}");
    let total: usize = EXAMPLES_PER_OATH.iter().map(|(_, n)| n).sum();
    assert!(
        out.contains(&format!("({total} example(s))")),
        "every example of both shards is merged\n{out}{err}"
    );

    // One complete run with one failure: the gate fails on it (1), not on
    // an incomplete run (2).
    let (code, out, err) = varar(&gate, &["gate"]);
    assert_eq!(code, Some(1), "gate\n{out}{err}");
    let text = format!("{out}{err}");
    assert!(
        text.contains("varar/basket.md") && text.contains("£2.50"),
        "the gate names the failing example\n{text}"
    );
    assert!(!text.contains("incomplete"), "one complete run\n{text}");

    let (code, junit, err) = varar(&gate, &["junit"]);
    assert_eq!(code, Some(0), "junit\n{junit}{err}");
    assert_eq!(
        junit.matches("<testcase ").count(),
        total,
        "one test case per example\n{junit}"
    );
    assert_eq!(
        junit.matches("<failure ").count(),
        1,
        "one failure\n{junit}"
    );

    let statement = gate.root().join("target/varar/attestation.json");
    let statement = statement.display().to_string();
    let (code, out, err) = varar(&gate, &["attest", "--out", &statement]);
    assert_eq!(code, Some(0), "attest\n{out}{err}");
    let said = format!("{out}{err}");
    assert!(
        said.contains(&format!("run `{RUN_ID}`")) && said.contains("result FAILED"),
        "the attestation is of the one merged run, and says it failed\n{said}"
    );
    let (code, out, err) = varar(&gate, &["verify", &statement]);
    assert_eq!(code, Some(0), "verify\n{out}{err}");
    assert!(out.contains("its result: FAILED"), "{out}{err}");
}
