//! Each example's outcomes over the kept runs (issue 20): the strip on its
//! row, the flaky badge, and the index's list of flaky examples.

use varar_core::hash::sha256_hex;
use varar_core::record::{Outcome, RunRecord};

use super::support::{passed, results_of};
use crate::html_report::*;
use varar_core::verdict::flaky::strips;
use varar_core::verdict::run_evidence::{FileNow, SourcesNow};
use varar_core::verdict::testing::{CONFIG, item, process};

const OVEN: &str = "# Oven\n\nThe oven warms up.\n\nI bake 2.\n";
const WARM: &str = "varar/oven.md::Oven::The oven warms up";
const BAKE: &str = "varar/oven.md::Oven::I bake 2";

fn history(warm: &[&[Option<Outcome>]]) -> Vec<varar_core::verdict::flaky::FlakyItem> {
    let records = warm
        .iter()
        .enumerate()
        .map(|(n, attempts)| {
            let mut items: Vec<_> = attempts
                .iter()
                .enumerate()
                .map(|(a, o)| item(WARM, "varar/oven.md", 3, a as u32 + 1, *o, None))
                .collect();
            items.push(item(
                BAKE,
                "varar/oven.md",
                5,
                1,
                Some(Outcome::Passed),
                None,
            ));
            process(
                &format!("run-{n}<&>"),
                "p",
                &format!("0{n}:00:00"),
                &[("varar/oven.md", OVEN)],
                items,
            )
        })
        .collect();
    let now = SourcesNow {
        config: Some(FileNow::Sha256(sha256_hex(CONFIG.as_bytes()))),
        documents: [(
            "varar/oven.md".to_owned(),
            FileNow::Sha256(sha256_hex(OVEN.as_bytes())),
        )]
        .into(),
    };
    strips((&RunRecord::combine(records), &Default::default()), &now)
}

fn site(history: Vec<varar_core::verdict::flaky::FlakyItem>) -> Site {
    render_site(&ProjectInput {
        name: "p".into(),
        oaths: vec![OathInput {
            oath_path: "varar/oven.md".into(),
            text: Ok(OVEN.into()),
            results: ResultsInput::Read(results_of(
                "varar/oven.md",
                OVEN,
                vec![
                    passed("The oven warms up", vec![3]),
                    passed("I bake 2", vec![5]),
                ],
            )),
            vouched: varar_core::verdict::testing::vouched(&[("varar/oven.md", OVEN)]),
        }],
        lock: None,
        run: None,
        history,
        standing: None,
    })
}

fn file<'a>(site: &'a Site, path: &str) -> &'a str {
    site.files
        .iter()
        .find(|f| f.path == path)
        .map_or("", |f| f.contents.as_str())
}

const F: Option<Outcome> = Some(Outcome::Failed);
const P: Option<Outcome> = Some(Outcome::Passed);

#[test]
fn each_example_shows_its_outcomes_oldest_first_and_a_flaky_one_its_badge() {
    let s = site(history(&[&[F], &[F, P], &[P]]));
    let page = file(&s, "oaths/varar/oven.md.html");
    let warm_row = page
        .split("<tr>")
        .find(|r| r.contains("The oven warms up</td>"))
        .unwrap_or_default();
    let marks: Vec<&str> = warm_row
        .split("title=\"")
        .skip(1)
        .map(|t| t.split('"').next().unwrap_or(""))
        .collect();
    assert_eq!(
        marks[..3],
        [
            "run-0&lt;&amp;&gt;: failed",
            "run-1&lt;&amp;&gt;: recovered",
            "run-2&lt;&amp;&gt;: passed"
        ],
        "{warm_row}"
    );
    assert!(
        warm_row.contains("<span class=\"varar-flaky\""),
        "{warm_row}"
    );
    let bake_row = page
        .split("<tr>")
        .find(|r| r.contains("I bake 2</td>"))
        .unwrap_or_default();
    assert!(bake_row.contains("data-varar-runs=\"3\""), "{bake_row}");
    assert!(
        !bake_row.contains("varar-flaky"),
        "a steady example has no badge"
    );
    assert!(page.contains("; 1 flaky over the kept runs"), "{page}");

    let index = file(&s, "index.html");
    let listed = index
        .find("<h2>Flaky examples (1)</h2>")
        .unwrap_or(usize::MAX);
    let table = index.find("<table class=\"varar-oaths\">").unwrap_or(0);
    assert!(
        listed < table,
        "flaky examples come before the oaths: {index}"
    );
    assert!(index.contains("href=\"oaths/varar/oven.md.html#L3\">The oven warms up</a>"));
}

#[test]
fn without_history_or_mixture_there_is_no_badge_and_no_list() {
    for h in [Vec::new(), history(&[&[P], &[P]])] {
        let s = site(h);
        assert!(!file(&s, "oaths/varar/oven.md.html").contains("varar-flaky"));
        assert!(!file(&s, "index.html").contains("Flaky examples"));
    }
    let none = site(Vec::new());
    assert!(!file(&none, "oaths/varar/oven.md.html").contains("varar-strip"));
}
