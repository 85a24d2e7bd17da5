use super::*;
use crate::tests::support::bakery;

const BASKET: &str = include_str!("../../../../examples/bakery/varar/basket.md");
const OPENING: &str = include_str!("../../../../examples/bakery/varar/opening-the-shop.md");
const SERVING: &str = include_str!("../../../../examples/bakery/varar/serving-a-customer.md");
const SHELF: &str = include_str!("../../../../examples/bakery/varar/shelf.md");
const RUSH: &str = include_str!("../../../../examples/bakery/varar/the-morning-rush.md");

fn oaths(extra: &[(&str, &str)]) -> Oaths {
    let mut all: Vec<(String, String)> = [
        ("varar/basket.md", BASKET),
        ("varar/opening-the-shop.md", OPENING),
        ("varar/serving-a-customer.md", SERVING),
        ("varar/shelf.md", SHELF),
        ("varar/the-morning-rush.md", RUSH),
    ]
    .iter()
    .map(|(p, t)| (p.to_string(), t.to_string()))
    .collect();
    all.extend(extra.iter().map(|(p, t)| (p.to_string(), t.to_string())));
    Oaths::from_disk(all)
}

fn step(index: &StepIndex, expression: &str) -> usize {
    index
        .registry()
        .steps
        .iter()
        .position(|s| &*s.spec.expression == expression)
        .unwrap_or_else(|| panic!("no step {expression}"))
}

fn rewritten(edits: &[Edit]) -> Vec<(String, u32, &str)> {
    edits
        .iter()
        .map(|e| match &e.target {
            Target::Oath(p) => (p.clone(), e.span.start_line, e.text.as_str()),
            Target::Rust(p) => (p.display().to_string(), e.span.start_line, e.text.as_str()),
        })
        .collect()
}

#[test]
fn every_sentence_is_rewritten_with_its_values_and_a_spliced_one_once() {
    let index = bakery();
    let oaths = oaths(&[]);
    let world = World {
        index: &index,
        lock: None,
        oaths: &oaths,
    };
    let puts = step(&index, "the baker puts {int} {word} on the shelf");
    let edits = rename(&world, puts, "the baker stocks {int} {word} on the shelf")
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(
        rewritten(&edits),
        [
            (
                "varar/opening-the-shop.md".to_string(),
                11,
                "the baker stocks 12 croissants on the shelf"
            ),
            (
                "varar/shelf.md".to_string(),
                10,
                "the baker stocks 12 buns on the shelf"
            ),
            (
                "varar/shelf.md".to_string(),
                14,
                "the baker stocks 3 scones on the shelf"
            ),
            (
                "/bakery/tests/steps/shelf.rs".to_string(),
                7,
                "\"the baker stocks {int} {word} on the shelf\""
            ),
        ]
    );
    // An optional part: the reading closest to each old sentence.
    let sell = step(&index, "I sell {int} {word} from the shelf");
    let edits = rename(&world, sell, "I sell {int} {word} off the shelf(s)")
        .unwrap_or_else(|e| panic!("{e}"));
    let texts: Vec<&str> = edits.iter().map(|e| e.text.as_str()).collect();
    assert_eq!(
        texts[..5],
        [
            "I sell 2 croissants off the shelf",
            "I sell 5 buns off the shelf",
            "I sell 4 scones off the shelf",
            "I sell 4 croissants off the shelf",
            "I sell 6 croissants off the shelf",
        ]
    );
}

