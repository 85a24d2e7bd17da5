//! The libtest run (spec 40 §7): the selected items run and reported as
//! `libtest_mimic::run` reports them, but for one thing: a result line is
//! not padded to the longest item name (issue 37). libtest-mimic pads every
//! `test [varar] <name> ... ok` line to the longest name of the run, and
//! cannot be told not to; real libtest does not, and an oath's item names
//! are long (headings and the example's text: 212 columns on the bakery),
//! so every line of a run was as wide as its widest. Here each line is
//! `test [varar] <name> ... ok`, as `cargo test` prints its own tests.
//!
//! Every pretty and terse run takes this module's printer, and so does
//! `--list` when every name would pass `anstream` unchanged (see [`list`]);
//! only `--format json`, and a listing to a `--logfile` or of odd names,
//! which libtest-mimic prints unpadded, go through `libtest_mimic::run`
//! itself. In the common case (stdout, ANSI or no colour, names that
//! `anstream` would pass unchanged) every line is formatted into one
//! buffer and written at once: libtest-mimic writes through `anstream`,
//! which, when stdout is not a terminal, scans every byte for escape
//! codes, and in the dev profile that was a third of a run's instructions.
//! Otherwise (a `--logfile`, colour through the Windows console, a name
//! with a control character) every write goes through an `anstream`
//! stream chosen as libtest-mimic chooses it. The failures section and the
//! summary go through `anstream` whenever it would change them, so what it
//! strips from a failure message is stripped here too.

use std::fs::File;
use std::io::Write;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc::{self, TryRecvError};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use anstream::ColorChoice;
use anstyle::{AnsiColor, Color, Style};
use libtest_mimic::{Arguments, ColorSetting, Conclusion, Failed, FormatSetting, Trial};

/// How often the printing thread of a parallel run writes the lines of
/// the items finished since it last looked.
const PRINT_EVERY: Duration = Duration::from_millis(5);

/// libtest's kind of every item (`[varar] <name>`).
pub(crate) const KIND: &str = "varar";

/// What a trial's body returns: `Err` holds the text libtest prints.
pub(crate) type Runner = Box<dyn FnOnce() -> Result<(), String> + Send>;

/// One item to run: its name and its body.
pub(crate) struct Trialish {
    pub name: Arc<str>,
    pub runner: Runner,
}

impl Trialish {
    /// libtest-mimic's trial of it.
    fn into_trial(self) -> Trial {
        let runner = self.runner;
        Trial::test(self.name.to_string(), move || {
            runner().map_err(Failed::from)
        })
        .with_kind(KIND)
    }
}

/// Whether libtest's filters (`FILTER`, `--exact`, `--skip`, `--ignored`)
/// leave the item `name` out: libtest-mimic's own rule, asked of a trial of
/// the same name and kind.
pub(crate) fn is_filtered_out(args: &Arguments, name: &str) -> bool {
    let probe = Trial::test(name, || Ok(())).with_kind(KIND);
    args.is_filtered_out(&probe)
}

/// Run `items` as `libtest_mimic::run(args, trials)` would, result lines
/// unpadded.
pub(crate) fn run(args: &Arguments, items: Vec<Trialish>) -> Conclusion {
    let json = !args.quiet && matches!(args.format, Some(FormatSetting::Json));
    if args.list && args.logfile.is_none() && items.iter().all(|i| passes_unchanged(&i.name)) {
        list(args, &items, &mut Stdout);
        // What libtest-mimic gives back for a listing.
        return nothing_run();
    }
    if args.list || json {
        return libtest_mimic(args, items);
    }
    match fast_mode(args, &items) {
        Some(mode) => run_fast(args, items, mode, &mut Stdout),
        None => match Streamed::open(args) {
            // Escape codes are written and the stream strips them where
            // libtest-mimic's would.
            Some(mut out) => run_fast(args, items, Mode::Ansi, &mut out),
            // libtest-mimic reports a logfile it cannot create (it panics
            // with the reason, as it always did).
            None => libtest_mimic(args, items),
        },
    }
}

