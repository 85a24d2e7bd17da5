use super::*;
use varar_core::plan::PlannedExample;

fn cache_for(dir: &Path, steps: &str, layout: Layout) -> PlanCache {
    PlanCache::new(dir, Steps::Known(steps.to_owned()), layout)
        .unwrap_or_else(|| panic!("known steps"))
}

fn a_plan(name: &str) -> Plan {
    let example = PlannedExample {
        name: name.to_owned(),
        scope_stack: vec!["Heading".to_owned()].into(),
        span: Default::default(),
        expected: varar_core::plan::Expectation::Pass,
        steps: Vec::new(),
        row: None,
        unmatched: Vec::new(),
    };
    Plan {
        notices: Vec::new(),
        examples: vec![example],
        diagnostics: Vec::new(),
    }
}

/// The `sourceHash` the tests keep with every plan.
const SOURCE_HASH: &str = "fnv1a:0123abcd";

/// Store `plan` (its examples packed) for `entry`, without candidates.
fn keep(cache: &PlanCache, entry: &Entry, plan: &Plan) {
    let packed = PackedExamples::of(&plan.examples);
    cache.store(entry, (plan, SOURCE_HASH), &packed, &[]);
}

/// A text's key, as the run gives it.
fn key(text: &str) -> String {
    varar_core::hash::sha256_hex(text.as_bytes())
}

fn stored(cache: &PlanCache, path: &str, text: &str) -> Option<Plan> {
    cache.load(&cache.entry(path, &key(text))).and_then(|kept| {
        assert_eq!(kept.source_hash, SOURCE_HASH);
        let mut plan = kept.plan;
        plan.examples = kept.packed.unpack_all()?;
        Some(plan)
    })
}

#[test]
fn a_plan_is_kept_with_its_texts_source_hash_and_refused_with_a_damaged_one() {
    for layout in [Layout::PerOath, Layout::Pack] {
        let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        let plan = a_plan("I deposit 5");
        let mut cache = cache_for(dir.path(), "steps", layout);
        let entry = cache.entry("varar/a.md", &key("text"));
        let packed = PackedExamples::of(&plan.examples);
        // Not a `sourceHash`: nothing is kept.
        cache.store(&entry, (&plan, "fnv1a:0123ABCD"), &packed, &[]);
        cache.finish();
        let mut cache = cache_for(dir.path(), "steps", layout);
        assert!(cache.load(&entry).is_none(), "{layout:?}");
        keep(&cache, &entry, &plan);
        cache.finish();
        let cache = cache_for(dir.path(), "steps", layout);
        assert_eq!(stored(&cache, "varar/a.md", "text"), Some(plan.clone()));
        // Its line damaged in the file: a miss.
        let file = match layout {
            Layout::Pack => dir.path().join(PACK),
            Layout::PerOath => cache.file("varar/a.md"),
        };
        drop(cache);
        let mut bytes = std::fs::read(&file).unwrap_or_default();
        let line = format!("\n{SOURCE_HASH}\n");
        let at = bytes
            .windows(line.len())
            .position(|w| w == line.as_bytes())
            .unwrap_or_else(|| panic!("{layout:?}: no line {line:?}"));
        // The last digit, `d`, made `g`: the same length, not hexadecimal.
        bytes[at + line.len() - 2] = b'g';
        std::fs::write(&file, bytes).unwrap_or_else(|e| panic!("{e}"));
        let cache = cache_for(dir.path(), "steps", layout);
        assert!(cache.load(&entry).is_none(), "{layout:?}");
    }
}

#[test]
fn a_plan_is_found_for_the_same_oath_text_and_steps_only() {
    for layout in [Layout::PerOath, Layout::Pack] {
        let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        let steps = format!("{} *", "b".repeat(64));
        let mut cache = cache_for(dir.path(), &steps, layout);
        let plan = a_plan("I deposit 5");
        assert_eq!(stored(&cache, "varar/a.md", "text"), None, "nothing yet");
        keep(&cache, &cache.entry("varar/a.md", &key("text")), &plan);
        cache.finish();
        let cache = cache_for(dir.path(), &steps, layout);
        assert_eq!(stored(&cache, "varar/a.md", "text"), Some(plan.clone()));
        assert_eq!(stored(&cache, "varar/a.md", "text edited"), None);
        assert_eq!(stored(&cache, "varar/b.md", "text"), None);
        let other = cache_for(dir.path(), &format!("{} one_item", "b".repeat(64)), layout);
        assert_eq!(stored(&other, "varar/a.md", "text"), None, "{layout:?}");
        let rebuilt = cache_for(dir.path(), &format!("{} *", "c".repeat(64)), layout);
        assert_eq!(stored(&rebuilt, "varar/a.md", "text"), None, "{layout:?}");
    }
}

