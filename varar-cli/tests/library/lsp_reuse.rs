//! Reuse by link (spec 70) through every editor feature: two oaths that
//! splice the section of a shared one, planned as the server plans them.

use std::path::Path;

use varar_core::source::Source;

use crate::support::{at, bakery, plan_all};
use varar_lsp::analysis::oaths::Oaths;
use varar_lsp::analysis::step_index::StepIndex;
use varar_lsp::analysis::{Analysis, Contribution, PlanContext, contribution};
use varar_lsp::handlers::diagnostics::{located_diagnostics, oath_diagnostics};
use varar_lsp::handlers::navigation::{link_hover, reference_definition, references};
use varar_lsp::handlers::tokens::{REFERENCE, STEP, reference_link_tokens, step_tokens};

const CHECKOUT: &str = "# Checkout\n\n## Pay\n\nI put 2 croissants in the basket.\n\n\
[Fill the basket](shared.md#fill-the-basket)\n\nNow the basket holds 3 items.\n\n\
## Broken\n\n[Gone](gone.md#anything)\n\n[Nothing](shared.md#no-such-heading)\n";
const SHARED: &str = "# Shared\n\n## Fill the basket\n\nI put 1 baguette in the basket.\n\n\
[Missing](#nowhere)\n\n## Standalone\n\nI put 1 scone in the basket. Now the basket holds 1 items.\n";
const OTHER: &str =
    "# Other\n\n[Fill the basket](shared.md#fill-the-basket)\n\nNow the basket holds 1 items.\n";

fn project(index: &StepIndex) -> Vec<Analysis> {
    plan_all(
        index,
        &[
            ("varar/checkout.md", CHECKOUT),
            ("varar/shared.md", SHARED),
            ("varar/other.md", OTHER),
        ],
    )
}

fn of<'a>(analyses: &'a [Analysis], path: &str) -> &'a Analysis {
    analyses
        .iter()
        .find(|a| a.oath_path == path)
        .unwrap_or_else(|| panic!("{path} not planned"))
}

fn oaths() -> Oaths {
    Oaths::from_disk([
        ("varar/checkout.md".to_string(), CHECKOUT.to_string()),
        ("varar/shared.md".to_string(), SHARED.to_string()),
        ("varar/other.md".to_string(), OTHER.to_string()),
    ])
}

/// The `(line, message)` of each diagnostic.
fn lines(diagnostics: &[lsp_types::Diagnostic]) -> Vec<(u32, String)> {
    diagnostics
        .iter()
        .map(|d| (d.range.start.line + 1, d.message.clone()))
        .collect()
}

#[test]
fn the_plan_splices_the_section_and_keeps_its_steps_apart() {
    let index = bakery();
    let all = project(&index);
    let checkout = of(&all, "varar/checkout.md");
    // One example: own, spliced, own (the engine's plan, as the harness's).
    assert_eq!(checkout.plan.examples.len(), 1);
    let texts: Vec<&str> = checkout.plan.examples[0]
        .steps
        .iter()
        .map(|s| &*s.text)
        .collect();
    assert_eq!(
        texts,
        [
            "I put 2 croissants in the basket",
            "I put 1 baguette in the basket",
            "the basket holds 3 items"
        ]
    );
    // Own steps carry spans in this text; the spliced one is kept apart,
    // with its document.
    let own: Vec<&str> = checkout.steps.iter().map(|s| &*s.text).collect();
    assert_eq!(
        own,
        [
            "I put 2 croissants in the basket",
            "the basket holds 3 items"
        ]
    );
    assert_eq!(checkout.spliced.len(), 1);
    assert_eq!(checkout.spliced[0].doc_path, "varar/shared.md");
    assert_eq!(checkout.spliced[0].step.span.start_line, 5);
    // The consumed section plans nothing in its own oath, but the sentence
    // is known to run (in the two oaths that link to it).
    let shared = of(&all, "varar/shared.md");
    assert!(
        shared
            .steps
            .iter()
            .all(|s| &*s.text != "I put 1 baguette in the basket")
    );
    let reused: Vec<(&str, &[String])> = shared
        .reuses
        .steps
        .iter()
        .map(|s| (&*s.text, s.reused_by.as_slice()))
        .collect();
    assert_eq!(
        reused,
        [(
            "I put 1 baguette in the basket",
            &[
                "varar/checkout.md".to_string(),
                "varar/other.md".to_string()
            ][..]
        )]
    );
}

