//! Tag expressions, as cucumber's `tag-expressions` (and so cucumber-rs)
//! write them: `@smoke and not (@slow or @db)`.
//!
//! * operands are tags, written with their `@` (a bare word is an error:
//!   every tag of a document starts with `@`, so `smoke` could never match,
//!   and saying so at once beats selecting nothing);
//! * `not` binds tighter than `and`, which binds tighter than `or`; `and`
//!   and `or` associate to the left; parentheses group;
//! * tokens are separated by whitespace, and `(` and `)` stand alone;
//! * a backslash takes the next character literally, so `@a\(1\)` is the
//!   tag `@a(1)` and `@a\ b` a tag with a space (which no document has);
//! * tags compare case-sensitively, as cucumber does.
//!
//! Gauge's `&`, `|` and `!` are not operators here: they are tag
//! characters, so `@a&@b` is one tag (one syntax, the one the issue names).

use std::fmt;

/// A parsed tag expression.
///
/// ```
/// use varar_core::tags::TagExpression;
/// let e = TagExpression::parse("@smoke and not (@slow or @db)").unwrap();
/// assert!(e.matches(&["@smoke"]));
/// assert!(!e.matches(&["@smoke", "@db"]));
/// assert_eq!(e.to_string(), "(@smoke and not (@slow or @db))");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TagExpression {
    /// True when the tags hold this tag (with its `@`).
    Tag(String),
    /// True when the inner expression is false.
    Not(Box<TagExpression>),
    /// True when both are.
    And(Box<TagExpression>, Box<TagExpression>),
    /// True when either is.
    Or(Box<TagExpression>, Box<TagExpression>),
}

/// Why a tag expression does not parse, and where.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("at column {column}: {kind}")]
pub struct TagExpressionError {
    /// 1-based column (in characters) of the offending token, or one past
    /// the end when the expression ends too early.
    pub column: usize,
    /// What is wrong there.
    pub kind: TagExpressionErrorKind,
}

/// What is wrong with a tag expression.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum TagExpressionErrorKind {
    /// Nothing but whitespace.
    #[error("the expression is empty")]
    Empty,
    /// The expression stops where a tag, `not` or `(` must come.
    #[error("it ends where a tag, `not` or `(` is expected")]
    UnexpectedEnd,
    /// A token stands where a tag, `not` or `(` must come.
    #[error("`{0}` where a tag, `not` or `(` is expected")]
    ExpectedOperand(String),
    /// A word that is not an operator and lacks its `@`.
    #[error("`{0}` is not a tag: tags start with `@` (write `@{0}`)")]
    NotATag(String),
    /// Two operands, or `)`, where `and`, `or` or the end must come.
    #[error("`{0}` where `and`, `or` or the end is expected")]
    ExpectedOperator(String),
    /// A `(` that no `)` closes.
    #[error("this `(` is never closed")]
    Unclosed,
    /// A `)` that no `(` opened.
    #[error("this `)` closes nothing")]
    Unopened,
    /// A backslash at the very end, escaping nothing.
    #[error("a `\\` at the end escapes nothing")]
    TrailingEscape,
}

#[derive(Clone, Debug, PartialEq, Eq)]
enum Token {
    Open,
    Close,
    And,
    Or,
    Not,
    /// A word as written, escapes resolved (an escaped `\and` is a word,
    /// never the operator).
    Word(String),
}

impl Token {
    fn text(&self) -> &str {
        match self {
            Token::Open => "(",
            Token::Close => ")",
            Token::And => "and",
            Token::Or => "or",
            Token::Not => "not",
            Token::Word(w) => w,
        }
    }
}

