//! Run-wide resources: built once, failures remembered, torn down at the end; registration problems.

use std::process::ExitCode;

use crate::support::{Project, failed, failure_at};
use crate::{line_of, take};

mod once {
    use std::sync::atomic::{AtomicUsize, Ordering};

    use varar::{sensor, stimulus};

    pub static BUILDS: AtomicUsize = AtomicUsize::new(0);

    pub struct Pool {
        id: i64,
    }

    /// Slow enough that parallel first uses overlap and must wait.
    #[varar::resource]
    async fn pool() -> Pool {
        BUILDS.fetch_add(1, Ordering::SeqCst);
        std::thread::sleep(std::time::Duration::from_millis(100));
        Pool { id: 7 }
    }

    pub struct Visit {
        pool: i64,
        count: i64,
    }

    #[varar::state]
    fn visit(pool: &Pool) -> Visit {
        Visit {
            pool: pool.id,
            count: 0,
        }
    }

    #[stimulus("I visit {int} times")]
    async fn visit_n(visit: &mut Visit, n: i64) {
        visit.count += n;
    }

    #[sensor("I visited {int} times through pool {int}")]
    async fn visited(visit: &Visit) -> (i64, i64) {
        (visit.count, visit.pool)
    }

    #[sensor("the pool is {int}")]
    fn pool_id(pool: &Pool) -> i64 {
        pool.id
    }
}

#[test]
fn a_resource_is_built_once_for_many_parallel_examples_and_not_for_list() {
    use std::sync::atomic::Ordering;
    let mut text = String::from("# Visits\n");
    for i in 1..=40 {
        text.push_str(&format!(
            "\n## Visit {i}\n\nI visit {i} times. I visited {i} times through pool 7. The pool is 7.\n"
        ));
    }
    let p = Project::new(&[("varar/visits.md", &text)]);
    let (code, log) = p.run("lifecycle::resources::once", &["--list"]);
    assert_eq!(code, ExitCode::SUCCESS, "{log}");
    assert_eq!(
        once::BUILDS.load(Ordering::SeqCst),
        0,
        "--list builds nothing"
    );
    let (code, log) = p.run_with(
        "lifecycle::resources::once",
        &["--test-threads", "8"],
        |r| r,
    );
    assert_eq!(code, ExitCode::SUCCESS, "{log}");
    assert!(log.contains("40 passed"), "{log}");
    assert_eq!(once::BUILDS.load(Ordering::SeqCst), 1, "built exactly once");
}

mod failing {
    use std::sync::atomic::{AtomicUsize, Ordering};

    use varar::stimulus;

    pub static BUILDS: AtomicUsize = AtomicUsize::new(0);

    pub struct Database;

    #[varar::resource]
    fn database() -> Result<Database, String> {
        BUILDS.fetch_add(1, Ordering::SeqCst);
        Err("connection refused on port 5432".to_string())
    }

    pub struct Session;

    #[varar::state]
    fn session(_db: &Database) -> Session {
        Session
    }

    pub struct Seat;

    #[varar::state]
    async fn seat() -> Result<Seat, String> {
        Err("no seat left".to_string())
    }

    #[stimulus("I query the database")]
    fn query(_: &Database) {}

    #[stimulus("I open a session")]
    async fn open(_: &mut Session) {}

    #[stimulus("I sit down")]
    fn sit(_: &mut Seat) {}

    #[stimulus("I do nothing")]
    fn nothing() {}
}

const FAILING: &str = "\
# Failing builds

## Directly

I do nothing. I query the database.

## Through a factory

I open a session.

## Not needing it

I do nothing.

## A failing factory

I do nothing. I sit down.

## Again directly

I query the database.
";

#[test]
fn failed_builds_fail_each_example_that_needs_them_at_the_first_step() {
    use std::sync::atomic::Ordering;
    let p = Project::new(&[("varar/failing.md", FAILING)]);
    let (code, log) = p.run("lifecycle::resources::failing", &[]);
    assert_eq!(code, failed(), "{log}");
    let r = p.results("varar/failing.md");
    let resource = "resource Database could not be built: connection refused on port 5432";
    for start in [
        "I do nothing. I query",
        "I open a session",
        "I query the database.",
    ] {
        assert_eq!(
            failure_at(&r, line_of(FAILING, start)).as_deref(),
            Some(resource),
            "{start}"
        );
    }
    let direct = line_of(FAILING, "I do nothing. I query");
    assert!(
        log.contains(&format!("varar/failing.md:{direct}:15: {resource}")),
        "anchored on the step that needed it\n{log}"
    );
    assert_eq!(
        failure_at(&r, line_of(FAILING, "## Not needing it") + 2),
        None
    );
    let seat = line_of(FAILING, "I do nothing. I sit");
    assert_eq!(
        failure_at(&r, seat).as_deref(),
        Some("state Seat could not be built: no seat left")
    );
    assert!(
        log.contains(&format!("varar/failing.md:{seat}:15: state Seat")),
        "{log}"
    );
    assert_eq!(BUILDS.load(Ordering::SeqCst), 1, "never retried");
    use failing::BUILDS;
}

mod twice {
    use varar::stimulus;

    pub struct Shop;

    #[varar::resource]
    fn shop() -> Shop {
        Shop
    }

    #[varar::resource]
    async fn other_shop() -> Shop {
        Shop
    }

    #[stimulus("I enter the shop")]
    fn enter(_: &Shop) {}
}

#[test]
fn registration_problems_stop_the_run_before_anything_runs() {
    let text = "# Shop\n\nI enter the shop.\n";
    let p = Project::new(&[("varar/shop.md", text)]);
    let (code, log) = p.run("lifecycle::resources::twice", &[]);
    assert_eq!(code, failed());
    assert!(!log.contains("running"), "no item ran\n{log}");
    assert!(!p.root.join(".varar").exists(), "nothing written");
    assert!(!p.root.join("varar.lock.json").exists(), "nothing written");
}

mod run_end {
    use std::sync::Mutex;

    use varar::stimulus;

    pub static LOG: Mutex<Vec<String>> = Mutex::new(Vec::new());

    pub struct Server(&'static str);
    pub struct Database(&'static str);

    #[varar::resource]
    fn database() -> Database {
        Database("db")
    }

    #[varar::resource]
    async fn server() -> Server {
        Server("server")
    }

    #[varar::teardown]
    async fn stop_server(server: Server) {
        LOG.lock().unwrap().push(server.0.to_string());
    }

    #[varar::teardown]
    fn drop_database(db: Database) -> Result<(), String> {
        LOG.lock().unwrap().push(db.0.to_string());
        Err("the file is locked".to_string())
    }

    #[stimulus("I use the database")]
    fn use_db(_: &Database) {}

    #[stimulus("I use the server")]
    async fn use_server(_: &Server) {}
}

#[test]
fn resources_are_torn_down_once_after_the_last_example_newest_first() {
    let text = "# Run end\n\n## One\n\nI use the database. I use the server.\n\n\
                ## Two\n\nI use the server. I use the database.\n";
    let p = Project::new(&[("varar/end.md", text)]);
    let (code, log) = p.run("lifecycle::resources::run_end", &["--test-threads", "1"]);
    // Both examples passed; the failing teardown fails the run.
    assert!(log.contains("2 passed"), "{log}");
    assert_eq!(code, failed());
    assert_eq!(take(&run_end::LOG), ["server", "db"]);
    let r = p.results("varar/end.md");
    assert_eq!(
        r["examples"].as_array().map(Vec::len),
        Some(2),
        "results kept"
    );
}
