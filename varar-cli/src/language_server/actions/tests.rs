use super::*;
use crate::language_server::tests::support::{at, bakery, plan};

#[test]
fn a_stimulus_with_inferred_parameters_for_each_step_file() {
    let index = bakery();
    let text = "# B\n\nI juggle 3 \"red\" balls for *Emma* at £2.50 in 1.5 minutes.\n";
    let a = plan(&index, text);
    let actions = create_step(&a, &index, at(text, "juggle", 0));
    let files: Vec<&str> = actions
        .iter()
        .map(|n| n.title.rsplit(' ').next().unwrap_or(""))
        .collect();
    assert_eq!(files, ["tests/steps/basket.rs", "tests/steps/shelf.rs"]);
    let basket = &actions[0];
    assert_eq!(
        basket.title,
        "Create stimulus \"I juggle {int} {string} balls for {emph} at {money} in {float} minutes\" in tests/steps/basket.rs"
    );
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
    assert!(actions[1].text.contains("(_shelf: &mut Shelf,"));
    // A matched sentence gets nothing.
    assert!(create_step(&a, &index, 0).is_empty());
    let text = "I put 2 buns in the basket.\n";
    assert!(create_step(&plan(&index, text), &index, 3).is_empty());
}

#[test]
fn the_last_of_several_sentences_is_a_sensor_returning_its_slots() {
    let index = bakery();
    let text = "I put 2 buns in the basket. The bag weighs 3 kg and 2 g!\n";
    let a = plan(&index, text);
    let actions = create_step(&a, &index, at(text, "weighs", 0));
    assert!(actions[0].text.starts_with(
        "\n#[varar::sensor(\"The bag weighs {int} kg and {int} g\")]\nfn the_bag_weighs_kg_and_g(_till: &Till, _int: i64, _int_2: i64) -> (i64, i64) {"
    ), "{}", actions[0].text);
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
