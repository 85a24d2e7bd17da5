use super::*;

const P: &str = "proj/varar.config.json";

fn parse(text: &str) -> Result<Config, ConfigError> {
    parse_config(Path::new(P), text.as_bytes())
}

fn error(bytes: &[u8]) -> String {
    match parse_config(Path::new(P), bytes) {
        Err(e) => e.to_string(),
        Ok(c) => panic!("{:?} loaded as {c:?}", String::from_utf8_lossy(bytes)),
    }
}

#[test]
fn errors_follow_the_validation_order_and_name_the_file() {
    let cases: &[(&[u8], &str)] = &[
        (
            b"",
            "proj/varar.config.json: invalid JSON: EOF while parsing a value at line 1 column 0",
        ),
        (
            b"{ \"docs\": ",
            "proj/varar.config.json: invalid JSON: EOF while parsing a value at line 1 column 10",
        ),
        (
            b"\xef\xbb\xbf{}",
            "proj/varar.config.json: invalid JSON: the file starts with a byte order mark",
        ),
        (
            b"{\"a\": \"\xff\"}",
            "proj/varar.config.json: invalid JSON: not valid UTF-8",
        ),
        (b"[]", "proj/varar.config.json: top level must be an object"),
        (
            b"null",
            "proj/varar.config.json: top level must be an object",
        ),
        (
            b"\"x\"",
            "proj/varar.config.json: top level must be an object",
        ),
        // The first unknown key in document order, before any type check.
        (
            br#"{"steps": 1, "zeta": 1, "alpha": 2}"#,
            "proj/varar.config.json: unknown key \"zeta\" (known keys: docs, steps, snippets)",
        ),
        (
            br#"{"vars": {"include": ["**/*.md"]}}"#,
            "proj/varar.config.json: unknown key \"vars\"",
        ),
        (
            br#"{"docs": ["**/*.md"]}"#,
            "proj/varar.config.json: \"docs\" must be an object",
        ),
        (
            br#"{"docs": {"include": 1, "exclue": [], "x": 1}}"#,
            "proj/varar.config.json: unknown key \"docs.exclue\" (known: include, exclude)",
        ),
        (
            br#"{"docs": {"include": "a", "exclude": 1}}"#,
            "proj/varar.config.json: \"docs.include\" must be an array of strings",
        ),
        (
            br#"{"docs": {"include": ["a", null]}}"#,
            "proj/varar.config.json: \"docs.include\" must be an array of strings",
        ),
        (
            br#"{"docs": {"exclude": [1]}}"#,
            "proj/varar.config.json: \"docs.exclude\" must be an array of strings",
        ),
        (
            br#"{"steps": 1, "snippets": {"rust": 1}}"#,
            "proj/varar.config.json: \"snippets\" must be an object of strings",
        ),
        (
            br#"{"snippets": ["x"]}"#,
            "proj/varar.config.json: \"snippets\" must be an object of strings",
        ),
        (
            br#"{"steps": "not-an-array"}"#,
            "proj/varar.config.json: \"steps\" must be an array of strings",
        ),
        (
            br#"{"steps": [null]}"#,
            "proj/varar.config.json: \"steps\" must be an array of strings",
        ),
    ];
    for (bytes, want) in cases {
        let got = error(bytes);
        assert!(
            got.starts_with(want),
            "{:?}:\n got  {got}\n want {want}",
            String::from_utf8_lossy(bytes)
        );
    }
}

#[test]
fn distinct_variants_for_bom_utf8_and_json() {
    assert!(matches!(
        parse_config(Path::new(P), b"\xef\xbb\xbf{}"),
        Err(ConfigError::Bom { .. })
    ));
    assert!(matches!(
        parse_config(Path::new(P), b"\xff"),
        Err(ConfigError::NotUtf8 { .. })
    ));
    assert!(matches!(
        parse_config(Path::new(P), b"{,}"),
        Err(ConfigError::InvalidJson { .. })
    ));
}

