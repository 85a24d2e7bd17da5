use std::path::Path;

use varar_core::lock::Lock;
use varar_core::source::Span;

use super::*;
use varar_lsp::analysis::step_index::StepIndex;

const BASKET: &str = include_str!("../../../../examples/bakery/varar/basket.md");
const OPENING: &str = include_str!("../../../../examples/bakery/varar/opening-the-shop.md");
const SERVING: &str = include_str!("../../../../examples/bakery/varar/serving-a-customer.md");
const SHELF: &str = include_str!("../../../../examples/bakery/varar/shelf.md");
const RUSH: &str = include_str!("../../../../examples/bakery/varar/the-morning-rush.md");

/// The bakery's step index, read as the language server reads it (the
/// server's own unit tests share the same fixture in `varar-lsp`).
fn bakery() -> StepIndex {
    StepIndex::load(
        [
            (
                "tests/steps/mod.rs",
                include_str!("../../../../examples/bakery/tests/steps/mod.rs"),
            ),
            (
                "tests/steps/basket.rs",
                include_str!("../../../../examples/bakery/tests/steps/basket.rs"),
            ),
            (
                "tests/steps/shelf.rs",
                include_str!("../../../../examples/bakery/tests/steps/shelf.rs"),
            ),
        ]
        .into_iter()
        .map(|(label, text)| {
            (
                std::path::PathBuf::from("/bakery").join(label),
                label.to_string(),
                text.to_string(),
            )
        })
        .collect::<Vec<_>>(),
    )
}

fn oaths(changed: &[(&str, &str)]) -> Vec<(String, String)> {
    [
        ("varar/basket.md", BASKET),
        ("varar/opening-the-shop.md", OPENING),
        ("varar/serving-a-customer.md", SERVING),
        ("varar/shelf.md", SHELF),
        ("varar/the-morning-rush.md", RUSH),
    ]
    .iter()
    .map(|(p, t)| {
        let t = changed.iter().find(|(c, _)| c == p).map_or(*t, |(_, t)| *t);
        (p.to_string(), t.to_string())
    })
    .collect()
}

fn run(oaths: Vec<(String, String)>, lock: Option<&Lock>) -> CheckReport {
    let index = bakery();
    check(
        CheckInput {
            root: Path::new("/bakery"),
            oaths,
            index: &index,
            lock,
            config: &[],
        },
        Vec::new(),
    )
}

fn codes(report: &CheckReport) -> Vec<(&str, &str, u32, Option<&str>)> {
    report
        .problems
        .iter()
        .map(|p| (p.code.as_str(), p.path.as_str(), p.line, p.item.as_deref()))
        .collect()
}

#[test]
fn issue37_the_bakery_is_check_clean() {
    let report = run(oaths(&[]), Some(&bakery_lock()));
    assert_eq!((report.status, report.exit_code), (CheckStatus::Clean, 0));
    assert_eq!((report.oaths, report.steps), (5, 11));
    assert!(report.problems.is_empty(), "{report:#?}");
    assert_eq!(
        render_text(&report),
        "check: clean: 5 oaths against 11 steps\n"
    );
}

#[test]
fn a_sentence_that_looks_like_a_step_is_a_warning_with_the_step_it_would_be() {
    // The bakery's prices as a sentence, as it once stated them.
    let basket = BASKET.replace(
        "listed at the end of this page.\n",
        "a baguette is £1.80, a bun £0.80, a croissant £1.20 and a scone £1.50.\n",
    );
    let report = run(oaths(&[("varar/basket.md", &basket)]), None);
    assert_eq!((report.status, report.exit_code), (CheckStatus::Clean, 0));
    assert_eq!(
        codes(&report),
        [("unmatched_step", "varar/basket.md", 5, None)],
        "{report:#?}"
    );
    assert!(
        report.problems[0]
            .message
            .contains("a sensor `a baguette is {money}"),
        "{}",
        report.problems[0].message
    );
    let text = render_text(&report);
    assert!(
        text.ends_with(
            "check: clean: 5 oaths against 11 steps, 1 warning (cargo test passes them)\n"
        ),
        "{text}"
    );
}

fn bakery_lock() -> Lock {
    let bytes = include_bytes!("../../../../examples/bakery/varar.lock.json");
    match varar_core::lock::parse_lock(bytes) {
        Ok(varar_core::lock::ParsedLock::Valid(lock)) => lock,
        other => panic!("the bakery's lock: {other:?}"),
    }
}

