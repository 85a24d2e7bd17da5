//! Compiling an expression against parameter types (spec 20 §20.2.3) and
//! scanning a sentence for hits (§20.6 steps 1–2).

use std::sync::{Arc, OnceLock};

use regex::{Captures, Regex};

use super::ast::{self, Node};
use super::error::{ExpressionError, ExpressionErrorKind};
use super::expression::Expression;
use super::fast::{Program, Spans};
use super::params::{ParameterTypes, Transform, regex_error_message};
use super::tokens;
use super::value::ArgValue;

/// One parameter of a compiled expression: its type and where its groups sit
/// in the generated regex.
#[derive(Clone, Debug)]
struct CompiledParam {
    /// Shared with every hit's [`ParamHit::type_name`].
    type_name: Arc<str>,
    transform: Transform,
    /// Index of the parameter's own capturing group.
    group: usize,
    /// Absolute indices of the type pattern's outermost capture groups.
    outermost: Vec<usize>,
}

/// An expression compiled to a regex, ready to scan sentences.
///
/// An expression of text and the built-in `{int}`, `{word}`, `{string}`
/// and `{}` is matched without a regex (`fast.rs`); its regex is built only
/// if a search needs it (one that exceeds the matcher's budget), so a
/// process that never does builds none.
#[derive(Clone, Debug)]
pub struct CompiledExpression {
    source: String,
    regex_source: String,
    /// The unanchored pattern (`regex_source` without `^…$`).
    body: String,
    regexes: OnceLock<Option<Regexes>>,
    fast: Option<Program>,
    params: Vec<CompiledParam>,
    /// Every run of top-level text, distinct, in expression order.
    required: Vec<String>,
}

/// The two regexes of an expression: the scan and the anchored re-match.
#[derive(Clone, Debug)]
struct Regexes {
    scan: Regex,
    anchored: Regex,
}

/// One match of an expression in a sentence (§20.6 step 1), with its
/// arguments (step 2). Offsets are byte offsets into the sentence.
#[derive(Clone, Debug, PartialEq)]
pub struct Hit {
    /// Start of the match.
    pub start: usize,
    /// End of the match (exclusive).
    pub end: usize,
    /// One entry per parameter, in order; `None` when the anchored re-match
    /// of the matched text fails (the step then has no args).
    pub params: Option<Vec<ParamHit>>,
}

/// One parameter of a hit. Offsets are byte offsets into the sentence.
#[derive(Clone, Debug, PartialEq)]
pub struct ParamHit {
    /// Start of the parameter's whole match (its param span).
    pub start: usize,
    /// End of the parameter's whole match.
    pub end: usize,
    /// Start of the inner span: the first participating outermost group of
    /// the type's pattern, or the whole match when there is none.
    pub inner_start: usize,
    /// End of the inner span.
    pub inner_end: usize,
    /// The parameter type's name (`""` for `{}`), shared by every hit of
    /// the expression.
    pub type_name: Arc<str>,
    /// The transformed value (§20.3/§20.4).
    pub value: ArgValue,
}

impl CompiledExpression {
    /// Compile a parsed expression: look up its parameter types and build the
    /// regex. Fails with `Undefined parameter type '<name>'` (or, in theory,
    /// when the `regex` crate refuses the generated pattern).
    pub fn compile(
        expr: &Expression,
        types: &ParameterTypes,
    ) -> Result<CompiledExpression, ExpressionError> {
        build(expr.source(), expr.nodes(), types)
    }

    /// Parse and compile in one pass, reporting the first problem in the
    /// reference's order: syntax errors, then structural rules and unknown
    /// types in one depth-first walk (so `{nope} ()` names `nope`, where
    /// [`Expression::parse`] alone reports the empty optional).
    pub fn from_source(
        source: &str,
        types: &ParameterTypes,
    ) -> Result<CompiledExpression, ExpressionError> {
        let tokens = tokens::tokenize(source)?;
        let nodes = ast::parse(source, &tokens)?;
        build(source, &nodes, types)
    }

    /// The expression as written.
    pub fn source(&self) -> &str {
        &self.source
    }

    /// The generated regex, anchored with `^…$` (§20.2.3).
    pub fn regex_source(&self) -> &str {
        &self.regex_source
    }

    /// The longest literal text every match contains: the longest text of
    /// the expression outside parameters, optionals and alternations (a
    /// sentence without it cannot match). `None` when there is none.
    pub fn required_literal(&self) -> Option<&str> {
        let mut best: Option<&str> = None;
        for run in &self.required {
            if best.is_none_or(|b| run.len() > b.len()) {
                best = Some(run);
            }
        }
        best
    }

