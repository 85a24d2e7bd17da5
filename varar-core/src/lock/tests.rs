use proptest::prelude::*;

use super::*;
use crate::json::cmp_utf16;

/// Any lock: its examples' names drawn from `names` (a regex), their lines
/// from `lines`; what the readers' property tests write and read back.
pub(super) fn any_lock(
    names: &'static str,
    lines: std::ops::Range<i64>,
) -> impl Strategy<Value = Lock> {
    let example = (names, lines).prop_map(|(name, line)| LockExample { name, line });
    let entry = ("fnv1a:[0-9a-f]{8}", prop::collection::vec(example, 0..4)).prop_map(
        |(source_hash, examples)| LockEntry {
            source_hash,
            examples,
        },
    );
    prop::collection::btree_map("[ab][a-z/]{0,6}\\.md", entry, 0..6)
        .prop_map(|oaths| Lock { oaths })
}

fn entry(hash: &str, examples: &[(&str, i64)]) -> LockEntry {
    LockEntry {
        source_hash: hash.to_owned(),
        examples: examples
            .iter()
            .map(|(name, line)| LockExample {
                name: (*name).to_owned(),
                line: *line,
            })
            .collect(),
    }
}

fn lock_of(entries: &[(&str, LockEntry)]) -> Lock {
    Lock {
        oaths: entries
            .iter()
            .map(|(k, v)| ((*k).to_owned(), v.clone()))
            .collect(),
    }
}

fn valid(text: &str) -> Lock {
    match parse_lock(text.as_bytes()) {
        Ok(ParsedLock::Valid(lock)) => lock,
        other => panic!("expected a valid lock, got {other:?}"),
    }
}

#[test]
fn empty_lock_bytes() {
    assert_eq!(
        serialize_lock(&Lock::default()),
        "{\n  \"version\": 2,\n  \"oaths\": {}\n}\n"
    );
}

const HELLO_EXCERPT: &str = r#"{
  "version": 2,
  "oaths": {
    "varar/empty.md": {
      "sourceHash": "fnv1a:811c9dc5",
      "examples": []
    },
    "varar/hello-varar.md": {
      "sourceHash": "fnv1a:8eb1207a",
      "examples": [
        {
          "name": "First I greet \"world\" okay? I think the greeting should be \"Hello, world!\"",
          "line": 5
        },
        {
          "name": "The expression `1+1` should evaluate to `2`",
          "line": 11
        }
      ]
    }
  }
}
"#;

#[test]
fn the_spec_excerpt_round_trips_byte_for_byte() {
    let lock = valid(HELLO_EXCERPT);
    assert_eq!(lock.oaths.len(), 2);
    assert_eq!(serialize_lock(&lock), HELLO_EXCERPT);
}

#[test]
fn serialization_equals_serde_json_pretty_of_the_same_value() {
    let name = "é £ 😀 \" \\ \u{1} \u{1f} \u{7f} \u{2028} / < > &";
    let lock = lock_of(&[
        ("b.md", entry("fnv1a:00000001", &[(name, 3), ("x", 12)])),
        ("a.md", entry("fnv1a:00000002", &[])),
    ]);
    let value = serde_json::json!({
        "version": 2,
        "oaths": {
            "a.md": {"sourceHash": "fnv1a:00000002", "examples": []},
            "b.md": {"sourceHash": "fnv1a:00000001", "examples": [
                {"name": name, "line": 3}, {"name": "x", "line": 12}
            ]}
        }
    });
    // serde_json's own map is sorted, which puts `oaths` before `version`;
    // compare against a hand-ordered rendering instead.
    let ordered = crate::json::to_pretty_string(&value, &|a: &str, b: &str| {
        let rank = |k: &str| match k {
            "version" => 0,
            "oaths" => 1,
            "sourceHash" => 2,
            "examples" => 3,
            "name" => 4,
            "line" => 5,
            _ => 6,
        };
        rank(a).cmp(&rank(b)).then_with(|| cmp_utf16(a, b))
    });
    assert_eq!(serialize_lock(&lock), ordered);
    assert!(serialize_lock(&lock).contains(r#""name": "é £ 😀 \" \\ \u0001 \u001f"#));
}

#[test]
fn oath_paths_are_sorted_by_utf16_units() {
    let lock = lock_of(&[
        ("\u{1F600}.md", entry("h", &[])),
        ("\u{FF61}.md", entry("h", &[])),
        ("a.md", entry("h", &[])),
    ]);
    let text = serialize_lock(&lock);
    let a = text.find("a.md").unwrap_or(usize::MAX);
    let emoji = text.find('\u{1F600}').unwrap_or(usize::MAX);
    let halfwidth = text.find('\u{FF61}').unwrap_or(usize::MAX);
    assert!(a < emoji && emoji < halfwidth, "{text}");
}

#[test]
fn unknown_members_are_ignored_and_not_written_back() {
    let lock = valid(
        r#"{"version": 2, "extra": 1, "oaths": {"a.md": {"sourceHash": "h", "note": "x",
            "examples": [{"name": "n", "line": 4, "why": true}]}}}"#,
    );
    assert_eq!(lock, lock_of(&[("a.md", entry("h", &[("n", 4)]))]));
    assert!(!serialize_lock(&lock).contains("extra"));
}

