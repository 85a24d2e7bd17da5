//! Selection by tags (issue 38, this port's extension): `VARAR_TAGS` holds
//! a tag expression (`@smoke and not @slow`, `varar_core::tags`), and a
//! run under `cargo test` or `cargo nextest run` keeps only the items it
//! selects, listing included (so nextest's list, and the processes it
//! starts, honour it).
//!
//! What each kind of item does:
//! * an example runs when its tags (its sections' and its own) match;
//! * a drift item follows the example it is about: the tags at its line;
//! * plan diagnostics and read errors always run: they are problems of a
//!   document, not examples, and a tag filter must not hide them.
//!
//! The items left out are unselected in the run record, so the run's
//! standing is `filtered`, and, as under a libtest filter, such a run
//! leaves the lock alone unless `VARAR_UPDATE` is set (`stages/`).

use std::collections::HashMap;
use std::sync::Arc;

use super::documents::Texts;
use crate::harness::error::HarnessError;
use varar_core::env::VARAR_TAGS;
use varar_core::names::ItemKind;
use varar_core::tags::{TagExpression, TagIndex, selects};

/// `VARAR_TAGS`: unset or blank selects by no tag; anything else must be a
/// tag expression, or the run stops at once.
pub(in crate::harness) fn from_env() -> Result<Option<TagExpression>, HarnessError> {
    let value = match std::env::var(VARAR_TAGS) {
        Err(std::env::VarError::NotPresent) => return Ok(None),
        Ok(v) => v,
        Err(std::env::VarError::NotUnicode(v)) => v.to_string_lossy().into_owned(),
    };
    parse(&value)
}

/// The expression `value` holds, `None` when it is blank.
fn parse(value: &str) -> Result<Option<TagExpression>, HarnessError> {
    if value.trim().is_empty() {
        return Ok(None);
    }
    TagExpression::parse(value)
        .map(Some)
        .map_err(|error| HarnessError::Tags {
            value: value.to_owned(),
            error,
        })
}

/// The tags of the oaths a run's items belong to, and the expression that
/// selects among them.
pub(in crate::harness) struct TagSelection<'e> {
    expression: &'e TagExpression,
    /// Each oath's tags, by oath path.
    indices: HashMap<Arc<str>, TagIndex>,
}

impl<'e> TagSelection<'e> {
    /// The selection by `expression` of the items of `oaths` (each oath
    /// path once or more), reading their tags from `texts`.
    pub(in crate::harness) fn new<'a>(
        expression: &'e TagExpression,
        texts: &Texts,
        oaths: impl IntoIterator<Item = &'a Arc<str>>,
    ) -> TagSelection<'e> {
        let mut indices = HashMap::new();
        for oath in oaths {
            if !indices.contains_key(oath) {
                let index = texts
                    .text(oath)
                    .map(|text| TagIndex::of(text))
                    .unwrap_or_default();
                indices.insert(Arc::clone(oath), index);
            }
        }
        TagSelection {
            expression,
            indices,
        }
    }

    /// Whether the item of kind `kind` at `line` of `oath_path` runs.
    /// ([`varar_core::tags::selects`] decides).
    pub(in crate::harness) fn keeps(&self, kind: ItemKind, oath_path: &str, line: u32) -> bool {
        let none = TagIndex::default();
        let index = self.indices.get(oath_path).unwrap_or(&none);
        selects(self.expression, kind, index, line)
    }
}

impl TagSelection<'_> {
    /// What the run says of the selection: the expression, and how many
    /// of `total` items it left out.
    pub(in crate::harness) fn summary(&self, left_out: usize, total: usize) -> String {
        format!(
            "varar: {VARAR_TAGS}={}: {left_out} of {total} items left out",
            self.expression
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn item(kind: ItemKind, oath: &str, line: u32) -> (ItemKind, Arc<str>, u32) {
        (kind, Arc::from(oath), line)
    }

    #[test]
    fn blank_selects_by_no_tag_and_a_bad_expression_names_the_variable_and_where() {
        assert!(parse("").unwrap_or_else(|e| panic!("{e}")).is_none());
        assert!(parse("  ").unwrap_or_else(|e| panic!("{e}")).is_none());
        let Err(error) = parse("@smoke and not") else {
            panic!("an unfinished expression parses");
        };
        assert_eq!(
            error.to_string(),
            "VARAR_TAGS=\"@smoke and not\" is not a tag expression: at column 15: it ends \
             where a tag, `not` or `(` is expected"
        );
    }

    #[test]
    fn examples_and_drift_follow_their_tags_and_problems_always_run() {
        let text = "# A\n\n<!-- @slow -->\nI add 1.\n\nI add 2.\n";
        let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        let path = dir.path().join("a.md");
        std::fs::write(&path, text).unwrap_or_else(|e| panic!("{e}"));
        let oath = varar_project::discovery::OathFile {
            oath_path: "a.md".to_owned(),
            path,
        };
        let texts = Texts::read(&[oath], &|_| false);
        let meta = [
            item(ItemKind::Example, "a.md", 4),
            item(ItemKind::Example, "a.md", 6),
            item(ItemKind::Drift, "a.md", 4),
            item(ItemKind::Drift, "a.md", 6),
            item(ItemKind::Diagnostic, "a.md", 4),
            item(ItemKind::ReadError, "b.md", 0),
        ];
        let expression = TagExpression::parse("not @slow").unwrap_or_else(|e| panic!("{e}"));
        let selection = TagSelection::new(&expression, &texts, meta.iter().map(|m| &m.1));
        let kept: Vec<bool> = meta
            .iter()
            .map(|m| selection.keeps(m.0, &m.1, m.2))
            .collect();
        assert_eq!(kept, [false, true, false, true, true, true]);
        let expression = TagExpression::parse("@slow").unwrap_or_else(|e| panic!("{e}"));
        let selection = TagSelection::new(&expression, &texts, meta.iter().map(|m| &m.1));
        let kept: Vec<bool> = meta
            .iter()
            .map(|m| selection.keeps(m.0, &m.1, m.2))
            .collect();
        assert_eq!(kept, [true, false, true, false, true, true]);
        assert_eq!(
            selection.summary(2, 6),
            "varar: VARAR_TAGS=@slow: 2 of 6 items left out"
        );
    }
}