    /// Every literal text every match contains: each run of the
    /// expression's text outside parameters, optionals and alternations
    /// (a sentence lacking any of them cannot match), distinct, in order.
    pub fn required_literals(&self) -> &[String] {
        &self.required
    }

    /// The parameter type names, in order (§20.2.5).
    pub fn parameter_type_names(&self) -> Vec<&str> {
        self.params.iter().map(|p| &*p.type_name).collect()
    }

    /// Every hit of the expression in `sentence` (§20.6 steps 1–2), in text
    /// order, with JavaScript global-`exec` semantics: the search resumes at
    /// the end of each match, or one code point later after an empty match,
    /// so an empty match right where the previous one ended is kept (which
    /// `find_iter` would suppress).
    pub fn scan(&self, sentence: &str) -> Vec<Hit> {
        if let Some(program) = &self.fast
            && let Ok(hits) = self.scan_fast(program, sentence)
        {
            return hits;
        }
        self.scan_by_regex(sentence)
    }

    /// The hits by the regexes alone, whatever the expression (the path of
    /// expressions the backtracker does not know, and what it is checked
    /// against).
    pub(crate) fn scan_by_regex(&self, sentence: &str) -> Vec<Hit> {
        let Some(regexes) = self.regexes() else {
            return Vec::new();
        };
        let mut hits = Vec::new();
        let mut at = 0;
        while at <= sentence.len() {
            let Some(found) = regexes.scan.find_at(sentence, at) else {
                break;
            };
            let (start, end) = (found.start(), found.end());
            hits.push(Hit {
                start,
                end,
                params: self.arguments(regexes, sentence, start, end),
            });
            at = next_search(sentence, start, end);
        }
        hits
    }

    /// Whether the backtracker matches this expression.
    #[cfg(test)]
    pub(crate) fn has_fast_path(&self) -> bool {
        self.fast.is_some()
    }

    /// The hits by the backtracker: the parameters come from the match
    /// itself, which is also the anchored re-match's (the first success of
    /// the same search is the first that ends where it ends). `Err` when a
    /// search ran out of budget.
    fn scan_fast(&self, program: &Program, sentence: &str) -> Result<Vec<Hit>, ()> {
        let mut hits = Vec::new();
        let mut at = 0;
        while at <= sentence.len() {
            let Some((start, end, spans)) = program.find_at(sentence, at)? else {
                break;
            };
            let params = self
                .params
                .iter()
                .zip(&spans)
                .map(|(param, spans)| fast_param_hit(param, sentence, spans))
                .collect();
            hits.push(Hit {
                start,
                end,
                params: Some(params),
            });
            at = next_search(sentence, start, end);
        }
        Ok(hits)
    }

    /// The regexes, built on first use when the backtracker matches the
    /// expression; `None` if the regex crate refused them (it cannot for
    /// the patterns the backtracker knows: checked when they are built).
    fn regexes(&self) -> Option<&Regexes> {
        self.regexes
            .get_or_init(|| compile_regexes(&self.body, &self.regex_source).ok())
            .as_ref()
    }

    /// §20.6 step 2: match the anchored regex against exactly the matched
    /// text and read each parameter from its groups.
    fn arguments(
        &self,
        regexes: &Regexes,
        sentence: &str,
        start: usize,
        end: usize,
    ) -> Option<Vec<ParamHit>> {
        let caps = regexes.anchored.captures(&sentence[start..end])?;
        self.params
            .iter()
            .map(|param| param_hit(param, &caps, start))
            .collect()
    }
}

/// Where the search resumes after a match: its end, or one code point
/// later after an empty match (JavaScript's global `exec`).
fn next_search(sentence: &str, start: usize, end: usize) -> usize {
    if start == end {
        end + sentence[end..].chars().next().map_or(1, char::len_utf8)
    } else {
        end
    }
}

/// A parameter of a backtracker's match, as [`param_hit`] reads it from
/// the regex's groups.
fn fast_param_hit(param: &CompiledParam, sentence: &str, spans: &Spans) -> ParamHit {
    let whole = &sentence[spans.whole.0..spans.whole.1];
    let inner = &sentence[spans.inner.0..spans.inner.1];
    let value = match param.transform {
        Transform::Int => ArgValue::Int(whole.to_string()),
        Transform::String => ArgValue::Text(unescape_quotes(inner)),
        // The backtracker knows `{word}` and `{}` otherwise.
        _ => ArgValue::Text(whole.to_string()),
    };
    ParamHit {
        start: spans.whole.0,
        end: spans.whole.1,
        inner_start: spans.inner.0,
        inner_end: spans.inner.1,
        type_name: param.type_name.clone(),
        value,
    }
}

