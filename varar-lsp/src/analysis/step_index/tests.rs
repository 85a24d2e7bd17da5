use super::*;
use crate::tests::support::{bakery, bakery_files};

#[test]
fn the_registry_is_ordered_as_the_harness_orders_inventory() {
    let index = bakery();
    let exprs: Vec<&str> = index
        .registry()
        .steps
        .iter()
        .map(|s| &*s.spec.expression)
        .collect();
    // By file label (basket.rs < shelf.rs), then line.
    assert_eq!(
        exprs,
        [
            "the menu is",
            "I put {int} {word} in the basket",
            "I ask for a receipt made out to {string}",
            "the basket holds {int} items",
            "the total is {money}",
            "I pay {money} and my change is {money}",
            "the receipt reads",
            "the baker puts {int} {word} on the shelf",
            "I sell {int} {word} from the shelf",
            "{int} {word} are left on the shelf",
            "the opening stock, how many were baked, how many were sold and the closing stock",
        ]
    );
    assert_eq!(index.registry().types().custom().count(), 1);
    let (file, step) = index.step(1).unwrap_or_else(|| panic!("no step 1"));
    assert_eq!(
        (file.label.as_str(), step.function.name.as_str()),
        ("tests/steps/basket.rs", "put")
    );
    assert_eq!(
        index.step_at_line(&file.path, step.function.line - 2),
        Some(1),
        "the #[stimulus] line"
    );
    assert_eq!(index.step_at_line(&file.path, step.function.line + 1), None);
    assert!(index.problems().is_empty());
}

#[test]
fn a_file_that_stops_parsing_keeps_its_steps_and_reports_once() {
    let mut index = bakery();
    let (path, label, text) = bakery_files().remove(2);
    let generation = index.generation();
    let broken = text.replace("fn sell(", "fn sell((");
    assert!(
        !index.update(path.clone(), label.clone(), &broken),
        "nothing to replan"
    );
    assert_eq!(index.generation(), generation);
    let file = index.file(&path).unwrap_or_else(|| panic!("file kept"));
    assert!(file.error.is_some());
    assert_eq!(file.items.steps.len(), 4);
    assert_eq!(index.registry().steps.len(), 11);
    // Fixed with one step renamed: the registry follows.
    let fixed = text.replace("from the shelf\")]", "off the shelf\")]");
    assert!(index.update(path.clone(), label, &fixed));
    assert!(index.file(&path).is_some_and(|f| f.error.is_none()));
    assert!(
        index
            .registry()
            .steps
            .iter()
            .any(|s| &*s.spec.expression == "I sell {int} {word} off the shelf")
    );
    assert!(index.remove(&path));
    assert_eq!(index.registry().steps.len(), 7);
}

#[test]
fn refused_definitions_are_problems_and_the_rest_still_plans() {
    let files = vec![
        (
            PathBuf::from("/p/a.rs"),
            "a.rs".to_string(),
            "#[stimulus(\"I go\")] fn a() {}\n#[stimulus(\"I use {nope}\")] fn b(x: String) {}\n#[varar::parameter(name = \"int\", regex = \"x\")] fn p(s: &str) -> P { P }\n".to_string(),
        ),
        (
            PathBuf::from("/p/b.rs"),
            "b.rs".to_string(),
            "#[sensor(\"I go\")] fn dup() {}\n#[sensor(\"it works\")] fn ok() {}\n".to_string(),
        ),
    ];
    let index = StepIndex::load(files);
    let exprs: Vec<&str> = index
        .registry()
        .steps
        .iter()
        .map(|s| &*s.spec.expression)
        .collect();
    assert_eq!(exprs, ["I go", "it works"]);
    let problems: Vec<(String, u32, &str)> = index
        .problems()
        .iter()
        .map(|p| {
            (
                p.path.display().to_string(),
                p.span.start_line,
                p.message.as_str(),
            )
        })
        .collect();
    assert_eq!(problems.len(), 3, "{problems:?}");
    assert!(problems.iter().any(|(p, l, m)| p == "/p/a.rs"
        && *l == 3
        && m.contains("already a parameter type with name int")));
    assert!(problems.iter().any(|(p, l, m)| p == "/p/a.rs"
        && *l == 2
        && m.contains("Undefined parameter type 'nope'")));
    assert!(problems.iter().any(|(p, _, m)| p == "/p/b.rs"
        && m.starts_with("duplicate step definition for \"I go\" at a.rs:1")));
}
