//! Parameter types (spec 20 §20.3–§20.4): the twelve built-ins with their
//! `regex`-crate patterns, custom types, and the capture-group analysis that
//! decides what a type's parse receives.
//!
//! The built-in patterns are the Rust column of §20.3: JavaScript's `\d` is
//! ASCII and its `\s` and `.` are not Rust's, so each class is written out.
//! None uses lookaround, so the scan's groups equal the anchored re-match's.
//!
//! **Float divergence (accepted, spec 20 §20.3).** The reference float
//! pattern starts with a lookahead that looks for a digit anywhere later in
//! the *sentence*, so it can bind `{float}`/`{double}`/`{bigdecimal}` to an
//! empty string or a lone sign (`I pay - for 3 items` gives `-`). The Rust
//! pattern requires a digit inside the number itself and therefore rejects
//! those digit-less bindings; on every float that contains a digit both
//! accept the same strings.

use regex_syntax::ast::{self, Ast};

/// How a parameter's match becomes an [`crate::ArgValue`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Transform {
    /// `{int}`, `{byte}`, `{short}`, `{long}`, `{biginteger}`: the digits.
    Int,
    /// `{float}`, `{double}`: the number as written.
    Float,
    /// `{bigdecimal}`: the matched text.
    BigDecimal,
    /// `{word}`: the matched text.
    Word,
    /// `{string}`: the text between the quotes, `\"` and `\'` unescaped.
    String,
    /// `{}`: the matched text.
    Anonymous,
    /// `{emph}`: the text inside the outermost delimiter pair.
    Emph,
    /// A custom type: its outermost groups, for its own parse.
    Custom,
}

/// `{int}` and its aliases: ASCII digits with an optional minus.
pub(crate) const INT_PATTERN: &str = "-?[0-9]+";
/// `{float}`, `{double}`, `{bigdecimal}`; see the module docs for the one
/// divergence from the reference.
const FLOAT_PATTERN: &str = r"[-+]?(?:[0-9]*\.[0-9]+|[0-9]+)(?:E[-+]?[0-9]+)?";
/// `{word}`: one or more code points outside JavaScript's `\s`.
pub(crate) const WORD_PATTERN: &str = r"[^\t\n\x0B\x0C\r \x{A0}\x{1680}\x{2000}-\x{200A}\x{2028}\x{2029}\x{202F}\x{205F}\x{3000}\x{FEFF}]+";
/// `{string}`: double- or single-quoted, backslash escapes allowed inside;
/// JavaScript's `.` written as its class.
pub(crate) const STRING_PATTERN: &str = r#""([^"\\]*(\\[^\n\r\x{2028}\x{2029}][^"\\]*)*)"|'([^'\\]*(\\[^\n\r\x{2028}\x{2029}][^'\\]*)*)'"#;
/// `{}`: JavaScript's `.*`.
pub(crate) const ANONYMOUS_PATTERN: &str = r"[^\n\r\x{2028}\x{2029}]*";
/// `{emph}`: the six Markdown emphasis forms, longest first.
const EMPH_PATTERN: &str =
    r"\*\*\*([^*]+)\*\*\*|___([^_]+)___|\*\*([^*]+)\*\*|__([^_]+)__|\*([^*]+)\*|_([^_]+)_";

/// The twelve built-in types (spec 20 §20.3): the one list of their names,
/// patterns and transforms, which the engine's registry and the macros'
/// compile-time checks both read.
const BUILT_INS: [(&str, &str, Transform); 12] = [
    ("int", INT_PATTERN, Transform::Int),
    ("byte", INT_PATTERN, Transform::Int),
    ("short", INT_PATTERN, Transform::Int),
    ("long", INT_PATTERN, Transform::Int),
    ("biginteger", INT_PATTERN, Transform::Int),
    ("float", FLOAT_PATTERN, Transform::Float),
    ("double", FLOAT_PATTERN, Transform::Float),
    ("bigdecimal", FLOAT_PATTERN, Transform::BigDecimal),
    ("word", WORD_PATTERN, Transform::Word),
    ("string", STRING_PATTERN, Transform::String),
    ("", ANONYMOUS_PATTERN, Transform::Anonymous),
    ("emph", EMPH_PATTERN, Transform::Emph),
];

/// Which Rust values a built-in parameter type's slot holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BuiltIn {
    /// `{int}`, `{byte}`, `{short}`, `{long}`, `{biginteger}`: any integer type.
    Int,
    /// `{float}`, `{double}`: `f64` or `f32`.
    Float,
    /// `{word}`, `{string}`, `{}`, `{emph}`, `{bigdecimal}`: text.
    Text,
}

