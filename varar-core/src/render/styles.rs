//! The ANSI styles of failure text, decided once by the shell.

/// ANSI styles for each part of the output; plain (empty) by default.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Styles {
    pub(crate) error: &'static str,
    pub(crate) gutter: &'static str,
    pub(crate) underline: &'static str,
    pub(crate) minus: &'static str,
    pub(crate) plus: &'static str,
    pub(crate) hint: &'static str,
    pub(crate) reset: &'static str,
}

impl Styles {
    /// No colour at all.
    pub fn plain() -> Self {
        Styles::default()
    }

    /// Turn colour on.
    pub fn colorize(mut self) -> Self {
        self.error = "\x1b[1;31m";
        self.gutter = "\x1b[1;34m";
        self.underline = "\x1b[1;31m";
        self.minus = "\x1b[31m";
        self.plus = "\x1b[32m";
        self.hint = "\x1b[36m";
        self.reset = "\x1b[0m";
        self
    }

    pub(crate) fn paint(&self, style: &str, text: &str) -> String {
        if style.is_empty() {
            text.to_string()
        } else {
            format!("{style}{text}{}", self.reset)
        }
    }
}
