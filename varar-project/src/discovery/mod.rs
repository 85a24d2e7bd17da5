//! Oath discovery (spec 40 §2). Shell: walks the project root following
//! symlinks (with cycle protection), keeps regular files whose oathPath
//! matches an include glob and no exclude glob, orders them segment by
//! segment, and reads an oath as bytes then strict UTF-8. A file's path is
//! an oathPath ([`varar_core::oath_path`]), the one definition every tool
//! that reads the run's files checks, or it is no oath.
//!
//! Globs use the dialect of §2.2, matched with `globset`. globset agrees with
//! that table for `*`, `?` and whole-segment `**`, but not for braces and
//! brackets (made literal here by wrapping them in a one-character class), for
//! `dir/**` (which §2.2 also lets match `dir` itself) and for `**` inside a
//! segment (which §2.2 lets cross `/`). The last two are rewritten into
//! several globset patterns whose union is the §2.2 regex; see
//! `translate`.

use std::cmp::Ordering;
use std::path::{Path, PathBuf};

use globset::{Candidate, GlobBuilder, GlobSet, GlobSetBuilder};
use varar_core::oath_path::is_oath_path;
use walkdir::WalkDir;

use crate::config::Config;

/// One discovered oath.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OathFile {
    /// The path relative to the project root, `/`-separated (spec 40 §0).
    pub oath_path: String,
    /// The path to open (the link itself for a symlinked oath).
    pub path: PathBuf,
}

/// Why discovery or reading an oath failed.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum DiscoveryError {
    /// A glob globset rejected after translation.
    #[error("{}: invalid glob {glob:?}: {source}", config.display())]
    InvalidGlob {
        /// The config file the glob comes from.
        config: PathBuf,
        /// The glob as written.
        glob: String,
        /// globset's reason.
        #[source]
        source: globset::Error,
    },
    /// A glob with more in-segment `**` than we expand.
    #[error("{}: glob {glob:?} has too many `**` inside path segments", config.display())]
    GlobTooComplex {
        /// The config file the glob comes from.
        config: PathBuf,
        /// The glob as written.
        glob: String,
    },
    /// The globs of one key translate into more globset patterns than
    /// [`MAX_PATTERNS`] (each `**` inside a path segment doubles a glob's).
    #[error(
        "{}: \"{key}\" makes {patterns} glob patterns (each `**` inside a path segment \
         doubles a glob's); at most {limit} are compiled",
        config.display()
    )]
    TooManyPatterns {
        /// The config file the globs come from.
        config: PathBuf,
        /// `docs.include` or `docs.exclude`.
        key: &'static str,
        /// How many patterns they make.
        patterns: usize,
        /// [`MAX_PATTERNS`].
        limit: usize,
    },
    /// A directory of the project could not be listed.
    #[error("cannot list `{}` while discovering oaths: {source}", path.display())]
    Walk {
        /// The directory or file that failed.
        path: PathBuf,
        /// walkdir's error.
        #[source]
        source: walkdir::Error,
    },
    /// An oath could not be read.
    #[error("cannot read `{oath_path}`: {source}")]
    Read {
        /// The oath's path.
        oath_path: String,
        /// The I/O error.
        #[source]
        source: std::io::Error,
    },
    /// An oath is not UTF-8.
    #[error(
        "cannot read `{oath_path}`: invalid UTF-8 at line {line}, column {column} (byte {})",
        source.valid_up_to()
    )]
    NotUtf8 {
        /// The oath's path.
        oath_path: String,
        /// 1-based line of the first invalid byte.
        line: u32,
        /// 1-based column of it: UTF-16 units since the line's start, as
        /// every column in Varar's model.
        column: u32,
        /// Where decoding failed.
        #[source]
        source: std::str::Utf8Error,
    },
}

/// What discovery found: the oaths, and the paths it could not look at.
#[derive(Debug, Default)]
pub struct Discovered {
    /// The oaths, in §2.3 order.
    pub oaths: Vec<OathFile>,
    /// Paths under the root that may hold oaths but could not be read (a
    /// directory that cannot be listed, a symlink that resolves to itself),
    /// as `/`-joined paths relative to the root, with the reason. Each is a
    /// failing item of its own; the rest of the run goes on (issue 10).
    pub unreadable: Vec<(String, DiscoveryError)>,
    /// Every directory the walk listed (`/`-joined, relative to the root,
    /// `""` for the root), or `None` when the walk met a symbolic link or
    /// an error: then what it found may change with no listed directory
    /// changing, and the walk cannot be vouched for by them.
    pub listed: Option<Vec<String>>,
}

