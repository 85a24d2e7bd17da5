//! A document's text as a failing example's excerpt needs it (issue 39):
//! held while the run's items are made, then let go, and read again from
//! its file only when one of its examples fails. Every text was held until
//! the run ended (1.6 MB for 200 oaths of documentation), for the few
//! examples that fail.
//!
//! The text read again is used only if it is the text that was planned
//! (its SHA-256 as read at the start): a document changed during the run
//! gives no excerpt, rather than an excerpt of other lines.

use std::sync::{Arc, Mutex};

use crate::harness::read::documents::Texts;
use varar_core::hash::sha256_hex;
use varar_core::source::{Source, Tables};
use varar_project::discovery::{OathFile, read_oath_with_metadata};

/// One document's text for excerpts.
pub(crate) struct DocumentText {
    file: OathFile,
    state: Mutex<State>,
}

/// Where the text is.
enum State {
    /// Held as read, its position tables once made.
    Held(Arc<str>, Option<Arc<Tables>>),
    /// Let go.
    LetGo {
        /// The SHA-256 of the text as read, when it was known.
        sha256: Option<String>,
        /// Once read again: the text, `None` when it could not be or it
        /// changed (kept until [`DocumentText::forget`]).
        again: Option<Option<(Arc<str>, Arc<Tables>)>>,
    },
}

impl DocumentText {
    /// The text of `oath_path` as `texts` has it (with its position tables
    /// when they are made already): held while `texts` holds it, else to be
    /// read again. `None` for a document that was not read.
    pub(crate) fn of(texts: &Texts, oath_path: &str, tables: Option<Arc<Tables>>) -> Option<Self> {
        let file = texts.file(oath_path)?;
        let state = match texts.text(oath_path) {
            Some(text) => State::Held(Arc::clone(text), tables),
            None => State::LetGo {
                sha256: texts.sha256(oath_path).map(str::to_owned),
                again: None,
            },
        };
        Some(DocumentText {
            file,
            state: Mutex::new(state),
        })
    }

    /// Its oathPath.
    pub(crate) fn oath_path(&self) -> &str {
        &self.file.oath_path
    }

    /// Let the text go: `sha256` is the SHA-256 of the text as read (the
    /// text read again must have it; `None`: it is never read again).
    pub(crate) fn let_go(&self, sha256: Option<&str>) {
        let mut state = self.state.lock().unwrap_or_else(|e| e.into_inner());
        if matches!(*state, State::Held(..)) {
            *state = State::LetGo {
                sha256: sha256.map(str::to_owned),
                again: None,
            };
        }
    }

    /// Forget the text read again, if it was: its oath's examples have all
    /// run, and it is read again only if an example still asks for it.
    pub(crate) fn forget(&self) {
        let mut state = self.state.lock().unwrap_or_else(|e| e.into_inner());
        if let State::LetGo { again, .. } = &mut *state {
            *again = None;
        }
    }

    /// The text and its position tables: as held, or read again the first
    /// time it is asked for once let go. `None` when it cannot be read
    /// again, or is no longer the text that was planned.
    pub(crate) fn get(&self) -> Option<(Arc<str>, Arc<Tables>)> {
        // One example at a time reads it again; the others wait for it.
        let mut state = self.state.lock().unwrap_or_else(|e| e.into_inner());
        match &mut *state {
            State::Held(text, tables) => {
                let tables = tables.get_or_insert_with(|| Source::new(text).tables());
                Some((Arc::clone(text), Arc::clone(tables)))
            }
            State::LetGo { sha256, again } => again
                .get_or_insert_with(|| self.read_again(sha256.as_deref()?))
                .clone(),
        }
    }

    /// The file's text, if it is still the text whose SHA-256 is `sha256`.
    fn read_again(&self, sha256: &str) -> Option<(Arc<str>, Arc<Tables>)> {
        let (text, _) = read_oath_with_metadata(&self.file).ok()?;
        if sha256_hex(text.as_bytes()) != sha256 {
            return None;
        }
        let tables = Source::new(&text).tables();
        Some((Arc::from(text), tables))
    }
}
