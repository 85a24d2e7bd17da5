//! The report in a real browser (headless Chromium), end to end: a copy of
//! the sample project with a failing example in a paragraph, a failing row
//! of a header-bound table, a drifted paragraph (issue 19: drawn from the
//! run record), a stale oath and an XSS probe oath; its real `cargo test`
//! writes `.varar/` and its run history (issue 20: an earlier run of the
//! same sources in which the basket's failing example passed is added to
//! it, so that example is flaky); `cargo varar report` renders the site;
//! Chromium loads the pages and dumps the DOM it built, and takes a
//! screenshot (saved under `target/varar-e2e/` as an artifact).
//!
//! The test fails, never skips, when Chromium cannot run: `.ci/run`
//! installs Debian's `chromium`. `VARAR_CHROMIUM` names another binary.

#[path = "../../tests/tests/support/mod.rs"]
mod support;

use std::io::Read as _;
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use support::{LockExample, PROBE_OATH, PROBE_START, Sample, workspace_root};

fn chromium() -> PathBuf {
    if let Some(path) = std::env::var_os("VARAR_CHROMIUM") {
        return PathBuf::from(path);
    }
    for candidate in ["/usr/bin/chromium", "/usr/bin/chromium-browser"] {
        if Path::new(candidate).is_file() {
            return PathBuf::from(candidate);
        }
    }
    panic!(
        "headless Chromium is needed for this test and was not found at /usr/bin/chromium: \
         install Debian's `chromium` package (.ci/run does) or set VARAR_CHROMIUM"
    );
}

/// Run Chromium headless on `url` with `mode` (`--dump-dom` or
/// `--screenshot=…`); returns stdout. Panics when it cannot run.
fn chromium_run(url: &str, mode: &str, profile: &Path) -> String {
    let binary = chromium();
    let output = Command::new(&binary)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--disable-quic",
            "--no-first-run",
            "--hide-scrollbars",
            "--window-size=1000,1500",
            "--virtual-time-budget=3000",
        ])
        .arg(format!("--user-data-dir={}", profile.display()))
        .arg(mode)
        .arg(url)
        .output()
        .unwrap_or_else(|e| panic!("cannot run {}: {e}", binary.display()));
    assert!(
        output.status.success(),
        "{} failed ({}):\n{}",
        binary.display(),
        output.status,
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8_lossy(&output.stdout).into_owned()
}

/// The element of the oath's text (`<main>`) that holds `needle`, from its
/// opening tag to the end of the needle (its attributes and text).
fn element_around<'a>(dom: &'a str, tag: &str, needle: &str) -> &'a str {
    let main = dom
        .find("<main")
        .unwrap_or_else(|| panic!("no <main> in the DOM:\n{dom}"));
    let dom = &dom[main..];
    let at = dom
        .find(needle)
        .unwrap_or_else(|| panic!("{needle:?} not in the DOM:\n{dom}"));
    let start = dom[..at]
        .rfind(&format!("<{tag}"))
        .unwrap_or_else(|| panic!("no <{tag}> before {needle:?}"));
    &dom[start..at + needle.len()]
}

