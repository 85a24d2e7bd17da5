//! Expansion tests: validation messages and the shape of the emitted code.

use quote::quote;

use super::{Role, expand};

fn error_of(role: Role, attr: proc_macro2::TokenStream, item: proc_macro2::TokenStream) -> String {
    match expand(role, attr, item) {
        Ok(tokens) => panic!("expected an error, got {tokens}"),
        Err(e) => e.to_string(),
    }
}

fn expansion(role: Role, attr: proc_macro2::TokenStream, item: proc_macro2::TokenStream) -> String {
    match expand(role, attr, item) {
        Ok(tokens) => tokens.to_string(),
        Err(e) => panic!("unexpected error: {e}"),
    }
}

#[test]
fn wrong_arity_names_the_expression_parameters() {
    let msg = error_of(
        Role::Stimulus,
        quote!("I move {int} to {word}"),
        quote!(
            fn mv(n: i64) {}
        ),
    );
    assert!(
        msg.starts_with("the expression `I move {int} to {word}` has 2 parameter(s) ({int}, {word}) but the function takes 1 argument(s) for them"),
        "{msg}"
    );
}

#[test]
fn state_is_recognised_by_reference_or_by_count() {
    let cases = [
        (
            quote!(
                fn f(s: &mut S, n: i64) {}
            ),
            "__varar_world . state_mut :: < S > () ?",
        ),
        (
            quote!(
                fn f(s: &S, n: i64) {}
            ),
            "__varar_world . state_ref :: < S > () ?",
        ),
        (
            quote!(
                fn f(s: S, n: i64) -> S {
                    s
                }
            ),
            "__varar_world . take_state :: < S > () ?",
        ),
    ];
    for (item, want) in cases {
        let out = expansion(Role::Stimulus, quote!("I add {int}"), item);
        assert!(out.contains(want), "{want} not in {out}");
    }
    let out = expansion(
        Role::Stimulus,
        quote!("I greet {string}"),
        quote!(
            fn f(name: &str) {}
        ),
    );
    assert!(!out.contains("__varar_state"), "{out}");
    assert!(
        out.contains("state : :: core :: option :: Option :: None"),
        "{out}"
    );
    assert!(
        out.contains("read_text :: < :: std :: string :: String >"),
        "{out}"
    );
}

#[test]
fn sensor_may_omit_its_captures() {
    let out = expansion(
        Role::Sensor,
        quote!("the balance is {int}"),
        quote!(
            fn balance(a: &Account) -> i64 {
                a.0
            }
        ),
    );
    assert!(out.contains("int_slot :: < i64 >"), "{out}");
    assert!(!out.contains("read_int"), "{out}");
}

#[test]
fn sensor_return_shape_is_checked() {
    let cases = [
        (
            quote!("a {int} b {int}"),
            quote!(
                fn f(a: i64, b: i64) -> i64 {
                    a
                }
            ),
            "this sensor has 2 slots ({int}, {int}), so it returns a tuple of 2 values",
        ),
        (
            quote!("nothing here"),
            quote!(
                fn f() -> i64 {
                    1
                }
            ),
            "this sensor has no slots",
        ),
        (
            quote!("a {int}"),
            quote!(
                fn f(a: i64) {}
            ),
            "this sensor has 1 slot(s) ({int}): return the value",
        ),
        (
            quote!("a {int}"),
            quote!(
                fn f(a: i64, t: Table) -> i64 {
                    a
                }
            ),
            "this sensor has 2 slots ({int}, the table)",
        ),
    ];
    for (attr, item, want) in cases {
        let msg = error_of(Role::Sensor, attr, item);
        assert!(msg.starts_with(want), "{want} vs {msg}");
    }
}

#[test]
fn trailing_types_must_come_last() {
    let msg = error_of(
        Role::Stimulus,
        quote!("the users {int}"),
        quote!(
            fn f(t: Table, n: i64) {}
        ),
    );
    assert!(
        msg.starts_with("a `Table` must be the last parameter"),
        "{msg}"
    );
}

