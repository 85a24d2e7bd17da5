//! What an oathPath is (spec 40 §0, §2.1): the path of a file relative to
//! the project root, its segments joined with `/`, as discovery writes it.
//!
//! One definition for every producer and reader (issue 34): discovery keeps
//! only files whose path passes [`is_oath_path`], and every reader of a
//! path that came from a file (a result's `oathPath`, the documents a run
//! record or a version-2 result names, an attestation's subjects, a results
//! tree a CI shard uploaded) refuses one that does not. So whatever a run
//! accepts (spaces, `%`, Unicode, and on Unix a backslash, which is a plain
//! character of a file name there) is accepted by every tool, and nothing
//! that could name a file outside the project (`..`, an absolute path, an
//! empty or `.` segment, a NUL) is accepted by any.

use std::path::{Component, Path};

/// Whether `path` is an oathPath: non-empty, and every `/`-separated
/// segment one plain file name on this platform (not empty, `.` or `..`,
/// no NUL, and no root, drive prefix or other separator of its own, so a
/// backslash is a name's character on Unix and refused on Windows, where
/// discovery could never have written it).
///
/// ```
/// use varar_core::oath_path::is_oath_path;
/// assert!(is_oath_path("varar/with space/100%.md"));
/// assert!(is_oath_path("varar/ünïcode.md"));
/// for outside in ["", "/etc/passwd", "../up.md", "a//b.md", "a/./b.md", "a/", "a\0b.md"] {
///     assert!(!is_oath_path(outside), "{outside:?}");
/// }
/// ```
pub fn is_oath_path(path: &str) -> bool {
    !path.is_empty() && path.split('/').all(is_file_name)
}

/// Whether `segment` is one plain file name: [`Path`] reads it as exactly
/// one normal component, spelled as written.
fn is_file_name(segment: &str) -> bool {
    if segment.contains('\0') {
        return false;
    }
    let mut components = Path::new(segment).components();
    match (components.next(), components.next()) {
        (Some(Component::Normal(name)), None) => name == segment,
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::is_oath_path;

    #[test]
    fn the_paths_discovery_writes_are_oath_paths() {
        for path in [
            "a.md",
            "varar/shop.md",
            "varar/with space.md",
            "varar/100%.md",
            "varar/%2e%2e/x.md",
            "varar/ünïcode/日本.md",
            "varar/.hidden.md",
            "varar/...md",
            "varar/line\nbreak.md",
            "varar/tab\t.md",
            "varar/quote\".md",
            "varar/c:.md",
        ] {
            assert!(is_oath_path(path), "{path:?}");
        }
    }

    #[test]
    fn a_backslash_is_a_name_s_character_on_unix_only() {
        assert_eq!(is_oath_path("varar/back\\slash.md"), cfg!(unix));
        assert_eq!(is_oath_path("..\\up.md"), cfg!(unix));
    }

    #[test]
    fn paths_that_could_leave_the_project_are_not() {
        for path in [
            "",
            "/",
            "/abs.md",
            "..",
            ".",
            "../up.md",
            "a/../../up.md",
            "a/..",
            "./a.md",
            "a/./b.md",
            "a//b.md",
            "a/",
            "/a",
            "a\0.md",
            "a/\0/b.md",
        ] {
            assert!(!is_oath_path(path), "{path:?}");
        }
    }
}
