//! `varar.config.json` and `VARAR_UPDATE` (spec 40 §1, §4.5; STYLE §2.7):
//! the validated config ([`parse_config`], §1.3 in order) and the closed set
//! of update modes ([`parse_update_mode`]). Pure: the runner's shell reads
//! the file and the environment.
//!
//! The JSON is read by the one strict reader into a tree that keeps document
//! order, because §1.3 reports the *first* unknown key in document order; a
//! key written twice keeps its first position and its last value, as
//! `JSON.parse` does, and each repeat is a [`ConfigWarning`] naming the key
//! and where it is written (issue 34): every tool that reads the config
//! shows them.

use std::collections::BTreeMap;
use std::ffi::OsStr;
use std::fmt;
use std::path::{Path, PathBuf};

use serde_json::{Map, Value};

use crate::json::{self, DuplicateKey, KeyPlace, Node, cmp_utf16, to_pretty_string};

/// File name of the config, in the project root (§1.1).
pub const CONFIG_FILE_NAME: &str = "varar.config.json";

/// The validated project configuration (§1.2).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Config {
    /// `docs.include`: a file is an oath iff it matches one of these …
    pub docs_include: Vec<String>,
    /// `docs.exclude`: … and none of these.
    pub docs_exclude: Vec<String>,
    /// `steps`: carried for parity, unused by the harness.
    pub steps: Vec<String>,
    /// `snippets`: language id → step-definition template, unused here.
    pub snippets: BTreeMap<String, String>,
    /// The config file's path (it may not exist).
    pub path: PathBuf,
    /// Whether the file was absent, so the harness can say so (§7.2).
    pub missing: bool,
    /// What is worth a warning but changes nothing (keys written twice), in
    /// document order.
    pub warnings: Vec<ConfigWarning>,
}

impl Config {
    /// The empty config of a project without `varar.config.json`.
    pub fn empty(path: PathBuf) -> Self {
        Config {
            docs_include: Vec::new(),
            docs_exclude: Vec::new(),
            steps: Vec::new(),
            snippets: BTreeMap::new(),
            path,
            missing: true,
            warnings: Vec::new(),
        }
    }

    /// The §1.4 projection `{docs: {include, exclude}, steps, snippets}` in
    /// canonical JSON (keys sorted by UTF-16 units, two-space indent, one
    /// trailing LF): byte for byte what the corpus goldens hold.
    pub fn to_canonical_json(&self) -> String {
        let strings = |v: &[String]| Value::Array(v.iter().cloned().map(Value::String).collect());
        let mut docs = Map::new();
        docs.insert("include".into(), strings(&self.docs_include));
        docs.insert("exclude".into(), strings(&self.docs_exclude));
        let snippets: Map<String, Value> = self
            .snippets
            .iter()
            .map(|(k, v)| (k.clone(), Value::String(v.clone())))
            .collect();
        let mut top = Map::new();
        top.insert("docs".into(), Value::Object(docs));
        top.insert("steps".into(), strings(&self.steps));
        top.insert("snippets".into(), Value::Object(snippets));
        to_pretty_string(&Value::Object(top), &cmp_utf16)
    }
}