/// The scan and the anchored regex, or why the regex crate refused them.
fn compile_regexes(body: &str, anchored: &str) -> Result<Regexes, String> {
    let scan = Regex::new(body).map_err(|e| regex_error_message(&e))?;
    let anchored = Regex::new(anchored).map_err(|e| regex_error_message(&e))?;
    Ok(Regexes { scan, anchored })
}

fn param_hit(param: &CompiledParam, caps: &Captures<'_>, offset: usize) -> Option<ParamHit> {
    let whole = caps.get(param.group)?;
    let groups: Vec<Option<regex::Match<'_>>> =
        param.outermost.iter().map(|&i| caps.get(i)).collect();
    let first = groups.iter().flatten().next().copied();
    let inner = first.unwrap_or(whole);
    let text = whole.as_str();
    let value = match param.transform {
        Transform::Int => ArgValue::Int(text.to_string()),
        Transform::Float => ArgValue::Float(text.to_string()),
        Transform::BigDecimal | Transform::Word | Transform::Anonymous => {
            ArgValue::Text(text.to_string())
        }
        Transform::String => ArgValue::Text(unescape_quotes(first.map_or("", |m| m.as_str()))),
        Transform::Emph => ArgValue::Text(first.map_or("", |m| m.as_str()).to_string()),
        Transform::Custom => ArgValue::Custom {
            name: param.type_name.to_string(),
            groups: if groups.is_empty() {
                vec![Some(text.to_string())]
            } else {
                groups
                    .iter()
                    .map(|g| g.map(|m| m.as_str().to_string()))
                    .collect()
            },
        },
    };
    Some(ParamHit {
        start: offset + whole.start(),
        end: offset + whole.end(),
        inner_start: offset + inner.start(),
        inner_end: offset + inner.end(),
        type_name: param.type_name.clone(),
        value,
    })
}

/// `{string}`'s transform: every `\"` becomes `"` and every `\'` becomes
/// `'`; every other backslash is kept (§20.3).
fn unescape_quotes(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match (c, chars.peek()) {
            ('\\', Some(&quote)) if quote == '"' || quote == '\'' => {
                out.push(quote);
                chars.next();
            }
            _ => out.push(c),
        }
    }
    out
}

/// Every run of adjacent top-level text nodes, distinct, in order:
/// top-level text is matched literally (`regex::escape`, no flags), so
/// every match holds each of them.
fn required_literals(nodes: &[Node]) -> Vec<String> {
    let mut runs: Vec<String> = Vec::new();
    let mut run = String::new();
    let close = |run: &mut String, runs: &mut Vec<String>| {
        if !run.is_empty() && !runs.contains(run) {
            runs.push(std::mem::take(run));
        }
        run.clear();
    };
    for node in nodes {
        match node {
            Node::Text { text, .. } => run.push_str(text),
            _ => close(&mut run, &mut runs),
        }
    }
    close(&mut run, &mut runs);
    runs
}

fn build(
    source: &str,
    nodes: &[Node],
    types: &ParameterTypes,
) -> Result<CompiledExpression, ExpressionError> {
    let mut params = Vec::new();
    // Group 0 is the whole match; each parameter's group comes next, then
    // the groups of its own pattern.
    let mut next_group = 1;
    let body = ast::rewrite(source, nodes, &mut |name, start, end| {
        let Some(ty) = types.get(name) else {
            return Err(ExpressionError::at(
                source,
                start,
                end,
                ExpressionErrorKind::UndefinedParameterType {
                    name: name.to_string(),
                },
            ));
        };
        params.push(CompiledParam {
            type_name: Arc::from(name),
            transform: ty.transform(),
            group: next_group,
            outermost: ty.outermost().iter().map(|i| next_group + i).collect(),
        });
        next_group += 1 + ty.captures();
        Ok(format!("({})", ty.regex()))
    })?;
    let regex_source = format!("^{body}$");
    let invalid = |message: String| {
        ExpressionError::at(
            source,
            0,
            source.chars().count(),
            ExpressionErrorKind::InvalidRegex { message },
        )
    };
    let required = required_literals(nodes);
    let fast = Program::of(nodes, types);
    let regexes = OnceLock::new();
    // The patterns the backtracker knows are constants the regex crate
    // accepts (the tests build them); anything else is checked now.
    if fast.is_none() {
        let built = compile_regexes(&body, &regex_source).map_err(invalid)?;
        if built.anchored.captures_len() != next_group {
            return Err(invalid(format!(
                "expected {} capture groups, found {}",
                next_group,
                built.anchored.captures_len()
            )));
        }
        let _ = regexes.set(Some(built));
    }
    Ok(CompiledExpression {
        source: source.to_string(),
        regex_source,
        body,
        regexes,
        fast,
        params,
        required,
    })
}
