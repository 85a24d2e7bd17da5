//! What discovery found, remembered for the process of one example
//! (`.varar/.cache/discovery`): the oaths, the config's globs and every
//! directory the walk listed, each with its [`Stamp`].
//!
//! Which files a directory holds changes only with the directory's own
//! stamp (an entry added, removed or renamed; its permissions), and the
//! walk's other directories are pruned by the globs alone. So while the
//! globs and every listed directory keep their stamps, the walk would find
//! the same oaths: the process of one example, which discovers only to know
//! the oaths its own may meet by link, takes them from here instead of
//! walking and matching globs. A walk that met a symbolic link or an error
//! is not remembered (a link's target can change under an unchanged
//! directory), nor is one whose directories changed too recently for their
//! stamps to vouch for them (`stamp.rs`). Any other run walks, and records
//! what it found.

use std::path::Path;
use std::time::SystemTime;

use libtest_mimic::Arguments;

use super::stamp::Stamp;
use crate::harness::error::HarnessError;
use varar_core::names::{ItemKind, ItemName};
use varar_core::oath_path::is_oath_path;
use varar_project::Project;
use varar_project::config::Config;
use varar_project::discovery::{Discovered, OathFile};
use varar_project::store;

/// The cache's file, in `.varar/.cache/`.
const CACHE_FILE: &str = "discovery";

/// The first line of the file.
const HEADER: &str = "varar discovery 1";

/// Discovery (spec 40 §2). The process of one example (`--exact` an
/// example's name, not recording) takes the oaths from the discovery
/// cache when it vouches for them (above); any other run
/// walks, and a run that is no listing remembers what it found.
pub(in crate::harness) fn discover(
    project: &Project,
    args: &Arguments,
    update: bool,
) -> Result<Discovered, HarnessError> {
    let (root, config) = (project.root.as_path(), &project.config);
    let one_example = !args.list
        && !update
        && args.exact
        && args
            .filter
            .as_deref()
            .is_some_and(|name| ItemName::parse(name).kind == ItemKind::Example);
    if one_example && let Some(oaths) = cached_oaths(root, config) {
        return Ok(Discovered {
            oaths,
            ..Discovered::default()
        });
    }
    let walked_at = SystemTime::now();
    let found = project.discover()?;
    if !args.list {
        remember(root, config, &found, walked_at);
    }
    Ok(found)
}

/// The oaths a walk of `root` under `config` would find now, if the cache
/// vouches for them: the same globs, every listed directory with its
/// stamp.
pub(in crate::harness) fn cached_oaths(root: &Path, config: &Config) -> Option<Vec<OathFile>> {
    let text = std::fs::read_to_string(store::cache_path(root, CACHE_FILE)).ok()?;
    let mut lines = text.lines();
    if lines.next()? != HEADER || lines.next()? != globs_line(config)? {
        return None;
    }
    let mut oaths = Vec::new();
    for line in lines {
        match line.split_once(' ')? {
            ("dir", rest) => {
                let (stamp, dir) = Stamp::parse_prefix(rest)?;
                let dir = dir?;
                if Stamp::of_dir(&root.join(dir)) != Some(stamp) {
                    return None;
                }
            }
            // Only what discovery itself could have found.
            ("oath", oath_path) if is_oath_path(oath_path) => oaths.push(OathFile {
                oath_path: oath_path.to_owned(),
                path: root.join(oath_path),
            }),
            _ => return None,
        }
    }
    Some(oaths)
}

/// Remember what a walk of `root` under `config`, started at `walked_at`,
/// found (best effort), if it can be vouched for.
pub(in crate::harness) fn remember(
    root: &Path,
    config: &Config,
    found: &Discovered,
    walked_at: SystemTime,
) {
    let (Some(listed), true) = (&found.listed, found.unreadable.is_empty()) else {
        return;
    };
    let Some(globs) = globs_line(config) else {
        return;
    };
    // Made first: creating `.varar/` changes the root's stamp.
    let Ok(cache_dir) = store::ensure_cache_dir(root) else {
        return;
    };
    let mut text = format!("{HEADER}\n{globs}\n");
    for dir in listed {
        let stamp = Stamp::of_dir(&root.join(dir)).filter(|s| s.settled_at(walked_at));
        match stamp {
            Some(stamp) if !dir.contains(['\n', '\r']) => {
                text.push_str(&format!("dir {stamp} {dir}\n"))
            }
            _ => return,
        }
    }
    for oath in &found.oaths {
        if oath.oath_path.contains(['\n', '\r']) {
            return;
        }
        text.push_str(&format!("oath {}\n", oath.oath_path));
    }
    let _ = store::write_disposable(&cache_dir.join(CACHE_FILE), text.as_bytes());
}

