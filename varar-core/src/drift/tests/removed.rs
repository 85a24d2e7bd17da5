//! Removed and added examples (issue 37; spec 40 §5.2, "remove + add"):
//! the threshold is the drift threshold, inclusive, and the removed
//! examples keep their old name and line.

use super::*;

/// `k` shared words and `own` words of its own, `prefix`ed so that two
/// names share exactly the `k` words.
fn name(k: usize, own: usize, prefix: &str) -> String {
    let shared = (0..k).map(|i| format!("shared{i}"));
    let mine = (0..own).map(|i| format!("{prefix}{i}"));
    shared.chain(mine).collect::<Vec<_>>().join(" ")
}

#[test]
fn issue37_just_below_the_threshold_the_example_is_removed_and_the_new_one_added() {
    // 10 shared of 21 (10 + 5 + 6): J = 10/21 < 1/2.
    let (old, new) = (name(10, 5, "old"), name(10, 6, "new"));
    assert_eq!(jaccard(&tokens(&old), &tokens(&new)), (10, 21));
    let lock = baseline(&[(&old, 7)]);
    let changes = compare_baseline(Some(&lock), &[cand(&new, 9, true)]);
    assert_eq!(changes.removed, lock.examples, "old name, old line");
    assert_eq!(
        changes.added,
        [LockExample {
            name: new.clone(),
            line: 9
        }]
    );
    assert!(changes.drifts.is_empty() && !changes.held);
    // Dead or alive, the new paragraph is not the old example: no drift.
    let changes = compare_baseline(Some(&lock), &[cand(&new, 9, false)]);
    assert_eq!(changes.removed, lock.examples);
    assert!(changes.drifts.is_empty() && changes.added.is_empty());
}

#[test]
fn issue37_at_the_threshold_the_example_is_re_identified() {
    // 10 shared of 20 (10 + 5 + 5): J = 1/2, inclusive.
    let (old, new) = (name(10, 5, "old"), name(10, 5, "new"));
    assert_eq!(jaccard(&tokens(&old), &tokens(&new)), (10, 20));
    let lock = baseline(&[(&old, 7)]);
    // Still an example: moved and reworded, neither removed nor added.
    let live = compare_baseline(Some(&lock), &[cand(&new, 9, true)]);
    assert!(live.removed.is_empty() && live.added.is_empty() && live.drifts.is_empty());
    // Now prose: drift, never a removal.
    let dead = compare_baseline(Some(&lock), &[cand(&new, 9, false)]);
    assert!(dead.removed.is_empty());
    assert_eq!(dead.drifts.len(), 1);
    assert_eq!(dead.drifts[0].name, old);
}

#[test]
fn issue37_a_deleted_example_is_removed_in_stored_order_and_the_rest_kept() {
    let lock = baseline(&[
        ("I add 2 loaves", 3),
        ("Uppercase each one", 5),
        ("The total is 4", 9),
    ]);
    let now = [
        cand("I add 2 loaves", 3, true),
        cand("Uppercase every one of them", 5, true),
        cand("Something else entirely", 8, false),
    ];
    let changes = compare_baseline(Some(&lock), &now);
    let removed: Vec<(&str, i64)> = changes
        .removed
        .iter()
        .map(|e| (e.name.as_str(), e.line))
        .collect();
    assert_eq!(
        removed,
        [("Uppercase each one", 5), ("The total is 4", 9)],
        "J = 2/6 and deleted"
    );
    assert_eq!(changes.added.len(), 1);
    assert_eq!(changes.added[0].name, "Uppercase every one of them");
    assert!(changes.drifts.is_empty());
}

#[test]
fn issue37_without_an_entry_nothing_is_removed_and_every_example_is_new() {
    let changes = compare_baseline(None, &[cand("a b", 1, true), cand("c d", 3, false)]);
    assert!(changes.removed.is_empty() && changes.drifts.is_empty());
    assert_eq!(changes.added.len(), 1);
    // An unchanged oath takes the shortcut: nothing removed, nothing new.
    let lock = baseline(&[("a b", 1)]);
    let changes = compare_baseline(Some(&lock), &[cand("a b", 1, true)]);
    assert_eq!(changes, BaselineChanges::default());
}
