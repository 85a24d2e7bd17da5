use super::*;

const CHECKOUT: &str = "# Pay\n\nI add 1.\n\n[Fill](shared.md#fill)\n";
const SHARED: &str =
    "# Shared\n\n## Fill\n\nI add 2. [Lib](../lib/lib.md)\n\n[More](lib/more.md#x)\n";

fn project() -> Oaths {
    Oaths::from_disk([
        ("varar/checkout.md".to_string(), CHECKOUT.to_string()),
        ("varar/shared.md".to_string(), SHARED.to_string()),
        (
            "varar/lib/more.md".to_string(),
            "# X\n\nI add 3.\n".to_string(),
        ),
        (
            "varar/alone.md".to_string(),
            "# Alone\n\nI add 4.\n".to_string(),
        ),
    ])
}

#[test]
fn links_are_the_reference_blocks_only() {
    let oaths = project();
    assert_eq!(
        oaths.links("varar/checkout.md"),
        [Link {
            path: "varar/shared.md".to_string(),
            slug: "fill".to_string()
        }]
    );
    // A link inside a sentence is prose, not a reference block.
    assert_eq!(
        oaths.links("varar/shared.md"),
        [Link {
            path: "varar/lib/more.md".to_string(),
            slug: "x".to_string()
        }]
    );
    assert!(oaths.links("varar/alone.md").is_empty());
}

#[test]
fn reaches_and_reached_by_are_transitive() {
    let oaths = project();
    let reaches: Vec<String> = oaths.reaches("varar/checkout.md").into_iter().collect();
    assert_eq!(reaches, ["varar/lib/more.md", "varar/shared.md"]);
    let by: Vec<String> = oaths.reached_by("varar/lib/more.md").into_iter().collect();
    assert_eq!(by, ["varar/checkout.md", "varar/shared.md"]);
    assert!(oaths.reached_by("varar/alone.md").is_empty());
    assert_eq!(oaths.linking_to("varar/shared.md"), ["varar/checkout.md"]);
}

#[test]
fn the_editors_text_wins_while_open_and_the_files_after_closing() {
    let mut oaths = project();
    assert!(oaths.open("varar/alone.md", "# Alone\n\nI add 5.\n"));
    assert!(!oaths.disk("varar/alone.md", Some("from disk".to_string())));
    assert_eq!(oaths.text("varar/alone.md"), Some("# Alone\n\nI add 5.\n"));
    assert!(!oaths.edit("varar/shared.md", "not open: ignored"));
    assert_eq!(oaths.text("varar/shared.md"), Some(SHARED));
    assert!(oaths.close("varar/alone.md", Some("# Alone\n\nI add 4.\n".to_string())));
    assert!(!oaths.is_open("varar/alone.md"));
    assert!(oaths.disk("varar/alone.md", None));
    assert_eq!(oaths.text("varar/alone.md"), None);
}

#[test]
fn deps_change_with_a_reached_text_or_a_link_naming_a_section() {
    let mut oaths = project();
    let before = oaths.deps("varar/checkout.md", 1);
    // A document the oath does not reach: nothing changes.
    oaths.disk("varar/alone.md", Some("# Alone\n\nI add 9.\n".to_string()));
    assert_eq!(oaths.deps("varar/checkout.md", 1), before);
    // A document it reaches through a nested link.
    oaths.disk("varar/lib/more.md", Some("# X\n\nI add 30.\n".to_string()));
    assert_ne!(oaths.deps("varar/checkout.md", 1), before);
    // The steps changed.
    assert_ne!(
        oaths.deps("varar/checkout.md", 2),
        oaths.deps("varar/checkout.md", 1)
    );
    // A new link consumes a section of the shared oath.
    let shared = oaths.deps("varar/shared.md", 1);
    assert!(shared.consumed.contains("fill"));
    oaths.disk("varar/alone.md", Some("[Whole](shared.md)\n".to_string()));
    let after = oaths.deps("varar/shared.md", 1);
    assert!(after.consumed.contains(""), "{after:?}");
}

#[test]
fn the_engine_workspace_holds_what_planning_needs_only() {
    let oaths = project();
    let ws = oaths.workspace(&["varar/shared.md"]);
    let paths: Vec<&str> = ws.paths().collect();
    // Itself, what it reaches, what links to it; not the unrelated oath.
    assert_eq!(
        paths,
        ["varar/checkout.md", "varar/lib/more.md", "varar/shared.md"]
    );
    assert!(ws.is_referenced("varar/shared.md#fill"));
    assert_eq!(oaths.whole_workspace().len(), 4);
}

#[test]
fn an_edited_oath_is_parsed_once_for_its_links_and_its_plan() {
    let mut oaths = project();
    oaths.open("varar/checkout.md", CHECKOUT);
    let edited = "# Pay\n\nI add 1.\n\n[More](lib/more.md#x)\n";
    assert!(oaths.edit("varar/checkout.md", edited));
    // The edited oath is parsed for its links and that parse is the
    // workspace's: the workspace (the oath and lib/more.md, which has no
    // link) parses nothing of its own.
    let ws = oaths.workspace(&["varar/checkout.md"]);
    assert!(ws.document("varar/checkout.md").is_some());
    assert_eq!(ws.parsed_count(), 0, "the edited oath was parsed twice");
    assert_eq!(
        oaths.links("varar/checkout.md"),
        [Link {
            path: "varar/lib/more.md".to_string(),
            slug: "x".to_string()
        }]
    );
    assert!(ws.contains("varar/lib/more.md"));
    // Not planned: its links are found when asked for.
    assert!(oaths.edit("varar/checkout.md", CHECKOUT));
    assert_eq!(oaths.links("varar/checkout.md")[0].slug, "fill");
}

#[test]
fn a_copy_planning_an_edited_oath_finds_its_links_for_the_oaths_it_was_copied_from() {
    let mut oaths = project();
    oaths.open("varar/checkout.md", CHECKOUT);
    let before = oaths.deps("varar/checkout.md", 1);
    assert!(oaths.deps_hold("varar/checkout.md", 1, &before));
    let edited = "# Pay\n\nI add 1.\n\n[More](lib/more.md#x)\n";
    assert!(oaths.edit("varar/checkout.md", edited));
    // The server asks whether the plan holds before it plans: the answer
    // needs no parse of the edited oath.
    assert!(!oaths.deps_hold("varar/checkout.md", 1, &before));
    assert!(!oaths.entries["varar/checkout.md"].links_known());
    // It plans on a copy: the links that copy's parse found are the
    // server's too.
    let copy = oaths.clone();
    let _ = copy.workspace(&["varar/checkout.md"]);
    assert!(oaths.entries["varar/checkout.md"].links_known());
    assert_eq!(
        oaths.links("varar/checkout.md")[0].path,
        "varar/lib/more.md"
    );
    let now = copy.deps("varar/checkout.md", 1);
    assert!(oaths.deps_hold("varar/checkout.md", 1, &now));
    assert!(!oaths.deps_hold("varar/checkout.md", 2, &now));
}