#[test]
fn stimulus_returns_unit_or_next_state() {
    let msg = error_of(
        Role::Stimulus,
        quote!("go"),
        quote!(
            fn f(s: &mut S) -> i64 {
                1
            }
        ),
    );
    assert!(msg.starts_with("a stimulus returns `()`"), "{msg}");
    let msg = error_of(
        Role::Stimulus,
        quote!("go"),
        quote!(
            fn f(s: S) {}
        ),
    );
    assert!(
        msg.starts_with("a stimulus that takes its state by value returns the next state"),
        "{msg}"
    );
}

#[test]
fn custom_slots_get_a_name_check() {
    let out = expansion(
        Role::Stimulus,
        quote!("I pay {money}"),
        quote!(
            fn pay(m: Money) {}
        ),
    );
    // The name check and the read take the type through the slot's one
    // function (issue 37), named through an alias spanned at the literal.
    assert!(
        out.contains("name_is ({ # [allow (clippy :: all)] type __VararType0 = Money ; __varar_slot0 :: < __VararType0 , _ > () } . name , \"money\")"),
        "{out}"
    );
    assert!(
        out.contains("({ # [allow (clippy :: all)] type __VararType0 = Money ; __varar_slot0 :: < __VararType0 , _ > () } . read) (__varar_inv , 0usize)"),
        "{out}"
    );
}

#[test]
fn issue37_a_name_close_to_a_built_in_suggests_it_in_the_one_error() {
    let out = expansion(
        Role::Stimulus,
        quote!("I have {integer} cukes"),
        quote!(
            fn have(n: i64) {}
        ),
    );
    assert!(
        out.contains("is not a known parameter type: did you mean the built-in `{{int}}`?"),
        "{out}"
    );
    assert!(
        out.contains("label = \"unknown parameter type `{{integer}}`; did you mean `{{int}}`?\""),
        "{out}"
    );
    // The argument is read through the slot's function only: no second
    // bound on `i64` of its own.
    assert!(!out.contains("read_custom"), "{out}");
}

#[test]
fn issue10_9_an_unknown_type_is_named_in_the_error_at_the_literal() {
    let out = expansion(
        Role::Stimulus,
        quote!("I pay {nope}"),
        quote!(
            fn pay(m: String) {}
        ),
    );
    // The slot's local trait carries a message naming `{nope}`; the check
    // names its type through an alias spanned at the literal.
    assert!(
        out.contains("message = \"`{{nope}}` in `I pay {{nope}}` is not a known parameter type"),
        "{out}"
    );
    assert!(
        out.contains("label = \"unknown parameter type `{{nope}}`\""),
        "{out}"
    );
}

#[test]
fn issue10_16_custom_returns_go_through_the_parameter_type() {
    let out = expansion(
        Role::Sensor,
        quote!("the fee is {money} or {money}"),
        quote!(
            fn fee() -> (Decimal, Option<Decimal>) {
                (Decimal::ONE, None)
            }
        ),
    );
    assert!(
        out.contains("__varar_slot0 :: < __VararType0 , _ > () } . observe) (__varar_r0)"),
        "{out}"
    );
    assert!(
        out.contains("__varar_slot1 :: < __VararType1 , _ > () } . observe_option) (__varar_r1)"),
        "{out}"
    );
}