#[test]
fn what_cannot_be_done_safely_is_refused_with_the_reason() {
    let index = bakery();
    let van = "# Van\n\nThe van holds 9 items.\n";
    let oaths = oaths(&[("varar/van.md", van)]);
    let world = World {
        index: &index,
        lock: None,
        oaths: &oaths,
    };
    let sell = step(&index, "I sell {int} {word} from the shelf");
    let refused = |step: usize, new: &str| match rename(&world, step, new) {
        Ok(edits) => panic!("{new}: not refused: {edits:?}"),
        Err(e) => e,
    };
    assert!(matches!(
        refused(sell, "I sell {int} from the shelf"),
        Refusal::Parameters { .. }
    ));
    assert_eq!(
        refused(sell, "I sell {word} {int} from the shelf").to_string(),
        "the parameters would change from {int} {word} to {word} {int}: a rename keeps each sentence's values, so it cannot add, remove or retype one"
    );
    assert!(matches!(
        refused(sell, "I sell {nope} {word}"),
        Refusal::Expression { .. }
    ));
    assert!(matches!(
        refused(sell, "the baker puts {int} {word} on the shelf"),
        Refusal::Registry(_)
    ));
    let ambiguous = refused(sell, "I put {int} {word} in the basket(s)");
    assert!(
        matches!(ambiguous, Refusal::Ambiguous { .. }),
        "{ambiguous}"
    );
    let holds = step(&index, "the basket holds {int} items");
    let captured = refused(holds, "holds {int} items");
    assert_eq!(
        captured.to_string(),
        "`holds {int} items` would also match \"holds 9 items\" (varar/van.md:3), which it does not match now"
    );
    // Unchanged: nothing to do.
    assert_eq!(
        rename(&world, sell, "I sell {int} {word} from the shelf"),
        Ok(Vec::new())
    );
}

#[test]
fn asked_from_a_sentence_or_from_the_attribute_string() {
    let index = bakery();
    let path = Path::new("/bakery/tests/steps/shelf.rs");
    let sell = step(&index, "I sell {int} {word} from the shelf");
    let (_, item) = index.step(sell).unwrap_or_else(|| panic!("sell"));
    let at = item.expression_span;
    let found = step_in_rust(&index, path, at.start_line - 1, at.start_col + 3);
    let (found, span) = found.unwrap_or_else(|| panic!("not found"));
    assert_eq!(found, sell);
    assert_eq!(span.start_col, at.start_col + 1);
    assert_eq!(span.end_col, at.end_col - 1);
    assert_eq!(step_in_rust(&index, path, at.start_line - 2, 0), None);
}

/// A new text with NUL or a right-to-left override was written into
/// every oath; it is refused, the character named by its code point.
#[test]
fn a_new_text_with_a_control_bidi_or_invisible_character_is_refused_by_code_point() {
    let index = bakery();
    let oaths = oaths(&[]);
    let world = World {
        index: &index,
        lock: None,
        oaths: &oaths,
    };
    let sell = step(&index, "I sell {int} {word} from the shelf");
    for (new, code_point, at) in [
        ("I sell {int} {word} from the\0 shelf", "U+0000", 29),
        ("I sell {int} {word} from the \u{202E}flehs", "U+202E", 30),
        ("I sell {int} {word}\u{2066} from the shelf", "U+2066", 20),
        ("I sell {int} {word} from the\nshelf", "U+000A", 29),
        ("I sell {int} {word} from the\u{200B} shelf", "U+200B", 29),
        ("\u{1B}[8mI sell {int} {word} from the shelf", "U+001B", 1),
    ] {
        let refused = rename(&world, sell, new);
        let Err(Refusal::Character {
            code_point: found,
            at: place,
            ..
        }) = &refused
        else {
            panic!("{new:?}: not refused: {refused:?}");
        };
        assert_eq!((found.as_str(), *place), (code_point, at), "{new:?}");
    }
    assert_eq!(
        rename(&world, sell, "I sell {int} {word} from the \u{202E}flehs")
            .map_err(|e| e.to_string()),
        Err(
            "`I sell {int} {word} from the \\u{202E}flehs` holds U+202E at character 30, \
             a bidirectional-text control: it changes the order in which the text is shown; \
             a rename would write it into every oath that uses the step"
                .to_string()
        )
    );
    // A tab is text in an expression (spec 20 §20.2.1): it is kept.
    let edits = rename(&world, sell, "I sell {int} {word}\tfrom the shelf")
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(edits[0].text, "I sell 2 croissants\tfrom the shelf");
}
