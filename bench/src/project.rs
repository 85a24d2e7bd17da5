//! The throwaway Cargo project the scaling table runs: the corpus's eight
//! steps behind `tests/oaths.rs`, `tests/floor.rs`, a libtest-mimic binary
//! of trivial trials (the floor a harness cannot beat), and
//! `tests/markdown_floor.rs`, pulldown-cmark's own pass over one file (the
//! floor a run over that file cannot beat), built in the debug or release
//! profile, with or without `[profile.dev.package]` lines.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use varar_core::env::VARAR_UPDATE;
use varar_project::store;

use crate::e2e::{cargo, write};

/// The crates of the `debug+lines` profile's `[profile.dev.package.<crate>]
/// opt-level = 3` lines by default: the engine and the dependencies it
/// spends its time in, the lines the README recommended until the plain dev
/// profile became quick enough (issue 23); the profile measures what they
/// still buy.
pub const OPT_CRATES: &[&str] = &[
    "oathmark-core",
    "oathmark-project",
    "oathmark-runner",
    "regex-automata",
    "regex-syntax",
    "aho-corasick",
    "pulldown-cmark",
    "serde_json",
    "anstream",
];

/// The profile lines for `crates`.
pub fn profile_lines(crates: &[String]) -> String {
    crates
        .iter()
        .map(|c| format!("[profile.dev.package.{c}]\nopt-level = 3\n"))
        .collect()
}

/// Build profile of the measured binaries.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Profile {
    /// `cargo test`'s default: unoptimised.
    Debug,
    /// `--release`.
    Release,
    /// Debug, with the profile lines of [`OPT_CRATES`] (or the crates
    /// given with `--opt-crates`) in the manifest.
    DebugOptDeps,
}

impl Profile {
    /// How the table names it.
    pub fn label(self) -> &'static str {
        match self {
            Profile::Debug => "debug",
            Profile::Release => "release",
            Profile::DebugOptDeps => "debug+lines",
        }
    }

    /// Cargo's arguments for it.
    pub fn cargo_args(self) -> &'static [&'static str] {
        match self {
            Profile::Release => &["--release"],
            _ => &[],
        }
    }
}

/// A built project of one profile.
pub struct Project {
    /// The project directory (corpus files are installed here).
    pub dir: PathBuf,
    /// Its own target directory.
    pub target: PathBuf,
    /// The profile.
    pub profile: Profile,
    /// The built `oaths` test binary.
    pub oaths: PathBuf,
    /// The built `markdown_floor` binary, of the same build.
    pub markdown_floor: PathBuf,
}

impl Project {
    /// Write the project for `profile` under `work` and build it (not timed).
    /// With `cold`, the target directory starts empty and the build time is
    /// returned.
    pub fn build(
        work: &Path,
        profile: Profile,
        opt_crates: &[String],
        cold: bool,
    ) -> Result<(Project, Duration), String> {
        let (dir, target) = Project::write(work, profile, opt_crates)?;
        if cold && target.exists() {
            fs::remove_dir_all(&target).map_err(|e| format!("{}: {e}", target.display()))?;
        }
        let start = Instant::now();
        let status = cargo(&dir, &target)
            .args(["test", "--no-run"])
            .args(profile.cargo_args())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .map_err(|e| format!("cannot run cargo: {e}"))?;
        let took = start.elapsed();
        if !status.success() {
            return Err(format!("building {} failed", dir.display()));
        }
        let oaths = crate::e2e::built_test(&dir, &target, profile.cargo_args(), "oaths")?;
        let markdown_floor =
            crate::e2e::built_test(&dir, &target, profile.cargo_args(), "markdown_floor")?;
        Ok((
            Project {
                dir,
                target,
                profile,
                oaths,
                markdown_floor,
            },
            took,
        ))
    }

