//! Which discovered oaths a run reads and plans (spec 40 §7.2, §7.5).
//!
//! Discovery always sees every oath (pruning and the stale notices need the
//! full set), but a run of one item — `--exact <name>`, which is how
//! `cargo nextest run` starts every test process — only reads, parses and
//! plans the oath that item belongs to: every item name starts with its
//! `<oathPath>::`. A listing and a run that records the baseline still plan
//! everything, and `--ignored` selects nothing, since no item is ignored.
//!
//! Planning an oath also needs the headings and links of the oaths it
//! links to (spec 70 §70.2): the run reads every discovered oath (the run
//! of one example, those that may link and those they link to:
//! `cache/links.rs`) and the workspace parses those holding a link, but full
//! planning stays limited
//! to what [`Selection::oaths`] returns. A diagnostic written in a section
//! that other oaths link to arises only where it is referenced, so the item
//! of such a diagnostic also plans the oaths whose links reach its document.

use libtest_mimic::Arguments;

use varar_core::names::{ItemKind, ItemName};
use varar_core::workspace::Workspace;
use varar_project::discovery::OathFile;

/// What a run needs to plan.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Selection {
    /// Every discovered oath.
    All,
    /// Only the oaths an item of this exact name can belong to.
    Item(String),
    /// Nothing: `--ignored` runs only ignored items, and there are none.
    Nothing,
}

impl Selection {
    /// The selection of a run with these arguments. `needs_all` is set for
    /// runs that record the baseline, which must plan every oath.
    pub(crate) fn of(args: &Arguments, needs_all: bool) -> Selection {
        if needs_all {
            return Selection::All;
        }
        if args.ignored && !args.include_ignored {
            return Selection::Nothing;
        }
        match &args.filter {
            Some(name) if args.exact && !args.list => Selection::Item(name.clone()),
            _ => Selection::All,
        }
    }

    /// Whether this is the selection of one example (`--exact` its name:
    /// every `cargo nextest` test of an example), which the caches of
    /// `.varar/.cache/` serve.
    pub(crate) fn is_one_example(&self) -> bool {
        matches!(self, Selection::Item(name) if ItemName::parse(name).kind == ItemKind::Example)
    }

    /// The oaths to read and plan, in discovery order.
    ///
    /// For an item, that is every oath whose path followed by `::` starts its
    /// name (with or without the kind prefix): normally one, the longest
    /// such path being its own. Planning all of them, in discovery order,
    /// gives the item the very name (de-duplication counter included) it has
    /// in a full listing, because only those oaths' items can share a
    /// prefix with it.
    ///
    /// For the item of a plan diagnostic, the oaths whose links reach that
    /// item's oath are planned too (a diagnostic inside a referenced
    /// section is met only while planning them, spec 70 §70.6.6).
    pub(crate) fn oaths<'a>(
        &self,
        discovered: &'a [OathFile],
        workspace: &Workspace<'_>,
    ) -> Vec<&'a OathFile> {
        let mut reaching = std::collections::BTreeSet::new();
        if let Selection::Item(name) = self
            && ItemName::parse(name).kind == ItemKind::Diagnostic
        {
            for oath in discovered.iter().filter(|o| self.wants(&o.oath_path)) {
                reaching.extend(workspace.reaching(&oath.oath_path));
            }
        }
        discovered
            .iter()
            .filter(|o| self.wants(&o.oath_path) || reaching.contains(&o.oath_path))
            .collect()
    }

    /// Whether the items of the path `path` (an oath, or a path discovery
    /// could not read) may be selected.
    pub(crate) fn wants(&self, path: &str) -> bool {
        match self {
            Selection::All => true,
            Selection::Nothing => false,
            Selection::Item(name) => ItemName::name_belongs_to(name, path),
        }
    }
}

#[cfg(test)]
mod tests {
    use std::path::PathBuf;

    use super::*;

    fn oaths(paths: &[&str]) -> Vec<OathFile> {
        paths
            .iter()
            .map(|p| OathFile {
                oath_path: p.to_string(),
                path: PathBuf::from(p),
            })
            .collect()
    }

    fn args(list: &[&str]) -> Arguments {
        let mut argv = vec!["oaths"];
        argv.extend_from_slice(list);
        Arguments::from_iter(argv)
    }

    fn picked(selection: &Selection, discovered: &[OathFile]) -> Vec<String> {
        selection
            .oaths(discovered, &Workspace::empty())
            .into_iter()
            .map(|o| o.oath_path.clone())
            .collect()
    }

    #[test]
    fn an_exact_item_plans_only_its_oath() {
        let d = oaths(&["varar/a.md", "varar/a.md.md", "varar/b.md"]);
        for name in [
            "varar/a.md::Shop::I pay 2",
            "[varar] varar/a.md::Shop::I pay 2",
            "varar/a.md::varar:drift:12",
            "varar/a.md::varar:diagnostic:ambiguous-match:3",
            "varar/a.md::varar:read-error",
        ] {
            let s = Selection::of(&args(&["--exact", name]), false);
            assert_eq!(s, Selection::Item(name.to_string()));
            assert_eq!(picked(&s, &d), ["varar/a.md"], "{name}");
        }
        let s = Selection::Item("varar/zzz.md::x".into());
        assert!(picked(&s, &d).is_empty(), "an unknown item plans nothing");
    }

    #[test]
    fn oaths_whose_paths_prefix_each_other_are_planned_together() {
        // `a.md::x` is a legal file name; its items and those of `a.md` can
        // collide, so both are planned, in discovery order.
        let d = oaths(&["a.md", "a.md::x", "b.md"]);
        let s = Selection::Item("a.md::x::y".into());
        assert_eq!(picked(&s, &d), ["a.md", "a.md::x"]);
    }

    #[test]
    fn listing_recording_and_substring_filters_plan_everything() {
        let d = oaths(&["a.md", "b.md"]);
        for (argv, needs_all) in [
            (&["--list"][..], false),
            (&["--exact", "a.md::x", "--list"][..], false),
            (&["--exact", "a.md::x"][..], true),
            (&["a.md"][..], false),
            (&[][..], false),
        ] {
            let s = Selection::of(&args(argv), needs_all);
            assert_eq!(s, Selection::All, "{argv:?}");
            assert_eq!(picked(&s, &d).len(), 2);
        }
    }

    #[test]
    fn ignored_selects_nothing_but_include_ignored_everything() {
        let d = oaths(&["a.md"]);
        let s = Selection::of(&args(&["--ignored", "--list"]), false);
        assert_eq!(s, Selection::Nothing);
        assert!(picked(&s, &d).is_empty());
        let s = Selection::of(&args(&["--include-ignored"]), false);
        assert_eq!(s, Selection::All);
        // Recording under `VARAR_UPDATE` refreshes every oath.
        let s = Selection::of(&args(&["--ignored"]), true);
        assert_eq!(s, Selection::All);
    }
}