/// At most this many globset patterns per glob (2 per odd `**` form).
const MAX_EXPANSION: usize = 64;

/// At most this many globset patterns per key (`docs.include`,
/// `docs.exclude`), whatever the globs: compiling them costs time in
/// proportion (issue 34; the config's own limits, `MAX_GLOBS` and
/// `MAX_GLOB_BYTES`, bound the globs as written). One definition for the
/// harness, every command and the editor, which all discover through here.
pub const MAX_PATTERNS: usize = 4_096;

/// One piece of a glob in the §2.2 dialect.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Tok {
    Lit(char),
    /// `*`: `[^/]*`.
    Star,
    /// `?`: `[^/]`.
    Quest,
    /// `/**/`: `/(?:.+/)?`.
    SlashStarsSlash,
    /// `/**` at the very end: `(?:/.*)?`.
    SlashStarsEnd,
    /// `**/`: `(?:.*/)?`.
    StarsSlash,
    /// Any other `**`: `.*`.
    Stars,
}

/// Scan a glob left to right applying the first rule of §2.2 that fits.
fn tokenize(glob: &str) -> Vec<Tok> {
    let chars: Vec<char> = glob.chars().collect();
    let at = |i: usize, s: &str| {
        s.chars()
            .enumerate()
            .all(|(k, c)| chars.get(i + k) == Some(&c))
    };
    let mut toks = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let (tok, len) = if at(i, "/**/") {
            (Tok::SlashStarsSlash, 4)
        } else if at(i, "/**") && i + 3 == chars.len() {
            (Tok::SlashStarsEnd, 3)
        } else if at(i, "**/") {
            (Tok::StarsSlash, 3)
        } else if at(i, "**") {
            (Tok::Stars, 2)
        } else if chars[i] == '*' {
            (Tok::Star, 1)
        } else if chars[i] == '?' {
            (Tok::Quest, 1)
        } else {
            (Tok::Lit(chars[i]), 1)
        };
        toks.push(tok);
        i += len;
    }
    toks
}

/// What a token becomes in globset syntax: every alternative is a sequence
/// of pieces that globset reads exactly as §2.2 means them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Piece {
    Lit(char),
    Star,
    Quest,
    /// globset's `/**/` (`/` or `/…/`), recursive because both sides are `/`.
    RecMiddle,
    /// globset's `/**` at the end (`/…`).
    RecEnd,
    /// globset's `**/` at the start (`(?:.*/)?`).
    RecStart,
}

/// Translate one §2.2 glob into globset patterns whose union matches exactly
/// the paths the §2.2 regex matches (`None` if the expansion is too large).
fn translate(glob: &str) -> Option<Vec<String>> {
    let mut alternatives: Vec<Vec<Piece>> = vec![Vec::new()];
    for (index, tok) in tokenize(glob).into_iter().enumerate() {
        let options: Vec<Vec<Piece>> = match tok {
            Tok::Lit(c) => vec![vec![Piece::Lit(c)]],
            Tok::Star => vec![vec![Piece::Star]],
            Tok::Quest => vec![vec![Piece::Quest]],
            Tok::SlashStarsSlash => vec![vec![Piece::RecMiddle]],
            // The path itself, or anything below it.
            Tok::SlashStarsEnd => vec![vec![], vec![Piece::RecEnd]],
            Tok::StarsSlash if index == 0 => vec![vec![Piece::RecStart]],
            // `(?:.*/)?` mid-pattern: nothing, or any text ending in `/`,
            // which is `[^/]*` followed by globset's `/**/`.
            Tok::StarsSlash => vec![vec![], vec![Piece::Star, Piece::RecMiddle]],
            // `.*`: text without `/` (`*`) or with one (`*/**/*`).
            Tok::Stars => vec![
                vec![Piece::Star],
                vec![Piece::Star, Piece::RecMiddle, Piece::Star],
            ],
        };
        if alternatives.len() * options.len() > MAX_EXPANSION {
            return None;
        }
        alternatives = alternatives
            .iter()
            .flat_map(|prefix| {
                options.iter().map(move |option| {
                    let mut v = prefix.clone();
                    v.extend_from_slice(option);
                    v
                })
            })
            .collect();
    }
    Some(alternatives.iter().map(|pieces| render(pieces)).collect())
}

