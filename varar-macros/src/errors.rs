//! Collecting every problem of one attribute before reporting (STYLE §2.4):
//! the one accumulator the macros share, so a build shows all of them at
//! once, each under its own tokens.

/// The problems found so far, combined into one `syn::Error`.
#[derive(Default)]
pub(crate) struct Errors(Option<syn::Error>);

impl Errors {
    /// Add a problem.
    pub(crate) fn push(&mut self, error: syn::Error) {
        match &mut self.0 {
            Some(all) => all.combine(error),
            None => self.0 = Some(error),
        }
    }

    /// The value of `result`, or `None` after recording its error.
    pub(crate) fn take<T>(&mut self, result: syn::Result<T>) -> Option<T> {
        match result {
            Ok(value) => Some(value),
            Err(error) => {
                self.push(error);
                None
            }
        }
    }

    /// `Ok(value)` when nothing was recorded; every problem otherwise.
    pub(crate) fn finish<T>(self, value: T) -> syn::Result<T> {
        match self.0 {
            None => Ok(value),
            Some(error) => Err(error),
        }
    }
}

#[cfg(test)]
mod tests {
    use proc_macro2::Span;

    use super::Errors;

    #[test]
    fn all_problems_are_kept_in_order() {
        let mut errors = Errors::default();
        assert_eq!(errors.take(Ok::<_, syn::Error>(1)), Some(1));
        errors.push(syn::Error::new(Span::call_site(), "first"));
        assert_eq!(
            errors.take(Err::<u8, _>(syn::Error::new(Span::call_site(), "second"))),
            None
        );
        let messages: Vec<String> = match errors.finish(()) {
            Ok(()) => panic!("two errors were recorded"),
            Err(e) => e.into_iter().map(|e| e.to_string()).collect(),
        };
        assert_eq!(messages, ["first", "second"]);
        assert!(Errors::default().finish(7).is_ok_and(|v| v == 7));
    }
}
