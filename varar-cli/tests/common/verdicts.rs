//! Checks shared by the `gate` and `junit` tests: the gate's JSON output
//! against the committed schema, and JUnit XML against seed 003's profile.

use serde_json::Value;

use super::*;

/// `gate --format json`, validated against the committed schema, its
/// `exitCode` equal to the process's.
pub fn gate_json(p: &Project, extra: &[&str]) -> Value {
    let mut args = vec!["gate", "--format", "json"];
    args.extend_from_slice(extra);
    let out = p.run(&args);
    let value: Value = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("not JSON ({e}): {}", text(&out.stdout)));
    let schema_path = Path::new(env!("CARGO_MANIFEST_DIR")).join("schema/gate.schema.json");
    let schema: Value = serde_json::from_str(
        &std::fs::read_to_string(&schema_path).unwrap_or_else(|e| panic!("{e}")),
    )
    .unwrap_or_else(|e| panic!("{e}"));
    let validator = jsonschema::validator_for(&schema).unwrap_or_else(|e| panic!("{e}"));
    let errors: Vec<String> = validator
        .iter_errors(&value)
        .map(|e| e.to_string())
        .collect();
    assert!(errors.is_empty(), "{errors:?}\n{value:#}");
    assert_eq!(value["exitCode"].as_i64(), code(&out).map(i64::from));
    value
}

// ---- gate ------------------------------------------------------------------

/// Seed 003's common JUnit profile: which element may hold which, and
/// which attributes each result node may carry.
pub fn check_profile(xml: &str) {
    let doc = roxmltree::Document::parse(xml).unwrap_or_else(|e| panic!("{e}\n{xml}"));
    let root = doc.root_element();
    assert!(matches!(root.tag_name().name(), "testsuites" | "testsuite"));
    for node in root.descendants().filter(|n| n.is_element()) {
        let name = node.tag_name().name();
        assert_eq!(node.tag_name().namespace(), None, "namespaced {name}");
        let children: &[&str] = match name {
            "testsuites" => &["testsuite", "properties", "system-out", "system-err"],
            "testsuite" => &[
                "testsuite",
                "testcase",
                "properties",
                "system-out",
                "system-err",
            ],
            "testcase" => &[
                "failure",
                "error",
                "skipped",
                "properties",
                "system-out",
                "system-err",
            ],
            "properties" => &["property"],
            // Text only (a recovered case's note is in its system-out).
            "failure" | "error" | "skipped" | "system-out" | "system-err" | "property" => &[],
            other => panic!("element <{other}> is outside the profile"),
        };
        for child in node.children().filter(|c| c.is_element()) {
            let c = child.tag_name().name();
            assert!(children.contains(&c), "<{c}> inside <{name}>");
        }
        let allowed: &[&str] = match name {
            "testsuites" | "testsuite" => &[
                "name",
                "package",
                "id",
                "tests",
                "failures",
                "errors",
                "skipped",
                "disabled",
                "time",
                "timestamp",
                "hostname",
                "file",
                "assertions",
            ],
            "testcase" => &[
                "name",
                "classname",
                "time",
                "file",
                "line",
                "assertions",
                "timestamp",
            ],
            "properties" => &[],
            "property" => &["name", "value"],
            _ => &["message", "type"],
        };
        for attr in node.attributes() {
            assert!(
                allowed.contains(&attr.name()),
                "{name} has attribute {}",
                attr.name()
            );
        }
        if let Some(disabled) = node.attribute("disabled") {
            assert_eq!(disabled, "0");
        }
        if name == "testsuite" || name == "testsuites" {
            let cases: Vec<_> = node
                .descendants()
                .filter(|n| n.has_tag_name("testcase"))
                .collect();
            let failed = cases
                .iter()
                .filter(|c| c.children().any(|f| f.has_tag_name("failure")))
                .count();
            assert_eq!(
                node.attribute("tests"),
                Some(cases.len().to_string().as_str())
            );
            assert_eq!(
                node.attribute("failures"),
                Some(failed.to_string().as_str())
            );
        }
    }
    let mut seen = std::collections::BTreeSet::new();
    for case in root.descendants().filter(|n| n.has_tag_name("testcase")) {
        let id = (case.attribute("classname"), case.attribute("name"));
        assert!(seen.insert(id), "duplicate testcase {id:?}");
    }
}

/// Run `junit --out j.xml` over an existing `j.xml`: exit 2 with `code`
/// named on stderr, and `j.xml` untouched.
pub fn junit_refuses(p: &Project, code_name: &str) {
    p.write("j.xml", "previous\n");
    let out = p.run(&["junit", "--out", "j.xml"]);
    assert_eq!(code(&out), Some(2), "{}", text(&out.stderr));
    assert!(
        text(&out.stderr).contains(&format!("cargo varar: error[{code_name}]: ")),
        "{}",
        text(&out.stderr)
    );
    assert_eq!(p.read("j.xml"), "previous\n");
}
