//! libtest's command line. The shapes `cargo test` and `cargo nextest`
//! use (a few flags and at most one filter: `--exact <name> --nocapture`
//! for every nextest test, `--exact -- <name>` when the name may start
//! with `-`) are read here directly; anything else goes to
//! libtest-mimic's clap parser, which knows every option and writes the
//! help and the errors. Building clap's parser is most of what a process
//! of one example does before it reads anything (about a tenth of its
//! instructions in the dev profile), and the floor a nextest run is
//! compared with pays it once per test as well.

use std::ffi::OsString;

use libtest_mimic::Arguments;

/// The process's arguments.
pub(in crate::harness) fn from_env() -> Arguments {
    simple(std::env::args_os().skip(1)).unwrap_or_else(Arguments::from_args)
}

/// The arguments after the program's name, when they are flags without a
/// value that clap checks against no other, each at most once, and at
/// most one filter: what clap would make of them. `None` for anything
/// else.
///
/// After `--` (the end of options) every argument is a filter, whatever it
/// starts with, as clap reads it: a test name such as
/// `--logfile=x/a.md::Shop::…` (an oath under a directory named so) is a
/// name there, never an option.
fn simple(args: impl Iterator<Item = OsString>) -> Option<Arguments> {
    let mut parsed = Arguments::default();
    let mut filter = None;
    let mut options_ended = false;
    for arg in args {
        let arg = arg.into_string().ok()?;
        if options_ended {
            // A second filter is clap's error to report.
            if filter.replace(arg).is_some() {
                return None;
            }
            continue;
        }
        let flag = match arg.as_str() {
            "--" => {
                options_ended = true;
                continue;
            }
            "--exact" => &mut parsed.exact,
            "--nocapture" => &mut parsed.nocapture,
            "--ignored" => &mut parsed.ignored,
            "--include-ignored" => &mut parsed.include_ignored,
            "--list" => &mut parsed.list,
            "--show-output" => &mut parsed.show_output,
            "-q" | "--quiet" => &mut parsed.quiet,
            _ if arg.starts_with('-') || filter.is_some() => return None,
            _ => {
                filter = Some(arg);
                continue;
            }
        };
        // Given twice is clap's error to report.
        if std::mem::replace(flag, true) {
            return None;
        }
    }
    parsed.filter = filter;
    Some(parsed)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What clap makes of `args` (each a valid command line: clap ends
    /// the process on any other).
    fn clap(args: &[&str]) -> Option<String> {
        let argv = std::iter::once("oaths").chain(args.iter().copied());
        Some(format!("{:?}", Arguments::from_iter(argv)))
    }

    fn ours(args: &[&str]) -> Option<String> {
        simple(args.iter().map(OsString::from)).map(|a| format!("{a:?}"))
    }

    #[test]
    fn the_usual_shapes_read_as_clap_reads_them() {
        let name = "varar/a.md::Shop::I add 2 apples";
        for args in [
            &[][..],
            &["--exact", name, "--nocapture"],
            &[name, "--exact"],
            &["--exact", name, "--ignored", "--nocapture"],
            &["--include-ignored", "--exact", name],
            &["--list"],
            &["--list", "--ignored"],
            &["-q"],
            &["--quiet", "apples"],
            &["--show-output", "--nocapture"],
            &[""],
            &["apples and pears"],
            &["--exact", "--", name],
            &["--", "-odd name"],
            &["--", "--"],
            &["--"],
            &["-q", "--", "--exact"],
        ] {
            assert!(ours(args).is_some(), "{args:?} is read here");
            assert_eq!(ours(args), clap(args), "{args:?}");
        }
    }

    #[test]
    fn everything_else_is_left_to_clap() {
        for args in [
            &["--exact", "--exact"][..],
            &["a", "b"],
            &["a", "--", "b"],
            &["--", "a", "b"],
            &["--format", "terse"],
            &["--format=json", "-Z", "unstable-options"],
            &["--test-threads", "1"],
            &["--skip", "apples"],
            &["--color=never"],
            &["-qq"],
            &["--help"],
            &["--exakt"],
            // Flags clap checks against each other.
            &["--test"],
            &["--bench"],
        ] {
            assert_eq!(ours(args), None, "{args:?}");
        }
    }

    /// The item of an oath under a directory named `--logfile=varar`, as
    /// the language server passes it: after `--`, a filter (exact or not)
    /// that selects that item, never the option that would write a log
    /// file where it points.
    #[test]
    fn a_name_like_an_option_after_the_end_of_options_selects_its_item() {
        use crate::harness::read::select::Selection;
        use crate::harness::run::libtest::is_filtered_out;
        let name = "--logfile=varar/a.md::Shop::I put 1 bun in the basket";
        let other = "varar/basket.md::The basket::Counting";
        let exact = ["--color", "never", "--exact", "--", name];
        let filter = ["--", "--logfile=varar/a.md::"];
        for argv in [&exact[..], &exact[2..], &filter[..]] {
            let from_clap =
                Arguments::from_iter(std::iter::once("oaths").chain(argv.iter().copied()));
            let ours = simple(argv.iter().map(OsString::from));
            for (who, args) in [("clap", Some(from_clap)), ("ours", ours)] {
                let Some(args) = args else {
                    assert_eq!(argv.len(), 5, "{argv:?} is read here");
                    continue;
                };
                assert_eq!(args.logfile, None, "{who}: {argv:?}");
                assert_eq!(
                    args.filter.as_deref(),
                    argv.last().copied(),
                    "{who}: {argv:?}"
                );
                assert!(!is_filtered_out(&args, name), "{who}: {argv:?}");
                assert!(is_filtered_out(&args, other), "{who}: {argv:?}");
                if args.exact {
                    assert_eq!(
                        Selection::of(&args, false),
                        Selection::Item(name.to_owned()),
                        "{who}"
                    );
                }
            }
        }
    }

    #[cfg(unix)]
    #[test]
    fn an_argument_that_is_not_unicode_is_left_to_clap() {
        use std::os::unix::ffi::OsStringExt as _;
        let odd = OsString::from_vec(vec![b'a', 0xff]);
        assert!(simple([odd].into_iter()).is_none());
    }
}