/// The built-in type called `name`, if there is one (`""` is `{}`).
///
/// ```
/// use varar_expression::{BuiltIn, built_in};
/// assert_eq!(built_in("long"), Some(BuiltIn::Int));
/// assert_eq!(built_in("bigdecimal"), Some(BuiltIn::Text));
/// assert_eq!(built_in("money"), None);
/// ```
pub fn built_in(name: &str) -> Option<BuiltIn> {
    BUILT_INS
        .iter()
        .find(|(n, _, _)| *n == name)
        .map(|(_, _, transform)| match transform {
            Transform::Int => BuiltIn::Int,
            Transform::Float => BuiltIn::Float,
            _ => BuiltIn::Text,
        })
}

/// The names of the built-in types, `""` (`{}`) included.
pub(crate) fn built_in_names() -> impl Iterator<Item = &'static str> {
    BUILT_INS.iter().map(|(name, _, _)| *name)
}

/// Characters a custom type name may not contain (§20.4).
const ILLEGAL_NAME_CHARS: [char; 10] = ['[', ']', '(', ')', '$', '.', '|', '?', '*', '+'];

/// One parameter type: name, pattern and how its groups are read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParameterType {
    name: String,
    regex: String,
    transform: Transform,
    groups: GroupShape,
}

impl ParameterType {
    /// The name used between braces (`""` for `{}`).
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The pattern, in `regex`-crate syntax, as declared.
    pub fn regex(&self) -> &str {
        &self.regex
    }

    /// How a match becomes a value.
    pub fn transform(&self) -> Transform {
        self.transform
    }

    /// Capture indices (1-based, in the pattern's own numbering) of the
    /// outermost capture groups.
    #[cfg(feature = "matching")]
    pub(crate) fn outermost(&self) -> &[usize] {
        &self.groups.outermost
    }

    /// Number of capture groups in the pattern, nested ones included.
    #[cfg(feature = "matching")]
    pub(crate) fn captures(&self) -> usize {
        self.groups.captures
    }
}

/// A custom type that cannot be defined (spec 20 §20.4).
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ParameterTypeError {
    /// The name contains one of `[ ] ( ) $ . | ? * +`. The wording (which
    /// lists other characters) is the reference's.
    IllegalName {
        /// The rejected name.
        name: String,
    },
    /// The name is `""`, which `{}` already uses.
    AnonymousAlreadyDefined,
    /// A built-in or an earlier custom type has this name.
    AlreadyDefined {
        /// The name in use.
        name: String,
    },
    /// The pattern is not a valid `regex`-crate pattern.
    InvalidRegex {
        /// The type's name.
        name: String,
        /// The `regex` crate's message.
        message: String,
    },
}

impl std::fmt::Display for ParameterTypeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ParameterTypeError::IllegalName { name } => write!(
                f,
                "Illegal character in parameter name {{{name}}}. Parameter names may not contain '{{', '}}', '(', ')', '\\' or '/'"
            ),
            ParameterTypeError::AnonymousAlreadyDefined => {
                f.write_str("The anonymous parameter type has already been defined")
            }
            ParameterTypeError::AlreadyDefined { name } => {
                write!(f, "There is already a parameter type with name {name}")
            }
            ParameterTypeError::InvalidRegex { name, message } => write!(
                f,
                "The regular expression of parameter type {name} is invalid: {message}"
            ),
        }
    }
}

impl std::error::Error for ParameterTypeError {}

/// The parameter types an expression may use: the twelve built-ins, then
/// custom types in declaration order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParameterTypes {
    types: Vec<ParameterType>,
    built_ins: usize,
}

impl Default for ParameterTypes {
    fn default() -> Self {
        Self::new()
    }
}

impl ParameterTypes {
    /// The built-in types only.
    pub fn new() -> Self {
        let types: Vec<ParameterType> = BUILT_INS
            .iter()
            .map(|(name, regex, transform)| ParameterType {
                name: (*name).to_string(),
                regex: (*regex).to_string(),
                transform: *transform,
                groups: built_in_groups(regex),
            })
            .collect();
        let built_ins = types.len();
        ParameterTypes { types, built_ins }
    }

    /// Declare a custom type (§20.4 name rules; the pattern must be a valid
    /// `regex`-crate pattern on its own).
    pub fn define(&mut self, name: &str, regex: &str) -> Result<(), ParameterTypeError> {
        if name.contains(ILLEGAL_NAME_CHARS) {
            return Err(ParameterTypeError::IllegalName {
                name: name.to_string(),
            });
        }
        if self.get(name).is_some() {
            return Err(if name.is_empty() {
                ParameterTypeError::AnonymousAlreadyDefined
            } else {
                ParameterTypeError::AlreadyDefined {
                    name: name.to_string(),
                }
            });
        }
        let invalid = |message: String| ParameterTypeError::InvalidRegex {
            name: name.to_string(),
            message,
        };
        check_pattern(regex).map_err(invalid)?;
        let groups = analyse(regex).map_err(invalid)?;
        self.types.push(ParameterType {
            name: name.to_string(),
            regex: regex.to_string(),
            transform: Transform::Custom,
            groups,
        });
        Ok(())
    }

    /// The type called `name`, built-in or custom.
    pub fn get(&self, name: &str) -> Option<&ParameterType> {
        self.types.iter().find(|t| t.name == name)
    }

