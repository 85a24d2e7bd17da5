//! What a [`Runner`](crate::Runner) was told: the project root, which steps take
//! part, and the settings code may give instead of the environment.

use std::path::PathBuf;
use std::time::Duration;

/// A run's settings.
#[derive(Clone, Debug)]
pub(crate) struct Settings {
    /// Where `varar.config.json`, `varar.lock.json` and `.varar/` live.
    pub root: PathBuf,
    /// Module-path prefixes of the steps that take part (all when `None`).
    pub modules: Option<Vec<String>>,
    /// Accept drift, instead of reading `VARAR_UPDATE`.
    pub update: Option<bool>,
    /// The example time limit, instead of reading `VARAR_TIMEOUT`.
    pub timeout: Option<Duration>,
    /// When the `SLOW` notice is printed without a limit.
    pub slow_after: Duration,
    /// Whether the process ends when the run returns (the run is its
    /// `main`): what the run built is then left to the system to reclaim
    /// instead of being freed piece by piece, milliseconds for thousands
    /// of examples.
    pub ends_process: bool,
}