/// Why the config could not be loaded. Every message starts with the
/// config path and `: ` (§1.3).
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ConfigError {
    /// The file exists but could not be read (reported by the shell that
    /// reads it).
    #[error("{}: cannot read: {source}", path.display())]
    Read {
        /// The config path.
        path: PathBuf,
        /// The I/O error.
        #[source]
        source: std::io::Error,
    },
    /// The bytes are not UTF-8.
    #[error("{}: invalid JSON: not valid UTF-8 ({source})", path.display())]
    NotUtf8 {
        /// The config path.
        path: PathBuf,
        /// Where decoding failed.
        #[source]
        source: std::str::Utf8Error,
    },
    /// The file starts with a UTF-8 byte order mark, which JSON forbids.
    #[error("{}: invalid JSON: the file starts with a byte order mark (U+FEFF); save it without one", path.display())]
    Bom {
        /// The config path.
        path: PathBuf,
    },
    /// The text is not JSON; serde_json's message has line and column.
    #[error("{}: invalid JSON: {source}", path.display())]
    InvalidJson {
        /// The config path.
        path: PathBuf,
        /// The parser's error.
        #[source]
        source: serde_json::Error,
    },
    /// The top level is an array, a scalar or `null`.
    #[error("{}: top level must be an object", path.display())]
    NotAnObject {
        /// The config path.
        path: PathBuf,
    },
    /// A top-level key other than `$schema`, `docs`, `steps`, `snippets`.
    #[error("{}: unknown key \"{key}\" (known keys: docs, steps, snippets)", path.display())]
    UnknownKey {
        /// The config path.
        path: PathBuf,
        /// The first unknown key, in document order.
        key: String,
    },
    /// `docs` is neither an object nor `null`.
    #[error("{}: \"docs\" must be an object", path.display())]
    DocsNotObject {
        /// The config path.
        path: PathBuf,
    },
    /// A `docs` key other than `include` and `exclude`.
    #[error("{}: unknown key \"docs.{key}\" (known: include, exclude)", path.display())]
    UnknownDocsKey {
        /// The config path.
        path: PathBuf,
        /// The first unknown key inside `docs`.
        key: String,
    },
    /// `docs.include`, `docs.exclude` or `steps` is not an array of strings.
    #[error("{}: \"{key}\" must be an array of strings", path.display())]
    NotStringArray {
        /// The config path.
        path: PathBuf,
        /// `docs.include`, `docs.exclude` or `steps`.
        key: &'static str,
    },
    /// `docs.include` or `docs.exclude` holds more globs than
    /// [`MAX_GLOBS`]: every tool that walks the project (the test binary,
    /// `cargo varar`, the editor) would spend minutes compiling them.
    #[error(
        "{}: \"{key}\" holds {count} globs; at most {limit} are accepted",
        path.display()
    )]
    TooManyGlobs {
        /// The config path.
        path: PathBuf,
        /// `docs.include` or `docs.exclude`.
        key: &'static str,
        /// How many it holds.
        count: usize,
        /// [`MAX_GLOBS`].
        limit: usize,
    },
    /// A glob of `docs.include` or `docs.exclude` is longer than
    /// [`MAX_GLOB_BYTES`]: no path it could match exists.
    #[error(
        "{}: \"{key}\" holds a glob of {len} bytes; at most {limit} are accepted",
        path.display()
    )]
    GlobTooLong {
        /// The config path.
        path: PathBuf,
        /// `docs.include` or `docs.exclude`.
        key: &'static str,
        /// Its length in bytes.
        len: usize,
        /// [`MAX_GLOB_BYTES`].
        limit: usize,
    },
    /// `snippets` is not an object whose values are all strings.
    #[error("{}: \"snippets\" must be an object of strings", path.display())]
    SnippetsNotStrings {
        /// The config path.
        path: PathBuf,
    },
}

/// At most this many globs in `docs.include`, and as many in
/// `docs.exclude` (issue 34: two million of them kept every tool busy for
/// minutes; a project needs a handful). One definition: the harness, every
/// command and the language server read the config through
/// [`parse_config`].
pub const MAX_GLOBS: usize = 1_000;

/// At most this many bytes in one glob: longer than any path a file
/// system gives (and than its messages should quote).
pub const MAX_GLOB_BYTES: usize = 4_096;

/// At most this many keys written twice are warned about one by one; the
/// rest are counted in one more warning.
pub const MAX_DUPLICATE_WARNINGS: usize = 20;

/// What a config holds that does not stop anything but is worth saying.
/// `Display` is one line starting with the config's path, as
/// [`ConfigError`]'s.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ConfigWarning {
    /// A key written again in the same object: the last value is used.
    DuplicateKey {
        /// The config path.
        path: PathBuf,
        /// The key and where it is written.
        duplicate: DuplicateKey,
    },
    /// More keys written twice than [`MAX_DUPLICATE_WARNINGS`].
    MoreDuplicateKeys {
        /// The config path.
        path: PathBuf,
        /// How many were not warned about one by one.
        count: usize,
    },
}

