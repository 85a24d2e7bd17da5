//! `varar-bench`: how fast Varar for Rust parses, plans and runs oaths.
//!
//! ```text
//! cargo run --release -p varar-bench                 # defaults below
//! cargo run --release -p varar-bench -- --help
//! ```
//!
//! It generates the shared synthetic corpus with `bench/gen_corpus.py`
//! (python3), then prints
//!
//! 1. **parse+plan throughput**, in process, over the whole corpus (oaths/s,
//!    examples/s, MB/s), against the registry of the corpus's eight steps;
//! 2. **end-to-end time** of the real harness: a throwaway Cargo project in
//!    `target/varar-bench/` holding the corpus, the eight steps and
//!    `tests/oaths.rs`, built once (not timed), then `cargo test --release`
//!    timed (median of several runs), next to the reference figures of the
//!    shared benchmark README;
//! 3. the same corpus with the eight steps as `async fn` (tokio feature) and
//!    with `VARAR_TIMEOUT` set, as overhead per example over the sync run;
//! 4. **the HTML report** (`cargo varar report`) of the same corpus as the
//!    parse+plan measurement, with results produced in process;
//! 5. **the language server** (`cargo varar lsp`): the initial scan of a
//!    package with 500 steps in 100 files, and the re-plan, semantic tokens
//!    and diagnostics of a 1 000-line oath after an edit;
//! 6. **`cargo varar check`** in process, on the bakery sample and on a
//!    project of the same corpus and its steps (`check.rs`);
//! 7. **reuse by link**: corpora of 100 and 1 000 oaths whose every example
//!    links one shared section, planned against one workspace, per example
//!    next to the same corpus with the section written out.
//!
//! With `--vs-cucumber` it prints only the comparison with cucumber-rs on
//! equivalent projects (`vs_cucumber/`).
//!
//! Figures only: nothing here asserts a time.

mod check;
mod corpus;
mod docs_corpus;
mod e2e;
mod feature;
mod inproc;
mod lsp;
mod lsp_scale;
mod nextest_floor;
mod paths;
mod project;
mod report;
mod reuse;
mod scale_options;
mod scaling;
mod shape;
mod steps;
mod steps_scale;
mod timer;
mod vs_cucumber;

use std::process::ExitCode;

/// Command-line options.
#[derive(Clone, Debug)]
struct Options {
    /// Corpus for the in-process measurement: oaths × examples per oath.
    parse_corpus: (usize, usize),
    /// Corpora for the end-to-end measurement.
    e2e_corpora: Vec<(usize, usize)>,
    /// Timed `cargo test` runs per corpus (the median is reported).
    runs: usize,
    /// Minimum wall time of the in-process measurement (repeats the corpus).
    min_seconds: f64,
    seed: u64,
    skip_parse: bool,
    skip_e2e: bool,
    /// Registry sizes of the planning measurement (empty: skipped).
    step_counts: Vec<usize>,
    /// The scaling table, if asked for.
    scale: Option<scaling::ScaleOptions>,
    skip_report: bool,
    skip_lsp: bool,
    skip_check: bool,
    /// Only the language server on one big oath (issue 21).
    lsp_scale: bool,
    /// Corpus sizes of the reuse-by-link measurement (empty: skipped).
    reuse: Vec<usize>,
    /// The comparison with cucumber-rs, if asked for (then nothing else runs).
    vs: Option<vs_cucumber::VsOptions>,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            parse_corpus: (200, 25),
            e2e_corpora: vec![(20, 25), (200, 25), (1000, 25)],
            runs: 3,
            min_seconds: 2.0,
            seed: 1,
            skip_parse: false,
            skip_e2e: false,
            step_counts: vec![8, 100, 500],
            scale: None,
            skip_report: false,
            skip_lsp: false,
            skip_check: false,
            lsp_scale: false,
            reuse: vec![100, 1000],
            vs: None,
        }
    }
}

fn default_scale() -> scaling::ScaleOptions {
    scaling::ScaleOptions {
        profiles: vec![project::Profile::Debug, project::Profile::Release],
        corpus: (200, 25),
        sizes: vec![1000, 4000, 16000, 64000],
        sentences: vec![1000, 4000, 16000, 64000],
        big: false,
        prose_mb: Vec::new(),
        one_line: Vec::new(),
        nextest: Vec::new(),
        nextest_partition: 1,
        timeout: std::time::Duration::from_secs(120),
        cold_build: false,
        opt_crates: project::OPT_CRATES.iter().map(|c| c.to_string()).collect(),
        seed: 1,
        runs: 3,
    }
}