/// What `--list` prints, as libtest-mimic prints it (`[varar] <name>:
/// test`, a line each, the items its filters leave; none with
/// `--ignored`, since no item is ignored), in one write. libtest-mimic
/// writes it through `anstream`, which, when stdout is not a terminal (as
/// under `cargo nextest`, which lists every test binary before it runs
/// anything), looks at every byte for escape codes: unoptimised, it copies
/// a 4 KiB table for each, a quarter of listing 5 000 items. Only names
/// it would pass unchanged are listed here.
fn list(args: &Arguments, items: &[Trialish], out: &mut dyn Output) {
    if args.ignored {
        return;
    }
    let filtering = args.filter.is_some() || !args.skip.is_empty();
    let mut text = String::new();
    for item in items {
        if filtering && is_filtered_out(args, &item.name) {
            continue;
        }
        text.push('[');
        text.push_str(KIND);
        text.push_str("] ");
        text.push_str(&item.name);
        text.push_str(": test\n");
    }
    out.raw(text.as_bytes());
    out.flush();
}

/// A conclusion of nothing run: where a run starts counting, and what a
/// listing gives back.
fn nothing_run() -> Conclusion {
    Conclusion {
        num_filtered_out: 0,
        num_passed: 0,
        num_failed: 0,
        num_ignored: 0,
        num_measured: 0,
    }
}

/// libtest-mimic's own run of `items`.
fn libtest_mimic(args: &Arguments, items: Vec<Trialish>) -> Conclusion {
    libtest_mimic::run(args, items.into_iter().map(Trialish::into_trial).collect())
}

/// How the output is written when the fast path is taken.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Mode {
    /// Escape codes are stripped (`anstream`'s choice `Never`): nothing
    /// is coloured.
    Plain,
    /// Written as is, the outcomes coloured (`Always`, `AlwaysAnsi`).
    Ansi,
}

/// The fast path's mode, or `None` when every write must go through
/// `anstream` ([`Streamed`]).
fn fast_mode(args: &Arguments, items: &[Trialish]) -> Option<Mode> {
    let pretty = !args.quiet && matches!(args.format, None | Some(FormatSetting::Pretty));
    if !(pretty || is_terse(args)) || args.list || args.logfile.is_some() {
        return None;
    }
    let choice = match args.color {
        Some(ColorSetting::Always) => ColorChoice::Always,
        Some(ColorSetting::Never) => ColorChoice::Never,
        Some(ColorSetting::Auto) | None => anstream::AutoStream::choice(&std::io::stdout()),
    };
    let mode = match choice {
        ColorChoice::Never => Mode::Plain,
        // On Windows `anstream` may colour through the console API.
        ColorChoice::Always | ColorChoice::AlwaysAnsi if !cfg!(windows) => Mode::Ansi,
        _ => return None,
    };
    // The terse format prints no name but in the failures section, which
    // goes through `anstream` as libtest-mimic writes it.
    if mode == Mode::Plain && !is_terse(args) && !items.iter().all(|i| passes_unchanged(&i.name)) {
        return None;
    }
    Some(mode)
}

/// Whether libtest-mimic prints in its terse format (`-q`, `--format
/// terse`): a character an item, `.` or `F`, and no line of its own.
fn is_terse(args: &Arguments) -> bool {
    args.quiet || matches!(args.format, Some(FormatSetting::Terse))
}

/// Whether `anstream`'s stripping passes `text` on unchanged: printable
/// ASCII, whitespace, and every byte of a multi-byte character. (A plain
/// loop: it reads every name of the run, in unoptimised builds too.)
fn passes_unchanged(text: &str) -> bool {
    let bytes = text.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        if b < 0x20 && !matches!(b, b'\t' | b'\n' | b'\x0c' | b'\r') || b == 0x7f {
            return false;
        }
        i += 1;
    }
    true
}