fn render(pieces: &[Piece]) -> String {
    let mut out = String::new();
    let mut prev_star = false;
    for piece in pieces {
        // Two adjacent `[^/]*` mean one; written together they would read
        // as globset's `**`.
        if *piece == Piece::Star && prev_star {
            continue;
        }
        prev_star = *piece == Piece::Star;
        match piece {
            Piece::Lit(c @ ('[' | ']' | '{' | '}' | '*' | '?')) => {
                out.push('[');
                out.push(*c);
                out.push(']');
            }
            Piece::Lit(c) => out.push(*c),
            Piece::Star => out.push('*'),
            Piece::Quest => out.push('?'),
            Piece::RecMiddle => out.push_str("/**/"),
            Piece::RecEnd => out.push_str("/**"),
            Piece::RecStart => out.push_str("**/"),
        }
    }
    out
}

/// The include and exclude globs of a config, compiled.
#[derive(Clone, Debug)]
pub struct Globs {
    include: GlobSet,
    exclude: GlobSet,
    /// Per include glob: its literal leading directories, `None` when its
    /// first segment already has a wildcard (then nothing can be skipped).
    include_prefixes: Vec<Option<Vec<String>>>,
}

impl Globs {
    /// Compile a config's `docs.include` and `docs.exclude`.
    pub fn new(config: &Config) -> Result<Self, DiscoveryError> {
        let build = |globs: &[String], key: &'static str| -> Result<GlobSet, DiscoveryError> {
            let mut translated = Vec::with_capacity(globs.len());
            for glob in globs {
                let patterns = translate(glob).ok_or_else(|| DiscoveryError::GlobTooComplex {
                    config: config.path.clone(),
                    glob: glob.clone(),
                })?;
                translated.push((glob, patterns));
            }
            let patterns = translated.iter().map(|(_, p)| p.len()).sum();
            if patterns > MAX_PATTERNS {
                return Err(DiscoveryError::TooManyPatterns {
                    config: config.path.clone(),
                    key,
                    patterns,
                    limit: MAX_PATTERNS,
                });
            }
            let mut set = GlobSetBuilder::new();
            for (glob, patterns) in translated {
                for pattern in patterns {
                    let compiled = GlobBuilder::new(&pattern)
                        .literal_separator(true)
                        .case_insensitive(false)
                        .backslash_escape(false)
                        .build()
                        .map_err(|source| DiscoveryError::InvalidGlob {
                            config: config.path.clone(),
                            glob: glob.clone(),
                            source,
                        })?;
                    set.add(compiled);
                }
            }
            // Named by its key: the globs themselves may be many.
            set.build().map_err(|source| DiscoveryError::InvalidGlob {
                config: config.path.clone(),
                glob: format!("{key} ({} globs)", globs.len()),
                source,
            })
        };
        Ok(Globs {
            include: build(&config.docs_include, "docs.include")?,
            exclude: build(&config.docs_exclude, "docs.exclude")?,
            include_prefixes: config
                .docs_include
                .iter()
                .map(|g| literal_dirs(g))
                .collect(),
        })
    }

    /// Whether an oathPath is an oath: some include matches, no exclude does.
    pub fn is_match(&self, oath_path: &str) -> bool {
        // One candidate for both sets (building it is most of a match),
        // and none of the work for an empty exclude list.
        let candidate = Candidate::new(oath_path);
        self.include.is_match_candidate(&candidate)
            && (self.exclude.is_empty() || !self.exclude.is_match_candidate(&candidate))
    }

    /// Whether a directory (oathPath-style, no trailing `/`) can hold a file
    /// some include glob matches. Only literal leading directories of the
    /// globs are used, so the answer is never a wrong "no".
    fn may_contain_matches(&self, dir: &str) -> bool {
        let segments: Vec<&str> = dir.split('/').collect();
        self.include_prefixes.iter().any(|prefix| match prefix {
            None => true,
            // Either the directory leads towards the prefix or lies below
            // it: the shorter of the two is a prefix of the other.
            Some(prefix) => segments.iter().zip(prefix).all(|(a, b)| *a == b.as_str()),
        })
    }
}