#[test]
fn the_report_reads_right_in_headless_chromium() {
    let sample = Sample::copy();
    // A server no page may reach: every load an oath could trigger points here.
    let beacon = TcpListener::bind("127.0.0.1:0").unwrap_or_else(|e| panic!("{e}"));
    beacon
        .set_nonblocking(true)
        .unwrap_or_else(|e| panic!("{e}"));
    let port = beacon.local_addr().map(|a| a.port()).unwrap_or(0);
    let probe = format!(
        "# Probe <script>document.title = \"pwned\"</script>\n\n\
         <script>document.body.setAttribute(\"data-pwned\", \"script\")</script>\n\n\
         I put 1 baguette in the basket, so the total is £9.99. \
         <img src=\"http://127.0.0.1:{port}/img\" onerror=\"document.body.setAttribute('data-pwned', 'img')\">\n\n\
         [click me](javascript:document.body.setAttribute('data-pwned','link'))\n\n\
         ![beacon](http://127.0.0.1:{port}/md-image)\n\n\
         <iframe src=\"http://127.0.0.1:{port}/frame\"></iframe>\n\n\
         <link rel=\"stylesheet\" href=\"http://127.0.0.1:{port}/css\">\n"
    );
    std::fs::write(sample.root().join("varar/probe.md"), probe).unwrap_or_else(|e| panic!("{e}"));
    // A failing inline parameter and a failing header-bound row.
    sample.edit(
        "varar/basket.md",
        "so the total is £2.40.",
        "so the total is £2.50.",
    );
    sample.edit(
        "varar/shelf.md",
        "| 2       | 40    | 42   | 0       |",
        "| 2       | 40    | 42   | 1       |",
    );
    // A drift: the baseline claims the shelf's prose paragraph was an example.
    let probe_text = sample.read(PROBE_OATH);
    let (probe_index, probe_line) = probe_text
        .lines()
        .enumerate()
        .find(|(_, l)| l.starts_with(PROBE_START))
        .unwrap_or_else(|| panic!("{PROBE_OATH} has no paragraph starting {PROBE_START:?}"));
    let mut lock = sample.parse_lock();
    lock.oaths
        .get_mut(PROBE_OATH)
        .unwrap_or_else(|| panic!("the lock has no entry for {PROBE_OATH}"))
        .examples
        .insert(
            0,
            LockExample {
                name: probe_line.trim().trim_end_matches('.').to_owned(),
                line: probe_index as u64 + 1,
            },
        );
    sample.write_lock(&lock.to_bytes());

    let history = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let history_dir = history.path().display().to_string();
    let run = sample.cargo_test(&[], &[("VARAR_HISTORY", history_dir.as_str())]);
    assert_eq!(
        run.code,
        Some(101),
        "the sample must fail\n{}",
        run.combined()
    );
    let flaky_example = earlier_run_where_the_basket_passed(history.path());
    // Edited after the run: its results are stale.
    let serving = sample.read("varar/serving-a-customer.md");
    std::fs::write(
        sample.root().join("varar/serving-a-customer.md"),
        format!("{serving}\nA paragraph written after the run.\n"),
    )
    .unwrap_or_else(|e| panic!("{e}"));

    let report = Command::new(env!("CARGO_BIN_EXE_cargo-varar"))
        .args(["varar", "report", "--root"])
        .arg(sample.root())
        .env("VARAR_HISTORY", history.path())
        .output()
        .unwrap_or_else(|e| panic!("cannot run cargo-varar: {e}"));
    let stderr = String::from_utf8_lossy(&report.stderr);
    assert_eq!(report.status.code(), Some(0), "{stderr}");
    let index = PathBuf::from(String::from_utf8_lossy(&report.stdout).trim());
    let site = index.parent().map(Path::to_path_buf).unwrap_or_default();
    let url = |rel: &str| format!("file://{}", site.join(rel).display());

    let profile = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));

    // The failing row: its cell carries the failed state, expected and actual.
    let shelf = chromium_run(
        &url("oaths/varar/shelf.md.html"),
        "--dump-dom",
        profile.path(),
    );
    let cell = element_around(
        &shelf,
        "td",
        "<span class=\"varar-k\">actual</span> <code class=\"varar-actual\">0</code>",
    );
    assert!(cell.contains("data-varar-state=\"failed\""), "{cell}");
    assert!(cell.contains(">1</mark>"), "{cell}");
    assert!(
        cell.contains("<code class=\"varar-expected\">1</code>"),
        "{cell}"
    );
    let row = element_around(&shelf, "tr", "<code class=\"varar-actual\">0</code>");
    assert!(
        row.starts_with(
            "<tr id=\"L28\" class=\"varar-row varar-failed\" data-varar-state=\"failed\""
        ),
        "{row}"
    );

    // The drift, which no result file holds: its line is marked, and its
    // callout carries the run record's message.
    let drift_mark = element_around(&shelf, "mark", PROBE_START);
    assert!(
        drift_mark.contains("data-varar-state=\"failed\""),
        "{drift_mark}"
    );
    let drift_label = "<span class=\"varar-k\">drift:</span>";
    let drift_note = element_around(&shelf, "span class=\"varar-callout\"", drift_label);
    assert!(
        drift_note.contains("data-varar-state=\"failed\""),
        "{drift_note}"
    );
    let after = &shelf[shelf.find(drift_note).unwrap_or(0) + drift_note.len()..];
    assert!(
        after[..after.find("</span>").unwrap_or(after.len())]
            .contains("no longer matches any step (drift)"),
        "the drift's callout holds its message: {after}"
    );
    assert!(
        shelf.contains(&format!("“{PROBE_OATH}::varar:drift:{}”", probe_index + 1)),
        "the failure list names the drift item"
    );

    // The failing inline parameter: exactly £2.50 is marked, with both values.
    let basket = chromium_run(
        &url("oaths/varar/basket.md.html"),
        "--dump-dom",
        profile.path(),
    );
    let mark = element_around(&basket, "mark", "£2.50</mark>");
    assert!(
        mark.contains("data-varar-state=\"failed\"") && mark.contains("tabindex=\"0\""),
        "{mark}"
    );
    let note = element_around(
        &basket,
        "span class=\"varar-callout\"",
        "<code class=\"varar-actual\">£2.40</code>",
    );
    assert!(
        note.contains("<code class=\"varar-expected\">£2.50</code>"),
        "{note}"
    );
    let block = element_around(&basket, "p", "£2.50</mark>");
    assert!(
        block.contains("class=\"varar-example varar-failed\""),
        "{block}"
    );
    assert!(
        basket.contains("class=\"varar-example varar-passed\""),
        "passing examples are marked too"
    );

    // The stale oath: a banner, counts, no span.
    let stale = chromium_run(
        &url("oaths/varar/serving-a-customer.md.html"),
        "--dump-dom",
        profile.path(),
    );
    assert!(stale.contains("These results are stale."), "{stale}");
    assert!(
        stale.contains("1 example ran: 1 passed, 0 failed"),
        "{stale}"
    );
    assert!(!stale.contains("<mark"), "{stale}");

    // The probe: nothing ran, nothing loaded.
    let probe = chromium_run(
        &url("oaths/varar/probe.md.html"),
        "--dump-dom",
        profile.path(),
    );
    for banned in [
        "<script",
        "<img",
        "<iframe",
        "<link rel=\"stylesheet\" href=\"http",
        "data-pwned=",
        "href=\"javascript:",
    ] {
        assert!(
            !probe.contains(banned),
            "{banned} in the probe's DOM:\n{probe}"
        );
    }
    assert!(!probe.contains("<title>pwned"), "{probe}");
    assert!(
        probe.contains("&lt;script&gt;"),
        "raw HTML shows as text: {probe}"
    );
    assert!(
        probe.contains("£9.99</mark>"),
        "the probe's failure is drawn: {probe}"
    );

    // The history: the failing example passed in the earlier run, so its
    // row shows both runs, oldest first, and the flaky badge.
    // The list of examples sits in the header, before `<main>`.
    let badge = basket
        .find("<span class=\"varar-flaky\"")
        .unwrap_or_else(|| panic!("no flaky badge on the basket's page:\n{basket}"));
    let row = &basket[basket[..badge].rfind("<tr").unwrap_or(0)..badge];
    let earlier = row
        .find("title=\"earlier-run: passed\"")
        .unwrap_or(usize::MAX);
    let latest = row.find(": failed\"").unwrap_or(0);
    assert!(earlier < latest, "oldest first: {row}");
    assert!(row.contains(&flaky_example), "{row}");

    // The index: the flaky example listed before the oaths, the states in
    // words.
    let index_dom = chromium_run(&url("index.html"), "--dump-dom", profile.path());
    let listed = index_dom.find("Flaky examples (1)").unwrap_or(usize::MAX);
    assert!(
        listed < index_dom.find("<table").unwrap_or(0),
        "{index_dom}"
    );
    for state in ["failed", "stale results"] {
        assert!(
            index_dom.contains(&format!("</span> {state}</span>")),
            "{state}: {index_dom}"
        );
    }

    // A screenshot of the failing page, kept as an artifact.
    let artifacts = workspace_root().join("target").join("varar-e2e");
    std::fs::create_dir_all(&artifacts).unwrap_or_else(|e| panic!("{e}"));
    let shot = artifacts.join("report-shelf.png");
    let _ = std::fs::remove_file(&shot);
    chromium_run(
        &url("oaths/varar/shelf.md.html"),
        &format!("--screenshot={}", shot.display()),
        profile.path(),
    );
    let png =
        std::fs::read(&shot).unwrap_or_else(|e| panic!("no screenshot at {}: {e}", shot.display()));
    assert!(
        png.starts_with(b"\x89PNG") && png.len() > 10_000,
        "not a real screenshot"
    );

    // No page reached the beacon.
    std::thread::sleep(Duration::from_millis(200));
    match beacon.accept() {
        Ok((mut stream, addr)) => {
            let mut request = String::new();
            let _ = stream.set_read_timeout(Some(Duration::from_millis(200)));
            let _ = stream.read_to_string(&mut request);
            panic!("a page connected to the beacon from {addr}: {request}");
        }
        Err(e) => assert_eq!(e.kind(), std::io::ErrorKind::WouldBlock, "{e}"),
    }
}