/// Where the fast path writes.
trait Output {
    /// Write `bytes` as they are.
    fn raw(&mut self, bytes: &[u8]);
    /// Flush what was written.
    fn flush(&mut self);
    /// Write `text` as libtest-mimic's `anstream` stream would in `mode`.
    fn styled(&mut self, mode: Mode, text: &str);
}

/// The process's standard output, as libtest-mimic writes to it (every
/// write takes the lock, so steps that print interleave as with it).
struct Stdout;

impl Output for Stdout {
    fn raw(&mut self, bytes: &[u8]) {
        // libtest-mimic unwraps its writes; a closed stdout is not an error
        // the items can report.
        let _ = std::io::stdout().write_all(bytes);
    }

    fn flush(&mut self) {
        let _ = std::io::stdout().flush();
    }

    fn styled(&mut self, mode: Mode, text: &str) {
        match mode {
            // What `anstream` would pass unchanged is written as it is:
            // unoptimised, its parser copies a 4 KiB table for each byte
            // it looks at (6 554 copies for the failures section of a run
            // with five failures).
            Mode::Plain if !passes_unchanged(text) => {
                let mut stream = anstream::StripStream::new(std::io::stdout());
                let _ = stream.write_all(text.as_bytes());
            }
            Mode::Plain | Mode::Ansi => self.raw(text.as_bytes()),
        }
    }
}

/// Every write through one `anstream` stream, as libtest-mimic's printer
/// writes: to the `--logfile` (coloured only for `--color always`), or to
/// stdout with the colour choice of `--color`.
struct Streamed(Box<dyn Write>);

impl Streamed {
    /// The stream libtest-mimic would open for `args`; `None` when the
    /// logfile cannot be created.
    fn open(args: &Arguments) -> Option<Streamed> {
        let color = args.color.unwrap_or(ColorSetting::Auto);
        let out: Box<dyn Write> = match &args.logfile {
            Some(path) => {
                let file = File::create(path).ok()?;
                if color == ColorSetting::Always {
                    Box::new(anstream::AutoStream::always(file))
                } else {
                    Box::new(anstream::AutoStream::never(file))
                }
            }
            None => {
                let choice = match color {
                    ColorSetting::Auto => ColorChoice::Auto,
                    ColorSetting::Always => ColorChoice::Always,
                    ColorSetting::Never => ColorChoice::Never,
                };
                Box::new(anstream::AutoStream::new(std::io::stdout(), choice))
            }
        };
        Some(Streamed(out))
    }
}

impl Output for Streamed {
    fn raw(&mut self, bytes: &[u8]) {
        let _ = self.0.write_all(bytes);
    }

    fn flush(&mut self) {
        let _ = self.0.flush();
    }

    fn styled(&mut self, _mode: Mode, text: &str) {
        self.raw(text.as_bytes());
    }
}

/// How an item ended: passed, failed (with its text), or not run
/// (`--bench`, where libtest-mimic ignores every test).
type Ended = Result<(), Option<String>>;

/// A finished item: its name and how it ended (`None`: ignored).
type Finished = (Arc<str>, Option<Ended>);

/// The thread count an item run alone is given: any but one (see
/// [`run_fast`]).
const ALONE: usize = 2;

