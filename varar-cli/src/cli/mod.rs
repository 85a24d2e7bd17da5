//! The command line in two steps, as ripgrep reads its flags: clap parses
//! the raw arguments ([`args`]: [`Cli`], what the user typed), then
//! [`Invocation::from_cli`] turns them into one validated value per command
//! ([`invocation`]: absolute paths, defaults, modes, and the checks that
//! need more than one flag, such as `merge`'s OUT overlapping an input).
//! Every command takes its validated value and trusts it.

pub mod args;
pub mod invocation;

pub use args::{
    AttestArgs, CheckArgs, Cli, Command, DiffArgs, FlakyArgs, Format, GateArgs, HistoryArgs,
    JunitArgs, LspArgs, MergeArgs, ReportArgs, RootArgs, VerifyArgs, normalize_args,
};
pub use invocation::{
    AttestRun, CheckRun, DiffRun, FlakyRun, GateRun, HistoryRun, InvalidArguments, Invocation,
    JunitOut, JunitRun, MergeRun, VerifyRun,
};