/// The tokens of `input`, each with its 1-based column.
fn tokens(input: &str) -> Result<Vec<(Token, usize)>, TagExpressionError> {
    let mut out = Vec::new();
    let mut word = String::new();
    let mut escaped = false;
    let mut start = 0;
    let mut chars = input.chars().enumerate().peekable();
    let finish = |word: &mut String, escaped: &mut bool, start: usize, out: &mut Vec<_>| {
        if word.is_empty() {
            return;
        }
        let token = match (word.as_str(), *escaped) {
            ("and", false) => Token::And,
            ("or", false) => Token::Or,
            ("not", false) => Token::Not,
            _ => Token::Word(word.clone()),
        };
        out.push((token, start));
        word.clear();
        *escaped = false;
    };
    while let Some((i, c)) = chars.next() {
        let column = i + 1;
        match c {
            '\\' => {
                let Some((_, next)) = chars.next() else {
                    return Err(TagExpressionError {
                        column,
                        kind: TagExpressionErrorKind::TrailingEscape,
                    });
                };
                if word.is_empty() {
                    start = column;
                }
                word.push(next);
                escaped = true;
            }
            '(' | ')' => {
                finish(&mut word, &mut escaped, start, &mut out);
                let token = if c == '(' { Token::Open } else { Token::Close };
                out.push((token, column));
            }
            c if c.is_whitespace() => finish(&mut word, &mut escaped, start, &mut out),
            c => {
                if word.is_empty() {
                    start = column;
                }
                word.push(c);
            }
        }
    }
    finish(&mut word, &mut escaped, start, &mut out);
    Ok(out)
}

struct Parser {
    tokens: Vec<(Token, usize)>,
    at: usize,
    /// The column just past the input, where an early end is reported.
    end: usize,
}

impl Parser {
    fn peek(&self) -> Option<&(Token, usize)> {
        self.tokens.get(self.at)
    }

    fn error(column: usize, kind: TagExpressionErrorKind) -> TagExpressionError {
        TagExpressionError { column, kind }
    }

    /// or := and ("or" and)*
    fn or(&mut self) -> Result<TagExpression, TagExpressionError> {
        let mut left = self.and()?;
        while let Some((Token::Or, _)) = self.peek() {
            self.at += 1;
            let right = self.and()?;
            left = TagExpression::Or(Box::new(left), Box::new(right));
        }
        Ok(left)
    }

    /// and := unary ("and" unary)*
    fn and(&mut self) -> Result<TagExpression, TagExpressionError> {
        let mut left = self.unary()?;
        while let Some((Token::And, _)) = self.peek() {
            self.at += 1;
            let right = self.unary()?;
            left = TagExpression::And(Box::new(left), Box::new(right));
        }
        Ok(left)
    }

    /// unary := "not" unary | "(" or ")" | tag
    fn unary(&mut self) -> Result<TagExpression, TagExpressionError> {
        let Some((token, column)) = self.peek().cloned() else {
            return Err(Self::error(self.end, TagExpressionErrorKind::UnexpectedEnd));
        };
        self.at += 1;
        match token {
            Token::Not => Ok(TagExpression::Not(Box::new(self.unary()?))),
            Token::Open => {
                let inner = self.or()?;
                match self.peek() {
                    Some((Token::Close, _)) => {
                        self.at += 1;
                        Ok(inner)
                    }
                    Some((other, at)) => Err(Self::error(
                        *at,
                        TagExpressionErrorKind::ExpectedOperator(other.text().to_owned()),
                    )),
                    None => Err(Self::error(column, TagExpressionErrorKind::Unclosed)),
                }
            }
            Token::Word(word) if word.starts_with('@') && word.len() > 1 => {
                Ok(TagExpression::Tag(word))
            }
            Token::Word(word) => Err(Self::error(column, TagExpressionErrorKind::NotATag(word))),
            other => Err(Self::error(
                column,
                TagExpressionErrorKind::ExpectedOperand(other.text().to_owned()),
            )),
        }
    }
}