/// The names of the entries of directory `dir` (an oathPath-style path,
/// `""` for the root) below which a walk under `config` may find an oath,
/// or `None` when it may find one below any of them (or `dir` holds them
/// itself). The walk prunes directories by the include globs' literal
/// leading directories alone ([`Globs`]): in a directory above every such
/// prefix, only the entry naming each prefix's next segment can hold an
/// oath; whatever else it lists is never walked. What the harness's
/// discovery cache needs to know whose listings it must vouch for.
pub fn entries_towards_oaths(config: &Config, dir: &str) -> Option<Vec<String>> {
    let segments: Vec<&str> = if dir.is_empty() {
        Vec::new()
    } else {
        dir.split('/').collect()
    };
    let mut names = Vec::new();
    for glob in &config.docs_include {
        let prefix = literal_dirs(glob)?;
        match prefix.get(segments.len()) {
            // `dir` leads towards the prefix: only its next segment counts.
            Some(next) if segments.iter().zip(&prefix).all(|(a, b)| *a == b.as_str()) => {
                names.push(next.clone());
            }
            // `dir` leads elsewhere: nothing of it is this glob's.
            Some(_) => {}
            // `dir` is the prefix or below it: any entry may hold an oath,
            // unless `dir` lies off the prefix altogether.
            None if segments.iter().zip(&prefix).all(|(a, b)| *a == b.as_str()) => return None,
            None => {}
        }
    }
    names.sort();
    names.dedup();
    Some(names)
}

/// The leading segments of a glob that are plain names, excluding the last
/// segment (which names files): every matching file lies below them.
fn literal_dirs(glob: &str) -> Option<Vec<String>> {
    let segments: Vec<&str> = glob.split('/').collect();
    let dirs = &segments[..segments.len().saturating_sub(1)];
    let literal: Vec<String> = dirs
        .iter()
        .take_while(|s| !s.contains(['*', '?']))
        .map(|s| (*s).to_owned())
        .collect();
    if literal.is_empty() {
        None
    } else {
        Some(literal)
    }
}

/// Compare oathPaths segment by segment, each by bytes (spec 40 §2.3).
pub fn cmp_oath_paths(a: &str, b: &str) -> Ordering {
    a.split('/')
        .map(str::as_bytes)
        .cmp(b.split('/').map(str::as_bytes))
}

/// Discover the oaths of a project (spec 40 §2.1–2.3), in §2.3 order; the
/// first path that cannot be read is an error. For tools that need the
/// whole tree; the harness uses [`discover_all`].
pub fn discover(root: &Path, config: &Config) -> Result<Vec<OathFile>, DiscoveryError> {
    let mut found = discover_all(root, config)?;
    match found.unreadable.drain(..).next() {
        Some((_, error)) => Err(error),
        None => Ok(found.oaths),
    }
}

