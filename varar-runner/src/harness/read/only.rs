//! `VARAR_SELECT` (issue 38): the exact items a run lists and runs, one
//! full item name a line (the kind prefix `[varar] ` that `--list` prints
//! is optional). `cargo varar test` sets it; it works the same under
//! `cargo test` and `cargo nextest run`, since nextest lists through the
//! harness and every process it starts inherits the variable.
//!
//! Every oath is still planned, so item names and their `[n]` are those of
//! a full listing; the items the variable does not name are left out of
//! the listing and the run, and recorded as not selected, so the run's
//! standing is `filtered`, and the run leaves the lock alone unless
//! `VARAR_UPDATE` asks for it, as a run filtered by libtest does.
//!
//! The value is not ours: it is bounded ([`MAX_SELECT_BYTES`], the most
//! Linux passes in one environment string), must be UTF-8, and is only
//! ever compared with the names the run planned. Unset or empty is no
//! selection (as for the other variables); a value of blank lines only
//! selects nothing.

use std::collections::HashSet;

use varar_core::env::{VARAR_SELECT, VARAR_SELECT_MAX_BYTES};
use varar_core::names::KIND_PREFIX;
use varar_core::untrusted::{cut_to, terminal_line};

/// The most bytes the value may hold (Linux's limit of one environment
/// string).
pub(crate) const MAX_SELECT_BYTES: usize = VARAR_SELECT_MAX_BYTES;

/// How many unknown names a notice shows (the rest are counted).
const SHOWN: usize = 3;

/// How much of each a notice shows.
const SHOWN_BYTES: usize = 200;

/// Why the value cannot be used.
#[derive(Debug, PartialEq, Eq, thiserror::Error)]
pub(crate) enum OnlyError {
    /// Longer than [`MAX_SELECT_BYTES`].
    #[error(
        "{VARAR_SELECT} holds {0} bytes, more than the {MAX_SELECT_BYTES} allowed; select \
         fewer items (a whole oath or section with cargo varar test), or run everything"
    )]
    TooLong(usize),
    /// Not UTF-8, so it can name no item.
    #[error("{VARAR_SELECT} is not UTF-8, so it names no item; set one item name a line")]
    NotUnicode,
}

/// The items `VARAR_SELECT` names.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Only {
    names: HashSet<String>,
}

impl Only {
    /// The selection of this process's environment, if any.
    pub(crate) fn from_env() -> Result<Option<Only>, OnlyError> {
        match std::env::var(VARAR_SELECT) {
            Err(std::env::VarError::NotPresent) => Ok(None),
            Ok(value) => Only::parse(&value),
            Err(std::env::VarError::NotUnicode(value)) => {
                if value.len() > MAX_SELECT_BYTES {
                    Err(OnlyError::TooLong(value.len()))
                } else {
                    Err(OnlyError::NotUnicode)
                }
            }
        }
    }

    /// The selection `value` names: one item name a line (`\n` or
    /// `\r\n`), the kind prefix optional, blank lines skipped.
    pub(crate) fn parse(value: &str) -> Result<Option<Only>, OnlyError> {
        if value.len() > MAX_SELECT_BYTES {
            return Err(OnlyError::TooLong(value.len()));
        }
        if value.is_empty() {
            return Ok(None);
        }
        let names = value
            .split('\n')
            .map(|line| line.strip_suffix('\r').unwrap_or(line))
            .map(|line| line.strip_prefix(KIND_PREFIX).unwrap_or(line))
            .filter(|line| !line.trim().is_empty())
            .map(str::to_owned)
            .collect();
        Ok(Some(Only { names }))
    }

    /// Whether the item named `name` (without the kind prefix) is selected.
    pub(crate) fn keeps(&self, name: &str) -> bool {
        self.names.contains(name)
    }

