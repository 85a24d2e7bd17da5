//! What matching each text block gave, kept across plans (issue 39): the
//! server re-plans an open oath on every keystroke, and a keystroke
//! changes one block, so every other block is answered from here instead
//! of being split and matched again. The engine's seam is
//! [`varar_core::plan::MatchMemo`]; a plan made with it is the plan made
//! without.
//!
//! Kept by block text, for one registry: a memo is filled under a step
//! index's generation, and a plan under a later one empties it first (one
//! under an earlier one, still running on a copy, neither reads nor
//! fills it). Bounded by weight (what [`TextMatch::weight`] counts, its
//! key included): when a block would not fit, what the plan under way has
//! not used is forgotten; when it still does not fit, it is not kept. A
//! 50 MB oath then costs no more memory than the bound, and its blocks
//! beyond it are matched afresh each time, as without a memo.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, PoisonError, RwLock, RwLockReadGuard, RwLockWriteGuard};

use varar_core::plan::{MatchMemo, TextMatch};

/// What the server keeps at most, by default: about 64 MiB. A block weighs
/// about five times its text (its key, its sentences, its hits and their
/// parameters: the bench's 800 distinct paragraphs weigh 0.5 MiB), so
/// about 10 MB of distinct paragraphs fit.
pub const BUDGET: usize = 64 << 20;

/// What matching each text block gave, for one project's steps.
#[derive(Debug)]
pub struct BlockMemo {
    budget: usize,
    /// Read by every look-up, written by a block kept: a plan on two
    /// threads looks its blocks up side by side (a mutex made each wait
    /// for the other's look-ups).
    inner: RwLock<Inner>,
}

#[derive(Debug, Default)]
struct Inner {
    /// The step index's generation what is kept was matched under.
    generation: u64,
    /// Plans begun so far; each kept block says the last that used it.
    plans: u64,
    /// The sum of the weights kept.
    weight: usize,
    /// The last plan that forgot what it had not used: after that, all
    /// that is kept is its own, so it never looks again (a 50 MB oath
    /// would otherwise scan the whole memo for each block past the bound).
    swept: u64,
    kept: HashMap<Box<str>, Kept>,
}

#[derive(Debug)]
struct Kept {
    found: Arc<TextMatch>,
    weight: usize,
    /// The last plan that used it: set under the read lock.
    used: AtomicU64,
}

impl Default for BlockMemo {
    fn default() -> Self {
        BlockMemo::with_budget(BUDGET)
    }
}

impl BlockMemo {
    /// An empty memo keeping at most about `budget` bytes.
    pub fn with_budget(budget: usize) -> BlockMemo {
        BlockMemo {
            budget,
            inner: RwLock::default(),
        }
    }

    /// The memo for one plan against the registry of the step index's
    /// `generation`.
    pub fn plan(&self, generation: u64) -> PlanMemo<'_> {
        let mut inner = self.write();
        if generation > inner.generation {
            inner.kept.clear();
            inner.weight = 0;
            inner.generation = generation;
        }
        inner.plans += 1;
        PlanMemo {
            memo: self,
            generation,
            plan: inner.plans,
        }
    }

    /// How many blocks are kept.
    pub fn len(&self) -> usize {
        self.read().kept.len()
    }

    /// Whether nothing is kept.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The weight of what is kept, in about bytes: never above the budget.
    pub fn weight(&self) -> usize {
        self.read().weight
    }

    // A panic while holding the lock leaves a consistent map (every change
    // is one insert or one retain).
    fn read(&self) -> RwLockReadGuard<'_, Inner> {
        self.inner.read().unwrap_or_else(PoisonError::into_inner)
    }

    fn write(&self) -> RwLockWriteGuard<'_, Inner> {
        self.inner.write().unwrap_or_else(PoisonError::into_inner)
    }
}

/// A [`BlockMemo`] as one plan reads and fills it.
#[derive(Debug)]
pub struct PlanMemo<'m> {
    memo: &'m BlockMemo,
    generation: u64,
    plan: u64,
}

impl MatchMemo for PlanMemo<'_> {
    fn get(&self, text: &str) -> Option<Arc<TextMatch>> {
        let inner = self.memo.read();
        if inner.generation != self.generation {
            return None;
        }
        let kept = inner.kept.get(text)?;
        kept.used.store(self.plan, Ordering::Relaxed);
        Some(Arc::clone(&kept.found))
    }

    fn put(&self, text: &str, found: &Arc<TextMatch>) {
        let weight = text.len() + found.weight();
        let budget = self.memo.budget;
        if weight > budget {
            return;
        }
        let mut inner = self.memo.write();
        if inner.generation != self.generation {
            return;
        }
        if inner.weight + weight > budget {
            let plan = self.plan;
            if inner.swept == plan {
                return;
            }
            inner.swept = plan;
            inner.kept.retain(|_, k| *k.used.get_mut() == plan);
            inner.weight = inner.kept.values().map(|k| k.weight).sum();
            if inner.weight + weight > budget {
                return;
            }
        }
        let kept = Kept {
            found: Arc::clone(found),
            weight,
            used: AtomicU64::new(self.plan),
        };
        if let Some(old) = inner.kept.insert(text.into(), kept) {
            inner.weight -= old.weight;
        }
        inner.weight += weight;
    }
}

#[cfg(test)]
mod tests;
