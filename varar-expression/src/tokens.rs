//! Tokeniser of Cucumber Expressions (spec 20 §20.2.1).
//!
//! The expression is read code point by code point; positions are 0-based
//! code-point indices, end exclusive, because error columns count code points.

use super::error::{ExpressionError, ExpressionErrorKind};

/// The kinds of token of §20.2.1, plus the two sentinels the parser relies
/// on (every token list starts with `StartOfLine` and ends with `EndOfLine`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum TokenKind {
    StartOfLine,
    EndOfLine,
    /// A run of U+0020 (a tab is text).
    WhiteSpace,
    /// A run of other code points, escaped ones included.
    Text,
    BeginOptional,
    EndOptional,
    BeginParameter,
    EndParameter,
    Alternation,
}

/// One token: its kind, its text with escapes removed, and its code-point
/// range in the expression (escaping backslashes included).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Token {
    pub(crate) kind: TokenKind,
    pub(crate) text: String,
    pub(crate) start: usize,
    pub(crate) end: usize,
}

fn kind_of(c: char) -> TokenKind {
    match c {
        ' ' => TokenKind::WhiteSpace,
        '(' => TokenKind::BeginOptional,
        ')' => TokenKind::EndOptional,
        '{' => TokenKind::BeginParameter,
        '}' => TokenKind::EndParameter,
        '/' => TokenKind::Alternation,
        _ => TokenKind::Text,
    }
}

fn can_escape(c: char) -> bool {
    matches!(c, '{' | '}' | '(' | ')' | '\\' | '/' | ' ')
}

/// Whether two consecutive code points of these kinds share one token: only
/// runs of text and runs of spaces merge; every brace, parenthesis and slash
/// is a token of its own.
fn merges(previous: TokenKind, current: TokenKind) -> bool {
    previous == current && matches!(current, TokenKind::Text | TokenKind::WhiteSpace)
}

/// Split an expression into tokens, or fail on a bad escape.
pub(crate) fn tokenize(expression: &str) -> Result<Vec<Token>, ExpressionError> {
    let mut tokens = vec![Token {
        kind: TokenKind::StartOfLine,
        text: String::new(),
        start: 0,
        end: 0,
    }];
    // Index of the pending escape's backslash, if the previous code point
    // was an unescaped `\`.
    let mut escape_at: Option<usize> = None;
    let mut count = 0;
    for (index, c) in expression.chars().enumerate() {
        count = index + 1;
        let token_start = match escape_at {
            None if c == '\\' => {
                escape_at = Some(index);
                continue;
            }
            None => index,
            Some(backslash) => backslash,
        };
        let kind = if escape_at.is_some() {
            if !can_escape(c) {
                return Err(ExpressionError::at(
                    expression,
                    index,
                    index + 1,
                    ExpressionErrorKind::CannotEscape,
                ));
            }
            TokenKind::Text
        } else {
            kind_of(c)
        };
        escape_at = None;
        match tokens.last_mut() {
            Some(last) if merges(last.kind, kind) => {
                last.text.push(c);
                last.end = index + 1;
            }
            _ => tokens.push(Token {
                kind,
                text: c.to_string(),
                start: token_start,
                end: index + 1,
            }),
        }
    }
    if let Some(backslash) = escape_at {
        return Err(ExpressionError::at(
            expression,
            backslash,
            backslash + 1,
            ExpressionErrorKind::EndOfLineCannotBeEscaped,
        ));
    }
    tokens.push(Token {
        kind: TokenKind::EndOfLine,
        text: String::new(),
        start: count,
        end: count,
    });
    Ok(tokens)
}

#[cfg(test)]
mod tests {
    use super::*;
    use TokenKind::*;

    fn kinds(expression: &str) -> Vec<(TokenKind, String, usize, usize)> {
        match tokenize(expression) {
            Ok(tokens) => tokens
                .into_iter()
                .map(|t| (t.kind, t.text, t.start, t.end))
                .collect(),
            Err(e) => panic!("{e}"),
        }
    }

    fn t(
        kind: TokenKind,
        text: &str,
        start: usize,
        end: usize,
    ) -> (TokenKind, String, usize, usize) {
        (kind, text.to_string(), start, end)
    }

    #[test]
    fn empty_expression_has_only_sentinels() {
        assert_eq!(
            kinds(""),
            vec![t(StartOfLine, "", 0, 0), t(EndOfLine, "", 0, 0)]
        );
    }

    #[test]
    fn runs_of_text_and_spaces_merge_punctuation_does_not() {
        assert_eq!(
            kinds("ab  {x}((/"),
            vec![
                t(StartOfLine, "", 0, 0),
                t(Text, "ab", 0, 2),
                t(WhiteSpace, "  ", 2, 4),
                t(BeginParameter, "{", 4, 5),
                t(Text, "x", 5, 6),
                t(EndParameter, "}", 6, 7),
                t(BeginOptional, "(", 7, 8),
                t(BeginOptional, "(", 8, 9),
                t(Alternation, "/", 9, 10),
                t(EndOfLine, "", 10, 10),
            ]
        );
    }

    #[test]
    fn a_tab_is_text() {
        assert_eq!(
            kinds("a\tb"),
            vec![
                t(StartOfLine, "", 0, 0),
                t(Text, "a\tb", 0, 3),
                t(EndOfLine, "", 3, 3)
            ]
        );
    }

    #[test]
    fn escapes_become_text_and_positions_count_the_backslash() {
        assert_eq!(
            kinds("\\{a\\ b\\\\ \\/"),
            vec![
                t(StartOfLine, "", 0, 0),
                t(Text, "{a b\\", 0, 8),
                t(WhiteSpace, " ", 8, 9),
                t(Text, "/", 9, 11),
                t(EndOfLine, "", 11, 11),
            ]
        );
    }

    #[test]
    fn positions_are_code_points() {
        assert_eq!(
            kinds("😀 é"),
            vec![
                t(StartOfLine, "", 0, 0),
                t(Text, "😀", 0, 1),
                t(WhiteSpace, " ", 1, 2),
                t(Text, "é", 2, 3),
                t(EndOfLine, "", 3, 3),
            ]
        );
    }

    #[test]
    fn bad_escapes_point_at_the_escaped_code_point_or_the_backslash() {
        let cases: &[(&str, ExpressionErrorKind, usize)] = &[
            ("\\a", ExpressionErrorKind::CannotEscape, 2),
            ("ab \\(c\\x", ExpressionErrorKind::CannotEscape, 8),
            ("a\\", ExpressionErrorKind::EndOfLineCannotBeEscaped, 2),
            ("\\", ExpressionErrorKind::EndOfLineCannotBeEscaped, 1),
            ("é\\\\\\", ExpressionErrorKind::EndOfLineCannotBeEscaped, 4),
        ];
        for (expression, kind, column) in cases {
            match tokenize(expression) {
                Ok(_) => panic!("{expression:?} should fail"),
                Err(e) => {
                    assert_eq!((&e.kind, e.column), (kind, *column), "{expression:?}");
                }
            }
        }
    }
}
