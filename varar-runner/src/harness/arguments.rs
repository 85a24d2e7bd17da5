//! libtest's command line. The shapes `cargo test` and `cargo nextest`
//! use (a few flags and at most one filter: `--exact <name> --nocapture`
//! for every nextest test) are read here directly; anything else goes to
//! libtest-mimic's clap parser, which knows every option and writes the
//! help and the errors. Building clap's parser is most of what a process
//! of one example does before it reads anything (about a tenth of its
//! instructions in the dev profile), and the floor a nextest run is
//! compared with pays it once per test as well.

use std::ffi::OsString;

use libtest_mimic::Arguments;

/// The process's arguments.
pub(super) fn from_env() -> Arguments {
    simple(std::env::args_os().skip(1)).unwrap_or_else(Arguments::from_args)
}

/// The arguments after the program's name, when they are flags without a
/// value that clap checks against no other, each at most once, and at
/// most one filter: what clap would make of them. `None` for anything
/// else.
fn simple(args: impl Iterator<Item = OsString>) -> Option<Arguments> {
    let mut parsed = Arguments::default();
    let mut filter = None;
    for arg in args {
        let arg = arg.into_string().ok()?;
        let flag = match arg.as_str() {
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
            &["--format", "terse"],
            &["--format=json", "-Z", "unstable-options"],
            &["--test-threads", "1"],
            &["--skip", "apples"],
            &["--color=never"],
            &["--", "-odd name"],
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

    #[cfg(unix)]
    #[test]
    fn an_argument_that_is_not_unicode_is_left_to_clap() {
        use std::os::unix::ffi::OsStringExt as _;
        let odd = OsString::from_vec(vec![b'a', 0xff]);
        assert!(simple([odd].into_iter()).is_none());
    }
}