    /// Write the project for `profile` under `work` without building it:
    /// its directory and its own target directory.
    pub fn write(
        work: &Path,
        profile: Profile,
        opt_crates: &[String],
    ) -> Result<(PathBuf, PathBuf), String> {
        let name = format!("scale-{}", profile.label().replace('+', "-"));
        let dir = work.join(&name);
        let target = work.join(format!("target-{name}"));
        let lines = match profile {
            Profile::DebugOptDeps => profile_lines(opt_crates),
            _ => String::new(),
        };
        write_project(&dir, &lines)?;
        Ok((dir, target))
    }

    /// Replace the project's oaths, config, lock and results with these.
    ///
    /// The old ones are moved out of the project, not deleted (see
    /// [`retire`]): what a first run meets is then a project that never had
    /// them, as a user's first `cargo test` does.
    pub fn install(&self, config: &str, oaths: &[(String, String)]) -> Result<(), String> {
        let results = store::scratch_dir(&self.dir);
        for stale in [self.dir.join("varar"), results, store::lock_path(&self.dir)] {
            retire(&stale)?;
        }
        write(&self.dir.join("varar.config.json"), config)?;
        for (oath_path, text) in oaths {
            write(&self.dir.join(oath_path), text)?;
        }
        Ok(())
    }

    /// The oaths binary, run as `cargo test` would, killed after `timeout`.
    pub fn run_oaths(&self, args: &[&str], timeout: Duration) -> Result<Timed, String> {
        let mut cmd = Command::new(&self.oaths);
        cmd.args(args)
            .current_dir(&self.dir)
            .env("CARGO_MANIFEST_DIR", &self.dir)
            .env_remove(VARAR_UPDATE);
        timed(cmd, timeout)
    }

    /// pulldown-cmark's own pass over the project's file `oath_path` (the
    /// `markdown_floor` binary: start, read, parse to the last event),
    /// killed after `timeout`.
    pub fn run_markdown_floor(&self, oath_path: &str, timeout: Duration) -> Result<Timed, String> {
        timed(self.markdown_floor_command(oath_path), timeout)
    }

    /// Run the `markdown_floor` binary over `oath_path` once, untimed: the
    /// number of events it read, or why it failed (a timed run discards
    /// what it says; this one shows a floor that measured nothing).
    pub fn check_markdown_floor(&self, oath_path: &str) -> Result<String, String> {
        let output = self
            .markdown_floor_command(oath_path)
            .stdin(Stdio::null())
            .output()
            .map_err(|e| format!("cannot run {}: {e}", self.markdown_floor.display()))?;
        if !output.status.success() {
            return Err(format!(
                "{} failed over {oath_path}: {}",
                self.markdown_floor.display(),
                String::from_utf8_lossy(&output.stderr).trim()
            ));
        }
        Ok(String::from_utf8_lossy(&output.stdout).trim().to_string())
    }

    fn markdown_floor_command(&self, oath_path: &str) -> Command {
        let mut cmd = Command::new(&self.markdown_floor);
        cmd.current_dir(&self.dir)
            .env(MARKDOWN_FLOOR_VAR, self.dir.join(oath_path));
        cmd
    }

    /// `cargo nextest run` of one test target, killed after `timeout`.
    pub fn nextest(
        &self,
        test: &str,
        extra: &[&str],
        env: &[(&str, String)],
        timeout: Duration,
    ) -> Result<Timed, String> {
        let mut cmd = cargo(&self.dir, &self.target);
        cmd.args(["nextest", "run", "--no-fail-fast", "--test", test])
            .args(self.profile.cargo_args())
            .args(extra);
        for (k, v) in env {
            cmd.env(k, v);
        }
        timed(cmd, timeout)
    }
}

/// What one timed command took.
#[derive(Clone, Copy, Debug)]
pub struct Timed {
    /// Wall time; the timeout when it was killed.
    pub wall: Duration,
    /// User + system CPU time of the command and its children, where the
    /// platform tells (Linux).
    pub cpu: Option<Duration>,
    /// Whether it was killed at the timeout.
    pub killed: bool,
}

