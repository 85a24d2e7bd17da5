//! What a captured parameter becomes (spec 20 §20.3–20.4).

/// A captured parameter after its type's transform: what a step argument is
/// read from and what a sensor's return is compared with.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ArgValue {
    /// `{int}`, `{byte}`, `{short}`, `{long}`, `{biginteger}`: the digits as written.
    Int(String),
    /// `{float}`, `{double}`: the number as written.
    Float(String),
    /// `{word}`, `{string}` (unquoted, unescaped), `{}`, `{emph}` (markers
    /// removed), `{bigdecimal}`: the text.
    Text(String),
    /// A custom type: its name and the outermost capture groups (or the whole
    /// match when the pattern has none); `None` for a group that did not
    /// participate. Parsed by the type's own parse function.
    Custom {
        /// The parameter type's name.
        name: String,
        /// Capture groups handed to the parse function.
        groups: Vec<Option<String>>,
    },
}
