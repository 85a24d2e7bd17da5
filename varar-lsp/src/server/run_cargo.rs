//! A `cargo test` started from the editor (shell: a process): the
//! command of [`super::run_output`] run in the package, its output read
//! line by line into progress events, stopped when cancelled, and its
//! outcome reported. It runs on a thread of its own; the server's loop
//! goes on.
//!
//! On Unix the run gets a process group of its own, so cancelling stops
//! cargo and the test binary it started (SIGTERM to that group, by its
//! id), not only cargo; elsewhere the process tree (`taskkill /T`).

use std::io::{BufRead, BufReader, Read};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{RecvTimeoutError, channel};
use std::time::Duration;

use crossbeam_channel::Sender;
use varar_core::env::{VARAR_RERUN, VARAR_RUN_ID, VARAR_TAGS};

use super::events::Event;
use super::run_output::{RunOutcome, RunOutput, Selection, cargo_args};

/// How much of cargo's stderr is kept for the editor's log.
const LOG_LIMIT: usize = 64 * 1024;

/// What to run.
#[derive(Clone, Debug)]
pub(crate) struct RunSpec {
    /// The package (where `varar.config.json` and `Cargo.toml` are).
    pub root: PathBuf,
    /// The test target that runs the oaths.
    pub target: String,
    /// Which items.
    pub selection: Selection,
}

/// Start run `run` on a thread; it reports on `events` and stops when
/// `cancel` is set.
pub(crate) fn start(run: u64, spec: RunSpec, cancel: Arc<AtomicBool>, events: Sender<Event>) {
    std::thread::spawn(move || {
        let (outcome, log) = execute(run, &spec, &cancel, &events);
        let _ = events.send(Event::RunEnded { run, outcome, log });
    });
}

enum Line {
    Out(String),
    Err(String),
}

fn execute(
    run: u64,
    spec: &RunSpec,
    cancel: &AtomicBool,
    events: &Sender<Event>,
) -> (RunOutcome, String) {
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let manifest = spec.root.join("Cargo.toml").display().to_string();
    let mut command = Command::new(cargo);
    command
        .args(cargo_args(&manifest, &spec.target, &spec.selection))
        .current_dir(&spec.root)
        // The lens chooses what runs, and a run from the editor is a run of
        // its own: not a rerun of the latest one, not a shard of the run
        // the editor was started in, nor narrowed by the tags it was started
        // with (issue 38).
        .env_remove(VARAR_RERUN)
        .env_remove(VARAR_RUN_ID)
        .env_remove(VARAR_TAGS)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    own_group(&mut command);
    let mut child = match command.spawn() {
        Ok(child) => child,
        Err(e) => return (RunOutcome::NotStarted(e.to_string()), String::new()),
    };
    let (tx, lines) = channel();
    let readers = [
        child
            .stdout
            .take()
            .map(|out| read_lines(out, tx.clone(), Line::Out)),
        child
            .stderr
            .take()
            .map(|err| read_lines(err, tx.clone(), Line::Err)),
    ];
    drop(tx);
    let mut output = RunOutput::default();
    let mut log = String::new();
    let mut last = String::new();
    let mut cancelled = false;
    loop {
        if !cancelled && cancel.load(Ordering::SeqCst) {
            cancelled = true;
            stop(&mut child);
        }
        match lines.recv_timeout(Duration::from_millis(100)) {
            Ok(line) => {
                let message = match line {
                    Line::Out(l) => output.stdout(&l),
                    Line::Err(l) => {
                        if log.len() < LOG_LIMIT {
                            log.push_str(&l);
                            log.push('\n');
                        }
                        output.stderr(&l)
                    }
                };
                if let Some(message) = message.filter(|m| *m != last) {
                    last.clone_from(&message);
                    let _ = events.send(Event::RunProgress {
                        run,
                        message,
                        percentage: output.percentage(),
                    });
                }
            }
            Err(RecvTimeoutError::Timeout) => {}
            // Both streams closed: the process is done with its output.
            Err(RecvTimeoutError::Disconnected) => break,
        }
    }
    for reader in readers.into_iter().flatten() {
        let _ = reader.join();
    }
    let success = child.wait().is_ok_and(|s| s.success());
    if cancelled {
        return (RunOutcome::Cancelled, log);
    }
    (output.outcome(success), log)
}

fn read_lines<R: Read + Send + 'static>(
    stream: R,
    tx: std::sync::mpsc::Sender<Line>,
    wrap: fn(String) -> Line,
) -> std::thread::JoinHandle<()> {
    std::thread::spawn(move || {
        for line in BufReader::new(stream).lines() {
            let Ok(line) = line else { return };
            if tx.send(wrap(line)).is_err() {
                return;
            }
        }
    })
}

#[cfg(unix)]
fn own_group(command: &mut Command) {
    use std::os::unix::process::CommandExt as _;
    command.process_group(0);
}

#[cfg(not(unix))]
fn own_group(_: &mut Command) {}

/// Stop the run: its own process group on Unix (the group was made for
/// it, its id is cargo's pid), else the process tree (`taskkill /T`), and
/// cargo itself in any case.
fn stop(child: &mut Child) {
    #[cfg(unix)]
    if let Some(group) = rustix::process::Pid::from_raw(child.id() as i32) {
        let _ = rustix::process::kill_process_group(group, rustix::process::Signal::TERM);
    }
    #[cfg(not(unix))]
    let _ = Command::new("taskkill")
        .args(["/T", "/F", "/PID", &child.id().to_string()])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status();
    let _ = child.kill();
}