impl ConfigWarning {
    /// The config it is about.
    pub fn path(&self) -> &Path {
        match self {
            ConfigWarning::DuplicateKey { path, .. }
            | ConfigWarning::MoreDuplicateKeys { path, .. } => path,
        }
    }

    /// Where in the config, when the reader could say.
    pub fn place(&self) -> Option<KeyPlace> {
        match self {
            ConfigWarning::DuplicateKey { duplicate, .. } => duplicate.place,
            ConfigWarning::MoreDuplicateKeys { .. } => None,
        }
    }

    /// What it says, without the path and the place: a key's control and
    /// bidi characters escaped (Rust's debug form), and a key longer than
    /// [`crate::untrusted::TEXT_LIMIT`] cut, as every text from a file is.
    pub fn reason(&self) -> String {
        match self {
            ConfigWarning::DuplicateKey { duplicate, .. } => {
                let first = duplicate
                    .first
                    .map(|f| format!(" (first at line {}, column {})", f.line, f.column))
                    .unwrap_or_default();
                format!(
                    "the key {:?} is written twice{first}; the last value is used, as JSON.parse \
                     does",
                    crate::untrusted::cut(&duplicate.path())
                )
            }
            ConfigWarning::MoreDuplicateKeys { count, .. } => {
                format!("{count} more keys are written twice; the last value of each is used")
            }
        }
    }
}

impl fmt::Display for ConfigWarning {
    /// `path[:line:column]: reason`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.path().display())?;
        if let Some(at) = self.place() {
            write!(f, ":{}:{}", at.line, at.column)?;
        }
        write!(f, ": {}", self.reason())
    }
}

/// The warnings of these keys written twice: one each up to
/// [`MAX_DUPLICATE_WARNINGS`], then their count.
fn duplicate_warnings(path: &Path, duplicates: Vec<DuplicateKey>) -> Vec<ConfigWarning> {
    let more = duplicates.len().saturating_sub(MAX_DUPLICATE_WARNINGS);
    let mut out: Vec<ConfigWarning> = duplicates
        .into_iter()
        .take(MAX_DUPLICATE_WARNINGS)
        .map(|duplicate| ConfigWarning::DuplicateKey {
            path: path.to_path_buf(),
            duplicate,
        })
        .collect();
    if more > 0 {
        out.push(ConfigWarning::MoreDuplicateKeys {
            path: path.to_path_buf(),
            count: more,
        });
    }
    out
}

/// Validate config bytes in the order of §1.3. `path` only names the file.
pub fn parse_config(path: &Path, bytes: &[u8]) -> Result<Config, ConfigError> {
    let path_buf = || path.to_path_buf();
    let text = std::str::from_utf8(bytes).map_err(|source| ConfigError::NotUtf8 {
        path: path_buf(),
        source,
    })?;
    if text.starts_with('\u{feff}') {
        return Err(ConfigError::Bom { path: path_buf() });
    }
    let (node, duplicates) =
        json::parse_noting_duplicates(text).map_err(|source| ConfigError::InvalidJson {
            path: path_buf(),
            source,
        })?;
    let Node::Object(_) = &node else {
        return Err(ConfigError::NotAnObject { path: path_buf() });
    };
    let top = node
        .as_object(json::TOP)
        .map(|o| o.last_wins())
        .unwrap_or_default();
    if let Some((key, _)) = top
        .iter()
        .find(|(k, _)| !matches!(*k, "$schema" | "docs" | "steps" | "snippets"))
    {
        return Err(ConfigError::UnknownKey {
            path: path_buf(),
            key: (*key).to_owned(),
        });
    }
    let mut config = Config::empty(path_buf());
    config.missing = false;
    config.warnings = duplicate_warnings(path, duplicates);
    match get(&top, "docs") {
        None | Some(Node::Null) => {}
        Some(docs @ Node::Object(_)) => {
            let docs = docs
                .as_object("docs")
                .map(|o| o.last_wins())
                .unwrap_or_default();
            if let Some((key, _)) = docs
                .iter()
                .find(|(k, _)| !matches!(*k, "include" | "exclude"))
            {
                return Err(ConfigError::UnknownDocsKey {
                    path: path_buf(),
                    key: (*key).to_owned(),
                });
            }
            config.docs_include = globs(path, get(&docs, "include"), "docs.include")?;
            config.docs_exclude = globs(path, get(&docs, "exclude"), "docs.exclude")?;
        }
        Some(_) => return Err(ConfigError::DocsNotObject { path: path_buf() }),
    }
    match get(&top, "snippets") {
        None | Some(Node::Null) => {}
        Some(snippets @ Node::Object(_)) => {
            let members = snippets
                .as_object("snippets")
                .map(|o| o.last_wins())
                .unwrap_or_default();
            for (k, v) in members {
                let Node::String(v) = v else {
                    return Err(ConfigError::SnippetsNotStrings { path: path_buf() });
                };
                config.snippets.insert(k.to_owned(), v.clone());
            }
        }
        Some(_) => return Err(ConfigError::SnippetsNotStrings { path: path_buf() }),
    }
    config.steps = string_array(path, get(&top, "steps"), "steps")?;
    Ok(config)
}

