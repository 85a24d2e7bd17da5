//! How similar two example names are (spec 40 §5.1): the Jaccard similarity
//! of their word tokens, compared as exact ratios against the threshold.

use std::cmp::Ordering;
use std::sync::LazyLock;

use regex::Regex;

/// A re-identified candidate needs at least this similarity (inclusive),
/// as the ratio `THRESHOLD_NUM / THRESHOLD_DEN`.
pub(super) const THRESHOLD_NUM: u64 = 1;
pub(super) const THRESHOLD_DEN: u64 = 2;

#[allow(clippy::expect_used)] // A constant pattern, exercised by every test below.
pub(super) static WORD: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"[\p{L}\p{N}]+").expect("constant regex compiles"));

/// Call `f` with every token of `s` (with repeats), in text order.
pub(super) fn for_each_token(s: &str, mut f: impl FnMut(&str)) {
    let lower = s.to_lowercase();
    if !crate::text::is_ascii(&lower) {
        WORD.find_iter(&lower).for_each(|m| f(m.as_str()));
        return;
    }
    // In ASCII, L* and N* are exactly the letters and digits: the same runs
    // as the regex, found by a plain byte loop (cheap even unoptimised).
    let bytes = lower.as_bytes();
    let mut start = 0;
    let mut i = 0;
    while i <= bytes.len() {
        if i == bytes.len() || !bytes[i].is_ascii_alphanumeric() {
            if i > start {
                f(&lower[start..i]);
            }
            start = i + 1;
        }
        i += 1;
    }
}

/// Compare two ratios `n1/d1` and `n2/d2` exactly (denominators are > 0).
pub(super) fn cmp_ratio((n1, d1): (u64, u64), (n2, d2): (u64, u64)) -> Ordering {
    (n1 * d2).cmp(&(n2 * d1))
}
