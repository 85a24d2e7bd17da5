//! The authoring API end to end without the engine: steps in every supported
//! shape register a `StepDef`, and their handlers read hand-built
//! invocations, keep state in a `World`, and hand back what the engine
//! compares.

use varar::__private::{
    ArgValue, Handler, Invocation, ObservedRow, Returned, Role, StepDef, Stored, Trailing, World,
};
use varar::{DocString, Row, Table};

/// A custom type with a format, declared in one module…
mod money {
    #[derive(Debug, PartialEq)]
    pub struct Money {
        pub pence: i64,
    }

    impl std::fmt::Display for Money {
        fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            write!(f, "£{}.{:02}", self.pence / 100, self.pence % 100)
        }
    }

    #[varar::parameter(name = "money", regex = r"£(\d+)\.(\d{2})", format)]
    fn money(pounds: &str, pence: &str) -> Result<Money, std::num::ParseIntError> {
        Ok(Money {
            pence: pounds.parse::<i64>()? * 100 + pence.parse::<i64>()?,
        })
    }

    /// No capture group: the whole match, and no format.
    #[derive(Debug, PartialEq)]
    pub struct Code(pub String);

    #[varar::parameter(name = "code", regex = "[A-Z]{3}")]
    fn code(whole: &str) -> Code {
        Code(whole.to_lowercase())
    }
}

/// …and used by steps in another.
mod steps {
    use super::money::{Code, Money};
    use varar::{DocString, Row, Table, sensor, stimulus};

    #[derive(Default)]
    pub struct Account {
        pub balance: i64,
        pub fees: Vec<i64>,
    }

    #[stimulus("I deposit {int}")]
    fn deposit(account: &mut Account, amount: i64) {
        account.balance += amount;
    }

    #[stimulus("I open an account with {int}")]
    fn open(_: Account, amount: u32) -> Account {
        Account {
            balance: i64::from(amount),
            fees: Vec::new(),
        }
    }

    #[stimulus("I withdraw {int}")]
    fn withdraw(account: Account, amount: i64) -> Result<Account, String> {
        if amount > account.balance {
            return Err(format!("cannot withdraw {amount}"));
        }
        Ok(Account {
            balance: account.balance - amount,
            ..account
        })
    }

    #[stimulus("I pay a fee of {money}")]
    fn pay(account: &mut Account, fee: Money) {
        account.fees.push(fee.pence);
    }

    #[stimulus("I greet {string} with {word}")]
    fn greet(name: &str, word: String) -> Result<(), &'static str> {
        if name.is_empty() || word.is_empty() {
            return Err("nobody to greet");
        }
        Ok(())
    }

    #[sensor("the balance is {int}")]
    fn balance(account: &Account) -> i64 {
        account.balance
    }

    #[sensor("the last fee is {money}")]
    fn last_fee(account: &Account) -> Option<Money> {
        account.fees.last().map(|&pence| Money { pence })
    }

    #[sensor("the square of {int} is {int}")]
    fn square(n: i64, _square: i64) -> (i64, i64) {
        (n, n * n)
    }

    #[sensor("half of {float} is {double}")]
    fn half(x: f64, _half: f32) -> Result<(f64, f32), String> {
        Ok((x, (x / 2.0) as f32))
    }

    #[sensor("the airport {code} is known")]
    fn airport(code: Code) -> Code {
        code
    }

    #[sensor("I echo the following:")]
    fn echo(doc: &DocString) -> String {
        doc.content.clone()
    }

    #[sensor("the users are {word}")]
    fn users(kind: String, table: Table) -> (String, Vec<Vec<String>>) {
        (kind, table.data_rows().to_vec())
    }

    #[sensor("I report the score and grade")]
    fn report(row: Row) -> Row {
        Row::default()
            .with("score", 99)
            .with("grade", row.get("grade").unwrap_or("?"))
    }

    #[sensor("everything is fine")]
    fn fine() {}
}

fn def(expression: &str) -> &'static StepDef {
    let found: Vec<&StepDef> = inventory::iter::<StepDef>
        .into_iter()
        .filter(|d| d.expression == expression)
        .collect();
    assert_eq!(found.len(), 1, "{expression}");
    found[0]
}

fn int(t: &str) -> ArgValue {
    ArgValue::Int(t.into())
}

