//! Threads for examples that run under a time limit (spec 60.7).
//!
//! A limited example runs on a thread its trial can abandon. Spawning one
//! per example costs tens of microseconds, so finished threads wait here for
//! the next example instead. A thread whose example never returns is simply
//! never handed back; when the run ends and the pool is dropped, idle
//! threads see their channel close and exit.

use std::sync::mpsc::{self, Receiver, SyncSender};
use std::sync::{Arc, Mutex, Weak};
use std::thread;

type Job = Box<dyn FnOnce() + Send>;

/// A job and the way back to its thread, so the thread can return to the
/// idle list without keeping a sender of its own (which would keep it alive
/// after the pool is gone).
struct Task {
    job: Job,
    back: SyncSender<Task>,
}

/// Reusable example threads.
#[derive(Default)]
pub(crate) struct Pool {
    idle: Mutex<Vec<SyncSender<Task>>>,
}

impl Pool {
    /// An empty pool.
    pub(crate) fn new() -> Arc<Pool> {
        Arc::new(Pool::default())
    }

    fn idle(&self) -> std::sync::MutexGuard<'_, Vec<SyncSender<Task>>> {
        self.idle.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Run `job` on an idle thread, or a new one.
    pub(crate) fn run(self: &Arc<Self>, job: Job) -> std::io::Result<()> {
        let mut job = job;
        while let Some(worker) = self.idle().pop() {
            let task = Task {
                job,
                back: worker.clone(),
            };
            match worker.send(task) {
                Ok(()) => return Ok(()),
                // That thread is gone; try the next one.
                Err(mpsc::SendError(task)) => job = task.job,
            }
        }
        let (tx, rx) = mpsc::sync_channel::<Task>(1);
        let pool = Arc::downgrade(self);
        thread::Builder::new()
            .name("varar-example".to_string())
            .spawn(move || work(job, tx, rx, pool))
            .map(drop)
    }
}

fn work(first: Job, tx: SyncSender<Task>, rx: Receiver<Task>, pool: Weak<Pool>) {
    first();
    let mut back = tx;
    loop {
        match pool.upgrade() {
            Some(p) => p.idle().push(back),
            None => return,
        }
        match rx.recv() {
            Ok(task) => {
                back = task.back;
                (task.job)();
            }
            Err(_) => return,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::mpsc::channel;

    #[test]
    fn finished_threads_are_reused_and_stuck_ones_left_behind() {
        let pool = Pool::new();
        let (done, finished) = channel::<thread::ThreadId>();
        for _ in 0..3 {
            let done = done.clone();
            pool.run(Box::new(move || {
                let _ = done.send(thread::current().id());
            }))
            .unwrap();
            // Wait until it is back in the idle list before the next job.
            finished.recv().unwrap();
            while pool.idle().is_empty() {
                thread::yield_now();
            }
        }
        assert_eq!(pool.idle().len(), 1, "one thread served all three");

        let (release, stuck) = channel::<()>();
        pool.run(Box::new(move || {
            let _ = stuck.recv();
        }))
        .unwrap();
        assert!(pool.idle().is_empty(), "the busy thread is not idle");
        let done2 = done.clone();
        pool.run(Box::new(move || {
            let _ = done2.send(thread::current().id());
        }))
        .unwrap();
        finished.recv().unwrap();
        drop(release);
    }
}