#[test]
fn tokens_for_own_steps_and_links_never_for_spliced_spans() {
    let index = bakery();
    let all = project(&index);
    let checkout = of(&all, "varar/checkout.md");
    let steps = step_tokens(checkout, &index);
    let spliced = checkout.spliced[0].step.span;
    // Every step token lies in one of the oath's own sentences: none at the
    // offsets of the spliced sentence (they are the shared oath's).
    for t in &steps {
        assert!(
            checkout
                .steps
                .iter()
                .any(|s| s.span.start_offset <= t.from && t.to <= s.span.end_offset),
            "{t:?}"
        );
    }
    assert!(!steps.iter().any(|t| t.from == spliced.start_offset));
    // A `namespace` token per link, from `[` to `)`.
    let links: Vec<(u32, u32)> = reference_link_tokens(checkout)
        .iter()
        .inspect(|t| assert_eq!(t.kind, REFERENCE))
        .map(|t| (t.from, t.to))
        .collect();
    let link = "[Fill the basket](shared.md#fill-the-basket)";
    let start = at(CHECKOUT, link, 0);
    assert_eq!(links.len(), 3);
    assert_eq!(links[0], (start, start + link.len() as u32));
    // In the shared oath, the spliced sentence is a step (other plans run
    // it); the nested link is a link.
    let shared = of(&all, "varar/shared.md");
    let baguette = at(SHARED, "I put 1 baguette", 0);
    assert!(
        step_tokens(shared, &index)
            .iter()
            .any(|t| t.from == baguette && t.kind == STEP)
    );
    assert_eq!(reference_link_tokens(shared).len(), 1);
}

#[test]
fn reference_diagnostics_where_they_are_written_once() {
    let index = bakery();
    let all = project(&index);
    let checkout = of(&all, "varar/checkout.md");
    assert_eq!(
        lines(&oath_diagnostics(checkout, &[])),
        [
            (
                13,
                "Reference to \"Gone\" points at \"varar/gone.md\", which is not an oath in this \
                 workspace.\nCheck the path, and that the file is matched by the `docs` globs in \
                 varar.config.json."
                    .to_string()
            ),
            (
                15,
                "Reference to \"Nothing\" resolves to \"varar/shared.md#no-such-heading\", which \
                 contributes no steps.\nCheck the heading the anchor names, and that its section \
                 contains a matching paragraph."
                    .to_string()
            ),
        ]
    );
    let codes: Vec<String> = oath_diagnostics(checkout, &[])
        .iter()
        .filter_map(|d| match &d.code {
            Some(lsp_types::NumberOrString::String(c)) => Some(c.clone()),
            _ => None,
        })
        .collect();
    assert_eq!(codes, ["reference-not-found", "reference-empty"]);
    // The nested link in the shared section is raised by both plans that
    // splice it, and shown once, on the shared oath only.
    for a in [checkout, of(&all, "varar/other.md")] {
        assert!(
            a.plan
                .diagnostics
                .iter()
                .any(|d| d.doc_path.as_deref() == Some("varar/shared.md"))
        );
    }
    let missing = "Reference to \"Missing\" resolves to \"varar/shared.md#nowhere\"";
    let on_shared = oath_diagnostics(of(&all, "varar/shared.md"), &[]);
    assert_eq!(on_shared.len(), 1, "{on_shared:?}");
    assert_eq!(on_shared[0].range.start.line + 1, 7);
    assert!(on_shared[0].message.starts_with(missing));
    assert!(
        !oath_diagnostics(of(&all, "varar/other.md"), &[])
            .iter()
            .any(|d| d.message.starts_with(missing))
    );
    // Shared not open: the same, from the open oaths' plans.
    let open = [checkout, of(&all, "varar/other.md")];
    let located = located_diagnostics("varar/shared.md", &open);
    assert_eq!(lines(&located), lines(&on_shared));
}

#[test]
fn definition_of_a_link_is_the_linked_heading() {
    let index = bakery();
    let all = project(&index);
    let checkout = of(&all, "varar/checkout.md");
    let oaths = oaths();
    let root = Path::new("/bakery");
    let targets = reference_definition(checkout, &oaths, root, at(CHECKOUT, "shared.md#fill", 0))
        .unwrap_or_else(|| panic!("no target"));
    assert_eq!(targets.len(), 1);
    assert_eq!(targets[0].path, root.join("varar/shared.md"));
    assert_eq!(targets[0].span.start_line, 3);
    assert_eq!(
        Source::new(SHARED).slice_utf16(targets[0].span.start_offset, targets[0].span.end_offset),
        "## Fill the basket"
    );
    // A broken link goes nowhere; a sentence is not a link.
    assert!(reference_definition(checkout, &oaths, root, at(CHECKOUT, "[Gone]", 1)).is_none());
    assert!(reference_definition(checkout, &oaths, root, at(CHECKOUT, "I put 2", 0)).is_none());
}

