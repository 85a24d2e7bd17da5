//! The site as a whole: freshness, counts, states and escaping.

use varar_core::hash::source_hash;
use varar_core::lock::{Lock, LockEntry, LockExample};
use varar_core::results::OathResults;

use super::support::{
    CHECKOUT, SHARED, checkout_results, failed, file, oath, passed, range_of, results_of,
};
use crate::html_report::*;
use varar_core::verdict::current::Vouched;
use varar_core::verdict::testing::vouched;

const BASKET: &str = "# The basket\n\nI add 2. The total is 3.\n\nI add 1. The total is 1.\n";

fn basket_results(text: &str) -> OathResults {
    let (from, to) = range_of(BASKET, "3", 0);
    let mut r = results_of(
        "varar/basket.md",
        text,
        vec![
            failed(
                "I add 2. The total is 3",
                vec![3],
                &[(from, to, "2")],
                Some((from, to)),
            ),
            passed("I add 1. The total is 1", vec![5]),
        ],
    );
    r.source_hash = source_hash(text);
    r
}

#[test]
fn fresh_results_are_drawn_and_stale_ones_are_not() {
    let fresh = render_site(&ProjectInput {
        name: "p".into(),
        oaths: vec![oath(
            "varar/basket.md",
            BASKET,
            ResultsInput::Read(basket_results(BASKET)),
        )],
        lock: None,
        run: None,
        history: Vec::new(),
        standing: None,
    });
    let page = file(&fresh, "oaths/varar/basket.md.html");
    assert!(page.contains("<mark "), "{page}");
    assert!(!page.contains("These results are stale"), "{page}");

    // The same results against an edited text: stale, nothing drawn, the
    // counts of that run still shown.
    let edited = format!("{BASKET}\nA new paragraph.\n");
    let stale = render_site(&ProjectInput {
        name: "p".into(),
        oaths: vec![oath(
            "varar/basket.md",
            &edited,
            ResultsInput::Read(basket_results(BASKET)),
        )],
        lock: None,
        run: None,
        history: Vec::new(),
        standing: None,
    });
    let page = file(&stale, "oaths/varar/basket.md.html");
    assert!(page.contains("These results are stale."), "{page}");
    assert!(!page.contains("<mark "), "{page}");
    assert!(!page.contains("class=\"varar-example "), "{page}");
    assert!(
        page.contains("2 examples ran: 1 passed, 1 failed"),
        "{page}"
    );
    let index = file(&stale, "index.html");
    assert!(index.contains("stale results"), "{index}");
    assert!(
        index.contains("<dt>oaths with stale results</dt><dd>1</dd>"),
        "{index}"
    );
    assert!(
        index.contains("<dt>examples failed</dt><dd>1</dd>"),
        "{index}"
    );
}

#[test]
fn issue38_each_example_is_listed_with_its_tags() {
    let text = "<!-- @slow -->\n# The basket\n\n<!-- @smoke <b> -->\n<!-- @smoke @a<b -->\nI add 2. The total is 2.\n\nI add 1. The total is 1.\n";
    let mut results = results_of(
        "varar/basket.md",
        text,
        vec![
            passed("I add 2. The total is 2", vec![6]),
            passed("I add 1. The total is 1", vec![8]),
        ],
    );
    results.source_hash = source_hash(text);
    let site = render_site(&ProjectInput {
        name: "p".into(),
        oaths: vec![oath("varar/basket.md", text, ResultsInput::Read(results))],
        lock: None,
        run: None,
        history: Vec::new(),
        standing: None,
    });
    let page = file(&site, "oaths/varar/basket.md.html");
    // The comment with `<b>` in it is no tag comment; the other's tags
    // are escaped.
    assert!(
        page.contains(
            "<td>I add 2. The total is 2 <span class=\"varar-tag\">@slow</span> \
             <span class=\"varar-tag\">@smoke</span> <span class=\"varar-tag\">@a&lt;b</span></td>"
        ),
        "{page}"
    );
    assert!(
        page.contains("<td>I add 1. The total is 1 <span class=\"varar-tag\">@slow</span></td>"),
        "{page}"
    );
}

