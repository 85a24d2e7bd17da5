use super::*;

/// What the fast path wrote, with `anstream`'s stripping where it strips.
#[derive(Default)]
struct Capture(Vec<u8>);

impl Output for Capture {
    fn raw(&mut self, bytes: &[u8]) {
        self.0.extend_from_slice(bytes);
    }

    fn flush(&mut self) {}

    fn styled(&mut self, mode: Mode, text: &str) {
        match mode {
            Mode::Ansi => self.raw(text.as_bytes()),
            Mode::Plain => {
                let mut stream = anstream::StripStream::new(&mut self.0);
                let _ = stream.write_all(text.as_bytes());
            }
        }
    }
}

/// Items of different name lengths: passing, failing, failing with
/// escape codes in the message, panicking.
fn items() -> Vec<Trialish> {
    let item = |name: &str, runner: Runner| Trialish {
        name: name.into(),
        runner,
    };
    vec![
        item("a.md::Short::passes", Box::new(|| Ok(()))),
        item(
            "a.md::A much longer heading::I deposit 5. The balance is 5",
            Box::new(|| Err("a.md:3:1: the balance is 4\n  expected 5".to_owned())),
        ),
        item(
            "b.md::Colour::stripped",
            Box::new(|| Err("\u{1b}[31mred\u{1b}[0m text".to_owned())),
        ),
        item("b.md::Panics", Box::new(|| panic!("boom {}", 1))),
        item(
            "b.md::Ünïcode::names pad by characters",
            Box::new(|| Ok(())),
        ),
    ]
}

/// Timings differ between runs.
fn normalised(text: &str) -> String {
    match text.split_once("finished in ") {
        Some((head, tail)) => {
            let rest = tail.split_once('s').map_or("", |(_, r)| r);
            format!("{head}finished in Xs{rest}")
        }
        None => text.to_owned(),
    }
}

fn args(extra: &[&str]) -> Arguments {
    let mut argv = vec!["oaths"];
    argv.extend_from_slice(extra);
    Arguments::from_iter(argv)
}

/// libtest-mimic's output with its padding taken out: what the harness
/// prints instead (issue 37), libtest's own line `test <name> ... ok`.
fn unpadded(text: &str) -> String {
    let mut out = String::new();
    for line in text.split_inclusive('\n') {
        match line.split_once(" ... ") {
            Some((start, rest)) if line.starts_with("test ") => {
                out.push_str(start.trim_end_matches(' '));
                out.push_str(" ... ");
                out.push_str(rest);
            }
            _ => out.push_str(line),
        }
    }
    out
}

/// What libtest-mimic prints for `items()`, its padding taken out.
fn theirs(extra: &[&str], color: &str) -> String {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let log = dir.path().join("log.txt");
    let log = log.to_string_lossy().into_owned();
    let mut all = vec!["--logfile", &log, "--color", color];
    all.extend_from_slice(extra);
    let trials = items().into_iter().map(Trialish::into_trial).collect();
    let _ = libtest_mimic::run(&args(&all), trials);
    unpadded(&std::fs::read_to_string(&log).unwrap_or_else(|e| panic!("{e}")))
}

fn ours(extra: &[&str], mode: Mode) -> (String, Conclusion) {
    let mut out = Capture::default();
    let conclusion = run_fast(&args(extra), items(), mode, &mut out);
    (String::from_utf8_lossy(&out.0).into_owned(), conclusion)
}

#[test]
fn one_thread_prints_what_libtest_mimic_prints() {
    crate::harness::install_quiet_panic_hook();
    for extra in [
        &["--test-threads", "1"][..],
        &["--test-threads", "1", "b.md"],
        &["--test-threads", "1", "--skip", "Short"],
        &["--test-threads", "1", "--exact", "a.md::Short::passes"],
        &["--test-threads", "1", "nothing matches"],
        &["--test-threads", "1", "-q"],
        &["--test-threads", "1", "-q", "b.md"],
        &["--test-threads", "1", "--ignored"],
        &["--test-threads", "1", "--bench"],
        &["--test-threads", "1", "-q", "--bench"],
        &[
            "--test-threads",
            "1",
            "--format",
            "terse",
            "--skip",
            "Short",
        ],
    ] {
        let (text, _) = ours(extra, Mode::Plain);
        assert_eq!(
            normalised(&text),
            normalised(&theirs(extra, "never")),
            "{extra:?}"
        );
        let (text, _) = ours(extra, Mode::Ansi);
        assert_eq!(
            normalised(&text),
            normalised(&theirs(extra, "always")),
            "{extra:?}"
        );
    }
}