#[test]
fn nulls_defaults_schema_order_duplicates_and_empty_strings() {
    let c = parse(
        r#"{"$schema": 42, "docs": {"include": ["b", "a", "b", ""], "exclude": null},
            "steps": null, "snippets": {"z": "1", "a": "2", "z": "3"}}"#,
    )
    .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(c.docs_include, ["b", "a", "b", ""]);
    assert!(c.docs_exclude.is_empty() && c.steps.is_empty());
    assert_eq!(c.snippets.get("z").map(String::as_str), Some("3"));
    assert!(!c.missing);
    assert_eq!(c.path, Path::new(P));
}

#[test]
fn a_duplicate_key_keeps_its_first_position_and_last_value() {
    // The second "docs" is valid, so the object is valid.
    let c = parse(r#"{"docs": 1, "docs": {"include": ["x"]}}"#).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(c.docs_include, ["x"]);
}

#[test]
fn canonical_json_of_the_empty_config() {
    assert_eq!(
        Config::empty(PathBuf::from(P)).to_canonical_json(),
        "{\n  \"docs\": {\n    \"exclude\": [],\n    \"include\": []\n  },\n  \"snippets\": {},\n  \"steps\": []\n}\n"
    );
}

#[test]
fn canonical_json_sorts_keys_by_utf16_and_escapes() {
    let c =
        parse(r#"{"docs": {"include": ["a\"b"]}, "snippets": {"😀": "x", "｡": "y", "b": "\n"}}"#)
            .unwrap_or_else(|e| panic!("{e}"));
    let text = c.to_canonical_json();
    assert!(
        text.contains("\"include\": [\n      \"a\\\"b\"\n    ]"),
        "{text}"
    );
    let b = text.find("\"b\"").unwrap_or(usize::MAX);
    let emoji = text.find('😀').unwrap_or(usize::MAX);
    let halfwidth = text.find('｡').unwrap_or(usize::MAX);
    assert!(b < emoji && emoji < halfwidth, "{text}");
    assert!(text.contains("\"b\": \"\\n\""));
}

#[test]
fn a_key_written_twice_keeps_its_first_place_and_its_last_value() {
    let c = parse_config(
        Path::new("varar.config.json"),
        br#"{"docs": {"include": ["a"], "include": ["b"]}, "steps": 1, "steps": ["s"]}"#,
    )
    .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(c.docs_include, ["b"]);
    assert_eq!(c.steps, ["s"]);
    let unknown = parse_config(
        Path::new("c.json"),
        br#"{"zz": 1, "docs": {}, "zz": 2, "aa": 3}"#,
    )
    .err()
    .map(|e| e.to_string());
    assert_eq!(
        unknown.as_deref(),
        Some("c.json: unknown key \"zz\" (known keys: docs, steps, snippets)")
    );
}

#[test]
fn update_mode_is_a_closed_set() {
    use std::ffi::OsString;
    let on = [Some("1"), Some("true")];
    let off = [None, Some(""), Some("0"), Some("false")];
    for v in on {
        assert_eq!(
            parse_update_mode(v.map(OsStr::new)).ok(),
            Some(UpdateMode::Update),
            "{v:?}"
        );
    }
    for v in off {
        assert_eq!(
            parse_update_mode(v.map(OsStr::new)).ok(),
            Some(UpdateMode::Off),
            "{v:?}"
        );
    }
    for v in ["TRUE", "yes", "2", " 1", "True"] {
        let err = parse_update_mode(Some(OsStr::new(v)))
            .err()
            .map(|e| e.to_string());
        assert!(err.is_some_and(|e| e.contains(&format!("\"{v}\""))), "{v}");
    }
    #[cfg(unix)]
    {
        use std::os::unix::ffi::OsStringExt;
        let bad = OsString::from_vec(vec![0xff]);
        assert!(parse_update_mode(Some(&bad)).is_err());
    }
}

#[test]
fn issue34_a_key_written_twice_is_warned_about_with_its_line() {
    // The second `docs` selects nothing: the config is valid, finds no
    // oath, and says why.
    let c = parse("{\n  \"docs\": {\"include\": [\"varar/**/*.md\"]},\n  \"docs\": {}\n}\n")
        .unwrap_or_else(|e| panic!("{e}"));
    assert!(c.docs_include.is_empty(), "last wins");
    let shown: Vec<String> = c.warnings.iter().map(ToString::to_string).collect();
    assert_eq!(
        shown,
        [
            "proj/varar.config.json:3:3: the key \"docs\" is written twice (first at line 2, \
             column 3); the last value is used, as JSON.parse does"
        ]
    );
    let ConfigWarning::DuplicateKey { duplicate, .. } = &c.warnings[0] else {
        panic!("{:?}", c.warnings);
    };
    assert_eq!(
        (duplicate.at.as_str(), duplicate.key.as_str()),
        (json::TOP, "docs")
    );
    let clean = parse(r#"{"docs": {"include": ["a"]}}"#).unwrap_or_else(|e| panic!("{e}"));
    assert!(clean.warnings.is_empty());
}

#[test]
fn issue34_a_key_written_with_control_characters_is_shown_escaped() {
    let c = parse("{\"snippets\": {\"\\u001b[31m\\u202e\": \"a\", \"\\u001b[31m\\u202e\": \"b\"}}")
        .unwrap_or_else(|e| panic!("{e}"));
    let shown = c.warnings[0].to_string();
    assert!(
        shown.contains(r#"the key "snippets.\u{1b}[31m\u{202e}" is written twice"#),
        "{shown}"
    );
    assert!(!shown.contains(['\u{1b}', '\u{202e}']), "{shown}");
}

#[test]
fn issue34_a_huge_key_written_twice_is_cut_in_the_warning() {
    let key = "k".repeat(crate::untrusted::TEXT_LIMIT * 3);
    let c = parse(&format!(
        "{{\"snippets\": {{\"{key}\": \"a\", \"{key}\": \"b\"}}}}"
    ))
    .unwrap_or_else(|e| panic!("{e}"));
    let shown = c.warnings[0].to_string();
    assert!(
        shown.len() < 2 * crate::untrusted::TEXT_LIMIT,
        "{}",
        shown.len()
    );
    assert!(
        shown.contains("bytes cut]"),
        "{}",
        &shown[shown.len() - 200..]
    );
    assert!(shown.ends_with("the last value is used, as JSON.parse does"));
}

#[test]
fn issue34_thousands_of_keys_written_twice_are_warned_about_twenty_at_most() {
    let members: Vec<String> = (0..5000).map(|_| "\"steps\": []".to_owned()).collect();
    let c = parse(&format!("{{{}}}", members.join(", "))).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(c.warnings.len(), MAX_DUPLICATE_WARNINGS + 1);
    assert_eq!(
        c.warnings[MAX_DUPLICATE_WARNINGS].to_string(),
        format!(
            "proj/varar.config.json: {} more keys are written twice; the last value of each is used",
            4999 - MAX_DUPLICATE_WARNINGS
        )
    );
}

#[test]
fn issue34_more_globs_than_the_limit_are_refused_naming_the_key_and_the_limit() {
    let list = |n: usize| {
        let globs: Vec<String> = (0..n).map(|i| format!("\"d{i}/*.md\"")).collect();
        format!("[{}]", globs.join(","))
    };
    let at_limit = parse(&format!(
        r#"{{"docs": {{"include": {}}}}}"#,
        list(MAX_GLOBS)
    ))
    .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(at_limit.docs_include.len(), MAX_GLOBS);
    for key in ["include", "exclude"] {
        let text = format!(r#"{{"docs": {{"{key}": {}}}}}"#, list(MAX_GLOBS + 1));
        assert_eq!(
            error(text.as_bytes()),
            format!(
                "proj/varar.config.json: \"docs.{key}\" holds 1001 globs; at most 1000 are accepted"
            )
        );
    }
}

#[test]
fn issue34_a_glob_longer_than_the_limit_is_refused_naming_the_key_and_the_limit() {
    let long = "a".repeat(MAX_GLOB_BYTES + 1);
    let ok = "a".repeat(MAX_GLOB_BYTES);
    assert!(parse(&format!(r#"{{"docs": {{"exclude": ["{ok}"]}}}}"#)).is_ok());
    assert_eq!(
        error(format!(r#"{{"docs": {{"exclude": ["x", "{long}"]}}}}"#).as_bytes()),
        "proj/varar.config.json: \"docs.exclude\" holds a glob of 4097 bytes; at most 4096 are accepted"
    );
}
