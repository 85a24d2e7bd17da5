//! Matching an expression without building a regex (spec 20 §20.6 steps
//! 1–2, made cheap): an expression of literal text, optionals,
//! alternations and the built-in `{int}`, `{word}`, `{string}` and `{}`
//! parameters is matched by a small backtracker over its nodes.
//!
//! Building a `regex` for an expression is the dearest thing a run does
//! per process in an unoptimised build (`{word}` and `{string}` are
//! negated Unicode classes, compiled to large UTF-8 automata, twice per
//! step), and it is paid again by every `cargo nextest` process. This
//! matcher is the regex's semantics exactly: the generated pattern is a
//! concatenation whose quantifiers are greedy and whose alternatives are
//! tried in order, so its leftmost-first match is the first success of a
//! backtracking search that tries each piece's choices in that order
//! (what the `regex` crate documents its leftmost-first semantics to be).
//! Each parameter kind lists its choices longest first, as its greedy
//! pattern would try them. `tests/fast.rs` checks it against the regex.
//!
//! Backtracking can be slow on pathological text (a long run that a
//! parameter may end anywhere in), so every search has a budget; a search
//! that exhausts it returns `None` and the caller asks the regex, whose
//! time is linear.

use crate::ast::Node;
use crate::params::{
    ANONYMOUS_PATTERN, INT_PATTERN, ParameterTypes, STRING_PATTERN, Transform, WORD_PATTERN,
};

/// A built-in parameter the matcher knows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    /// `-?[0-9]+`.
    Int,
    /// One or more code points outside JavaScript's `\s`.
    Word,
    /// `"…"` or `'…'`, backslash escapes inside.
    Quoted,
    /// Anything up to a line break, maybe nothing.
    Anything,
}

/// One piece of the expression.
#[derive(Clone, Debug)]
enum Op {
    /// Literal text.
    Text(String),
    /// `(…)`: its pieces, or nothing (greedy: the pieces first).
    Optional(Vec<Op>),
    /// `a/b`: the alternatives in order.
    Alternation(Vec<Vec<Op>>),
    /// Parameter number `index` of kind `kind`.
    Param { index: usize, kind: Kind },
}

/// An expression ready for the backtracker.
#[derive(Clone, Debug)]
pub(crate) struct Program {
    ops: Vec<Op>,
    params: usize,
    /// The literal every match starts with, if any: where a match can
    /// start is found with a substring search, built on the first search
    /// (a run whose plans all come from its cache searches nothing).
    prefix: Option<Prefix>,
}

/// A program's leading text and its searcher, built when first needed.
#[derive(Clone, Debug)]
struct Prefix {
    text: String,
    finder: std::sync::OnceLock<memchr::memmem::Finder<'static>>,
}

impl Prefix {
    /// Where the text first occurs in `hay`.
    fn find(&self, hay: &[u8]) -> Option<usize> {
        self.finder
            .get_or_init(|| memchr::memmem::Finder::new(self.text.as_bytes()).into_owned())
            .find(hay)
    }
}

/// Where a parameter matched: the whole match and its inner span (the
/// first participating outermost group of the type's pattern, or the
/// whole match), byte offsets into the haystack.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Spans {
    pub whole: (usize, usize),
    pub inner: (usize, usize),
}

/// The most pieces an expression the backtracker takes may have.
const MAX_PIECES: usize = 256;

/// How many pieces `ops` has, nested ones included.
fn size(ops: &[Op]) -> usize {
    ops.iter()
        .map(|op| match op {
            Op::Optional(inner) => 1 + size(inner),
            Op::Alternation(alternatives) => {
                1 + alternatives.iter().map(|a| size(a)).sum::<usize>()
            }
            _ => 1,
        })
        .sum()
}

/// Steps a search may take before it gives up (then the regex decides).
const BUDGET: usize = 200_000;

