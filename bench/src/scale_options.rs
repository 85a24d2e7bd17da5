//! What a scale measurement is given and shares: its options, the config
//! of a scale project, and the ratio of two timings (the scaling table and
//! its nextest row both use them).

use std::time::Duration;

use crate::project::{Profile, Timed};

/// What the scaling table measures.
#[derive(Clone, Debug)]
pub struct ScaleOptions {
    /// Profiles to build and measure.
    pub profiles: Vec<Profile>,
    /// Corpus of the first-run / second-run / wall-vs-CPU rows.
    pub corpus: (usize, usize),
    /// Examples of the one-oath series.
    pub sizes: Vec<usize>,
    /// Sentences of the one-paragraph series.
    pub sentences: Vec<usize>,
    /// Also the 10 MB oath (73 584 examples).
    pub big: bool,
    /// Sizes in MB of the prose series: one oath holding the 200 x 25
    /// corpus's 5 000 examples and as much prose as makes it that size.
    pub prose_mb: Vec<usize>,
    /// Examples of the one-line series: one oath of that many one-line
    /// examples.
    pub one_line: Vec<usize>,
    /// Corpora run under `cargo nextest run` next to the floor.
    pub nextest: Vec<(usize, usize)>,
    /// Run only `count:1/K` of the items under nextest and scale by K.
    pub nextest_partition: usize,
    /// Timeout of one measured command.
    pub timeout: Duration,
    /// Build the profiles from an empty target directory and report the
    /// build times (how much the profile lines cost).
    pub cold_build: bool,
    /// Crates of the profile lines (`debug+lines`).
    pub opt_crates: Vec<String>,
    /// Corpus seed.
    pub seed: u64,
    /// Repetitions of the corpus rows (the median is shown).
    pub runs: usize,
}

/// The config of a scale project: every oath under `varar/`.
pub fn config() -> String {
    "{ \"docs\": { \"include\": [\"varar/**/*.md\"] } }\n".to_string()
}

pub(crate) fn ratio(a: &Timed, b: &Timed) -> f64 {
    a.wall.as_secs_f64() / b.wall.as_secs_f64().max(1e-9)
}
