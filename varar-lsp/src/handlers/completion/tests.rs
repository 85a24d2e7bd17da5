use super::*;
use crate::tests::support::bakery;

fn labels(list: &CompletionList) -> Vec<&str> {
    list.items.iter().map(|i| i.label.as_str()).collect()
}

#[test]
fn the_typed_words_select_the_expressions() {
    let index = bakery();
    let text = "# B\n\nThe customer pays. I put 2 cr";
    let list = complete(text, text.encode_utf16().count() as u32, &index);
    assert!(list.is_incomplete);
    assert_eq!(labels(&list), ["I put {int} {word} in the basket"]);
    let item = &list.items[0];
    let Some(CompletionTextEdit::Edit(edit)) = &item.text_edit else {
        panic!("no edit")
    };
    // From the sentence's start to the cursor.
    assert_eq!(
        (edit.range.start.character, edit.range.end.character),
        (19, 29)
    );
    assert_eq!(edit.new_text, "I put ${1:int} ${2:word} in the basket$0");
    assert_eq!(item.filter_text.as_deref(), Some("I put 2 cr"));
    assert_eq!(
        item.detail.as_deref(),
        Some("stimulus · tests/steps/basket.rs:21")
    );
    // A number may start `{int} {word} are left …`, a word may not.
    let text = "- 7 b";
    assert_eq!(
        labels(&complete(text, 5, &index)),
        ["{int} {word} are left on the shelf"]
    );
    let text = "I s";
    assert_eq!(
        labels(&complete(text, 3, &index)),
        ["I sell {int} {word} from the shelf"]
    );
    // At the start of a sentence: every step.
    assert_eq!(complete("", 0, &index).items.len(), 11);
}

#[test]
fn snippets_keep_quotes_stars_choices_and_optionals() {
    assert_eq!(snippet("I greet {string}"), "I greet \"${1:string}\"$0");
    assert_eq!(snippet("I mention {emph}"), "I mention *${1:emph}*$0");
    assert_eq!(
        snippet("I eat/drink {int} cake(s)"),
        "I ${1|eat,drink|} ${2:int} cakes$0"
    );
    assert_eq!(
        snippet(r"costs \$5 \{x\} {}"),
        r"costs \$5 {x\} ${1:text}$0"
    );
    assert!(fits(
        "the basket contains {int} user(s)",
        &["the", "basket", "contains", "3", "users"],
        false
    ));
    assert!(fits(
        "the basket contains {int} user(s)",
        &["the", "basket", "contains", "3", "user"],
        false
    ));
    assert!(!fits(
        "the basket contains {int} user(s)",
        &["the", "basket", "contains", "x"],
        true
    ));
    assert!(fits("I eat/drink", &["I", "dri"], true));
    assert!(!fits("I eat/drink", &["I", "dri"], false));
}