/// Every file under `dir`, with its bytes.
fn files(dir: &Path) -> Vec<(PathBuf, Vec<u8>)> {
    let mut found = Vec::new();
    let mut left = vec![dir.to_path_buf()];
    while let Some(at) = left.pop() {
        for entry in std::fs::read_dir(&at).into_iter().flatten().flatten() {
            let path = entry.path();
            if path.is_dir() {
                left.push(path);
            } else {
                let bytes = std::fs::read(&path).unwrap_or_default();
                found.push((path, bytes));
            }
        }
    }
    found.sort();
    found
}

#[test]
fn a_listing_reads_the_plans_kept_and_writes_none() {
    for layout in [Layout::PerOath, Layout::Pack] {
        let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        let plan = a_plan("I deposit 5");
        let mut cache = cache_for(dir.path(), "steps", layout);
        keep(&cache, &cache.entry("varar/a.md", &key("text")), &plan);
        cache.finish();
        drop(cache);
        let before = files(dir.path());
        let mut listing = PlanCache::reading(dir.path(), "steps".to_owned(), layout);
        assert_eq!(stored(&listing, "varar/a.md", "text"), Some(plan.clone()));
        // A plan made now, and an oath that went: neither is written.
        keep(&listing, &listing.entry("varar/b.md", &key("b")), &plan);
        listing.retain(&[]);
        listing.finish();
        drop(listing);
        assert_eq!(files(dir.path()), before, "{layout:?}");
        let other = PlanCache::reading(dir.path(), "other".to_owned(), layout);
        assert_eq!(stored(&other, "varar/a.md", "text"), None, "{layout:?}");
    }
}

/// A run whose binary is still being hashed: its steps known later.
fn later(dir: &Path, steps: Option<&str>, layout: Layout) -> Option<PlanCache> {
    let steps = steps.map(str::to_owned);
    PlanCache::new(dir, Steps::Later(Box::new(move || steps)), layout)
}

#[test]
fn a_pack_whose_steps_are_known_later_reads_nothing_and_is_written_under_them() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let plan = a_plan("I deposit 5");
    let mut cache = cache_for(dir.path(), "steps", Layout::Pack);
    keep(&cache, &cache.entry("varar/a.md", &key("text")), &plan);
    cache.finish();
    // A binary not hashed yet has no pack of its own: none is read,
    // even one of the steps it turns out to have.
    let mut cache =
        later(dir.path(), Some("steps"), Layout::Pack).unwrap_or_else(|| panic!("a pack"));
    assert_eq!(stored(&cache, "varar/a.md", "text"), None);
    let edited = a_plan("I deposit 6");
    keep(&cache, &cache.entry("varar/a.md", &key("text 2")), &edited);
    cache.finish();
    // Its plans are written under the steps it learnt.
    let cache = cache_for(dir.path(), "steps", Layout::Pack);
    assert_eq!(stored(&cache, "varar/a.md", "text 2"), Some(edited));
    assert_eq!(
        stored(&cache, "varar/a.md", "text"),
        None,
        "the pack replaced"
    );
    // Steps that cannot be learnt: nothing is written.
    let pack = std::fs::read(dir.path().join(PACK)).unwrap_or_else(|e| panic!("{e}"));
    let mut cache = later(dir.path(), None, Layout::Pack).unwrap_or_else(|| panic!("a pack"));
    keep(&cache, &cache.entry("varar/b.md", &key("b")), &plan);
    cache.finish();
    let after = std::fs::read(dir.path().join(PACK)).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(after, pack);
    // A file per oath is written as it is planned: its steps must be
    // known when it is opened.
    assert!(later(dir.path(), Some("steps"), Layout::PerOath).is_none());
}

#[test]
fn a_pack_is_written_again_only_when_a_plan_changed_or_an_oath_went() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let pack = dir.path().join(PACK);
    let run = |oaths: &[(&str, &str)]| {
        let mut cache = cache_for(dir.path(), "steps", Layout::Pack);
        for &(oath, text) in oaths {
            let entry = cache.entry(oath, &key(text));
            if cache.load(&entry).is_none() {
                keep(&cache, &entry, &a_plan(text));
            }
        }
        // As a run does: the pack read is let go once all is planned,
        // while the writer may still need an unchanged oath's bytes.
        cache.planned();
        let (first, _) = oaths[0];
        assert_eq!(stored(&cache, first, oaths[0].1), None, "let go");
        cache.finish();
        std::fs::metadata(&pack).and_then(|m| m.modified()).ok()
    };
    let first = run(&[("a.md", "one"), ("b.md", "two")]);
    assert!(first.is_some(), "written");
    let pack_then = std::fs::read(&pack).unwrap_or_default();
    assert_eq!(run(&[("b.md", "two"), ("a.md", "one")]), first, "unchanged");
    assert_eq!(std::fs::read(&pack).unwrap_or_default(), pack_then);
    // An edit: written again, the other oath's plan kept as it was.
    run(&[("a.md", "one, edited"), ("b.md", "two")]);
    let cache = cache_for(dir.path(), "steps", Layout::Pack);
    assert_eq!(
        stored(&cache, "a.md", "one, edited"),
        Some(a_plan("one, edited"))
    );
    assert_eq!(stored(&cache, "b.md", "two"), Some(a_plan("two")));
    drop(cache);
    // An oath gone: written again without it.
    run(&[("b.md", "two")]);
    let cache = cache_for(dir.path(), "steps", Layout::Pack);
    assert_eq!(stored(&cache, "a.md", "one, edited"), None);
    assert_eq!(stored(&cache, "b.md", "two"), Some(a_plan("two")));
}

