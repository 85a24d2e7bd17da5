use super::*;

fn config(include: &[&str], exclude: &[&str]) -> Config {
    let mut c = Config::empty(PathBuf::from("varar.config.json"));
    c.docs_include = include.iter().map(|s| (*s).to_owned()).collect();
    c.docs_exclude = exclude.iter().map(|s| (*s).to_owned()).collect();
    c
}

fn globs(include: &[&str]) -> Globs {
    Globs::new(&config(include, &[])).unwrap_or_else(|e| panic!("{e}"))
}

/// The §2.2 translation table, written directly as a regex: the reference
/// the globset translation is checked against.
fn reference_regex(glob: &str) -> regex::Regex {
    let mut re = String::from("^");
    for tok in tokenize(glob) {
        match tok {
            Tok::SlashStarsSlash => re.push_str("/(?:.+/)?"),
            Tok::SlashStarsEnd => re.push_str("(?:/.*)?"),
            Tok::StarsSlash => re.push_str("(?:.*/)?"),
            Tok::Stars => re.push_str(".*"),
            Tok::Star => re.push_str("[^/]*"),
            Tok::Quest => re.push_str("[^/]"),
            Tok::Lit(c) => re.push_str(&regex::escape(&c.to_string())),
        }
    }
    re.push('$');
    regex::Regex::new(&re).unwrap_or_else(|e| panic!("{e}"))
}

/// Every row of the consequences table of spec 40 §2.2.
#[test]
fn spec_table_rows() {
    let rows: &[(&str, &[&str], &[&str])] = &[
        (
            "varar/**/*.md",
            &[
                "varar/a.md",
                "varar/x/y/a.md",
                "varar/.hidden.md",
                "varar/.d/a.md",
            ],
            &["a.md", "varar/a.md.json", "varar/x/a.MD"],
        ),
        (
            "**/*.md",
            &["a.md", "x/a.md", ".git/x.md", "target/doc/a.md"],
            &[".varar/varar/a.md.json"],
        ),
        ("*.md", &["a.md", ".a.md"], &["x/a.md"]),
        (
            "varar/drafts/**",
            &["varar/drafts/a.md", "varar/drafts/x/y.md"],
            &["varar/draftsx/a.md"],
        ),
        ("docs/?.md", &["docs/a.md"], &["docs/ab.md"]),
        (
            "docs/{a,b}.md",
            &["docs/{a,b}.md"],
            &["docs/a.md", "docs/b.md"],
        ),
        ("./varar/*.md", &[], &["varar/a.md"]),
    ];
    for (glob, yes, no) in rows {
        let g = globs(&[glob]);
        for p in *yes {
            assert!(g.is_match(p), "{glob} should match {p}");
        }
        for p in *no {
            assert!(!g.is_match(p), "{glob} should not match {p}");
        }
    }
}

/// Every row of the translation table, plus literal brackets, backslashes
/// and the forms globset reads differently, against the reference regex.
#[test]
fn globset_translation_equals_the_reference_regex() {
    let globs = [
        "a/**/b",
        "a/**",
        "**/a",
        "**",
        "a**b",
        "a**",
        "**a",
        "x**/y",
        "a/**b",
        "a**/",
        "*",
        "?",
        "a?c",
        "*.md",
        "a/*/c",
        "***",
        "a/***/b",
        "**/**",
        "a/**/**/b",
        "**/*/**",
        "[ab].md",
        "[!a]",
        "a]b",
        "{a,b}",
        "a\\b",
        "a\\*b",
        "é/*.md",
        "a//b",
        "/a",
        "a/",
        "varar/drafts/**",
        "x/**/",
        "a,b",
        "!a",
    ];
    let paths = [
        "",
        "a",
        "b",
        "ab",
        "ac",
        "abc",
        "a/b",
        "a/c",
        "a/x/b",
        "a/x/y/b",
        "x/a",
        "x/y/a",
        "ax/b",
        "a/xb",
        "xb",
        "x/y",
        "xa/y",
        "x/z/y",
        "xy",
        "a.md",
        ".a.md",
        "x/a.md",
        "a/",
        "a/b/c",
        "[ab].md",
        "a.md.json",
        "a]b",
        "{a,b}",
        "a\\b",
        "a\\xb",
        "é/x.md",
        "a//b",
        "/a",
        "varar/drafts",
        "varar/drafts/a.md",
        "varar/draftsx",
        "x",
        "x/",
        "x/q",
        "a,b",
        "!a",
        "b.md",
        "a/b/",
        "a/x/y/b/c",
        "q/a",
        "q/r/a.b",
    ];
    // oathPaths never have empty segments (`a//b`, `/a`, `a/`); there
    // globset's `/**/` (`/` or `/.*/`) and §2.2's `/(?:.+/)?` may differ.
    let paths = paths
        .iter()
        .filter(|p| !p.is_empty() && !p.split('/').any(str::is_empty));
    for glob in globs {
        let g = Globs::new(&config(&[glob], &[])).unwrap_or_else(|e| panic!("{glob}: {e}"));
        let re = reference_regex(glob);
        for path in paths.clone() {
            assert_eq!(
                g.is_match(path),
                re.is_match(path),
                "glob {glob:?} path {path:?} (globset {:?})",
                translate(glob)
            );
        }
    }
}