impl Program {
    /// The program of `nodes`, or `None` when the expression uses a
    /// parameter the matcher does not know (a custom type, `{float}`,
    /// `{emph}`).
    pub(crate) fn of(nodes: &[Node], types: &ParameterTypes) -> Option<Program> {
        let mut params = 0;
        let ops = lower(nodes, types, &mut params)?;
        // The search recurses once per piece: a very long expression is
        // left to the regex rather than to the stack.
        if size(&ops) > MAX_PIECES {
            return None;
        }
        let prefix = match ops.first() {
            Some(Op::Text(text)) => Some(Prefix {
                text: text.clone(),
                finder: std::sync::OnceLock::new(),
            }),
            _ => None,
        };
        Some(Program {
            ops,
            params,
            prefix,
        })
    }

    /// The leftmost-first match in `hay` starting at `at` or later, with
    /// the parameters' spans; `Ok(None)` when there is none, `Err(())`
    /// when the budget ran out.
    #[allow(clippy::result_unit_err)]
    pub(crate) fn find_at(
        &self,
        hay: &str,
        at: usize,
    ) -> Result<Option<(usize, usize, Vec<Spans>)>, ()> {
        let mut search = Search {
            hay,
            spans: vec![Spans::default(); self.params],
            steps: 0,
        };
        let mut start = at;
        loop {
            if let Some(prefix) = &self.prefix {
                // (`str::find` set a searcher up at every call.) A match
                // of UTF-8 text starts on a character boundary.
                match prefix.find(&hay.as_bytes()[start..]) {
                    Some(offset) => start += offset,
                    None => return Ok(None),
                }
            }
            if let Some(end) = search.seq(&self.ops, &List::Nil, start)? {
                return Ok(Some((start, end, search.spans)));
            }
            start = match self.ops.first() {
                // A leading `{word}` or `{}` that fails from `start` fails
                // from every later start in the same run too (it can end
                // at fewer places, and what follows depends only on where
                // it ends): the next start is past the run and the
                // character that ends it.
                Some(Op::Param {
                    kind: kind @ (Kind::Word | Kind::Anything),
                    ..
                }) => {
                    let stop = stopper(*kind);
                    let end = start + run_len(&hay[start..], stop);
                    match hay[end..].chars().next() {
                        Some(c) => end + c.len_utf8(),
                        None => return Ok(None),
                    }
                }
                _ => match hay[start..].chars().next() {
                    Some(c) => start + c.len_utf8(),
                    None => return Ok(None),
                },
            };
        }
    }
}

/// The characters that end a run of `kind` (`{word}`, `{}`).
fn stopper(kind: Kind) -> fn(char) -> bool {
    match kind {
        Kind::Word => is_js_space,
        _ => is_line_break,
    }
}

/// The nodes as pieces; `None` at a parameter the matcher does not know.
fn lower(nodes: &[Node], types: &ParameterTypes, params: &mut usize) -> Option<Vec<Op>> {
    let mut ops: Vec<Op> = Vec::with_capacity(nodes.len());
    for node in nodes {
        let op = match node {
            Node::Text { text, .. } => {
                // Adjacent texts are one literal.
                if let Some(Op::Text(last)) = ops.last_mut() {
                    last.push_str(text);
                    continue;
                }
                Op::Text(text.clone())
            }
            Node::Optional { nodes, .. } => Op::Optional(lower(nodes, types, params)?),
            Node::Alternation { alternatives } => Op::Alternation(
                alternatives
                    .iter()
                    .map(|a| lower(&a.nodes, types, params))
                    .collect::<Option<_>>()?,
            ),
            Node::Parameter { name, .. } => {
                let ty = types.get(name)?;
                let kind = match (ty.transform(), ty.regex()) {
                    (Transform::Int, INT_PATTERN) => Kind::Int,
                    (Transform::Word, WORD_PATTERN) => Kind::Word,
                    (Transform::String, STRING_PATTERN) => Kind::Quoted,
                    (Transform::Anonymous, ANONYMOUS_PATTERN) => Kind::Anything,
                    _ => return None,
                };
                let index = *params;
                *params += 1;
                Op::Param { index, kind }
            }
        };
        ops.push(op);
    }
    Some(ops)
}

/// What follows the pieces being matched: the rest of each enclosing
/// sequence, innermost first.
enum List<'a> {
    Nil,
    Then(&'a [Op], &'a List<'a>),
}

