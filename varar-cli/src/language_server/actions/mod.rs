//! "Create the step" (pure): for a sentence no step matches, a step
//! function to append to each step file of the package.
//!
//! The expression is the sentence without its final `.`, `!` or `?`, with
//! values turned into parameters: a value a custom parameter type's regex
//! matches becomes that type (`£2.50` → `{money}`), quoted text
//! `{string}`, emphasis `{emph}`, a number `{float}` or `{int}`; the rest
//! is literal, escaped for the expression grammar. The expression is
//! checked against the registry's types and must match the sentence;
//! otherwise the sentence is used literally.
//!
//! The role is the reference's guess (spec 20 §20.12): the last sentence
//! of a paragraph of several is a sensor, any other a stimulus. The
//! function takes the state type the other steps of the chosen file use
//! most (`&mut S` for a stimulus, `&S` for a sensor), one argument per
//! parameter, returns what a sensor's slots need, and fails with "not
//! written yet" until it is written.

use std::collections::BTreeMap;
use std::path::PathBuf;

use regex::Regex;
use varar_core::expression::CompiledExpression;
use varar_core::registry::Role;

use super::analysis::Analysis;
use super::step_index::{StepFile, StepIndex};

/// A step function to insert into a file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NewStep {
    /// The action's title.
    pub title: String,
    /// The file.
    pub path: PathBuf,
    /// Where to insert (0-based line, UTF-16 column): the end of the file.
    pub at: (u32, u32),
    /// The text to insert.
    pub text: String,
}

/// One parameter found in the sentence.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Found {
    start: usize,
    end: usize,
    /// The parameter type name.
    name: String,
    /// The Rust type its argument takes.
    rust_type: String,
}

/// The actions for the sentence under `offset`, one per step file; none
/// when a step matches it.
pub fn create_step(analysis: &Analysis, index: &StepIndex, offset: u32) -> Vec<NewStep> {
    let Some(sentence) = analysis.sentence_at(offset).filter(|s| !s.matched) else {
        return Vec::new();
    };
    let text = sentence
        .text
        .strip_suffix(['.', '!', '?'])
        .unwrap_or(&sentence.text);
    if text.trim().is_empty() {
        return Vec::new();
    }
    let (expression, params) = infer_expression(text, index);
    let role = if sentence.last_of_several {
        Role::Sensor
    } else {
        Role::Stimulus
    };
    index
        .files()
        .filter(|f| !f.items.steps.is_empty())
        .map(|file| new_step(file, role, &expression, &params))
        .collect()
}

/// The expression for a sentence and the parameters it has.
fn infer_expression(text: &str, index: &StepIndex) -> (String, Vec<Found>) {
    let mut found: Vec<Found> = Vec::new();
    let mut add = |start: usize, end: usize, name: &str, rust_type: &str| {
        if end > start && !found.iter().any(|f| start < f.end && f.start < end) {
            found.push(Found {
                start,
                end,
                name: name.to_string(),
                rust_type: rust_type.to_string(),
            });
        }
    };
    for p in index.parameters() {
        let Ok(re) = Regex::new(&p.regex) else {
            continue;
        };
        for m in re.find_iter(text) {
            add(
                m.start(),
                m.end(),
                &p.name,
                p.value_type.as_deref().unwrap_or("String"),
            );
        }
    }
    for (pattern, name, rust_type) in PATTERNS {
        let Ok(re) = Regex::new(pattern) else {
            continue;
        };
        for m in re.find_iter(text) {
            let name = match name {
                "number" if m.as_str().contains('.') => "float",
                "number" => "int",
                other => other,
            };
            let rust_type = match (rust_type, name) {
                ("", "float") => "f64",
                ("", _) => "i64",
                (t, _) => t,
            };
            add(m.start(), m.end(), name, rust_type);
        }
    }
    found.sort_by_key(|f| f.start);
    let expression = render(text, &found);
    let checks = CompiledExpression::from_source(&expression, index.registry().types())
        .is_ok_and(|e| !e.scan(text).is_empty());
    if checks {
        (expression, found)
    } else {
        (render(text, &[]), Vec::new())
    }
}