#[test]
fn every_selected_oath_gets_a_row_and_a_page_whatever_its_results() {
    let lock = Lock {
        oaths: [(
            "varar/b.md".to_owned(),
            LockEntry {
                source_hash: source_hash("I add 1.\n\nI add 2.\n"),
                examples: vec![
                    LockExample {
                        name: "I add 1".into(),
                        line: 1,
                    },
                    LockExample {
                        name: "I add 2".into(),
                        line: 3,
                    },
                ],
            },
        )]
        .into(),
    };
    let site = render_site(&ProjectInput {
        name: "p".into(),
        oaths: vec![
            oath(
                "varar/a.md",
                BASKET,
                ResultsInput::Read(basket_results(BASKET)),
            ),
            oath(
                "varar/b.md",
                "I add 1.\n\nI add 2.\n",
                ResultsInput::Missing,
            ),
            oath(
                "varar/c.md",
                "# C\n",
                ResultsInput::Unreadable(
                    "`.varar/varar/c.md.json` is not a valid run result: unsupported version 9"
                        .into(),
                ),
            ),
            OathInput {
                oath_path: "varar/d.md".into(),
                text: Err("cannot read `varar/d.md`: invalid UTF-8 at byte 3".into()),
                results: ResultsInput::Missing,
                vouched: Vouched::new(),
            },
        ],
        lock: Some(lock),
        run: None,
        history: Vec::new(),
        standing: None,
    });
    let paths: Vec<&str> = site.files.iter().map(|f| f.path.as_str()).collect();
    assert_eq!(
        paths,
        [
            "index.html",
            "style.css",
            "oaths/varar/a.md.html",
            "oaths/varar/b.md.html",
            "oaths/varar/c.md.html",
            "oaths/varar/d.md.html"
        ]
    );
    let index = file(&site, "index.html");
    let rows: Vec<usize> = ["varar/a.md", "varar/b.md", "varar/c.md", "varar/d.md"]
        .iter()
        .map(|p| {
            index
                .find(&format!("href=\"oaths/{p}.html\""))
                .unwrap_or(usize::MAX)
        })
        .collect();
    assert!(
        rows.windows(2).all(|w| w[0] < w[1]),
        "rows in path order: {rows:?}"
    );
    for status in [
        "✗</span> failed",
        "○</span> not run",
        "⚠</span> results unreadable",
        "⚠</span> oath unreadable",
    ] {
        assert!(index.contains(status), "{status} missing in\n{index}");
    }
    assert!(
        index.contains("<dt>examples not run</dt><dd>2</dd>"),
        "{index}"
    );
    assert!(
        index.contains("<dt>oaths without results</dt><dd>2</dd>")
            || index.contains("<dt>oaths without results</dt><dd>1</dd>"),
        "{index}"
    );
    assert!(
        index.contains("unsupported version 9"),
        "the reason is shown: {index}"
    );
    let b = file(&site, "oaths/varar/b.md.html");
    assert!(b.contains("class=\"varar-example varar-not-run\""), "{b}");
    let c = file(&site, "oaths/varar/c.md.html");
    assert!(
        c.contains("The results of this oath are unreadable."),
        "{c}"
    );
    let d = file(&site, "oaths/varar/d.md.html");
    assert!(d.contains("This oath could not be read."), "{d}");
}

#[test]
fn titles_names_and_messages_are_escaped_everywhere() {
    let text = "# Tea <script>alert(1)</script> & *cake*\n\nI add 2. The total is 3.\n";
    let (from, to) = range_of(text, "3", 0);
    let mut ex = failed(
        "<img src=x onerror=alert(1)>",
        vec![3],
        &[(from, to, "<b>2</b>")],
        Some((from, to)),
    );
    if let Some(f) = ex.failure.as_mut() {
        f.message = "<script>alert(2)</script>".into();
    }
    let site = render_site(&ProjectInput {
        name: "<q>".into(),
        oaths: vec![oath(
            "varar/<x>.md",
            text,
            ResultsInput::Read(results_of("varar/<x>.md", text, vec![ex])),
        )],
        lock: None,
        run: None,
        history: Vec::new(),
        standing: None,
    });
    for f in &site.files {
        for banned in ["<script", "<img", "<b>", "<x>", "<q>"] {
            assert!(
                !f.contents.contains(banned),
                "{banned} in {}:\n{}",
                f.path,
                f.contents
            );
        }
    }
    let index = file(&site, "index.html");
    assert!(
        index.contains(">Tea alert(1) &amp; cake</a>"),
        "title text only: {index}"
    );
}