fn call(world: &mut World, expression: &str, args: &[ArgValue]) -> Result<Returned, String> {
    let inv = Invocation {
        args: args.into(),
        row: None,
        table: None,
        doc_string: None,
    };
    invoke(def(expression), world, &inv).map_err(|e| e.message)
}

/// What the executor does for a sync step without factories: prepare the
/// state from `Default`, then call the handler.
fn invoke(
    def: &StepDef,
    world: &mut World,
    inv: &Invocation<'_>,
) -> Result<Returned, varar::__private::StepError> {
    if let Some(p) = def.state {
        let id = (p.type_id)();
        if !world.has(id)
            && let Some(ctor) = (p.default)()
        {
            world.insert(id, (p.type_name)(), Stored::Owned(ctor()), 0);
        }
    }
    match def.handler {
        Handler::Sync(f) => f(world, inv),
        Handler::Async(_) => panic!("{} is async", def.expression),
    }
}

fn money(pounds: &str, pence: &str) -> ArgValue {
    ArgValue::Custom {
        name: "money".into(),
        groups: vec![Some(pounds.into()), Some(pence.into())],
    }
}

fn one(r: Returned) -> Box<dyn varar::__private::Observed> {
    match r {
        Returned::One(v) => v,
        other => panic!("expected one value, got {other:?}"),
    }
}

#[test]
fn registrations_carry_role_trailing_and_location() {
    let d = def("I deposit {int}");
    assert_eq!(d.role, Role::Stimulus);
    assert_eq!(d.trailing, Trailing::None);
    assert!(d.file.ends_with("api.rs"), "{}", d.file);
    assert_eq!(d.module_path, "api::steps");
    assert!(d.line > 40, "{}", d.line);
    assert_eq!(def("I echo the following:").trailing, Trailing::DocString);
    assert_eq!(def("the users are {word}").trailing, Trailing::Table);
    assert_eq!(def("I report the score and grade").trailing, Trailing::Row);
    assert_eq!(def("the balance is {int}").role, Role::Sensor);
    let params: Vec<_> = inventory::iter::<varar::__private::ParameterDef>
        .into_iter()
        .map(|p| (p.name, p.regex, p.module_path))
        .collect();
    assert!(
        params.contains(&("money", r"£(\d+)\.(\d{2})", "api::money")),
        "{params:?}"
    );
    assert!(
        params.contains(&("code", "[A-Z]{3}", "api::money")),
        "{params:?}"
    );
}

#[test]
fn state_forms_share_one_state_per_file_and_type() {
    let mut world = World::new();
    world.enter_file("steps.rs");
    call(&mut world, "I open an account with {int}", &[int("10")]).unwrap();
    call(&mut world, "I deposit {int}", &[int("5")]).unwrap();
    let r = one(call(&mut world, "the balance is {int}", &[int("15")]).unwrap());
    assert_eq!(r.render(), "15");
    assert_eq!(r.equals(&int("15")), Ok(true));
    assert_eq!(r.equals(&int("16")), Ok(false));
    call(&mut world, "I withdraw {int}", &[int("3")]).unwrap();
    assert_eq!(world.state_ref::<steps::Account>().unwrap().balance, 12);
    let err = call(&mut world, "I withdraw {int}", &[int("100")]).unwrap_err();
    assert_eq!(err, "cannot withdraw 100");
    // Another file has its own state.
    world.enter_file("other.rs");
    assert!(!world.has(std::any::TypeId::of::<steps::Account>()));
    call(&mut world, "I deposit {int}", &[int("5")]).unwrap();
    assert_eq!(world.state_ref::<steps::Account>().unwrap().balance, 5);
}

#[test]
fn arguments_that_cannot_be_read_fail_as_thrown() {
    let mut world = World::new();
    let err = call(&mut world, "I open an account with {int}", &[int("-4")]).unwrap_err();
    assert_eq!(err, "cannot read -4 as u32");
    let err = call(&mut world, "I deposit {int}", &[]).unwrap_err();
    assert_eq!(err, "this step has 0 slot(s), but the function takes 1");
}

#[test]
fn text_arguments_and_fallible_stimuli() {
    let mut world = World::new();
    let text = |t: &str| ArgValue::Text(t.into());
    assert!(matches!(
        call(
            &mut world,
            "I greet {string} with {word}",
            &[text("Ann"), text("hi")]
        ),
        Ok(Returned::Nothing)
    ));
    let err = call(
        &mut world,
        "I greet {string} with {word}",
        &[text(""), text("hi")],
    )
    .unwrap_err();
    assert_eq!(err, "nobody to greet");
}

