//! The language server on one big open oath (issue 21): the package of
//! [`crate::lsp`] (500 steps in 100 files) with oaths of about 0.25, 1, 2
//! and 5 MB made of the same examples (two sentences that match, one of
//! prose, a heading every 25) under one sentence with a link. Timed in
//! process, as the server does the work:
//!
//! - **open**: the oath given to the server, planned (`plan_document`:
//!   parse, plan with reuse by link, drift against the lock), its semantic
//!   tokens and its diagnostics, then a hover on its last example;
//! - **keystroke**: one space typed in the middle of the 5 MB oath, the
//!   change applied, and the same work again, planned as the server plans
//!   it: with the project's memo of what matching each block gave
//!   (`plan_document_with`, issue 39), filled by the plan before.
//!
//! The opens are planned without the memo: this oath repeats a few
//! hundred paragraphs, which a memo would match once each, where a real
//! document's paragraphs are mostly distinct. The open that fills the
//! memo is printed apart, beside what the memo then holds.
//!
//! The ratio time / size tells whether the work is linear. On a shared
//! machine the wall time includes waiting for a core: the CPU time of the
//! measuring thread (Linux: `/proc/thread-self/schedstat`) is printed
//! beside it. Figures only; nothing asserts a time.

use std::fmt::Write as _;
use std::path::Path;
use std::time::{Duration, Instant};

use lsp_types::{Position, Range, TextDocumentContentChangeEvent};
use varar_lsp::analysis::memo::BlockMemo;
use varar_lsp::analysis::{Analysis, PlanContext, plan_document, plan_document_with};
use varar_lsp::handlers::diagnostics::oath_diagnostics;
use varar_lsp::handlers::navigation::hover;
use varar_lsp::handlers::position::apply_change;
use varar_lsp::handlers::tokens::semantic_tokens;
use varar_lsp::server::project_state::ProjectState;

use crate::e2e::median;

/// The sizes measured, in bytes.
const SIZES: [(usize, &str); 4] = [
    (256 << 10, "0.25 MB"),
    (1 << 20, "1 MB"),
    (2 << 20, "2 MB"),
    (5 << 20, "5 MB"),
];

/// An oath of at least `bytes` bytes.
fn oath(bytes: usize) -> String {
    // One link in a sentence, as documentation has: prose, not a
    // reference block, but a text with a link is parsed for its reference
    // blocks (the server once parsed it twice a keystroke for that).
    let mut oath = String::from(
        "# Big shelves\n\nThe shelves are those of [the bakery](https://example.com/bakery).\n",
    );
    let mut k = 0usize;
    while oath.len() < bytes {
        let f = k % 100;
        if k.is_multiple_of(25) {
            let _ = write!(oath, "\n## Part {}\n", k / 25);
        }
        let _ = write!(
            oath,
            "\nIn the morning the baker puts {n} loaves of kind 0 on shelf {f}. Now shelf {f} holds {n} loaves of kind 1.\n\nSome prose about shelf {f}, which matches no step at all.\n",
            n = k % 7 + 1
        );
        k += 1;
    }
    oath
}

/// What the server does before the editor sees an opened or changed
/// oath: plan, tokens, diagnostics, one hover. Returns the token count,
/// the time of each of the four, and the analysis (the server keeps it
/// until the next replaces it, and frees that one off its loop).
/// With `memo`, planned through it as the server plans.
fn analyse(
    project: &ProjectState,
    path: &str,
    hover_at: u32,
    memo: Option<&BlockMemo>,
) -> Result<(usize, [Duration; 4], Analysis), String> {
    let context = PlanContext {
        index: &project.index,
        lock: None,
        oaths: &project.oaths,
    };
    let start = Instant::now();
    let analysis: Option<Analysis> = match memo {
        Some(memo) => plan_document_with(&context, path, memo),
        None => plan_document(&context, path),
    };
    let analysis = analysis.ok_or_else(|| format!("{path} is no oath"))?;
    let planned = start.elapsed();
    let tokens = semantic_tokens(&analysis, &project.index);
    let tokened = start.elapsed();
    let diagnostics = oath_diagnostics(&analysis, &[]);
    if !diagnostics.is_empty() {
        return Err(format!("{path}: unexpected diagnostics"));
    }
    let diagnosed = start.elapsed();
    let _ = hover(&analysis, &project.index, hover_at);
    let hovered = start.elapsed();
    Ok((
        tokens.data.len(),
        [
            planned,
            tokened - planned,
            diagnosed - tokened,
            hovered - diagnosed,
        ],
        analysis,
    ))
}

/// `plan 1.0 + tokens 0.1 + diagnostics 0.0 + hover 0.0 ms`.
fn phases(p: &[Duration; 4]) -> String {
    format!(
        "plan {:.1} + tokens {:.1} + diagnostics {:.1} + hover {:.1} ms",
        ms(p[0]),
        ms(p[1]),
        ms(p[2]),
        ms(p[3])
    )
}

