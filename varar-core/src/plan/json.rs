//! The `plan.json` projection (spec 20 §20.11): absent keys are omitted,
//! never `null`; row bindings, inner spans, values and roles stay out.

use serde_json::{Map, Value, json};

use super::model::{Diagnostic, Expectation, Plan, PlannedExample, PlannedStep};
use crate::doc::Attachment;
use crate::source::Span;

impl Plan {
    /// The `plan.json` conformance artifact. Keys come out sorted (serde_json
    /// maps are ordered by key), as the golden layout wants.
    pub fn to_json(&self) -> Value {
        json!({
            "diagnostics": self.diagnostics.iter().map(diagnostic).collect::<Vec<_>>(),
            "examples": self.examples.iter().map(example).collect::<Vec<_>>(),
        })
    }
}

fn span(s: &Span) -> Value {
    // Span's own Serialize writes exactly the six camelCase fields.
    serde_json::to_value(s).unwrap_or(Value::Null)
}

fn diagnostic(d: &Diagnostic) -> Value {
    json!({
        "code": d.code.as_str(),
        "severity": "error",
        "span": span(&d.span),
    })
}

fn example(e: &PlannedExample) -> Value {
    let mut m = Map::new();
    m.insert("name".into(), Value::from(e.name.clone()));
    m.insert("scopeStack".into(), json!(e.scope_stack));
    m.insert("span".into(), span(&e.span));
    let outcome = match &e.expected {
        Expectation::Pass => "pass",
        Expectation::Fail { message } => {
            if let Some(msg) = message.as_deref().filter(|m| !m.is_empty()) {
                m.insert("expectedErrorMessage".into(), Value::from(msg));
            }
            "fail"
        }
    };
    m.insert("expectedOutcome".into(), Value::from(outcome));
    m.insert(
        "steps".into(),
        Value::Array(e.steps.iter().map(step).collect()),
    );
    Value::Object(m)
}

