//! Human-readable failure text (spec 40 §7.6, spec 50 §50.4, STYLE §2.6).
//!
//! Pure: takes the source, the spans and the messages, returns a string. The
//! layout follows rustc: a clickable `path:line:col: message` header, the
//! source line with a line-number gutter and the failing span underlined,
//! then expected/actual as `-`/`+` lines. Colour is decided once by the
//! harness and handed in as [`Styles`]; meaning never depends on it.

mod parts;
pub mod report;
mod snippet;
mod styles;

pub use parts::{expected_actual, header};
pub use snippet::snippet;
pub use styles::Styles;
