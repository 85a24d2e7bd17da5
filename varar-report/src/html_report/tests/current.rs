//! Issue 34: what the report draws as current, by the rule every
//! consumer shares ([`varar_core::verdict::current::drawn`]): the texts by SHA-256,
//! and the latest run's standing.

use varar_core::hash::source_hash;

use super::support::{failed, file, oath, range_of, results_of};
use crate::html_report::*;
use varar_core::verdict::current::Vouched;
use varar_core::verdict::testing::vouched;

/// Issue 34: an edit whose 32-bit `sourceHash` collides with the text the
/// run read is not drawn over with that run's failure: the SHA-256 the run
/// recorded decides.
#[test]
fn issue34_an_edit_with_a_colliding_source_hash_is_stale_not_drawn_over() {
    use varar_core::verdict::testing::{AFTER, BEFORE};
    assert_eq!(source_hash(BEFORE), source_hash(AFTER));
    let (from, to) = range_of(BEFORE, "2", 0);
    let results = results_of(
        "varar/rising.md",
        BEFORE,
        vec![failed(
            "I bake 1 loaves. Then the dough rises 2 times",
            vec![3],
            &[(from, to, "1")],
            Some((from, to)),
        )],
    );
    let site = |text: &str| {
        let mut o = oath("varar/rising.md", text, ResultsInput::Read(results.clone()));
        // The run that wrote the results read the text before the edit.
        o.vouched = vouched(&[("varar/rising.md", BEFORE)]);
        render_site(&ProjectInput {
            name: "p".into(),
            oaths: vec![o],
            lock: None,
            run: None,
            history: Vec::new(),
            standing: None,
        })
    };
    let before = site(BEFORE);
    assert!(file(&before, "oaths/varar/rising.md.html").contains("<mark "));
    let after = site(AFTER);
    let page = file(&after, "oaths/varar/rising.md.html");
    assert!(
        !page.contains("<mark "),
        "the old failure drawn on the new text: {page}"
    );
    assert!(page.contains("These results are stale."), "{page}");
    assert!(page.contains("the run read sha256"), "{page}");
    assert!(file(&after, "index.html").contains("stale results"));
    // Without any run record the report cannot tell: stale too.
    let mut unvouched = oath(
        "varar/rising.md",
        BEFORE,
        ResultsInput::Read(results.clone()),
    );
    unvouched.vouched = Vouched::new();
    let site = render_site(&ProjectInput {
        name: "p".into(),
        oaths: vec![unvouched],
        ..ProjectInput::default()
    });
    let page = file(&site, "oaths/varar/rising.md.html");
    assert!(!page.contains("<mark "), "{page}");
    assert!(
        page.contains("no record of the latest run names the text"),
        "{page}"
    );
}