#[test]
fn doc_path_failures_are_drawn_on_the_other_page_only_while_its_hash_matches() {
    let (checkout, shared) = (CHECKOUT, SHARED);
    let build = |shared_hash: String| {
        let r = checkout_results(shared_hash);
        let mut checkout_oath = oath("varar/checkout.md", checkout, ResultsInput::Read(r));
        checkout_oath.vouched =
            vouched(&[("varar/checkout.md", checkout), ("varar/shared.md", shared)]);
        render_site(&ProjectInput {
            name: "p".into(),
            oaths: vec![
                checkout_oath,
                oath("varar/shared.md", shared, ResultsInput::Missing),
            ],
            lock: None,
            run: None,
            history: Vec::new(),
            standing: None,
        })
    };
    let site = build(source_hash(shared));
    let checkout_page = file(&site, "oaths/varar/checkout.md.html");
    assert!(!checkout_page.contains("<mark "), "{checkout_page}");
    assert!(
        checkout_page.contains("href=\"../../oaths/varar/shared.md.html#L5\""),
        "{checkout_page}"
    );
    let shared_page = file(&site, "oaths/varar/shared.md.html");
    assert!(shared_page.contains("<mark "), "{shared_page}");
    assert!(
        shared_page
            .contains("of <a href=\"../../oaths/varar/checkout.md.html\">varar/checkout.md</a>"),
        "{shared_page}"
    );
    // shared.md changed since the run: its offsets are not trusted.
    let site = build("fnv1a:00000000".into());
    assert!(!file(&site, "oaths/varar/shared.md.html").contains("<mark "));
}

#[test]
fn an_oath_that_runs_only_where_it_is_linked_is_not_listed_as_not_run() {
    let lock = |shared_examples: Vec<LockExample>| {
        let mut lock = Lock::default();
        lock.oaths.insert(
            "varar/shared.md".into(),
            LockEntry {
                source_hash: source_hash(SHARED),
                examples: shared_examples,
            },
        );
        lock
    };
    let build = |lock: Option<Lock>| {
        render_site(&ProjectInput {
            name: "p".into(),
            oaths: vec![
                oath(
                    "varar/checkout.md",
                    CHECKOUT,
                    ResultsInput::Read(checkout_results(source_hash(SHARED))),
                ),
                oath("varar/shared.md", SHARED, ResultsInput::Missing),
            ],
            lock,
            run: None,
            history: Vec::new(),
            standing: None,
        })
    };
    // The last full run recorded no example of its own: it runs inside
    // checkout.md, as gate and junit see it too.
    let site = build(Some(lock(Vec::new())));
    let index = file(&site, "index.html");
    assert!(index.contains("runs where linked"), "{index}");
    assert!(
        index.contains("<dt>oaths without results</dt><dd>0</dd>"),
        "{index}"
    );
    let page = file(&site, "oaths/varar/shared.md.html");
    assert!(page.contains("Runs where it is linked."), "{page}");
    // A baseline that records an example of its own, or none at all: the
    // missing result file is a missing result.
    for lock in [
        Some(lock(vec![LockExample {
            name: "I add 2".into(),
            line: 5,
        }])),
        None,
    ] {
        let site = build(lock);
        let index = file(&site, "index.html");
        assert!(!index.contains("runs where linked"), "{index}");
        assert!(
            index.contains("<dt>oaths without results</dt><dd>1</dd>"),
            "{index}"
        );
    }
}

mod issue19 {
    use varar_core::record::{Outcome, RunRecord};

    use super::*;
    use varar_core::verdict::testing::{item, process};

    const SHELF: &str = "# The shelf\n\nUnsold bread goes to the food bank.\n\nI add 1. The total \
                         is 1.\n\n[Nowhere](#nowhere)\n";

    fn shelf_run(text: &str) -> RunRecord {
        let path = "varar/shelf.md";
        RunRecord::combine(vec![
            process(
                "r",
                "p1",
                "07:00:00",
                &[(path, text)],
                vec![
                    item(
                        "varar/shelf.md::The shelf::I add 1. The total is 1",
                        path,
                        5,
                        1,
                        Some(Outcome::Failed),
                        Some("flaky"),
                    ),
                    item(
                        "varar/shelf.md::varar:drift:3",
                        path,
                        3,
                        1,
                        Some(Outcome::Failed),
                        Some("varar/shelf.md:3:1: no step matches <this> any more (drift)"),
                    ),
                    item(
                        "varar/shelf.md::varar:diagnostic:reference-empty:7",
                        path,
                        7,
                        1,
                        Some(Outcome::Failed),
                        Some("varar/shelf.md:7:1: the reference contributes no steps"),
                    ),
                ],
            ),
            process(
                "r",
                "p2",
                "07:00:01",
                &[(path, text)],
                vec![item(
                    "varar/shelf.md::The shelf::I add 1. The total is 1",
                    path,
                    5,
                    2,
                    Some(Outcome::Passed),
                    None,
                )],
            ),
        ])
        .remove(0)
    }

