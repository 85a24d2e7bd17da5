//! Bounding a message (STYLE §2.9 "bound everything"): one limit, one form
//! of the note that says how much was left out.

use std::borrow::Cow;

/// The most bytes (UTF-8) of one message, stack, actual value or
/// backtrace that the harness keeps in a failure, and that `cargo varar`
/// and the language server show or store again: 64 KiB.
///
/// Ordinary messages are far shorter and are kept byte for byte, so the
/// result files stay what every other port writes (seed 000's contract);
/// only an over-long text is cut, to its first bytes and the note
/// `… [N bytes cut]`, the two together at most this long.
pub const TEXT_LIMIT: usize = 64 * 1024;

/// What the note takes at most: `… [`, twenty digits (a `u64`), ` bytes
/// cut]`.
const NOTE_RESERVE: usize = "… [".len() + 20 + " bytes cut]".len();

/// `text` cut to [`TEXT_LIMIT`] bytes (see [`cut_to`]).
pub fn cut(text: &str) -> Cow<'_, str> {
    cut_to(text, TEXT_LIMIT)
}

/// `text` as it is when it holds at most `limit` bytes. Otherwise its
/// first bytes, ended at a character boundary, followed by the note
/// `… [N bytes cut]`, where `N` is how many bytes of `text` were left out;
/// the whole is at most `limit` bytes (or the note alone, when `limit` is
/// smaller than a note, 36 bytes). The same text and limit always give the
/// same result, and a result (under a limit of at least 36 bytes) is never
/// cut again.
pub fn cut_to(text: &str, limit: usize) -> Cow<'_, str> {
    if text.len() <= limit {
        return Cow::Borrowed(text);
    }
    let head = &text[..floor_boundary(text, limit.saturating_sub(NOTE_RESERVE))];
    let mut out = String::with_capacity(head.len() + NOTE_RESERVE);
    out.push_str(head);
    push_note(&mut out, text.len() - head.len());
    Cow::Owned(out)
}

/// [`cut`] for an owned string: truncated in place, never copied.
pub fn cut_string(mut text: String) -> String {
    if text.len() <= TEXT_LIMIT {
        return text;
    }
    let kept = floor_boundary(&text, TEXT_LIMIT - NOTE_RESERVE);
    let left_out = text.len() - kept;
    text.truncate(kept);
    text.shrink_to(kept + NOTE_RESERVE);
    push_note(&mut text, left_out);
    text
}

/// Whether `text` ends with the note [`cut_to`] writes: it was cut.
pub fn was_cut(text: &str) -> bool {
    text.strip_suffix(" bytes cut]")
        .and_then(|rest| rest.rsplit_once("… ["))
        .is_some_and(|(_, digits)| !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()))
}

fn push_note(out: &mut String, left_out: usize) {
    out.push_str("… [");
    out.push_str(&left_out.to_string());
    out.push_str(" bytes cut]");
}

/// The largest character boundary of `text` at or below `at`.
fn floor_boundary(text: &str, at: usize) -> usize {
    let mut at = at.min(text.len());
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    at
}
