//! The command line in two steps, as ripgrep reads its flags: clap parses
//! the raw arguments ([`args`]: [`Cli`], what the user typed, each
//! command's arguments declared in its folder of [`crate::commands`]),
//! then [`Invocation::from_cli`] turns them into one validated value per
//! command ([`invocation`]); [`dispatch::run`] runs the command it names.
//! Every command takes its validated value and trusts it.

pub mod args;
pub mod dispatch;
pub mod invocation;

pub use args::{Cli, Command, normalize_args};
pub use dispatch::run;
pub use invocation::Invocation;
