//! **Markdown documentation as tests.**
//!
//! Write oaths in plain Markdown, declare step functions with
//! [`stimulus`] and [`sensor`], and `cargo test` runs one test per example:
//! every paragraph whose sentences match your steps. A sensor's return is
//! compared with the value written in the document, and a mismatch is
//! reported at its exact place in the Markdown.
//!
//! # Usage
//!
//! ```toml
//! [dev-dependencies]
//! oathmark = "0.1"
//!
//! [[test]]
//! name = "oaths"
//! harness = false
//! ```
//!
//! The package is `oathmark` on crates.io (the name `varar` there is the
//! upstream Varar project's); its library, this crate, is `varar`.
//!
//! ```no_run
//! // tests/oaths.rs
//! fn main() -> std::process::ExitCode {
//!     varar::run()
//! }
//! ```
//!
//! [`run`] reads `varar.config.json` in the crate's directory
//! (`{ "docs": { "include": ["varar/**/*.md"] } }`), plans every oath once,
//! hands libtest one item per example and exits with libtest's status. All
//! libtest flags work (`--list`, filters, `--exact`, `--skip`,
//! `--test-threads`), and so does `cargo nextest run`.
//!
//! # Workflow
//!
//! Every run writes `.varar/<oath>.json` (git-ignore it) and a clean run
//! records `varar.lock.json` (commit it). When a paragraph that was an
//! example stops matching any step, the run fails with a *drift* item until
//! the step is fixed or the change is accepted with
//! `VARAR_UPDATE=1 cargo test` (then commit the lock). `VARAR_UPDATE`
//! accepts `1` or `true`; any value other than those, `0`, `false` or empty
//! is an error. Only complete runs record the lock: filtered runs and
//! `cargo nextest run` detect drift and write results but leave the lock
//! alone (unless `VARAR_UPDATE` is set), and `--list` writes nothing.
//!
//! Steps are ordinary functions with an attribute that names their
//! Cucumber Expression. The macro checks the expression and the signature
//! when the crate is compiled, and registers the step with `inventory`.
//!
//! ```
//! use varar::{sensor, stimulus};
//!
//! #[derive(Default)]
//! pub struct Account {
//!     balance: i64,
//! }
//!
//! #[stimulus("I deposit {int}")]
//! fn deposit(account: &mut Account, amount: i64) {
//!     account.balance += amount;
//! }
//!
//! #[stimulus("I open an account with {int}")]
//! fn open(_: Account, amount: i64) -> Account {
//!     Account { balance: amount } // full replacement of the state
//! }
//!
//! #[sensor("the balance is {int}")]
//! fn balance(account: &Account) -> i64 {
//!     account.balance // compared with the number in the document
//! }
//!
//! #[sensor("the square of {int} is {int}")]
//! fn square(n: i64, _square: i64) -> (i64, i64) {
//!     (n, n * n) // stateless, two slots
//! }
//! # fn main() {}
//! ```
//!
//! # Step signatures
//!
//! A step function takes, in order:
//!
//! 1. **its state**, optionally: `&mut S` (mutate in place), `&S` (read),
//!    or `S` by value (a stimulus then returns the next `S`: full
//!    replacement). A first parameter that is a reference other than `&str`
//!    is the state; a by-value first parameter is the state when the function
//!    takes one more argument than the expression has parameters. `S` must be
//!    `Send + 'static`; each example starts from its [`state`] factory, or
//!    else from `S::default()`, one value per step file and state type. A
//!    `&R` for a run-wide [`resource`] type `R` receives the shared resource
//!    instead.
//! 2. **one argument per `{param}`**, in expression order:
//!    `{int}`/`{byte}`/`{short}`/`{long}`/`{biginteger}` → any integer type;
//!    `{float}`/`{double}` → `f64` or `f32`;
//!    `{word}`/`{string}`/`{}`/`{emph}`/`{bigdecimal}` → `String` or `&str`;
//!    a custom `{name}` → the type declared with [`parameter`] under that
//!    name (checked at compile time). A sensor may leave out all of them:
//!    the engine compares the captures with what it returns.
//! 3. **a trailing [`Table`], [`DocString`] or [`Row`]** (by value or by
//!    reference), always last. The number of parameters places it; only
//!    where it cannot (a function taking one `&Table`: the attachment, or
//!    the state?) does the name decide, and the compiler checks it is
//!    varar's. A type of your own called `Table` is then written with its
//!    path (`crate::Table`).
//!
//! # Returns
//!
//! * A **stimulus** returns `()`, or the next `S` when it takes `S` by value.
//! * A **sensor** answers its *slots* (the parameters, then a trailing table
//!   or doc string): `()` for none (it asserts for itself), the bare value
//!   for one, a tuple of exactly that many values for two or more. A
//!   header-bound row sensor (taking a [`Row`]) returns the row of the
//!   columns it computed. Each value must be comparable (the types below,
//!   `bool`, `Option<T>` whose `None` reads as `null`, and `Vec`s and maps of
//!   them) and fit its slot's kind: an integer type for `{int}`, `f64`/`f32` for `{float}`,
//!   `String`/`&'static str` for text, the custom type for `{name}`, a
//!   string or [`DocString`] for a doc string, a list of rows (e.g.
//!   `Vec<Vec<String>>`, `Vec<Row>`, `Vec<BTreeMap<String, String>>`) for a
//!   table. Return the table's data rows only: the header is never compared.
//! * Either may return `Result<R, E>` with `E: Display`; `Err(e)` fails the
//!   step with `e.to_string()`. A panic fails only its example.
//!
//! A tuple of the wrong length, a value from a sensor without slots, a
//! `Table` that is not last, or an argument type that cannot be read from
//! its slot are compile errors under the offending tokens.
//!
//! Any step may be an `async fn` with the same signature and the same
//! checks (see below).
//!
//! # Async steps and resources
//!
//! ```
//! use varar::{sensor, stimulus};
//!
//! /// Run-wide: built once, by the first example that needs it, and lent to
//! /// every example (`&Ledger`). Must be `Send + Sync`.
//! pub struct Ledger {
//!     name: String,
//! }
//!
//! #[varar::resource]
//! async fn ledger() -> Result<Ledger, std::io::Error> {
//!     Ok(Ledger { name: "main".to_string() })
//! }
//!
//! /// Per example, from a factory instead of `Default`.
//! pub struct Account {
//!     ledger: String,
//!     balance: i64,
//! }
//!
//! #[varar::state]
//! async fn account(ledger: &Ledger) -> Result<Account, String> {
//!     Ok(Account { ledger: ledger.name.clone(), balance: 0 })
//! }
//!
//! /// After every example that made an `Account`, passed or failed.
//! #[varar::teardown]
//! async fn close(account: Account) -> Result<(), String> {
//!     let _ = account.balance;
//!     Ok(())
//! }
//!
//! #[stimulus("I deposit {int}")]
//! async fn deposit(account: &mut Account, amount: i64) {
//!     account.balance += amount;
//! }
//!
//! #[sensor("the ledger is {word}")]
//! async fn ledger_name(ledger: &Ledger) -> String {
//!     ledger.name.clone()
//! }
//! # fn main() {}
//! ```
//!
//! * **`async fn` steps.** Every signature above works as an `async fn`,
//!   and sync and async steps mix in one example. A step's future is awaited
//!   before the next step runs, on the example's own thread, so it need not
//!   be `Send` (an `Rc` may live across an `.await`). A panic fails the
//!   example exactly as in a sync step.
//! * **The runtime.** With the `tokio` feature (`oathmark = { …, features =
//!   ["tokio"] }`), one multi-threaded tokio runtime lives for the whole run:
//!   a server spawned by a resource, a connection pool, a `reqwest::Client`
//!   keep working in every example, and examples still run in parallel on
//!   libtest's threads without blocking a runtime worker. Without the
//!   feature, a small built-in executor drives the futures; a step that needs
//!   tokio's reactor fails with "enable the "tokio" feature of varar".
//! * **Resources** ([`resource`]): a `fn` or `async fn` with no parameters
//!   returning `T` or `Result<T, E: Display>`, `T: Send + Sync + 'static`.
//!   Built lazily, at most once per run (concurrent first uses wait for the
//!   one build; `--list` builds nothing); a failure is remembered and fails
//!   every example that needs `T` with `resource T could not be built: …`,
//!   at its first step that needed it. Steps, factories and teardowns take
//!   it as `&T`; a step taking `&mut T` or `T` is an error before anything
//!   runs.
//! * **State factories** ([`state`]): a `fn` or `async fn` whose parameters
//!   are `&R` for resource types, returning `S` or `Result<S, E>`. A failure
//!   fails that example only: `state S could not be built: …`. A state type
//!   with neither a factory nor `Default` is an error before anything runs.
//! * **Teardown** ([`teardown`]): one parameter `T` by value, returning `()`
//!   or `Result<(), E>`. For a state type: after each example, newest state
//!   first, whether it passed, failed, panicked or timed out; a failure fails
//!   the example with `teardown of S failed: …`, after the example's own
//!   failure if it had one. For a resource type: once after the last
//!   example, newest first, before the runtime stops; a failure makes the
//!   run exit non-zero. At most one resource, factory and teardown per type.
//! * **Timeouts.** `VARAR_TIMEOUT` (`500ms`, `30s`, `2m`) or
//!   [`Runner::timeout`] limits each example; one over it fails with
//!   `timed out after 30s in step "…"` at the step it was in. An async
//!   step's future is dropped; a blocking sync step keeps only its own
//!   thread, which is abandoned, and the run ends normally. With a limit,
//!   each example runs on a thread of its own, reused from a pool (about
//!   15 µs per example on the bench).
//!   Without a limit, an example still running after 60 s prints
//!   `SLOW [> 60 s] <test name> (in step "…")` on stderr.
//!
//! # Custom parameter types
//!
//! ```
//! #[derive(Debug, PartialEq)]
//! pub struct Money {
//!     pence: i64,
//! }
//!
//! impl std::fmt::Display for Money {
//!     fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
//!         write!(f, "£{}.{:02}", self.pence / 100, self.pence % 100)
//!     }
//! }
//!
//! #[varar::parameter(name = "money", regex = r"£(\d+)\.(\d{2})", format)]
//! fn money(pounds: &str, pence: &str) -> Result<Money, std::num::ParseIntError> {
//!     Ok(Money { pence: pounds.parse::<i64>()? * 100 + pence.parse::<i64>()? })
//! }
//!
//! #[varar::sensor("the late fee is {money}")]
//! fn late_fee() -> Money {
//!     Money { pence: 260 }
//! }
//! # fn main() {}
//! ```
//!
//! The attribute goes on the parse function: one `&str` (or `Option<&str>`
//! for a group that may not participate) per outermost capture group of the
//! regex, or one for the whole match when the regex has none; it returns the
//! type, or `Result<T, E: Display>`. The regex (`regex`-crate syntax), the
//! name and the arity are checked at compile time. With the `format` flag,
//! the type's `Display` is its document notation, used to show the actual
//! side of a mismatch (`£2.60`); without it, its `Debug` form is shown. The
//! type may be any `Debug + PartialEq + Send + 'static` type, one from
//! another crate included (`rust_decimal::Decimal`, `std::time::Duration`,
//! your library's own `Money`): the attribute implements
//! [`Parameter<Marker>`](Parameter) for it with a marker type of its own,
//! never a trait of ours on your type. Steps in any module use it by
//! naming the type; the step macros find the parameter type through it, so
//! one Rust type backs one custom parameter type (wrap a second one in a
//! newtype).
//!
//! # What to test
//!
//! Oaths are documentation first: write the behaviour a reader needs to
//! know, in sentences, tables and code blocks, and let the steps drive the
//! code under test. Keep steps thin (parse, call, return what happened) and
//! let Varar do the comparing, so a failure points at the document.
//!
//! A setup several oaths share is written once, as a section of an oath,
//! and linked: a paragraph that is only a link to an oath section
//! (`[Stocking the shelf](opening.md#stocking-the-shelf)`) runs that
//! section's steps where it stands, with the linking example's state, and
//! the section no longer runs on its own (reuse by link; see the README).
//!
//! # Troubleshooting
//!
//! * **A paragraph does not run.** Its sentences match no step: check the
//!   spelling, the case and the parameter types; `cargo test -- --list`
//!   shows what became an example.
//! * **Steps in another crate are not found.** `inventory` only sees linked
//!   code: add `use my_steps as _;` to `tests/oaths.rs`.
//! * **`…::varar:drift:<line>` fails.** A recorded example no longer
//!   matches; fix the step or accept with `VARAR_UPDATE=1 cargo test`.
//! * **`…::varar:diagnostic:ambiguous-match:<line>` fails.** Two steps match
//!   exactly the same words; make one of them more specific.
//! * **`error: no oath matched docs.include […]`.** The globs in
//!   `varar.config.json` match no file under the crate's directory (they are
//!   relative to it, e.g. `varar/**/*.md`); a run with nothing to test
//!   fails.
//! * **`error: varar.lock.json: unsupported lock version …`.** The lock was
//!   written in another format; re-record it with `VARAR_UPDATE=1 cargo test`
//!   and commit it.
//! * **A failure says a table is attached.** A table (or a fence, even one
//!   never closed) after a paragraph belongs to its last step: take it as
//!   that step's last argument, or put a prose paragraph or a heading
//!   between them.
//! * Steps must be free functions (not methods) and not generic.
//! * **A step fails with "enable the \"tokio\" feature of varar".** It
//!   uses tokio (a timer, a socket, `tokio::spawn`): add
//!   `features = ["tokio"]` to the `varar` dev-dependency.
//! * **A test hangs in CI.** Set `VARAR_TIMEOUT=2m`; without it, look for the
//!   `SLOW` line that names the example and its step.
//! * **`cargo test` is slow on many oaths.** It builds without optimisation;
//!   add the `[profile.dev.package.<crate>] opt-level = 3` lines of the
//!   README's quick start (the engine and the dependencies it is busy in) to
//!   your `Cargo.toml`.
//!
//! # Known limitations
//!
//! * Output printed by steps is not captured per test.
//! * A timed-out blocking step's thread cannot be stopped: it is abandoned
//!   until the process exits, and the state it holds is not torn down.
//! * A failure's message, stack, actual value and backtrace are kept to
//!   64 KiB (`varar_core::untrusted::TEXT_LIMIT`), ending with how much was
//!   cut (`… [N bytes cut]`), in the `cargo test` output, `.varar/` and the
//!   run record; an `error` fence is matched against the whole message.
//!   Control characters and bidirectional overrides in failure text are
//!   shown escaped (`\u{001B}`).

pub use varar_macros::{parameter, resource, sensor, state, stimulus, teardown};
pub use varar_runner::{DocString, Parameter, Row, Runner, Table, run};

/// Support for the code the macros generate; not a public API.
#[doc(hidden)]
pub mod __private {
    pub use inventory;
    pub use varar_runner::__private::*;
}
