//! Parser of Cucumber Expressions (spec 20 §20.2.2) and the checks and
//! regex rewrite of §20.2.3–§20.2.4.
//!
//! The grammar is recursive descent over the tokens of [`super::tokens`]:
//!
//! ```text
//! expression  := (alternation | optional | parameter | text)*
//! alternation := (after start, a space or '}') alternative ('/' alternative)+,
//!                a run that stops before a space, '{' or the end
//! alternative := (optional | parameter | text)*
//! optional    := '(' (optional | parameter | text)* ')'
//! parameter   := '{' (text | space)* '}'
//! text        := text | space | ')' | '}'
//! ```
//!
//! Errors are raised in the same order as the reference: syntax errors while
//! parsing, left to right; then the structural rules and the parameter type
//! lookups in one depth-first walk.

use std::cell::Cell;

use super::error::{ExpressionError, ExpressionErrorKind};
use super::tokens::{Token, TokenKind};

/// A node of the syntax tree, with its code-point range in the expression.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Node {
    /// Literal text (escapes already removed).
    Text {
        text: String,
        start: usize,
        end: usize,
    },
    /// `(…)`.
    Optional {
        nodes: Vec<Node>,
        start: usize,
        end: usize,
    },
    /// `{name}`.
    Parameter {
        name: String,
        start: usize,
        end: usize,
    },
    /// `a/b/c`, one word.
    Alternation { alternatives: Vec<Alternative> },
}

/// One branch of an alternation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Alternative {
    pub(crate) nodes: Vec<Node>,
    pub(crate) start: usize,
    pub(crate) end: usize,
}

/// Where the parser is, which decides the sub-parsers that apply.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Context {
    Expression,
    Alternative,
    Optional,
    Name,
}

/// What one parse step produced.
enum Part {
    Node(Node),
    /// A `/` inside an alternation run.
    Separator {
        start: usize,
        end: usize,
    },
}

/// How deeply optionals may nest before parsing stops. Only one level is
/// valid at all (a nested optional is always an error), so the limit only
/// keeps a pathological expression from exhausting the stack; beyond it the
/// error is reported at the too-deep `(` instead of where the reference would.
const MAX_NESTING: usize = 64;

struct Parser<'a> {
    expression: &'a str,
    tokens: &'a [Token],
    /// Optionals currently open.
    depth: Cell<usize>,
}

/// Parse a token list (from [`super::tokens::tokenize`]) into top-level nodes.
pub(crate) fn parse(expression: &str, tokens: &[Token]) -> Result<Vec<Node>, ExpressionError> {
    let parser = Parser {
        expression,
        tokens,
        depth: Cell::new(0),
    };
    // Token 0 is the start-of-line sentinel.
    let (parts, _) = parser.parse_until(Context::Expression, 1, &[TokenKind::EndOfLine])?;
    Ok(parts
        .into_iter()
        .filter_map(|part| match part {
            Part::Node(node) => Some(node),
            Part::Separator { .. } => None,
        })
        .collect())
}

