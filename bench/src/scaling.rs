//! The scaling table: how the harness's cost grows with the corpus, each
//! figure printed next to the one it must stay near (issue 9). Every run is
//! the real test binary (or `cargo nextest run`) of a throwaway project,
//! built per profile; a run that outlives `--timeout` is killed and shown as
//! `> T s`, and larger sizes of the same series are then skipped.

use std::path::Path;
use std::time::Duration;

use crate::corpus;
use crate::nextest_floor::{middle_item, nextest_row};
use crate::project::{Profile, Project, Timed};
use crate::scale_options::ratio;
pub use crate::scale_options::{ScaleOptions, config};

/// Size of the big oath of issue 9.
const BIG_BYTES: usize = 10_000_000;

/// Where the prose series puts its oath.
const PROSE_OATH: &str = "varar/prose-oath.md";

/// Sentences of the one-paragraph series: none matches a corpus step.
const PROSE: [&str; 4] = [
    "Tellers like tidy books.",
    "So do auditors!",
    "Why would anyone keep a messy ledger?",
    "Coins are counted twice.",
];

/// Measure and print the whole table.
pub fn measure(work: &Path, o: &ScaleOptions) -> Result<(), String> {
    println!();
    println!(
        "== scaling table (timeout {:.0} s per command; each row names the figure it is compared with) ==",
        o.timeout.as_secs_f64()
    );
    let mut debug_first: Vec<(Profile, Duration)> = Vec::new();
    for &profile in &o.profiles {
        let (project, build) = Project::build(work, profile, &o.opt_crates, o.cold_build)?;
        println!();
        println!("-- profile {} --", profile.label());
        if o.cold_build {
            println!(
                "  cold build (empty target dir)     {:>9.1} s",
                build.as_secs_f64()
            );
        }
        let first = corpus_rows(work, &project, o)?;
        if profile != Profile::Release {
            debug_first.push((profile, first));
        }
        size_rows(work, &project, o)?;
        for &(n, m) in &o.nextest {
            nextest_row(work, &project, o, n, m)?;
        }
    }
    if debug_first.len() == 2 {
        println!();
        println!(
            "debug without / with the profile lines ({}): first run {:.3} s / {:.3} s (goal: <= 0.5 s with them)",
            o.opt_crates.join(", "),
            debug_first[0].1.as_secs_f64(),
            debug_first[1].1.as_secs_f64()
        );
    }
    Ok(())
}

/// First run, second run, `--list`, one item, wall vs CPU on the N × M
/// corpus, each the median of `o.runs`. Returns the first run's wall time.
fn corpus_rows(work: &Path, project: &Project, o: &ScaleOptions) -> Result<Duration, String> {
    let (n, m) = o.corpus;
    let c = corpus::generate(&work.join(format!("scale-corpus-{n}x{m}")), n, m, o.seed)?;
    let (mut first, mut second, mut list, mut one) = (vec![], vec![], vec![], vec![]);
    for _ in 0..o.runs.max(1) {
        project.install(&config(), &c.oaths)?;
        first.push(project.run_oaths(&[], o.timeout)?);
        second.push(project.run_oaths(&[], o.timeout)?);
        list.push(project.run_oaths(&["--list"], o.timeout)?);
        // What each `cargo nextest run` process does: one item, by name.
        let item = middle_item(project)?;
        one.push(project.run_oaths(&["--exact", &item], o.timeout)?);
    }
    let (first, second, list, one) = (
        median(&mut first),
        median(&mut second),
        median(&mut list),
        median(&mut one),
    );
    let examples = c.examples_total.max(1) as f64;
    println!(
        "  {n} x {m}: first run {:>10} ({:.1} µs/example; median of {})",
        first.show(),
        first.wall.as_secs_f64() * 1e6 / examples,
        o.runs.max(1)
    );
    println!(
        "  {n} x {m}: second run {:>9} = {:.2}x the first (goal <= 1.1x)",
        second.show(),
        ratio(&second, &first)
    );
    println!("  {n} x {m}: --list {:>13}", list.show());
    println!(
        "  {n} x {m}: one item (--exact) {:>9}   (what each nextest process does)",
        one.show()
    );
    match first.cpu {
        Some(cpu) => println!(
            "  {n} x {m}: first run wall {:.3} s / CPU {:.3} s = {:.2}x (goal <= 1.3x)",
            first.wall.as_secs_f64(),
            cpu.as_secs_f64(),
            first.wall.as_secs_f64() / cpu.as_secs_f64().max(1e-9)
        ),
        None => println!("  {n} x {m}: CPU time not available on this platform"),
    }
    Ok(first.wall)
}

