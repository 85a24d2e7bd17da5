//! One planned oath as its trials see it (spec 40 §6, issue 10): the text
//! a failure's excerpt is drawn from, and the sink of the results its
//! examples report, written to `.varar/` once every example ran or when
//! the run ends.

use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

use super::text::DocumentText;
use crate::harness::print;
use varar_core::plan::PlannedExample;
use varar_core::render::{Styles, report};
use varar_core::results::{
    DocumentHash, ExampleKey, ExampleResult, OathResults, collected_results,
};
use varar_core::source::{Source, Tables};
use varar_core::stored::PackedExamples;
use varar_project::store::replace_run_result;

/// One oath as the trials see it: its text (for failure excerpts), the
/// other documents its steps come from, and the results its examples
/// report.
pub(crate) struct OathRun {
    pub path: String,
    /// Its text, for the excerpts of its failing examples.
    text: DocumentText,
    hash: String,
    /// The other documents its steps were written in, with their hashes
    /// (spec 70 §70.4.5).
    documents: Vec<DocumentHash>,
    /// Their texts, for the excerpt of a failing spliced step.
    document_texts: Vec<DocumentText>,
    /// How many examples it planned.
    examples: usize,
    /// Its examples, packed: their keys are what the oath's result file may
    /// list (issue 10). Let go once the file is written.
    packed: Mutex<Option<Arc<PackedExamples>>>,
    results: Mutex<Vec<(usize, ExampleResult)>>,
    /// Whether its complete results were claimed for writing.
    written: AtomicBool,
    /// Whether a write of its result file failed (issue 34): the run
    /// record lists it, and the run fails.
    unwritten: AtomicBool,
}

impl OathRun {
    /// The sink of the oath at `path`: its text, its `sourceHash`, the
    /// other documents its steps come from and their texts, and its
    /// planned examples.
    pub(crate) fn new(
        path: String,
        text: DocumentText,
        hash: String,
        (documents, document_texts): (Vec<DocumentHash>, Vec<DocumentText>),
        packed: Arc<PackedExamples>,
    ) -> OathRun {
        OathRun {
            path,
            text,
            hash,
            documents,
            document_texts,
            examples: packed.len(),
            packed: Mutex::new(Some(packed)),
            results: Mutex::new(Vec::new()),
            written: AtomicBool::new(false),
            unwritten: AtomicBool::new(false),
        }
    }

    /// Replace the oath's result file with this run's results, once (the
    /// first call writes, later ones do nothing). For an oath whose every
    /// example ran: nothing stored can add to its results. Failures are
    /// warnings. The results are not kept once written: a run's results
    /// are never all held at once.
    pub fn replace_results(&self, root: &Path) {
        if self.written.swap(true, Ordering::AcqRel) {
            return;
        }
        let ran = std::mem::take(&mut *self.results.lock().unwrap_or_else(|e| e.into_inner()));
        let collected = self.collected(ran);
        // Nothing asks for its examples' keys any more, nor, most likely,
        // for its texts.
        drop(self.packed.lock().unwrap_or_else(|e| e.into_inner()).take());
        for text in std::iter::once(&self.text).chain(&self.document_texts) {
            text.forget();
        }
        let written = match collected.to_text() {
            Ok(text) => replace_run_result(root, &self.path, text.as_bytes()),
            Err(e) => Ok(print::unserialisable(&self.path, &e)),
        };
        if let Err(e) = written {
            self.not_written(e);
        }
    }

    /// Say that the oath's result file could not be written, and remember
    /// it for the run record.
    pub fn not_written(&self, problem: impl std::fmt::Display) {
        self.unwritten.store(true, Ordering::Release);
        print::warning(problem);
    }

    /// Whether a write of its result file failed.
    pub fn unwritten(&self) -> bool {
        self.unwritten.load(Ordering::Acquire)
    }