fn step(s: &PlannedStep) -> Value {
    let mut m = Map::new();
    m.insert("text".into(), Value::from(&*s.text));
    m.insert("matchSpan".into(), span(&s.match_span));
    m.insert(
        "paramSpans".into(),
        Value::Array(s.param_spans.iter().map(span).collect()),
    );
    m.insert(
        "matchedExpression".into(),
        Value::from(&*s.matched_expression),
    );
    m.insert(
        "args".into(),
        Value::Array(
            s.args
                .iter()
                .map(|a| json!({"value": &*a.raw, "parameterType": &*a.parameter_type}))
                .collect(),
        ),
    );
    if let Some(table) = &s.data_table {
        // The section 10 table shape, `kind` included.
        let table = serde_json::to_value(Attachment::Table(crate::doc::Table::clone(table)))
            .unwrap_or(Value::Null);
        m.insert("dataTable".into(), table);
    }
    // Only a step spliced in from another document (spec 70 §70.3.6).
    if let Some(path) = &s.doc_path {
        m.insert("docPath".into(), Value::from(path.clone()));
    }
    if let Some(doc) = &s.doc_string {
        m.insert(
            "docString".into(),
            json!({
                "content": doc.content,
                "contentType": doc.content_type,
                "span": span(&doc.span),
            }),
        );
    }
    Value::Object(m)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::doc::{Table, TableRow};
    use crate::plan::model::{
        DiagnosticCode, PlannedArg, PlannedDocString, PlannedExample, PlannedStep,
    };
    use varar_expression::ArgValue;

    fn sp(a: u32, b: u32) -> Span {
        Span {
            start_offset: a,
            end_offset: b,
            start_line: 1,
            start_col: a + 1,
            end_line: 1,
            end_col: b + 1,
        }
    }

    fn step() -> PlannedStep {
        PlannedStep {
            text: "I greet \"world\"".into(),
            match_span: sp(0, 15),
            param_spans: vec![sp(8, 15)],
            inner_spans: vec![sp(9, 14)],
            step: 0,
            matched_expression: "I greet {string}".into(),
            args: vec![PlannedArg {
                raw: "\"world\"".into(),
                parameter_type: "string".into(),
                value: ArgValue::Text("world".into()).into(),
            }],
            data_table: None,
            doc_string: None,
            doc_path: None,
        }
    }

    fn example(expected: Expectation, s: PlannedStep) -> PlannedExample {
        PlannedExample {
            name: "n".into(),
            scope_stack: vec!["H".into()].into(),
            span: sp(0, 16),
            expected,
            steps: vec![s],
            row: None,
            unmatched: Vec::new(),
        }
    }

    #[test]
    fn plain_step_omits_optional_keys() {
        let plan = Plan {
            notices: Vec::new(),
            examples: vec![example(Expectation::Pass, step())],
            diagnostics: vec![],
        };
        let v = plan.to_json();
        let e = &v["examples"][0];
        assert_eq!(e["expectedOutcome"], "pass");
        assert!(e.get("expectedErrorMessage").is_none());
        let s = &e["steps"][0];
        let mut keys: Vec<&str> = s.as_object().unwrap().keys().map(String::as_str).collect();
        keys.sort_unstable();
        assert_eq!(
            keys,
            [
                "args",
                "matchSpan",
                "matchedExpression",
                "paramSpans",
                "text"
            ]
        );
        assert!(s.get("docPath").is_none());
        assert_eq!(
            s["args"],
            json!([{"value": "\"world\"", "parameterType": "string"}])
        );
        assert_eq!(s["paramSpans"][0]["startOffset"], 8);
        assert_eq!(s["paramSpans"][0]["endCol"], 16);
    }

    #[test]
    fn expected_message_only_when_present_and_non_empty() {
        let cases = [(Some("boom"), Some("boom")), (Some(""), None), (None, None)];
        for (message, want) in cases {
            let plan = Plan {
                notices: Vec::new(),
                examples: vec![example(
                    Expectation::Fail {
                        message: message.map(str::to_string),
                    },
                    step(),
                )],
                diagnostics: vec![],
            };
            let v = plan.to_json();
            assert_eq!(v["examples"][0]["expectedOutcome"], "fail");
            assert_eq!(
                v["examples"][0]
                    .get("expectedErrorMessage")
                    .and_then(Value::as_str),
                want
            );
        }
    }

    #[test]
    fn attachments_and_diagnostics_are_serialised() {
        let mut s = step();
        let row = TableRow {
            cells: vec!["a".into()],
            cell_spans: vec![sp(20, 21)],
            span: sp(18, 23),
        };
        s.data_table = Some(Box::new(Table {
            span: sp(18, 23),
            header: row.clone(),
            rows: vec![],
        }));
        s.doc_string = Some(Box::new(PlannedDocString {
            content: "hello\n".into(),
            content_type: "".into(),
            span: sp(30, 36),
            fence_line: 1,
            closed: true,
        }));
        let plan = Plan {
            notices: Vec::new(),
            examples: vec![example(Expectation::Pass, s)],
            diagnostics: vec![Diagnostic {
                code: DiagnosticCode::ErrorFenceWithoutStep,
                span: sp(37, 54),
                message: "not serialised".into(),
                doc_path: Some("varar/other.md".into()),
            }],
        };
        let v = plan.to_json();
        let s = &v["examples"][0]["steps"][0];
        assert_eq!(s["dataTable"]["kind"], "table");
        assert_eq!(s["dataTable"]["header"]["cells"], json!(["a"]));
        assert_eq!(s["dataTable"]["rows"], json!([]));
        assert_eq!(s["docString"]["content"], "hello\n");
        assert_eq!(s["docString"]["contentType"], "");
        assert_eq!(s["docString"]["span"]["startOffset"], 30);
        // The diagnostic's document is not serialised (the other ports'
        // plan.json has no such key); the step's is.
        assert!(s.get("docPath").is_none());
        assert_eq!(
            v["diagnostics"],
            json!([{"code": "error-fence-without-step", "severity": "error", "span": span(&sp(37, 54))}])
        );
    }

    #[test]
    fn a_spliced_step_names_its_document() {
        let mut s = step();
        s.doc_path = Some("varar/shared.md".into());
        let plan = Plan {
            notices: Vec::new(),
            examples: vec![example(Expectation::Pass, s)],
            diagnostics: vec![],
        };
        let v = plan.to_json();
        assert_eq!(v["examples"][0]["steps"][0]["docPath"], "varar/shared.md");
    }
}
