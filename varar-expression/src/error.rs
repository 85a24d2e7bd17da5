//! Compile errors of a Cucumber Expression (spec 20 §20.2.4): which problem,
//! where (code-point columns), and the multi-line layout with a pointer line.

use std::fmt;

/// What is wrong with an expression (spec 20 §20.2.4).
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ExpressionErrorKind {
    /// `()`: an optional with no text in it.
    OptionalMayNotBeEmpty,
    /// `(a{int})`.
    ParameterIsNotAllowedInOptional,
    /// `((a))`.
    OptionalIsNotAllowedInOptional,
    /// `(a/b)`.
    AlternationNotAllowedInOptional,
    /// `/a`, `a/ b`, `a//b`, `{int}/x`.
    AlternativeMayNotBeEmpty,
    /// `a/(b)`.
    AlternativeMayNotExclusivelyContainOptionals,
    /// `{a(b}`: a `(`, `)`, `{` or `/` inside a parameter's braces.
    InvalidParameterTypeName,
    /// A `{` without its `}`.
    UnclosedParameter,
    /// A `(` without its `)`.
    UnclosedOptional,
    /// `\x` for a code point that cannot be escaped.
    CannotEscape,
    /// A lone `\` at the end.
    EndOfLineCannotBeEscaped,
    /// `{name}` where no parameter type is called `name`.
    UndefinedParameterType {
        /// The name between the braces.
        name: String,
    },
    /// The generated regex was refused by the `regex` crate (for example a
    /// size limit); the reference has no such error.
    InvalidRegex {
        /// The `regex` crate's message.
        message: String,
    },
}

impl ExpressionErrorKind {
    /// The problem sentence, without its final `.`.
    pub fn problem(&self) -> String {
        match self {
            Self::OptionalMayNotBeEmpty => "An optional must contain some text".to_string(),
            Self::ParameterIsNotAllowedInOptional => {
                "An optional may not contain a parameter type".to_string()
            }
            Self::OptionalIsNotAllowedInOptional => {
                "An optional may not contain an other optional".to_string()
            }
            Self::AlternationNotAllowedInOptional => {
                "An alternation can not be used inside an optional".to_string()
            }
            Self::AlternativeMayNotBeEmpty => "Alternative may not be empty".to_string(),
            Self::AlternativeMayNotExclusivelyContainOptionals => {
                "An alternative may not exclusively contain optionals".to_string()
            }
            Self::InvalidParameterTypeName => {
                "Parameter names may not contain '{', '}', '(', ')', '\\' or '/'".to_string()
            }
            Self::UnclosedParameter => "The '{' does not have a matching '}'".to_string(),
            Self::UnclosedOptional => "The '(' does not have a matching ')'".to_string(),
            Self::CannotEscape => {
                "Only the characters '{', '}', '(', ')', '\\', '/' and whitespace can be escaped"
                    .to_string()
            }
            Self::EndOfLineCannotBeEscaped => "The end of line can not be escaped".to_string(),
            Self::UndefinedParameterType { name } => format!("Undefined parameter type '{name}'"),
            Self::InvalidRegex { message } => {
                format!("The generated regular expression is invalid: {message}")
            }
        }
    }

    /// A line of advice shown under the problem (free wording, §20.2.4).
    pub fn hint(&self) -> String {
        match self {
            Self::OptionalMayNotBeEmpty
            | Self::OptionalIsNotAllowedInOptional
            | Self::AlternativeMayNotExclusivelyContainOptionals => {
                "To match a literal '(', write '\\('.".to_string()
            }
            Self::ParameterIsNotAllowedInOptional => {
                "To match a literal '{', write '\\{'; otherwise move the parameter out of the optional."
                    .to_string()
            }
            Self::AlternationNotAllowedInOptional | Self::AlternativeMayNotBeEmpty => {
                "To match a literal '/', write '\\/'.".to_string()
            }
            Self::InvalidParameterTypeName => {
                "A parameter is written {name}; escape the braces to match them literally."
                    .to_string()
            }
            Self::UnclosedParameter => {
                "Close the parameter with '}', or write '\\{' to match a literal '{'.".to_string()
            }
            Self::UnclosedOptional => {
                "Close the optional text with ')', or write '\\(' to match a literal '('."
                    .to_string()
            }
            Self::CannotEscape => "To match a literal '\\', write '\\\\'.".to_string(),
            Self::EndOfLineCannotBeEscaped => {
                "To match a literal '\\' at the end, write '\\\\'.".to_string()
            }
            Self::UndefinedParameterType { name } => match crate::likely_built_in(name) {
                Some(meant) => format!(
                    "Did you mean the built-in '{{{meant}}}'? Otherwise declare a parameter type \
                     named '{name}'."
                ),
                None => format!("Declare a parameter type named '{name}' or use a built-in one."),
            },
            Self::InvalidRegex { .. } => {
                "Simplify the custom parameter types this expression uses.".to_string()
            }
        }
    }
}

/// A malformed expression: the problem and the node it is about.
///
/// `Display` is the multi-line layout of spec 20 §20.2.4: a header naming the
/// column, the expression, a pointer line under the offending node, the
/// problem sentence and a hint.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExpressionError {
    /// The expression as written.
    pub expression: String,
    /// 1-based code-point column of the offending node's first code point.
    pub column: usize,
    /// 1-based code-point column of the node's last code point; equal to
    /// `column` for a one-code-point node and for an empty alternative.
    pub end_column: usize,
    /// What is wrong.
    pub kind: ExpressionErrorKind,
}

impl ExpressionError {
    /// An error about the node covering code points `[start, end)` (0-based).
    pub(crate) fn at(
        expression: &str,
        start: usize,
        end: usize,
        kind: ExpressionErrorKind,
    ) -> Self {
        ExpressionError {
            expression: expression.to_string(),
            column: start + 1,
            end_column: end.max(start + 1),
            kind,
        }
    }

    /// The problem sentence, without its final `.`.
    pub fn message(&self) -> String {
        self.kind.problem()
    }

    /// The pointer line: spaces up to the node, `^`, and for a longer node
    /// `-` up to a second `^` under its last code point.
    pub fn pointer(&self) -> String {
        let mut line = " ".repeat(self.column - 1);
        line.push('^');
        if self.end_column > self.column {
            line.push_str(&"-".repeat(self.end_column - self.column - 1));
            line.push('^');
        }
        line
    }
}

impl fmt::Display for ExpressionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "This Cucumber Expression has a problem at column {}:\n\n{}\n{}\n{}.\n{}",
            self.column,
            self.expression,
            self.pointer(),
            self.kind.problem(),
            self.kind.hint()
        )
    }
}

impl std::error::Error for ExpressionError {}
