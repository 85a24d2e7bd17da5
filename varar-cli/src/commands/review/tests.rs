use super::args::Selection;
use super::*;
use varar_core::review::{Refusal, removed_id};

fn change(id: &str, kind: ChangeKind, refused: Option<Refusal>) -> Change {
    Change {
        id: id.into(),
        kind,
        oath_path: "varar/a.md".into(),
        line: 3,
        summary: "s".into(),
        acceptance: match kind {
            ChangeKind::Value => Acceptance::WriteValues {
                cells: vec![ValueCell {
                    from: 1,
                    to: 2,
                    expected: "5".into(),
                    actual: "6".into(),
                }],
            },
            _ => Acceptance::DropFromLock {
                name: "n".into(),
                line: 3,
            },
        },
        refused,
    }
}

fn review_of(changes: Vec<Change>) -> Review {
    Review {
        run_id: "r1".into(),
        changes,
    }
}

#[test]
fn ids_and_kinds_select_in_the_reviews_order_and_unknown_ids_are_errors() {
    let review = review_of(vec![
        change("varar/a.md::varar:drift:3", ChangeKind::Drift, None),
        change("varar/a.md::A::x", ChangeKind::Value, None),
        change(&removed_id("varar/a.md", 9), ChangeKind::Removed, None),
    ]);
    let by = |ids: &[&str], kinds: &[ChangeKind]| Selection {
        ids: ids.iter().map(|s| (*s).to_owned()).collect(),
        kinds: kinds.to_vec(),
    };
    let picked = select(&review, &by(&["varar/a.md::A::x"], &[ChangeKind::Removed]))
        .unwrap_or_else(|e| panic!("{e:?}"));
    let ids: Vec<&str> = picked.iter().map(|c| c.id.as_str()).collect();
    assert_eq!(ids, ["varar/a.md::A::x", "varar/a.md::varar:removed:9"]);
    let Err(errors) = select(&review, &by(&["nope"], &[])) else {
        panic!("an unknown id was selected")
    };
    assert_eq!(errors[0].code, Code::UnknownChange);
    assert!(
        errors[0].message.contains("`nope`"),
        "{}",
        errors[0].message
    );
}

#[test]
fn a_refused_change_is_planned_as_a_refusal_with_its_code() {
    let stale = change(
        "varar/a.md::A::x",
        ChangeKind::Value,
        Some(Refusal::ChangedSinceRun("varar/a.md".into())),
    );
    let doc = change(
        "varar/a.md::A::y",
        ChangeKind::Value,
        Some(Refusal::NoTextSpan),
    );
    let drift = change("varar/a.md::varar:drift:3", ChangeKind::Drift, None);
    let removed = change("varar/a.md::varar:removed:3", ChangeKind::Removed, None);
    let plan = plan(&[&stale, &doc, &drift, &removed]);
    let codes: Vec<Code> = plan.refused.iter().map(|r| r.code).collect();
    assert_eq!(codes, [Code::ChangedSinceRun, Code::NotAcceptable]);
    assert!(plan.values.is_empty());
    let drops: Vec<(ChangeKind, bool)> = plan.drops.iter().map(|(_, k, d)| (*k, d.exact)).collect();
    assert_eq!(
        drops,
        [(ChangeKind::Drift, false), (ChangeKind::Removed, true)]
    );
}

#[test]
fn the_exit_code_follows_errors_then_refusals() {
    let refusal = ErrorRecord::new(Code::NotAcceptable, "r");
    let settled = |errors: Vec<ErrorRecord>, refused: Vec<ErrorRecord>| {
        ReviewReport {
            errors,
            refused,
            ..ReviewReport::default()
        }
        .settle()
        .exit_code
    };
    assert_eq!(settled(Vec::new(), Vec::new()), 0);
    assert_eq!(settled(Vec::new(), vec![refusal.clone()]), 1);
    assert_eq!(
        settled(vec![ErrorRecord::new(Code::MissingRun, "m")], vec![refusal]),
        2
    );
}

#[test]
fn the_listing_names_each_change_and_why_it_cannot_be_accepted() {
    let report = ReviewReport::listing(review_of(vec![change(
        "varar/a.md::A::x",
        ChangeKind::Value,
        Some(Refusal::NoTextSpan),
    )]));
    let text = render_text(&report);
    assert!(
        text.starts_with("run r1: 1 change to review\nVALUE   varar/a.md::A::x\n"),
        "{text}"
    );
    assert!(
        text.contains("cannot be accepted: a compared value"),
        "{text}"
    );
    let json = crate::output::json(&report).unwrap_or_else(|e| panic!("{e}"));
    let json: serde_json::Value = serde_json::from_str(&json).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(json["changes"][0]["kind"], "value");
    assert_eq!(json["changes"][0]["acceptance"]["edit"], "writeValues");
    assert!(
        json["changes"][0]["refused"]
            .as_str()
            .is_some_and(|r| r.contains("doc string"))
    );
}

#[test]
fn answers_are_read_leniently_and_anything_else_asks_again() {
    for (line, want) in [
        ("a\n", Some(Answer::Accept)),
        ("  Accept \r\n", Some(Answer::Accept)),
        ("k\n", Some(Answer::Keep)),
        ("n\n", Some(Answer::Keep)),
        ("q\n", Some(Answer::Quit)),
        ("\n", None),
        ("ak\n", None),
    ] {
        assert_eq!(answer(line), want, "{line:?}");
    }
}
