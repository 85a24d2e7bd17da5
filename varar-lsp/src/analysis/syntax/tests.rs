use super::*;

const STEPS: &str = r####"//! Steps.
use varar::{sensor, stimulus, Table};

/// The till.
#[derive(Default)]
pub struct Till;

/// Puts things in the basket.
/// Second line.
#[stimulus("I put {int} {word} in the basket")]
fn put(till: &mut Till, quantity: i64, item: String) {}

#[varar::sensor(r"the total is {money}")]
async fn total(till: &Till) -> Amount { till.total() }

#[sensor("the menu reads")]
fn menu(table: Table) -> Table { table }

#[stimulus("I greet {string}")]
fn greet(name: &str) {}

#[stimulus("I replace")]
fn replace(_: Till) -> Till { Till }

#[varar::parameter(name = "money", regex = r"£(\d+)\.(\d{2})", format)]
fn money(pounds: &str, pence: &str) -> Result<Amount, MoneyError> { Amount::parse(pounds, pence) }

mod inner {
    #[varar::resource]
    async fn shop() -> Result<Shop, std::io::Error> { Shop::open().await }
    #[varar::state]
    fn customer(shop: &Shop) -> Customer { shop.customer() }
    #[varar::teardown]
    fn leave(customer: Customer) {}
}

#[stimulus(42)]
fn malformed() {}

#[other::stimulus("not ours")]
fn foreign() {}
"####;

#[test]
fn every_kind_of_definition_is_collected_with_its_places() {
    let items = collect(STEPS).unwrap_or_else(|e| panic!("{e:?}"));
    let exprs: Vec<(&str, Role)> = items
        .steps
        .iter()
        .map(|s| (s.expression.as_str(), s.role))
        .collect();
    assert_eq!(
        exprs,
        [
            ("I put {int} {word} in the basket", Role::Stimulus),
            ("the total is {money}", Role::Sensor),
            ("the menu reads", Role::Sensor),
            ("I greet {string}", Role::Stimulus),
            ("I replace", Role::Stimulus),
        ]
    );
    let put = &items.steps[0];
    assert_eq!(put.function.name, "put");
    assert_eq!(put.function.line, 11);
    assert_eq!(put.function.column, 4);
    assert_eq!(
        (
            put.function.name_span.start_line,
            put.function.name_span.start_col
        ),
        (11, 4)
    );
    assert_eq!(
        (
            put.expression_span.start_line,
            put.expression_span.start_col,
            put.expression_span.end_col
        ),
        (10, 12, 46)
    );
    assert_eq!(
        (
            put.function.head_span.start_line,
            put.function.head_span.end_line
        ),
        (10, 11)
    );
    // The whole function, attribute to closing brace (`--since`).
    let total = &items.steps[1].function.span;
    assert_eq!((total.start_line, total.end_line), (13, 14));
    assert_eq!(total.end_col, 55);
    assert_eq!(
        put.function.signature,
        "fn put(till: &mut Till, quantity: i64, item: String)"
    );
    assert_eq!(
        put.function.docs,
        "Puts things in the basket.\nSecond line."
    );
    assert_eq!(
        put.state,
        Some(StateParam {
            mode: StateMode::Mut,
            type_name: "Till".into()
        })
    );
    let captures: Vec<(&str, &str)> = put
        .captures
        .iter()
        .map(|c| (c.name.as_str(), c.type_name.as_str()))
        .collect();
    assert_eq!(captures, [("quantity", "i64"), ("item", "String")]);
    assert!(
        items.steps[1]
            .function
            .signature
            .starts_with("async fn total")
    );
    assert_eq!(
        items.steps[1].state.as_ref().map(|s| s.mode),
        Some(StateMode::Shared)
    );
    // A trailing table is neither state nor capture.
    assert_eq!(
        (items.steps[2].state.clone(), items.steps[2].captures.len()),
        (None, 0)
    );
    assert_eq!(items.steps[2].trailing, Trailing::Table);
    // `&str` is a capture, not a state.
    assert!(items.steps[3].state.is_none());
    assert_eq!(
        items.steps[4].state.as_ref().map(|s| s.mode),
        Some(StateMode::Owned)
    );

    let money = &items.parameters[0];
    assert_eq!(
        (money.name.as_str(), money.regex.as_str()),
        ("money", r"£(\d+)\.(\d{2})")
    );
    assert_eq!(money.value_type.as_deref(), Some("Amount"));
    let hooks: Vec<(HookKind, &str, Option<&str>)> = items
        .hooks
        .iter()
        .map(|h| (h.kind, h.function.name.as_str(), h.type_name.as_deref()))
        .collect();
    assert_eq!(
        hooks,
        [
            (HookKind::Resource, "shop", Some("Shop")),
            (HookKind::State, "customer", Some("Customer")),
            (HookKind::Teardown, "leave", Some("Customer")),
        ]
    );
}

#[test]
fn a_file_that_does_not_parse_is_one_error_with_its_place() {
    let err = collect("#[stimulus(\"a\")]\nfn a() {\n").err();
    let err = err.unwrap_or_else(|| panic!("should not parse"));
    assert_eq!(err.span.start_line, 2, "{err:?}");
    assert!(!err.message.is_empty());
}

#[test]
fn positions_are_utf16_and_survive_a_byte_order_mark() {
    let text = "\u{feff}// é😀\n#[stimulus(\"a\")] fn a() {}\n";
    let items = collect(text).unwrap_or_else(|e| panic!("{e:?}"));
    let f = &items.steps[0].function;
    assert_eq!((f.name_span.start_line, f.name_span.start_col), (2, 21));
    assert_eq!(f.signature, "fn a()");
}

#[test]
fn a_test_target_that_runs_the_oaths_is_told_from_one_that_does_not() {
    for (text, runs) in [
        (
            "mod steps;\nfn main() -> std::process::ExitCode {\n    varar::run()\n}\n",
            true,
        ),
        (
            "fn main() -> std::process::ExitCode {\n    varar::Runner::from_env()\n        .steps_from(&[\"a\"])\n        .run()\n}\n",
            true,
        ),
        (
            "fn main() { println!(\"varar::run()\"); }\nfn other() { varar::run(); }\n",
            false,
        ),
        ("#[test]\nfn t() {}\n", false),
        ("fn main( {", false),
    ] {
        assert_eq!(calls_varar_run(text), runs, "{text}");
    }
}
