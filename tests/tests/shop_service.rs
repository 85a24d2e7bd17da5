//! The service sample (`examples/shop-service`, spec 60): its oaths run
//! against the real axum + SQLite service under the real `cargo test` and
//! `cargo nextest run`, from a copy with no build artifacts.

mod support;

use support::Sample;

const SAMPLE: &str = "examples/shop-service";
const VARAR_DEP: &str =
    r#"oathmark = { version = "0.1", path = "../../varar", features = ["tokio"] }"#;
const OATH: &str = "varar/ordering.md";
const EXAMPLES: usize = 5;

/// One copy for both runners: copies of one package would race for the
/// same artifacts in the shared target directory.
#[test]
fn the_service_sample_passes_under_cargo_test_and_nextest() {
    let sample = Sample::copy_of(SAMPLE, VARAR_DEP);
    assert!(
        !sample.pristine_lock().is_empty(),
        "{SAMPLE} must ship a varar.lock.json"
    );

    let run = sample.cargo_test(&["--test", "oaths"], &[]);
    run.assert_code(0, "cargo test in the service sample");
    let items: Vec<String> = run
        .executed_items()
        .into_iter()
        .filter(|i| i.starts_with("varar/"))
        .collect();
    assert_eq!(items.len(), EXAMPLES, "{}", run.combined());
    for item in &items {
        assert_eq!(run.outcome(item).as_deref(), Some("ok"), "{item}");
    }
    sample.assert_lock_pristine("cargo test in the service sample", Some(&run));
    let results = sample.parse_results(&[OATH.to_string()]);
    assert_eq!(results[OATH].examples.len(), EXAMPLES);
    assert!(results[OATH].examples.iter().all(|e| e.status == "passed"));

    // Listing starts no service and writes nothing.
    sample.remove(".varar");
    let run = sample.cargo_test(&["--test", "oaths", "--", "--list"], &[]);
    run.assert_code(0, "--list");
    assert_eq!(
        run.listed_items()
            .iter()
            .filter(|i| i.starts_with("varar/"))
            .count(),
        EXAMPLES
    );
    assert!(!sample.root().join(".varar").exists());

    let version = sample.run(&["nextest", "--version"], &[]);
    if version.code != Some(0) {
        println!("note: cargo nextest is not installed; skipping the nextest run");
        return;
    }
    // nextest runs every example in its own process: each process starts
    // its own service (a resource is per run) and the results merge.
    let run = sample.run(
        &["nextest", "run", "--no-fail-fast", "--test", "oaths"],
        &[],
    );
    run.assert_code(0, "cargo nextest run in the service sample");
    sample.assert_lock_pristine("cargo nextest run", Some(&run));
    let results = sample.parse_results(&[OATH.to_string()]);
    assert_eq!(results[OATH].examples.len(), EXAMPLES, "results merge");
}
