//! What `--vs-cucumber` measures: its row groups and options.

use std::time::Duration;

use crate::shape::Shape;

/// A group of rows, chosen with `--vs-rows`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rows {
    /// Dev profile first and second runs, and peak RSS, per `--vs-dev` corpus.
    Dev,
    /// Release first and second runs per `--vs-release` corpus.
    Release,
    /// Cold build and rebuild after editing the step file (dev profile).
    Build,
    /// `cargo nextest run` of ours next to its floor (dev profile).
    Nextest,
}

impl Rows {
    /// Every group, in table order.
    pub const ALL: [Rows; 4] = [Rows::Dev, Rows::Release, Rows::Build, Rows::Nextest];

    /// How `--vs-rows` names it.
    pub fn parse(s: &str) -> Result<Rows, String> {
        match s {
            "dev" => Ok(Rows::Dev),
            "release" => Ok(Rows::Release),
            "build" => Ok(Rows::Build),
            "nextest" => Ok(Rows::Nextest),
            other => Err(format!(
                "unknown row group {other:?} (dev, release, build, nextest)"
            )),
        }
    }
}

/// What `--vs-cucumber` measures.
#[derive(Clone, Debug)]
pub struct VsOptions {
    /// Corpora of the dev profile rows.
    pub dev: Vec<(usize, usize)>,
    /// Corpora of the release rows.
    pub release: Vec<(usize, usize)>,
    /// Corpus of the planted-failure check.
    pub check: (usize, usize),
    /// Corpora of the nextest rows.
    pub nextest: Vec<(usize, usize)>,
    /// Run only `count:1/K` of the items under nextest and scale by K.
    pub nextest_partition: usize,
    /// Row groups to measure.
    pub rows: Vec<Rows>,
    /// Pairs of runs per row (the medians are shown).
    pub runs: usize,
    /// Pairs of cold builds and rebuilds.
    pub build_runs: usize,
    /// Timeout of one test binary run (a killed run is shown as `> T s`).
    pub timeout: Duration,
    /// Corpus seed.
    pub seed: u64,
    /// The corpora every corpus-dependent row is measured on.
    pub shapes: Vec<Shape>,
}

impl Default for VsOptions {
    fn default() -> Self {
        VsOptions {
            dev: vec![(200, 25), (20, 25)],
            release: vec![(200, 25)],
            check: (20, 25),
            nextest: vec![(100, 25)],
            nextest_partition: 1,
            rows: Rows::ALL.to_vec(),
            runs: 3,
            build_runs: 1,
            timeout: Duration::from_secs(600),
            seed: 1,
            shapes: Shape::ALL.to_vec(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn row_groups_parse() {
        assert_eq!(Rows::parse("nextest"), Ok(Rows::Nextest));
        assert!(Rows::parse("all").is_err());
    }
}
