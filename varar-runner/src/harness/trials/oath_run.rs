//! One planned oath as its trials see it (spec 40 §6, issue 10): the text
//! a failure's excerpt is drawn from, and the sink of the results its
//! examples report, written to `.varar/` once every example ran or when
//! the run ends.

use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

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
    text: Arc<str>,
    /// The position tables of `text`, built once while planning and shared
    /// by every failing example's excerpt.
    tables: Arc<Tables>,
    hash: String,
    /// The other documents its steps were written in, with their hashes
    /// (spec 70 §70.4.5).
    documents: Vec<DocumentHash>,
    /// Their texts, for the excerpt of a failing spliced step.
    document_texts: Vec<(String, Arc<str>)>,
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
    /// The sink of the oath at `path`: its text and the text's position
    /// tables, its `sourceHash`, the other documents its steps come from
    /// and their texts, and its planned examples.
    pub(crate) fn new(
        path: String,
        (text, tables): (Arc<str>, Arc<Tables>),
        hash: String,
        (documents, document_texts): (Vec<DocumentHash>, Vec<(String, Arc<str>)>),
        packed: Arc<PackedExamples>,
    ) -> OathRun {
        OathRun {
            path,
            text,
            tables,
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
        // Nothing asks for its examples' keys any more.
        drop(self.packed.lock().unwrap_or_else(|e| e.into_inner()).take());
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
        collected_results(
            &self.path,
            &self.hash,
            self.documents.clone(),
            ran,
            &self.keys(),
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

    /// The failure text of `example`: drawn from the document its failing
    /// step was written in (spec 70 §70.4.4).
    pub(crate) fn report(
        &self,
        example: &PlannedExample,
        failure: &varar_core::failure::Failure,
        styles: &Styles,
    ) -> String {
        let source = Source::with_tables(&self.text, Arc::clone(&self.tables));
        let doc_path = failure
            .step()
            .and_then(|i| example.steps.get(i))
            .and_then(|s| s.doc_path.as_deref());
        let other = doc_path.and_then(|path| {
            let (path, text) = self.document_texts.iter().find(|(p, _)| p == path)?;
            Some((path.as_str(), Source::new(text)))
        });
        let step_doc = other.as_ref().map(|(path, source)| (*path, source));
        report::failure_in((&self.path, &source), step_doc, example, failure, styles)
    }
}