/// Discover the oaths of a project (spec 40 §2.1–2.3), in §2.3 order,
/// and every path that may hold oaths but cannot be read. Symlinks are
/// followed; a link back to one of its own ancestors is skipped (what it
/// leads to is walked anyway), and a dangling one is no file. Only bad
/// globs are an error.
pub fn discover_all(root: &Path, config: &Config) -> Result<Discovered, DiscoveryError> {
    let globs = Globs::new(config)?;
    let mut found = Discovered::default();
    if config.docs_include.is_empty() {
        return Ok(found);
    }
    let walker = WalkDir::new(root)
        .follow_links(true)
        .sort_by_file_name()
        .into_iter()
        .filter_entry(|entry| {
            if entry.depth() == 0 || !entry.file_type().is_dir() {
                return true;
            }
            oath_path_of(root, entry.path()).is_some_and(|dir| globs.may_contain_matches(&dir))
        });
    let mut listed = Some(Vec::new());
    for entry in walker {
        if !matches!(&entry, Ok(e) if !e.path_is_symlink()) {
            listed = None;
        }
        let entry = match entry {
            Ok(entry) => entry,
            // A symlink cycle: walkdir refuses to enter it; nothing is lost.
            Err(e) if e.loop_ancestor().is_some() => continue,
            // A dangling symlink is not a regular file.
            Err(e)
                if e.io_error()
                    .is_some_and(|io| io.kind() == std::io::ErrorKind::NotFound) =>
            {
                continue;
            }
            Err(source) => {
                let path = source.path().unwrap_or(root).to_path_buf();
                // What cannot be read may be an oath, or hold some: unless
                // the globs rule that out, it is reported, never skipped.
                let relative = oath_path_of(root, &path)
                    .filter(|p| globs.is_match(p) || globs.may_contain_matches(p));
                if let Some(relative) = relative {
                    found
                        .unreadable
                        .push((relative, DiscoveryError::Walk { path, source }));
                }
                continue;
            }
        };
        if entry.file_type().is_dir() {
            match (&mut listed, oath_path_of(root, entry.path())) {
                (Some(dirs), Some(dir)) => dirs.push(dir),
                _ => listed = None,
            }
        }
        if !entry.file_type().is_file() {
            continue;
        }
        // A name that is not UTF-8 cannot be an oathPath, nor can one that
        // the tools reading the run's files would refuse; skip it.
        let Some(oath_path) = oath_path_of(root, entry.path()).filter(|p| is_oath_path(p)) else {
            continue;
        };
        if globs.is_match(&oath_path) {
            found.oaths.push(OathFile {
                oath_path,
                path: entry.path().to_path_buf(),
            });
        }
    }
    found
        .oaths
        .sort_by(|a, b| cmp_oath_paths(&a.oath_path, &b.oath_path));
    found.unreadable.sort_by(|a, b| cmp_oath_paths(&a.0, &b.0));
    found.listed = listed;
    Ok(found)
}

/// The `/`-joined path of `path` relative to `root` (`None` if not UTF-8).
fn oath_path_of(root: &Path, path: &Path) -> Option<String> {
    let rel = path.strip_prefix(root).ok()?;
    let mut out = String::new();
    for component in rel.components() {
        if !out.is_empty() {
            out.push('/');
        }
        out.push_str(component.as_os_str().to_str()?);
    }
    Some(out)
}

/// Read an oath as bytes, then decode strictly as UTF-8, keeping a BOM and
/// CRs (spec 40 §2.4).
pub fn read_oath(oath: &OathFile) -> Result<String, DiscoveryError> {
    read_oath_with_metadata(oath).map(|(text, _)| text)
}

/// [`read_oath`], with the file's metadata as it was when it was opened
/// (taken from the open file: no system call more than a plain read).
pub fn read_oath_with_metadata(
    oath: &OathFile,
) -> Result<(String, std::fs::Metadata), DiscoveryError> {
    let read_err = |source| DiscoveryError::Read {
        oath_path: oath.oath_path.clone(),
        source,
    };
    // Not `std::fs`: the file may have become a FIFO or a link to a
    // device since the walk (see `files`).
    let (file, meta) = crate::files::open_with_metadata(&oath.path).map_err(read_err)?;
    let bytes =
        crate::files::read_opened(file, &meta, crate::files::FILE_LIMIT).map_err(read_err)?;
    let text = String::from_utf8(bytes).map_err(|e| {
        let valid = &e.as_bytes()[..e.utf8_error().valid_up_to()];
        let (line, column) = line_column(valid);
        DiscoveryError::NotUtf8 {
            oath_path: oath.oath_path.clone(),
            line,
            column,
            source: e.utf8_error(),
        }
    })?;
    Ok((text, meta))
}

/// The 1-based line and UTF-16 column just past `valid`, a UTF-8 prefix.
fn line_column(valid: &[u8]) -> (u32, u32) {
    let line_start = valid.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
    let line = valid.iter().filter(|&&b| b == b'\n').count() + 1;
    let column =
        std::str::from_utf8(&valid[line_start..]).map_or(0, |text| text.encode_utf16().count()) + 1;
    (
        u32::try_from(line).unwrap_or(u32::MAX),
        u32::try_from(column).unwrap_or(u32::MAX),
    )
}

#[cfg(test)]
mod tests;