/// The run, as libtest-mimic's `run` does it in the pretty format.
fn run_fast(
    args: &Arguments,
    mut items: Vec<Trialish>,
    mode: Mode,
    out: &mut dyn Output,
) -> Conclusion {
    let start = Instant::now();
    let mut conclusion = nothing_run();
    // `--ignored` leaves every item out: none is ignored.
    if args.filter.is_some() || !args.skip.is_empty() || args.ignored {
        let before = items.len() as u64;
        items.retain(|item| !is_filtered_out(args, &item.name));
        conclusion.num_filtered_out = before - items.len() as u64;
    }
    // `--bench` runs benchmarks only: every item is reported ignored.
    let bench = args.bench;
    let count = items.len();
    out.raw(
        format!(
            "\nrunning {count} test{}\n",
            if count == 1 { "" } else { "s" }
        )
        .as_bytes(),
    );
    // Each line's start, `test [varar] <name> ... `: libtest's line, not
    // libtest-mimic's, which pads the name to the longest of the run.
    let head = format!("test [{KIND}] ");
    let terse = is_terse(args);
    // In the terse format nothing goes before an item's outcome.
    let prefix_into = |line: &mut String, name: &str| {
        if terse {
            return;
        }
        line.push_str(&head);
        line.push_str(name);
        line.push_str(" ... ");
    };
    let prefix = |name: &str| {
        let mut line = String::with_capacity(head.len() + name.len() + 16);
        prefix_into(&mut line, name);
        line
    };
    let word = |ended: Option<bool>| {
        let (word, color) = match (terse, ended) {
            (false, Some(true)) => ("FAILED", AnsiColor::Red),
            (false, Some(false)) => ("ok", AnsiColor::Green),
            (false, None) => ("ignored", AnsiColor::Yellow),
            (true, Some(true)) => ("F", AnsiColor::Red),
            (true, Some(false)) => (".", AnsiColor::Green),
            (true, None) => ("i", AnsiColor::Yellow),
        };
        let end = if terse { "" } else { "\n" };
        match mode {
            Mode::Plain => format!("{word}{end}"),
            Mode::Ansi => {
                let style = Style::new().fg_color(Some(Color::Ansi(color)));
                format!("{style}{word}{style:#}{end}")
            }
        }
    };
    let words = [word(Some(false)), word(Some(true)), word(None)];
    let outcome = |ended: &Option<Ended>| match ended {
        Some(Ok(())) => words[0].as_str(),
        Some(Err(_)) => words[1].as_str(),
        None => words[2].as_str(),
    };
    let run_one = |runner: Runner| (!bench).then(|| run_single(runner));
    let mut failures: Vec<(Arc<str>, Option<String>)> = Vec::new();
    let mut record = |(name, ended): Finished, conclusion: &mut Conclusion| match ended {
        Some(Ok(())) => conclusion.num_passed += 1,
        Some(Err(message)) => {
            conclusion.num_failed += 1;
            failures.push((name, message));
        }
        None => conclusion.num_ignored += 1,
    };
    // One item is run alone, as the parallel mode runs one, unless
    // `--test-threads=1` asks for the sequential line: the processors are
    // not counted for it (counting reads the cgroup files, in every
    // nextest process).
    let threads = match (args.test_threads, items.len()) {
        (Some(threads), _) => threads,
        (None, 1) => ALONE,
        (None, _) => std::thread::available_parallelism().map_or(1, Into::into),
    };
    if threads == 1 {
        for item in items {
            // The line's start before the item runs, as libtest-mimic does.
            if !terse {
                out.raw(prefix(&item.name).as_bytes());
                out.flush();
            }
            let ended = run_one(item.runner);
            out.raw(outcome(&ended).as_bytes());
            record((item.name, ended), &mut conclusion);
        }
    } else if items.len() == 1 {
        // One item (every `cargo nextest` process): the parallel mode's
        // line, written when the item is done, without starting workers.
        for item in items {
            let finished = (item.name, run_one(item.runner));
            let mut line = prefix(&finished.0);
            line.push_str(outcome(&finished.1));
            out.raw(line.as_bytes());
            record(finished, &mut conclusion);
        }
    } else {
        let (sender, receiver) = mpsc::channel::<Finished>();
        let queue = Mutex::new(items.into_iter());
        // The printing thread is not woken by every item: a send to a
        // receiver that is not blocked is a lock-free push, a send that
        // wakes it a system call and a context switch, and there are
        // thousands of items. It looks every `PRINT_EVERY` and is woken once,
        // by the last item, so the run ends when its last item does.
        let printer = std::thread::current();
        let finished = AtomicUsize::new(0);
        std::thread::scope(|scope| {
            for _ in 0..threads {
                let sender = sender.clone();
                let (queue, finished, printer, run_one) = (&queue, &finished, &printer, &run_one);
                scope.spawn(move || {
                    loop {
                        // A poisoned queue only means another worker panicked
                        // while taking an item; the iterator is still whole.
                        let next = queue.lock().unwrap_or_else(|e| e.into_inner()).next();
                        let Some(item) = next else { break };
                        let ended = run_one(item.runner);
                        if sender.send((item.name, ended)).is_err() {
                            break;
                        }
                        if finished.fetch_add(1, Ordering::AcqRel) + 1 == count {
                            printer.unpark();
                        }
                    }
                });
            }
            drop(sender);
            // The lines of the items that finished meanwhile go out in one
            // write (the same bytes as one write a line, fewer calls).
            let mut lines = String::new();
            let mut received = 0;
            loop {
                let mut ended = false;
                loop {
                    match receiver.try_recv() {
                        Ok(done) => {
                            received += 1;
                            prefix_into(&mut lines, &done.0);
                            lines.push_str(outcome(&done.1));
                            record(done, &mut conclusion);
                        }
                        Err(TryRecvError::Empty) => break,
                        Err(TryRecvError::Disconnected) => {
                            ended = true;
                            break;
                        }
                    }
                }
                if !lines.is_empty() {
                    out.raw(lines.as_bytes());
                    lines.clear();
                }
                if ended || received >= count {
                    break;
                }
                std::thread::park_timeout(PRINT_EVERY);
            }
        });
    }
    out.styled(mode, &closing(&failures, &conclusion, start, mode));
    conclusion
}