const USAGE: &str = "\
varar-bench: parse+plan throughput and end-to-end cargo test time of Varar for Rust

USAGE: cargo run --release -p varar-bench -- [OPTIONS]

OPTIONS:
  --parse-corpus NxM   oaths x examples for the in-process measurement [200x25]
  --e2e NxM[,NxM...]   corpora for the end-to-end measurement [20x25,200x25,1000x25]
  --runs K             timed runs per corpus (end to end, and the scaling
                       table's corpus rows), median reported [3]
  --min-seconds S      repeat parse+plan for at least S seconds [2]
  --seed N             corpus seed [1]
  --skip-parse         skip the in-process measurement
  --skip-e2e           skip the end-to-end measurement
  --steps N[,N...]     registry sizes of the planning measurement [8,100,500];
                       `--steps none` skips it
  --reuse N[,N...]     oaths of the reuse-by-link measurement [100,1000];
                       `--reuse none` skips it

SCALING TABLE (issue 9; off unless --scale or one of its options is given):
  --scale              first/second run, wall vs CPU, one oath of 1k..64k
                       examples, one paragraph of 1k..64k sentences
  --profiles P[,P...]  debug, release, debug+lines [debug,release]
  --scale-corpus NxM   corpus of the first/second-run rows [200x25]
  --sizes K[,K...]     examples of the one-oath series [1000,4000,16000,64000]
  --sentences K[,K...] sentences of the one-paragraph series [same]
  --big                also the 10 MB oath (73 584 examples), the prose
                       series (--prose-mb 1,2,5,10) and the one-line series
                       (--one-line 22500,45000,90000,180000)
  --prose-mb M[,M...]  one oath of the 200 x 25 corpus's 5 000 examples and
                       prose, M MB in all, beside pulldown-cmark's own pass
                       over it in the same build (the floor)
  --one-line K[,K...]  one oath of K one-line examples
  --nextest NxM[,...]  cargo nextest run of these corpora next to the floor
                       (thousands of processes: slow)
  --nextest-partition K  time only --partition count:1/K and scale by K [1]
  --cold-build         build each profile from an empty target dir and
                       print the build times (slow)
  --opt-crates C[,C...]  crates of the debug+lines profile lines
  --timeout S          kill a measured command after S seconds [120]
  --skip-report        skip the HTML report measurement
  --skip-lsp           skip the language server measurement
  --skip-check         skip the cargo varar check measurement
  --lsp-scale          only the language server on one open oath of 0.25, 1,
                       2 and 5 MB (median of up to 3 opens), and --runs
                       keystrokes in the 5 MB one (their median; issue 21)
  -h, --help           this text

VS CUCUMBER-RS (off unless --vs-cucumber or one of its options is given;
then only the comparison runs; --runs K pairs of runs, --seed N):
  --vs-cucumber        ours | cucumber-rs | ratio | goal, equivalent projects
  --vs-dev NxM[,...]   corpora of the dev profile rows [200x25,20x25]; none
  --vs-release NxM[,...]  corpora of the release rows [200x25]; none
  --vs-check NxM       corpus of the planted-failure check [20x25]
  --vs-nextest NxM[,...]  cargo nextest run vs its floor [100x25]; none
  --vs-nextest-partition K  time only --partition count:1/K and scale by K [1]
  --vs-rows R[,R...]   dev, release, build, nextest [all]
  --vs-corpus C[,C...] ledger (the shared corpus), docs (documentation-shaped,
                       prose, doc strings, tables: issue 39) [ledger,docs]
  --vs-build-runs K    pairs of cold builds and rebuilds [1]
  --vs-timeout S       kill a test binary run after S seconds [600]
";

fn parse_size(s: &str) -> Result<(usize, usize), String> {
    let (a, b) = s
        .split_once('x')
        .ok_or_else(|| format!("expected NxM, got {s:?}"))?;
    let n = a
        .parse()
        .map_err(|_| format!("bad number {a:?} in {s:?}"))?;
    let m = b
        .parse()
        .map_err(|_| format!("bad number {b:?} in {s:?}"))?;
    Ok((n, m))
}

fn parse_list<T>(s: &str, one: impl Fn(&str) -> Result<T, String>) -> Result<Vec<T>, String> {
    s.split(',').map(one).collect()
}

fn parse_count(s: &str) -> Result<usize, String> {
    s.parse().map_err(|_| format!("bad number {s:?}"))
}

fn parse_profile(s: &str) -> Result<project::Profile, String> {
    match s {
        "debug" => Ok(project::Profile::Debug),
        "release" => Ok(project::Profile::Release),
        "debug+lines" => Ok(project::Profile::DebugOptDeps),
        other => Err(format!(
            "unknown profile {other:?} (debug, release, debug+lines)"
        )),
    }
}

fn parse_args(args: impl Iterator<Item = String>) -> Result<Option<Options>, String> {
    let mut o = Options::default();
    let mut args = args.peekable();
    while let Some(arg) = args.next() {
        let mut value = |name: &str| args.next().ok_or_else(|| format!("{name} needs a value"));
        if arg.starts_with("--vs-") {
            let vs = o.vs.get_or_insert_with(vs_cucumber::VsOptions::default);
            let sizes = |v: String| -> Result<Vec<(usize, usize)>, String> {
                if v == "none" {
                    Ok(Vec::new())
                } else {
                    parse_list(&v, parse_size)
                }
            };
            match arg.as_str() {
                "--vs-cucumber" => {}
                "--vs-dev" => vs.dev = sizes(value(&arg)?)?,
                "--vs-release" => vs.release = sizes(value(&arg)?)?,
                "--vs-check" => vs.check = parse_size(&value(&arg)?)?,
                "--vs-nextest" => vs.nextest = sizes(value(&arg)?)?,
                "--vs-nextest-partition" => vs.nextest_partition = parse_count(&value(&arg)?)?,
                "--vs-rows" => vs.rows = parse_list(&value(&arg)?, vs_cucumber::Rows::parse)?,
                "--vs-corpus" => vs.shapes = parse_list(&value(&arg)?, shape::Shape::parse)?,
                "--vs-build-runs" => vs.build_runs = parse_count(&value(&arg)?)?.max(1),
                "--vs-timeout" => {
                    let secs: f64 = value(&arg)?
                        .parse()
                        .map_err(|e| format!("--vs-timeout: {e}"))?;
                    vs.timeout = std::time::Duration::from_secs_f64(secs.max(0.0));
                }
                other => return Err(format!("unknown argument {other:?}\n\n{USAGE}")),
            }
            continue;
        }
        if arg.starts_with("--") && is_scale_flag(&arg) {
            let scale = o.scale.get_or_insert_with(default_scale);
            match arg.as_str() {
                "--scale" => {}
                "--profiles" => scale.profiles = parse_list(&value(&arg)?, parse_profile)?,
                "--scale-corpus" => scale.corpus = parse_size(&value(&arg)?)?,
                "--sizes" => scale.sizes = parse_list(&value(&arg)?, parse_count)?,
                "--sentences" => scale.sentences = parse_list(&value(&arg)?, parse_count)?,
                "--big" => {
                    scale.big = true;
                    if scale.prose_mb.is_empty() {
                        scale.prose_mb = vec![1, 2, 5, 10];
                    }
                    if scale.one_line.is_empty() {
                        scale.one_line = vec![22_500, 45_000, 90_000, 180_000];
                    }
                }
                "--prose-mb" => scale.prose_mb = parse_list(&value(&arg)?, parse_count)?,
                "--one-line" => scale.one_line = parse_list(&value(&arg)?, parse_count)?,
                "--nextest" => scale.nextest = parse_list(&value(&arg)?, parse_size)?,
                "--nextest-partition" => scale.nextest_partition = parse_count(&value(&arg)?)?,
                "--cold-build" => scale.cold_build = true,
                "--opt-crates" => {
                    scale.opt_crates = value(&arg)?.split(',').map(str::to_string).collect()
                }
                _ => {
                    let secs: f64 = value(&arg)?
                        .parse()
                        .map_err(|e| format!("--timeout: {e}"))?;
                    scale.timeout = std::time::Duration::from_secs_f64(secs.max(0.0));
                }
            }
            continue;
        }
        match arg.as_str() {
            "-h" | "--help" => return Ok(None),
            "--parse-corpus" => o.parse_corpus = parse_size(&value(&arg)?)?,
            "--e2e" => {
                o.e2e_corpora = value(&arg)?
                    .split(',')
                    .map(parse_size)
                    .collect::<Result<_, _>>()?
            }
            "--runs" => o.runs = value(&arg)?.parse().map_err(|e| format!("--runs: {e}"))?,
            "--min-seconds" => {
                o.min_seconds = value(&arg)?
                    .parse()
                    .map_err(|e| format!("--min-seconds: {e}"))?
            }
            "--seed" => o.seed = value(&arg)?.parse().map_err(|e| format!("--seed: {e}"))?,
            "--skip-parse" => o.skip_parse = true,
            "--skip-e2e" => o.skip_e2e = true,
            "--steps" => {
                let v = value(&arg)?;
                o.step_counts = if v == "none" {
                    Vec::new()
                } else {
                    parse_list(&v, parse_count)?
                };
            }
            "--reuse" => {
                let v = value(&arg)?;
                o.reuse = if v == "none" {
                    Vec::new()
                } else {
                    parse_list(&v, parse_count)?
                };
            }
            "--skip-report" => o.skip_report = true,
            "--skip-lsp" => o.skip_lsp = true,
            "--skip-check" => o.skip_check = true,
            "--lsp-scale" => o.lsp_scale = true,
            other => return Err(format!("unknown argument {other:?}\n\n{USAGE}")),
        }
    }
    o.runs = o.runs.max(1);
    if let Some(scale) = &mut o.scale {
        scale.seed = o.seed;
        scale.runs = o.runs;
    }
    if let Some(vs) = &mut o.vs {
        vs.seed = o.seed;
        vs.runs = o.runs;
    }
    Ok(Some(o))
}

fn is_scale_flag(arg: &str) -> bool {
    matches!(
        arg,
        "--scale"
            | "--profiles"
            | "--scale-corpus"
            | "--sizes"
            | "--sentences"
            | "--big"
            | "--prose-mb"
            | "--one-line"
            | "--nextest"
            | "--nextest-partition"
            | "--cold-build"
            | "--opt-crates"
            | "--timeout"
    )
}

fn main() -> ExitCode {
    // The timer the bench starts itself as around each compared run: its
    // arguments are a program's, never read as the bench's options.
    let mut raw = std::env::args_os().skip(1).peekable();
    if raw.next_if(|a| a == timer::FLAG).is_some() {
        return timer::main(raw);
    }
    let options = match parse_args(std::env::args().skip(1)) {
        Ok(Some(o)) => o,
        Ok(None) => {
            print!("{USAGE}");
            return ExitCode::SUCCESS;
        }
        Err(e) => {
            eprintln!("varar-bench: {e}");
            return ExitCode::from(2);
        }
    };
    match run(&options) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("varar-bench: {e}");
            ExitCode::FAILURE
        }
    }
}