/// Values that become built-in parameters, in order of precedence.
const PATTERNS: [(&str, &str, &str); 3] = [
    (r#""(?:[^"\\]|\\.)*""#, "string", "String"),
    (
        r"(?:^|\b|\s)(?:\*\*[^*\s][^*]*\*\*|\*[^*\s][^*]*\*|__[^_\s][^_]*__|_[^_\s][^_]*_)",
        "emph",
        "String",
    ),
    (r"-?\b[0-9]+(?:\.[0-9]+)?\b", "number", ""),
];

/// The expression: literal text escaped, values as `{name}`.
fn render(text: &str, found: &[Found]) -> String {
    let mut out = String::new();
    let mut cursor = 0;
    for f in found {
        // The emphasis pattern may take the space before it.
        let start = f.start + text[f.start..f.end].len() - text[f.start..f.end].trim_start().len();
        escape_into(&mut out, &text[cursor..start]);
        out.push('{');
        out.push_str(&f.name);
        out.push('}');
        cursor = f.end;
    }
    escape_into(&mut out, &text[cursor..]);
    out
}

fn escape_into(out: &mut String, literal: &str) {
    for c in literal.chars() {
        if matches!(c, '\\' | '{' | '}' | '(' | ')' | '/') {
            out.push('\\');
        }
        out.push(c);
    }
}

fn new_step(file: &StepFile, role: Role, expression: &str, params: &[Found]) -> NewStep {
    let (attr, by) = match role {
        Role::Stimulus => ("stimulus", "&mut "),
        Role::Sensor => ("sensor", "&"),
    };
    let mut taken: Vec<String> = Vec::new();
    let mut args = Vec::new();
    if let Some(state) = common_state(file) {
        let name = unique(&snake(&state), &mut taken);
        args.push(format!("_{name}: {by}{state}"));
    }
    for p in params {
        let base = if p.name.is_empty() { "value" } else { &p.name };
        let name = unique(&snake(base), &mut taken);
        args.push(format!("_{name}: {}", p.rust_type));
    }
    let returns = match (role, params) {
        (Role::Stimulus, _) | (Role::Sensor, []) => String::new(),
        (Role::Sensor, [one]) => format!(" -> {}", one.rust_type),
        (Role::Sensor, many) => {
            let types: Vec<&str> = many.iter().map(|p| p.rust_type.as_str()).collect();
            format!(" -> ({})", types.join(", "))
        }
    };
    let mut names: Vec<String> = file
        .items
        .steps
        .iter()
        .map(|s| s.function.name.clone())
        .chain(
            file.items
                .parameters
                .iter()
                .map(|p| p.function.name.clone()),
        )
        .chain(file.items.hooks.iter().map(|h| h.function.name.clone()))
        .collect();
    let function = unique(&function_name(expression), &mut names);
    let literal = rust_string(expression);
    let text = format!(
        "{}#[varar::{attr}({literal})]\nfn {function}({}){returns} {{\n    panic!({})\n}}\n",
        if file.ends_with_newline { "\n" } else { "\n\n" },
        args.join(", "),
        rust_string(&format!("not written yet: the {attr} \"{expression}\"")),
    );
    NewStep {
        title: format!("Create {attr} \"{expression}\" in {}", file.label),
        path: file.path.clone(),
        at: file.end,
        text,
    }
}

/// The state type most steps of the file take (the first on a tie).
fn common_state(file: &StepFile) -> Option<String> {
    let mut counts: BTreeMap<&str, (usize, usize)> = BTreeMap::new();
    for (i, s) in file.items.steps.iter().enumerate() {
        if let Some(state) = &s.state {
            let entry = counts.entry(&state.type_name).or_insert((0, i));
            entry.0 += 1;
        }
    }
    counts
        .into_iter()
        .max_by(|a, b| a.1.0.cmp(&b.1.0).then(b.1.1.cmp(&a.1.1)))
        .map(|(t, _)| t.to_string())
}

/// A function name from the expression's literal words.
fn function_name(expression: &str) -> String {
    let mut words = Vec::new();
    let mut in_param = false;
    let mut word = String::new();
    for c in expression.chars() {
        match c {
            '{' => in_param = true,
            '}' => in_param = false,
            c if !in_param && c.is_alphanumeric() => word.extend(c.to_lowercase()),
            _ => {}
        }
        if (in_param || !c.is_alphanumeric()) && !word.is_empty() {
            words.push(std::mem::take(&mut word));
        }
    }
    if !word.is_empty() {
        words.push(word);
    }
    let ascii: Vec<String> = words
        .into_iter()
        .map(|w| {
            w.chars()
                .filter(char::is_ascii_alphanumeric)
                .collect::<String>()
        })
        .filter(|w| !w.is_empty())
        .take(6)
        .collect();
    let mut name = ascii.join("_");
    if name.is_empty() || name.starts_with(|c: char| c.is_ascii_digit()) {
        name.insert_str(0, "step_");
    }
    if is_keyword(&name) {
        name.push_str("_step");
    }
    name
}

fn is_keyword(name: &str) -> bool {
    matches!(
        name,
        "as" | "async"
            | "await"
            | "break"
            | "const"
            | "continue"
            | "crate"
            | "dyn"
            | "else"
            | "enum"
            | "extern"
            | "false"
            | "fn"
            | "for"
            | "gen"
            | "if"
            | "impl"
            | "in"
            | "let"
            | "loop"
            | "match"
            | "mod"
            | "move"
            | "mut"
            | "pub"
            | "ref"
            | "return"
            | "self"
            | "static"
            | "struct"
            | "super"
            | "trait"
            | "true"
            | "type"
            | "unsafe"
            | "use"
            | "where"
            | "while"
            | "yield"
    )
}

/// `CamelCase` or any text as a snake_case identifier.
fn snake(s: &str) -> String {
    let mut out = String::new();
    for (i, c) in s.chars().enumerate() {
        if c.is_ascii_uppercase() {
            if i > 0 {
                out.push('_');
            }
            out.push(c.to_ascii_lowercase());
        } else if c.is_ascii_alphanumeric() {
            out.push(c);
        } else if !out.ends_with('_') && !out.is_empty() {
            out.push('_');
        }
    }
    let out = out.trim_end_matches('_').to_string();
    if out.is_empty() {
        "value".to_string()
    } else {
        out
    }
}

fn unique(base: &str, taken: &mut Vec<String>) -> String {
    let mut name = base.to_string();
    let mut n = 2;
    while taken.contains(&name) {
        name = format!("{base}_{n}");
        n += 1;
    }
    taken.push(name.clone());
    name
}

/// A Rust string literal: raw when the text has quotes or backslashes.
fn rust_string(s: &str) -> String {
    if (s.contains('"') || s.contains('\\')) && !s.contains("\"#") {
        format!("r#\"{s}\"#")
    } else {
        format!("{s:?}")
    }
}

#[cfg(test)]
mod tests;
