//! The built-in type a mistyped name most likely meant (issue 37): `{integer}`
//! is `{int}`, `{str}` is `{string}`, `{Float}` is `{float}`. A name that is
//! not a built-in is a custom type (spec 20 §20.4), so an unknown one is an
//! error; this only finds what to suggest in it.

use crate::params::built_in_names;

/// Names people write for a built-in, from other languages and from Rust.
const ALIASES: [(&str, &str); 18] = [
    ("integer", "int"),
    ("i8", "int"),
    ("i16", "int"),
    ("i32", "int"),
    ("i64", "int"),
    ("u8", "int"),
    ("u16", "int"),
    ("u32", "int"),
    ("u64", "int"),
    ("isize", "int"),
    ("usize", "int"),
    ("number", "int"),
    ("bigint", "biginteger"),
    ("f32", "float"),
    ("f64", "float"),
    ("decimal", "bigdecimal"),
    ("str", "string"),
    ("quoted", "string"),
];

/// The built-in type that the unknown type name `name` most likely means:
/// a known alias (`integer`, `i64`, `str`), the same name in another case
/// (`Float`), or a name one edit away (two for names of six letters or
/// more: `strng`, `bigdecimel`). `None` for a built-in name itself and for
/// a name close to none.
///
/// ```
/// use varar_expression::likely_built_in;
/// assert_eq!(likely_built_in("integer"), Some("int"));
/// assert_eq!(likely_built_in("str"), Some("string"));
/// assert_eq!(likely_built_in("Float"), Some("float"));
/// assert_eq!(likely_built_in("strng"), Some("string"));
/// assert_eq!(likely_built_in("airport"), None);
/// assert_eq!(likely_built_in("int"), None);
/// ```
pub fn likely_built_in(name: &str) -> Option<&'static str> {
    if built_in_names().any(|b| b == name) {
        return None;
    }
    let lower = name.to_lowercase();
    if let Some((_, to)) = ALIASES.iter().find(|(alias, _)| *alias == lower) {
        return Some(to);
    }
    // Short names (`int`, `emph`) are close to many words: one edit only.
    let budget = if lower.chars().count() >= 6 { 2 } else { 1 };
    built_in_names()
        .filter(|b| !b.is_empty())
        .map(|b| (edit_distance(&lower, b), b))
        .filter(|(d, _)| *d <= budget)
        .min_by_key(|(d, _)| *d)
        .map(|(_, b)| b)
}

/// The Levenshtein distance between `a` and `b`, in characters, one row of
/// the quadratic table at a time: for type names here and for sentences in
/// the language server's rename (both short).
pub fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut diagonal = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let above = row[j + 1];
            row[j + 1] = if ca == *cb {
                diagonal
            } else {
                1 + diagonal.min(above).min(row[j])
            };
            diagonal = above;
        }
    }
    row[b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn likely_built_ins() {
        for (name, meant) in [
            ("integer", Some("int")),
            ("Integer", Some("int")),
            ("INT", Some("int")),
            ("i64", Some("int")),
            ("str", Some("string")),
            ("String", Some("string")),
            ("Float", Some("float")),
            ("flaot", None),
            ("flot", Some("float")),
            ("wrd", Some("word")),
            ("bigdecimel", Some("bigdecimal")),
            ("dobule", Some("double")),
            ("money", None),
            ("airport", None),
            ("color", None),
            ("float", None),
            ("", None),
        ] {
            assert_eq!(likely_built_in(name), meant, "{name}");
        }
    }

    #[test]
    fn distances() {
        assert_eq!(edit_distance("kitten", "sitting"), 3);
        assert_eq!(edit_distance("", "int"), 3);
        assert_eq!(edit_distance("ïnt", "int"), 1);
    }
}
