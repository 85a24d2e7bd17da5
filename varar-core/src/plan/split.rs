//! Sentences as planning takes them (spec 10 §8, spec 20 §20.5): each
//! sentence's text and its UTF-16 start in the block text.

use crate::sentences::split_sentences;

/// A sentence as the splitter hands it over: its text and UTF-16 start in
/// the block text.
pub(crate) type SplitSentence = (String, u32);

/// The sentence splitter of spec 10 §8, as planning takes it.
pub(crate) fn split(text: &str) -> Vec<SplitSentence> {
    split_sentences(text)
        .into_iter()
        .map(|s| (s.text, s.start))
        .collect()
}
