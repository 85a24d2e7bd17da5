use super::*;
use crate::tests::support::{at, bakery, plan};

fn titles(actions: &[NewStep]) -> Vec<&str> {
    actions.iter().map(|n| n.title.as_str()).collect()
}

#[test]
fn a_stimulus_and_a_sensor_with_inferred_parameters_for_each_step_file() {
    let index = bakery();
    let text = "# B\n\nI juggle 3 \"red\" balls for *Emma* at £2.50 in 1.5 minutes.\n";
    let a = plan(&index, text);
    let actions = create_step(&a, &index, at(text, "juggle", 0));
    let expression = "I juggle {int} {string} balls for {emph} at {money} in {float} minutes";
    assert_eq!(
        titles(&actions),
        [
            format!("Create stimulus \"{expression}\" in tests/steps/basket.rs"),
            format!("Create sensor \"{expression}\" in tests/steps/basket.rs"),
            format!("Create stimulus \"{expression}\" in tests/steps/shelf.rs"),
            format!("Create sensor \"{expression}\" in tests/steps/shelf.rs"),
        ]
    );
    let preferred: Vec<bool> = actions.iter().map(|a| a.preferred).collect();
    assert_eq!(preferred, [true, false, false, false]);
    let basket = &actions[0];
    assert_eq!(
        basket.text,
        "\n#[varar::stimulus(\"I juggle {int} {string} balls for {emph} at {money} in {float} minutes\")]\n\
         fn i_juggle_balls_for_at_in(_till: &mut Till, _int: i64, _string: String, _emph: String, _money: Money, _float: f64) {\n    \
         panic!(r#\"not written yet: the stimulus \"I juggle {int} {string} balls for {emph} at {money} in {float} minutes\"\"#)\n}\n"
    );
    let (_, end) = index
        .files()
        .next()
        .map(|f| (f, f.end))
        .unwrap_or_else(|| panic!("file"));
    assert_eq!(basket.at, end);
    assert!(actions[1].text.contains("(_till: &Till, _int: i64,"));
    assert!(actions[2].text.contains("(_shelf: &mut Shelf,"));
    // A matched sentence gets nothing.
    assert!(create_step(&a, &index, 0).is_empty());
    let text = "I put 2 buns in the basket.\n";
    assert!(create_step(&plan(&index, text), &index, 3).is_empty());
}

#[test]
fn in_an_example_the_file_of_its_steps_and_a_value_after_is_makes_a_sensor_first() {
    let index = bakery();
    let text = "I put 2 buns in the basket. The bag weight is 3 kg and 2 g!\n\nI bake 3 loaves.\n";
    let a = plan(&index, text);
    let actions = create_step(&a, &index, at(text, "weight", 0));
    assert_eq!(
        titles(&actions),
        [
            "Create sensor \"The bag weight is {int} kg and {int} g\" in tests/steps/basket.rs",
            "Create stimulus \"The bag weight is {int} kg and {int} g\" in tests/steps/basket.rs",
        ]
    );
    assert!(actions[0].text.starts_with(
        "\n#[varar::sensor(\"The bag weight is {int} kg and {int} g\")]\nfn the_bag_weight_is_kg_and(_till: &Till, _int: i64, _int_2: i64) -> (i64, i64) {"
    ), "{}", actions[0].text);
    // Alone in its paragraph, no value after a verb of state: a stimulus
    // first, in every step file.
    let actions = create_step(&a, &index, at(text, "bake", 0));
    assert_eq!(
        titles(&actions),
        [
            "Create stimulus \"I bake {int} loaves\" in tests/steps/basket.rs",
            "Create sensor \"I bake {int} loaves\" in tests/steps/basket.rs",
            "Create stimulus \"I bake {int} loaves\" in tests/steps/shelf.rs",
            "Create sensor \"I bake {int} loaves\" in tests/steps/shelf.rs",
        ]
    );
    assert!(
        actions[3]
            .text
            .contains("fn i_bake_loaves(_shelf: &Shelf, _int: i64) -> i64 {")
    );
}

#[test]
fn special_characters_are_escaped_and_checked() {
    let index = bakery();
    let text = "Use a/b (or {c}) with a \\ backslash.\n";
    let a = plan(&index, text);
    let actions = create_step(&a, &index, 2);
    assert!(
        actions[0]
            .title
            .starts_with(r#"Create stimulus "Use a\/b \(or \{c\}\) with a \\ backslash" in"#),
        "{}",
        actions[0].title
    );
    assert!(
        actions[0]
            .text
            .contains(r##"#[varar::stimulus(r#"Use a\/b \(or \{c\}\) with a \\ backslash"#)]"##)
    );
}

mod review_fixes {
    use super::super::review::{accept_drift, observed_data, write_observed};
    use crate::tests::support::{at, bakery, plan_with_lock};
    use varar_core::lock::{Lock, LockEntry, LockExample, serialize_lock};

    #[test]
    fn the_observed_value_is_offered_only_over_the_expected_text() {
        let data = observed_data("6", "5");
        let (title, text) = write_observed(Some(&data), "6").unwrap_or_else(|| panic!("no fix"));
        assert_eq!(text, "5");
        assert!(title.starts_with("Write the observed value `5`"), "{title}");
        // The text changed since the run drew it, or no data: nothing.
        assert_eq!(write_observed(Some(&data), "7"), None);
        assert_eq!(write_observed(None, "6"), None);
    }

    #[test]
    fn a_drift_is_accepted_by_dropping_only_its_example_from_the_lock() {
        let index = bakery();
        let example = |name: &str, line| LockExample {
            name: name.into(),
            line,
        };
        let mut lock = Lock::default();
        lock.oaths.insert(
            "varar/x.md".into(),
            LockEntry {
                source_hash: "fnv1a:00000000".into(),
                examples: vec![
                    example("I put 2 buns in the basket", 1),
                    example("The buns were put in the basket", 3),
                ],
            },
        );
        lock.oaths.insert(
            "varar/y.md".into(),
            LockEntry {
                source_hash: "fnv1a:11111111".into(),
                examples: vec![example("other", 1)],
            },
        );
        let text = "I put 2 buns in the basket.\n\nThe buns were put in the basket.\n";
        let a = plan_with_lock(&index, Some(&lock), text);
        assert_eq!(a.drifts.len(), 1, "{:?}", a.drifts);
        let bytes = serialize_lock(&lock);
        let (title, after) = accept_drift(&a, at(text, "The buns", 2), bytes.as_bytes())
            .unwrap_or_else(|| panic!("no fix"));
        assert!(title.starts_with("Accept as prose"), "{title}");
        if let Some(entry) = lock.oaths.get_mut("varar/x.md") {
            entry.examples.pop();
        }
        assert_eq!(after, serialize_lock(&lock));
        // Not on the drift, or a lock not as its writer writes it: nothing.
        assert_eq!(accept_drift(&a, 0, bytes.as_bytes()), None);
        assert_eq!(accept_drift(&a, at(text, "The buns", 2), b"{}"), None);
    }
}
