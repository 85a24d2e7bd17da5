use super::*;

fn esc(s: &str) -> String {
    let mut out = String::new();
    write_string(&mut out, s);
    out
}

#[test]
fn elements_written_in_batches_apart_are_those_of_one_thread() {
    // Batch sizes that divide the list, leave a short last batch and
    // a last batch of one; a list shorter than a batch; streamed or not.
    let items: Vec<(String, u64)> = (0..23u64)
        .map(|i| (format!("item \"{i}\"\n"), i * 1000))
        .collect();
    let write = |w: &mut Pretty<'_>, (name, n): &(String, u64)| {
        w.object(None);
        w.string(key!("name"), name);
        w.uint(key!("n"), *n);
        w.end_object();
    };
    let document = |items: &[(String, u64)], batch: usize, streamed: bool| {
        let mut bytes = Vec::new();
        let mut w = if streamed {
            Pretty::streaming(&mut bytes)
        } else {
            Pretty::new()
        };
        w.object(None);
        w.string(key!("before"), "x");
        w.array(key!("items"));
        w.elements_in(items.len(), &|w, i| write(w, &items[i]), batch);
        w.end_array();
        w.uint(key!("after"), 1u64);
        w.end_object();
        if streamed {
            w.finish_into().unwrap();
            String::from_utf8(bytes).unwrap()
        } else {
            w.finish()
        }
    };
    for len in [0, 1, 2, 3, 23] {
        let one = document(&items[..len], 0, false);
        serde_json::from_str::<serde_json::Value>(&one).unwrap();
        for batch in [2, 3, 4, 11, 22, 23, 64] {
            for streamed in [false, true] {
                assert_eq!(
                    document(&items[..len], batch, streamed),
                    one,
                    "{len} items, batch {batch}, streamed {streamed}"
                );
            }
        }
    }
}

#[test]
fn a_streamed_list_written_in_batches_keeps_its_buffer_at_a_chunk() {
    // Each half batch written apart is many chunks long: streamed, it goes
    // to the sink as it is, and the writer's own buffer does not grow to
    // hold it (it is held until the document ends).
    let items: Vec<String> = (0..64).map(|i| format!("{i:0>4000}")).collect();
    let mut bytes = Vec::new();
    let mut w = Pretty::streaming(&mut bytes);
    let room = w.out.capacity();
    w.array(None);
    w.elements_in(items.len(), &|w, i| w.string(None, &items[i]), 32);
    w.end_array();
    assert_eq!(w.out.capacity(), room);
    w.finish_into().unwrap();
    let read: Vec<String> = serde_json::from_slice(&bytes).unwrap();
    assert_eq!(read, items);
}

#[test]
fn escapes_like_json_stringify() {
    let cases: &[(&str, &str)] = &[
        ("plain", "\"plain\""),
        ("a\"b\\c", "\"a\\\"b\\\\c\""),
        ("\u{8}\t\n\u{c}\r", "\"\\b\\t\\n\\f\\r\""),
        ("\u{1}\u{1f}\u{0}", "\"\\u0001\\u001f\\u0000\""),
        (
            "\u{7f}\u{2028}\u{2029}/<>&",
            "\"\u{7f}\u{2028}\u{2029}/<>&\"",
        ),
        ("é £ 😀 —", "\"é £ 😀 —\""),
    ];
    for (input, want) in cases {
        assert_eq!(esc(input), *want, "input {input:?}");
    }
}

#[test]
fn every_byte_at_every_place_of_a_word_is_escaped_as_serde_json_does() {
    // Each ASCII character at each of the 16 places of two words
    // amid clean text, and a character of two to four bytes.
    for c in (0u8..0x80).map(char::from).chain(['é', '€', '😀']) {
        for at in 0..16 {
            let s: String = (0..20).map(|i| if i == at { c } else { 'a' }).collect();
            assert_eq!(
                esc(&s),
                serde_json::to_string(&s).unwrap_or_default(),
                "{c:?} at {at}"
            );
        }
    }
}

#[test]
fn a_byte_and_a_word_at_a_time_find_the_same_first_escape() {
    // Each byte at each of 20 places of clean text, and two of them
    // side by side: both ways (only one runs in a given build).
    for c in 0u8..=0xff {
        for at in 0..20 {
            let mut s: Vec<u8> = (0..20).map(|i| if i == at { c } else { b'a' }).collect();
            let one = s.clone();
            assert_eq!(
                first_escape_bytewise(&one),
                first_escape_wordwise(&one),
                "{c} at {at}"
            );
            s[(at + 1) % 20] = b'"';
            assert_eq!(
                first_escape_bytewise(&s),
                first_escape_wordwise(&s),
                "{c} at {at}"
            );
        }
    }
}

#[test]
fn escapes_side_by_side_and_in_a_short_tail_are_each_escaped() {
    for (a, b) in [('"', '\\'), ('\n', '"'), ('\u{1}', '\u{1f}')] {
        for first in 0..12 {
            for second in first..12 {
                let s: String = (0..12)
                    .map(|i| match i {
                        _ if i == first => a,
                        _ if i == second => b,
                        _ => 'a',
                    })
                    .collect();
                assert_eq!(
                    esc(&s),
                    serde_json::to_string(&s).unwrap_or_default(),
                    "{s:?}"
                );
            }
        }
    }
}

#[test]
fn escaping_agrees_with_serde_json() {
    let s = "é £ 😀 \" \\ \u{1} \u{1f} \u{7f} \u{2028} / < > & \u{b}";
    assert_eq!(esc(s), serde_json::to_string(s).unwrap_or_default());
}

#[test]
fn utf16_order_differs_from_byte_order_above_the_bmp() {
    // U+FF61 is one unit 0xFF61; U+1F600 starts with the surrogate 0xD83D.
    assert_eq!(cmp_utf16("\u{1F600}", "\u{FF61}"), Ordering::Less);
    assert_eq!("\u{1F600}".cmp("\u{FF61}"), Ordering::Greater);
}

#[test]
fn pretty_printer_matches_serde_json_pretty_for_sorted_keys() {
    let v: Value =
        serde_json::json!({"b": [1, {"x": []}, "s"], "a": {}, "c": [], "d": null, "e": true});
    let ours = to_pretty_string(&v, &cmp_utf16);
    let theirs = serde_json::to_string_pretty(&v).unwrap_or_default() + "\n";
    assert_eq!(ours, theirs);
}

#[test]
fn key_order_is_the_callers() {
    let v: Value = serde_json::json!({"a": 1, "b": 2});
    let reversed = to_pretty_string(&v, &|a: &str, b: &str| b.cmp(a));
    assert_eq!(reversed, "{\n  \"b\": 2,\n  \"a\": 1\n}\n");
}

#[test]
fn a_key_is_its_name_quoted_with_the_colon_after() {
    assert_eq!(key!("oathPath").map(Key::text), Some("\"oathPath\": "));
    let mut w = Pretty::new();
    w.object(None);
    w.uint(key!("line"), 7u32);
    w.float(key!("durationMs"), 1.5);
    w.end_object();
    assert_eq!(w.finish(), "{\n  \"line\": 7,\n  \"durationMs\": 1.5\n}\n");
}
