//! Watching running examples (spec 60.7): where each one is, so that a
//! timed-out example is reported at its current step, an example still
//! running after the threshold gets one `SLOW` line (when no limit is set),
//! and an abandoned example whose step never returned gets a notice at the
//! end of the run.
//!
//! Each example updates a few atomics; one watchdog thread per run reads
//! them, so watching costs an example no lock and no allocation.

use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::mpsc::{self, RecvTimeoutError, Sender};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

use crate::execute::Progress;
use varar_core::plan::PlannedExample;

/// The threshold of the `SLOW` notice when none is injected.
pub(crate) const SLOW_AFTER: Duration = Duration::from_secs(60);

/// The texts of an example's steps, by index: its plan (shared, not
/// copied), or a list in tests.
pub(crate) trait StepTexts: Send + Sync {
    /// The text of step `index`, if there is one.
    fn step_text(&self, index: usize) -> Option<&str>;
}

impl StepTexts for PlannedExample {
    fn step_text(&self, index: usize) -> Option<&str> {
        self.steps.get(index).map(|s| &*s.text)
    }
}

impl StepTexts for Vec<String> {
    fn step_text(&self, index: usize) -> Option<&str> {
        self.get(index).map(String::as_str)
    }
}

/// One example, as the watchdog and the trial thread see it.
pub(crate) struct ExampleProgress {
    name: Arc<str>,
    /// Released when the example finishes: the plan it refers to is then
    /// freed with the trial, not kept to the end of the run.
    steps: Mutex<Option<Arc<dyn StepTexts>>>,
    epoch: Instant,
    /// Nanoseconds since `epoch` at start, plus one; 0 = not started.
    started: AtomicU64,
    step: AtomicUsize,
    tearing_down: AtomicBool,
    done: AtomicBool,
    abandoned: AtomicBool,
    noticed: AtomicBool,
}

impl ExampleProgress {
    /// The current step's text.
    pub(crate) fn step_text(&self) -> String {
        let steps = self.steps.lock().unwrap_or_else(|e| e.into_inner());
        steps
            .as_ref()
            .and_then(|s| s.step_text(self.step.load(Ordering::Acquire)))
            .unwrap_or("")
            .to_owned()
    }

    /// The current step's index.
    pub(crate) fn step_index(&self) -> usize {
        self.step.load(Ordering::Acquire)
    }

    /// The example starts.
    pub(crate) fn begin(&self) {
        let ns = self
            .epoch
            .elapsed()
            .as_nanos()
            .min(u128::from(u64::MAX - 1)) as u64;
        self.step.store(0, Ordering::Release);
        self.started.store(ns + 1, Ordering::Release);
    }

    /// The example's thread is done (teardown included).
    pub(crate) fn finish(&self) {
        self.done.store(true, Ordering::Release);
        self.steps.lock().unwrap_or_else(|e| e.into_inner()).take();
    }

    /// The trial gave up waiting for this example's thread.
    pub(crate) fn abandon(&self) {
        self.abandoned.store(true, Ordering::Release);
    }

    /// Whether the steps are over and teardowns are running.
    pub(crate) fn is_tearing_down(&self) -> bool {
        self.tearing_down.load(Ordering::Acquire)
    }

    fn running_for(&self, now: Instant) -> Option<Duration> {
        let started = self.started.load(Ordering::Acquire);
        if started == 0 || self.done.load(Ordering::Acquire) {
            return None;
        }
        let start = self.epoch + Duration::from_nanos(started - 1);
        Some(now.saturating_duration_since(start))
    }
}

impl Progress for ExampleProgress {
    fn step(&self, index: usize) {
        self.step.store(index, Ordering::Release);
    }

    fn tearing_down(&self) {
        self.tearing_down.store(true, Ordering::Release);
    }
}

/// Every example of a run that has not finished.
pub(crate) struct Watch {
    epoch: Instant,
    examples: Mutex<Watched>,
}

/// The examples watched, those that finished let go now and then (each
/// was kept to the end of the run: half a megabyte for 5 000 examples,
/// issue 39).
#[derive(Default)]
struct Watched {
    examples: Vec<Arc<ExampleProgress>>,
    /// How many examples the list holds before those that finished go.
    prune_at: usize,
}

/// How many examples the list holds at least before it is pruned.
const PRUNE_FROM: usize = 64;