/// The failures section (when there are failures) and the summary line.
fn closing(
    failures: &[(Arc<str>, Option<String>)],
    conclusion: &Conclusion,
    start: Instant,
    mode: Mode,
) -> String {
    let mut text = String::new();
    if !failures.is_empty() {
        text.push_str("\nfailures:\n\n");
        for (name, message) in failures {
            text.push_str(&format!("---- {name} ----\n"));
            if let Some(message) = message {
                text.push_str(message);
                text.push('\n');
            }
            text.push('\n');
        }
        text.push_str("\nfailures:\n");
        for (name, _) in failures {
            text.push_str(&format!("    {name}\n"));
        }
    }
    let failed = conclusion.num_failed > 0;
    let (word, color) = if failed {
        ("FAILED", AnsiColor::Red)
    } else {
        ("ok", AnsiColor::Green)
    };
    let word = match mode {
        Mode::Plain => word.to_owned(),
        Mode::Ansi => {
            let style = Style::new().fg_color(Some(Color::Ansi(color)));
            format!("{style}{word}{style:#}")
        }
    };
    text.push_str(&format!(
        "\ntest result: {word}. {} passed; {} failed; {} ignored; {} measured; {} filtered out; finished in {:.2}s\n\n",
        conclusion.num_passed,
        conclusion.num_failed,
        conclusion.num_ignored,
        conclusion.num_measured,
        conclusion.num_filtered_out,
        start.elapsed().as_secs_f64()
    ));
    text
}

/// Run one body, a panic caught as libtest-mimic catches it.
fn run_single(runner: Runner) -> Result<(), Option<String>> {
    match catch_unwind(AssertUnwindSafe(runner)) {
        Ok(Ok(())) => Ok(()),
        Ok(Err(text)) => Err(Some(text)),
        Err(payload) => {
            let text = payload
                .downcast_ref::<String>()
                .map(String::as_str)
                .or_else(|| payload.downcast_ref::<&str>().copied());
            Err(Some(match text {
                Some(text) => format!("test panicked: {text}"),
                None => "test panicked".to_owned(),
            }))
        }
    }
}

#[cfg(test)]
mod tests;
