use super::*;

#[test]
fn text_within_the_limit_is_kept_as_it_is() {
    assert_eq!(cut_to("", 0), "");
    assert_eq!(cut_to("", 100), "");
    assert!(matches!(cut(""), std::borrow::Cow::Borrowed("")));
    let exact = "é".repeat(50);
    assert_eq!(exact.len(), 100);
    assert_eq!(cut_to(&exact, 100), exact);
    assert_eq!(cut_string("x".repeat(TEXT_LIMIT)).len(), TEXT_LIMIT);
}

#[test]
fn one_byte_over_the_limit_is_cut_and_says_how_much() {
    let text = "x".repeat(101);
    let cut = cut_to(&text, 100);
    assert_eq!(cut, format!("{}… [37 bytes cut]", "x".repeat(64)));
    assert!(cut.len() <= 100);
    assert!(was_cut(&cut));
    assert!(!was_cut(&text));
}

#[test]
fn a_cut_never_splits_a_character() {
    // The head's budget (100 − 36 = 64 bytes) ends inside the sixteenth
    // four-byte emoji: the head ends before it, at 63 bytes.
    let text = format!("abc{}", "😀".repeat(40));
    let cut = cut_to(&text, 100);
    assert_eq!(cut, format!("abc{}… [100 bytes cut]", "😀".repeat(15)));
    assert_eq!(cut.len(), 63 + "… [100 bytes cut]".len());
    for limit in 36..200 {
        let text = format!("ä{}", "日本語😀".repeat(20));
        let cut = cut_to(&text, limit);
        assert!(cut.len() <= limit.max(36), "{limit}: {}", cut.len());
        let head = cut.split("… [").next().unwrap_or_default();
        assert!(text.starts_with(head), "{limit}");
    }
}

#[test]
fn the_note_counts_every_byte_left_out() {
    let text = "y".repeat(20 * 1024 * 1024);
    let cut = cut(&text);
    assert!(cut.len() <= TEXT_LIMIT);
    let kept = TEXT_LIMIT - 36;
    assert_eq!(&cut[kept..], format!("… [{} bytes cut]", text.len() - kept));
    assert_eq!(cut_string(text.clone()), cut);
}

#[test]
fn a_cut_text_is_not_cut_again() {
    let text = "z".repeat(1000);
    for limit in [36, 37, 100, 999] {
        let once = cut_to(&text, limit).into_owned();
        assert_eq!(cut_to(&once, limit), once, "{limit}");
    }
}

#[test]
fn a_limit_smaller_than_the_note_keeps_the_note_alone() {
    assert_eq!(cut_to("abcdef", 3), "… [6 bytes cut]");
}

#[test]
fn only_the_notes_cut_writes_are_taken_for_cuts() {
    assert!(was_cut("abc… [12 bytes cut]"));
    assert!(!was_cut("abc… [ bytes cut]"));
    assert!(!was_cut("abc… [1x bytes cut]"));
    assert!(!was_cut("abc [12 bytes cut]"));
}

#[test]
fn controls_and_bidi_overrides_are_escaped_for_a_terminal() {
    let hostile = "a\u{1b}[2J\u{7}\u{0}b\u{202e}c\u{2066}\u{7f}\u{9b}\r";
    assert_eq!(
        terminal_text(hostile),
        "a\\u{001B}[2J\\u{0007}\\u{0000}b\\u{202E}c\\u{2066}\\u{007F}\\u{009B}\\u{000D}"
    );
    assert_eq!(
        terminal_text("two\nlines\tand a tab"),
        "two\nlines\tand a tab"
    );
    assert_eq!(
        terminal_line("two\nlines\tand a tab"),
        "two\\u{000A}lines\tand a tab"
    );
    for c in [
        '\u{202a}', '\u{202b}', '\u{202c}', '\u{202d}', '\u{2067}', '\u{2068}', '\u{2069}',
        '\u{200e}', '\u{200f}', '\u{61c}',
    ] {
        assert!(is_bidi_control(c), "{c:?}");
    }
    for c in ['\u{2029}', '\u{200b}', '\u{206a}', 'a', '😀'] {
        assert!(!is_bidi_control(c), "{c:?}");
    }
}

#[test]
fn ordinary_text_is_not_copied() {
    for text in ["", "plain £2.55 — 日本 😀", "tab\there"] {
        assert!(matches!(terminal_line(text), std::borrow::Cow::Borrowed(_)));
    }
}

#[test]
fn escaping_is_idempotent_and_leaves_no_raw_control() {
    let hostile: String = (0u32..0x300)
        .chain(0x2000..0x2070)
        .filter_map(char::from_u32)
        .collect();
    let once = terminal_line(&hostile).into_owned();
    assert_eq!(terminal_line(&once), once);
    assert!(
        !once
            .chars()
            .any(|c| (c.is_control() && c != '\t') || is_bidi_control(c))
    );
    assert!(once.contains("\\u{000A}") && once.contains('\t'));
    let text = terminal_text(&hostile).into_owned();
    assert!(
        !text
            .chars()
            .any(|c| (c.is_control() && c != '\n' && c != '\t') || is_bidi_control(c))
    );
}

proptest::proptest! {
    /// Whatever the text and the limit, the cut is at most the limit, a
    /// prefix of the text plus the note, and stable.
    #[test]
    fn every_cut_is_bounded_a_prefix_and_stable(text in "\\PC{0,80}", limit in 36usize..120) {
        let once = cut_to(&text, limit).into_owned();
        proptest::prop_assert!(once.len() <= limit);
        proptest::prop_assert_eq!(cut_to(&once, limit).into_owned(), once.clone());
        if once != text {
            let (head, _) = once.rsplit_once("… [").unwrap_or_default();
            proptest::prop_assert!(text.starts_with(head));
            proptest::prop_assert!(was_cut(&once));
        }
    }
}
