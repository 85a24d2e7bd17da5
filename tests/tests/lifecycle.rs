//! Spec 60 under the real `cargo test`, in a fixture project, with and
//! without the `tokio` feature: an invalid `VARAR_TIMEOUT` stops the run
//! before anything runs, a blocking step times out and the process still
//! ends, the `SLOW` notice, tokio's missing-reactor message, and a tokio
//! timer cancelled at the deadline. And issue 10: a run that dies midway
//! has not touched the baseline.

mod support;

use support::Sample;

const FIXTURE: &str = "tests/fixtures/lifecycle";
const VARAR_DEP: &str = r#"oathmark = { path = "../../../varar" }"#;

/// One copy, one test: the two feature sets build one after the other.
#[test]
fn timeouts_slow_notices_and_the_runtime_under_cargo_test() {
    let project = Sample::copy_of(FIXTURE, VARAR_DEP);
    let test = |extra: &[&str], env: &[(&str, &str)]| {
        let mut args = vec!["test", "--test", "oaths"];
        args.extend_from_slice(extra);
        project.run(&args, env)
    };

    // An invalid limit is an error before anything runs.
    let run = test(&[], &[("VARAR_TIMEOUT", "1h")]);
    run.assert_code(101, "VARAR_TIMEOUT=1h");
    assert!(
        run.stderr
            .contains("error: VARAR_TIMEOUT=\"1h\" is not a duration"),
        "{}",
        run.combined()
    );
    assert!(!run.stdout.contains("running"), "{}", run.combined());
    assert!(!project.root().join(".varar").exists());

    // A blocking step times out at its step; the process ends normally.
    let run = test(&["--", "stuck.md"], &[("VARAR_TIMEOUT", "500ms")]);
    run.assert_code(101, "a blocking step with VARAR_TIMEOUT=500ms");
    let out = run.combined();
    assert!(
        out.contains("varar/stuck.md:3:1: timed out after 500ms in step \"I block forever\""),
        "{out}"
    );
    assert!(
        run.stderr
            .contains("step \"I block forever\" never returned"),
        "{out}"
    );

    // Issue 10, point 2: a complete run that dies while its examples run
    // (here a step aborts the process) leaves the baseline as it was. The
    // same run without the aborting oath shows it would have rewritten it.
    let stale = "{\n  \"version\": 2,\n  \"oaths\": {}\n}\n";
    std::fs::write(project.root().join("varar.lock.json"), stale).expect("lock");
    let run = test(&[], &[("VARAR_TIMEOUT", "500ms")]);
    assert_ne!(run.code, Some(0), "{}", run.combined());
    assert!(
        run.stderr.contains("SIGABRT") || run.stderr.contains("signal: 6"),
        "the process was aborted\n{}",
        run.combined()
    );
    assert_eq!(
        project.read("varar.lock.json"),
        stale,
        "issue10_2: a run killed midway never rewrote the baseline"
    );
    let run = test(
        &["--", "--skip", "abort.md"],
        &[("VARAR_TIMEOUT", "500ms"), ("VARAR_UPDATE", "1")],
    );
    assert_eq!(run.code, Some(101), "{}", run.combined());
    assert_ne!(
        project.read("varar.lock.json"),
        stale,
        "a run that ends records the baseline"
    );

    // Without a limit, a long example prints one SLOW line.
    let run = test(&["--", "slow.md"], &[]);
    run.assert_code(0, "a slow example");
    let slow = "SLOW [> 0.3 s] varar/slow.md::Slow::I take a while (in step \"I take a while\")";
    assert_eq!(
        run.stderr.matches(slow).count(),
        1,
        "exactly one SLOW line\n{}",
        run.combined()
    );

    // Without the feature, tokio's reactor is missing and the failure says
    // which feature to enable.
    let run = test(&["--", "reactor.md"], &[]);
    run.assert_code(101, "a tokio step without the feature");
    assert!(
        run.combined()
            .contains("enable the \"tokio\" feature of varar"),
        "{}",
        run.combined()
    );

    // With it, the same step passes, and a pending tokio timer is dropped
    // at the deadline.
    let run = test(&["--features", "tokio", "--", "reactor.md"], &[]);
    run.assert_code(0, "a tokio step with the feature");
    let run = test(
        &["--features", "tokio", "--", "waiting.md"],
        &[("VARAR_TIMEOUT", "500ms")],
    );
    run.assert_code(101, "a pending tokio timer with VARAR_TIMEOUT=500ms");
    assert!(
        run.combined().contains(
            "varar/waiting.md:3:1: timed out after 500ms in step \"I wait on tokio's timer for an hour\""
        ),
        "{}",
        run.combined()
    );
    assert!(
        !run.stderr.contains("never returned"),
        "the future was dropped, nothing abandoned\n{}",
        run.combined()
    );
}