/// The config's globs as one line (`None` if a glob holds a line break).
fn globs_line(config: &Config) -> Option<String> {
    let all = config.docs_include.iter().chain(&config.docs_exclude);
    if all.clone().any(|g| g.contains(['\n', '\r'])) {
        return None;
    }
    Some(format!(
        "globs {} {} {}",
        config.docs_include.len(),
        config.docs_exclude.len(),
        all.map(|g| format!("{:?}", g))
            .collect::<Vec<_>>()
            .join(" ")
    ))
}

#[cfg(test)]
mod tests {
    use std::path::PathBuf;
    use std::time::Duration;

    use super::*;
    use varar_project::discovery::discover_all;

    fn ok<T, E: std::fmt::Display>(r: Result<T, E>) -> T {
        r.unwrap_or_else(|e| panic!("{e}"))
    }

    fn config(include: &[&str]) -> Config {
        let mut c = Config::empty(PathBuf::from("varar.config.json"));
        c.docs_include = include.iter().map(|s| (*s).to_owned()).collect();
        c
    }

    fn project(files: &[&str]) -> tempfile::TempDir {
        let dir = ok(tempfile::tempdir());
        for file in files {
            let path = dir.path().join(file);
            ok(std::fs::create_dir_all(path.parent().unwrap_or(dir.path())));
            ok(std::fs::write(path, "# A\n"));
        }
        dir
    }

    fn paths(oaths: Option<Vec<OathFile>>) -> Option<Vec<String>> {
        oaths.map(|o| o.into_iter().map(|o| o.oath_path).collect())
    }

    /// Remember a walk as if it had started once its directories settled
    /// (a directory's status change time cannot be set back).
    fn walk_and_remember(root: &Path, config: &Config) -> Discovered {
        let found = ok(discover_all(root, config));
        remember(
            root,
            config,
            &found,
            SystemTime::now() + Duration::from_secs(5),
        );
        found
    }

    #[test]
    fn the_oaths_of_a_walk_hold_while_its_directories_keep_their_stamps() {
        let dir = project(&["varar/a.md", "varar/deep/b.md", "src/lib.rs"]);
        let root = dir.path();
        let cfg = config(&["varar/**/*.md"]);
        let found = walk_and_remember(root, &cfg);
        let walked: Vec<String> = found.oaths.iter().map(|o| o.oath_path.clone()).collect();
        assert_eq!(walked, ["varar/a.md", "varar/deep/b.md"]);
        let cached = cached_oaths(root, &cfg);
        assert_eq!(paths(cached.clone()), Some(walked));
        assert_eq!(
            cached.and_then(|o| o.first().map(|o| o.path.clone())),
            Some(root.join("varar/a.md"))
        );
        // Other globs: walk again.
        assert_eq!(paths(cached_oaths(root, &config(&["varar/*.md"]))), None);
        // A directory the globs prune changes nothing.
        ok(std::fs::write(root.join("src/main.rs"), "fn main() {}"));
        assert!(cached_oaths(root, &cfg).is_some());
        // A new oath in a listed directory changes its stamp.
        ok(std::fs::write(root.join("varar/deep/c.md"), "# C\n"));
        assert_eq!(paths(cached_oaths(root, &cfg)), None);
    }

    #[test]
    fn a_walk_too_recent_or_through_a_symbolic_link_is_not_remembered() {
        let dir = project(&["varar/a.md"]);
        let root = dir.path();
        let cfg = config(&["varar/**/*.md"]);
        let found = ok(discover_all(root, &cfg));
        remember(root, &cfg, &found, SystemTime::now());
        assert!(
            cached_oaths(root, &cfg).is_none(),
            "just written directories"
        );
        #[cfg(unix)]
        {
            ok(std::os::unix::fs::symlink(
                root.join("varar/a.md"),
                root.join("varar/b.md"),
            ));
            let found = walk_and_remember(root, &cfg);
            assert_eq!(found.oaths.len(), 2);
            assert!(found.listed.is_none());
            assert!(
                cached_oaths(root, &cfg).is_none(),
                "a link's target may change"
            );
        }
    }
}
