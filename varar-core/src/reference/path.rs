//! Path arithmetic of reference targets (spec 70 §70.1.2): oath paths are
//! `/`-separated and relative to the project root, and a target's file part
//! is joined to the referring oath's directory lexically, with no
//! percent-decoding, case folding or symlink resolution.

/// Everything before the last `/` of `path` (`""` when there is none).
///
/// ```
/// use varar_core::reference::dirname;
/// assert_eq!(dirname("varar/sub/main.md"), "varar/sub");
/// assert_eq!(dirname("main.md"), "");
/// ```
pub fn dirname(path: &str) -> &str {
    path.rfind('/').map_or("", |at| &path[..at])
}

/// `file` joined to `directory`: empty and `.` segments dropped, `..` removes
/// the segment before it when there is one that is not itself `..`, and is
/// kept otherwise (so the result may start with `../`).
///
/// ```
/// use varar_core::reference::join;
/// assert_eq!(join("varar/sub", "../shared.md"), "varar/shared.md");
/// assert_eq!(join("varar/sub", "../../../up/shared.md"), "../up/shared.md");
/// ```
pub fn join(directory: &str, file: &str) -> String {
    let mut segments: Vec<&str> = Vec::new();
    for segment in directory.split('/').chain(file.split('/')) {
        match segment {
            "" | "." => {}
            ".." => {
                if segments.last().is_some_and(|last| *last != "..") {
                    segments.pop();
                } else {
                    segments.push("..");
                }
            }
            other => segments.push(other),
        }
    }
    segments.join("/")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dirname_is_everything_before_the_last_slash() {
        let cases = [
            ("varar/sub/main.md", "varar/sub"),
            ("varar/main.md", "varar"),
            ("main.md", ""),
            ("/abs.md", ""),
            ("a//b.md", "a/"),
            ("", ""),
        ];
        for (path, want) in cases {
            assert_eq!(dirname(path), want, "{path:?}");
        }
    }

    #[test]
    fn join_drops_empty_and_dot_segments_and_pops_on_dot_dot() {
        let cases = [
            ("varar/sub", "shared.md", "varar/sub/shared.md"),
            ("varar/sub", "./shared.md", "varar/sub/shared.md"),
            ("varar/sub", "../shared.md", "varar/shared.md"),
            ("varar/sub", "a/./b/../shared.md", "varar/sub/a/shared.md"),
            ("varar/sub", "../../../up/shared.md", "../up/shared.md"),
            ("", "../../x.md", "../../x.md"),
            ("", "x.md", "x.md"),
            ("varar", "a//b.md", "varar/a/b.md"),
            ("varar/sub", "my%20file.md", "varar/sub/my%20file.md"),
            ("varar/sub", "Shared.md", "varar/sub/Shared.md"),
            ("varar", "../..", ".."),
        ];
        for (dir, file, want) in cases {
            assert_eq!(join(dir, file), want, "{dir:?} + {file:?}");
        }
    }
}