/// The run with the median wall time.
fn median(runs: &mut [Timed]) -> Timed {
    runs.sort_by_key(|t| t.wall);
    runs[runs.len() / 2]
}

/// One oath of 1k … 64k examples (and the 10 MB oath): time per example,
/// first and second run.
/// The wall time of a run over one oath with nothing in it: process start,
/// registry, config; what a per-example or per-sentence cost excludes.
fn empty_run(project: &Project, o: &ScaleOptions) -> Result<Duration, String> {
    project.install(
        &config(),
        &[("varar/empty.md".to_string(), "# Empty\n".to_string())],
    )?;
    let mut runs = Vec::new();
    for _ in 0..o.runs.max(1) {
        runs.push(project.run_oaths(&[], o.timeout)?);
    }
    Ok(median(&mut runs).wall)
}

/// Time per item once the fixed cost of a run is taken off.
fn net_us(t: &Timed, fixed: Duration, items: usize) -> f64 {
    t.wall.saturating_sub(fixed).as_secs_f64() * 1e6 / items.max(1) as f64
}

fn size_rows(work: &Path, project: &Project, o: &ScaleOptions) -> Result<(), String> {
    let fixed = empty_run(project, o)?;
    println!(
        "  a run over one empty oath: {:.3} s (taken off the per-example and per-sentence figures)",
        fixed.as_secs_f64()
    );
    let mut sizes: Vec<Option<usize>> = o.sizes.iter().copied().map(Some).collect();
    if o.big {
        sizes.push(None);
    }
    let mut per_example: Vec<f64> = Vec::new();
    let mut skipping = false;
    for size in sizes {
        if skipping {
            let label =
                size.map_or_else(|| "the 10 MB oath".to_string(), |k| format!("{k} examples"));
            println!("  one oath of {label}: skipped (a smaller one timed out)");
            continue;
        }
        let (k, oath) = match size {
            Some(k) => {
                let c = corpus::generate(&work.join(format!("scale-oath-{k}")), 1, k, o.seed)?;
                (k, c.oaths)
            }
            None => big_oath(work, o.seed)?,
        };
        let c = corpus::Corpus {
            root: work.to_path_buf(),
            examples_total: k,
            expected_failures: 0,
            oaths: oath,
        };
        project.install(&config(), &c.oaths)?;
        let first = project.run_oaths(&[], o.timeout)?;
        let second = if first.killed {
            first
        } else {
            project.run_oaths(&[], o.timeout)?
        };
        let us = |t: &Timed| net_us(t, fixed, k);
        println!(
            "  one oath of {k:>6} examples ({:.1} MB): first {:>9} ({:>6.1} µs/example), second {:>9} ({:>6.1} µs/example)",
            c.bytes() as f64 / 1e6,
            first.show(),
            us(&first),
            second.show(),
            us(&second)
        );
        if first.killed || second.killed {
            skipping = true;
        } else if first.wall > fixed * 2 {
            // Runs barely longer than an empty one are all noise.
            per_example.push(us(&second).max(us(&first)));
        }
    }
    spread("per example", &per_example);
    sentence_rows(project, o, fixed)?;
    prose_rows(work, project, o, fixed)?;
    one_line_rows(project, o, fixed)
}