impl TagExpression {
    /// Parse `input`.
    ///
    /// ```
    /// use varar_core::tags::TagExpression;
    /// let err = TagExpression::parse("@a and (@b or").unwrap_err();
    /// assert_eq!(err.to_string(), "at column 14: it ends where a tag, `not` or `(` is expected");
    /// ```
    pub fn parse(input: &str) -> Result<TagExpression, TagExpressionError> {
        let tokens = tokens(input)?;
        let end = input.chars().count() + 1;
        if tokens.is_empty() {
            return Err(Parser::error(end, TagExpressionErrorKind::Empty));
        }
        let mut parser = Parser { tokens, at: 0, end };
        let expression = parser.or()?;
        match parser.peek() {
            None => Ok(expression),
            Some((Token::Close, column)) => {
                Err(Parser::error(*column, TagExpressionErrorKind::Unopened))
            }
            Some((other, column)) => Err(Parser::error(
                *column,
                TagExpressionErrorKind::ExpectedOperator(other.text().to_owned()),
            )),
        }
    }

    /// Whether an item holding `tags` (each with its `@`) is selected.
    pub fn matches<S: AsRef<str>>(&self, tags: &[S]) -> bool {
        match self {
            TagExpression::Tag(tag) => tags.iter().any(|t| t.as_ref() == tag),
            TagExpression::Not(inner) => !inner.matches(tags),
            TagExpression::And(a, b) => a.matches(tags) && b.matches(tags),
            TagExpression::Or(a, b) => a.matches(tags) || b.matches(tags),
        }
    }
}