    pub(crate) fn record(&self, index: usize, result: ExampleResult) {
        // A poisoned lock only means another trial panicked mid-push; the
        // vector itself is still whole.
        let mut results = self.results.lock().unwrap_or_else(|e| e.into_inner());
        // Room for every example's result at the first (grown a push at a
        // time, the vector was copied ever larger as they ran), and only
        // once the oath runs: the oaths still waiting hold none.
        if results.capacity() == 0 {
            results.reserve_exact(self.examples);
        }
        results.push((index, result));
    }

    /// Whether the oath has examples and every one of them ran (so its
    /// results replace the stored ones instead of merging into them):
    /// true too once they are written.
    pub fn complete(&self) -> bool {
        if self.written.load(Ordering::Acquire) {
            return true;
        }
        let results = self.results.lock().unwrap_or_else(|e| e.into_inner());
        self.examples > 0 && results.len() == self.examples
    }

    /// The plan indices of the examples that ran.
    pub fn ran(&self) -> Vec<usize> {
        let results = self.results.lock().unwrap_or_else(|e| e.into_inner());
        results.iter().map(|(i, _)| *i).collect()
    }

    /// The run-result payload of the examples that ran (maybe none) of an
    /// oath whose results are not written yet.
    pub fn results(&self) -> OathResults {
        let ran = self
            .results
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone();
        self.collected(ran)
    }

    fn collected(&self, ran: Vec<(usize, ExampleResult)>) -> OathResults {
        let packed = self.packed.lock().unwrap_or_else(|e| e.into_inner());
        let sort_line = |i| packed.as_ref().map_or(0, |p| p.sort_line(i));
        collected_results(
            &self.path,
            &self.hash,
            self.documents.clone(),
            ran,
            sort_line,
        )
    }

    /// The key of every planned example, in plan order (none once its
    /// result file is written).
    pub fn keys(&self) -> Vec<ExampleKey> {
        let packed = self.packed.lock().unwrap_or_else(|e| e.into_inner());
        let Some(packed) = packed.as_ref() else {
            return Vec::new();
        };
        (0..packed.len()).filter_map(|i| packed.key(i)).collect()
    }

    /// Let its texts go, once every item is made (issue 39): `sha256` gives
    /// the SHA-256 of a document as read, which a text read again for a
    /// failure's excerpt must have.
    pub(crate) fn let_texts_go<'t>(&self, sha256: impl Fn(&str) -> Option<&'t str>) {
        for text in std::iter::once(&self.text).chain(&self.document_texts) {
            text.let_go(sha256(text.oath_path()));
        }
    }

    /// The failure text of `example`: drawn from the document its failing
    /// step was written in (spec 70 §70.4.4). Without that document's text
    /// as planned (changed since), it has no excerpt, and says so.
    pub(crate) fn report(
        &self,
        example: &PlannedExample,
        failure: &varar_core::failure::Failure,
        styles: &Styles,
    ) -> String {
        let own = self.text.get();
        let doc_path = failure
            .step()
            .and_then(|i| example.steps.get(i))
            .and_then(|s| s.doc_path.as_deref());
        let other = doc_path
            .and_then(|path| self.document_texts.iter().find(|d| d.oath_path() == path))
            .map(|d| (d.oath_path(), d.get()));
        let oath_source = source_of(&own);
        let other_source = other.as_ref().map(|(path, text)| (*path, source_of(text)));
        let step_doc = other_source.as_ref().map(|(path, s)| (*path, s.as_ref()));
        let mut text = report::failure_in(
            (&self.path, oath_source.as_ref()),
            step_doc,
            example,
            failure,
            styles,
        );
        let other_missing = other
            .as_ref()
            .and_then(|(path, t)| t.is_none().then_some(*path));
        let own_missing = own.is_none().then_some(self.path.as_str());
        for path in other_missing.into_iter().chain(own_missing) {
            text.push_str(&report::no_excerpt_note(path, styles));
        }
        text
    }
}

/// The source of a text with its tables, when it is held.
pub(super) fn source_of(text: &Option<(Arc<str>, Arc<Tables>)>) -> Option<Source<'_>> {
    text.as_ref()
        .map(|(text, tables)| Source::with_tables(text, Arc::clone(tables)))
}
