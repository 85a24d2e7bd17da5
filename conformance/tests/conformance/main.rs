//! The conformance suite: one trial per corpus bundle and artifact
//! (`doc::01-roman-numerals`, …), each comparing the artifact with its golden
//! by parsed content, plus a check that no bundle or golden is orphaned.
//!
//! Each artifact module has a `trials(&Corpus) -> Vec<Trial>`; adding an
//! artifact means filling in its module, nothing here.

mod bundles;
mod cli;
mod config;
mod golden;
mod run_results;

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use libtest_mimic::{Arguments, Failed, Trial};

/// The vendored corpus.
pub struct Corpus {
    /// `conformance/corpus`.
    pub root: PathBuf,
    /// Every bundle directory, sorted by name.
    pub bundles: Vec<Bundle>,
}

/// One bundle directory of the corpus.
#[derive(Clone)]
pub struct Bundle {
    /// Directory name, e.g. `01-roman-numerals`.
    pub name: String,
    /// The bundle directory.
    pub dir: PathBuf,
}

impl Bundle {
    /// The bundle's oath.
    pub fn example(&self) -> PathBuf {
        self.dir.join("example.md")
    }

    /// The golden of artifact `kind`.
    pub fn golden(&self, kind: &str) -> PathBuf {
        self.dir.join("golden").join(format!("{kind}.json"))
    }
}

impl Corpus {
    fn load() -> Result<Corpus, String> {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus");
        let dir = root.join("bundles");
        let entries =
            std::fs::read_dir(&dir).map_err(|e| format!("cannot read `{}`: {e}", dir.display()))?;
        let mut bundles = Vec::new();
        for entry in entries {
            let entry = entry.map_err(|e| format!("cannot read `{}`: {e}", dir.display()))?;
            bundles.push(Bundle {
                name: entry.file_name().to_string_lossy().into_owned(),
                dir: entry.path(),
            });
        }
        bundles.sort_by(|a, b| a.name.cmp(&b.name));
        Ok(Corpus { root, bundles })
    }
}

fn main() -> ExitCode {
    let args = Arguments::from_args();
    let corpus = match Corpus::load() {
        Ok(corpus) => corpus,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::FAILURE;
        }
    };
    let mut trials = vec![orphan_check(&corpus)];
    trials.extend(golden::self_tests());
    trials.extend(cli::trials(&corpus));
    trials.extend(bundles::trials(&corpus));
    trials.extend(config::trials(&corpus));
    trials.extend(run_results::trials(&corpus));
    libtest_mimic::run(&args, trials).exit_code()
}

/// Fails when a bundle lacks its oath or one of the four goldens, or when a
/// file in a bundle is not one of those (a golden with no artifact).
fn orphan_check(corpus: &Corpus) -> Trial {
    let bundles = corpus.bundles.clone();
    Trial::test("corpus::no_orphans", move || {
        let mut problems = Vec::new();
        for bundle in &bundles {
            if !bundle.dir.is_dir() {
                problems.push(format!("`{}` is not a bundle directory", bundle.name));
                continue;
            }
            if !bundle.example().is_file() {
                problems.push(format!("bundle `{}` has no example.md", bundle.name));
            }
            for kind in varar_conformance::KINDS {
                if !bundle.golden(kind).is_file() {
                    problems.push(format!(
                        "bundle `{}` has no golden/{kind}.json",
                        bundle.name
                    ));
                }
            }
            let golden_dir = bundle.dir.join("golden");
            for entry in std::fs::read_dir(&golden_dir)
                .into_iter()
                .flatten()
                .flatten()
            {
                let name = entry.file_name().to_string_lossy().into_owned();
                let known = varar_conformance::KINDS
                    .iter()
                    .any(|k| name == format!("{k}.json"));
                if !known {
                    problems.push(format!(
                        "bundle `{}` has golden/{name}, which no artifact produces",
                        bundle.name
                    ));
                }
            }
        }
        if bundles.is_empty() {
            problems.push("the corpus has no bundles".to_owned());
        }
        if problems.is_empty() {
            Ok(())
        } else {
            Err(Failed::from(problems.join("\n")))
        }
    })
}
