//! "Create the step" (pure): for a sentence no step matches, a stimulus
//! and a sensor to append to the step file whose state fits, the likelier
//! first.
//!
//! The expression and the likelier role are [`guess`](crate::analysis::guess)'s (a
//! value after `is`, `are`, `equals` or `reads` makes a sensor likelier).
//! The file is the one whose steps the sentence's example already uses
//! (its state is the example's), in the order they run; a sentence in an
//! example of no step yet gets one pair of actions per step file. The
//! function takes the state type the other steps of the chosen file use
//! most (`&mut S` for a stimulus, `&S` for a sensor), one argument per
//! parameter, returns what a sensor's slots need, and fails with "not
//! written yet" until it is written.

pub mod review;

use std::collections::BTreeMap;
use std::path::PathBuf;

use varar_core::registry::Role;

use crate::analysis::Analysis;
use crate::analysis::guess::{Found, guess, step_text};
use crate::analysis::step_index::{StepFile, StepIndex};

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
    /// Whether it is the likelier action (the first one).
    pub preferred: bool,
}

/// The actions for the sentence under `offset`: for each fitting step file,
/// the likelier role then the other; none when a step matches it.
pub fn create_step(analysis: &Analysis, index: &StepIndex, offset: u32) -> Vec<NewStep> {
    let Some(sentence) = analysis.sentence_at(offset).filter(|s| !s.matched) else {
        return Vec::new();
    };
    let Some(text) = step_text(&sentence.text) else {
        return Vec::new();
    };
    let guess = guess(text, index);
    let mut out = Vec::new();
    for file in fitting_files(analysis, index, offset) {
        for role in guess.roles() {
            let mut new = new_step(file, role, &guess.expression, &guess.params);
            new.preferred = out.is_empty();
            out.push(new);
        }
    }
    out
}

/// The step files of the steps the example around `offset` uses, in the
/// order they run; every step file when it uses none.
fn fitting_files<'a>(analysis: &Analysis, index: &'a StepIndex, offset: u32) -> Vec<&'a StepFile> {
    let mut files: Vec<&StepFile> = Vec::new();
    let example = analysis
        .plan
        .examples
        .iter()
        .find(|e| e.span.start_offset <= offset && offset <= e.span.end_offset);
    for step in example.into_iter().flat_map(|e| &e.steps) {
        if let Some((file, _)) = index.step(step.step)
            && !files.iter().any(|f| f.path == file.path)
        {
            files.push(file);
        }
    }
    if files.is_empty() {
        files = index
            .files()
            .filter(|f| !f.items.steps.is_empty())
            .collect();
    }
    files
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
        preferred: false,
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
pub(crate) fn rust_string(s: &str) -> String {
    if (s.contains('"') || s.contains('\\')) && !s.contains("\"#") {
        format!("r#\"{s}\"#")
    } else {
        format!("{s:?}")
    }
}

#[cfg(test)]
mod tests;