#[test]
fn one_item_on_several_threads_prints_what_libtest_mimic_prints() {
    crate::harness::install_quiet_panic_hook();
    for name in [
        "a.md::Short::passes",
        "b.md::Panics",
        "b.md::Colour::stripped",
    ] {
        // Without `--test-threads` (a nextest process), one item is run
        // alone without counting the processors, and prints the same.
        for (quiet, threads) in [(false, true), (true, true), (false, false), (true, false)] {
            let mut extra = vec!["--exact", name];
            extra.extend(
                threads
                    .then_some(["--test-threads", "2"])
                    .into_iter()
                    .flatten(),
            );
            extra.extend(quiet.then_some("-q"));
            for (mode, color) in [(Mode::Plain, "never"), (Mode::Ansi, "always")] {
                let (text, conclusion) = ours(&extra, mode);
                assert_eq!(
                    normalised(&text),
                    normalised(&theirs(&extra, color)),
                    "{name} {extra:?}"
                );
                assert_eq!(conclusion.num_filtered_out, 4, "{name}");
            }
        }
    }
}

#[test]
fn threads_print_the_same_lines_in_completion_order() {
    crate::harness::install_quiet_panic_hook();
    let (text, conclusion) = ours(&["--test-threads", "2"], Mode::Plain);
    let reference = theirs(&["--test-threads", "2"], "never");
    let sorted = |t: &str| {
        let mut lines: Vec<String> = normalised(t).lines().map(str::to_owned).collect();
        lines.sort();
        lines
    };
    assert_eq!(sorted(&text), sorted(&reference));
    assert_eq!(
        (conclusion.num_passed, conclusion.num_failed),
        (2, 3),
        "{text}"
    );
}

#[test]
fn threads_print_the_same_terse_characters_in_completion_order() {
    crate::harness::install_quiet_panic_hook();
    let extra = ["--test-threads", "2", "-q"];
    let (text, conclusion) = ours(&extra, Mode::Plain);
    let reference = theirs(&extra, "never");
    // The characters line: the same characters, in whatever order the items
    // finished. The failures are listed in that order too, which differs
    // from one run to the other with two threads: the same lines, in any
    // order (single-threaded runs above pin the order itself).
    let split = |t: &str| {
        let t = normalised(t);
        let mut lines: Vec<String> = t.lines().map(str::to_owned).collect();
        let mut dots: Vec<char> = lines.get(2).cloned().unwrap_or_default().chars().collect();
        dots.sort_unstable();
        if lines.len() > 2 {
            lines[2] = dots.into_iter().collect();
            lines[3..].sort_unstable();
        }
        lines
    };
    assert_eq!(split(&text), split(&reference), "{text}");
    assert!(split(&text)[2] == "..FFF", "{text}");
    assert_eq!((conclusion.num_passed, conclusion.num_failed), (2, 3));
}

/// Writes go to a channel as they are made.
struct Live(mpsc::Sender<String>);

impl Output for Live {
    fn raw(&mut self, bytes: &[u8]) {
        let _ = self.0.send(String::from_utf8_lossy(bytes).into_owned());
    }

    fn flush(&mut self) {}

    fn styled(&mut self, _mode: Mode, text: &str) {
        self.raw(text.as_bytes());
    }
}

#[test]
fn a_finished_items_line_is_printed_while_others_still_run() {
    // The printing thread is not woken by each item: it must still write
    // each line soon after its item, not when the run ends.
    let (release, held) = mpsc::channel::<()>();
    let items = vec![
        Trialish {
            name: "a.md::Held".into(),
            runner: Box::new(move || {
                let _ = held.recv();
                Ok(())
            }),
        },
        Trialish {
            name: "a.md::Quick".into(),
            runner: Box::new(|| Ok(())),
        },
    ];
    let (sender, written) = mpsc::channel();
    let printer = std::thread::spawn(move || {
        run_fast(
            &args(&["--test-threads", "2"]),
            items,
            Mode::Plain,
            &mut Live(sender),
        )
    });
    let mut seen = String::new();
    let deadline = Instant::now() + Duration::from_secs(20);
    while !seen.contains("a.md::Quick ... ok") {
        let left = deadline.saturating_duration_since(Instant::now());
        match written.recv_timeout(left) {
            Ok(text) => seen.push_str(&text),
            Err(e) => panic!("no line for the finished item while the other runs ({e}): {seen:?}"),
        }
    }
    assert!(!seen.contains("Held ... ok"), "{seen}");
    drop(release);
    let conclusion = printer
        .join()
        .unwrap_or_else(|_| panic!("the run panicked"));
    assert_eq!(conclusion.num_passed, 2);
    let rest: String = written.try_iter().collect();
    assert!(rest.contains("a.md::Held ... ok"), "{rest}");
}

#[test]
fn names_anstream_would_change_take_the_streamed_path() {
    let names = |name: &str| {
        vec![Trialish {
            name: name.into(),
            runner: Box::new(|| Ok(())),
        }]
    };
    let never = args(&["--color", "never"]);
    assert_eq!(
        fast_mode(&never, &names("a.md::plain ünïcode")),
        Some(Mode::Plain)
    );
    assert_eq!(fast_mode(&never, &names("a.md::\u{1b}[1mbold")), None);
    assert_eq!(fast_mode(&never, &names("a.md::del\u{7f}")), None);
    assert_eq!(
        fast_mode(&args(&["--color", "always"]), &names("a.md::\u{1b}")),
        (!cfg!(windows)).then_some(Mode::Ansi)
    );
    // The terse format prints no name but through `anstream`.
    for terse in [&["--format", "terse"][..], &["-q"]] {
        let mut all = vec!["--color", "never"];
        all.extend_from_slice(terse);
        let odd = names("a.md::\u{1b}[1mbold");
        assert_eq!(fast_mode(&args(&all), &odd), Some(Mode::Plain), "{terse:?}");
    }
    for other in [&["--list"][..], &["--logfile", "x.txt"]] {
        let mut all = vec!["--color", "never"];
        all.extend_from_slice(other);
        assert_eq!(fast_mode(&args(&all), &names("a")), None, "{other:?}");
    }
}