struct Search<'h> {
    hay: &'h str,
    spans: Vec<Spans>,
    steps: usize,
}

impl Search<'_> {
    /// Match `ops`, then `next`, from `pos`: the end of the first success.
    fn seq(&mut self, ops: &[Op], next: &List<'_>, pos: usize) -> Result<Option<usize>, ()> {
        self.steps += 1;
        if self.steps > BUDGET {
            return Err(());
        }
        let Some((op, rest)) = ops.split_first() else {
            return match next {
                List::Nil => Ok(Some(pos)),
                List::Then(ops, next) => self.seq(ops, next, pos),
            };
        };
        match op {
            Op::Text(text) => {
                if self.hay[pos..].starts_with(text.as_str()) {
                    self.seq(rest, next, pos + text.len())
                } else {
                    Ok(None)
                }
            }
            Op::Optional(inner) => {
                let then = List::Then(rest, next);
                match self.seq(inner, &then, pos)? {
                    Some(end) => Ok(Some(end)),
                    None => self.seq(rest, next, pos),
                }
            }
            Op::Alternation(alternatives) => {
                let then = List::Then(rest, next);
                for alternative in alternatives {
                    if let Some(end) = self.seq(alternative, &then, pos)? {
                        return Ok(Some(end));
                    }
                }
                Ok(None)
            }
            Op::Param { index, kind } => self.param(*index, *kind, rest, next, pos),
        }
    }

    /// Try each choice of parameter `index` at `pos`, longest first.
    fn param(
        &mut self,
        index: usize,
        kind: Kind,
        rest: &[Op],
        next: &List<'_>,
        pos: usize,
    ) -> Result<Option<usize>, ()> {
        let tail = &self.hay[pos..];
        // What must follow the parameter, when it is text: a choice not
        // followed by it is not tried (no recursion for it).
        let follows = match rest.first() {
            Some(Op::Text(text)) => Some(text.as_str()),
            _ => None,
        };
        let hay = self.hay;
        let fits = |end: usize| follows.is_none_or(|t| hay[end..].starts_with(t));
        match kind {
            Kind::Int => {
                // `-?` is greedy: with the minus first; without it, the
                // digits would have to start at the minus, which they cannot.
                let sign = usize::from(tail.starts_with('-'));
                let digits = tail.as_bytes()[sign..]
                    .iter()
                    .take_while(|b| b.is_ascii_digit())
                    .count();
                for n in (1..=digits).rev() {
                    let end = pos + sign + n;
                    if !fits(end) {
                        continue;
                    }
                    if let Some(found) = self.then(index, (pos, end), (pos, end), rest, next)? {
                        return Ok(Some(found));
                    }
                }
                Ok(None)
            }
            Kind::Word | Kind::Anything => {
                let stop = stopper(kind);
                let min = usize::from(kind == Kind::Word);
                let run = run_len(tail, stop);
                // A shorter choice is followed by a character of the run:
                // text that starts with one that ends it can only follow
                // the whole run.
                let only_whole = follows.and_then(|t| t.chars().next()).is_some_and(stop);
                let mut n = run;
                loop {
                    if n < min {
                        return Ok(None);
                    }
                    let end = pos + n;
                    if fits(end)
                        && let Some(found) = self.then(index, (pos, end), (pos, end), rest, next)?
                    {
                        return Ok(Some(found));
                    }
                    if n == 0 || only_whole {
                        return Ok(None);
                    }
                    n -= 1;
                    while !tail.is_char_boundary(n) {
                        n -= 1;
                    }
                }
            }
            Kind::Quoted => {
                // Both alternatives match one way at most: up to the first
                // quote that no backslash escapes (see the module docs of
                // `closing_quote` for why no shorter choice can succeed).
                let Some(quote) = tail.chars().next().filter(|&c| c == '"' || c == '\'') else {
                    return Ok(None);
                };
                let Some(close) = closing_quote(&tail[1..], quote) else {
                    return Ok(None);
                };
                let inner = (pos + 1, pos + 1 + close);
                let whole = (pos, inner.1 + 1);
                self.then(index, whole, inner, rest, next)
            }
        }
    }

    /// Record parameter `index`'s choice and match what follows it.
    fn then(
        &mut self,
        index: usize,
        whole: (usize, usize),
        inner: (usize, usize),
        rest: &[Op],
        next: &List<'_>,
    ) -> Result<Option<usize>, ()> {
        if let Some(spans) = self.spans.get_mut(index) {
            *spans = Spans { whole, inner };
        }
        self.seq(rest, next, whole.1)
    }
}

