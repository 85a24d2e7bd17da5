//! The conformance harness: bundle step definitions and artifact builders.