    fn site(text: &str, run: RunRecord) -> Site {
        render_site(&ProjectInput {
            name: "p".into(),
            oaths: vec![oath(
                "varar/shelf.md",
                text,
                ResultsInput::Read(results_of(
                    "varar/shelf.md",
                    text,
                    vec![passed("I add 1. The total is 1", vec![5])],
                )),
            )],
            lock: None,
            run: Some(run),
            history: Vec::new(),
            standing: None,
        })
    }

    #[test]
    fn issue19_drift_and_diagnostics_are_drawn_at_their_line_with_their_message() {
        let site = site(SHELF, shelf_run(SHELF));
        let page = file(&site, "oaths/varar/shelf.md.html");
        let marks = super::super::support::marks_by_note(page);
        let marked: Vec<&str> = marks.values().map(String::as_str).collect();
        assert_eq!(
            marked,
            ["Unsold bread goes to the food bank.", "Nowhere"],
            "{page}"
        );
        assert!(
            page.contains(
                "<span class=\"varar-k\">drift:</span> <span class=\"varar-message \
                 varar-item-message\">\
                 varar/shelf.md:3:1: no step matches &lt;this&gt; any more (drift)</span>"
            ),
            "{page}"
        );
        assert!(
            page.contains("<span class=\"varar-k\">diagnostic:</span>"),
            "{page}"
        );
        assert!(
            page.contains("line 3</a>: “varar/shelf.md::varar:drift:3” — "),
            "{page}"
        );
        assert!(
            page.contains("; 2 drift or diagnostic items failed"),
            "{page}"
        );
        let index = file(&site, "index.html");
        assert!(index.contains("</span> failed</span>"), "{index}");
    }

    #[test]
    fn issue19_a_recovered_example_says_after_how_many_attempts() {
        let site = site(SHELF, shelf_run(SHELF));
        let page = file(&site, "oaths/varar/shelf.md.html");
        assert!(
            page.contains(
                "class=\"varar-example varar-passed\" data-varar-state=\"passed\" \
                 data-varar-recovered=\"2\">"
            ),
            "{page}"
        );
        assert!(
            page.contains("passed, recovered after 2 attempts</span>"),
            "{page}"
        );
        assert!(
            page.contains("<span class=\"varar-recovered\">recovered after 2 attempts</span>"),
            "{page}"
        );
        assert!(page.contains("; 1 recovered after a retry"), "{page}");
    }

    #[test]
    fn issue19_nothing_of_a_run_of_another_text_is_drawn() {
        let edited = format!("{SHELF}\nA paragraph written after the run.\n");
        let site = site(&edited, shelf_run(SHELF));
        let page = file(&site, "oaths/varar/shelf.md.html");
        assert!(!page.contains("drift:"), "{page}");
        assert!(!page.contains("recovered after"), "{page}");
        assert!(!page.contains("<mark "), "{page}");
    }
}

#[test]
fn issue34_results_the_latest_run_does_not_vouch_for_are_an_earlier_runs_and_the_index_says_why() {
    use varar_core::verdict::records::{Code, ErrorRecord};
    use varar_core::verdict::standing::{Draws, RunStanding, Standing};
    let standing = RunStanding {
        standing: Standing::Incomplete,
        run_id: Some("killed".to_owned()),
        problems: vec![ErrorRecord::new(
            Code::IncompleteRun,
            "the latest run (`killed`) is incomplete: its process `p` never reached its end",
        )],
        warnings: Vec::new(),
        draws: Draws::Ended {
            oaths: Default::default(),
            items: Default::default(),
            unwritten: Default::default(),
        },
    };
    let site = render_site(&ProjectInput {
        name: "p".into(),
        oaths: vec![oath(
            "varar/basket.md",
            BASKET,
            ResultsInput::Read(basket_results(BASKET)),
        )],
        lock: None,
        run: None,
        history: Vec::new(),
        standing: Some(standing),
    });
    let page = file(&site, "oaths/varar/basket.md.html");
    assert!(
        page.contains("These results are of an earlier run."),
        "{page}"
    );
    assert!(!page.contains("<mark "), "nothing drawn as current: {page}");
    assert!(page.contains("results of an earlier run"), "{page}");
    let index = file(&site, "index.html");
    let standing = index
        .find("data-varar-standing=\"incomplete\"")
        .unwrap_or_else(|| panic!("{index}"));
    assert!(
        standing < index.find("varar-totals").unwrap_or(0),
        "the standing comes first: {index}"
    );
    assert!(
        index.contains("its process `p` never reached its end"),
        "{index}"
    );
    assert!(index.contains("the latest run is incomplete"), "{index}");
    assert!(
        index.contains("<dt>examples failed</dt><dd>0</dd>"),
        "an earlier run's failure is not counted as current: {index}"
    );
}