/// Fully parenthesised, escapes written back: parsing the text gives the
/// same expression.
impl fmt::Display for TagExpression {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TagExpression::Tag(tag) => {
                for c in tag.chars() {
                    if c == '\\' || c == '(' || c == ')' || c.is_whitespace() {
                        write!(f, "\\")?;
                    }
                    write!(f, "{c}")?;
                }
                Ok(())
            }
            TagExpression::Not(inner) => write!(f, "not {inner}"),
            TagExpression::And(a, b) => write!(f, "({a} and {b})"),
            TagExpression::Or(a, b) => write!(f, "({a} or {b})"),
        }
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::TagExpressionErrorKind as K;
    use super::*;

    fn tag(t: &str) -> TagExpression {
        TagExpression::Tag(t.to_owned())
    }
    fn not(e: TagExpression) -> TagExpression {
        TagExpression::Not(Box::new(e))
    }
    fn and(a: TagExpression, b: TagExpression) -> TagExpression {
        TagExpression::And(Box::new(a), Box::new(b))
    }
    fn or(a: TagExpression, b: TagExpression) -> TagExpression {
        TagExpression::Or(Box::new(a), Box::new(b))
    }
    fn parsed(input: &str) -> TagExpression {
        TagExpression::parse(input).unwrap_or_else(|e| panic!("{input}: {e}"))
    }
    fn error(input: &str) -> (usize, K) {
        let e = TagExpression::parse(input).expect_err(input);
        (e.column, e.kind)
    }

    #[test]
    fn precedence_is_not_then_and_then_or() {
        assert_eq!(
            parsed("@a or @b and not @c"),
            or(tag("@a"), and(tag("@b"), not(tag("@c"))))
        );
        assert_eq!(parsed("not @a and @b"), and(not(tag("@a")), tag("@b")));
        assert_eq!(
            parsed("@a and @b or @c and @d"),
            or(and(tag("@a"), tag("@b")), and(tag("@c"), tag("@d")))
        );
        assert_eq!(
            parsed("@a or @b or @c"),
            or(or(tag("@a"), tag("@b")), tag("@c")),
            "left-associative"
        );
        assert_eq!(parsed("not not @a"), not(not(tag("@a"))));
    }

    #[test]
    fn parentheses_group_and_stand_alone_without_spaces() {
        assert_eq!(
            parsed("@a and not (@b or @c)"),
            and(tag("@a"), not(or(tag("@b"), tag("@c"))))
        );
        assert_eq!(parsed("(@a)and(@b)"), and(tag("@a"), tag("@b")));
        assert_eq!(parsed("  ((@a))  "), tag("@a"));
    }

    #[test]
    fn a_backslash_takes_the_next_character_literally() {
        assert_eq!(parsed(r"@a\(1\)"), tag("@a(1)"));
        assert_eq!(parsed(r"@a\ b or @c"), or(tag("@a b"), tag("@c")));
        assert_eq!(parsed(r"@back\\slash"), tag(r"@back\slash"));
        // An escaped operator word is a word, and lacks its `@`.
        assert_eq!(error(r"@a and \not"), (8, K::NotATag("not".into())));
        assert_eq!(error(r"@a \and @b").1, K::ExpectedOperator("and".into()));
    }

    #[test]
    fn tags_compare_exactly() {
        let e = parsed("@Slow");
        assert!(e.matches(&["@Slow"]));
        assert!(!e.matches(&["@slow"]));
        assert!(!e.matches(&["@Slower"]));
        assert!(!e.matches::<&str>(&[]));
        assert!(parsed("not @slow").matches::<&str>(&[]));
    }

    #[test]
    fn errors_say_what_and_where() {
        assert_eq!(error(""), (1, K::Empty));
        assert_eq!(error("   "), (4, K::Empty));
        assert_eq!(error("@a and"), (7, K::UnexpectedEnd));
        assert_eq!(error("@a @b"), (4, K::ExpectedOperator("@b".into())));
        assert_eq!(error("@a and or @b"), (8, K::ExpectedOperand("or".into())));
        assert_eq!(error("smoke"), (1, K::NotATag("smoke".into())));
        assert_eq!(error("@a and @"), (8, K::NotATag("@".into())));
        assert_eq!(error("(@a or @b"), (1, K::Unclosed));
        assert_eq!(error("@a)"), (3, K::Unopened));
        assert_eq!(error("(@a @b)"), (5, K::ExpectedOperator("@b".into())));
        assert_eq!(error("@a\\"), (3, K::TrailingEscape));
        assert_eq!(error("()"), (2, K::ExpectedOperand(")".into())));
        // Columns count characters, not bytes.
        assert_eq!(error("@é and"), (7, K::UnexpectedEnd));
        assert_eq!(
            TagExpression::parse("smoke and not @slow")
                .expect_err("bare word")
                .to_string(),
            "at column 1: `smoke` is not a tag: tags start with `@` (write `@smoke`)"
        );
    }

    fn expressions() -> impl Strategy<Value = TagExpression> {
        let leaf = prop::sample::select(vec!["@a", "@b", "@c", "@x(1)", r"@back\s", "@sp ace"])
            .prop_map(tag);
        leaf.prop_recursive(5, 32, 2, |inner| {
            prop_oneof![
                inner.clone().prop_map(not),
                (inner.clone(), inner.clone()).prop_map(|(a, b)| and(a, b)),
                (inner.clone(), inner).prop_map(|(a, b)| or(a, b)),
            ]
        })
    }

    proptest! {
        #[test]
        fn its_text_parses_back_to_itself(e in expressions()) {
            prop_assert_eq!(parsed(&e.to_string()), e);
        }

        #[test]
        fn matching_is_boolean_logic_over_membership(
            e in expressions(),
            held in prop::collection::vec(prop::sample::select(vec!["@a", "@b", "@c", "@x(1)"]), 0..4),
        ) {
            fn truth(e: &TagExpression, held: &[&str]) -> bool {
                match e {
                    TagExpression::Tag(t) => held.contains(&t.as_str()),
                    TagExpression::Not(i) => !truth(i, held),
                    TagExpression::And(a, b) => truth(a, held) && truth(b, held),
                    TagExpression::Or(a, b) => truth(a, held) || truth(b, held),
                }
            }
            prop_assert_eq!(e.matches(&held), truth(&e, &held));
        }

        #[test]
        fn any_text_parses_or_fails_with_a_column_inside_it(s in "[@a-c ()\\\\notrd]{0,24}") {
            if let Err(e) = TagExpression::parse(&s) {
                prop_assert!(e.column >= 1 && e.column <= s.chars().count() + 1, "{e}");
            }
        }
    }
}
