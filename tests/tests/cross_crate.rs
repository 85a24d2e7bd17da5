//! Steps that live in another crate (spec 50 §50.1): the one line
//! `use that_crate as _;` in the test target links them in; without it the
//! harness says that no step is registered.
//!
//! One test, in one copy: copies of the fixture with different sources
//! would race for the same artifacts in the shared target directory.

mod support;

use support::Sample;

const FIXTURE: &str = "tests/fixtures/cross-crate";
const VARAR_DEP: &str = r#"oathmark = { path = "../../../varar" }"#;
const ITEM: &str =
    "varar/basket.md::Basket::I put 3 apples in the basket. Then the basket holds 3 apples";

#[test]
fn steps_from_another_crate_run_once_linked() {
    let project = Sample::copy_of(FIXTURE, VARAR_DEP);
    let args = ["test", "-p", "app", "--test", "oaths"];

    let run = project.run(&args, &[]);
    run.assert_code(0, "cargo test with steps in another crate");
    assert_eq!(
        run.outcome(ITEM).as_deref(),
        Some("ok"),
        "{}",
        run.combined()
    );

    // Without the `use` line the crate is not linked and its steps vanish;
    // the harness says so instead of passing in silence.
    let target = project.root().join("app/tests/oaths.rs");
    let text = std::fs::read_to_string(&target).expect("oaths.rs");
    let unlinked = text.replace("use shop_steps as _;", "");
    assert_ne!(text, unlinked, "the fixture must link its steps with `use`");
    std::fs::write(&target, unlinked).expect("rewrite oaths.rs");

    let run = project.run(&args, &[]);
    assert!(run.outcome(ITEM).is_none(), "{}", run.combined());
    assert!(
        run.combined()
            .contains("no step is registered in this test binary"),
        "{}",
        run.combined()
    );
}