#[test]
fn hover_of_a_link_lists_the_steps_it_splices() {
    let index = bakery();
    let all = project(&index);
    let checkout = of(&all, "varar/checkout.md");
    let oaths = oaths();
    let context = PlanContext {
        index: &index,
        lock: None,
        oaths: &oaths,
    };
    let (markdown, span) = link_hover(checkout, &context, at(CHECKOUT, "Fill the basket]", 0))
        .unwrap_or_else(|| panic!("no hover"));
    assert_eq!(span.start_line, 7);
    assert!(
        markdown.starts_with(
            "**reference** to the section \"Fill the basket\" of `varar/shared.md` (line 3)"
        ),
        "{markdown}"
    );
    assert!(
        markdown
            .contains("splices 1 step:\n\n- `I put 1 baguette in the basket` (varar/shared.md:5)"),
        "{markdown}"
    );
    let nothing = checkout
        .link_at(at(CHECKOUT, "[Nothing]", 1))
        .unwrap_or_else(|| panic!("link"));
    assert_eq!(
        contribution(&context, "varar/checkout.md", nothing),
        Contribution::Nothing(
            "Reference to \"Nothing\" resolves to \"varar/shared.md#no-such-heading\", which contributes no steps."
                .to_string()
        )
    );
}

#[test]
fn references_of_a_step_include_shared_sections_once() {
    let index = bakery();
    let all = project(&index);
    let analyses: Vec<&Analysis> = all.iter().collect();
    let put = checkout_step(&all);
    let found = references(put, &analyses);
    let mut at_lines: Vec<(String, u32)> = found
        .iter()
        .map(|(p, s)| (p.clone(), s.start_line))
        .collect();
    at_lines.sort();
    // The baguette of the shared section, spliced by two oaths, once; the
    // standalone section's own sentence; the checkout's own.
    assert_eq!(
        at_lines,
        [
            ("varar/checkout.md".to_string(), 5),
            ("varar/shared.md".to_string(), 5),
            ("varar/shared.md".to_string(), 11),
        ]
    );
}

/// The registry index of "I put {int} {word} in the basket".
fn checkout_step(all: &[Analysis]) -> usize {
    of(all, "varar/checkout.md").steps[0].step
}

/// The drift lines the server reports on `varar/shared.md` (text `shared`,
/// linked from [`OTHER`]) against a lock recording one example of it.
fn shared_drift_lines(shared: &str, locked_name: &str, locked_line: i64) -> Vec<u32> {
    use varar_core::lock::{Lock, LockEntry, LockExample};

    use varar_lsp::analysis::plan_document;

    let index = bakery();
    let mut lock = Lock::default();
    lock.oaths.insert(
        "varar/shared.md".into(),
        LockEntry {
            source_hash: "fnv1a:00000000".into(),
            examples: vec![LockExample {
                name: locked_name.into(),
                line: locked_line,
            }],
        },
    );
    let oaths = Oaths::from_disk([
        ("varar/other.md".to_string(), OTHER.to_string()),
        ("varar/shared.md".to_string(), shared.to_string()),
    ]);
    let context = PlanContext {
        index: &index,
        lock: Some(&lock),
        oaths: &oaths,
    };
    plan_document(&context, "varar/shared.md")
        .unwrap_or_else(|| panic!("planned"))
        .drifts
        .iter()
        .map(|d| d.line)
        .collect()
}

#[test]
fn a_locked_section_now_spliced_is_not_drift_spec_70_6_5() {
    let drifts = |shared: &str| shared_drift_lines(shared, "I put 1 baguette in the basket", 5);
    // Consumed, and it still matches a step alone: it runs where it is
    // linked from, no drift.
    assert!(drifts(SHARED).is_empty());
    // Consumed and no longer matching: drift, at its line.
    assert_eq!(
        drifts(&SHARED.replace("in the basket.", "in the bag.")),
        [5]
    );
}

