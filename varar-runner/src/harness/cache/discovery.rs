//! What discovery found, remembered for the next run
//! (`.varar/.cache/discovery`): the oaths, the config's globs and the
//! directories whose listing the walk depended on, each with its [`Stamp`].
//!
//! Which files a directory holds changes only with the directory's own
//! stamp (an entry added, removed or renamed; its permissions), and the
//! walk's other directories are pruned by the globs alone. A directory the
//! walk listed only to go on towards the globs' literal leading
//! directories (the project's root, for `varar/**/*.md`) depends on
//! nothing of its listing but those entries, which the walk listed in turn:
//! its own stamp is not needed, and a run that adds a file beside them (the
//! lock, `.varar/`) leaves the cache standing. So while the globs and every
//! remembered directory keep their stamps, the walk would find the same
//! oaths: a run takes them from here instead of walking and compiling the
//! globs (issue 39). A walk that met a symbolic link or an error is not
//! remembered (a link's target can change under an unchanged directory),
//! nor is one whose directories changed too recently for their stamps to
//! vouch for them (`stamp.rs`). A run the cache does not vouch for walks,
//! and records what it found.

use std::path::Path;
use std::time::SystemTime;

use libtest_mimic::Arguments;

use super::stamp::Stamp;
use crate::harness::error::HarnessError;
use varar_core::oath_path::is_oath_path;
use varar_project::Project;
use varar_project::config::Config;
use varar_project::discovery::{Discovered, OathFile, entries_towards_oaths};
use varar_project::store;

/// The cache's file, in `.varar/.cache/`.
const CACHE_FILE: &str = "discovery";

/// The first line of the file.
const HEADER: &str = "varar discovery 2";