#[test]
fn a_full_runs_oaths_keep_their_files_and_no_others() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let cache = cache_for(dir.path(), "steps", Layout::PerOath);
    for oath in ["varar/a.md", "varar/gone.md"] {
        keep(&cache, &cache.entry(oath, &key("text")), &a_plan("x"));
    }
    let pending = cache.dir.join(format!("{}1", store::TEMP_PREFIX));
    std::fs::write(&pending, "being written").unwrap_or_else(|e| panic!("{e}"));
    let discovered = [OathFile {
        oath_path: "varar/a.md".to_owned(),
        path: dir.path().join("varar/a.md"),
    }];
    cache.retain(&discovered);
    assert!(stored(&cache, "varar/a.md", "text").is_some());
    assert_eq!(stored(&cache, "varar/gone.md", "text"), None);
    assert!(!cache.file("varar/gone.md").exists());
    assert!(
        pending.exists(),
        "a temporary is left to the writer's sweep"
    );
}

#[test]
fn a_damaged_file_is_a_miss() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let cache = cache_for(dir.path(), "steps", Layout::PerOath);
    keep(
        &cache,
        &cache.entry("varar/a.md", &key("text")),
        &a_plan("x"),
    );
    let file = cache.file("varar/a.md");
    let whole = std::fs::read(&file).unwrap_or_else(|e| panic!("{e}"));
    std::fs::write(&file, &whole[..whole.len() - 3]).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(stored(&cache, "varar/a.md", "text"), None);
    std::fs::write(&file, [0xff, 0xfe]).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(stored(&cache, "varar/a.md", "text"), None);
    // A pack cut short keeps the entries before the cut.
    let mut packed = cache_for(dir.path(), "steps", Layout::Pack);
    for oath in ["a.md", "b.md"] {
        keep(&packed, &packed.entry(oath, &key("text")), &a_plan(oath));
    }
    packed.finish();
    let pack = dir.path().join(PACK);
    let whole = std::fs::read(&pack).unwrap_or_else(|e| panic!("{e}"));
    std::fs::write(&pack, &whole[..whole.len() - 3]).unwrap_or_else(|e| panic!("{e}"));
    let cut = cache_for(dir.path(), "steps", Layout::Pack);
    let found = ["a.md", "b.md"].map(|o| stored(&cut, o, "text").is_some());
    assert_eq!(found.iter().filter(|&&f| f).count(), 1, "{found:?}");
}

/// Bodies are read from the pack a run opened, when each oath is
/// planned: a pack another run writes meanwhile (a new file in its
/// place) changes nothing this run reads or writes back.
#[test]
fn a_pack_replaced_after_it_was_opened_is_read_as_it_was() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let pack = dir.path().join(PACK);
    let write = |plans: &[(&str, &str)]| {
        let mut cache = cache_for(dir.path(), "steps", Layout::Pack);
        for &(oath, text) in plans {
            keep(&cache, &cache.entry(oath, &key("text")), &a_plan(text));
        }
        cache.finish();
    };
    write(&[("a.md", "old a"), ("b.md", "old b")]);
    let mut reading = cache_for(dir.path(), "steps", Layout::Pack);
    // Another run's pack takes its place.
    std::fs::rename(&pack, dir.path().join("kept")).unwrap_or_else(|e| panic!("{e}"));
    write(&[("a.md", "new a"), ("b.md", "new b")]);
    assert_eq!(stored(&reading, "a.md", "text"), Some(a_plan("old a")));
    // The other oath is planned anew: the pack is written again, with
    // the first oath's body copied from the file this run opened.
    let changed = reading.entry("b.md", &key("edited"));
    keep(&reading, &changed, &a_plan("b, edited"));
    reading.planned();
    reading.finish();
    let next = cache_for(dir.path(), "steps", Layout::Pack);
    assert_eq!(stored(&next, "a.md", "text"), Some(a_plan("old a")));
    assert_eq!(stored(&next, "b.md", "edited"), Some(a_plan("b, edited")));
}
