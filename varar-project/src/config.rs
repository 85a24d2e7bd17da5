//! The shell of the config (spec 40 §1, §4.5): reading
//! `<root>/varar.config.json` and `VARAR_UPDATE`. What they mean is
//! `varar_core::config` (re-exported here): the reading is the only side
//! effect.

use std::path::Path;

pub use varar_core::config::{
    CONFIG_FILE_NAME, Config, ConfigError, ConfigWarning, UpdateMode, UpdateModeError,
    parse_config, parse_update_mode,
};
use varar_core::env::VARAR_UPDATE;
use varar_core::hash::sha256_hex;

/// Load `<root>/varar.config.json`. A missing file is the empty config with
/// [`Config::missing`] set; anything unreadable or invalid is an error.
pub fn load_config(root: &Path) -> Result<Config, ConfigError> {
    read_config(root, |_| ()).map(|(config, ())| config)
}

/// [`load_config`] and the SHA-256 of the bytes it read (`None` without a
/// file): the config a run used, as its record names it, without reading
/// the file again later.
pub fn load_config_digested(root: &Path) -> Result<(Config, Option<String>), ConfigError> {
    read_config(root, |bytes| bytes.map(sha256_hex))
}

/// Read and parse the config, and `also` of its bytes (`None`: no file).
fn read_config<T>(
    root: &Path,
    also: impl FnOnce(Option<&[u8]>) -> T,
) -> Result<(Config, T), ConfigError> {
    let path = root.join(CONFIG_FILE_NAME);
    match crate::files::read(&path) {
        Ok(bytes) => Ok((parse_config(&path, &bytes)?, also(Some(&bytes)))),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok((Config::empty(path), also(None))),
        Err(source) => Err(ConfigError::Read { path, source }),
    }
}

/// Read `VARAR_UPDATE` from the environment (the only environment read of
/// the config).
pub fn update_mode_from_env() -> Result<UpdateMode, UpdateModeError> {
    parse_update_mode(std::env::var_os(VARAR_UPDATE).as_deref())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn load_config_reads_the_file_and_tolerates_absence() {
        let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        let c = load_config(dir.path()).unwrap_or_else(|e| panic!("{e}"));
        assert!(c.missing);
        assert_eq!(c.path, dir.path().join(CONFIG_FILE_NAME));
        std::fs::write(
            dir.path().join(CONFIG_FILE_NAME),
            r#"{"docs": {"include": ["varar/**/*.md"]}}"#,
        )
        .unwrap_or_else(|e| panic!("{e}"));
        let c = load_config(dir.path()).unwrap_or_else(|e| panic!("{e}"));
        assert!(!c.missing);
        assert_eq!(c.docs_include, vec!["varar/**/*.md".to_string()]);
    }

    #[test]
    fn the_digest_is_of_the_bytes_read_and_none_without_a_file() {
        let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        let (config, digest) = load_config_digested(dir.path()).unwrap_or_else(|e| panic!("{e}"));
        assert!(config.missing);
        assert_eq!(digest, None);
        let text = r#"{"docs": {"include": ["varar/**/*.md"]}}"#;
        std::fs::write(dir.path().join(CONFIG_FILE_NAME), text).unwrap_or_else(|e| panic!("{e}"));
        let (config, digest) = load_config_digested(dir.path()).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(
            config,
            load_config(dir.path()).unwrap_or_else(|e| panic!("{e}"))
        );
        assert_eq!(digest, Some(sha256_hex(text.as_bytes())));
    }

    #[test]
    fn an_unreadable_config_names_the_file() {
        let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        std::fs::create_dir(dir.path().join(CONFIG_FILE_NAME)).unwrap_or_else(|e| panic!("{e}"));
        let err = load_config(dir.path())
            .err()
            .map(|e| e.to_string())
            .unwrap_or_default();
        assert!(err.contains("varar.config.json: cannot read: "), "{err}");
    }
}
