//! The build rows: a cold `cargo test --no-run` of each project and the
//! rebuild after a step file edit, interleaved; and the floor under the
//! cold build's goal: what our dependencies alone take, measured as the
//! cold build less a rebuild of only our crates.

use std::fs;
use std::path::Path;
use std::process::Stdio;
use std::time::Duration;

use super::cucumber::Cucumber;
use super::options::VsOptions;
use super::process::{Probe, Sample, run_quiet, sample};
use super::table::{Line, median_f64, median_sample};
use crate::e2e::{cargo, write};
use crate::project::{Profile, Project};

/// A build outlives this only when something is wrong.
const BUILD_TIMEOUT: Duration = Duration::from_secs(3600);

/// The cold build and the rebuild after editing the step file, both
/// projects in the dev profile, interleaved.
pub(super) fn builds(work: &Path, o: &VsOptions, probe: &Probe) -> Result<Vec<Line>, String> {
    let (ours_dir, ours_target) = Project::write(work, Profile::Debug, &[])?;
    let (theirs_dir, theirs_target) = Cucumber::write(work, Profile::Debug)?;
    for (dir, target) in [(&ours_dir, &ours_target), (&theirs_dir, &theirs_target)] {
        // Crates downloaded beforehand: the cold build compiles, it does not fetch.
        run_quiet(
            cargo(dir, target).arg("fetch"),
            format!("cargo fetch failed in {}", dir.display()),
        )?;
    }
    let build = |dir: &Path, target: &Path, test: &str| -> Result<Sample, String> {
        let mut cmd = cargo(dir, target);
        cmd.args(["test", "--no-run", "--test", test]);
        let s = sample(cmd, BUILD_TIMEOUT, probe)?;
        if s.killed {
            return Err(format!("building {} took too long", dir.display()));
        }
        Ok(s)
    };
    let cpu = |s: &Sample| s.cpu.unwrap_or(s.wall);
    let ours_local = local_packages(&ours_dir, &ours_target)?;
    let (mut cold, mut rebuild, mut deps) = (Vec::new(), Vec::new(), Vec::new());
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
        // Our crates and the test crate again, every dependency left built.
        clean_packages(&ours_dir, &ours_target, &ours_local)?;
        let own = build(&ours_dir, &ours_target, "oaths")?;
        let (a, b) = cold.last().copied().ok_or("no cold build")?;
        println!(
            "  our crates and the test crate alone ({}): {:.1} s CPU, of the cold build's {:.1} s",
            ours_local.join(", "),
            cpu(&own).as_secs_f64(),
            cpu(&a).as_secs_f64()
        );
        deps.push((less(&a, &own), b));
    }
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
            Some(0.5),
        ),
        (
            "the cold build's floor, our dependencies alone (the cold build less our crates rebuilt): CPU (wall), ratio of CPU",
            &deps,
            true,
            None,
        ),
        (
            "rebuild after editing the step file, dev: CPU (wall), ratio of wall",
            &rebuild,
            false,
            Some(0.3),
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
            goal,
        });
    }
    Ok(lines)
}

/// `whole` less `part`: wall and CPU (what the dependencies took, when
/// `part` rebuilt only our crates).
fn less(whole: &Sample, part: &Sample) -> Sample {
    Sample {
        wall: whole.wall.saturating_sub(part.wall),
        cpu: whole.cpu.zip(part.cpu).map(|(w, p)| w.saturating_sub(p)),
        rss_kib: None,
        killed: false,
    }
}

/// The packages of the project at `dir` built from a path rather than a
/// registry (`cargo metadata`: no `source`): our crates and the project's
/// own, the ones a change to Varar or to the steps rebuilds.
fn local_packages(dir: &Path, target: &Path) -> Result<Vec<String>, String> {
    let out = cargo(dir, target)
        .args(["metadata", "--format-version", "1"])
        .stderr(Stdio::null())
        .output()
        .map_err(|e| format!("cannot run cargo metadata: {e}"))?;
    if !out.status.success() {
        return Err(format!("cargo metadata failed in {}", dir.display()));
    }
    let names = path_packages(&String::from_utf8_lossy(&out.stdout))?;
    if names.is_empty() {
        return Err(format!("no path package in {}", dir.display()));
    }
    Ok(names)
}

/// The names of the packages without a `source` in `cargo metadata`'s
/// output, sorted.
fn path_packages(metadata: &str) -> Result<Vec<String>, String> {
    let v: serde_json::Value =
        serde_json::from_str(metadata).map_err(|e| format!("cargo metadata: {e}"))?;
    let packages = v["packages"]
        .as_array()
        .ok_or("cargo metadata: no packages")?;
    let mut names: Vec<String> = packages
        .iter()
        .filter(|p| p["source"].is_null())
        .filter_map(|p| p["name"].as_str().map(str::to_owned))
        .collect();
    names.sort();
    names.dedup();
    Ok(names)
}

/// `cargo clean -p` each of `packages`: their artifacts go, every other
/// package's stay built. Each name is passed as the value of `-p`, never
/// on its own.
fn clean_packages(dir: &Path, target: &Path, packages: &[String]) -> Result<(), String> {
    let mut cmd = cargo(dir, target);
    cmd.arg("clean");
    for name in packages {
        cmd.arg(format!("--package={name}"));
    }
    run_quiet(
        &mut cmd,
        format!("cargo clean -p failed in {}", dir.display()),
    )
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn path_packages_are_those_without_a_source() {
        let metadata = r#"{"packages": [
            {"name": "serde", "source": "registry+https://github.com/rust-lang/crates.io-index"},
            {"name": "oathmark-core", "source": null},
            {"name": "varar-bench-scale", "source": null},
            {"name": "regex", "source": "registry+https://github.com/rust-lang/crates.io-index"}
        ]}"#;
        assert_eq!(
            path_packages(metadata).unwrap(),
            ["oathmark-core", "varar-bench-scale"]
        );
        assert!(path_packages("{}").is_err());
        assert!(path_packages("not json").is_err());
    }

    #[test]
    fn less_subtracts_wall_and_cpu_and_never_goes_below_zero() {
        let s = |wall: u64, cpu: Option<u64>| Sample {
            wall: Duration::from_millis(wall),
            cpu: cpu.map(Duration::from_millis),
            rss_kib: Some(1),
            killed: false,
        };
        let d = less(&s(900, Some(1500)), &s(300, Some(400)));
        assert_eq!(
            (d.wall, d.cpu),
            (
                Duration::from_millis(600),
                Some(Duration::from_millis(1100))
            )
        );
        let d = less(&s(100, Some(100)), &s(300, None));
        assert_eq!((d.wall, d.cpu), (Duration::ZERO, None));
    }
}
