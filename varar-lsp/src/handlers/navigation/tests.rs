use super::*;
use crate::tests::support::{at, bakery, plan};

const TEXT: &str =
    "# B\n\nI put 2 croissants in the basket, so the total is £2.40.\n\nSome prose.\n";

#[test]
fn definition_of_a_sentence_and_of_a_custom_parameter() {
    let index = bakery();
    let a = plan(&index, TEXT);
    let target = definition(&a, &index, at(TEXT, "put", 0)).unwrap_or_else(|| panic!("no target"));
    assert!(target.path.ends_with("tests/steps/basket.rs"));
    let (_, put) = index.step(1).unwrap_or_else(|| panic!("step"));
    assert_eq!(target.span, put.function.name_span);
    // A built-in parameter: the step function too.
    let on_int = definition(&a, &index, at(TEXT, "2 croissants", 0));
    assert_eq!(on_int.map(|t| t.span), Some(put.function.name_span));
    // A custom parameter: its parse function.
    let money = definition(&a, &index, at(TEXT, "£2.40", 1)).unwrap_or_else(|| panic!("money"));
    assert!(money.path.ends_with("tests/steps/mod.rs"));
    assert_eq!(money.span.start_line, 17);
    assert!(definition(&a, &index, at(TEXT, "prose", 0)).is_none());
}

#[test]
fn hover_shows_expression_signature_docs_and_values() {
    let index = bakery();
    let text = "I pay £5.00 and my change is £3.20.\n";
    let a = plan(&index, text);
    let (markdown, span) =
        hover(&a, &index, at(text, "my change", 0)).unwrap_or_else(|| panic!("hover"));
    assert!(
        markdown.starts_with("**sensor** `I pay {money} and my change is {money}`"),
        "{markdown}"
    );
    assert!(markdown.contains("fn change(till: &Till, paid: Money, _change: Money)"));
    assert!(markdown.contains("Two slots: the amount paid is an input"));
    assert!(markdown.contains("reads the state `Till`, which starts from `Default`"));
    assert!(
        markdown.ends_with("*tests/steps/basket.rs:44*"),
        "{markdown}"
    );
    assert_eq!(span.start_offset, 0);
    let (markdown, span) =
        hover(&a, &index, at(text, "£3.20", 2)).unwrap_or_else(|| panic!("param"));
    assert_eq!(span.start_offset, at(text, "£3.20", 0));
    assert!(
        markdown.contains("value: `£3.20` → `parse(\"3\", \"20\")`"),
        "{markdown}"
    );
    assert!(
        markdown.contains("received as `_change: Money`"),
        "{markdown}"
    );
    assert!(
        markdown.contains("parsed by `money` into `Money` (tests/steps/mod.rs:17)"),
        "{markdown}"
    );
    let text = "I put 2 buns in the basket.\n";
    let a = plan(&index, text);
    let (markdown, _) = hover(&a, &index, at(text, "2", 0)).unwrap_or_else(|| panic!("int"));
    assert!(
        markdown.contains("value: `2`")
            && markdown.contains("`quantity: i64`")
            && markdown.contains("built-in type"),
        "{markdown}"
    );
}

#[test]
fn issue38_hover_on_a_sentence_names_its_examples_tags() {
    let index = bakery();
    let text = "<!-- @till -->\n# Till\n\n<!-- @smoke -->\nI pay £5.00 and my change is £3.20.\n\nI pay £1.00 and my change is £0.00.\n";
    let a = plan(&index, text);
    let (markdown, _) =
        hover(&a, &index, at(text, "my change", 0)).unwrap_or_else(|| panic!("hover"));
    assert!(
        markdown.ends_with("*tests/steps/basket.rs:44*\n\nthe example is tagged `@till` `@smoke`"),
        "{markdown}"
    );
    let (markdown, _) =
        hover(&a, &index, at(text, "pay £1.00", 0)).unwrap_or_else(|| panic!("hover"));
    assert!(
        markdown.ends_with("the example is tagged `@till`"),
        "only its section's tag: {markdown}"
    );
    // A parameter's hover is about the value: no tags.
    let (markdown, _) = hover(&a, &index, at(text, "£3.20", 2)).unwrap_or_else(|| panic!("param"));
    assert!(!markdown.contains("tagged"), "{markdown}");
}

#[test]
fn references_are_every_sentence_of_the_step() {
    let index = bakery();
    let a = plan(&index, TEXT);
    let b = plan(&index, "I put 1 bun in the basket.\n");
    let refs = references(1, &[&a, &b]);
    assert_eq!(refs.len(), 2);
    assert_eq!(refs[0].1.start_offset, at(TEXT, "I put", 0));
    assert_eq!(refs[1].1.start_offset, 0);
    assert!(references(0, &[&a, &b]).is_empty());
}