/// One oath of the 200 x 25 corpus's 5 000 examples and prose paragraphs
/// (none matches a step) between them, 1 … 10 MB: the time per MB, which
/// must stay flat (issue 23: the 10 MB oath under 2 s in plain debug), and
/// the floor of each: pulldown-cmark's own pass over the same file.
fn prose_rows(
    work: &Path,
    project: &Project,
    o: &ScaleOptions,
    fixed: Duration,
) -> Result<(), String> {
    if o.prose_mb.is_empty() {
        return Ok(());
    }
    let c = corpus::generate(&work.join("scale-corpus-200x25"), 200, 25, o.seed)?;
    let examples: String = c.oaths.iter().map(|(_, t)| format!("{t}\n")).collect();
    let paragraph: String = (0..40)
        .map(|i| PROSE[i % PROSE.len()])
        .collect::<Vec<_>>()
        .join(" ");
    let mut per_mb = Vec::new();
    for &mb in &o.prose_mb {
        let target = mb * 1_000_000;
        // The prose is spread between the corpus's oaths, as a long
        // document's explanations sit between its examples.
        let parts = c.oaths.len().max(1);
        let prose_bytes = target.saturating_sub(examples.len());
        let per_part = prose_bytes / parts / (paragraph.len() + 2) + 1;
        let mut text = String::with_capacity(target + 4_096);
        for (_, part) in &c.oaths {
            text.push_str(part);
            text.push('\n');
            for _ in 0..per_part {
                if text.len() >= target {
                    break;
                }
                text.push_str(&paragraph);
                text.push_str("\n\n");
            }
        }
        let mut firsts = Vec::new();
        for _ in 0..o.runs.max(1) {
            project.install(&config(), &[(PROSE_OATH.to_string(), text.clone())])?;
            let run = project.run_oaths(&[], o.timeout)?;
            firsts.push(run);
            if run.killed {
                break;
            }
        }
        let first = median(&mut firsts);
        let mbs = text.len() as f64 / 1e6;
        let net = first.wall.saturating_sub(fixed).as_secs_f64();
        println!(
            "  one oath of {:>5.1} MB, {} examples and prose: first {:>9}{} ({:.3} s/MB; median of {}) (goal: 10 MB < 2 s in plain debug)",
            mbs,
            c.examples_total,
            first.show(),
            cpu(&first),
            net / mbs,
            firsts.len()
        );
        if first.killed {
            break;
        }
        markdown_floor_row(project, o, mbs, &first)?;
        per_mb.push(net / mbs * 1e6);
        check_row(project, o, mbs)?;
    }
    spread("per MB (µs)", &per_mb);
    Ok(())
}

/// pulldown-cmark's own pass over the installed prose oath, in a binary of
/// the same build as the oaths binary (issue 39: the whole first run within
/// 2x of it), beside the first run: wall and CPU, medians of `o.runs`. The
/// file is the one the first runs read, so the page cache is warm for both.
fn markdown_floor_row(
    project: &Project,
    o: &ScaleOptions,
    mbs: f64,
    first: &Timed,
) -> Result<(), String> {
    let events = project.check_markdown_floor(PROSE_OATH)?;
    let mut runs = Vec::new();
    for _ in 0..o.runs.max(1) {
        runs.push(project.run_markdown_floor(PROSE_OATH, o.timeout)?);
    }
    let floor = median(&mut runs);
    let cpu_ratio = match (first.cpu, floor.cpu) {
        (Some(a), Some(b)) => format!(", CPU {:.2}x", a.as_secs_f64() / b.as_secs_f64().max(1e-9)),
        _ => String::new(),
    };
    println!(
        "  one oath of {mbs:>5.1} MB: pulldown-cmark's own pass {:>9}{} (start, read, parse: {events}); the first run = {:.2}x it{cpu_ratio} (goal <= 2x)",
        floor.show(),
        cpu(&floor),
        ratio(first, &floor)
    );
    Ok(())
}

/// ` (CPU 1.234 s)`, where the platform tells.
fn cpu(t: &Timed) -> String {
    t.cpu
        .map_or_else(String::new, |c| format!(" (CPU {:.3} s)", c.as_secs_f64()))
}

/// `cargo varar check` of the installed project, in process, next to the
/// test binary planning the same project (`--list`, which writes nothing):
/// their ratio, which must stay near 1 (issue 34: `check` was quadratic on
/// a long oath). Shown only when this bench was built with the project's
/// profile; otherwise the two are not comparable.
fn check_row(project: &Project, o: &ScaleOptions, mbs: f64) -> Result<(), String> {
    let this_build = if cfg!(debug_assertions) {
        Profile::Debug
    } else {
        Profile::Release
    };
    if project.profile != this_build {
        return Ok(());
    }
    let list = project.run_oaths(&["--list"], o.timeout)?;
    let root = varar_project::root::ProjectRoot {
        explicit: Some(project.dir.clone()),
        cwd: project.dir.clone(),
    };
    let start = std::time::Instant::now();
    let report = varar_cli::commands::check::shell::report(&root);
    let check = start.elapsed();
    println!(
        "  one oath of {mbs:>5.1} MB: cargo varar check {:.3} s (exit {}) / the test binary's --list {} = {:.2}x (goal <= 1.5x)",
        check.as_secs_f64(),
        report.exit_code,
        list.show(),
        check.as_secs_f64() / list.wall.as_secs_f64().max(1e-9)
    );
    Ok(())
}