/// Discovery (spec 40 §2): the oaths from the discovery cache when it
/// vouches for them (above); otherwise a walk, which a run that is no
/// listing remembers.
pub(in crate::harness) fn discover(
    project: &Project,
    args: &Arguments,
) -> Result<Discovered, HarnessError> {
    let (root, config) = (project.root.as_path(), &project.config);
    if let Some(oaths) = cached_oaths(root, config) {
        // Nothing unreadable: only a walk without an error is remembered,
        // and an entry that became unreadable changed its directory's
        // stamp, or its own.
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
    let bytes = store::read_cache(root, CACHE_FILE, super::TEXT_LIMIT)?;
    let text = String::from_utf8(bytes).ok()?;
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
            ("via", rest) => {
                let mut parts = rest.splitn(5, ' ');
                let mut recorded = [0u64; 4];
                for n in &mut recorded {
                    *n = parts.next()?.parse().ok()?;
                }
                if passage(&root.join(parts.next()?)) != Some(recorded) {
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
        if dir.contains(['\n', '\r']) {
            return;
        }
        let path = root.join(dir);
        if !listing_matters(config, listed, dir)
            && let Some([inode, mode, uid, gid]) = passage(&path)
        {
            text.push_str(&format!("via {inode} {mode} {uid} {gid} {dir}\n"));
            continue;
        }
        match Stamp::of_dir(&path).filter(|s| s.settled_at(walked_at)) {
            Some(stamp) => text.push_str(&format!("dir {stamp} {dir}\n")),
            None => return,
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

/// Whether what the walk found depends on the listing of `dir`, one of the
/// directories it `listed`: unless every entry of it that may hold an oath
/// ([`entries_towards_oaths`]) was listed in turn. Those are remembered,
/// and a directory's stamp is checked through its path: each of them is
/// still there, the same directory, while its stamp holds. Of `dir`
/// itself, only its [`passage`] then matters.
fn listing_matters(config: &Config, listed: &[String], dir: &str) -> bool {
    if cfg!(not(unix)) {
        return true;
    }
    match entries_towards_oaths(config, dir) {
        None => true,
        Some(names) => !names.iter().all(|name| {
            let child = match dir {
                "" => name.clone(),
                _ => format!("{dir}/{name}"),
            };
            listed.contains(&child)
        }),
    }
}

/// What a walk needs of a directory whose listing does not matter
/// ([`listing_matters`]): the same directory (its inode), which still lets
/// the walk list it (its mode and owner: a walk that could not would
/// report it). Written `via <inode> <mode> <uid> <gid> <dir>`. Only on
/// Unix; elsewhere every listed directory keeps its stamp.
fn passage(path: &Path) -> Option<[u64; 4]> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt as _;
        let meta = std::fs::metadata(path).ok()?;
        let ids = [meta.uid(), meta.gid()].map(u64::from);
        meta.is_dir()
            .then_some([meta.ino(), u64::from(meta.mode()), ids[0], ids[1]])
    }
    #[cfg(not(unix))]
    {
        let _ = path;
        None
    }
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
    fn a_directory_listed_only_on_the_way_to_the_globs_need_not_keep_its_stamp() {
        let dir = project(&["varar/a.md", "varar/deep/b.md"]);
        let root = dir.path();
        let cfg = config(&["varar/**/*.md"]);
        walk_and_remember(root, &cfg);
        let walked = Some(vec!["varar/a.md".to_owned(), "varar/deep/b.md".to_owned()]);
        // What a run writes beside the oaths' directory changes the
        // root's stamp, not what a walk would find.
        ok(std::fs::write(root.join("varar.lock.json"), "{}"));
        ok(std::fs::create_dir(root.join("target")));
        assert_eq!(paths(cached_oaths(root, &cfg)), walked);
        // The oaths' directory replaced by another: walk again.
        ok(std::fs::rename(root.join("varar"), root.join("old")));
        ok(std::fs::create_dir_all(root.join("varar/deep")));
        ok(std::fs::write(root.join("varar/a.md"), "# A\n"));
        ok(std::fs::write(root.join("varar/deep/b.md"), "# B\n"));
        assert_eq!(paths(cached_oaths(root, &cfg)), None);
        // Removed: walk again.
        walk_and_remember(root, &cfg);
        assert_eq!(paths(cached_oaths(root, &cfg)), walked);
        ok(std::fs::remove_dir_all(root.join("varar")));
        assert_eq!(paths(cached_oaths(root, &cfg)), None);
    }

    #[cfg(unix)]
    #[test]
    fn a_directory_passed_through_keeps_its_permissions() {
        use std::os::unix::fs::PermissionsExt as _;
        let dir = project(&["docs/varar/a.md"]);
        let root = dir.path();
        let cfg = config(&["docs/varar/**/*.md"]);
        walk_and_remember(root, &cfg);
        let text = ok(std::fs::read_to_string(store::cache_path(root, CACHE_FILE)));
        assert!(
            text.lines()
                .any(|l| l.starts_with("via ") && l.ends_with(" docs")),
            "{text}"
        );
        assert!(
            text.lines()
                .any(|l| l.starts_with("dir ") && l.ends_with(" docs/varar")),
            "{text}"
        );
        assert!(cached_oaths(root, &cfg).is_some());
        // Listable no more (a walk would report it): walk again.
        let docs = root.join("docs");
        ok(std::fs::set_permissions(
            &docs,
            std::fs::Permissions::from_mode(0o311),
        ));
        let cached = cached_oaths(root, &cfg);
        ok(std::fs::set_permissions(
            &docs,
            std::fs::Permissions::from_mode(0o755),
        ));
        assert_eq!(paths(cached), None);
    }

    #[test]
    fn a_listing_that_may_hold_an_oath_keeps_its_stamp() {
        let dir = project(&["varar/a.md"]);
        let root = dir.path();
        // A glob that matches in the root itself.
        let cfg = config(&["*.md", "varar/**/*.md"]);
        walk_and_remember(root, &cfg);
        assert!(cached_oaths(root, &cfg).is_some());
        ok(std::fs::write(root.join("b.md"), "# B\n"));
        assert_eq!(paths(cached_oaths(root, &cfg)), None);
        // A glob whose literal directory is not there yet: making it
        // changes the root's listing, which then matters.
        let cfg = config(&["varar/**/*.md", "guides/**/*.md"]);
        walk_and_remember(root, &cfg);
        assert!(cached_oaths(root, &cfg).is_some());
        ok(std::fs::create_dir(root.join("guides")));
        ok(std::fs::write(root.join("guides/c.md"), "# C\n"));
        assert_eq!(paths(cached_oaths(root, &cfg)), None);
        walk_and_remember(root, &cfg);
        assert_eq!(
            paths(cached_oaths(root, &cfg)),
            Some(vec!["guides/c.md".to_owned(), "varar/a.md".to_owned()])
        );
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