impl Timed {
    /// `1.234 s`, or `> 60 s` when killed.
    pub fn show(&self) -> String {
        if self.killed {
            format!("> {:.0} s", self.wall.as_secs_f64())
        } else {
            format!("{:.3} s", self.wall.as_secs_f64())
        }
    }
}

/// Run `cmd` with its output discarded, measuring wall and CPU time; kill it
/// (only it) when it outlives `timeout`.
pub fn timed(mut cmd: Command, timeout: Duration) -> Result<Timed, String> {
    cmd.stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null());
    let cpu_before = children_cpu();
    let start = Instant::now();
    let mut child = cmd
        .spawn()
        .map_err(|e| format!("cannot run {cmd:?}: {e}"))?;
    let killed = wait_or_kill(&mut child, start, timeout, |_| {})
        .map_err(|e| format!("cannot wait for {cmd:?}: {e}"))?;
    let wall = if killed { timeout } else { start.elapsed() };
    let cpu = match (cpu_before, children_cpu()) {
        (Some(a), Some(b)) if !killed => Some(b.saturating_sub(a)),
        _ => None,
    };
    Ok(Timed { wall, cpu, killed })
}

/// Wait for `child` (started at `start`); when it outlives `timeout`, call
/// `kill_more` with its id (to end what it started), kill it and reap it.
/// Whether it was killed.
///
/// The wait blocks on a thread of its own, so that the caller's clock is
/// read as the child is reaped. Polling instead (every 2 or 5 ms, as
/// before) added up to a poll's length to every wall time: a tenth of a
/// 15 ms run, and so more to a fast command's ratio than to a slow one's.
pub fn wait_or_kill(
    child: &mut std::process::Child,
    start: Instant,
    timeout: Duration,
    kill_more: impl FnOnce(u32),
) -> std::io::Result<bool> {
    let id = child.id();
    std::thread::scope(|scope| {
        let (reaped, ended) = std::sync::mpsc::channel();
        let waiter = scope.spawn(move || {
            let status = child.wait();
            let _ = reaped.send(());
            status
        });
        let left = timeout.saturating_sub(start.elapsed());
        let killed = match ended.recv_timeout(left) {
            Ok(()) | Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => false,
            Err(std::sync::mpsc::RecvTimeoutError::Timeout) => {
                kill_more(id);
                kill_process(id);
                true
            }
        };
        let status = waiter
            .join()
            .unwrap_or_else(|panic| std::panic::resume_unwind(panic));
        status.map(|_| killed)
    })
}

/// Kill process `id`, a child of ours not yet reaped (so the id is still
/// its own), by the system's own tool: the waiting thread holds the
/// `Child`. The only argument from outside is the id, a decimal number,
/// never read as an option.
fn kill_process(id: u32) {
    let id = id.to_string();
    let mut kill = if cfg!(windows) {
        let mut kill = Command::new("taskkill");
        kill.args(["/F", "/PID", &id]);
        kill
    } else {
        let mut kill = Command::new("kill");
        kill.args(["-KILL", &id]);
        kill
    };
    let _ = kill.stdout(Stdio::null()).stderr(Stdio::null()).status();
}

/// CPU time (user + system) of this process's waited-for children, to the
/// microsecond (`getrusage(RUSAGE_CHILDREN)`, as the timer reads it). It
/// was `/proc/self/stat`'s `cutime + cstime`, counted in clock ticks
/// (10 ms): a tenth of a 100 ms run. `None` where the system does not tell.
fn children_cpu() -> Option<Duration> {
    crate::timer::usage_of_children().ok().map(|(cpu, _)| cpu)
}

/// Where [`retire`] moves what it takes out of a project.
fn retired_dir(project_file: &Path) -> PathBuf {
    let project = project_file.parent().unwrap_or(Path::new("."));
    let work = project.parent().unwrap_or(Path::new("."));
    work.join("retired")
}

