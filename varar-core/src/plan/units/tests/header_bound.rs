//! Header-bound tables (spec 20 §20.7 step 2): one example per row, and the quirks.

use super::*;

fn report() -> RegexSteps {
    RegexSteps(vec![(
        "I report the score and grade",
        r"I report the score and grade",
        &[],
    )])
}

#[test]
fn bundle_07_header_bound_row_example() {
    let src = Source::new(REPORT);
    let start = at(&src, "I report");
    let c = candidate(
        block(&src, TextKind::Paragraph, start, start + 29),
        vec![table(&src, 7, 9)],
        true,
    );
    let (unit, diags) = run(&c, &src, &report());
    assert!(diags.is_empty());
    let Unit::HeaderBound(rows) = unit else {
        panic!("expected header-bound rows");
    };
    assert_eq!(rows.len(), 1);
    let r = &rows[0];
    assert_eq!(r.name, "10 / A");
    assert_eq!(
        *r.scope_stack,
        ["Scope", "I report the score and grade"].map(String::from)
    );
    assert_eq!(off(&r.span), (106, 123, 9, 1, 9, 18));
    assert_eq!(r.expected, Expectation::Pass);
    assert_eq!(r.steps.len(), 1);
    assert_eq!(off(&r.steps[0].match_span), (106, 123, 9, 1, 9, 18));
    assert!(r.steps[0].args.is_empty() && r.steps[0].param_spans.is_empty());
    assert_eq!(r.steps[0].data_table, None);
    let binding = r.row.as_ref().map(|b| (b.get("score"), b.get("grade")));
    assert_eq!(binding, Some((Some("10"), Some("A"))));
    let checks: Vec<_> = r.row.as_ref().map_or(Vec::new(), |b| {
        b.checks
            .iter()
            .map(|c| (c.column.to_string(), c.value.clone(), c.span.start_offset))
            .collect()
    });
    assert_eq!(
        checks,
        vec![
            ("score".to_string(), "10".to_string(), 108),
            ("grade".to_string(), "A".to_string(), 116)
        ]
    );
}

#[test]
fn header_bound_quirks() {
    // Two steps: only the last one is bound; the error fence is ignored; a
    // short row gives "" with the row span; extra cells join the name; a
    // duplicate header takes the later column.
    let text = "alpha. beta uses x and y.\n\n| x | y | x |\n|---|---|---|\n| 1 | 2 | 3 | 4 |\n| 5 |\n\n```error\nboom\n```\n";
    let src = Source::new(text);
    let c = candidate(
        block(&src, TextKind::Paragraph, 0, 25),
        vec![table(&src, 3, 6), fence(&src, 8, 10, "error")],
        true,
    );
    let steps = RegexSteps(vec![("alpha", "alpha", &[]), ("beta", "beta", &[])]);
    let (unit, diags) = run(&c, &src, &steps);
    assert!(diags.is_empty());
    let Unit::HeaderBound(rows) = unit else {
        panic!("expected header-bound rows");
    };
    let names: Vec<_> = rows.iter().map(|r| r.name.as_str()).collect();
    assert_eq!(names, ["1 / 2 / 3 / 4", "5"]);
    for r in &rows {
        assert_eq!(r.expected, Expectation::Pass);
        assert_eq!(r.steps.len(), 1);
        assert_eq!(&*r.steps[0].text, "beta");
        assert_eq!(r.scope_stack.last().map(String::as_str), Some("beta"));
    }
    let first = rows[0].row.as_ref().map(|b| (b.get("x"), b.get("y")));
    assert_eq!(first, Some((Some("3"), Some("2"))));
    // The row the step gets: the duplicate where it first stood, its
    // later cell (what `Row::insert` does).
    let row = rows[0].row.as_ref().map(|b| {
        let row = b.row();
        row.iter()
            .map(|(c, v)| format!("{c}={v}"))
            .collect::<Vec<_>>()
    });
    assert_eq!(row, Some(vec!["x=3".to_owned(), "y=2".to_owned()]));
    let short = rows[1].row.as_ref();
    assert_eq!(short.map(|b| b.get("y")), Some(Some("")));
    let check = short.map(|b| (b.checks[1].value.clone(), b.checks[1].span));
    assert_eq!(check, Some((String::new(), rows[1].span)));
}

#[test]
fn header_bound_table_without_rows_yields_no_examples() {
    let src = Source::new("I report the score and grade.\n\n| score | grade |\n|---|---|\n");
    let c = candidate(
        block(&src, TextKind::Paragraph, 0, 29),
        vec![table(&src, 3, 4)],
        true,
    );
    assert_eq!(run(&c, &src, &report()).0, Unit::HeaderBound(Vec::new()));
}

#[test]
fn header_word_must_be_whole_and_anywhere_in_the_block() {
    let cases = [
        // (block text, header cells, bound?)
        ("alpha. x is here.", "| x |", true),
        ("alpha. xs are here.", "| x |", false),
        ("alpha. a_x is here.", "| x |", false),
        ("alpha. Alpha", "| alpha |", true),
        ("alpha.", "| Alpha |", false),
        ("alpha beta", "|  |", false),
        ("alpha.", "|  |", true),
        ("alpha. - .", "|  |", true),
        ("alpha. score", "| score | grade |", false),
    ];
    for (para, header, want) in cases {
        let text = format!("{para}\n\n{header}\n|---|\n| 1 |\n");
        let src = Source::new(&text);
        let len = crate::source::utf16_len(para);
        let c = candidate(
            block(&src, TextKind::Paragraph, 0, len),
            vec![table(&src, 3, 5)],
            true,
        );
        let unit = run(&c, &src, &RegexSteps(vec![("alpha", "alpha", &[])])).0;
        let bound = matches!(unit, Unit::HeaderBound(_));
        assert_eq!(bound, want, "{para:?} with {header:?}");
        if !want {
            let steps = matched_steps(unit);
            assert!(steps[0].data_table.is_some(), "{para:?}: table attaches");
        }
    }
}