#[test]
fn a_locked_link_now_spliced_is_not_drift_as_under_cargo_test() {
    // The engine's own drift (what `cargo test` reports): a link paragraph
    // the lock recorded as an example, whose section another oath now
    // splices, still runs there; planned alone it is prose, so a server
    // that only replanned the text alone would call it drift.
    const NESTED: &str = "# Shared\n\n## Fill the basket\n\n[Top up](#top-up)\n\n\
        ## Top up\n\nI put 1 scone in the basket.\n";
    let drifts = |shared: &str| shared_drift_lines(shared, "[Top up](#top-up)", 5);
    assert!(drifts(NESTED).is_empty());
    // The same entry against a paragraph that is now plain prose is drift,
    // so the entry does re-identify onto the link's paragraph.
    assert_eq!(
        drifts(&NESTED.replace("[Top up](#top-up)", "Top up (#top-up)")),
        [5]
    );
}

#[test]
fn the_servers_plans_equal_the_harness_plans_on_the_whole_workspace() {
    use varar_core::plan::plan_oath;

    use varar_lsp::analysis::plan_documents;

    // Nested, same-file, whole-file, cyclic and broken links, a section two
    // oaths splice, and an oath no link touches.
    let texts = [
        ("varar/checkout.md", CHECKOUT),
        ("varar/shared.md", SHARED),
        ("varar/other.md", OTHER),
        (
            "varar/lib/a.md",
            "# A\n\n## Alpha\n\nI put 1 bun in the basket.\n\n[Beta](#beta)\n\n## Beta\n\n\
             I put 10 buns in the basket.\n\n[Alpha](#alpha)\n\n[Whole](../whole.md)\n",
        ),
        (
            "varar/whole.md",
            "I put 3 scones in the basket.\n\n# W\n\nNow the basket holds 3 items.\n",
        ),
        (
            "varar/main.md",
            "# Main\n\n[Alpha](lib/a.md#alpha)\n\nNow the basket holds 14 items.\n\n\
             ## Self\n\n[Self](#self)\n\nI put 3 buns in the basket.\n",
        ),
        (
            "varar/alone.md",
            include_str!("../../../examples/bakery/varar/basket.md"),
        ),
    ];
    let index = bakery();
    let oaths = Oaths::from_disk(texts.iter().map(|(p, t)| (p.to_string(), t.to_string())));
    let context = PlanContext {
        index: &index,
        lock: None,
        oaths: &oaths,
    };
    let whole = oaths.whole_workspace();
    for (path, _) in texts {
        let harness = plan_oath(&whole, path, index.registry()).unwrap_or_else(|e| panic!("{e}"));
        let server = plan_documents(&context, &[path]);
        assert_eq!(server.len(), 1, "{path}");
        assert_eq!(server[0].plan, harness, "{path}");
    }
    // The cases are not empty: main.md splices through two levels.
    let main =
        plan_oath(&whole, "varar/main.md", index.registry()).unwrap_or_else(|e| panic!("{e}"));
    let documents: Vec<Option<&str>> = main.examples[0]
        .steps
        .iter()
        .map(|s| s.doc_path.as_deref())
        .collect();
    assert!(documents.contains(&Some("varar/lib/a.md")), "{documents:?}");
    assert!(documents.contains(&Some("varar/whole.md")), "{documents:?}");
    assert!(!main.diagnostics.is_empty());
    // And planned together, as `sync` plans the open oaths.
    let all: Vec<&str> = texts.iter().map(|(p, _)| *p).collect();
    for analysis in plan_documents(&context, &all) {
        let harness = plan_oath(&whole, &analysis.oath_path, index.registry())
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(analysis.plan, harness, "{}", analysis.oath_path);
    }
}

#[test]
fn a_shared_sentence_has_hover_and_definition_in_its_own_oath() {
    use varar_lsp::handlers::navigation::{definition, hover};

    let index = bakery();
    let all = project(&index);
    let shared = of(&all, "varar/shared.md");
    let offset = at(SHARED, "put 1 baguette", 0);
    let (markdown, _) = hover(shared, &index, offset).unwrap_or_else(|| panic!("no hover"));
    assert!(
        markdown.contains("spliced by link into `varar/checkout.md`, `varar/other.md`"),
        "{markdown}"
    );
    let target = definition(shared, &index, offset).unwrap_or_else(|| panic!("no target"));
    assert!(target.path.ends_with("tests/steps/basket.rs"));
}