/// Print the table.
pub fn measure(work: &Path, runs: usize) -> Result<(), String> {
    let dir = work.join("lsp-scale-package");
    crate::lsp::generate(&dir)?;
    let mut log = Vec::new();
    let mut project = ProjectState::load(&dir, &mut log);
    if !log.is_empty() {
        return Err(format!("loading the package: {}", log.join("; ")));
    }
    println!(
        "\nlanguage server, one open oath (goals: issue 21, 1 MB open < 0.3 s, linear; issue 39, 5 MB open <= 300 ms, 5 MB keystroke <= 50 ms, release):"
    );
    println!("  size    | examples | open+tokens+diagnostics+hover | per MB | of which");
    let mut last = None;
    for (bytes, label) in SIZES {
        let text = oath(bytes);
        let examples = text.matches("In the morning").count();
        let path = format!("varar/big-{bytes}.md");
        let hover_at =
            varar_core::source::utf16_len(&text[..text.rfind("In the morning").unwrap_or(0)]) + 5;
        let mut times = Vec::new();
        let mut tokens = 0;
        let mut split = [Duration::ZERO; 4];
        let mut cpu_used = String::new();
        for _ in 0..runs.clamp(1, 3) {
            project.oaths.close(&path, None);
            let on_cpu = cpu();
            let start = Instant::now();
            project.oaths.open(&path, &text);
            let analysis;
            (tokens, split, analysis) = analyse(&project, &path, hover_at, None)?;
            times.push(start.elapsed());
            cpu_used = cpu_since(on_cpu);
            drop(analysis);
        }
        let t = median(&mut times);
        println!(
            "  {label:7} | {examples:8} | {:>10.1} ms{cpu_used} ({tokens} tokens) | {:.1} ms | {}",
            ms(t),
            ms(t) / (text.len() as f64 / f64::from(1u32 << 20)),
            phases(&split)
        );
        last = Some((path, text, ms(t)));
    }
    let (path, mut text, opened) = last.ok_or("no size")?;
    println!(
        "  opening the 5 MB oath: goal <= 300 ms ({})",
        met(opened, 300.0)
    );
    let memo = BlockMemo::default();
    let on_cpu = cpu();
    let start = Instant::now();
    let (_, split, mut shown) = analyse(&project, &path, 0, Some(&memo))?;
    println!(
        "  the 5 MB open through an empty memo, which it fills: {:.1} ms{} ({}); the memo holds {} blocks, {:.1} MiB",
        ms(start.elapsed()),
        cpu_since(on_cpu),
        phases(&split),
        memo.len(),
        memo.weight() as f64 / f64::from(1u32 << 20)
    );
    let middle = text.lines().count() as u32 / 2;
    let mut times = Vec::new();
    let mut split = [Duration::ZERO; 4];
    let mut cpu_used = String::new();
    // Keystrokes are cheap: as many as `--runs` asks for (their median).
    for i in 0..runs.max(1) as u32 {
        let end = Position::new(middle + 3 * i, u32::MAX);
        let change = TextDocumentContentChangeEvent {
            range: Some(Range::new(end, end)),
            range_length: None,
            text: " ".to_string(),
        };
        let on_cpu = cpu();
        let start = Instant::now();
        apply_change(&mut text, &change);
        project.oaths.edit(&path, &text);
        let analysis;
        (_, split, analysis) = analyse(&project, &path, 0, Some(&memo))?;
        times.push(start.elapsed());
        cpu_used = cpu_since(on_cpu);
        // As the server frees the plan the new one replaces.
        let old = std::mem::replace(&mut shown, analysis);
        let _ = std::thread::spawn(move || drop(old)).join();
    }
    let keystroke = ms(median(&mut times));
    println!(
        "  a keystroke in the 5 MB oath (change, plan, tokens, diagnostics, hover): median {keystroke:.1} ms{cpu_used} ({}); goal <= 50 ms ({})",
        phases(&split),
        met(keystroke, 50.0)
    );
    Ok(())
}

/// Whether a figure is within its goal (printed beside it, never
/// asserted: the time of a shared machine is no test).
fn met(figure: f64, goal: f64) -> &'static str {
    if figure <= goal { "met" } else { "not met" }
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

/// The CPU time this thread has used, where the system tells it.
fn cpu() -> Option<Duration> {
    let text = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    let ns: u64 = text.split_whitespace().next()?.parse().ok()?;
    Some(Duration::from_nanos(ns))
}

/// `, CPU 12.3 ms` when the CPU time is known.
fn cpu_since(start: Option<Duration>) -> String {
    match (start, cpu()) {
        (Some(a), Some(b)) => format!(", CPU {:.1} ms", ms(b.saturating_sub(a))),
        _ => String::new(),
    }
}
