//! The contract `cargo test`, `cargo varar check` and the language server
//! share (issue 35): an oath planned among the others with its drift
//! (`planned::plan_with_drift`, spec 70 §70.3, 40 §5, 70 §70.5) and the
//! items of a run in order with their names (`names::items`, spec 40
//! §7.2–7.4, 70 §70.6.6). Real parser, registry and workspace.

use varar_core::drift::Drift;
use varar_core::lock::{LockEntry, LockExample};
use varar_core::names::{ExampleNames, ItemKind, ItemSource, OathItems, example_items, items};
use varar_core::planned::{Against, PlannedOath, plan_with_drift};
use varar_core::registry::{Registry, Role, StepSpec, Trailing};
use varar_core::workspace::Workspace;

/// The bakery's basket steps, as far as these tests need them.
fn steps() -> Registry {
    let specs = [
        ("I put {int} bun(s) in the basket", Role::Stimulus),
        ("the basket holds {int} item(s)", Role::Sensor),
    ]
    .iter()
    .enumerate()
    .map(|(i, &(expression, role))| {
        StepSpec::new(expression, role, "steps.rs", i as u32 + 1, Trailing::None)
    })
    .collect();
    Registry::build(Vec::new(), specs).unwrap_or_else(|e| panic!("{e}"))
}

/// A lock entry recording `examples` (name, line).
fn entry(examples: &[(&str, i64)]) -> LockEntry {
    LockEntry {
        source_hash: "fnv1a:00000000".into(),
        examples: examples
            .iter()
            .map(|&(name, line)| LockExample {
                name: name.into(),
                line,
            })
            .collect(),
    }
}

/// `path` of `workspace` planned against `against`.
fn planned(workspace: &Workspace<'_>, path: &str, against: Against<'_>) -> PlannedOath {
    let document = workspace
        .document(path)
        .unwrap_or_else(|| panic!("{path} is in the workspace"));
    plan_with_drift(workspace, document, &steps(), against)
}