/// The byte length of the longest prefix of `text` with no character
/// `stop` accepts.
fn run_len(text: &str, stop: fn(char) -> bool) -> usize {
    // A byte loop: every character `stop` accepts is a control character,
    // a space or beyond ASCII, so the other ASCII bytes (most of a
    // sentence) are passed over without a call, which an unoptimised
    // build would make for each (as it would for a `char_indices` chain).
    let bytes = text.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        if b > b' ' && b < 0x80 {
            i += 1;
            continue;
        }
        let Some(c) = text[i..].chars().next() else {
            break;
        };
        if stop(c) {
            return i;
        }
        i += c.len_utf8();
    }
    text.len()
}

/// Where the content after an opening `quote` ends: the byte offset of
/// the first `quote` no backslash escapes, or `None` (no such quote, or a
/// backslash before a line break or at the end, which the pattern's
/// `\\[^\n\r\u2028\u2029]` cannot match).
fn closing_quote(content: &str, quote: char) -> Option<usize> {
    let mut chars = content.char_indices();
    while let Some((i, c)) = chars.next() {
        if c == quote {
            return Some(i);
        }
        if c == '\\' {
            match chars.next() {
                Some((_, escaped)) if !is_line_break(escaped) => {}
                _ => return None,
            }
        }
    }
    None
}

/// JavaScript's `\s`, the characters `{word}` excludes.
fn is_js_space(c: char) -> bool {
    matches!(
        c,
        '\t' | '\n' | '\u{0B}' | '\u{0C}' | '\r' | ' ' | '\u{A0}' | '\u{1680}' | '\u{2000}'
            ..='\u{200A}'
                | '\u{2028}'
                | '\u{2029}'
                | '\u{202F}'
                | '\u{205F}'
                | '\u{3000}'
                | '\u{FEFF}'
    )
}

/// JavaScript's line terminators, which `.` does not match.
fn is_line_break(c: char) -> bool {
    matches!(c, '\n' | '\r' | '\u{2028}' | '\u{2029}')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn runs_end_where_a_char_by_char_search_ends_them() {
        for text in [
            "",
            "word",
            "two words",
            "tab\there",
            "line\nbreak",
            "é then\u{a0}nbsp",
            "a\u{2028}b\u{3000}c",
            "\u{7f}del\r\n",
            " lead",
        ] {
            for stop in [is_js_space as fn(char) -> bool, is_line_break] {
                let want = text
                    .char_indices()
                    .find(|&(_, c)| stop(c))
                    .map_or(text.len(), |(i, _)| i);
                assert_eq!(run_len(text, stop), want, "{text:?}");
            }
        }
    }

    #[test]
    fn the_leading_texts_searcher_is_built_by_the_first_search() {
        let source = "I deposit {int}";
        let tokens = crate::tokens::tokenize(source).unwrap_or_else(|e| panic!("{e:?}"));
        let nodes = crate::ast::parse(source, &tokens).unwrap_or_else(|e| panic!("{e:?}"));
        let program = Program::of(&nodes, &ParameterTypes::new())
            .unwrap_or_else(|| panic!("the backtracker takes it"));
        let built = |p: &Program| p.prefix.as_ref().map(|p| p.finder.get().is_some());
        assert_eq!(built(&program), Some(false), "compiled, not searched");
        assert_eq!(
            program
                .find_at("so I deposit 5", 0)
                .map(|m| m.map(|(s, e, _)| (s, e))),
            Ok(Some((3, 14)))
        );
        assert_eq!(built(&program), Some(true));
    }
}