fn run(o: &Options) -> Result<(), String> {
    let work = paths::workspace_root().join("target").join("varar-bench");
    std::fs::create_dir_all(&work).map_err(|e| format!("{}: {e}", work.display()))?;
    // What projects retired (their previous runs' files) is deleted only
    // once nothing is timed any more.
    project::sweep_retired(&work)?;
    let measured = measure(o, &work);
    project::sweep_retired(&work)?;
    measured
}

fn measure(o: &Options, work: &std::path::Path) -> Result<(), String> {
    let work = work.to_path_buf();
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    println!(
        "varar-bench: {cores} core(s), work directory {}",
        work.display()
    );
    if cfg!(debug_assertions) {
        println!("note: this binary is a debug build; run it with --release for real figures");
    }
    if o.lsp_scale {
        return lsp_scale::measure(&work, o.runs);
    }
    if let Some(vs) = &o.vs {
        // The nextest rows are the scaling table's, with this mode's timeout.
        let mut scale = default_scale();
        scale.seed = vs.seed;
        scale.runs = vs.runs;
        scale.timeout = vs.timeout;
        scale.nextest_partition = vs.nextest_partition;
        return vs_cucumber::measure(&work, vs, &scale);
    }
    if !o.skip_parse || !o.skip_report || !o.skip_check {
        let (n, m) = o.parse_corpus;
        let dir = work.join(format!("corpus-{n}x{m}"));
        let corpus = corpus::generate(&dir, n, m, o.seed)?;
        if !o.skip_parse {
            inproc::measure(&corpus, o.min_seconds)?;
            if !o.step_counts.is_empty() {
                steps_scale::measure(&corpus, &o.step_counts, o.min_seconds)?;
            }
        }
        if !o.skip_report {
            report::measure(&corpus, &work, 5)?;
        }
        if !o.skip_check {
            let docs = shape::Shape::Docs.generate(
                &work.join(format!("docs-corpus-{n}x{m}")),
                n,
                m,
                o.seed,
            )?;
            check::measure(&[("ledger", &corpus), ("docs", &docs)], &work, 5)?;
        }
    }
    if !o.skip_lsp {
        lsp::measure(&work, o.runs)?;
    }
    if !o.reuse.is_empty() {
        reuse::measure(&o.reuse, 5)?;
    }
    if !o.skip_e2e {
        e2e::measure(&work, &o.e2e_corpora, o.seed, o.runs)?;
    }
    if let Some(scale) = &o.scale {
        scaling::measure(&work, scale)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(list: &[&str]) -> Result<Option<Options>, String> {
        parse_args(list.iter().map(|s| s.to_string()))
    }

    #[test]
    fn sizes_and_flags_parse() {
        let o = args(&["--e2e", "2x3,4x5", "--runs", "0", "--skip-parse"])
            .unwrap()
            .unwrap();
        assert_eq!(o.e2e_corpora, vec![(2, 3), (4, 5)]);
        assert_eq!(o.runs, 1, "at least one run");
        assert!(o.skip_parse && !o.skip_e2e);
        assert!(args(&["--help"]).unwrap().is_none());
        assert!(args(&["--e2e", "2by3"]).is_err());
        assert!(args(&["--runs"]).is_err());
        assert!(args(&["--what"]).is_err());
        assert!(o.scale.is_none(), "the scaling table is opt-in");
    }

    #[test]
    fn scaling_flags_turn_the_table_on() {
        let o = args(&[
            "--sizes",
            "10,20",
            "--profiles",
            "release,debug+lines",
            "--seed",
            "3",
        ])
        .unwrap()
        .unwrap();
        let scale = o.scale.unwrap();
        assert_eq!(scale.sizes, vec![10, 20]);
        assert_eq!(
            scale.profiles,
            vec![project::Profile::Release, project::Profile::DebugOptDeps]
        );
        assert_eq!(scale.seed, 3);
        assert!(scale.nextest.is_empty(), "nextest runs are opt-in");
        assert!(args(&["--profiles", "fast"]).is_err());
        let o = args(&["--steps", "none"]).unwrap().unwrap();
        assert!(o.step_counts.is_empty());
    }

    #[test]
    fn vs_cucumber_flags_turn_the_comparison_on() {
        assert!(args(&[]).unwrap().unwrap().vs.is_none(), "opt-in");
        let o = args(&["--vs-cucumber", "--runs", "2", "--seed", "4"])
            .unwrap()
            .unwrap();
        let vs = o.vs.unwrap();
        assert_eq!(vs.dev, vec![(200, 25), (20, 25)]);
        assert_eq!(vs.release, vec![(200, 25)]);
        assert_eq!(vs.nextest, vec![(100, 25)]);
        assert_eq!((vs.runs, vs.seed), (2, 4));
        assert_eq!(vs.rows, vs_cucumber::Rows::ALL.to_vec());
        let o = args(&[
            "--vs-dev",
            "20x25",
            "--vs-release",
            "none",
            "--vs-rows",
            "dev,build",
        ])
        .unwrap()
        .unwrap();
        let vs = o.vs.unwrap();
        assert_eq!(vs.dev, vec![(20, 25)]);
        assert!(vs.release.is_empty());
        assert_eq!(
            vs.rows,
            vec![vs_cucumber::Rows::Dev, vs_cucumber::Rows::Build]
        );
        assert!(args(&["--vs-rows", "speed"]).is_err());
        assert!(args(&["--vs-what"]).is_err());
    }

    #[test]
    fn reuse_sizes_parse() {
        assert_eq!(args(&[]).unwrap().unwrap().reuse, vec![100, 1000]);
        assert_eq!(
            args(&["--reuse", "5,7"]).unwrap().unwrap().reuse,
            vec![5, 7]
        );
        assert!(
            args(&["--reuse", "none"])
                .unwrap()
                .unwrap()
                .reuse
                .is_empty()
        );
        assert!(args(&["--reuse", "x"]).is_err());
    }
}
