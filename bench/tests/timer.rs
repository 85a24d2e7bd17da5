//! `varar-bench --timer` measures the one program it starts: its CPU time to
//! the microsecond, its peak RSS, and its exit code passed on.

#![cfg(unix)]

use std::process::Command;

const BENCH: &str = env!("CARGO_BIN_EXE_varar-bench");

/// The bench started as the timer, its report at `report`.
fn timer(report: &std::path::Path) -> Command {
    let mut cmd = Command::new(BENCH);
    cmd.arg("--timer").arg(report);
    cmd
}

/// Run the timer over `sh -c script`: its exit code and the report's three
/// figures.
fn timed(script: &str) -> (Option<i32>, f64, f64, u64) {
    let dir = tempfile::tempdir().unwrap();
    let report = dir.path().join("report");
    let status = timer(&report)
        .args(["/bin/sh", "-c", script])
        .status()
        .unwrap();
    let text = std::fs::read_to_string(&report).unwrap();
    let fields: Vec<&str> = text.split_whitespace().collect();
    assert_eq!(fields.len(), 3, "{text:?}");
    (
        status.code(),
        fields[0].parse().unwrap(),
        fields[1].parse().unwrap(),
        fields[2].parse().unwrap(),
    )
}

#[test]
fn a_busy_child_shows_its_cpu_time_and_passes_its_exit_code_on() {
    // A shell loop spends CPU time, about as much as its wall time.
    let (code, wall, cpu, rss) = timed("i=0; while [ $i -lt 200000 ]; do i=$((i+1)); done; exit 3");
    assert_eq!(code, Some(3));
    assert!(cpu > 0.02, "cpu {cpu} s");
    assert!(cpu <= wall * 1.5 + 0.01, "cpu {cpu} s, wall {wall} s");
    assert!(rss > 0);
}

#[test]
fn a_sleeping_child_shows_its_wall_time_not_cpu_time() {
    let (code, wall, cpu, _) = timed("sleep 0.3");
    assert_eq!(code, Some(0));
    assert!(wall >= 0.3, "wall {wall} s");
    assert!(cpu < 0.1, "cpu {cpu} s");
}

#[test]
fn its_own_arguments_are_never_read_as_options() {
    let dir = tempfile::tempdir().unwrap();
    let report = dir.path().join("report");
    // `--help` goes to the program as it is.
    let out = timer(&report)
        .args(["/bin/sh", "-c", "printf '%s' \"$0\"", "--help"])
        .output()
        .unwrap();
    assert!(out.status.success());
    assert_eq!(String::from_utf8_lossy(&out.stdout), "--help");
    assert!(report.is_file());
}

#[test]
fn a_program_that_cannot_start_is_127_and_no_report() {
    let dir = tempfile::tempdir().unwrap();
    let report = dir.path().join("report");
    let status = timer(&report)
        .arg(dir.path().join("no-such-program"))
        .status()
        .unwrap();
    assert_eq!(status.code(), Some(127));
    assert!(!report.exists());
}