#[test]
fn tokenizer_applies_the_first_rule_that_fits() {
    use Tok::*;
    assert_eq!(tokenize("a/**/b"), [Lit('a'), SlashStarsSlash, Lit('b')]);
    assert_eq!(tokenize("a/**"), [Lit('a'), SlashStarsEnd]);
    assert_eq!(tokenize("a/**b"), [Lit('a'), Lit('/'), Stars, Lit('b')]);
    assert_eq!(tokenize("**/a"), [StarsSlash, Lit('a')]);
    assert_eq!(tokenize("***"), [Stars, Star]);
    assert_eq!(tokenize("?*"), [Quest, Star]);
}

#[test]
fn excludes_remove_matches() {
    let g = Globs::new(&config(&["varar/**/*.md"], &["varar/drafts/**"]))
        .unwrap_or_else(|e| panic!("{e}"));
    assert!(g.is_match("varar/a.md"));
    assert!(!g.is_match("varar/drafts/a.md"));
}

#[test]
fn segment_wise_order() {
    let mut v = vec![
        "varar/a.md",
        "varar/a-b.md",
        "varar/a/b.md",
        "b",
        "a/z",
        "a",
    ];
    v.sort_by(|a, b| cmp_oath_paths(a, b));
    assert_eq!(
        v,
        [
            "a",
            "a/z",
            "b",
            "varar/a/b.md",
            "varar/a-b.md",
            "varar/a.md"
        ]
    );
}

#[test]
fn literal_dirs_only_use_plain_leading_directories() {
    assert_eq!(
        literal_dirs("varar/**/*.md"),
        Some(vec!["varar".to_owned()])
    );
    assert_eq!(
        literal_dirs("a/b/c.md"),
        Some(vec!["a".to_owned(), "b".to_owned()])
    );
    assert_eq!(literal_dirs("*.md"), None);
    assert_eq!(literal_dirs("**/x/*.md"), None);
    assert_eq!(literal_dirs("x**/y.md"), None);
}

#[test]
fn the_entries_towards_oaths_are_the_next_literal_directory_of_each_include_glob() {
    let mut config = Config::empty(PathBuf::from("varar.config.json"));
    config.docs_include = ["varar/docs/**/*.md", "varar/api/*.md", "guides/x.md"]
        .map(str::to_owned)
        .to_vec();
    let towards = |dir: &str| entries_towards_oaths(&config, dir);
    let names = |n: &[&str]| Some(n.iter().map(|s| (*s).to_owned()).collect::<Vec<_>>());
    assert_eq!(towards(""), names(&["guides", "varar"]));
    assert_eq!(towards("varar"), names(&["api", "docs"]));
    // The prefix itself, and below it: any entry.
    assert_eq!(towards("varar/docs"), None);
    assert_eq!(towards("varar/docs/deep"), None);
    assert_eq!(towards("guides"), None);
    // Off every prefix: no entry (the walk never lists it).
    assert_eq!(towards("other"), names(&[]));
    assert_eq!(towards("varar/other"), names(&[]));
    // A glob without a literal leading directory: any entry, anywhere.
    config.docs_include.push("*.md".to_owned());
    assert_eq!(entries_towards_oaths(&config, ""), None);
    assert_eq!(entries_towards_oaths(&config, "varar"), None);
}

fn write(root: &Path, rel: &str, text: &str) {
    let path = root.join(rel);
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent).unwrap_or_else(|e| panic!("{e}"));
    }
    std::fs::write(path, text).unwrap_or_else(|e| panic!("{e}"));
}

fn found(root: &Path, include: &[&str], exclude: &[&str]) -> Vec<String> {
    discover(root, &config(include, exclude))
        .unwrap_or_else(|e| panic!("{e}"))
        .into_iter()
        .map(|o| o.oath_path)
        .collect()
}

