//! The libtest run (spec 40 §7): the selected items run and reported as
//! `libtest_mimic::run` reports them, byte for byte, on a cheaper path.
//!
//! libtest-mimic pads every result line to the longest item name, and
//! writes that padding one character at a time through `anstream`, which,
//! when stdout is not a terminal, scans every byte it is given for escape
//! codes. Item names of oaths are long (headings and the example's text),
//! and in the dev profile, where `anstream` is unoptimised, that was a
//! third of a run's instructions. Here every line is formatted into one
//! buffer and written at once.
//!
//! Only the common case takes this path: the pretty or the terse format
//! (`-q`), on stdout, not `--list`, `--bench` or `--ignored`, on a platform
//! where coloured output is plain ANSI, and, in the pretty format, with item
//! names that `anstream` would pass unchanged (no control character but
//! whitespace). Anything else goes through
//! `libtest_mimic::run` itself. The failures section and the summary, a
//! small text, go through `anstream` as libtest-mimic writes them, so what
//! it strips from a failure message is stripped here too.

use std::io::Write;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc::{self, TryRecvError};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use anstream::ColorChoice;
use anstyle::{AnsiColor, Color, Style};
use libtest_mimic::{Arguments, ColorSetting, Conclusion, Failed, FormatSetting, Trial};

/// Padding, taken a slice at a time.
const SPACES: &str = "                                                                ";

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

/// Run `items` as `libtest_mimic::run(args, trials)` would.
pub(crate) fn run(args: &Arguments, items: Vec<Trialish>) -> Conclusion {
    match fast_mode(args, &items) {
        Some(mode) => run_fast(args, items, mode, &mut Stdout),
        None => libtest_mimic::run(args, items.into_iter().map(Trialish::into_trial).collect()),
    }
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

/// The fast path's mode, or `None` when libtest-mimic must print.
fn fast_mode(args: &Arguments, items: &[Trialish]) -> Option<Mode> {
    let pretty = !args.quiet && matches!(args.format, None | Some(FormatSetting::Pretty));
    if !(pretty || is_terse(args))
        || args.list
        || args.bench
        || args.ignored
        || args.logfile.is_some()
    {
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
            Mode::Ansi => self.raw(text.as_bytes()),
            Mode::Plain => {
                let mut stream = anstream::StripStream::new(std::io::stdout());
                let _ = stream.write_all(text.as_bytes());
            }
        }
    }
}

/// A finished item: its name and its failure text, if it failed.
type Finished = (Arc<str>, Result<(), Option<String>>);

/// The run, as libtest-mimic's `run` does it in the pretty format.
fn run_fast(
    args: &Arguments,
    mut items: Vec<Trialish>,
    mode: Mode,
    out: &mut dyn Output,
) -> Conclusion {
    let start = Instant::now();
    let mut conclusion = Conclusion {
        num_filtered_out: 0,
        num_passed: 0,
        num_failed: 0,
        num_ignored: 0,
        num_measured: 0,
    };
    if args.filter.is_some() || !args.skip.is_empty() {
        let before = items.len() as u64;
        items.retain(|item| !is_filtered_out(args, &item.name));
        conclusion.num_filtered_out = before - items.len() as u64;
    }
    let name_width = items
        .iter()
        .map(|i| i.name.chars().count())
        .max()
        .unwrap_or(0);
    let kind_width = if items.is_empty() { 0 } else { KIND.len() + 3 };
    let count = items.len();
    out.raw(
        format!(
            "\nrunning {count} test{}\n",
            if count == 1 { "" } else { "s" }
        )
        .as_bytes(),
    );
    // Each line's start, `test [varar] <name padded> ... `, written as
    // `format!("test {:<kind_width$}{name:<name_width$} ... ", "[varar] ")`
    // would (padding counts chars), without a formatter writing each
    // padding space on its own.
    let head = format!("test {:<kind_width$}", format!("[{KIND}] "));
    let terse = is_terse(args);
    // In the terse format nothing goes before an item's outcome.
    let prefix_into = |line: &mut String, name: &str| {
        if terse {
            return;
        }
        line.push_str(&head);
        line.push_str(name);
        let mut pad = name_width.saturating_sub(name.chars().count());
        while pad > 0 {
            let n = pad.min(SPACES.len());
            line.push_str(&SPACES[..n]);
            pad -= n;
        }
        line.push_str(" ... ");
    };
    let prefix = |name: &str| {
        let mut line = String::with_capacity(head.len() + name_width + 16);
        prefix_into(&mut line, name);
        line
    };
    let word = |failed: bool| {
        let (word, color) = match (terse, failed) {
            (false, true) => ("FAILED", AnsiColor::Red),
            (false, false) => ("ok", AnsiColor::Green),
            (true, true) => ("F", AnsiColor::Red),
            (true, false) => (".", AnsiColor::Green),
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
    let (passed_word, failed_word) = (word(false), word(true));
    let outcome = |failed: bool| {
        if failed {
            failed_word.as_str()
        } else {
            passed_word.as_str()
        }
    };
    let mut failures: Vec<(Arc<str>, Option<String>)> = Vec::new();
    let mut record = |(name, result): Finished, conclusion: &mut Conclusion| match result {
        Ok(()) => conclusion.num_passed += 1,
        Err(message) => {
            conclusion.num_failed += 1;
            failures.push((name, message));
        }
    };
    let threads = args
        .test_threads
        .or_else(|| std::thread::available_parallelism().ok().map(Into::into))
        .unwrap_or(1);
    if threads == 1 {
        for item in items {
            // The line's start before the item runs, as libtest-mimic does.
            if !terse {
                out.raw(prefix(&item.name).as_bytes());
                out.flush();
            }
            let result = run_single(item.runner);
            out.raw(outcome(result.is_err()).as_bytes());
            record((item.name, result), &mut conclusion);
        }
    } else if items.len() == 1 {
        // One item (every `cargo nextest` process): the parallel mode's
        // line, written when the item is done, without starting workers.
        for item in items {
            let finished = (item.name, run_single(item.runner));
            let mut line = prefix(&finished.0);
            line.push_str(outcome(finished.1.is_err()));
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
                let (queue, finished, printer) = (&queue, &finished, &printer);
                scope.spawn(move || {
                    loop {
                        // A poisoned queue only means another worker panicked
                        // while taking an item; the iterator is still whole.
                        let next = queue.lock().unwrap_or_else(|e| e.into_inner()).next();
                        let Some(item) = next else { break };
                        let result = run_single(item.runner);
                        if sender.send((item.name, result)).is_err() {
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
                            lines.push_str(outcome(done.1.is_err()));
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
