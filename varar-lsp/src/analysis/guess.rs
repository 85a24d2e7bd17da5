//! What step a sentence no step matches would be (pure): the heuristic
//! behind "create the step" and behind `cargo varar check`'s "looks like a
//! step" warning, so the editor and the command agree on it.
//!
//! The expression is the sentence without its final `.`, `!` or `?`, with
//! values turned into parameters: a value a custom parameter type's regex
//! matches becomes that type (`£2.50` → `{money}`), quoted text
//! `{string}`, emphasis `{emph}`, a number `{float}` or `{int}`; the rest
//! is literal, escaped for the expression grammar. The expression is
//! checked against the registry's types and must match the sentence;
//! otherwise the sentence is used literally, without parameters.
//!
//! A sentence *looks like a step* when it has a value to capture: prose
//! rarely states a number, a quoted name or an amount, a step almost
//! always does. The likelier role is a sensor when a value follows `is`,
//! `are`, `equals` or `reads` (the sentence states what the system shows:
//! "the total is £2.40"), else a stimulus.

use regex::{Regex, RegexSet};
use varar_core::expression::CompiledExpression;
use varar_core::registry::Role;

use super::step_index::StepIndex;

/// One value found in the sentence.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Found {
    /// Byte range in the sentence.
    pub start: usize,
    /// End of the byte range.
    pub end: usize,
    /// The parameter type name.
    pub name: String,
    /// The Rust type its argument takes.
    pub rust_type: String,
}

/// The step a sentence would be.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Guess {
    /// The expression.
    pub expression: String,
    /// Its parameters, in order.
    pub params: Vec<Found>,
    /// The likelier role.
    pub role: Role,
}

impl Guess {
    /// Whether the sentence looks like a step: it has a value to capture.
    pub fn looks_like_step(&self) -> bool {
        !self.params.is_empty()
    }

    /// Both roles, the likelier first.
    pub fn roles(&self) -> [Role; 2] {
        match self.role {
            Role::Stimulus => [Role::Stimulus, Role::Sensor],
            Role::Sensor => [Role::Sensor, Role::Stimulus],
        }
    }
}

/// The sentence's text as an expression is made of it: without its final
/// `.`, `!` or `?`; `None` when nothing is left.
pub fn step_text(sentence: &str) -> Option<&str> {
    let text = sentence.strip_suffix(['.', '!', '?']).unwrap_or(sentence);
    (!text.trim().is_empty()).then_some(text)
}

/// The step `text` (a sentence without its terminator) would be.
pub fn guess(text: &str, index: &StepIndex) -> Guess {
    Guesser::new(index).guess(text)
}

/// [`guess`] for many sentences: the value patterns compiled once.
#[derive(Debug)]
pub struct Guesser<'a> {
    index: &'a StepIndex,
    /// Each custom parameter type's regex, its name and Rust type.
    custom: Vec<(Regex, String, String)>,
    /// The custom regexes as one set: a sentence none of them matches is
    /// ruled out in one pass.
    custom_set: Option<RegexSet>,
    /// The built-in value patterns, in order of precedence.
    built_in: Vec<(Regex, &'static str, &'static str)>,
}