impl Parser<'_> {
    fn kind_at(&self, at: usize) -> TokenKind {
        self.tokens
            .get(at)
            .map_or(TokenKind::EndOfLine, |token| token.kind)
    }

    fn error(&self, token: &Token, kind: ExpressionErrorKind) -> ExpressionError {
        ExpressionError::at(self.expression, token.start, token.end, kind)
    }

    /// Parse from `start` up to (not including) a token of one of `ends`;
    /// returns the parts and the number of tokens consumed.
    fn parse_until(
        &self,
        context: Context,
        start: usize,
        ends: &[TokenKind],
    ) -> Result<(Vec<Part>, usize), ExpressionError> {
        let mut current = start;
        let mut parts = Vec::new();
        while current < self.tokens.len() && !ends.contains(&self.kind_at(current)) {
            let (part, consumed) = self.parse_one(context, current)?;
            parts.push(part);
            current += consumed;
        }
        Ok((parts, current - start))
    }

    fn parse_one(
        &self,
        context: Context,
        current: usize,
    ) -> Result<(Part, usize), ExpressionError> {
        if context == Context::Name {
            return self.parse_name(current);
        }
        if context == Context::Expression
            && let Some(found) = self.parse_alternation(current)?
        {
            return Ok(found);
        }
        let token = &self.tokens[current];
        match token.kind {
            TokenKind::Alternation if context == Context::Alternative => Ok((
                Part::Separator {
                    start: token.start,
                    end: token.end,
                },
                1,
            )),
            TokenKind::BeginOptional => self.parse_between(current, TokenKind::EndOptional),
            TokenKind::BeginParameter => self.parse_between(current, TokenKind::EndParameter),
            TokenKind::Alternation => {
                Err(self.error(token, ExpressionErrorKind::AlternationNotAllowedInOptional))
            }
            // Text, spaces and unmatched closers are literal text. The
            // sentinels cannot get here (the end is always a stop token and
            // the start is never parsed), so treating them as empty text
            // keeps the loop total without a panic.
            _ => Ok((Part::Node(text_node(token)), 1)),
        }
    }

    fn parse_name(&self, current: usize) -> Result<(Part, usize), ExpressionError> {
        let token = &self.tokens[current];
        match token.kind {
            TokenKind::Text | TokenKind::WhiteSpace => Ok((Part::Node(text_node(token)), 1)),
            TokenKind::StartOfLine | TokenKind::EndOfLine => Ok((Part::Node(text_node(token)), 1)),
            _ => Err(self.error(token, ExpressionErrorKind::InvalidParameterTypeName)),
        }
    }

    /// `(…)` or `{…}` starting at `current`.
    fn parse_between(
        &self,
        current: usize,
        end: TokenKind,
    ) -> Result<(Part, usize), ExpressionError> {
        let begin = &self.tokens[current];
        let (context, unclosed) = if end == TokenKind::EndOptional {
            (Context::Optional, ExpressionErrorKind::UnclosedOptional)
        } else {
            (Context::Name, ExpressionErrorKind::UnclosedParameter)
        };
        let nesting = self.depth.get();
        if context == Context::Optional {
            if nesting >= MAX_NESTING {
                return Err(self.error(begin, ExpressionErrorKind::OptionalIsNotAllowedInOptional));
            }
            self.depth.set(nesting + 1);
        }
        let parsed = self.parse_until(context, current + 1, &[end, TokenKind::EndOfLine]);
        self.depth.set(nesting);
        let (parts, consumed) = parsed?;
        let close = current + 1 + consumed;
        let Some(closing) = self.tokens.get(close).filter(|t| t.kind == end) else {
            return Err(self.error(begin, unclosed));
        };
        let nodes: Vec<Node> = parts
            .into_iter()
            .filter_map(|part| match part {
                Part::Node(node) => Some(node),
                Part::Separator { .. } => None,
            })
            .collect();
        let (start, stop) = (begin.start, closing.end);
        let node = if end == TokenKind::EndOptional {
            Node::Optional {
                nodes,
                start,
                end: stop,
            }
        } else {
            let name = nodes
                .iter()
                .map(|node| match node {
                    Node::Text { text, .. } => text.as_str(),
                    _ => "",
                })
                .collect();
            Node::Parameter {
                name,
                start,
                end: stop,
            }
        };
        Ok((Part::Node(node), close + 1 - current))
    }

    /// An alternation starting at `current`, if one is recognised there.
    fn parse_alternation(&self, current: usize) -> Result<Option<(Part, usize)>, ExpressionError> {
        let previous = current.checked_sub(1).map(|p| self.kind_at(p));
        if !matches!(
            previous,
            None | Some(TokenKind::StartOfLine | TokenKind::WhiteSpace | TokenKind::EndParameter)
        ) {
            return Ok(None);
        }
        let (parts, consumed) = self.parse_until(
            Context::Alternative,
            current,
            &[
                TokenKind::WhiteSpace,
                TokenKind::EndOfLine,
                TokenKind::BeginParameter,
            ],
        )?;
        if !parts.iter().any(|p| matches!(p, Part::Separator { .. })) {
            return Ok(None);
        }
        let start = self.tokens[current].start;
        let end = self
            .tokens
            .get(current + consumed)
            .map_or(start, |token| token.start);
        let mut alternatives = Vec::new();
        let mut nodes = Vec::new();
        let mut left = start;
        for part in parts {
            match part {
                Part::Node(node) => nodes.push(node),
                Part::Separator {
                    start: sep_start,
                    end: sep_end,
                } => {
                    alternatives.push(Alternative {
                        nodes: std::mem::take(&mut nodes),
                        start: left,
                        end: sep_start,
                    });
                    left = sep_end;
                }
            }
        }
        alternatives.push(Alternative {
            nodes,
            start: left,
            end,
        });
        Ok(Some((
            Part::Node(Node::Alternation { alternatives }),
            consumed,
        )))
    }
}

