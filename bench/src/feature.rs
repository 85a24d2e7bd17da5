//! The corpus as Gherkin, for the cucumber-rs side of `--vs-cucumber`.
//!
//! Every oath is planned against the corpus's eight steps (the plan the
//! harness runs) and written as one `Feature` per oath, one `Scenario` per
//! planned example, in document order, so the two projects run the same
//! examples one for one, planted failures included:
//!
//! * the feature is named by the oathPath and the scenario by the rest of
//!   the harness's test item name (headings, then the example's name, with
//!   `[1]`, `[2]`… on repeats), so `Feature::Scenario` is the item name;
//! * each matched step becomes one step line holding its matched text
//!   (`Ada deposits 30` out of `Ada deposits 30 coins, so …`): a stimulus
//!   is a `When`, a sensor a `Then`, a step of the same kind as the one
//!   before it an `And`;
//! * a table attached to a step becomes its data table, a doc string its
//!   doc string (without the fence's info string: the `gherkin` crate
//!   cucumber-rs 0.23 parses with keeps a content type as the first line of
//!   the content, so a feature written for it has none);
//! * a header-bound row becomes a two-row data table under the bound step:
//!   the header, then the row, so the step reads its cells by column name
//!   as the varar step does.
//!
//! Sentences of an example that match no step are prose: they run nowhere,
//! in either project, and are not written.

use varar_core::names::UniqueNames;
use varar_core::parse::parse;
use varar_core::plan::{PlannedExample, plan};
use varar_core::registry::{Registry, Role, Trailing};
use varar_core::source::Source;
use varar_runner::LinkedSteps;

use crate::corpus::Corpus;

/// The directory of the generated features, relative to the project (what
/// the cucumber-rs test binary runs).
pub const FEATURES_DIR: &str = "tests/features";

/// Every oath of `corpus` as a feature file: (path relative to the
/// project, text), in oathPath order.
pub fn features(corpus: &Corpus) -> Result<Vec<(String, String)>, String> {
    // The eight steps of `crate::steps`, registered by their attributes.
    let steps = LinkedSteps::from_inventory(|_| true).map_err(|e| e.to_string())?;
    let registry = steps.registry();
    corpus
        .oaths
        .iter()
        .map(|(oath_path, text)| Ok((feature_path(oath_path), feature(oath_path, text, registry)?)))
        .collect()
}

/// `varar/shard-000/ledger-0000.md` → `tests/features/shard-000/ledger-0000.feature`.
pub fn feature_path(oath_path: &str) -> String {
    let rel = oath_path.strip_prefix("varar/").unwrap_or(oath_path);
    let stem = rel.strip_suffix(".md").unwrap_or(rel);
    format!("{FEATURES_DIR}/{stem}.feature")
}

/// One oath as a feature. An oath that plans with diagnostics has no
/// equivalent feature and is an error.
pub fn feature(oath_path: &str, text: &str, registry: &Registry) -> Result<String, String> {
    let source = Source::new(text);
    let doc = parse(oath_path, &source);
    let planned = plan(&doc, &source, registry);
    if let Some(d) = planned.diagnostics.first() {
        return Err(format!(
            "{oath_path}: {} ({}): no feature can run the same examples",
            d.message,
            d.code.as_str()
        ));
    }
    let mut out = format!("Feature: {}\n", one_line(oath_path));
    let mut names = UniqueNames::default();
    for example in &planned.examples {
        let name = names.claim(scenario_name(example));
        out.push_str(&format!("\n  Scenario: {name}\n"));
        let mut previous: Option<Role> = None;
        for step in &example.steps {
            let spec = &registry
                .steps
                .get(step.step)
                .ok_or_else(|| format!("{oath_path}: step {} is not registered", step.step))?
                .spec;
            let keyword = match (previous, spec.role) {
                (Some(p), r) if p == r => "And",
                (_, Role::Stimulus) => "When",
                (_, Role::Sensor) => "Then",
            };
            previous = Some(spec.role);
            out.push_str(&format!("    {keyword} {}\n", one_line(&step.text)));
            if let Some(t) = &step.data_table {
                let rows: Vec<&[String]> = std::iter::once(&t.header)
                    .chain(&t.rows)
                    .map(|r| r.cells.as_slice())
                    .collect();
                data_table(&mut out, &rows);
            }
            if let Some(d) = &step.doc_string {
                doc_string(&mut out, &d.content);
            }
            if let (Trailing::Row, Some(binding)) = (spec.trailing, &example.row) {
                let header: Vec<String> = binding
                    .checks
                    .iter()
                    .map(|c| c.column.to_string())
                    .collect();
                let row: Vec<String> = binding.checks.iter().map(|c| c.value.clone()).collect();
                data_table(&mut out, &[&header, &row]);
            }
        }
    }
    Ok(out)
}

/// The harness's test item name without its oathPath: every non-empty
/// heading above the example, innermost last, then its name, joined with
/// `::`, whitespace runs collapsed.
fn scenario_name(example: &PlannedExample) -> String {
    example
        .scope_stack
        .iter()
        .map(|h| one_line(h))
        .filter(|h| !h.is_empty())
        .chain(std::iter::once(one_line(&example.name)))
        .collect::<Vec<_>>()
        .join("::")
}