#[test]
fn discovers_in_order_with_excludes_and_nothing_implicit() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let root = dir.path();
    for rel in [
        "varar/a.md",
        "varar/a-b.md",
        "varar/a/b.md",
        "target/doc/x.md",
        ".git/x.md",
        "varar/drafts/d.md",
        "README.txt",
    ] {
        write(root, rel, "x");
    }
    assert_eq!(
        found(root, &["**/*.md"], &["varar/drafts/**"]),
        [
            ".git/x.md",
            "target/doc/x.md",
            "varar/a/b.md",
            "varar/a-b.md",
            "varar/a.md"
        ]
    );
    assert_eq!(
        found(root, &["varar/**/*.md"], &[]),
        [
            "varar/a/b.md",
            "varar/a-b.md",
            "varar/drafts/d.md",
            "varar/a.md"
        ]
        .iter()
        .copied()
        .map(String::from)
        .collect::<Vec<_>>()
        .tap_sort()
    );
    assert!(found(root, &[], &[]).is_empty());
}

trait TapSort {
    fn tap_sort(self) -> Self;
}
impl TapSort for Vec<String> {
    fn tap_sort(mut self) -> Self {
        self.sort_by(|a, b| cmp_oath_paths(a, b));
        self
    }
}

#[cfg(unix)]
#[test]
fn symlinks_are_followed_named_by_the_link_and_cycles_do_not_hang() {
    use std::os::unix::fs::symlink;
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let root = dir.path();
    write(root, "shared/deep.md", "x");
    std::fs::create_dir_all(root.join("varar")).unwrap_or_else(|e| panic!("{e}"));
    symlink(root.join("shared/deep.md"), root.join("varar/linked.md"))
        .unwrap_or_else(|e| panic!("{e}"));
    symlink(root.join("shared"), root.join("varar/dir")).unwrap_or_else(|e| panic!("{e}"));
    // A cycle: varar/loop -> varar, and a dangling link.
    symlink(root.join("varar"), root.join("varar/loop")).unwrap_or_else(|e| panic!("{e}"));
    symlink(root.join("nowhere.md"), root.join("varar/dangling.md"))
        .unwrap_or_else(|e| panic!("{e}"));
    let oaths = discover(root, &config(&["varar/**/*.md"], &[])).unwrap_or_else(|e| panic!("{e}"));
    let paths: Vec<&str> = oaths.iter().map(|o| o.oath_path.as_str()).collect();
    assert_eq!(paths, ["varar/dir/deep.md", "varar/linked.md"]);
    assert_eq!(oaths[1].path, root.join("varar/linked.md"));
    assert_eq!(read_oath(&oaths[1]).ok().as_deref(), Some("x"));
}

#[test]
fn skipping_subtrees_does_not_change_results() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let root = dir.path();
    for rel in [
        "varar/drafts",
        "varar/drafts/a.md",
        "other/varar/a.md",
        "a.md",
        "varar/x/y/z.md",
    ] {
        if rel == "varar/drafts" {
            continue;
        }
        write(root, rel, "x");
    }
    let g = globs(&["varar/drafts/**", "varar/x/*.md"]);
    assert!(g.may_contain_matches("varar"));
    assert!(g.may_contain_matches("varar/drafts/deeper"));
    assert!(!g.may_contain_matches("other"));
    assert!(!g.may_contain_matches("varar/y"));
    assert!(globs(&["a/b.md", "*.md"]).may_contain_matches("other"));
    assert_eq!(
        found(root, &["varar/drafts/**", "*.md"], &[]),
        ["a.md", "varar/drafts/a.md"]
    );
    assert_eq!(found(root, &["varar/x/**/*.md"], &[]), ["varar/x/y/z.md"]);
}

#[test]
fn reading_keeps_bom_and_cr_and_reports_bad_files_by_name() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let root = dir.path();
    write(root, "ok.md", "\u{feff}# T\r\n");
    std::fs::write(root.join("bad.md"), b"ab\xffcd").unwrap_or_else(|e| panic!("{e}"));
    let oath = |p: &str| OathFile {
        oath_path: p.to_owned(),
        path: root.join(p),
    };
    assert_eq!(
        read_oath(&oath("ok.md")).ok().as_deref(),
        Some("\u{feff}# T\r\n")
    );
    let bad = read_oath(&oath("bad.md")).err().map(|e| e.to_string());
    assert_eq!(
        bad.as_deref(),
        Some("cannot read `bad.md`: invalid UTF-8 at line 1, column 3 (byte 2)")
    );
    let missing = read_oath(&oath("gone.md"));
    assert!(matches!(missing, Err(DiscoveryError::Read { .. })));
    assert!(
        missing
            .err()
            .map(|e| e.to_string())
            .unwrap_or_default()
            .starts_with("cannot read `gone.md`: ")
    );
}