/// Move `p` (a project's previous oaths, results or lock) into the work
/// directory's `retired/`, renamed, instead of deleting it. A file system
/// that has just freed hundreds of inodes makes the next run's file
/// creations much dearer (ext4 looks past every recently deleted inode of
/// the group for each new one: a third of a release first run's time when
/// the previous run's `.varar/` was deleted just before), which no user's
/// first run meets. [`sweep_retired`] deletes them after the timings.
pub fn retire(p: &Path) -> Result<(), String> {
    if fs::symlink_metadata(p).is_err() {
        return Ok(());
    }
    let dir = retired_dir(p);
    fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    static NEXT: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let n = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let name = p
        .file_name()
        .map_or_else(String::new, |n| n.to_string_lossy().into_owned());
    let to = dir.join(format!("{}-{n}-{name}", std::process::id()));
    fs::rename(p, &to).map_err(|e| format!("{} -> {}: {e}", p.display(), to.display()))
}

/// Delete what [`retire`] moved aside under `work` (after the timings, or
/// what an interrupted bench left).
pub fn sweep_retired(work: &Path) -> Result<(), String> {
    remove(&work.join("retired"))
}

fn remove(p: &Path) -> Result<(), String> {
    if p.is_dir() {
        fs::remove_dir_all(p).map_err(|e| format!("{}: {e}", p.display()))
    } else if p.exists() {
        fs::remove_file(p).map_err(|e| format!("{}: {e}", p.display()))
    } else {
        Ok(())
    }
}

/// The variable that tells the floor binary how many trials to make (the
/// bench's own; the generated `tests/floor.rs` names it in its text).
pub const FLOOR_VAR: &str = "VARAR_BENCH_FLOOR";

const FLOOR: &str = r#"//! Generated by varar-bench: `VARAR_BENCH_FLOOR` trivial trials, the
//! cheapest a libtest-mimic harness can be.
fn main() -> std::process::ExitCode {
    let n: usize = std::env::var("VARAR_BENCH_FLOOR")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(0);
    let trials = (0..n)
        .map(|i| libtest_mimic::Trial::test(format!("floor::trial-{i}"), || Ok(())))
        .collect();
    libtest_mimic::run(&libtest_mimic::Arguments::from_args(), trials).exit_code()
}
"#;

/// The variable that gives the Markdown floor binary its file; without it,
/// the binary does nothing (so a `cargo test` of the project passes).
pub const MARKDOWN_FLOOR_VAR: &str = "VARAR_BENCH_MARKDOWN";

/// The scale project's requirement on pulldown-cmark: the workspace's, so
/// the project's lock (a copy of the workspace's) gives the floor binary
/// the very crate, features and build the oath parser uses.
const PULLDOWN_CMARK: &str = "pulldown-cmark = { version = \"0.13\", default-features = false }";

/// `tests/markdown_floor.rs`: pulldown-cmark's pass, with the options of
/// the oath parser ([`varar_core::parse::PULLDOWN_CMARK_OPTIONS`]), over
/// the text of one file, iterated to the end as the parser iterates it.
fn markdown_floor() -> String {
    format!(
        r#"//! Generated by varar-bench: pulldown-cmark's own pass over the file
//! `VARAR_BENCH_MARKDOWN` names, with the oath parser's options, iterated to
//! the last event: the floor of any run that reads that file.
fn main() {{
    let Some(path) = std::env::var_os("VARAR_BENCH_MARKDOWN") else {{
        return;
    }};
    let text = std::fs::read_to_string(&path).expect("the file is UTF-8");
    let options = pulldown_cmark::Options::from_bits_truncate({bits});
    let events = pulldown_cmark::Parser::new_ext(&text, options)
        .into_offset_iter()
        .count();
    println!("{{events}} events");
}}
"#,
        bits = varar_core::parse::PULLDOWN_CMARK_OPTIONS
    )
}