#[test]
fn integral_floats_count_as_integers() {
    let lock = valid(
        r#"{"version": 2.0, "oaths": {"a.md": {"sourceHash": "h", "examples": [{"name": "n", "line": 4.0}]}}}"#,
    );
    assert_eq!(lock.oaths["a.md"].examples[0].line, 4);
}

#[test]
fn issue10_5_every_other_version_is_the_same_outcome_whatever_its_type() {
    for (text, version) in [
        (r#"{"version": 1, "oaths": {}}"#, "1"),
        (r#"{"version": 99}"#, "99"),
        (r#"{"version": 2.5, "oaths": "x"}"#, "2.5"),
        (r#"{"version": "2", "oaths": {}}"#, "\"2\""),
        (r#"{"version": null, "oaths": {}}"#, "null"),
        (r#"{"oaths": {}}"#, "(missing)"),
    ] {
        for parsed in [
            parse_lock(text.as_bytes()),
            parse_lock_for(text.as_bytes(), &|_| true),
        ] {
            match parsed {
                Ok(ParsedLock::UnsupportedVersion { version: v }) => assert_eq!(v, version),
                other => panic!("{text}: {other:?}"),
            }
        }
    }
}

#[test]
fn invalid_locks_are_errors_with_a_location() {
    let conflict = "{\n  \"version\": 2,\n<<<<<<< HEAD\n  \"oaths\": {}\n=======\n>>>>>>> x\n}\n";
    let cases: &[(&[u8], &str)] = &[
        (conflict.as_bytes(), "invalid JSON: key must be a string at line 3 column 1"),
        (b"", "invalid JSON: EOF while parsing a value at line 1 column 0"),
        (b"\xef\xbb\xbf{}", "invalid JSON: expected value at line 1 column 1"),
        (b"{\"version\": 2, \"oaths\": {}}\xff", "not valid UTF-8"),
        (b"[]", "the top level must be an object"),
        (b"{\"version\": 2}", "\"oaths\" must be an object"),
        (b"{\"version\": 2, \"oaths\": {\"a.md\": []}}", "oaths[\"a.md\"] must be an object"),
        (b"{\"version\": 2, \"oaths\": {\"a.md\": {\"examples\": []}}}", "oaths[\"a.md\"].sourceHash must be a string"),
        (b"{\"version\": 2, \"oaths\": {\"a.md\": {\"sourceHash\": \"h\"}}}", "oaths[\"a.md\"].examples must be an array"),
        (b"{\"version\": 2, \"oaths\": {\"a.md\": {\"sourceHash\": \"h\", \"examples\": [1]}}}", "oaths[\"a.md\"].examples[0] must be an object"),
        (b"{\"version\": 2, \"oaths\": {\"a.md\": {\"sourceHash\": \"h\", \"examples\": [{\"line\": 1}]}}}", "oaths[\"a.md\"].examples[0].name must be a string"),
        (b"{\"version\": 2, \"oaths\": {\"a.md\": {\"sourceHash\": \"h\", \"examples\": [{\"name\": \"n\", \"line\": 1.5}]}}}", "oaths[\"a.md\"].examples[0].line must be an integer"),
        (b"{\"version\": 2, \"oaths\": {\"a.md\": {\"sourceHash\": \"h\", \"examples\": [{\"name\": \"n\"}]}}}", "oaths[\"a.md\"].examples[0].line must be an integer"),
    ];
    for (bytes, want) in cases {
        match parse_lock(bytes) {
            Err(e) => assert!(
                e.to_string().starts_with(want),
                "{:?}: got {e}",
                String::from_utf8_lossy(bytes)
            ),
            Ok(v) => panic!("{:?} parsed as {v:?}", String::from_utf8_lossy(bytes)),
        }
    }
}

fn present(lock: Lock) -> Baseline {
    let bytes = LockBytes::of(serialize_lock(&lock).as_bytes());
    Baseline::Present { lock, bytes }
}

fn record(path: &str, e: Option<LockEntry>, drifted: bool) -> OathRecord {
    OathRecord {
        oath_path: path.to_owned(),
        entry: e,
        drifted,
    }
}

fn paths(p: &[&str]) -> Vec<String> {
    p.iter().map(|s| (*s).to_owned()).collect()
}

#[test]
fn first_run_records_every_oath_and_writes_only_if_something_was_discovered() {
    let r = reconcile(
        Baseline::Absent,
        vec![
            record("a.md", Some(entry("h1", &[("x", 1)])), false),
            record("b.md", Some(entry("h2", &[])), false),
        ],
        &paths(&["a.md", "b.md"]),
        false,
    );
    assert!(r.write);
    assert_eq!(r.lock.oaths.len(), 2);
    let none = reconcile(Baseline::Absent, Vec::new(), &[], false);
    assert!(!none.write);
    assert_eq!(none.text, "{\n  \"version\": 2,\n  \"oaths\": {}\n}\n");
}

#[test]
fn unchanged_input_does_not_write() {
    let old = lock_of(&[("a.md", entry("h1", &[("x", 1)]))]);
    let r = reconcile(
        present(old.clone()),
        vec![record("a.md", Some(entry("h1", &[("x", 1)])), false)],
        &paths(&["a.md"]),
        false,
    );
    assert!(!r.write);
    assert_eq!(r.lock, old);
}

/// A baseline whose bytes are `text`, read as `lock`, known canonical
/// when `known` is the digest a run remembered.
fn present_as(lock: Lock, text: &str, known: Option<&str>) -> Baseline {
    let mut baseline = Baseline::Present {
        lock,
        bytes: LockBytes::of(text.as_bytes()),
    };
    if let Some(sha) = known {
        baseline.know_canonical(sha);
    }
    baseline
}

#[test]
fn a_lock_known_canonical_that_no_record_changes_is_not_serialised_again() {
    let old = lock_of(&[
        ("a.md", entry("h1", &[("x", 1)])),
        ("b.md", entry("h2", &[])),
    ]);
    let text = serialize_lock(&old);
    let sha = crate::hash::sha256_hex(text.as_bytes());
    let same = vec![record("a.md", Some(entry("h1", &[("x", 1)])), false)];
    let paths = paths(&["a.md", "b.md"]);
    let r = reconcile(
        present_as(old.clone(), &text, Some(&sha)),
        same.clone(),
        &paths,
        false,
    );
    assert!(!r.write);
    assert_eq!(r.text, "", "not serialised");
    assert_eq!(r.lock, old);
    assert_eq!(r.canonical.as_deref(), Some(sha.as_str()));
    // Not known canonical: serialised, compared, and found the same.
    let r = reconcile(present_as(old.clone(), &text, None), same, &paths, false);
    assert!(!r.write);
    assert_eq!(r.text, text);
    assert_eq!(r.canonical.as_deref(), Some(sha.as_str()));
    // A record that changes an entry, or one more oath: written.
    for records in [
        vec![record("a.md", Some(entry("h1", &[("x", 2)])), false)],
        vec![record("c.md", Some(entry("h3", &[])), false)],
    ] {
        let mut paths = paths.clone();
        paths.push("c.md".to_owned());
        let r = reconcile(
            present_as(old.clone(), &text, Some(&sha)),
            records,
            &paths,
            false,
        );
        assert!(r.write);
        assert_eq!(r.text, serialize_lock(&r.lock));
        assert_eq!(r.canonical, None);
    }
    // A drifted record leaves its entry: nothing changes.
    let drifted = vec![record("a.md", Some(entry("new", &[])), true)];
    let r = reconcile(
        present_as(old.clone(), &text, Some(&sha)),
        drifted,
        &paths,
        false,
    );
    assert!(!r.write);
    assert_eq!(r.text, "");
    // Pruned under update: written.
    let update = reconcile(
        present_as(old, &text, Some(&sha)),
        Vec::new(),
        &["a.md".to_owned()],
        true,
    );
    assert!(update.write);
    assert_eq!(update.pruned, ["b.md"]);
}

#[test]
fn a_lock_formatted_by_hand_is_rewritten_unless_its_own_digest_is_claimed_canonical() {
    let old = lock_of(&[("a.md", entry("h1", &[("x", 1)]))]);
    let canonical = serialize_lock(&old);
    let by_hand = canonical.replace("\n  ", "\n    ");
    assert_ne!(by_hand, canonical);
    let same = vec![record("a.md", Some(entry("h1", &[("x", 1)])), false)];
    let paths = paths(&["a.md"]);
    // The canonical text's digest is not the file's: rewritten.
    let claimed = crate::hash::sha256_hex(canonical.as_bytes());
    let r = reconcile(
        present_as(old.clone(), &by_hand, Some(&claimed)),
        same.clone(),
        &paths,
        false,
    );
    assert!(r.write);
    assert_eq!(r.text, canonical);
    // Its own digest claimed canonical (a forged cache): left as it is.
    let forged = crate::hash::sha256_hex(by_hand.as_bytes());
    let r = reconcile(
        present_as(old, &by_hand, Some(&forged)),
        same,
        &paths,
        false,
    );
    assert!(!r.write);
}

#[test]
fn drift_freezes_only_the_drifted_oath() {
    let old = lock_of(&[
        ("a.md", entry("old-a", &[("x", 1)])),
        ("b.md", entry("old-b", &[("y", 1)])),
    ]);
    let r = reconcile(
        present(old),
        vec![
            record("a.md", Some(entry("new-a", &[])), true),
            record("b.md", Some(entry("new-b", &[("y", 2)])), false),
        ],
        &paths(&["a.md", "b.md"]),
        false,
    );
    assert!(r.write);
    assert_eq!(r.lock.oaths["a.md"], entry("old-a", &[("x", 1)]));
    assert_eq!(r.lock.oaths["b.md"], entry("new-b", &[("y", 2)]));
}

#[test]
fn update_accepts_drift_and_prunes_stale_entries() {
    let old = lock_of(&[
        ("a.md", entry("old-a", &[("x", 1)])),
        ("gone.md", entry("g", &[])),
    ]);
    let records = vec![record("a.md", Some(entry("new-a", &[])), true)];
    let normal = reconcile(
        present(old.clone()),
        records.clone(),
        &paths(&["a.md"]),
        false,
    );
    assert_eq!(normal.stale, paths(&["gone.md"]));
    assert!(normal.pruned.is_empty());
    assert!(normal.lock.oaths.contains_key("gone.md"));
    assert!(!normal.write, "drifted + stale only: nothing changes");

    let update = reconcile(present(old), records, &paths(&["a.md"]), true);
    assert_eq!(update.pruned, paths(&["gone.md"]));
    assert!(update.stale.is_empty());
    assert_eq!(update.lock, lock_of(&[("a.md", entry("new-a", &[]))]));
    assert!(update.write);
}

#[test]
fn unreadable_oaths_keep_their_entry_and_are_not_stale() {
    let old = lock_of(&[("a.md", entry("old-a", &[("x", 1)]))]);
    let r = reconcile(
        present(old.clone()),
        vec![record("a.md", None, false)],
        &paths(&["a.md"]),
        true,
    );
    assert_eq!(r.lock, old);
    assert!(r.pruned.is_empty() && r.stale.is_empty());
    assert!(!r.write);
}

#[test]
fn pruning_uses_the_full_discovery_not_the_records() {
    // A filtered run only has records for a.md, but b.md is still discovered.
    let old = lock_of(&[("a.md", entry("h", &[])), ("b.md", entry("h", &[]))]);
    let r = reconcile(
        present(old.clone()),
        vec![record("a.md", Some(entry("h", &[])), false)],
        &paths(&["a.md", "b.md"]),
        true,
    );
    assert_eq!(r.lock, old);
    assert!(r.pruned.is_empty());
}

#[test]
fn issue10_5_an_unsupported_lock_is_re_recorded_only_under_update() {
    let unsupported = Baseline::Unsupported {
        version: "3".into(),
    };
    let records = vec![record("a.md", Some(entry("h", &[])), false)];
    let r = reconcile(
        unsupported.clone(),
        records.clone(),
        &paths(&["a.md"]),
        true,
    );
    assert!(r.write, "VARAR_UPDATE consents to replacing it");
    assert_eq!(r.lock.oaths.keys().collect::<Vec<_>>(), ["a.md"]);
    let r = reconcile(unsupported, records, &paths(&["a.md"]), false);
    assert!(!r.write);
}

#[test]
fn notices_name_the_path() {
    assert_eq!(
        pruned_notice("deep-thought.md"),
        "varar: pruned deep-thought.md from varar.lock.json (no longer matched by docs globs)"
    );
    assert_eq!(
        stale_notice("x.md"),
        "varar: varar.lock.json still lists x.md, which the docs globs no longer match — re-run with VARAR_UPDATE=1 to prune it"
    );
    assert_eq!(
        unsupported_version_error("varar.lock.json", "\"2\""),
        "varar.lock.json: unsupported lock version \"2\": this varar reads and writes version 2, so drift cannot be checked against it; re-record it with VARAR_UPDATE=1 cargo test and commit it (or delete it)"
    );
}

#[test]
fn lock_bytes_tell_the_same_bytes_from_any_other_without_holding_them() {
    let text = b"{\n  \"version\": 1,\n  \"oaths\": {}\n}\n";
    let known = LockBytes::of(text);
    assert!(known.same(text));
    // One byte changed, the length the same.
    let mut edited = text.to_vec();
    edited[5] = b'V';
    assert!(!known.same(&edited));
    // Longer and shorter.
    assert!(!known.same(&[&text[..], b"\n"].concat()));
    assert!(!known.same(&text[..text.len() - 1]));
    assert!(!known.same(b""));
}

/// Examples whose lock text is a little over 256 KiB: doubling would take
/// nearly twice its size.
const COUNT: usize = 2980;

#[test]
fn a_lock_s_text_is_made_in_about_the_room_it_takes() {
    // Thousands of examples: the text's room is taken once, near its size
    // (grown by doubling, it took half as much again at a run's end).
    let names: Vec<String> = (0..COUNT)
        .map(|i| format!("Ann deposits {i} coins"))
        .collect();
    let examples: Vec<(&str, i64)> = (names.iter())
        .enumerate()
        .map(|(i, n)| (n.as_str(), 100_000 + i as i64))
        .collect();
    let hash = "a".repeat(64);
    let lock = lock_of(&[
        ("varar/a.md", entry(&hash, &examples)),
        ("varar/b.md", entry(&hash, &examples[..10])),
        ("varar/empty.md", entry(&hash, &[])),
    ]);
    let text = serialize_lock(&lock);
    assert_eq!(valid(&text), lock);
    assert!(text.capacity() >= text.len());
    assert!(
        text.capacity() <= text.len() + text.len() / 8,
        "{} for {}",
        text.capacity(),
        text.len()
    );
    let empty = serialize_lock(&Lock::default());
    assert_eq!(valid(&empty), Lock::default());
}
