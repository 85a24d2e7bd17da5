//! What a step's code hands back: a value, or a [`StepError`], possibly
//! through a future.

use std::future::Future;
use std::pin::Pin;

use super::observed::Returned;

/// A step that failed by returning `Err` or by a wiring problem (an argument
/// that cannot be read, a missing table). Its message is the `thrown` message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StepError {
    /// The message, used as is.
    pub message: String,
}

impl StepError {
    /// A step error with this message.
    pub fn new(message: impl Into<String>) -> Self {
        StepError {
            message: message.into(),
        }
    }
}

impl std::fmt::Display for StepError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

/// A boxed future borrowing for `'a`: what async entry points hand back.
/// It need not be `Send`: each example drives its futures on its own thread.
pub type BoxFuture<'a, T> = Pin<Box<dyn Future<Output = T> + 'a>>;

/// What a step's entry point hands back.
pub type StepResult = Result<Returned, StepError>;
