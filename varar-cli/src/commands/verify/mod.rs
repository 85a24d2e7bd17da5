//! `cargo varar verify FILE`: an attestation checked against the working
//! tree. The reading and the comparison are pure work it shares with
//! `attest` ([`crate::commands::attest`]); here are its arguments
//! ([`args`]) and its shell ([`shell`]: the files' digests now).

pub mod args;
pub mod shell;