/// Add to the history at `dir` a copy of its one run, as an earlier run of
/// the same sources in which the basket's failing example passed; return
/// that example's name as the results record it.
fn earlier_run_where_the_basket_passed(dir: &Path) -> String {
    // The history's runs: its directories (beside the `.varar-history`
    // mark, issue 34).
    let runs: Vec<PathBuf> = std::fs::read_dir(dir)
        .into_iter()
        .flatten()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.is_dir())
        .collect();
    assert_eq!(runs.len(), 1, "the run is kept: {runs:?}");
    let record = std::fs::read_dir(&runs[0])
        .into_iter()
        .flatten()
        .flatten()
        .map(|e| e.path())
        .find(|p| p.extension().is_some_and(|x| x == "run"))
        .unwrap_or_else(|| panic!("no record in {}", runs[0].display()));
    let text = std::fs::read_to_string(&record).unwrap_or_else(|e| panic!("{e}"));
    let mut value: serde_json::Value =
        serde_json::from_str(&text).unwrap_or_else(|e| panic!("{e}"));
    value["runId"] = "earlier-run".into();
    value["startedAt"] = "2020-01-01T00:00:00.000Z".into();
    value["endedAt"] = "2020-01-01T00:00:01.000Z".into();
    let mut name = String::new();
    for item in value["items"].as_array_mut().into_iter().flatten() {
        if item["oathPath"] == "varar/basket.md" && item["outcome"] == "failed" {
            item["outcome"] = "passed".into();
            if let Some(fields) = item.as_object_mut() {
                fields.remove("message");
            }
            let full = item["name"].as_str().unwrap_or("");
            name = full.rsplit("::").next().unwrap_or("").to_owned();
        }
    }
    assert!(!name.is_empty(), "no failed basket item in {text}");
    let to = dir.join("earlier-run");
    std::fs::create_dir_all(&to).unwrap_or_else(|e| panic!("{e}"));
    let bytes = serde_json::to_string_pretty(&value).unwrap_or_default();
    std::fs::write(to.join("p.run"), bytes).unwrap_or_else(|e| panic!("{e}"));
    name
}
