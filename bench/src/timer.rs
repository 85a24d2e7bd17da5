//! `varar-bench --timer REPORT PROGRAM [ARG]...`: run `PROGRAM` with its
//! arguments, wait for it, and write one line to the file `REPORT`: its
//! wall time, its user + system CPU time (both in seconds, to the
//! microsecond) and its peak resident set size in KiB. The bench starts
//! itself this way around every run it compares (so the timer is there
//! wherever the bench is, however it was built).
//!
//! What GNU time's `%U %S %M` gives, which `varar-bench --vs-cucumber`
//! used: GNU time cuts user and system time each down to hundredths of a
//! second, and the runs it compares take 10 to 60 ms of CPU (a run of 15 ms
//! read 0.00 or 0.01 s), so small runs' CPU ratios read low. The figures
//! come from `getrusage(RUSAGE_CHILDREN)` once the one child is reaped:
//! only that child (and what it waited for) is counted, never this
//! process. The wall time is taken around the child alone, so this
//! process's own start is not in it either.
//!
//! `PROGRAM` and its arguments are passed on as they are: nothing after
//! `REPORT` is read as an option of ours. The exit code is the child's (1
//! when it was killed by a signal, 127 when it could not be started).

use std::process::{Command, ExitCode};
use std::time::{Duration, Instant};

/// The first argument that selects the timer, before any other.
pub const FLAG: &str = "--timer";

/// Run as the timer: `args` are what follows [`FLAG`].
pub fn main(mut args: impl Iterator<Item = std::ffi::OsString>) -> ExitCode {
    let (Some(report), Some(program)) = (args.next(), args.next()) else {
        eprintln!("usage: varar-bench --timer REPORT PROGRAM [ARG]...");
        return ExitCode::from(2);
    };
    let start = Instant::now();
    let status = match Command::new(&program).args(args).status() {
        Ok(status) => status,
        Err(e) => {
            eprintln!(
                "varar-bench --timer: cannot run {}: {e}",
                program.to_string_lossy()
            );
            return ExitCode::from(127);
        }
    };
    let wall = start.elapsed();
    match usage_of_children() {
        Ok((cpu, rss_kib)) => {
            let line = format!(
                "{:.6} {:.6} {rss_kib}\n",
                wall.as_secs_f64(),
                cpu.as_secs_f64()
            );
            if let Err(e) = std::fs::write(&report, line) {
                eprintln!(
                    "varar-bench --timer: cannot write {}: {e}",
                    report.to_string_lossy()
                );
                return ExitCode::from(2);
            }
        }
        Err(e) => {
            eprintln!("varar-bench --timer: getrusage: {e}");
            return ExitCode::from(2);
        }
    }
    // A code above 255 cannot be passed on as it is.
    ExitCode::from(status.code().map_or(1, |c| u8::try_from(c).unwrap_or(1)))
}

/// The CPU time (user + system, to the microsecond) and peak RSS (KiB)
/// of this process's reaped children: also what the scaling table's
/// `project::timed` reads before and after each run.
#[cfg(unix)]
pub fn usage_of_children() -> Result<(Duration, i64), String> {
    use nix::sys::resource::{UsageWho, getrusage};
    use nix::sys::time::TimeValLike as _;
    let usage = getrusage(UsageWho::RUSAGE_CHILDREN).map_err(|e| e.to_string())?;
    let micros = usage.user_time().num_microseconds() + usage.system_time().num_microseconds();
    let cpu = Duration::from_micros(u64::try_from(micros).unwrap_or(0));
    // Linux counts it in KiB.
    Ok((cpu, usage.max_rss()))
}

#[cfg(not(unix))]
pub fn usage_of_children() -> Result<(Duration, i64), String> {
    Err("not available on this platform".to_owned())
}