#[test]
fn custom_types_parse_compare_and_format() {
    let mut world = World::new();
    call(&mut world, "I pay a fee of {money}", &[money("2", "60")]).unwrap();
    let fee = one(call(&mut world, "the last fee is {money}", &[money("2", "55")]).unwrap());
    assert_eq!(fee.format().as_deref(), Some("£2.60"));
    assert_eq!(fee.equals(&money("2", "55")), Ok(false));
    assert_eq!(fee.equals(&money("2", "60")), Ok(true));
    assert_eq!(fee.render(), "Money { pence: 260 }");
    let code = ArgValue::Custom {
        name: "code".into(),
        groups: vec![Some("LHR".into())],
    };
    let r = one(call(
        &mut world,
        "the airport {code} is known",
        std::slice::from_ref(&code),
    )
    .unwrap());
    assert_eq!(r.equals(&code), Ok(true));
    assert_eq!(r.format(), None, "no format flag");
    assert_eq!(r.render(), "Code(\"lhr\")");
    let err = call(&mut world, "I pay a fee of {money}", &[int("3")]).unwrap_err();
    assert!(
        err.starts_with("argument 1 is not a {money} value"),
        "{err}"
    );
}

#[test]
fn sensors_return_their_slots() {
    let mut world = World::new();
    match call(
        &mut world,
        "the square of {int} is {int}",
        &[int("12"), int("99")],
    )
    .unwrap()
    {
        Returned::Many(vs) => {
            let r: Vec<String> = vs.iter().map(|v| v.render()).collect();
            assert_eq!(r, ["12", "144"]);
            assert_eq!(vs[1].equals(&int("99")), Ok(false));
        }
        other => panic!("{other:?}"),
    }
    let floats = [ArgValue::Float("3".into()), ArgValue::Float("1.5".into())];
    match call(&mut world, "half of {float} is {double}", &floats).unwrap() {
        Returned::Many(vs) => {
            assert_eq!(vs[0].render(), "3");
            assert_eq!(vs[1].equals(&floats[1]), Ok(true));
        }
        other => panic!("{other:?}"),
    }
    assert!(matches!(
        call(&mut world, "everything is fine", &[]),
        Ok(Returned::Nothing)
    ));
}

#[test]
fn trailing_arguments_and_returns() {
    let mut world = World::new();
    let doc = DocString {
        content: "hello\n".into(),
        content_type: String::new(),
    };
    let inv = Invocation {
        args: (&[] as &[ArgValue]).into(),
        row: None,
        table: None,
        doc_string: Some(&doc),
    };
    let r = one(invoke(def("I echo the following:"), &mut world, &inv).unwrap());
    assert_eq!(r.as_text(), Some("hello\n"));

    let table = Table::new(vec![vec!["name".into()], vec!["ann".into()]]);
    let args = [ArgValue::Text("admins".into())];
    let inv = Invocation {
        args: (&args).into(),
        row: None,
        table: Some(&table),
        doc_string: None,
    };
    match invoke(def("the users are {word}"), &mut world, &inv).unwrap() {
        Returned::Many(vs) => {
            assert_eq!(vs[0].as_text(), Some("admins"));
            assert_eq!(
                vs[1].as_table(),
                Some(vec![ObservedRow::List(vec!["ann".into()])])
            );
        }
        other => panic!("{other:?}"),
    }
    let missing = Invocation {
        args: (&args).into(),
        row: None,
        table: None,
        doc_string: None,
    };
    let err = invoke(def("the users are {word}"), &mut world, &missing).unwrap_err();
    assert_eq!(
        err.message,
        "this step takes a table, but the document gives none"
    );

    let row: Row = [("score", "10"), ("grade", "A")].into_iter().collect();
    let inv = Invocation {
        args: (&[] as &[ArgValue]).into(),
        row: Some(&row),
        table: None,
        doc_string: None,
    };
    let r = one(invoke(def("I report the score and grade"), &mut world, &inv).unwrap());
    assert_eq!(
        r.as_record(),
        Some(vec![
            ("score".into(), "99".into()),
            ("grade".into(), "A".into())
        ])
    );
}