#[test]
fn every_string_is_a_valid_glob() {
    // Empty strings are legal config values; brackets and braces are literal,
    // so nothing can be unbalanced.
    for glob in [
        "", "[", "]", "{", "}", "[!", "{a,", "\\", "a[b-", "***/**", "/", "//",
    ] {
        let g = Globs::new(&config(&[glob], &[glob])).unwrap_or_else(|e| panic!("{glob:?}: {e}"));
        assert!(!g.is_match("a.md"), "{glob:?}");
    }
    assert!(globs(&["["]).is_match("["));
    assert!(globs(&["a[b-"]).is_match("a[b-"));
}

#[test]
fn too_many_in_segment_stars_are_an_error_naming_the_config() {
    let glob = "a**b**c**d**e**f**g**";
    let err = Globs::new(&config(&[glob], &[]))
        .err()
        .map(|e| e.to_string())
        .unwrap_or_default();
    assert!(
        err.starts_with("varar.config.json: glob") && err.contains(glob),
        "{err}"
    );
}

#[test]
fn issue10_6_a_non_utf8_oath_is_reported_at_line_and_column() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let mut bytes = "# Tï\r\n\n😀x".as_bytes().to_vec();
    bytes.push(0xff);
    std::fs::write(dir.path().join("bad.md"), &bytes).unwrap_or_else(|e| panic!("{e}"));
    let oath = OathFile {
        oath_path: "varar/bad.md".to_owned(),
        path: dir.path().join("bad.md"),
    };
    // Line 3; the column counts UTF-16 units, as every column does: 😀 is 2.
    assert_eq!(
        read_oath(&oath).err().map(|e| e.to_string()).as_deref(),
        Some("cannot read `varar/bad.md`: invalid UTF-8 at line 3, column 4 (byte 13)")
    );
}

#[cfg(unix)]
#[test]
fn issue10_6_unreadable_paths_are_reported_and_the_rest_is_found() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let root = dir.path();
    write(root, "varar/a.md", "a");
    write(root, "varar/z.md", "z");
    // A link to itself can never be read; a link to an ancestor is a cycle
    // whose target is walked anyway.
    std::os::unix::fs::symlink("loop.md", root.join("varar/loop.md"))
        .unwrap_or_else(|e| panic!("{e}"));
    std::os::unix::fs::symlink("..", root.join("varar/up")).unwrap_or_else(|e| panic!("{e}"));
    // Outside what the globs can match: not reported.
    std::fs::create_dir_all(root.join("other")).unwrap_or_else(|e| panic!("{e}"));
    std::os::unix::fs::symlink("self", root.join("other/self")).unwrap_or_else(|e| panic!("{e}"));
    let found =
        discover_all(root, &config(&["varar/**/*.md"], &[])).unwrap_or_else(|e| panic!("{e}"));
    let oaths: Vec<&str> = found.oaths.iter().map(|o| o.oath_path.as_str()).collect();
    assert_eq!(oaths, ["varar/a.md", "varar/z.md"]);
    let unreadable: Vec<(&str, String)> = found
        .unreadable
        .iter()
        .map(|(p, e)| (p.as_str(), e.to_string()))
        .collect();
    assert_eq!(unreadable.len(), 1, "{unreadable:?}");
    assert_eq!(unreadable[0].0, "varar/loop.md");
    assert!(
        unreadable[0].1.contains("varar/loop.md") && unreadable[0].1.contains("symbolic links"),
        "{unreadable:?}"
    );
    // The all-or-nothing form refuses the tree.
    assert!(discover(root, &config(&["varar/**/*.md"], &[])).is_err());
}

#[test]
fn issue34_globs_that_make_too_many_patterns_are_refused_naming_the_key_and_the_limit() {
    // `**` inside a segment, five times: 32 patterns a glob.
    let hairy: Vec<String> = (0..MAX_PATTERNS / 32 + 1)
        .map(|i| format!("d{i}**a**b**c**d**e.md"))
        .collect();
    let hairy: Vec<&str> = hairy.iter().map(String::as_str).collect();
    let err = Globs::new(&config(&["varar/**/*.md"], &hairy))
        .err()
        .map(|e| e.to_string())
        .unwrap_or_default();
    assert_eq!(
        err,
        format!(
            "varar.config.json: \"docs.exclude\" makes {} glob patterns (each `**` inside a path \
             segment doubles a glob's); at most {MAX_PATTERNS} are compiled",
            (MAX_PATTERNS / 32 + 1) * 32
        )
    );
    assert!(Globs::new(&config(&hairy[..MAX_PATTERNS / 32], &[])).is_ok());
}
