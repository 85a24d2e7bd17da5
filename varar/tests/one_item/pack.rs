//! The pack a run of every oath keeps its plans in
//! (`.varar/.cache/plans.pack`): read back by the next run and by a
//! listing, written again only when a plan changed.

use super::*;

/// Every result file under `.varar/`, by path.
fn results(root: &Path) -> Vec<(String, String)> {
    ["varar/ledger.md", "varar/tally.md"]
        .iter()
        .map(|oath| {
            let path = root.join(".varar").join(format!("{oath}.json"));
            (
                oath.to_string(),
                std::fs::read_to_string(path).expect("results"),
            )
        })
        .collect()
}

/// The entries of `.varar/.cache/plans.pack`: its first line, then per
/// oath its line and body.
fn pack_entries(root: &Path) -> (String, Vec<(String, Vec<u8>)>) {
    let bytes = std::fs::read(root.join(".varar/.cache/plans.pack")).expect("the pack");
    let line = |from: usize| line_end(&bytes, from);
    let first = line(0);
    let header = String::from_utf8(bytes[..first].to_vec()).expect("text");
    let mut entries = Vec::new();
    let mut at = first + 1;
    while at < bytes.len() {
        let end = line(at);
        let head = String::from_utf8(bytes[at..end].to_vec()).expect("text");
        let len: usize = head
            .split(' ')
            .nth(1)
            .expect("a length")
            .parse()
            .expect("a number");
        entries.push((head, bytes[end + 1..end + 1 + len].to_vec()));
        at = end + 1 + len;
    }
    (header, entries)
}

#[test]
fn a_full_run_plans_only_the_oaths_that_changed_since_the_last() {
    let (_dir, root) = project(&[("varar/ledger.md", LEDGER.as_bytes())]);
    let failing = "[varar] varar/ledger.md::Ledger::I count 3. The tally is 4";
    let (_, first) = run(&root, &[]);
    // Every readable oath's plan is kept, in one pack (the unreadable oath
    // has none), and no file per oath.
    let (header, entries) = pack_entries(&root);
    assert!(header.starts_with("varar plans 7 "), "{header}");
    assert_eq!(entries.len(), 3, "{first}");
    assert!(plan_files(&root).is_empty());
    let lock = std::fs::read_to_string(root.join("varar.lock.json")).expect("lock");
    let written = results(&root);

    // A second run reads them back: the same outcomes, lock and results
    // (drift's candidates come back too), and leaves the pack as it was.
    let pack = std::fs::read(root.join(".varar/.cache/plans.pack")).expect("pack");
    let (_, second) = run(&root, &[]);
    assert_eq!(executed(&second), executed(&first));
    assert_eq!(
        std::fs::read_to_string(root.join("varar.lock.json")).expect("lock"),
        lock
    );
    assert_eq!(results(&root), written);
    assert_eq!(
        std::fs::read(root.join(".varar/.cache/plans.pack")).expect("pack"),
        pack
    );

    // Each plan is kept with its text's `sourceHash`, which a run that
    // reads the plan takes instead of reading the text for it: a forged
    // one is what the result file says.
    let source_hash = |root: &Path| {
        let (_, entries) = pack_entries(root);
        let (_, body) = (entries.iter())
            .find(|(head, _)| head.ends_with(" varar/tally.md"))
            .expect("tally's plan");
        let end = line_end(body, 0);
        String::from_utf8(body[..end].to_vec()).expect("text")
    };
    let kept = source_hash(&root);
    let tally = |root: &Path| results(root).remove(1).1;
    assert!(tally(&root).contains(&format!("\"sourceHash\": \"{kept}\"")));
    let mut forged = pack.clone();
    let at = (forged.windows(kept.len()))
        .position(|w| w == kept.as_bytes())
        .expect("the hash in the pack");
    forged[at..at + kept.len()].copy_from_slice(b"fnv1a:00000000");
    std::fs::write(root.join(".varar/.cache/plans.pack"), &forged).expect("forge");
    run(&root, &[]);
    assert!(tally(&root).contains("\"sourceHash\": \"fnv1a:00000000\""));
    std::fs::write(root.join(".varar/.cache/plans.pack"), &pack).expect("restore");
    run(&root, &[]);
    assert_eq!(results(&root), written);

    // Really read back: a forged plan in the pack is obeyed.
    forge_pack(&root, "varar/ledger.md", expecting_three);
    let (_, log) = run(&root, &[]);
    let outcome = executed(&log).into_iter().find(|(n, _)| n == failing);
    assert_eq!(outcome.map(|(_, o)| o), Some("ok".to_string()), "{log}");

    // An edit: that oath is planned again (the document counts), the pack
    // written again with the others as they were.
    let edited = LEDGER.replace("Prose between.", "Prose, edited.");
    std::fs::write(root.join("varar/ledger.md"), edited).expect("edit");
    let (_, log) = run(&root, &[]);
    let outcome = executed(&log).into_iter().find(|(n, _)| n == failing);
    assert_eq!(outcome.map(|(_, o)| o), Some("FAILED".to_string()), "{log}");
    assert_eq!(pack_entries(&root).1.len(), 3);

    // A listing reads the plans kept for this binary and writes none: a
    // forged name is listed, and the pack stays as it was.
    let forged = forge_pack(&root, "varar/ledger.md", |plan| {
        let mut forged = plan.clone();
        forged.examples[0].name = "Forged name".to_owned();
        forged
    });
    let (_, listed) = run(&root, &["--list"]);
    assert!(
        listed.contains("[varar] varar/ledger.md::Ledger::Forged name: test\n"),
        "{listed}"
    );
    let pack = root.join(".varar/.cache/plans.pack");
    assert_eq!(std::fs::read(&pack).expect("pack"), forged);
    assert!(plan_files(&root).is_empty());
    // Without a pack, it plans every oath and keeps no plan.
    std::fs::remove_file(&pack).expect("clear");
    let (_, listed) = run(&root, &["--list"]);
    assert!(listed.contains(failing), "{listed}");
    assert!(!listed.contains("Forged name"), "{listed}");
    assert!(!pack.exists());
    assert!(plan_files(&root).is_empty());
}

/// Write `.varar/.cache/plans.pack` again with the plan of `oath` made by
/// `forge` from the one kept (its candidates as they were); the bytes
/// written.
fn forge_pack(
    root: &Path,
    oath: &str,
    forge: impl Fn(&varar_core::plan::Plan) -> varar_core::plan::Plan,
) -> Vec<u8> {
    let (header, entries) = pack_entries(root);
    let mut forged = format!("{header}\n").into_bytes();
    for (head, body) in &entries {
        let body = if head.ends_with(&format!(" {oath}")) {
            // The text's `sourceHash`, a line, then the plan.
            let end = line_end(body, 0);
            let (plan, candidates) = varar_core::stored::decode(&body[end + 1..]).expect("a plan");
            [
                &body[..=end],
                &varar_core::stored::encode(&forge(&plan), &candidates),
            ]
            .concat()
        } else {
            body.clone()
        };
        let mut fields: Vec<&str> = head.splitn(3, ' ').collect();
        let len = body.len().to_string();
        fields[1] = &len;
        forged.extend_from_slice(format!("{}\n", fields.join(" ")).as_bytes());
        forged.extend_from_slice(&body);
    }
    std::fs::write(root.join(".varar/.cache/plans.pack"), &forged).expect("forge");
    forged
}