fn write_project(dir: &Path, profile_lines: &str) -> Result<(), String> {
    let mut tail = String::from(
        "\n[[test]]\nname = \"floor\"\nharness = false\n\n[[test]]\nname = \"markdown_floor\"\nharness = false\n",
    );
    if !profile_lines.is_empty() {
        tail.push('\n');
        tail.push_str(profile_lines);
    }
    crate::e2e::write_project(
        dir,
        "varar-bench-scale",
        crate::e2e::STEPS,
        crate::e2e::Extra {
            dev_dependencies: &format!("libtest-mimic = \"0.8\"\n{PULLDOWN_CMARK}\n"),
            tail: &tail,
            ..crate::e2e::Extra::default()
        },
    )?;
    write(&dir.join("tests/floor.rs"), FLOOR)?;
    write(&dir.join("tests/markdown_floor.rs"), &markdown_floor())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    #[cfg(unix)]
    fn a_wait_ends_as_the_child_ends_and_a_child_past_its_time_is_killed() {
        let spawn = |args: &[&str]| {
            Command::new("sh")
                .args(args)
                .spawn()
                .unwrap_or_else(|e| panic!("{e}"))
        };
        // A child that ends is waited for and reaped.
        let mut quick = spawn(&["-c", "sleep 0.03"]);
        let start = Instant::now();
        let killed = wait_or_kill(&mut quick, start, Duration::from_secs(10), |_| {});
        assert!(!killed.unwrap_or_else(|e| panic!("{e}")));
        assert!(quick.try_wait().is_ok_and(|s| s.is_some()), "reaped");
        let mut slow = spawn(&["-c", "sleep 30"]);
        let (start, mut told) = (Instant::now(), None);
        let killed = wait_or_kill(&mut slow, start, Duration::from_millis(200), |id| {
            told = Some(id)
        });
        assert!(killed.unwrap_or_else(|e| panic!("{e}")));
        assert_eq!(told, Some(slow.id()), "the caller's kill is told the child");
        assert!(
            start.elapsed() < Duration::from_secs(10),
            "killed, not waited for"
        );
        assert!(slow.try_wait().is_ok_and(|s| s.is_some()), "reaped");
    }

    #[test]
    fn the_markdown_floor_requires_the_workspace_s_pulldown_cmark() {
        let manifest = crate::paths::workspace_root().join("Cargo.toml");
        let manifest = fs::read_to_string(&manifest).unwrap_or_else(|e| panic!("{e}"));
        assert!(
            manifest.lines().any(|l| l == PULLDOWN_CMARK),
            "the workspace's requirement changed: make PULLDOWN_CMARK match it"
        );
    }

    #[test]
    fn retired_files_leave_the_project_and_go_when_swept() {
        let work = std::env::temp_dir().join(format!("varar-bench-retire-{}", std::process::id()));
        let project = work.join("scale-debug");
        let results = project.join(".varar");
        fs::create_dir_all(results.join("varar")).unwrap_or_else(|e| panic!("{e}"));
        fs::write(project.join("varar.lock.json"), "{}").unwrap_or_else(|e| panic!("{e}"));
        retire(&results).unwrap_or_else(|e| panic!("{e}"));
        retire(&project.join("varar.lock.json")).unwrap_or_else(|e| panic!("{e}"));
        // Nothing there: nothing to do.
        retire(&project.join("missing")).unwrap_or_else(|e| panic!("{e}"));
        assert!(!results.exists() && !project.join("varar.lock.json").exists());
        let kept = fs::read_dir(work.join("retired")).map_or(0, |d| d.count());
        assert_eq!(kept, 2, "moved, not deleted");
        sweep_retired(&work).unwrap_or_else(|e| panic!("{e}"));
        assert!(!work.join("retired").exists());
        fs::remove_dir_all(&work).unwrap_or_else(|e| panic!("{e}"));
    }
}
