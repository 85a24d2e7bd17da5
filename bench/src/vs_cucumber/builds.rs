//! The build rows: a cold `cargo test --no-run` of each project and the
//! rebuild after a step file edit, interleaved.

use std::fs;
use std::path::Path;
use std::process::Stdio;
use std::time::Duration;

use super::cucumber::Cucumber;
use super::options::VsOptions;
use super::process::{Sample, sample};
use super::table::{Line, median_f64, median_sample};
use crate::e2e::{cargo, write};
use crate::project::{Profile, Project};

/// A build outlives this only when something is wrong.
const BUILD_TIMEOUT: Duration = Duration::from_secs(3600);

/// The cold build and the rebuild after editing the step file, both
/// projects in the dev profile, interleaved.
pub(super) fn builds(work: &Path, o: &VsOptions, report: &Path) -> Result<Vec<Line>, String> {
    let (ours_dir, ours_target) = Project::write(work, Profile::Debug, &[])?;
    let (theirs_dir, theirs_target) = Cucumber::write(work, Profile::Debug)?;
    for (dir, target) in [(&ours_dir, &ours_target), (&theirs_dir, &theirs_target)] {
        // Crates downloaded beforehand: the cold build compiles, it does not fetch.
        let status = cargo(dir, target)
            .arg("fetch")
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .map_err(|e| format!("cannot run cargo: {e}"))?;
        if !status.success() {
            return Err(format!("cargo fetch failed in {}", dir.display()));
        }
    }
    let build = |dir: &Path, target: &Path, test: &str| -> Result<Sample, String> {
        let mut cmd = cargo(dir, target);
        cmd.args(["test", "--no-run", "--test", test]);
        let s = sample(cmd, BUILD_TIMEOUT, report)?;
        if s.killed {
            return Err(format!("building {} took too long", dir.display()));
        }
        Ok(s)
    };
    let (mut cold, mut rebuild) = (Vec::new(), Vec::new());
    for round in 0..o.build_runs.max(1) {
        println!(
            "cold builds (dev), round {} of {} ...",
            round + 1,
            o.build_runs.max(1)
        );
        for target in [&ours_target, &theirs_target] {
            // Cargo's own mark says it is a target directory.
            crate::paths::remove_generated(target, "CACHEDIR.TAG")?;
        }
        let a = build(&ours_dir, &ours_target, "oaths")?;
        let b = build(&theirs_dir, &theirs_target, "ledger")?;
        cold.push((a, b));
        edit_steps(&ours_dir, round)?;
        edit_steps(&theirs_dir, round)?;
        let a = build(&ours_dir, &ours_target, "oaths")?;
        let b = build(&theirs_dir, &theirs_target, "ledger")?;
        rebuild.push((a, b));
    }
    let cpu = |s: &Sample| s.cpu.unwrap_or(s.wall);
    let show = |s: &Sample| match s.cpu {
        Some(c) => format!("{:.1} s ({:.1} s)", c.as_secs_f64(), s.wall.as_secs_f64()),
        None => format!("n/a ({:.1} s)", s.wall.as_secs_f64()),
    };
    let mut lines = Vec::new();
    // Issue 39's goals.
    for (label, pairs, by_cpu, goal) in [
        (
            "cold `cargo test --no-run` dev: CPU (wall), ratio of CPU",
            &cold,
            true,
            0.5,
        ),
        (
            "rebuild after editing the step file, dev: CPU (wall), ratio of wall",
            &rebuild,
            false,
            0.3,
        ),
    ] {
        let key = |s: &Sample| if by_cpu { cpu(s) } else { s.wall };
        let mut ratios: Vec<f64> = pairs
            .iter()
            .map(|(a, b)| key(a).as_secs_f64() / key(b).as_secs_f64().max(1e-9))
            .collect();
        let a = median_sample(pairs.iter().map(|p| p.0).collect(), key);
        let b = median_sample(pairs.iter().map(|p| p.1).collect(), key);
        lines.push(Line {
            rank: (0, 0, 0),
            label: label.to_string(),
            ours: show(&a),
            theirs: show(&b),
            ratio: median_f64(&mut ratios),
            pairs: ratios,
            goal: Some(goal),
        });
    }
    Ok(lines)
}

/// Add a line at the top of a project's step file: every step moves one
/// line down (both step macros record their line), as a real edit would.
fn edit_steps(dir: &Path, round: usize) -> Result<(), String> {
    let path = dir.join("tests/steps/mod.rs");
    let text = fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    write(
        &path,
        &format!("// varar-bench: edited for the rebuild ({round})\n{text}"),
    )
}