/// Each item's name, kind and line.
fn listed(oaths: &[OathItems<'_>]) -> Vec<(String, ItemKind, u32)> {
    items(oaths)
        .iter()
        .map(|i| (i.name.to_string(), i.kind(), i.line))
        .collect()
}

/// The order `cargo test` lists an oath's items in, which `check` and the
/// editor's lenses name them by (this was `varar-cli`'s `items` test):
/// examples in plan order, then the diagnostics written in it, then its
/// drift; a repeated name numbered.
#[test]
fn examples_then_diagnostics_then_drift_repeats_numbered() {
    let text = "# Shop\n\nI put 1 bun in the basket.\n\n---\n\nI put 1 bun in the basket.\n\n\
                I juggle.\n\n```error\nboom\n```\n\nI juggle.\n\n```error\nboom\n```\n";
    let workspace = Workspace::build([("varar/x.md", text)]);
    let plan = planned(&workspace, "varar/x.md", Against::default()).plan;
    let drifts = [Drift {
        name: "I was here".into(),
        line: 7,
        span: plan.diagnostics[0].span,
    }];
    let oath = OathItems::Planned {
        path: "varar/x.md",
        plan: &plan,
        drifts: &drifts,
        names: None,
    };
    assert_eq!(
        listed(&[oath]),
        [
            (
                "varar/x.md::Shop::I put 1 bun in the basket".into(),
                ItemKind::Example,
                3
            ),
            (
                "varar/x.md::Shop::I put 1 bun in the basket[1]".into(),
                ItemKind::Example,
                7
            ),
            (
                "varar/x.md::varar:diagnostic:error-fence-without-step:11".into(),
                ItemKind::Diagnostic,
                11
            ),
            (
                "varar/x.md::varar:diagnostic:error-fence-without-step:17".into(),
                ItemKind::Diagnostic,
                17
            ),
            ("varar/x.md::varar:drift:7".into(), ItemKind::Drift, 7),
        ]
    );
    let examples: Vec<String> = example_items("varar/x.md", &plan)
        .iter()
        .map(|i| i.name.to_string())
        .collect();
    assert_eq!(examples.len(), 2);
    assert_eq!(
        examples[1],
        "varar/x.md::Shop::I put 1 bun in the basket[1]"
    );
}

/// Two oaths splice a section of `shared.md` holding an `error` fence
/// without a step; `a.md` also has a paragraph the lock recorded as an
/// example that no step matches now.
const A: &str = "# A\n\nI put 2 buns in the basket.\n\n[Fill](shared.md#fill)\n\n\
                 Then the basket holds 3 items.\n\n# Later\n\nI sell 3 buns.\n";
const B: &str = "# B\n\n[Fill](shared.md#fill)\n\nThen the basket holds 1 item.\n";
const SHARED: &str = "# Shared\n\n## Fill\n\nI put 1 bun in the basket.\n\n\
                      I juggle.\n\n```error\nboom\n```\n\n# Alone\n\nI put 5 buns in the basket.\n";

/// A run of every oath, in discovery order, one of them unreadable: each
/// oath's items in turn (the unreadable one its read error), the
/// diagnostic of the shared section once, in the turn of the document it
/// is written in, after that document's examples.
#[test]
fn a_run_lists_each_oath_in_turn_and_a_shared_diagnostic_once_where_it_is_written() {
    let workspace = Workspace::build([
        ("varar/a.md", A),
        ("varar/b.md", B),
        ("varar/shared.md", SHARED),
    ]);
    let lock = entry(&[("I sell 3 buns", 11)]);
    let a = planned(&workspace, "varar/a.md", Against::entry(Some(&lock)));
    let b = planned(&workspace, "varar/b.md", Against::default());
    let shared = planned(&workspace, "varar/shared.md", Against::default());
    // Both plans meet the diagnostic, in the document it is written in.
    for plan in [&a.plan, &b.plan] {
        let documents: Vec<Option<&str>> = plan
            .diagnostics
            .iter()
            .map(|d| d.doc_path.as_deref())
            .collect();
        assert_eq!(documents, [Some("varar/shared.md")]);
    }
    let oaths = [
        OathItems::Planned {
            path: "varar/a.md",
            plan: &a.plan,
            drifts: &a.drifts,
            names: None,
        },
        OathItems::Unreadable {
            path: "varar/gone.md",
        },
        OathItems::Planned {
            path: "varar/b.md",
            plan: &b.plan,
            drifts: &b.drifts,
            names: None,
        },
        OathItems::Planned {
            path: "varar/shared.md",
            plan: &shared.plan,
            drifts: &shared.drifts,
            names: None,
        },
    ];
    let diagnostic = "varar/shared.md::varar:diagnostic:error-fence-without-step:9";
    assert_eq!(
        listed(&oaths),
        [
            (
                "varar/a.md::A::I put 2 buns in the basket".into(),
                ItemKind::Example,
                3
            ),
            ("varar/a.md::varar:drift:11".into(), ItemKind::Drift, 11),
            (
                "varar/gone.md::varar:read-error".into(),
                ItemKind::ReadError,
                0
            ),
            (
                "varar/b.md::B::Then the basket holds 1 item".into(),
                ItemKind::Example,
                3
            ),
            (
                "varar/shared.md::Alone::I put 5 buns in the basket".into(),
                ItemKind::Example,
                15
            ),
            (diagnostic.into(), ItemKind::Diagnostic, 9),
        ]
    );
    // Each item says what it stands for: the diagnostic is the first
    // plan's that met it, in the document it lies in.
    let found = items(&oaths);
    let last = &found[found.len() - 1];
    assert_eq!(&*last.document, "varar/shared.md");
    assert_eq!(
        last.source(&oaths),
        Some(ItemSource::Diagnostic(&a.plan.diagnostics[0]))
    );
    assert_eq!(
        found[1].source(&oaths),
        Some(ItemSource::Drift(&a.drifts[0]))
    );
    assert_eq!(found[2].source(&oaths), Some(ItemSource::ReadError));
    assert_eq!(
        found[0].source(&oaths),
        Some(ItemSource::Example(&a.plan.examples[0]))
    );
}

/// A run of one oath (`cargo test -- --exact`, a nextest process) plans
/// only it: a diagnostic written in a document it did not plan comes last,
/// by document, named as the full run names it.
#[test]
fn a_diagnostic_in_a_document_not_planned_comes_last_named_as_in_the_full_run() {
    let workspace = Workspace::build([
        ("varar/a.md", A),
        ("varar/b.md", B),
        ("varar/shared.md", SHARED),
    ]);
    let a = planned(&workspace, "varar/a.md", Against::default());
    let b = planned(&workspace, "varar/b.md", Against::default());
    let oaths = [
        OathItems::Planned {
            path: "varar/b.md",
            plan: &b.plan,
            drifts: &b.drifts,
            names: None,
        },
        OathItems::Planned {
            path: "varar/a.md",
            plan: &a.plan,
            drifts: &a.drifts,
            names: None,
        },
    ];
    let names: Vec<(String, ItemKind)> = listed(&oaths)
        .into_iter()
        .map(|(name, kind, _)| (name, kind))
        .collect();
    assert_eq!(
        names,
        [
            (
                "varar/b.md::B::Then the basket holds 1 item".into(),
                ItemKind::Example
            ),
            (
                "varar/a.md::A::I put 2 buns in the basket".into(),
                ItemKind::Example
            ),
            (
                "varar/shared.md::varar:diagnostic:error-fence-without-step:9".into(),
                ItemKind::Diagnostic
            ),
        ]
    );
}

/// Planning among linked documents (spec 70 §70.3, §70.5, §70.6.5): the
/// referring oath runs the section's steps; the section, consumed, is not
/// live in its own oath, so the lock no longer records it, and is not drift
/// there because it still runs where it is referenced. Under update
/// nothing drifts and the entry is recorded fresh.
#[test]
fn planning_among_linked_documents_splices_and_a_consumed_section_is_not_drift() {
    let workspace = Workspace::build([("varar/a.md", A), ("varar/shared.md", SHARED)]);
    let a = planned(&workspace, "varar/a.md", Against::default());
    let documents: Vec<Option<&str>> = a.plan.examples[0]
        .steps
        .iter()
        .map(|s| s.doc_path.as_deref())
        .collect();
    assert_eq!(documents, [None, Some("varar/shared.md"), None]);
    // The section was an example of shared.md before a.md linked to it.
    let lock = entry(&[
        ("I put 1 bun in the basket", 5),
        ("I put 5 buns in the basket", 15),
    ]);
    let shared = planned(&workspace, "varar/shared.md", Against::entry(Some(&lock)));
    assert_eq!(shared.plan.examples.len(), 1);
    assert!(shared.drifts.is_empty(), "{:?}", shared.drifts);
    let record = shared.record("varar/shared.md", "fnv1a:12345678");
    assert!(!record.drifted);
    let recorded = record.entry.map(|e| e.examples);
    assert_eq!(
        recorded,
        Some(vec![LockExample {
            name: "I put 5 buns in the basket".into(),
            line: 15,
        }])
    );
    // Without the link the same section, unmatched, would be drift; under
    // update it is not, and the entry is recorded as found.
    let alone = Workspace::build([(
        "varar/shared.md",
        "# Shared\n\n## Fill\n\nI put one bun in the basket.\n",
    )]);
    let lock = entry(&[("I put 1 bun in the basket", 5)]);
    let drifted = planned(&alone, "varar/shared.md", Against::entry(Some(&lock)));
    assert_eq!(drifted.drifts.len(), 1);
    assert!(drifted.record("varar/shared.md", "fnv1a:0").drifted);
    let updated = planned(
        &alone,
        "varar/shared.md",
        Against {
            entry: Some(&lock),
            update: true,
        },
    );
    assert!(updated.drifts.is_empty() && !updated.drifted());
    assert_eq!(
        updated
            .record("varar/shared.md", "fnv1a:0")
            .entry
            .map(|e| e.examples),
        Some(Vec::new())
    );
}

/// A plan and candidates kept from an earlier run (the harness's plan
/// cache) are judged exactly as planning judges them.
#[test]
fn a_kept_plan_is_judged_as_a_fresh_one() {
    let text = "# S\n\nI put 2 buns in the basket.\n\nI sell 3 buns.\n";
    let workspace = Workspace::build([("varar/s.md", text)]);
    let lock = entry(&[("I sell 3 buns", 5)]);
    let fresh = planned(&workspace, "varar/s.md", Against::entry(Some(&lock)));
    let kept = PlannedOath::judged(
        fresh.plan.clone(),
        fresh.candidates.clone(),
        Against::entry(Some(&lock)),
    );
    assert_eq!(kept.as_ref(), Some(&fresh));
    assert_eq!(fresh.drifts.len(), 1);
}

/// Planned without a lock entry (a first run), only the live candidates
/// are named, and the plan is kept so. Judged later against the entry
/// that run wrote, it needs no other name; against an entry that no longer
/// reads as recorded it declines (the harness plans again), and planning
/// again names every candidate and judges as before.
#[test]
fn a_plan_kept_without_dead_names_is_judged_or_declined() {
    let text = "# S\n\nI put 2 buns in the basket.\n\nSome prose between.\n\nI sell 3 buns.\n";
    let workspace = Workspace::build([("varar/s.md", text)]);
    let first = planned(&workspace, "varar/s.md", Against::entry(None));
    let names: Vec<Option<&str>> = first.candidates.iter().map(|c| c.name.as_deref()).collect();
    assert_eq!(names, [Some("I put 2 buns in the basket"), None, None]);
    let written = first.record("varar/s.md", "fnv1a:0").entry;
    let written = written.as_ref().map(|e| e.examples.clone());
    assert_eq!(
        written,
        Some(vec![LockExample {
            name: "I put 2 buns in the basket".into(),
            line: 3
        }])
    );
    // The entry the first run wrote reads as recorded.
    let recorded = entry(&[("I put 2 buns in the basket", 3)]);
    let kept = PlannedOath::judged(
        first.plan.clone(),
        first.candidates.clone(),
        Against::entry(Some(&recorded)),
    );
    let again = planned(&workspace, "varar/s.md", Against::entry(Some(&recorded)));
    assert_eq!(
        kept.map(|k| (k.drifts, k.removed, k.added)),
        Some((again.drifts, again.removed, again.added))
    );
    // An entry that names a dead candidate does not.
    let drifted = entry(&[("I sell 3 buns", 7)]);
    let kept = PlannedOath::judged(
        first.plan.clone(),
        first.candidates.clone(),
        Against::entry(Some(&drifted)),
    );
    assert_eq!(kept, None);
    let again = planned(&workspace, "varar/s.md", Against::entry(Some(&drifted)));
    assert!(again.candidates.iter().all(|c| c.name.is_some()));
    assert_eq!(again.drifts.len(), 1);
    assert_eq!(again.drifts[0].line, 7);
}

/// The names a shell makes where it plans (`ExampleNames::of`, on its
/// planning threads) give the items [`items`] makes itself; names made for
/// another plan are not used.
#[test]
fn example_names_made_ahead_give_the_same_items() {
    let workspace = Workspace::build([("varar/a.md", A), ("varar/shared.md", SHARED)]);
    let a = planned(&workspace, "varar/a.md", Against::default());
    let shared = planned(&workspace, "varar/shared.md", Against::default());
    // Leaked: the closure below lists with names of any age.
    let made: &'static [ExampleNames; 2] = Box::leak(Box::new([
        ExampleNames::of("varar/a.md", &a.plan),
        ExampleNames::of("varar/shared.md", &shared.plan),
    ]));
    let oaths = |names: [Option<&'static ExampleNames>; 2]| {
        [
            OathItems::Planned {
                path: "varar/a.md",
                plan: &a.plan,
                drifts: &a.drifts,
                names: names[0],
            },
            OathItems::Planned {
                path: "varar/shared.md",
                plan: &shared.plan,
                drifts: &shared.drifts,
                names: names[1],
            },
        ]
    };
    let made_here = items(&oaths([None, None]));
    assert_eq!(items(&oaths([Some(&made[0]), Some(&made[1])])), made_here);
    // `shared.md`'s names given to `a.md` (another plan's), none to
    // `shared.md`.
    assert_eq!(items(&oaths([Some(&made[1]), None])), made_here);
}
