//! **`cargo varar`: the command line of Varar for Rust.**
//!
//! `cargo install --path varar-cli` installs the `cargo-varar` binary, which
//! cargo runs for `cargo varar <command>`. Every command reads `.varar/`
//! run-result trees and the run records under their `.runs/` (and, except
//! `merge` and `diff`, the project's `varar.config.json` and the oaths it
//! selects); none runs tests, which stay `cargo test` / `cargo nextest
//! run`, but `test`, which runs them on the examples it selects.
//!
//! ```text
//! cargo varar report [--root DIR] [--out DIR] [--open]
//! cargo varar check  [--root DIR] [--format text|json] [--schema]
//! cargo varar gate   [--root DIR] [--format text|json] [--schema] [--deny-recovered] [--deny-removed]
//! cargo varar junit  [--root DIR] [--out FILE] [--profile common|nextest]
//! cargo varar ctrf   [--root DIR] [--out FILE] [--path-prefix DIR]
//! cargo varar merge  [--root DIR] [--prefer-failed] OUT DIR...
//! cargo varar diff   [--root DIR] [--format text|json] OLD NEW
//! cargo varar lsp    [--stdio]
//! cargo varar history [--root DIR] [--format text|json]
//! cargo varar flaky  [--root DIR] [--format text|json] [--runs N] [DIR...]
//! cargo varar attest [--root DIR] [--out FILE]
//! cargo varar verify [--root DIR] [--format text|json] FILE
//! cargo varar review [--root DIR] [--format text|json] [--schema] [--list] [--accept ITEM]... [--accept-all KIND]...
//! cargo varar annotate [--root DIR] [--format github|gitlab] [--out FILE] [--path-prefix DIR]
//! cargo varar sarif  [--root DIR] [--out FILE] [--path-prefix DIR]
//! cargo varar test   [--root DIR] [SELECTOR]... [--since REF] [--tags EXPR] [--nextest] [--list] [-- ARGS...]
//! ```
//!
//! - `report` writes a static HTML site (by default `target/varar/report/`
//!   under the project root) with one page per oath: the Markdown rendered,
//!   every example marked passed or failed, and each failure highlighted at
//!   the exact text it names, with expected and actual next to it. The
//!   latest run's drift and diagnostic items that failed are marked at
//!   their line with their message, and an example that failed and then
//!   passed on a retry says "recovered after N attempts" (both only on the
//!   pages of documents the run read as they are now). It prints the path
//!   of `index.html`.
//! - `check` reports what `cargo test` would fail before any step runs
//!   ([`commands::check`]), found by the language server's analysis
//!   ([`varar_lsp::analysis`]) without
//!   building anything: drift, plan diagnostics and refused step
//!   definitions (each with the test item the harness fails), and as
//!   warnings sentences that look like steps but match none, unused
//!   steps, what planning drops and examples that check nothing (issue 37). `--format json` is described by `--schema` (also
//!   `varar-cli/schema/check.schema.json`).
//! - `gate` answers "may this change merge?" ([`varar_core::verdict::gate`]): every selected
//!   oath needs a fresh result ([`varar_core::verdict::evidence`]) whose examples all passed, and
//!   the project's latest run ([`varar_core::verdict::run_evidence`], from the run records in
//!   `.varar/.runs/`) must be recorded, of the sources as they are now,
//!   complete, and without an item whose last attempt failed: examples,
//!   drift, diagnostics and read errors alike, each named with its kind
//!   and `file:line`. An item that failed and then passed on a retry
//!   (`cargo nextest run --retries`) is listed as recovered;
//!   `--deny-recovered` fails the gate on it. An example `varar.lock.json`
//!   listed that the latest run found no more (deleted, or reworded past
//!   recognition: `cargo test` names it and does not fail) is listed as
//!   removed, with its old text and line; `--deny-removed` fails the gate
//!   on it (issue 37). `--format json` prints one
//!   object (version 2) described by the JSON Schema that `--schema` prints
//!   (also `varar-cli/schema/gate.schema.json`).
//! - `junit` converts the results to JUnit XML ([`commands::junit`]) inside the
//!   common profile CI servers accept, on stdout or atomically to `--out`.
//!   The latest run's drift, diagnostic and read-error items that failed
//!   are failing cases of their oath's suite; an example that recovered on
//!   a retry passes and says so in its `system-out`. `--profile nextest`
//!   (issue 38) writes every earlier attempt as cargo-nextest does instead:
//!   `flakyFailure` on a recovered example, `rerunFailure` on one that
//!   failed every attempt, with nextest's timing attributes.
//! - `ctrf` writes the run as CTRF JSON ([`commands::ctrf`], issue 38), the
//!   Common Test Report Format of test dashboards, valid against the
//!   schema of the `ctrf` npm package: the cases `junit` lists, each with
//!   its full item name, `filePath` (repository-relative) and `line` in
//!   the Markdown, its tags, duration,
//!   `flaky`, `retries` and `retryAttempts`; the run record's run id as
//!   `runId`, one across shards merged with `merge`.
//! - `annotate` and `sarif` (issue 38) show the latest run's findings
//!   ([`varar_core::verdict::findings`]: failed examples at the span of
//!   their failure, drift, diagnostics and read errors at their line;
//!   recovered and removed examples as warnings) where CI shows them:
//!   `annotate` as GitHub workflow commands (`::error file=…,line=…,col=…`,
//!   [`commands::annotate`]) or, `--format gitlab`, a GitLab Code Quality
//!   report; `sarif` as a SARIF 2.1.0 log ([`commands::sarif`]). Paths are
//!   the repository's: the project's directory inside the nearest `.git`
//!   above it, or `--path-prefix`. Their JSON is the standards', so there
//!   is no schema of ours under `varar-cli/schema/`.
//! - `merge` combines the result trees of CI shards into one, as if one run
//!   had produced it, in the harness's own byte format ([`commands::merge`]),
//!   and copies every input's run records (`.runs/<run id>/*.run`) as they
//!   are.
//! - `diff` compares two result trees: regressed, fixed, added, removed,
//!   still failing ([`commands::diff`]), the examples of their result files and
//!   the drift, diagnostic and read-error items of each tree's latest run,
//!   and the examples NEW's latest run found no more in its lock
//!   (`removedFromLock`, issue 37); Markdown for a PR comment, or JSON.
//! - `lsp` is a language server for editors, on stdin/stdout ([`varar_lsp`]):
//!   step sentences highlighted, diagnostics before running anything, go
//!   to the step function, hover, find references, create a missing step,
//!   complete a sentence; run an example or an oath from a code lens (a
//!   real `cargo test`, its results drawn when it ends), the uses of every
//!   step above its function, rename a step across the oaths.
//! - `history`, `flaky`, `attest` and `verify` are the evidence over time
//!   (issue 20): the runs kept in the run history
//!   (`target/varar/history/`, see `varar_core::history`) listed
//!   ([`commands::history`]); the items with mixed outcomes over the kept complete
//!   runs of the current sources, or over downloaded `.varar/` trees
//!   ([`commands::flaky`]); the latest complete, fresh run as an in-toto Statement
//!   with the test-result predicate, and its digests checked against the
//!   working tree ([`commands::attest`]). `report` draws each example's outcomes
//!   over the kept runs and a *flaky* badge.
//!
//! # The project root
//!
//! `--root DIR`, or else the nearest directory at or above the current one
//! that holds `varar.config.json` (see [`varar_project::root`]). `merge` and `diff` need no
//! config: for them `--root DIR` is the directory their relative paths are
//! taken from (the current directory by default).
//!
//! # Machine-readable output and errors
//!
//! JSON output has a `version` (2 for `gate` since it judges the run, 1
//! for `diff`) and camelCase keys. Every problem is an
//! [`varar_core::verdict::records::ErrorRecord`] with a `code` and a one-line `message`, plus
//! `path`, `oathPath`, `example` and `line` when known; text output prints
//! it as `error[code]: message`. Result files are read by the one strict
//! reader of the run-result format
//! ([`varar_core::results::parse_run_result`]): an unknown `version`, a key
//! written twice or a wrong shape is refused with the place and the reason
//! (`invalid_result`), never half read.
//!
//! # Exit codes
//!
//! - `report`: `0` when the report was written (also when examples failed:
//!   the report describes, it does not judge); `2` when an input could not
//!   be used (named on stderr and marked unreadable in the site, the rest is
//!   written; an unreadable run record is named, and the site drawn from
//!   the readable ones), nothing could be written, or the arguments are
//!   wrong.
//! - `check`: `0` no error (warnings are printed), `1` some error, `2` an
//!   input is unusable (`invalid_config`, `input_error`: a step file that
//!   does not parse, an unreadable oath or lock; `no_oaths`), which wins.
//! - `gate`: `0` all fresh, complete and passed; `1` some item of the
//!   latest run failed (an example, drift, a diagnostic, a read error), or
//!   one recovered under `--deny-recovered`, or an example removed under
//!   `--deny-removed`; `2` the evidence is unusable,
//!   which wins over `1`: `missing_result`, `stale_result`,
//!   `invalid_result`, `invalid_config`, `input_error`, `no_oaths`, and for
//!   the run `missing_run` (the project holds no run record),
//!   `incomplete_run` (a process of the latest run never reached its end,
//!   an item it planned did not run, or an oath with examples in its
//!   result file or in `varar.lock.json` has no item in it), `stale_run` (a
//!   document the run read, or `varar.config.json`, changed or is gone
//!   since: the SHA-256 its record holds differs) and `invalid_run` (a run
//!   record that cannot be read; one of an unknown version is treated as
//!   absent).
//! - `junit`: `0` written (without a run record, or with a stale or
//!   incomplete latest run, with a warning); `2` an input is unusable (an
//!   `invalid_run` record included) or the file could not be written
//!   (nothing is written then).
//! - `ctrf`: as `junit`: `0` written, whatever the results; `2` with the
//!   gate's records when the latest run cannot be judged, an unusable
//!   input or a file that could not be written (nothing is written then).
//! - `merge`: `0` merged; `2` on `source_mismatch`, `conflicting_result`,
//!   `invalid_result`, `invalid_run` (a run record that cannot be read),
//!   `conflicting_run` (two inputs hold a run record of the same name with
//!   different bytes), `input_error`, `invalid_arguments` (OUT overlaps an
//!   input) or `output_error`; nothing is written unless every input was
//!   read and merged.
//! - `diff`: `1` when an example or item regressed or a new one fails, `0`
//!   otherwise, `2` when a tree could not be read (`invalid_run`
//!   included).
//! - `lsp`: `0` after the editor's `shutdown` and `exit`; `2` when the
//!   editor breaks the protocol or goes away mid-handshake.
//! - `history`: `0`; `2` when the project cannot be found or the history is
//!   off.
//! - `flaky`: `0` no item flaky, `1` some, `3` fewer than two complete runs
//!   of the current sources (`too_few_runs`: missing evidence wins over a
//!   mixture), `2` a record or directory could not be read.
//! - `attest`: `0` written, whatever the result; `2` with the gate's errors
//!   when the latest run cannot be judged (nothing is written).
//! - `verify`: `0` every digest matches; `1` a file changed
//!   (`digest_mismatch`) or is missing (`missing_subject`); `2` the file is
//!   not an in-toto test-result statement (`invalid_attestation`) or cannot
//!   be read.
//! - `review` ([`commands::review`], issue 37): lists the latest run's
//!   drift, failed values and removed examples with their ids, and
//!   accepts them (`--accept ITEM`, `--accept-all KIND`; on a terminal
//!   without these or `--list`, it asks about each change): `0` listed or
//!   every change named accepted; `1` one refused (`changed_since_run`:
//!   the oath is not the text the run read; `not_acceptable`); `2` no run
//!   record (`missing_run`), an id that is no change of the run
//!   (`unknown_change`), an unreadable lock.
//! - `annotate`, `sarif`: `0` written, whatever was found (annotations are
//!   output: the test run's own exit code fails the CI job, and a step
//!   after it runs with `if: always()`); `2` with the gate's records when
//!   the latest run cannot be judged (stale, incomplete, unreadable,
//!   unrecorded), with the records of an unusable input, or when the file
//!   could not be written (nothing is written then). A project with no
//!   run record at all is shown from its results, without columns, with a
//!   warning.
//! - `test` ([`commands::test`], issue 38): selects items by where they
//!   are written (`varar/basket.md:13`, `varar/basket.md#paying`,
//!   `varar/basket.md`) and by what changed since a git ref (`--since`:
//!   changed paragraphs, linked sections and step functions; everything,
//!   with the reason, when unsure), says what and why on stderr, and runs
//!   `cargo test` (`cargo nextest run` with `--nextest`) in the project
//!   root with the names in `VARAR_SELECT` (and `--tags`, which narrows
//!   the selection by the harness's rule, as `VARAR_TAGS`),
//!   the arguments after `--` passed to cargo unchanged; `--list` prints
//!   the names instead: cargo's exit code; `0` when nothing is selected
//!   (nothing runs); `2` an unknown oath, line or section, a ref that is
//!   no commit, a selection too large for `VARAR_SELECT`.
//! - Usage errors exit `2` (clap).
//!
//! # Layout
//!
//! The shell (what touches the file system, the editor or the terminal)
//! is small; the work itself is pure, values in and values out.
//!
//! - The command line in two steps ([`cli`]): clap's raw arguments
//!   ([`cli::args`]), then one validated value per command gathered
//!   ([`cli::invocation`]), run by [`cli::dispatch`].
//! - [`commands`]: one folder per command, everything of it together: its
//!   arguments and validated value (`args`: absolute paths, defaults,
//!   `merge`'s OUT checked against its inputs), its shell (`shell`) and
//!   its pure work ([`commands::check`], [`commands::junit`],
//!   [`commands::annotate`], [`commands::sarif`],
//!   [`commands::merge`], [`commands::diff`], [`commands::history`],
//!   [`commands::flaky`] (its text) and [`commands::attest`], which
//!   `verify` shares), over the engine's run verdict
//!   ([`varar_core::verdict`]: the gate, whether a result is fresh, what
//!   the run records say of the latest run, its standing, what is drawn as
//!   current, and the error records with their codes, the kept runs, the
//!   flaky comparison); the names of the test items of planned oaths are
//!   the engine's (`varar_core::names::items`, the harness's order).
//! - Each shell takes its validated value and returns an
//!   [`output::Output`], printed through the one helper
//!   [`output::emit`] (text or JSON, stdout or `--out`), or the one
//!   [`Error`], which knows its stable code and its exit code; `main`
//!   renders and prints, and nothing else does.
//! - Reading: [`varar_project::root`] finds the project,
//!   [`varar_project::evidence`] reads it (the one reader of `report`,
//!   `gate` and `junit`, run records included), [`tree`] reads a results
//!   tree and its run records (`merge`, `diff`). The report, read,
//!   rendered and written, is [`varar_report`]'s, which the language
//!   server calls too.
//! - The language server is [`varar_lsp`]'s (`commands::lsp` serves it);
//!   `check` reads the oaths with its protocol-free analysis.
#![cfg_attr(
    not(test),
    warn(
        clippy::print_stdout,
        clippy::print_stderr,
        clippy::unwrap_used,
        clippy::expect_used
    )
)]

pub mod cli;
pub mod commands;
pub mod error;
pub mod output;
pub mod tree;

pub use error::Error;
