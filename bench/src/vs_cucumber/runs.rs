//! The run rows: first and second runs of one corpus in one profile, both
//! projects paired and interleaved.

use std::path::Path;

use super::cucumber::{Cucumber, ours_command};
use super::options::VsOptions;
use super::process::{Probe, Sample, sample};
use super::table::{Line, paired, show_wall};
use crate::feature;
use crate::project::{Profile, Project};
use crate::scaling;
use crate::shape::Shape;

/// First and second runs of one corpus in one profile, paired and
/// interleaved: wall and CPU time of each, and for the dev profile the
/// peak RSS of each.
#[allow(clippy::too_many_arguments)]
pub(super) fn runs(
    work: &Path,
    ours: &Project,
    theirs: &Cucumber,
    profile: Profile,
    shape: Shape,
    (n, m): (usize, usize),
    o: &VsOptions,
    probe: &Probe,
) -> Result<Vec<Line>, String> {
    let name = shape.name();
    let c = shape.generate(&work.join(format!("vs-{name}-{n}x{m}")), n, m, o.seed)?;
    theirs.install(&feature::features(&c)?)?;
    let label = if profile == Profile::Release {
        "release"
    } else {
        "dev"
    };
    println!(
        "{n} x {m} {name} {label}: {} examples, {:.2} MB, {} pairs of runs ...",
        c.examples_total,
        c.bytes() as f64 / 1e6,
        o.runs.max(1)
    );
    // One untimed run of each warms the page cache (binaries, oaths, features).
    ours.install(&scaling::config(), &c.oaths)?;
    sample(ours_command(ours), o.timeout, probe)?;
    sample(theirs.command(), o.timeout, probe)?;
    let (mut first, mut second) = (Vec::new(), Vec::new());
    for _ in 0..o.runs.max(1) {
        // No lock and no results: what a first `cargo test` meets.
        ours.install(&scaling::config(), &c.oaths)?;
        let a1 = sample(ours_command(ours), o.timeout, probe)?;
        let b1 = sample(theirs.command(), o.timeout, probe)?;
        let a2 = sample(ours_command(ours), o.timeout, probe)?;
        let b2 = sample(theirs.command(), o.timeout, probe)?;
        let show = |s: &Sample| match s.cpu {
            Some(cpu) if !s.killed => format!(
                "{} (CPU {:.3} s)",
                show_wall(s, o.timeout),
                cpu.as_secs_f64()
            ),
            _ => show_wall(s, o.timeout),
        };
        println!(
            "  pair (ours / cucumber-rs): first {} / {}, second {} / {}",
            show(&a1),
            show(&b1),
            show(&a2),
            show(&b2)
        );
        first.push((a1, b1));
        second.push((a2, b2));
    }
    // Issue 39's goals, for its corpora (the same on both shapes).
    let goal = match (profile, n, m) {
        (Profile::Release, 200, 25) => Some(0.25),
        (Profile::Release, _, _) => None,
        (_, 200, 25) => Some(0.15),
        (_, 20, 25) => Some(0.25),
        _ => None,
    };
    let mut lines = Vec::new();
    for (which, pairs) in [
        ("first run", &first),
        ("second run (ours: lock present)", &second),
    ] {
        let killed = pairs.iter().any(|(a, b)| a.killed || b.killed);
        lines.push(paired(
            format!("{n}×{m} {name} {label}, {which}: wall"),
            pairs,
            |s| Some(s.wall.as_secs_f64()),
            |s| show_wall(s, o.timeout),
            killed,
            goal,
        ));
        lines.push(paired(
            format!("{n}×{m} {name} {label}, {which}: CPU"),
            pairs,
            |s| s.cpu.map(|c| c.as_secs_f64()),
            |s| {
                s.cpu
                    .map_or("n/a".to_string(), |c| format!("{:.3} s", c.as_secs_f64()))
            },
            killed,
            goal,
        ));
    }
    if profile != Profile::Release {
        for (which, pairs) in [("first run", &first), ("second run", &second)] {
            lines.push(paired(
                format!("peak RSS {n}×{m} {name} {label}, {which}"),
                pairs,
                |s| s.rss_kib.map(|k| k as f64),
                |s| {
                    s.rss_kib.map_or("n/a".to_string(), |k| {
                        format!("{:.1} MiB", k as f64 / 1024.0)
                    })
                },
                false,
                Some(0.8),
            ));
        }
    }
    Ok(lines)
}
