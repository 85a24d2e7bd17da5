//! Where the bench finds the workspace it measures, and the directories it
//! makes for itself.

use std::fs;
use std::path::{Path, PathBuf};

/// The workspace root: the parent of this package.
pub fn workspace_root() -> PathBuf {
    let here = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    here.parent().map(PathBuf::from).unwrap_or(here)
}

/// The file every directory the bench generates holds from its making:
/// what lets the bench replace such a directory and nothing else.
pub const GENERATED_MARKER: &str = ".varar-bench-generated";

/// Make `dir` afresh for generated content: a directory this bench made
/// before (a real directory holding [`GENERATED_MARKER`]) is removed
/// first; anything else at that path (a symbolic link, a file, a
/// directory without the marker) is refused, never deleted.
pub fn fresh_generated_dir(dir: &Path) -> Result<(), String> {
    remove_generated(dir, GENERATED_MARKER)?;
    fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let marker = dir.join(GENERATED_MARKER);
    fs::write(
        &marker,
        "made by varar-bench; the bench replaces this directory\n",
    )
    .map_err(|e| format!("{}: {e}", marker.display()))
}

/// Remove `dir` if it is a directory one of the bench's tools made: a real
/// directory (not a link) holding the file `marker` ([`GENERATED_MARKER`],
/// or cargo's `CACHEDIR.TAG` for a target directory the bench built into).
/// Nothing at `dir` is fine; anything else there is refused, never deleted.
pub fn remove_generated(dir: &Path, marker: &str) -> Result<(), String> {
    match fs::symlink_metadata(dir) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(()),
        Err(e) => Err(format!("{}: {e}", dir.display())),
        // The mark itself a regular file, not a link to one elsewhere.
        Ok(meta)
            if meta.is_dir()
                && fs::symlink_metadata(dir.join(marker)).is_ok_and(|m| m.is_file()) =>
        {
            fs::remove_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))
        }
        Ok(_) => Err(format!(
            "{}: not a directory varar-bench made (no {marker}); remove or move it yourself",
            dir.display()
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_a_directory_the_bench_made_is_replaced() {
        let tmp = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        let dir = tmp.path().join("corpus");
        fresh_generated_dir(&dir).unwrap_or_else(|e| panic!("{e}"));
        fs::write(dir.join("old.md"), "x").unwrap_or_else(|e| panic!("{e}"));
        fresh_generated_dir(&dir).unwrap_or_else(|e| panic!("{e}"));
        assert!(!dir.join("old.md").exists(), "replaced");
        assert!(dir.join(GENERATED_MARKER).is_file());

        let users = tmp.path().join("users");
        fs::create_dir_all(&users).unwrap_or_else(|e| panic!("{e}"));
        fs::write(users.join("notes.md"), "keep").unwrap_or_else(|e| panic!("{e}"));
        assert!(fresh_generated_dir(&users).is_err());
        assert!(users.join("notes.md").is_file(), "never deleted");

        let file = tmp.path().join("a-file");
        fs::write(&file, "keep").unwrap_or_else(|e| panic!("{e}"));
        assert!(fresh_generated_dir(&file).is_err());
        assert!(file.is_file());
    }

    #[cfg(unix)]
    #[test]
    fn a_link_to_a_generated_directory_is_refused() {
        let tmp = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        let real = tmp.path().join("real");
        fresh_generated_dir(&real).unwrap_or_else(|e| panic!("{e}"));
        fs::write(real.join("kept.md"), "x").unwrap_or_else(|e| panic!("{e}"));
        let link = tmp.path().join("link");
        std::os::unix::fs::symlink(&real, &link).unwrap_or_else(|e| panic!("{e}"));
        assert!(fresh_generated_dir(&link).is_err());
        assert!(
            real.join("kept.md").is_file(),
            "the link's target is left alone"
        );
    }

    #[test]
    fn a_mark_that_is_a_link_is_no_mark() {
        let tmp = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        let theirs = tmp.path().join("theirs");
        fs::create_dir(&theirs).unwrap_or_else(|e| panic!("{e}"));
        fs::write(theirs.join("kept.md"), "x").unwrap_or_else(|e| panic!("{e}"));
        let elsewhere = tmp.path().join("mark-elsewhere");
        fs::write(&elsewhere, "x").unwrap_or_else(|e| panic!("{e}"));
        std::os::unix::fs::symlink(&elsewhere, theirs.join(GENERATED_MARKER))
            .unwrap_or_else(|e| panic!("{e}"));
        assert!(fresh_generated_dir(&theirs).is_err());
        assert!(theirs.join("kept.md").is_file(), "their directory stays");
    }
}
