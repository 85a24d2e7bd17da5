//! Sentences an expression matches (spec 20 §20.2.2): the expression read
//! backwards, with given texts in place of its parameters. Renaming a step
//! rewrites the sentences that used it; each keeps its parameter values.
//!
//! An optional part may be left out or kept, and an alternation is one of
//! its alternatives, so an expression has as many renderings as the
//! product of those choices; they are listed in a fixed order (the first
//! alternative, and every optional kept, first) and cut at a limit.

use crate::ast::Node;
use crate::expression::Expression;

impl Expression {
    /// The sentences this expression reads as with `values` in place of
    /// its parameters, in order (a parameter without a value reads as
    /// nothing), at most `limit` of them.
    ///
    /// ```
    /// use varar_expression::Expression;
    /// let e = Expression::parse("I have {int} cucumber(s) in my belly/stomach")
    ///     .map_err(|e| e.to_string())?;
    /// assert_eq!(
    ///     e.renderings(&["1"], 8),
    ///     [
    ///         "I have 1 cucumbers in my belly",
    ///         "I have 1 cucumber in my belly",
    ///         "I have 1 cucumbers in my stomach",
    ///         "I have 1 cucumber in my stomach",
    ///     ]
    /// );
    /// assert_eq!(
    ///     Expression::parse(r"a \{b\} {string}").map_err(|e| e.to_string())?.renderings(&["\"c\""], 8),
    ///     ["a {b} \"c\""]
    /// );
    /// # Ok::<(), String>(())
    /// ```
    pub fn renderings(&self, values: &[&str], limit: usize) -> Vec<String> {
        let mut next = 0;
        let mut out = vec![String::new()];
        render(self.nodes(), values, &mut next, &mut out, limit.max(1));
        out
    }
}

/// Append `nodes` to every partial rendering in `out`, branching at each
/// optional and alternation; `next` is the next parameter's value.
fn render(nodes: &[Node], values: &[&str], next: &mut usize, out: &mut Vec<String>, limit: usize) {
    for node in nodes {
        match node {
            Node::Text { text, .. } => out.iter_mut().for_each(|s| s.push_str(text)),
            Node::Parameter { .. } => {
                let value = values.get(*next).copied().unwrap_or("");
                *next += 1;
                out.iter_mut().for_each(|s| s.push_str(value));
            }
            Node::Optional { nodes, .. } => {
                let mut kept = out.clone();
                render(nodes, values, next, &mut kept, limit);
                kept.append(out);
                kept.truncate(limit);
                *out = kept;
            }
            Node::Alternation { alternatives } => {
                let mut all = Vec::new();
                // Every alternative holds the same parameters (§20.2.4
                // forbids a parameter in one), so each starts at `next`.
                let start = *next;
                for alternative in alternatives {
                    let mut branch = out.clone();
                    *next = start;
                    render(&alternative.nodes, values, next, &mut branch, limit);
                    all.extend(branch);
                }
                all.truncate(limit);
                *out = all;
            }
        }
    }
}