fn text_node(token: &Token) -> Node {
    Node::Text {
        text: token.text.clone(),
        start: token.start,
        end: token.end,
    }
}

/// The parameter type names in source order (spec 20 §20.2.5).
pub(crate) fn parameter_names(nodes: &[Node]) -> Vec<&str> {
    let mut names = Vec::new();
    collect_names(nodes, &mut names);
    names
}

fn collect_names<'a>(nodes: &'a [Node], names: &mut Vec<&'a str>) {
    for node in nodes {
        match node {
            Node::Parameter { name, .. } => names.push(name),
            Node::Optional { nodes, .. } => collect_names(nodes, names),
            Node::Alternation { alternatives } => {
                for alternative in alternatives {
                    collect_names(&alternative.nodes, names);
                }
            }
            Node::Text { .. } => {}
        }
    }
}

/// Resolves a parameter node to its regex fragment (the whole capturing
/// group), or fails (undefined type).
pub(crate) type ResolveParameter<'r> =
    dyn FnMut(&str, usize, usize) -> Result<String, ExpressionError> + 'r;

/// Check the structural rules of §20.2.4 and build the regex body of
/// §20.2.3 (without `^`/`$`), in the reference's depth-first order.
pub(crate) fn rewrite(
    expression: &str,
    nodes: &[Node],
    resolve: &mut ResolveParameter<'_>,
) -> Result<String, ExpressionError> {
    let mut out = String::new();
    for node in nodes {
        rewrite_node(expression, node, resolve, &mut out)?;
    }
    Ok(out)
}

fn rewrite_node(
    expression: &str,
    node: &Node,
    resolve: &mut ResolveParameter<'_>,
    out: &mut String,
) -> Result<(), ExpressionError> {
    match node {
        Node::Text { text, .. } => out.push_str(&regex_syntax::escape(text)),
        Node::Parameter { name, start, end } => out.push_str(&resolve(name, *start, *end)?),
        Node::Optional { nodes, start, end } => {
            let error = |s: usize, e: usize, kind| ExpressionError::at(expression, s, e, kind);
            if let Some(Node::Parameter { start, end, .. }) =
                nodes.iter().find(|n| matches!(n, Node::Parameter { .. }))
            {
                return Err(error(
                    *start,
                    *end,
                    ExpressionErrorKind::ParameterIsNotAllowedInOptional,
                ));
            }
            if let Some(Node::Optional { start, end, .. }) =
                nodes.iter().find(|n| matches!(n, Node::Optional { .. }))
            {
                return Err(error(
                    *start,
                    *end,
                    ExpressionErrorKind::OptionalIsNotAllowedInOptional,
                ));
            }
            if !nodes.iter().any(|n| matches!(n, Node::Text { .. })) {
                return Err(error(
                    *start,
                    *end,
                    ExpressionErrorKind::OptionalMayNotBeEmpty,
                ));
            }
            out.push_str("(?:");
            for inner in nodes {
                rewrite_node(expression, inner, resolve, out)?;
            }
            out.push_str(")?");
        }
        Node::Alternation { alternatives } => {
            for alternative in alternatives {
                let kind = if alternative.nodes.is_empty() {
                    ExpressionErrorKind::AlternativeMayNotBeEmpty
                } else if !alternative
                    .nodes
                    .iter()
                    .any(|n| matches!(n, Node::Text { .. }))
                {
                    ExpressionErrorKind::AlternativeMayNotExclusivelyContainOptionals
                } else {
                    continue;
                };
                return Err(ExpressionError::at(
                    expression,
                    alternative.start,
                    alternative.end,
                    kind,
                ));
            }
            out.push_str("(?:");
            for (i, alternative) in alternatives.iter().enumerate() {
                if i > 0 {
                    out.push('|');
                }
                for inner in &alternative.nodes {
                    rewrite_node(expression, inner, resolve, out)?;
                }
            }
            out.push(')');
        }
    }
    Ok(())
}
