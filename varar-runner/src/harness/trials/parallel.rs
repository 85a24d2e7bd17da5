//! Planning the selected oaths side by side (the trials stage's longest
//! stretch): every oath on as many threads as the machine has, and the
//! `sourceHash`es of long texts on a thread of their own meanwhile.

use crate::harness::read::documents::Texts;

/// Whether the `sourceHash`es of `paths` are worth a thread of their own:
/// only unoptimised (where they are read a byte at a time slowly) and for
/// long texts. Measured with `farm-bench` on first runs of 200 oaths shaped
/// like documentation (1.5 MB): in a release build the thread made the run a
/// tenth slower (1.14x wall, median of 15 pairs; without it 1.00x the run
/// before it existed); in a debug build it gained nothing (1.01x); for one
/// 10 MB oath (debug) it took the hash's 22 ms off the run's longest path.
pub(super) fn hash_aside(texts: &Texts, paths: &[&str]) -> bool {
    const WORTH_A_THREAD: usize = 4 << 20;
    if !cfg!(debug_assertions) {
        return false;
    }
    let mut bytes = 0;
    for path in paths {
        bytes += texts.text(path).map_or(0, |t| t.len());
        if bytes >= WORTH_A_THREAD {
            return true;
        }
    }
    false
}

/// `plan` of every path, in order, on as many threads as the machine has
/// (planning is pure, and the workspace parses each document once
/// whichever thread asks first): the run's longest stretch on one thread
/// otherwise. This thread plans too, so the plans live in one allocator
/// arena fewer (about 2.5 MiB less resident for 5 000 examples).
pub(super) fn plan_in_parallel<T: Send>(paths: &[&str], plan: impl Fn(&str) -> T + Sync) -> Vec<T> {
    // One path (a nextest process) needs no count of the processors,
    // which reads the cgroup files.
    let threads = match paths.len() {
        0 | 1 => 1,
        n => std::thread::available_parallelism().map_or(1, |t| usize::from(t).min(n)),
    };
    if threads < 2 {
        return paths.iter().map(|p| plan(p)).collect();
    }
    let plan = &plan;
    // Each thread takes the next unplanned path until none is left, so
    // that they all finish together however long each oath is.
    let next = std::sync::atomic::AtomicUsize::new(0);
    let next = &next;
    let share = move || {
        let mut done = Vec::new();
        loop {
            let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            let Some(path) = paths.get(i) else {
                return done;
            };
            done.push((i, plan(path)));
        }
    };
    let mut done: Vec<(usize, T)> = std::thread::scope(|scope| {
        let workers = varar_core::threads::spawn_up_to(scope, threads - 1, &share);
        let mut done = share();
        for worker in workers {
            match worker.join() {
                Ok(more) => done.extend(more),
                // Planning does not panic on any input; if it ever did, the
                // panic goes on as it would have on this thread.
                Err(panic) => std::panic::resume_unwind(panic),
            }
        }
        done
    });
    done.sort_by_key(|(i, _)| *i);
    done.into_iter().map(|(_, t)| t).collect()
}
