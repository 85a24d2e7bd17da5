use varar_core::drift::Drift;
use varar_core::names::ItemKind;

use super::*;
use crate::language_server::tests::support::{bakery, plan};

#[test]
fn examples_then_diagnostics_then_drift_repeats_numbered() {
    let index = bakery();
    let text = "# Shop\n\nI put 1 bun in the basket.\n\n---\n\nI put 1 bun in the basket.\n\n\
                I juggle.\n\n```error\nboom\n```\n\nI juggle.\n\n```error\nboom\n```\n";
    let a = plan(&index, text);
    let drift = Drift {
        name: "I was here".into(),
        line: 7,
        span: a.plan.diagnostics[0].span,
    };
    let drifts = [drift];
    let found = items(&[PlannedOath {
        path: "varar/x.md",
        plan: &a.plan,
        drifts: &drifts,
    }]);
    let names: Vec<(&str, ItemKind, u32)> = found
        .iter()
        .map(|i| (i.name.as_str(), i.kind(), i.line()))
        .collect();
    assert_eq!(
        names,
        [
            (
                "varar/x.md::Shop::I put 1 bun in the basket",
                ItemKind::Example,
                3
            ),
            (
                "varar/x.md::Shop::I put 1 bun in the basket[1]",
                ItemKind::Example,
                7
            ),
            (
                "varar/x.md::varar:diagnostic:error-fence-without-step:11",
                ItemKind::Diagnostic,
                11
            ),
            (
                "varar/x.md::varar:diagnostic:error-fence-without-step:17",
                ItemKind::Diagnostic,
                17
            ),
            ("varar/x.md::varar:drift:7", ItemKind::Drift, 7),
        ]
    );
    let examples: Vec<String> = example_items("varar/x.md", &a.plan)
        .into_iter()
        .map(|i| i.name)
        .collect();
    assert_eq!(examples.len(), 2);
    assert_eq!(
        examples[1],
        "varar/x.md::Shop::I put 1 bun in the basket[1]"
    );
}
