//! Semantic tokens of an oath (pure): what is a step and what is a value.
//!
//! # Legend (for theme authors)
//!
//! | token | type | modifiers |
//! |---|---|---|
//! | the text a step matched (`I put` … `in the basket`) | `function` | `stimulus` or `sensor` |
//! | a captured parameter (`2`, `croissants`, `Ada Lovelace` inside its quotes, `Emma` inside `*…*`) | `parameter` | `stimulus` or `sensor` |
//! | a reference link: a paragraph that is only a link to a section of an oath (`[Fill the basket](shared.md#fill-the-basket)`, reuse by link, spec 70), from `[` to `)` | `namespace` | |
//!
//! A sentence is a step wherever some plan runs it: a section that other
//! oaths splice by link (and that therefore no longer runs on its own) is
//! highlighted from their plans, so the author of a shared section sees
//! which of its sentences match. A paragraph that runs nowhere (a consumed
//! section's header-bound table, a section whose link is refused) is prose.
//! `namespace` is the standard type for "a name that stands for a group of
//! things elsewhere", which is what a link to a section is; themes colour
//! it like a module path. A broken link keeps its token and gets a
//! diagnostic.
//!
//! Prose, headings, tables and fences get no token, so the Markdown
//! highlighting of the editor shows through. `function` and `parameter`
//! are standard types every theme colours; the two modifiers are Varar's,
//! so a theme can tell a stimulus (drives the system) from a sensor (its
//! values are compared with the document), e.g. in VS Code:
//! `"editor.semanticTokenColorCustomizations": {"rules": {"parameter.sensor": {"bold": true}}}`.
//! A built-in parameter's token covers its inner span (spec 20 §20.3: what
//! editors highlight), so quotes and emphasis markers keep their Markdown
//! colour; a custom type's covers the whole value (its inner span is only
//! its first capture group, `2` of `£2.40`).

use lsp_types::{
    SemanticToken, SemanticTokenModifier, SemanticTokenType, SemanticTokens, SemanticTokensLegend,
};
use varar_core::source::{Source, Span};
use varar_core::{expression::ArgValue, registry::Role};

use crate::analysis::Analysis;
use crate::analysis::step_index::StepIndex;

/// Index of `function` in the legend.
pub const STEP: u32 = 0;
/// Index of `parameter` in the legend.
pub const PARAMETER: u32 = 1;
/// Index of `namespace` in the legend: reference links (spec 70).
pub const REFERENCE: u32 = 2;
/// Bit of the `stimulus` modifier.
pub const STIMULUS: u32 = 1;
/// Bit of the `sensor` modifier.
pub const SENSOR: u32 = 2;

/// The legend announced at `initialize`.
pub fn legend() -> SemanticTokensLegend {
    SemanticTokensLegend {
        token_types: vec![
            SemanticTokenType::FUNCTION,
            SemanticTokenType::PARAMETER,
            SemanticTokenType::NAMESPACE,
        ],
        token_modifiers: vec![
            SemanticTokenModifier::new("stimulus"),
            SemanticTokenModifier::new("sensor"),
        ],
    }
}

/// One token before delta encoding: a UTF-16 range of the source.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RawToken {
    /// Start offset.
    pub from: u32,
    /// End offset (exclusive).
    pub to: u32,
    /// Index into the legend's types.
    pub kind: u32,
    /// Modifier bits.
    pub modifiers: u32,
}

/// The tokens of an oath, encoded for `textDocument/semanticTokens/full`.
pub fn semantic_tokens(analysis: &Analysis, index: &StepIndex) -> SemanticTokens {
    let mut raw = step_tokens(analysis, index);
    raw.extend(reference_link_tokens(analysis));
    raw.sort_by_key(|t| (t.from, t.to));
    SemanticTokens {
        result_id: None,
        data: encode(&analysis.source(), &raw),
    }
}

/// The steps' text and parameters, split so that tokens never overlap.
pub fn step_tokens(analysis: &Analysis, index: &StepIndex) -> Vec<RawToken> {
    let mut out = Vec::new();
    // Each step's role, looked up once per step rather than once per
    // sentence (its file is found by path: a tenth of a keystroke's work
    // in a 5 MB oath, issue 39).
    let mut roles: Vec<Option<u32>> = Vec::new();
    for step in analysis.all_steps() {
        if roles.len() <= step.step {
            roles.resize(step.step + 1, None);
        }
        let modifiers = *roles[step.step].get_or_insert_with(|| {
            match index.step(step.step).map(|(_, s)| s.role) {
                Some(Role::Stimulus) => STIMULUS,
                Some(Role::Sensor) => SENSOR,
                None => 0,
            }
        });
        let mut cursor = step.span.start_offset;
        for param in &step.params {
            // A custom type's inner span is its first capture group
            // (`2` of `£2.40`): the whole value reads better.
            let inner = match *param.value {
                ArgValue::Custom { .. } => param.span,
                _ => param.inner,
            };
            if inner.start_offset < cursor || inner.end_offset > step.span.end_offset {
                continue;
            }
            push(&mut out, cursor, inner.start_offset, STEP, modifiers);
            push(
                &mut out,
                inner.start_offset,
                inner.end_offset,
                PARAMETER,
                modifiers,
            );
            cursor = inner.end_offset;
        }
        push(&mut out, cursor, step.span.end_offset, STEP, modifiers);
    }
    out
}

/// One `REFERENCE` token per reference block: its link, from `[` to `)`.
pub fn reference_link_tokens(analysis: &Analysis) -> Vec<RawToken> {
    let mut out = Vec::new();
    for link in &analysis.links {
        push(
            &mut out,
            link.span.start_offset,
            link.span.end_offset,
            REFERENCE,
            0,
        );
    }
    out
}

fn push(out: &mut Vec<RawToken>, from: u32, to: u32, kind: u32, modifiers: u32) {
    if to > from {
        out.push(RawToken {
            from,
            to,
            kind,
            modifiers,
        });
    }
}

/// Delta-encode sorted tokens, cutting any that crosses a line end (the
/// protocol's tokens are single-line unless the client says otherwise).
pub fn encode(source: &Source<'_>, tokens: &[RawToken]) -> Vec<SemanticToken> {
    let mut data = Vec::with_capacity(tokens.len());
    let (mut last_line, mut last_col) = (0u32, 0u32);
    for token in tokens {
        let mut from = token.from;
        while from < token.to {
            let span: Span = source.span(from, token.to);
            let line_end = source
                .line_start(span.start_line + 1)
                .map_or(source.len_utf16(), |next| next - 1);
            let to = token.to.min(line_end.max(from));
            let (line, col) = (span.start_line - 1, span.start_col - 1);
            if to > from {
                let delta_line = line.saturating_sub(last_line);
                let delta_start = if delta_line == 0 {
                    col.saturating_sub(last_col)
                } else {
                    col
                };
                data.push(SemanticToken {
                    delta_line,
                    delta_start,
                    length: to - from,
                    token_type: token.kind,
                    token_modifiers_bitset: token.modifiers,
                });
                (last_line, last_col) = (line, col);
            }
            // Continue after the line break.
            from = line_end + 1;
        }
    }
    data
}

#[cfg(test)]
mod tests;
