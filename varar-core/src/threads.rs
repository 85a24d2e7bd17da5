//! Two pieces of work side by side, on two threads when the system gives
//! one, on this thread one after the other when it does not (a process or
//! container limit on threads): the result is the same either way, and a
//! run never fails for want of a thread it only wanted for speed.

/// How many candidates an oath has before the work done for each of them
/// (planning, naming, gathering its sentences) is split over two threads:
/// a thread costs what a few hundred candidates cost. One figure for all
/// of them, so an oath is long for each step alike.
pub const TWO_THREADS_FROM: usize = 2048;

/// `here()` on this thread while `apart()` runs on a scoped thread of its
/// own; when no thread can be started, `apart()` runs here after `here()`.
/// A panic in `apart` goes on as it would have on this thread.
///
/// ```
/// use varar_core::threads::side_by_side;
///
/// let words = ["a", "b", "c", "d"];
/// let (left, right) = side_by_side(|| words[..2].concat(), &|| words[2..].concat());
/// assert_eq!(left + &right, "abcd");
/// ```
pub fn side_by_side<H, A: Send>(
    here: impl FnOnce() -> H,
    apart: &(impl Fn() -> A + Sync),
) -> (H, A) {
    side_by_side_if(true, here, apart)
}

/// [`side_by_side`], with a thread only when `spawn` (whether one could be
/// started, for the tests of the way without one).
fn side_by_side_if<H, A: Send>(
    spawn: bool,
    here: impl FnOnce() -> H,
    apart: &(impl Fn() -> A + Sync),
) -> (H, A) {
    std::thread::scope(|scope| {
        let other = if spawn {
            std::thread::Builder::new().spawn_scoped(scope, apart).ok()
        } else {
            None
        };
        let done_here = here();
        let done_apart = match other {
            Some(other) => other
                .join()
                .unwrap_or_else(|panic| std::panic::resume_unwind(panic)),
            None => apart(),
        };
        (done_here, done_apart)
    })
}

/// Each batch of `0..count` (`batch` long, the last one shorter) split in
/// two: `here` of its first half on this thread while one worker thread
/// runs `apart` of its second half, then `after` of what `apart` gave,
/// batch by batch, in order; `here` and `after` share `state`. One thread
/// serves every batch: starting one per batch cost more than the work in
/// an optimised build (the 40 threads of a 5 000-item run record were 5%
/// of a release run's CPU). Without a thread, `apart` runs here after
/// `here`, the same. A panic in `apart` goes on as it would have on this
/// thread.
///
/// ```
/// use varar_core::threads::in_batches_beside;
///
/// let mut seen = (Vec::new(), String::new());
/// in_batches_beside(
///     &mut seen,
///     (7, 4),
///     &|(done, _), r| done.push(r),
///     &|r| format!("{r:?}"),
///     &|(_, text), apart| text.push_str(&apart),
/// );
/// assert_eq!(seen.0, [0..2, 4..6]);
/// assert_eq!(seen.1, "2..46..7");
/// ```
pub fn in_batches_beside<S, A: Send>(
    state: &mut S,
    (count, batch): (usize, usize),
    here: &dyn Fn(&mut S, std::ops::Range<usize>),
    apart: &(dyn Fn(std::ops::Range<usize>) -> A + Sync),
    after: &dyn Fn(&mut S, A),
) {
    in_batches_beside_if(true, state, (count, batch), here, apart, after);
}

/// [`in_batches_beside`], with a thread only when `spawn`.
fn in_batches_beside_if<S, A: Send>(
    spawn: bool,
    state: &mut S,
    (count, batch): (usize, usize),
    here: &dyn Fn(&mut S, std::ops::Range<usize>),
    apart: &(dyn Fn(std::ops::Range<usize>) -> A + Sync),
    after: &dyn Fn(&mut S, A),
) {
    use std::sync::mpsc;
    if count == 0 {
        return;
    }
    let batch = batch.max(2);
    std::thread::scope(|scope| {
        let (jobs, todo) = mpsc::channel::<std::ops::Range<usize>>();
        let (done, results) = mpsc::channel::<A>();
        let worker = move || {
            for range in todo {
                if done.send(apart(range)).is_err() {
                    break;
                }
            }
        };
        let mut handle = if spawn {
            std::thread::Builder::new().spawn_scoped(scope, worker).ok()
        } else {
            None
        };
        let mut start = 0;
        while start < count {
            let end = (start + batch).min(count);
            let mid = start + (end - start).div_ceil(2);
            let sent = handle.is_some() && jobs.send(mid..end).is_ok();
            here(state, start..mid);
            let result = match sent.then(|| results.recv()) {
                Some(Ok(result)) => result,
                // The worker is gone: its panic goes on here.
                Some(Err(_)) => match handle.take().map(|h| h.join()) {
                    Some(Err(panic)) => std::panic::resume_unwind(panic),
                    _ => apart(mid..end),
                },
                None => apart(mid..end),
            };
            after(state, result);
            start = end;
        }
    });
}

