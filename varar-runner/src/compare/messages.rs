//! The wiring messages of spec 30 §30.2.1: problems only a Rust port can
//! have, reported as `thrown` failures. (The return-shape messages of
//! §30.4 are the `Display` of [`varar_core::failure::Shape`].) They take part in
//! `error`-fence substring matching, so their wording is observable.

/// Wiring: the document gives `m` slots but the function takes `k`.
pub fn slot_count_mismatch(m: usize, k: usize) -> String {
    format!("this step has {m} slot(s), but the function takes {k}")
}

/// Wiring: the function takes one kind of attachment, the document gives the other.
pub fn attachment_mismatch(given: &str, taken: &str) -> String {
    format!("this step has {given}, but the function takes {taken}")
}

/// Wiring: the function takes a header-bound row, the step is not bound to one.
pub const NO_ROW: &str =
    "this step is not bound to a header-bound table row, but the function takes a row";

/// Wiring: the registered step has no function to call.
pub fn no_handler(expression: &str) -> String {
    format!("no function is registered for the step \"{expression}\"")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wiring_messages_have_their_exact_text() {
        let cases: Vec<(String, &str)> = vec![
            (
                slot_count_mismatch(1, 2),
                "this step has 1 slot(s), but the function takes 2",
            ),
            (
                attachment_mismatch("a data table", "a doc string"),
                "this step has a data table, but the function takes a doc string",
            ),
            (
                no_handler("I pay {int}"),
                "no function is registered for the step \"I pay {int}\"",
            ),
        ];
        for (got, want) in cases {
            assert_eq!(got, want);
        }
    }
}