impl Watch {
    /// An empty watch.
    pub(crate) fn new() -> Arc<Watch> {
        Arc::new(Watch {
            epoch: Instant::now(),
            examples: Mutex::new(Watched::default()),
        })
    }

    /// Watch one more example (at enumeration, before anything runs).
    pub(crate) fn add(&self, name: &Arc<str>, steps: Arc<dyn StepTexts>) -> Arc<ExampleProgress> {
        let progress = Arc::new(ExampleProgress {
            name: Arc::clone(name),
            steps: Mutex::new(Some(steps)),
            epoch: self.epoch,
            started: AtomicU64::new(0),
            step: AtomicUsize::new(0),
            tearing_down: AtomicBool::new(false),
            done: AtomicBool::new(false),
            abandoned: AtomicBool::new(false),
            noticed: AtomicBool::new(false),
        });
        let mut watched = self.lock();
        if watched.examples.len() >= watched.prune_at {
            // A finished example is neither slow nor left running: only
            // those still running are looked at. Pruned when the list has
            // doubled since, so each example is looked at a few times.
            watched.examples.retain(|p| !p.done.load(Ordering::Acquire));
            watched.prune_at = PRUNE_FROM.max(2 * watched.examples.len());
        }
        watched.examples.push(Arc::clone(&progress));
        progress
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Watched> {
        self.examples.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The `SLOW` lines due now, each example at most once.
    fn slow_lines(&self, threshold: Duration, now: Instant) -> Vec<String> {
        let mut lines = Vec::new();
        for p in &self.lock().examples {
            if p.running_for(now).is_some_and(|d| d > threshold)
                && !p.noticed.swap(true, Ordering::AcqRel)
            {
                lines.push(slow_line(threshold, &p.name, &p.step_text()));
            }
        }
        lines
    }

    /// Notices for abandoned examples whose step has still not returned.
    pub(crate) fn never_returned(&self) -> Vec<String> {
        self.lock()
            .examples
            .iter()
            .filter(|p| p.abandoned.load(Ordering::Acquire) && !p.done.load(Ordering::Acquire))
            .map(|p| {
                format!(
                    "varar: {}: step \"{}\" never returned, so its state was not torn down",
                    p.name,
                    p.step_text()
                )
            })
            .collect()
    }
}

/// `SLOW [> 60 s] <item name> (in step "<step text>")`.
pub(crate) fn slow_line(threshold: Duration, name: &str, step: &str) -> String {
    let secs = threshold.as_secs_f64();
    let secs = if threshold.subsec_nanos() == 0 {
        format!("{}", threshold.as_secs())
    } else {
        format!("{secs:.1}")
    };
    format!("SLOW [> {secs} s] {name} (in step \"{step}\")")
}

/// The watchdog thread; silent from the moment it is dropped.
///
/// Dropping it is not waiting for it: the thread is told to stop and left
/// to end on its own (or with the process). Waiting, which is waking the
/// thread and seeing it end, took about 0.1 ms at the end of every run:
/// a noticeable part of a nextest process of one example (issue 39). What
/// joining guaranteed, no `SLOW` line after the run's own last line, the
/// `quiet` flag does: the thread prints only while it holds it unset, and
/// dropping sets it, after any line being printed.
pub(crate) struct Watchdog {
    stop: Option<Sender<()>>,
    quiet: Arc<Mutex<bool>>,
}

impl Watchdog {
    /// Print a `SLOW` line for each example running longer than `threshold`.
    pub(crate) fn start(watch: Arc<Watch>, threshold: Duration, print: fn(&str)) -> Watchdog {
        let (stop, stopped) = mpsc::channel::<()>();
        let quiet = Arc::new(Mutex::new(false));
        let silenced = Arc::clone(&quiet);
        let tick = (threshold / 4).clamp(Duration::from_millis(10), Duration::from_secs(1));
        // Without a thread (the system gives none), nothing is printed.
        let _ = thread::Builder::new()
            .name("varar-watchdog".to_string())
            .spawn(move || {
                loop {
                    match stopped.recv_timeout(tick) {
                        Err(RecvTimeoutError::Timeout) => {}
                        _ => return,
                    }
                    let lines = watch.slow_lines(threshold, Instant::now());
                    let quiet = silenced.lock().unwrap_or_else(|e| e.into_inner());
                    if *quiet {
                        return;
                    }
                    for line in lines {
                        print(&line);
                    }
                }
            });
        Watchdog {
            stop: Some(stop),
            quiet,
        }
    }
}

impl Drop for Watchdog {
    fn drop(&mut self) {
        *self.quiet.lock().unwrap_or_else(|e| e.into_inner()) = true;
        drop(self.stop.take());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_slow_line_names_the_item_and_its_step() {
        assert_eq!(
            slow_line(SLOW_AFTER, "varar/a.md::A::b", "I wait"),
            "SLOW [> 60 s] varar/a.md::A::b (in step \"I wait\")"
        );
        assert_eq!(
            slow_line(Duration::from_millis(200), "x", "y"),
            "SLOW [> 0.2 s] x (in step \"y\")"
        );
    }

    #[test]
    fn an_example_is_slow_once_and_only_while_it_runs() {
        let watch = Watch::new();
        let steps: Vec<String> = vec!["first".into(), "second".into()];
        let p = watch.add(&Arc::from("x"), Arc::new(steps));
        let later = Instant::now() + Duration::from_secs(120);
        assert!(
            watch.slow_lines(SLOW_AFTER, later).is_empty(),
            "not started"
        );
        p.begin();
        Progress::step(&*p, 1);
        assert_eq!(
            watch.slow_lines(SLOW_AFTER, later),
            vec!["SLOW [> 60 s] x (in step \"second\")".to_string()]
        );
        assert!(watch.slow_lines(SLOW_AFTER, later).is_empty(), "once");
        assert!(watch.never_returned().is_empty());
        p.abandon();
        assert_eq!(
            watch.never_returned(),
            vec!["varar: x: step \"second\" never returned, so its state was not torn down"]
        );
        p.finish();
        assert!(watch.never_returned().is_empty());
    }

    #[test]
    fn finished_examples_are_let_go_and_those_left_running_kept() {
        let watch = Watch::new();
        let steps = || Arc::new(vec!["a step".to_string()]);
        let left = watch.add(&Arc::from("left"), steps());
        left.begin();
        left.abandon();
        let slow = watch.add(&Arc::from("slow"), steps());
        slow.begin();
        for i in 0..10_000 {
            let p = watch.add(&Arc::from(format!("ran {i}")), steps());
            p.begin();
            p.finish();
        }
        let watched = watch.lock().examples.len();
        assert!(watched <= 2 * PRUNE_FROM, "{watched} examples watched");
        let names: Vec<String> = (watch.lock().examples.iter())
            .filter(|p| !p.done.load(Ordering::Acquire))
            .map(|p| p.name.to_string())
            .collect();
        assert_eq!(names, ["left", "slow"]);
        let later = Instant::now() + Duration::from_secs(120);
        assert_eq!(
            watch.slow_lines(SLOW_AFTER, later),
            [
                "SLOW [> 60 s] left (in step \"a step\")",
                "SLOW [> 60 s] slow (in step \"a step\")"
            ]
        );
        assert_eq!(
            watch.never_returned(),
            ["varar: left: step \"a step\" never returned, so its state was not torn down"]
        );
    }

    /// What the watchdog printed, in order (its printer is a plain `fn`).
    static PRINTED: Mutex<Vec<String>> = Mutex::new(Vec::new());

    fn printed() -> Vec<String> {
        PRINTED.lock().unwrap_or_else(|e| e.into_inner()).clone()
    }

    #[test]
    fn the_watchdog_prints_while_it_runs_and_never_once_dropped() {
        let watch = Watch::new();
        let threshold = Duration::from_millis(20);
        let dog = Watchdog::start(Arc::clone(&watch), threshold, |line| {
            PRINTED
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .push(line.to_owned());
        });
        let steps: Arc<dyn StepTexts> = Arc::new(vec!["I wait".to_owned()]);
        let first = watch.add(&Arc::from("first"), Arc::clone(&steps));
        first.begin();
        let waited = Instant::now();
        while printed().is_empty() && waited.elapsed() < Duration::from_secs(30) {
            thread::sleep(Duration::from_millis(5));
        }
        let expected = slow_line(threshold, "first", "I wait");
        assert_eq!(printed(), std::slice::from_ref(&expected));
        // Dropped, it says nothing more, however long an example runs.
        drop(dog);
        let second = watch.add(&Arc::from("second"), steps);
        second.begin();
        thread::sleep(threshold * 5);
        assert_eq!(printed(), [expected]);
    }
}
