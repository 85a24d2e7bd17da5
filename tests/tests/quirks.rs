//! Issue 37, point 2, under the real `cargo test`: a quirk of planning
//! (spec 20 §20.7) is a note on stderr at its line, with its fix, in a run
//! whose exit code and items are what the spec makes them; the sample
//! itself has none. The note comes from the plan, so a second run, which
//! reads the plan back from the plan cache, says it again.

mod support;

use support::Sample;

const SHELF: &str = "varar/shelf.md";

/// A setup sentence in front of a header-bound sentence: dropped.
const DROPPED: &str = "\n## A week of buns\n\n\
In the morning the baker puts 12 buns on the shelf. Each row is one day: the opening stock, how many were \
baked, how many were sold and the closing stock.\n\n\
| opening | baked | sold | closing |\n\
| ------: | ----: | ---: | ------: |\n\
| 1       | 40    | 35   | 6       |\n";

#[test]
fn issue37_a_dropped_step_is_a_note_at_its_line_and_the_run_still_passes() {
    let sample = Sample::copy();
    let run = sample.cargo_test(&[], &[]);
    run.assert_code(0, "the sample as it ships");
    assert!(
        !run.stderr.contains("varar: note:"),
        "the sample has no quirk\n{}",
        run.combined()
    );

    // The oaths that link to others go: a run keeps its plans only when no
    // document may link, and the second run below reads them back.
    sample.remove("varar/serving-a-customer.md");
    sample.remove("varar/the-morning-rush.md");
    let shelf = sample.read(SHELF);
    let line = shelf.lines().count() + 4;
    std::fs::write(sample.root().join(SHELF), format!("{shelf}{DROPPED}"))
        .unwrap_or_else(|e| panic!("cannot write {SHELF}: {e}"));
    let note = format!(
        "varar: note: {SHELF}:{line}:16: \"the baker puts 12 buns on the shelf\" never runs: \
         the table below is header-bound to"
    );
    let pack = sample.root().join(".varar/.cache/plans.pack");
    for attempt in ["planned", "read back from the plan cache"] {
        if attempt != "planned" {
            assert!(pack.is_file(), "the first run kept its plans");
        }
        let run = sample.cargo_test(&[], &[]);
        // A note fails nothing: the row runs as the spec has it.
        run.assert_code(0, attempt);
        let out = run.combined();
        assert!(run.stderr.contains(&note), "{attempt}: {note}\n{out}");
        assert!(
            run.stderr
                .contains("\n  help: make it part of the step each row runs"),
            "{attempt}\n{out}"
        );
        assert_eq!(
            run.stderr.matches("varar: note:").count(),
            1,
            "{attempt}\n{out}"
        );
        assert!(
            out.lines()
                .any(|l| l.contains("::1 / 40 / 35 / 6 ") && l.ends_with("... ok")),
            "{attempt}\n{out}"
        );
    }
}