impl<'a> Guesser<'a> {
    /// Compile the patterns of `index`'s custom types and the built-in ones.
    pub fn new(index: &'a StepIndex) -> Guesser<'a> {
        let custom = index
            .parameters()
            .filter_map(|p| {
                let re = Regex::new(&p.regex).ok()?;
                let rust_type = p.value_type.clone().unwrap_or_else(|| "String".to_string());
                Some((re, p.name.clone(), rust_type))
            })
            .collect();
        let custom_set = RegexSet::new(
            index
                .parameters()
                .filter(|p| Regex::new(&p.regex).is_ok())
                .map(|p| p.regex.as_str()),
        )
        .ok()
        .filter(|set| !set.is_empty());
        let built_in = PATTERNS
            .iter()
            .filter_map(|(pattern, name, rust_type)| {
                Some((Regex::new(pattern).ok()?, *name, *rust_type))
            })
            .collect();
        Guesser {
            index,
            custom,
            custom_set,
            built_in,
        }
    }

    /// Whether `text` may hold a value to capture: a byte every built-in
    /// value needs (`"`, `*`, `_` or a digit) or a match of a custom
    /// type's regex. When not, it has no parameter and is no step, and
    /// the patterns are not run: most sentences of a long oath are prose
    /// (issue 34).
    pub fn may_have_value(&self, text: &str) -> bool {
        // An index loop over a table: cheap in the unoptimised builds
        // `cargo varar` is often run from, where iterator adapters are not.
        let bytes = text.as_bytes();
        let mut i = 0;
        while i < bytes.len() {
            if VALUE_BYTE[usize::from(bytes[i])] {
                return true;
            }
            i += 1;
        }
        self.custom_set.as_ref().is_some_and(|s| s.is_match(text))
    }

    /// The step `text` (a sentence without its terminator) would be.
    pub fn guess(&self, text: &str) -> Guess {
        let (expression, params) = self.infer_expression(text);
        let role = if params
            .iter()
            .any(|p| follows_a_verb_of_state(text, p.start))
        {
            Role::Sensor
        } else {
            Role::Stimulus
        };
        Guess {
            expression,
            params,
            role,
        }
    }

    /// The expression for a sentence and the parameters it has.
    fn infer_expression(&self, text: &str) -> (String, Vec<Found>) {
        if !self.may_have_value(text) {
            return (render(text, &[]), Vec::new());
        }
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
        for (re, name, rust_type) in &self.custom {
            for m in re.find_iter(text) {
                add(m.start(), m.end(), name, rust_type);
            }
        }
        for &(ref re, name, rust_type) in &self.built_in {
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
                // The emphasis pattern may take the space before it.
                let start = m.start() + m.as_str().len() - m.as_str().trim_start().len();
                add(start, m.end(), name, rust_type);
            }
        }
        found.sort_by_key(|f| f.start);
        let expression = render(text, &found);
        if found.is_empty() {
            return (expression, found);
        }
        let checks = CompiledExpression::from_source(&expression, self.index.registry().types())
            .is_ok_and(|e| !e.scan(text).is_empty());
        if checks {
            (expression, found)
        } else {
            (render(text, &[]), Vec::new())
        }
    }
}

/// Whether the word before byte `at` is `is`, `are`, `equals` or `reads`.
fn follows_a_verb_of_state(text: &str, at: usize) -> bool {
    let before = text[..at].trim_end();
    let word = before
        .rsplit(|c: char| !c.is_alphanumeric())
        .next()
        .unwrap_or("");
    matches!(
        word.to_lowercase().as_str(),
        "is" | "are" | "equals" | "reads"
    )
}

/// The bytes every built-in value needs one of: `"`, `*`, `_`, a digit.
const VALUE_BYTE: [bool; 256] = {
    let mut table = [false; 256];
    table[b'"' as usize] = true;
    table[b'*' as usize] = true;
    table[b'_' as usize] = true;
    let mut d = b'0';
    while d <= b'9' {
        table[d as usize] = true;
        d += 1;
    }
    table
};

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
        escape_into(&mut out, &text[cursor..f.start]);
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tests::support::bakery;

    #[test]
    fn a_value_after_is_are_equals_or_reads_makes_a_sensor_likelier() {
        let index = bakery();
        let cases = [
            ("I bake 3 loaves", Role::Stimulus, "I bake {int} loaves"),
            ("the total is £2.40", Role::Sensor, "the total is {money}"),
            (
                "The scales read 3 kg",
                Role::Stimulus,
                "The scales read {int} kg",
            ),
            (
                "the display reads \"open\"",
                Role::Sensor,
                "the display reads {string}",
            ),
            ("the loaves are 3", Role::Sensor, "the loaves are {int}"),
            (
                "two plus two equals 4",
                Role::Sensor,
                "two plus two equals {int}",
            ),
        ];
        for (text, role, expression) in cases {
            let g = guess(text, &index);
            assert_eq!(
                (g.role, g.expression.as_str()),
                (role, expression),
                "{text}"
            );
            assert!(g.looks_like_step(), "{text}");
        }
        let prose = guess("Unsold bread goes to the food bank", &index);
        assert!(!prose.looks_like_step());
        assert_eq!(prose.roles(), [Role::Stimulus, Role::Sensor]);
        assert_eq!(step_text("Done!"), Some("Done"));
        assert_eq!(step_text("."), None);
    }

    #[test]
    fn issue34_a_sentence_without_a_value_is_ruled_out_before_any_pattern_runs() {
        let index = bakery();
        let guesser = Guesser::new(&index);
        for prose in [
            "Tellers like tidy books",
            "Why keep a messy ledger",
            "Coins are counted",
        ] {
            assert!(!guesser.may_have_value(prose), "{prose}");
            assert!(!guesser.guess(prose).looks_like_step(), "{prose}");
        }
        for step in [
            "I bake 3 loaves",
            "the label reads \"Rent\"",
            "the mood is *calm*",
            "the total is £2.40",
        ] {
            assert!(guesser.may_have_value(step), "{step}");
            assert!(guesser.guess(step).looks_like_step(), "{step}");
        }
    }
}