/// `f(state, i)` for each `i` of `0..len`, in order: from `from` on, each
/// half on a thread of its own ([`side_by_side`]) with a `state()` of its
/// own (what a thread keeps from one item to the next, such as a line
/// hint); below, on this thread with one.
///
/// ```
/// use varar_core::threads::map_in_halves;
///
/// let squares = map_in_halves(5, 2, &|| (), &|(), i| i * i);
/// assert_eq!(squares, [0, 1, 4, 9, 16]);
/// ```
pub fn map_in_halves<S, T: Send>(
    len: usize,
    from: usize,
    state: &(impl Fn() -> S + Sync),
    f: &(impl Fn(&mut S, usize) -> T + Sync),
) -> Vec<T> {
    let range = |range: std::ops::Range<usize>, out: &mut Vec<T>| {
        let mut state = state();
        out.extend(range.map(|i| f(&mut state, i)));
    };
    // One vector for both halves: the second is appended, the first never
    // moved (a memmove of a 5 MB oath's units each keystroke, issue 39).
    let mut all = Vec::with_capacity(len);
    if len < from.max(2) {
        range(0..len, &mut all);
        return all;
    }
    let half = len / 2;
    let ((), rest) = side_by_side(|| range(0..half, &mut all), &|| {
        let mut rest = Vec::with_capacity(len - half);
        range(half..len, &mut rest);
        rest
    });
    all.extend(rest);
    all
}

/// Start `worker` on up to `extra` scoped threads of `scope` (fewer when the
/// system gives fewer), and return their handles.
pub fn spawn_up_to<'scope, T: Send + 'scope>(
    scope: &'scope std::thread::Scope<'scope, '_>,
    extra: usize,
    worker: &'scope (impl Fn() -> T + Sync),
) -> Vec<std::thread::ScopedJoinHandle<'scope, T>> {
    let mut handles = Vec::with_capacity(extra);
    for _ in 0..extra {
        match std::thread::Builder::new().spawn_scoped(scope, worker) {
            Ok(handle) => handles.push(handle),
            // No thread to spare: the caller's own thread does the rest.
            Err(_) => break,
        }
    }
    handles
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_work_apart_is_done_on_another_thread_or_here_the_same() {
        let here_id = std::thread::current().id();
        let apart = || (std::thread::current().id(), 2 + 2);
        let (h, (apart_id, four)) = side_by_side_if(true, || 1, &apart);
        assert_eq!((h, four), (1, 4));
        assert_ne!(apart_id, here_id, "apart on a thread of its own");
        let (h, (apart_id, four)) = side_by_side_if(false, || 1, &apart);
        assert_eq!((h, four), (1, 4));
        assert_eq!(apart_id, here_id, "no thread: apart here, after");
    }

    #[test]
    fn a_map_in_halves_keeps_the_order_on_one_thread_or_two() {
        let items: Vec<u32> = (0..101).collect();
        let want: Vec<u32> = items.iter().map(|n| n * 3).collect();
        let times_three = |(): &mut (), i: usize| items[i] * 3;
        for from in [0, 1, 2, 100, 101, 102] {
            assert_eq!(
                map_in_halves(items.len(), from, &|| (), &times_three),
                want,
                "from {from}"
            );
        }
        assert!(map_in_halves(0, 0, &|| (), &|(), i| i).is_empty());
        assert_eq!(map_in_halves(1, 0, &|| (), &|(), i| i + 7), [7]);
    }

    #[test]
    fn batches_beside_give_every_index_once_in_order_with_a_thread_or_without() {
        for spawn in [true, false] {
            for (count, batch) in [(0, 4), (1, 4), (7, 4), (8, 4), (9, 2), (10, 0), (256, 256)] {
                let here_id = std::thread::current().id();
                let mut seen = (Vec::new(), Vec::new());
                in_batches_beside_if(
                    spawn,
                    &mut seen,
                    (count, batch),
                    &|(order, _), r| order.extend(r),
                    &|r| (std::thread::current().id(), r.collect::<Vec<_>>()),
                    &|(order, parts), (id, apart)| {
                        parts.push(id);
                        order.extend(apart);
                    },
                );
                let (order, parts) = seen;
                let want: Vec<usize> = (0..count).collect();
                assert_eq!(order, want, "{count} in batches of {batch}");
                let apart_here = parts.iter().filter(|&&id| id == here_id).count();
                if spawn {
                    assert_eq!(apart_here, 0, "apart on the worker");
                    let mut ids = parts.clone();
                    ids.dedup();
                    assert!(ids.len() <= 1, "one worker for every batch");
                } else {
                    assert_eq!(apart_here, parts.len(), "no thread: apart here");
                }
            }
        }
    }

    #[test]
    fn a_panic_apart_in_a_batch_goes_on_here() {
        let caught = std::panic::catch_unwind(|| {
            in_batches_beside(
                &mut (),
                (10, 4),
                &|(), _| {},
                &|r| assert!(r.start < 6, "apart"),
                &|(), ()| {},
            );
        });
        let message = caught
            .err()
            .and_then(|p| p.downcast_ref::<&str>().map(|s| (*s).to_owned()));
        assert_eq!(message.as_deref(), Some("apart"));
    }

    #[test]
    fn a_panic_apart_goes_on_here() {
        let caught = std::panic::catch_unwind(|| {
            side_by_side(|| 1, &|| -> u8 { panic!("apart") });
        });
        let message = caught
            .err()
            .and_then(|p| p.downcast_ref::<&str>().map(|s| (*s).to_owned()));
        assert_eq!(message.as_deref(), Some("apart"));
    }
}