#[test]
fn drift_a_broken_link_a_typo_and_an_unused_step_with_their_items() {
    let lock = bakery_lock();
    // Clean against its lock.
    let report = run(oaths(&[]), Some(&lock));
    assert_eq!(report.exit_code, 0, "{report:#?}");
    // A typo in an example's sentence: a warning; a whole example
    // reworded: drift (and its error fence has no step now); a link to a
    // section that does not exist: reference-empty.
    let shelf = SHELF
        .replace(
            "I sell 5 buns from the shelf",
            "I sel 5 buns from the shelf",
        )
        .replace(
            "In the morning the baker puts 3 scones on the shelf. I sell 4 scones from the shelf.",
            "In the morning the baker stacks 3 scones. I sel 4 scones.",
        );
    let rush = RUSH.replace("#stocking-the-shelf", "#stocking-the-shelves");
    let report = run(
        oaths(&[
            ("varar/shelf.md", &shelf),
            ("varar/the-morning-rush.md", &rush),
        ]),
        Some(&lock),
    );
    assert_eq!(
        (report.status, report.exit_code),
        (CheckStatus::Problems, 1)
    );
    assert_eq!(
        codes(&report),
        [
            ("unmatched_step", "varar/shelf.md", 10, None),
            (
                "drift",
                "varar/shelf.md",
                14,
                Some("varar/shelf.md::varar:drift:14")
            ),
            (
                "error_fence_without_step",
                "varar/shelf.md",
                16,
                Some("varar/shelf.md::varar:diagnostic:error-fence-without-step:16")
            ),
            // The link was an example of its own: it splices nothing now.
            (
                "drift",
                "varar/the-morning-rush.md",
                5,
                Some("varar/the-morning-rush.md::varar:drift:5")
            ),
            (
                "reference_empty",
                "varar/the-morning-rush.md",
                5,
                Some("varar/the-morning-rush.md::varar:diagnostic:reference-empty:5")
            ),
        ],
        "{report:#?}"
    );
    let drift = &report.problems[1];
    assert_eq!(
        drift.example.as_deref(),
        Some("In the morning the baker puts 3 scones on the shelf. I sell 4 scones from the shelf")
    );
    assert!(
        drift
            .detail
            .as_deref()
            .is_some_and(|d| d.contains("VARAR_UPDATE=1"))
    );
    let text = render_text(&report);
    assert!(
        text.contains(
            "varar/shelf.md:14:1: error[drift]: This paragraph was an example and no longer matches any step (drift)"
        ),
        "{text}"
    );
    assert!(
        text.contains("    = cargo test fails `varar/shelf.md::varar:drift:14`\n"),
        "{text}"
    );
    assert!(
        text.ends_with(
            "check: 4 errors cargo test would fail, 1 warning: 5 oaths against 11 steps\n"
        ),
        "{text}"
    );

    // The only oath using the receipt sensor loses it: an unused step.
    let basket = BASKET.replace("and the receipt reads:", "and reads the receipt:");
    let report = run(oaths(&[("varar/basket.md", &basket)]), None);
    let unused: Vec<&Problem> = report
        .problems
        .iter()
        .filter(|p| p.code == ProblemCode::UnusedStep)
        .collect();
    assert_eq!(unused.len(), 1, "{report:#?}");
    assert_eq!(unused[0].path, "tests/steps/basket.rs");
    assert_eq!(unused[0].expression.as_deref(), Some("the receipt reads"));
    assert_eq!(unused[0].severity, Severity::Warning);
}

#[test]
fn issue34_a_key_the_config_writes_twice_is_a_warning_at_the_key() {
    let config = varar_core::config::parse_config(
        Path::new("/bakery/varar.config.json"),
        b"{\"docs\": {\"include\": [\"varar/**/*.md\"]},\n \"steps\": [], \"steps\": []}",
    )
    .unwrap_or_else(|e| panic!("{e}"));
    let index = bakery();
    let report = check(
        CheckInput {
            root: Path::new("/bakery"),
            oaths: oaths(&[]),
            index: &index,
            lock: None,
            config: &config.warnings,
        },
        Vec::new(),
    );
    let dup: Vec<&Problem> = report
        .problems
        .iter()
        .filter(|p| p.code == ProblemCode::DuplicateKey)
        .collect();
    assert_eq!(dup.len(), 1, "{:?}", report.problems);
    assert_eq!(
        (
            dup[0].path.as_str(),
            dup[0].line,
            dup[0].column,
            dup[0].severity
        ),
        ("varar.config.json", 2, 15, Severity::Warning)
    );
    assert!(
        dup[0]
            .message
            .starts_with("the key \"steps\" is written twice (first at line 2, column 2)"),
        "{}",
        dup[0].message
    );
    assert_eq!(report.exit_code, 0, "a warning changes no exit code");
}

