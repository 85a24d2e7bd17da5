//! Two pieces of work side by side, on two threads when the system gives
//! one, on this thread one after the other when it does not (a process or
//! container limit on threads): the result is the same either way, and a
//! run never fails for want of a thread it only wanted for speed.

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