/// One oath of K one-line examples (`---` between them): the time per
/// example, which must stay flat up to 180 000 (issue 23).
fn one_line_rows(project: &Project, o: &ScaleOptions, fixed: Duration) -> Result<(), String> {
    let mut per_example = Vec::new();
    for &k in &o.one_line {
        let mut text = String::from("# One-line examples\n\n");
        for i in 0..k {
            text.push_str(&format!(
                "Ada deposits {n}, so the balance is {n}.\n\n---\n\n",
                n = i % 1000
            ));
        }
        project.install(
            &config(),
            &[("varar/one-line.md".to_string(), text.clone())],
        )?;
        let first = project.run_oaths(&[], o.timeout)?;
        let us = net_us(&first, fixed, k);
        println!(
            "  one oath of {k:>6} one-line examples ({:.1} MB): first {:>9}{} ({us:>6.1} µs/example) (goal: 180 000 <= 5 s)",
            text.len() as f64 / 1e6,
            first.show(),
            cpu(&first)
        );
        if first.killed {
            println!("  larger one-line oaths skipped (this one timed out)");
            break;
        }
        per_example.push(us);
    }
    spread("per one-line example", &per_example);
    Ok(())
}

/// The 10 MB oath: 25-example oaths of the corpus joined into one file.
fn big_oath(work: &Path, seed: u64) -> Result<(usize, Vec<(String, String)>), String> {
    // 200 such oaths make 0.5 MB; a few more than needed, then cut.
    let n = BIG_BYTES / 2_400 + 1;
    let c = corpus::generate(&work.join("scale-big-parts"), n, 25, seed)?;
    let mut text = String::with_capacity(BIG_BYTES + 4_096);
    let mut examples = 0;
    for (_, part) in &c.oaths {
        if text.len() >= BIG_BYTES {
            break;
        }
        text.push_str(part);
        text.push('\n');
        examples += 25;
    }
    Ok((examples, vec![("varar/big.md".to_string(), text)]))
}

/// One paragraph of 1k … 64k prose sentences: time per sentence.
fn sentence_rows(project: &Project, o: &ScaleOptions, fixed: Duration) -> Result<(), String> {
    let mut per_sentence = Vec::new();
    let mut skipping = false;
    for &k in &o.sentences {
        if skipping {
            println!("  one paragraph of {k:>6} sentences: skipped (a smaller one timed out)");
            continue;
        }
        let paragraph: Vec<&str> = (0..k).map(|i| PROSE[i % PROSE.len()]).collect();
        let text = format!("# Prose\n\n{}\n", paragraph.join(" "));
        project.install(&config(), &[("varar/prose.md".to_string(), text.clone())])?;
        let first = project.run_oaths(&[], o.timeout)?;
        let us = net_us(&first, fixed, k);
        println!(
            "  one paragraph of {k:>6} sentences ({:.2} MB): {:>9} ({us:>6.2} µs/sentence)",
            text.len() as f64 / 1e6,
            first.show()
        );
        if first.killed {
            skipping = true;
        } else if first.wall > fixed * 2 {
            // Runs barely longer than an empty one are all noise.
            per_sentence.push(us);
        }
    }
    spread("per sentence", &per_sentence);
    Ok(())
}

/// Print how far a per-item cost spreads across sizes (goal: within 2x).
fn spread(what: &str, values: &[f64]) {
    let (Some(min), Some(max)) = (
        values.iter().copied().reduce(f64::min),
        values.iter().copied().reduce(f64::max),
    ) else {
        return;
    };
    println!(
        "  time {what}: {min:.1} … {max:.1} µs, spread {:.2}x (goal: flat within 2x)",
        max / min.max(1e-9)
    );
}