/// A block whose span is counted each time it is read.
struct Counted<'c> {
    span: Span,
    reads: &'c std::cell::Cell<usize>,
}

impl super::find::Spanned for Counted<'_> {
    fn span(&self) -> Span {
        self.reads.set(self.reads.get() + 1);
        self.span
    }
}

fn span(from: u32, to: u32) -> Span {
    Span {
        start_offset: from,
        end_offset: to,
        start_line: 1,
        start_col: 1,
        end_line: 1,
        end_col: 1,
    }
}

#[test]
fn issue34_the_block_of_each_sentence_is_found_reading_few_blocks() {
    // 20 000 blocks, a sentence in each: a search from the start for each
    // sentence reads some 200 million spans; a binary search some 600 000.
    let reads = std::cell::Cell::new(0);
    let n: u32 = 20_000;
    let blocks: Vec<Counted<'_>> = (0..n)
        .map(|i| Counted {
            span: span(i * 10, i * 10 + 8),
            reads: &reads,
        })
        .collect();
    let containing = super::find::Containing::new(&blocks);
    for i in 0..n {
        let found = containing.first(span(i * 10 + 2, i * 10 + 5));
        assert_eq!(found.map(|b| b.span.start_offset), Some(i * 10));
    }
    assert!(containing.first(span(8, 9)).is_none(), "between two blocks");
    let budget = 2 * n as usize * (n.ilog2() as usize + 2);
    assert!(
        reads.get() <= budget,
        "{} spans read for {n} sentences (at most {budget})",
        reads.get()
    );
}

#[test]
fn the_first_containing_block_is_the_outer_one_as_in_source_order() {
    let reads = std::cell::Cell::new(0);
    let blocks = [
        Counted {
            span: span(0, 100),
            reads: &reads,
        },
        Counted {
            span: span(10, 20),
            reads: &reads,
        },
        Counted {
            span: span(30, 40),
            reads: &reads,
        },
        Counted {
            span: span(200, 210),
            reads: &reads,
        },
    ];
    let containing = super::find::Containing::new(&blocks);
    let start = |s: Span| containing.first(s).map(|b| b.span.start_offset);
    assert_eq!(start(span(12, 15)), Some(0));
    assert_eq!(start(span(50, 60)), Some(0));
    assert_eq!(start(span(150, 160)), None);
    assert_eq!(start(span(205, 210)), Some(200));
    assert_eq!(start(span(205, 211)), None);
}

#[test]
fn issue34_a_hostile_path_message_and_item_are_cut_and_escaped() {
    let huge = "w".repeat(varar_core::untrusted::TEXT_LIMIT * 4);
    let problem = Problem {
        code: ProblemCode::UnmatchedStep,
        severity: Severity::Warning,
        message: format!("looks like a step\u{1b}[2J\u{202e} {huge}"),
        detail: Some(format!("more\u{7}\n{huge}")),
        path: "varar/a\nb.md".into(),
        oath_path: None,
        example: None,
        line: 3,
        column: 1,
        item: Some("varar/a\nb.md::x\u{0}".into()),
        expression: None,
        fix: Some(format!("rewrite\u{1b}[2J\n{huge}")),
    };
    let text = render_text(&super::model::finish(1, 1, vec![problem], Vec::new()));
    assert!(
        text.starts_with(
            "varar/a\\u{000A}b.md:3:1: warning[unmatched_step]: looks like a step\\u{001B}[2J\\u{202E} w"
        ),
        "{}",
        &text[..200]
    );
    assert!(text.contains("    more\\u{0007}\n"));
    assert!(text.contains("    = cargo test fails `varar/a\\u{000A}b.md::x\\u{0000}`\n"));
    assert!(text.contains("    = fix: rewrite\\u{001B}[2J\\u{000A}w"));
    assert!(
        text.len() < 4 * varar_core::untrusted::TEXT_LIMIT,
        "{}",
        text.len()
    );
    assert_eq!(text.matches("bytes cut]").count(), 3);
}