fn get<'a>(members: &[(&str, &'a Node)], key: &str) -> Option<&'a Node> {
    members.iter().find(|(k, _)| *k == key).map(|(_, v)| *v)
}

/// [`string_array`]: at most [`MAX_GLOBS`] of them, none longer than
/// [`MAX_GLOB_BYTES`].
fn globs(path: &Path, value: Option<&Node>, key: &'static str) -> Result<Vec<String>, ConfigError> {
    let globs = string_array(path, value, key)?;
    if globs.len() > MAX_GLOBS {
        return Err(ConfigError::TooManyGlobs {
            path: path.to_path_buf(),
            key,
            count: globs.len(),
            limit: MAX_GLOBS,
        });
    }
    if let Some(long) = globs.iter().find(|g| g.len() > MAX_GLOB_BYTES) {
        return Err(ConfigError::GlobTooLong {
            path: path.to_path_buf(),
            key,
            len: long.len(),
            limit: MAX_GLOB_BYTES,
        });
    }
    Ok(globs)
}

/// Absent or `null` → empty; otherwise every element must be a string.
fn string_array(
    path: &Path,
    value: Option<&Node>,
    key: &'static str,
) -> Result<Vec<String>, ConfigError> {
    let err = || ConfigError::NotStringArray {
        path: path.to_path_buf(),
        key,
    };
    match value {
        None | Some(Node::Null) => Ok(Vec::new()),
        Some(Node::Array(items)) => items
            .iter()
            .map(|item| match item {
                Node::String(s) => Ok(s.clone()),
                _ => Err(err()),
            })
            .collect(),
        Some(_) => Err(err()),
    }
}

/// Whether this run accepts drift (`VARAR_UPDATE`, STYLE §2.7).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum UpdateMode {
    /// Unset, empty, `0` or `false`: drift fails, stale entries are kept.
    #[default]
    Off,
    /// `1` or `true`: drift is accepted and stale entries are pruned.
    Update,
}

impl UpdateMode {
    /// Whether drift is accepted.
    pub fn is_update(self) -> bool {
        self == UpdateMode::Update
    }
}

/// `VARAR_UPDATE` holds a value outside its closed set.
#[derive(Debug, thiserror::Error)]
#[error(
    "{} has the unsupported value \"{value}\": use 1 or true to accept drift, \
     or leave it unset (or empty, 0, false) for a normal run",
    crate::env::VARAR_UPDATE
)]
pub struct UpdateModeError {
    /// The value as set (lossily decoded).
    pub value: String,
}

/// Parse a `VARAR_UPDATE` value (case-sensitive closed set).
pub fn parse_update_mode(value: Option<&OsStr>) -> Result<UpdateMode, UpdateModeError> {
    let Some(value) = value else {
        return Ok(UpdateMode::Off);
    };
    match value.to_str() {
        Some("" | "0" | "false") => Ok(UpdateMode::Off),
        Some("1" | "true") => Ok(UpdateMode::Update),
        _ => Err(UpdateModeError {
            value: value.to_string_lossy().into_owned(),
        }),
    }
}

#[cfg(test)]
mod tests;
