//! The selectors of `cargo varar test` (pure): `varar/basket.md:13` (the
//! items written on line 13), `varar/basket.md#paying` (the items of a
//! section, by the slug a link names it with, spec 70 §70.1),
//! `varar/basket.md` (every item of the oath). A place of a document whose
//! sections other oaths run (`varar/opening-the-shop.md#…`) selects the
//! items that run it.
//!
//! A selector is an oathPath, relative to the project root as `cargo
//! varar check` shows it (`./` allowed), then `:LINE` or `#FRAGMENT`. An
//! oath, line or section the project does not have is an error naming it.

use std::collections::BTreeMap;

use varar_core::reference::normalise;
use varar_core::untrusted::{cut_to, terminal_line};
use varar_lsp::analysis::Analysis;

use super::{Lines, Picked, Target, Why, section, whole};

/// A selector read: the document and what of it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Place {
    /// Every line of the oath.
    Oath(String),
    /// One line.
    Line(String, u32),
    /// A section, by slug.
    Section(String, String),
}

/// How much of a selector an error quotes.
const QUOTED: usize = 200;

/// Read `selector` against the oaths `paths` (oathPaths): the longest
/// reading that names an oath wins, so a file named `a.md:3` is still
/// that file.
pub fn parse(selector: &str, paths: &[&str]) -> Result<Place, String> {
    let raw = selector.strip_prefix("./").unwrap_or(selector);
    let known = |p: &str| paths.contains(&p);
    if known(raw) {
        return Ok(Place::Oath(raw.to_owned()));
    }
    if let Some((path, line)) = raw.rsplit_once(':')
        && known(path)
    {
        return match line.parse::<u32>() {
            Ok(n) if n > 0 => Ok(Place::Line(path.to_owned(), n)),
            _ => Err(format!(
                "`{}`: `{}` is no line number (lines count from 1)",
                shown(selector),
                shown(line)
            )),
        };
    }
    for (i, _) in raw.match_indices('#') {
        let (path, fragment) = (&raw[..i], &raw[i + 1..]);
        if known(path) {
            return Ok(Place::Section(path.to_owned(), normalise(fragment)));
        }
    }
    Err(format!(
        "`{}` names no oath of this project (an oathPath as `cargo varar check` shows it, \
         e.g. `varar/basket.md`, `varar/basket.md:13` or `varar/basket.md#paying`)",
        shown(selector)
    ))
}

/// The targets `place` selects, each with why (the selector as written);
/// an error when a line or section selects nothing.
pub fn resolve(
    selector: &str,
    place: &Place,
    analyses: &[Analysis],
    targets: &[Target],
    picked: &mut Picked,
) -> Result<(), String> {
    let ranges: Vec<Lines> = match place {
        Place::Oath(path) => vec![whole(path)],
        Place::Line(path, n) => vec![Lines {
            path: path.clone(),
            start: *n,
            end: *n,
        }],
        Place::Section(path, slug) => {
            let doc = analyses
                .iter()
                .find(|a| &a.oath_path == path)
                .map(|a| &a.doc);
            let found = doc.map(|d| section(path, d, slug)).unwrap_or_default();
            if found.is_empty() {
                return Err(format!(
                    "`{}`: {} has no heading whose slug is `{}`",
                    shown(selector),
                    shown(path),
                    shown(slug)
                ));
            }
            found
        }
    };
    let mut any = false;
    for (i, t) in targets.iter().enumerate() {
        let hit = ranges
            .iter()
            .any(|r| t.meets(&r.path, r.start, r.end) || t.reaches(&r.path, r.start, r.end));
        if hit {
            any = true;
            picked
                .entry(i)
                .or_insert_with(|| Why::Named(selector.to_owned()));
        }
    }
    if let Place::Line(path, n) = place
        && !any
    {
        return Err(format!(
            "`{}`: no example of {} is written on line {n}{}",
            shown(selector),
            shown(path),
            starts(path, targets)
        ));
    }
    Ok(())
}

/// `(its examples start at lines 9, 13, 17)`, the first few.
fn starts(path: &str, targets: &[Target]) -> String {
    let lines: Vec<String> = targets
        .iter()
        .filter(|t| t.document == path)
        .map(|t| t.line)
        .collect::<std::collections::BTreeSet<u32>>()
        .into_iter()
        .take(12)
        .map(|l| l.to_string())
        .collect();
    if lines.is_empty() {
        " (it has no item of its own)".to_owned()
    } else {
        format!(" (its items start at lines {})", lines.join(", "))
    }
}

/// The intersection of two selections: `a`'s reasons kept.
pub fn intersect(a: Picked, b: &Picked) -> Picked {
    a.into_iter().filter(|(i, _)| b.contains_key(i)).collect()
}

/// A selector, or part of it, as an error quotes it: cut and escaped.
fn shown(text: &str) -> String {
    terminal_line(&cut_to(text, QUOTED)).into_owned()
}

/// Every selector read and resolved, in turn; the first error stops.
pub fn select(
    selectors: &[String],
    analyses: &[Analysis],
    targets: &[Target],
) -> Result<Picked, String> {
    let paths: Vec<&str> = analyses.iter().map(|a| a.oath_path.as_str()).collect();
    let mut picked = BTreeMap::new();
    for s in selectors {
        let place = parse(s, &paths)?;
        resolve(s, &place, analyses, targets, &mut picked)?;
    }
    Ok(picked)
}