/// Whitespace runs (newlines included) collapsed to one space, trimmed: a
/// Gherkin name or step is one line.
fn one_line(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// A data table, cells escaped as Gherkin reads them back.
fn data_table(out: &mut String, rows: &[&[String]]) {
    for row in rows {
        out.push_str("      |");
        for cell in *row {
            let cell = cell
                .replace('\\', "\\\\")
                .replace('|', "\\|")
                .replace('\n', "\\n");
            out.push_str(&format!(" {cell} |"));
        }
        out.push('\n');
    }
}

/// A doc string: `"""` fences (backticks when the content holds `"""`),
/// indented under its step; Gherkin takes the common indentation off
/// every line.
fn doc_string(out: &mut String, content: &str) {
    let fence = if content.contains("\"\"\"") {
        "```"
    } else {
        "\"\"\""
    };
    out.push_str(&format!("      {fence}\n"));
    for line in content.strip_suffix('\n').unwrap_or(content).split('\n') {
        if line.is_empty() {
            out.push('\n');
        } else {
            out.push_str(&format!("      {line}\n"));
        }
    }
    out.push_str(&format!("      {fence}\n"));
}

#[cfg(test)]
mod tests {
    use super::*;

    /// One oath of each shape the generator writes.
    const OATH: &str = r#"# Ledger 7: the shop till

Tellers like tidy books, and so do auditors.

## Deposits and withdrawals

Suppose the account is labelled "Rainy day" and Bo deposits 30. Now the label reads "Rainy day" and the balance is 30.

### Round numbers

Jo deposits 50 and later Jo withdraws 20. After that the balance is 31.

## Monthly summary

Each row shows an opening balance, a deposit, a withdrawal and the closing balance:

| opening | deposit | withdrawal | closing |
| ------: | ------: | ---------: | ------: |
| 10 | 5 | 3 | 12 |
| 10 | 5 | 3 | 12 |

## Statements

Ada deposits 266 and then Ada withdraws 18. The statement reads:

```text
deposit 266
withdraw 18
balance 248
```

---

Given the following transactions are applied:

| kind | amount |
| ---- | -----: |
| deposit | 42 |
| withdraw | 20 |

Then the balance is 22.

---

Kai deposits 146 coins, so the balance is 146.
"#;

    const FEATURE: &str = r#"Feature: varar/shard-000/ledger-0007.md

  Scenario: Ledger 7: the shop till::Deposits and withdrawals::Suppose the account is labelled "Rainy day" and Bo deposits 30. Now the label reads "Rainy day" and the balance is 30
    When the account is labelled "Rainy day"
    And Bo deposits 30
    Then the label reads "Rainy day"
    And the balance is 30

  Scenario: Ledger 7: the shop till::Deposits and withdrawals::Round numbers::Jo deposits 50 and later Jo withdraws 20. After that the balance is 31
    When Jo deposits 50
    And Jo withdraws 20
    Then the balance is 31

  Scenario: Ledger 7: the shop till::Monthly summary::an opening balance, a deposit, a withdrawal and the closing balance::10 / 5 / 3 / 12
    Then an opening balance, a deposit, a withdrawal and the closing balance
      | opening | deposit | withdrawal | closing |
      | 10 | 5 | 3 | 12 |

  Scenario: Ledger 7: the shop till::Monthly summary::an opening balance, a deposit, a withdrawal and the closing balance::10 / 5 / 3 / 12[1]
    Then an opening balance, a deposit, a withdrawal and the closing balance
      | opening | deposit | withdrawal | closing |
      | 10 | 5 | 3 | 12 |

  Scenario: Ledger 7: the shop till::Statements::Ada deposits 266 and then Ada withdraws 18. The statement reads:
    When Ada deposits 266
    And Ada withdraws 18
    Then The statement reads:
      """
      deposit 266
      withdraw 18
      balance 248
      """

  Scenario: Ledger 7: the shop till::Statements::Given the following transactions are applied:
    When the following transactions are applied
      | kind | amount |
      | deposit | 42 |
      | withdraw | 20 |
    Then the balance is 22

  Scenario: Ledger 7: the shop till::Statements::Kai deposits 146 coins, so the balance is 146
    When Kai deposits 146
    Then the balance is 146
"#;

    #[test]
    fn one_scenario_per_example_with_tables_and_doc_strings() {
        let steps = LinkedSteps::from_inventory(|_| true).unwrap();
        let text = feature("varar/shard-000/ledger-0007.md", OATH, steps.registry()).unwrap();
        assert_eq!(text, FEATURE);
    }

    #[test]
    fn features_mirror_the_oath_tree() {
        assert_eq!(
            feature_path("varar/shard-001/ledger-0100.md"),
            "tests/features/shard-001/ledger-0100.feature"
        );
    }

    #[test]
    fn cells_and_doc_strings_are_escaped() {
        let mut out = String::new();
        let row = ["a|b".to_string(), "c\\d".to_string(), "e\nf".to_string()];
        data_table(&mut out, &[&row]);
        assert_eq!(out, "      | a\\|b | c\\\\d | e\\nf |\n");
        let mut out = String::new();
        doc_string(&mut out, "say \"\"\"\n\nbye\n");
        assert_eq!(out, "      ```\n      say \"\"\"\n\n      bye\n      ```\n");
    }
}
