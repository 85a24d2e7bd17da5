//! Compile-fail tests: the errors a user gets for misusing the step macros,
//! each under the offending tokens; and `ui-pass/`, signatures that must
//! compile. The `.stderr` files were recorded with
//! rustc 1.95 and only run there (diagnostics change between releases);
//! refresh them with `TRYBUILD=overwrite cargo test -p oathmark --test compile_fail`
//! and review the diff.

#[rustversion::attr(not(stable(1.95)), ignore = "UI goldens were recorded with rustc 1.95")]
#[cfg_attr(miri, ignore)]
#[test]
fn ui() {
    let t = trybuild::TestCases::new();
    t.compile_fail("tests/ui/*.rs");
    t.pass("tests/ui-pass/*.rs");
}