#[test]
fn issue37_no_result_line_is_padded_to_the_longest_name() {
    crate::harness::install_quiet_panic_hook();
    let (text, _) = ours(&["--test-threads", "1"], Mode::Plain);
    assert!(
        text.contains("test [varar] a.md::Short::passes ... ok\n"),
        "{text}"
    );
    assert!(!text.contains("  ..."), "{text}");
    // libtest-mimic would have padded it to the longest name.
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let log = dir.path().join("log.txt").to_string_lossy().into_owned();
    let trials = items().into_iter().map(Trialish::into_trial).collect();
    let _ = libtest_mimic::run(&args(&["--logfile", &log, "--test-threads", "1"]), trials);
    let raw = std::fs::read_to_string(&log).unwrap_or_else(|e| panic!("{e}"));
    assert!(raw.contains("a.md::Short::passes      "), "{raw}");
}

#[test]
fn issue37_a_logfile_and_odd_names_are_not_padded_either() {
    crate::harness::install_quiet_panic_hook();
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let log = dir.path().join("log.txt").to_string_lossy().into_owned();
    let mut all = items();
    all.push(Trialish {
        name: "c.md::\u{1b}[1mbold".into(),
        runner: Box::new(|| Ok(())),
    });
    let extra = [
        "--logfile",
        log.as_str(),
        "--test-threads",
        "1",
        "--color",
        "never",
    ];
    let conclusion = run(&args(&extra), all);
    assert_eq!((conclusion.num_passed, conclusion.num_failed), (3, 3));
    let text = std::fs::read_to_string(&log).unwrap_or_else(|e| panic!("{e}"));
    assert!(
        text.contains("test [varar] a.md::Short::passes ... ok\n"),
        "{text}"
    );
    // Stripped as libtest-mimic's stream strips it.
    assert!(text.contains("test [varar] c.md::bold ... ok\n"), "{text}");
    assert!(!text.contains("  ..."), "{text}");
    assert_eq!(
        text.lines()
            .filter(|l| l.starts_with("test [varar] "))
            .count(),
        6,
        "{text}"
    );
}

#[test]
fn what_passes_unchanged_is_what_anstream_leaves_as_it_is() {
    // Written as it is when `passes_unchanged` says so: `anstream` must
    // then give it back byte for byte. Every ASCII character, the C1
    // controls and a few others, alone and in pairs, between text.
    let mut chars: Vec<char> = (0u8..0x80).map(char::from).collect();
    chars.extend(('\u{80}'..='\u{9f}').chain(['é', '\u{a0}', '£', '→', '\u{feff}', '😀']));
    let strip = |text: &str| {
        let mut out = Vec::new();
        anstream::StripStream::new(&mut out)
            .write_all(text.as_bytes())
            .unwrap_or_else(|e| panic!("{e}"));
        String::from_utf8(out).unwrap_or_else(|e| panic!("{e}"))
    };
    let mut unchanged = 0;
    for &a in &chars {
        for &b in &chars {
            let text = format!("x{a}{b}y\n");
            if passes_unchanged(&text) {
                assert_eq!(strip(&text), text, "{text:?}");
                unchanged += 1;
            }
        }
    }
    // Most pairs are plain text; escape codes and controls are not.
    assert!(unchanged > chars.len() * chars.len() / 2, "{unchanged}");
    assert!(!passes_unchanged("\u{1b}[31mred\u{1b}[0m"));
}

#[test]
fn a_listing_is_what_libtest_mimic_lists() {
    for extra in [
        &["--list"][..],
        &["--list", "--format", "terse"],
        &["--list", "b.md"],
        &["--list", "--skip", "Short"],
        &["--list", "--exact", "a.md::Short::passes"],
        &["--list", "nothing matches"],
        &["--list", "--ignored"],
        &["--list", "--format", "terse", "--ignored"],
    ] {
        let mut out = Capture::default();
        list(&args(extra), &items(), &mut out);
        let ours = String::from_utf8_lossy(&out.0).into_owned();
        assert_eq!(ours, theirs(extra, "never"), "{extra:?}");
        assert_eq!(ours, theirs(extra, "always"), "{extra:?}");
    }
    // Every item of `items()` is listed when nothing filters them.
    let mut out = Capture::default();
    list(&args(&["--list"]), &items(), &mut out);
    assert_eq!(
        String::from_utf8_lossy(&out.0).lines().count(),
        items().len()
    );
}