    /// The notice of the names no planned item has (`planned`: every name
    /// the run planned), if any: a renamed example, or a typo. Names shown
    /// escaped, at most [`SHOWN`] of them.
    pub(crate) fn unknown_notice<'a>(
        &self,
        planned: impl IntoIterator<Item = &'a str>,
    ) -> Option<String> {
        let planned: HashSet<&str> = planned.into_iter().collect();
        let mut unknown: Vec<&str> = self
            .names
            .iter()
            .map(String::as_str)
            .filter(|n| !planned.contains(n))
            .collect();
        if unknown.is_empty() {
            return None;
        }
        unknown.sort_unstable();
        let shown: Vec<String> = unknown
            .iter()
            .take(SHOWN)
            .map(|n| format!("`{}`", terminal_line(&cut_to(n, SHOWN_BYTES))))
            .collect();
        let more = match unknown.len().saturating_sub(SHOWN) {
            0 => String::new(),
            n => format!(" and {n} more"),
        };
        Some(format!(
            "varar: {VARAR_SELECT} names {} this run did not plan, so {}: {}{more}",
            count(unknown.len()),
            if unknown.len() == 1 {
                "it does not run"
            } else {
                "they do not run"
            },
            shown.join(", ")
        ))
    }
}

/// `1 item` or `n items`.
fn count(n: usize) -> String {
    if n == 1 {
        "1 item".to_owned()
    } else {
        format!("{n} items")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn only(value: &str) -> Only {
        Only::parse(value)
            .unwrap_or_else(|e| panic!("{e}"))
            .unwrap_or_else(|| panic!("no selection in {value:?}"))
    }

    #[test]
    fn one_name_a_line_with_or_without_the_kind_prefix() {
        let o = only("varar/a.md::Shop::I pay 2\r\n\n[varar] varar/a.md::varar:drift:12\n  \n");
        assert!(o.keeps("varar/a.md::Shop::I pay 2"));
        assert!(o.keeps("varar/a.md::varar:drift:12"));
        assert!(!o.keeps("varar/a.md::Shop::I pay"), "exact names only");
        assert!(
            !o.keeps("[varar] varar/a.md::Shop::I pay 2"),
            "the run's names have no prefix"
        );
        assert_eq!(o.names.len(), 2);
    }

    #[test]
    fn empty_is_no_selection_and_blank_lines_select_nothing() {
        assert_eq!(Only::parse(""), Ok(None));
        let nothing = only("\n\n");
        assert!(!nothing.keeps(""));
        assert!(nothing.names.is_empty());
    }

    #[test]
    fn a_value_over_the_limit_is_refused_by_its_size() {
        let at_limit = "a".repeat(MAX_SELECT_BYTES);
        assert!(Only::parse(&at_limit).is_ok());
        let over = "a".repeat(MAX_SELECT_BYTES + 1);
        let err = Only::parse(&over).err();
        assert_eq!(err, Some(OnlyError::TooLong(MAX_SELECT_BYTES + 1)));
        let text = err.map(|e| e.to_string()).unwrap_or_default();
        assert!(
            text.starts_with("VARAR_SELECT holds 131073 bytes, more than the 131072"),
            "{text}"
        );
    }

    #[test]
    fn hostile_names_are_only_compared_and_shown_escaped() {
        // A name with terminal escapes and a bidi override selects nothing
        // unless planned, and the notice shows it escaped, bounded.
        let o = only("a.md::\u{1b}[31mred\nb.md::\u{202e}x\nc.md::y\nd.md::z\ne.md::w\n");
        let notice = o
            .unknown_notice(["c.md::y"])
            .unwrap_or_else(|| panic!("no notice"));
        assert!(
            !notice.contains('\u{1b}') && !notice.contains('\u{202e}'),
            "{notice}"
        );
        assert!(
            notice.contains("names 4 items this run did not plan"),
            "{notice}"
        );
        assert!(notice.ends_with(" and 1 more"), "{notice}");
        assert_eq!(only("c.md::y").unknown_notice(["c.md::y"]), None);
    }
}
