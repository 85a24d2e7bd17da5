//! Who this process is in which run (issue 19): its run and process ids,
//! what nextest said of it, the run a rerun continues, read once from the
//! environment at the start of the process.

use std::collections::{BTreeMap, BTreeSet};
use std::hash::{BuildHasher, Hasher};
use std::time::{SystemTime, UNIX_EPOCH};

use varar_core::env::VARAR_RUN_ID;
use varar_core::record::NextestRun;

/// Who this process is in which run.
#[derive(Clone, Debug)]
pub(crate) struct Identity {
    /// The run: nextest's, the one a rerun continues, or a fresh one.
    pub run_id: String,
    /// This process.
    pub process_id: String,
    /// When it started.
    pub started_ms: u64,
    /// What nextest said.
    pub nextest: Option<NextestRun>,
    /// The run a rerun continues, and its items' last attempts.
    pub rerun: Option<Continuation>,
}

/// A rerun (`VARAR_RERUN=failed`): what it runs again, and the attempts so
/// far.
#[derive(Clone, Debug)]
pub(crate) struct Continuation {
    /// This invocation: nextest's run id, or this process's id.
    pub group: String,
    /// The items that failed or did not run in the continued run.
    pub items: BTreeSet<String>,
    /// Every item's last attempt in the continued run.
    pub previous: BTreeMap<String, u32>,
}

/// Milliseconds since the Unix epoch now.
pub(crate) fn now_ms() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX))
}

impl Identity {
    /// This process, from the environment nextest sets (`NEXTEST_RUN_ID`,
    /// `NEXTEST_ATTEMPT`, `NEXTEST_TOTAL_ATTEMPTS`, `NEXTEST_TEST_NAME`)
    /// and `VARAR_RUN_ID`, which names the run when set.
    pub(crate) fn from_env() -> Identity {
        let started_ms = now_ms();
        let var = |name: &str| std::env::var(name).ok().filter(|v| !v.is_empty());
        let number = |name: &str| var(name).and_then(|v| v.parse::<u32>().ok());
        let nextest = var("NEXTEST_RUN_ID").map(|run_id| NextestRun {
            run_id,
            attempt: number("NEXTEST_ATTEMPT"),
            total_attempts: number("NEXTEST_TOTAL_ATTEMPTS"),
            test_name: var("NEXTEST_TEST_NAME"),
        });
        let process_id = format!("{started_ms}-{}-{:08x}", std::process::id(), random32());
        // `VARAR_RUN_ID` joins invocations that cannot share one otherwise:
        // the `--partition` shards of one CI pipeline, several test targets.
        let run_id = match (var(VARAR_RUN_ID), &nextest) {
            (Some(id), _) => id,
            (None, Some(n)) => n.run_id.clone(),
            (None, None) => format!("varar-{started_ms}-{:08x}", random32()),
        };
        Identity {
            run_id,
            process_id,
            started_ms,
            nextest,
            rerun: None,
        }
    }

    /// The group of processes a rerun decides together: one nextest
    /// invocation, or this process alone.
    pub(crate) fn group(&self) -> String {
        match &self.nextest {
            Some(n) => n.run_id.clone(),
            None => self.process_id.clone(),
        }
    }

    /// Item `name`'s attempt in this process.
    pub(super) fn attempt(&self, name: &str) -> u32 {
        let this = self.nextest.as_ref().and_then(|n| n.attempt).unwrap_or(1);
        let before = self
            .rerun
            .as_ref()
            .and_then(|r| r.previous.get(name))
            .copied()
            .unwrap_or(0);
        before + this
    }
}

/// 32 random bits, from the standard library's per-process hash keys (no
/// dependency for a run id's tail).
fn random32() -> u32 {
    let mut hasher = std::collections::hash_map::RandomState::new().build_hasher();
    hasher.write_u128(u128::from(now_ms()));
    hasher.finish() as u32
}