    /// Custom types as `(name, regex)`, in declaration order.
    pub fn custom(&self) -> impl Iterator<Item = (&str, &str)> {
        self.types[self.built_ins..]
            .iter()
            .map(|t| (t.name.as_str(), t.regex.as_str()))
    }
}

/// The capture groups of a pattern, as far as parse arguments go.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct GroupShape {
    /// Every capture group, nested ones included.
    captures: usize,
    /// Capture indices of the groups not nested in another capture group.
    outermost: Vec<usize>,
}

/// The capture groups of a built-in pattern, written out: parsing the
/// patterns anew in every process cost more than the rest of building the
/// registry in an unoptimised build. A test checks them against
/// [`analyse`].
fn built_in_groups(regex: &str) -> GroupShape {
    let (captures, outermost): (usize, &[usize]) = match regex {
        STRING_PATTERN => (4, &[1, 3]),
        EMPH_PATTERN => (6, &[1, 2, 3, 4, 5, 6]),
        // `{int}`, `{float}`, `{word}` and `{}` have no capture group.
        _ => (0, &[]),
    };
    GroupShape {
        captures,
        outermost: outermost.to_vec(),
    }
}

/// Analyse a pattern's capture groups with `regex-syntax`'s AST: a group
/// inside a non-capturing group still counts as outermost (§20.4).
pub(crate) fn analyse(pattern: &str) -> Result<GroupShape, String> {
    let parsed = ast::parse::Parser::new()
        .parse(pattern)
        .map_err(|e| e.to_string())?;
    let mut shape = GroupShape::default();
    walk(&parsed, false, &mut shape);
    Ok(shape)
}

fn walk(node: &Ast, inside_capture: bool, shape: &mut GroupShape) {
    match node {
        Ast::Group(group) => {
            let index = match &group.kind {
                ast::GroupKind::CaptureIndex(index) => Some(*index),
                ast::GroupKind::CaptureName { name, .. } => Some(name.index),
                ast::GroupKind::NonCapturing(_) => None,
            };
            if let Some(index) = index {
                shape.captures += 1;
                if !inside_capture {
                    shape.outermost.push(index as usize);
                }
            }
            walk(&group.ast, inside_capture || index.is_some(), shape);
        }
        Ast::Repetition(repetition) => walk(&repetition.ast, inside_capture, shape),
        Ast::Alternation(alternation) => {
            for inner in &alternation.asts {
                walk(inner, inside_capture, shape);
            }
        }
        Ast::Concat(concat) => {
            for inner in &concat.asts {
                walk(inner, inside_capture, shape);
            }
        }
        Ast::Empty(_)
        | Ast::Flags(_)
        | Ast::Literal(_)
        | Ast::Dot(_)
        | Ast::Assertion(_)
        | Ast::ClassUnicode(_)
        | Ast::ClassPerl(_)
        | Ast::ClassBracketed(_) => {}
    }
}

/// The number of outermost capture groups of a `regex`-crate pattern: the
/// number of arguments a custom type's parse receives (one, the whole match,
/// when this is 0). `Err` with the `regex` crate's message for an invalid
/// pattern.
pub fn outermost_group_count(pattern: &str) -> Result<usize, String> {
    check_pattern(pattern)?;
    Ok(analyse(pattern)?.outermost.len())
}

/// Whether `pattern` is a regex the engine can use, with the reason on one
/// line when it is not: the `regex` crate's verdict where matching is built
/// in; the syntax's alone without it (the step macros' build, which must
/// not compile the regex engine for the host: `regex` reports syntax
/// errors with regex-syntax's own text, so the messages are the same).
pub(crate) fn check_pattern(pattern: &str) -> Result<(), String> {
    #[cfg(feature = "matching")]
    let checked = regex::Regex::new(pattern)
        .map(drop)
        .map_err(|e| e.to_string());
    #[cfg(not(feature = "matching"))]
    let checked = regex_syntax::Parser::new()
        .parse(pattern)
        .map(drop)
        .map_err(|e| e.to_string());
    checked.map_err(|text| one_line(&text))
}

/// A regex error on one line: its syntax errors span several lines
/// (pattern, pointer, `error: …`), and only the last says what is wrong.
pub(crate) fn one_line(text: &str) -> String {
    let last = text.lines().rev().find(|line| !line.trim().is_empty());
    let last = last.unwrap_or(text).trim();
    last.strip_prefix("error: ").unwrap_or(last).to_string()
}

/// The `regex` crate's error on one line (see [`one_line`]).
#[cfg(feature = "matching")]
pub(crate) fn regex_error_message(error: &regex::Error) -> String {
    one_line(&error.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_written_out_groups_of_every_built_in_are_the_parsed_ones() {
        for (name, regex, _) in BUILT_INS {
            assert_eq!(
                built_in_groups(regex),
                analyse(regex).unwrap_or_else(|e| panic!("{name}: {e}")),
                "{{{name}}}"
            );
        }
    }
}