#[test]
fn issue10_16_trailing_arguments_are_found_by_arity_and_confirmed_by_a_trait() {
    let reads = |expression: proc_macro2::TokenStream, item: proc_macro2::TokenStream| {
        let out = expansion(Role::Stimulus, expression, item);
        (
            out.contains("read_trailing"),
            out.contains(". read) (__varar_inv"),
            out.contains("state_mut"),
        )
    };
    // A user's own `Table` as a custom capture, or as the state: no
    // attachment, whatever its name.
    assert_eq!(
        reads(
            quote!("I book {table}"),
            quote!(
                fn book(r: &mut Restaurant, t: Table) {}
            )
        ),
        (false, true, true)
    );
    assert_eq!(
        reads(
            quote!("I seat {int} guests"),
            quote!(
                fn seat(t: &mut Table, n: u32) {}
            )
        ),
        (false, false, true)
    );
    // Where only the type could say, varar's name is the attachment, and the
    // trait checks it is ours.
    let out = expansion(
        Role::Stimulus,
        quote!("the following users"),
        quote!(
            fn users(t: &Table) {}
        ),
    );
    assert!(
        out.contains("read_trailing :: < Table > (__varar_inv)"),
        "{out}"
    );
    assert!(
        out.contains("trailing : :: varar :: __private :: Trailing :: Table"),
        "{out}"
    );
    // A path through another module is the user's own type: the state.
    let out = expansion(
        Role::Stimulus,
        quote!("the table is laid"),
        quote!(
            fn lay(t: &mut model::Table) {}
        ),
    );
    assert!(!out.contains("read_trailing"), "{out}");
}

#[test]
fn registration_carries_role_trailing_and_location() {
    let out = expansion(
        Role::Sensor,
        quote!("I echo the following:"),
        quote!(
            fn echo(d: DocString) -> String {
                d.content
            }
        ),
    );
    for want in [
        "Role :: Sensor",
        "Trailing :: DocString",
        "expression : \"I echo the following:\"",
        ":: core :: file ! ()",
        "doc_string_slot :: < String >",
        "Clone :: clone (__varar_trailing)",
    ] {
        assert!(out.contains(want), "{want} not in {out}");
    }
}

#[test]
fn non_literal_attribute_is_an_error() {
    let msg = error_of(
        Role::Stimulus,
        quote!(foo),
        quote!(
            fn f() {}
        ),
    );
    assert!(
        msg.starts_with("expected the step expression as one string literal"),
        "{msg}"
    );
}

#[test]
fn an_async_step_awaits_its_function_behind_a_boxed_future() {
    let out = expansion(
        Role::Stimulus,
        quote!("I add {int}"),
        quote!(
            async fn f(s: &mut S, n: i64) {}
        ),
    );
    assert!(out.contains("async fn __varar_handler"), "{out}");
    assert!(
        out.contains("let __varar_out = f (__varar_state , __varar_a0) . await ;"),
        "{out}"
    );
    assert!(
        out.contains("handler : :: varar :: __private :: Handler :: Async (__varar_async)"),
        "{out}"
    );
    let sync = expansion(
        Role::Stimulus,
        quote!("I add {int}"),
        quote!(
            fn f(s: &mut S, n: i64) {}
        ),
    );
    assert!(
        sync.contains("Handler :: Sync (__varar_handler)") && !sync.contains(". await"),
        "a sync step stays a plain call: {sync}"
    );
}

#[test]
fn issue10_14_slot_kinds_and_reserved_names_come_from_the_expression_crate() {
    use crate::signature::SlotKind;
    assert_eq!(SlotKind::of("long"), SlotKind::Int);
    assert_eq!(SlotKind::of("double"), SlotKind::Float);
    assert_eq!(SlotKind::of("bigdecimal"), SlotKind::Text);
    assert_eq!(SlotKind::of("money"), SlotKind::Custom("money".into()));
    // `#[parameter]` refuses every built-in name, from the same table.
    let msg = match crate::parameter::expand(
        quote!(name = "biginteger", regex = "x"),
        quote!(
            fn c(a: &str) -> C {
                C
            }
        ),
    ) {
        Ok(tokens) => panic!("accepted: {tokens}"),
        Err(e) => e.to_string(),
    };
    assert_eq!(
        msg,
        "there is already a built-in parameter type named `biginteger`"
    );
}
