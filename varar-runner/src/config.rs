//! `varar.config.json` and `VARAR_UPDATE` (spec 40 §1, §4.5; STYLE §2.7).
//! Shell: [`load_config`] reads the file; validation ([`parse_config`]) and
//! the update-mode parsing ([`parse_update_mode`]) are pure so they can be
//! tested without a file system or environment.
//!
//! The raw JSON is read into an order-preserving tree because §1.3 reports the
//! *first* unknown key in document order, which `serde_json::Value` (sorted
//! map) cannot tell.

use std::collections::BTreeMap;
use std::ffi::OsStr;
use std::fmt;
use std::path::{Path, PathBuf};

use serde::de::{self, Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::{Map, Value};

use crate::json_text::{cmp_utf16, to_pretty_string};

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
    /// The file exists but could not be read.
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
    /// `snippets` is not an object whose values are all strings.
    #[error("{}: \"snippets\" must be an object of strings", path.display())]
    SnippetsNotStrings {
        /// The config path.
        path: PathBuf,
    },
}

/// Load `<root>/varar.config.json`. A missing file is the empty config with
/// [`Config::missing`] set; anything unreadable or invalid is an error.
pub fn load_config(root: &Path) -> Result<Config, ConfigError> {
    let path = root.join(CONFIG_FILE_NAME);
    match std::fs::read(&path) {
        Ok(bytes) => parse_config(&path, &bytes),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(Config::empty(path)),
        Err(source) => Err(ConfigError::Read { path, source }),
    }
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
    let raw: Raw = serde_json::from_str(text).map_err(|source| ConfigError::InvalidJson {
        path: path_buf(),
        source,
    })?;
    let Raw::Object(top) = raw else {
        return Err(ConfigError::NotAnObject { path: path_buf() });
    };
    if let Some((key, _)) = top
        .iter()
        .find(|(k, _)| !matches!(k.as_str(), "$schema" | "docs" | "steps" | "snippets"))
    {
        return Err(ConfigError::UnknownKey {
            path: path_buf(),
            key: key.clone(),
        });
    }
    let mut config = Config::empty(path_buf());
    config.missing = false;
    match get(&top, "docs") {
        None | Some(Raw::Null) => {}
        Some(Raw::Object(docs)) => {
            if let Some((key, _)) = docs
                .iter()
                .find(|(k, _)| !matches!(k.as_str(), "include" | "exclude"))
            {
                return Err(ConfigError::UnknownDocsKey {
                    path: path_buf(),
                    key: key.clone(),
                });
            }
            config.docs_include = string_array(path, get(docs, "include"), "docs.include")?;
            config.docs_exclude = string_array(path, get(docs, "exclude"), "docs.exclude")?;
        }
        Some(_) => return Err(ConfigError::DocsNotObject { path: path_buf() }),
    }
    match get(&top, "snippets") {
        None | Some(Raw::Null) => {}
        Some(Raw::Object(members)) => {
            for (k, v) in members {
                let Raw::String(v) = v else {
                    return Err(ConfigError::SnippetsNotStrings { path: path_buf() });
                };
                config.snippets.insert(k.clone(), v.clone());
            }
        }
        Some(_) => return Err(ConfigError::SnippetsNotStrings { path: path_buf() }),
    }
    config.steps = string_array(path, get(&top, "steps"), "steps")?;
    Ok(config)
}

fn get<'a>(members: &'a [(String, Raw)], key: &str) -> Option<&'a Raw> {
    members.iter().find(|(k, _)| k == key).map(|(_, v)| v)
}

/// Absent or `null` → empty; otherwise every element must be a string.
fn string_array(
    path: &Path,
    value: Option<&Raw>,
    key: &'static str,
) -> Result<Vec<String>, ConfigError> {
    let err = || ConfigError::NotStringArray {
        path: path.to_path_buf(),
        key,
    };
    match value {
        None | Some(Raw::Null) => Ok(Vec::new()),
        Some(Raw::Array(items)) => items
            .iter()
            .map(|item| match item {
                Raw::String(s) => Ok(s.clone()),
                _ => Err(err()),
            })
            .collect(),
        Some(_) => Err(err()),
    }
}

/// A JSON value whose objects keep document order. A duplicate key keeps the
/// position of its first occurrence and the value of its last, as
/// `JSON.parse` does.
#[derive(Debug)]
enum Raw {
    Null,
    Other,
    String(String),
    Array(Vec<Raw>),
    Object(Vec<(String, Raw)>),
}

impl<'de> Deserialize<'de> for Raw {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(RawVisitor)
    }
}

struct RawVisitor;

impl<'de> Visitor<'de> for RawVisitor {
    type Value = Raw;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON value")
    }
    fn visit_unit<E: de::Error>(self) -> Result<Raw, E> {
        Ok(Raw::Null)
    }
    fn visit_bool<E: de::Error>(self, _: bool) -> Result<Raw, E> {
        Ok(Raw::Other)
    }
    fn visit_i64<E: de::Error>(self, _: i64) -> Result<Raw, E> {
        Ok(Raw::Other)
    }
    fn visit_u64<E: de::Error>(self, _: u64) -> Result<Raw, E> {
        Ok(Raw::Other)
    }
    fn visit_f64<E: de::Error>(self, _: f64) -> Result<Raw, E> {
        Ok(Raw::Other)
    }
    fn visit_str<E: de::Error>(self, v: &str) -> Result<Raw, E> {
        Ok(Raw::String(v.to_owned()))
    }
    fn visit_string<E: de::Error>(self, v: String) -> Result<Raw, E> {
        Ok(Raw::String(v))
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Raw, A::Error> {
        let mut items = Vec::new();
        while let Some(item) = seq.next_element()? {
            items.push(item);
        }
        Ok(Raw::Array(items))
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Raw, A::Error> {
        let mut members: Vec<(String, Raw)> = Vec::new();
        while let Some((key, value)) = map.next_entry::<String, Raw>()? {
            match members.iter_mut().find(|(k, _)| *k == key) {
                Some(slot) => slot.1 = value,
                None => members.push((key, value)),
            }
        }
        Ok(Raw::Object(members))
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

/// Name of the environment variable that selects the update mode.
pub const UPDATE_ENV: &str = "VARAR_UPDATE";

/// `VARAR_UPDATE` holds a value outside its closed set.
#[derive(Debug, thiserror::Error)]
#[error(
    "VARAR_UPDATE has the unsupported value \"{value}\": use 1 or true to accept drift, \
     or leave it unset (or empty, 0, false) for a normal run"
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

/// Read `VARAR_UPDATE` from the environment (the only env read here).
pub fn update_mode_from_env() -> Result<UpdateMode, UpdateModeError> {
    parse_update_mode(std::env::var_os(UPDATE_ENV).as_deref())
}

#[cfg(test)]
mod tests;
