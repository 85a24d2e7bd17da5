//! `async fn` steps: every signature, panics, a non-`Send` future, tokio.

use crate::support::{Project, failed, failure_at};
use crate::{line_of, yield_now};

mod signatures {
    use std::rc::Rc;

    use varar::{Table, sensor, stimulus};

    #[derive(Default)]
    pub struct Basket {
        items: Vec<String>,
    }

    #[stimulus("I add {string}")]
    async fn add(basket: &mut Basket, item: &str) {
        super::yield_now().await;
        basket.items.push(item.to_string());
    }

    #[stimulus("I add {int} pears synchronously")]
    fn add_pears(basket: &mut Basket, n: usize) {
        basket
            .items
            .extend(std::iter::repeat_n("pear".to_string(), n));
    }

    #[stimulus("I start over with {word}")]
    async fn start_over(_: Basket, item: String) -> Basket {
        super::yield_now().await;
        Basket { items: vec![item] }
    }

    #[stimulus("I note {int}")]
    async fn note(n: i64) -> Result<(), String> {
        super::yield_now().await;
        if n < 0 {
            Err(format!("cannot note {n}"))
        } else {
            Ok(())
        }
    }

    #[sensor("the basket holds {int} item(s)")]
    async fn holds(basket: &Basket) -> Result<usize, String> {
        super::yield_now().await;
        Ok(basket.items.len())
    }

    #[sensor("the first item and the count are {string} and {int}")]
    async fn first_and_count(basket: &Basket) -> (String, i64) {
        let first = basket.items.first().cloned().unwrap_or_default();
        (first, basket.items.len() as i64)
    }

    #[sensor("the items are:")]
    async fn items(basket: &Basket, _table: &Table) -> Vec<Vec<String>> {
        basket.items.iter().map(|i| vec![i.clone()]).collect()
    }

    #[stimulus("An async step panics")]
    async fn async_panic() {
        super::yield_now().await;
        panic!("kaboom");
    }

    #[stimulus("A sync step panics")]
    fn sync_panic() {
        panic!("kaboom");
    }

    /// Not `Send`: held across an await. Each example drives its own
    /// futures on its own thread, so this is fine.
    #[stimulus("I hold an Rc across an await")]
    async fn rc_across_await() {
        let held = Rc::new(41);
        super::yield_now().await;
        assert_eq!(*held + 1, 42);
    }

    #[stimulus("I sleep on tokio's timer")]
    async fn tokio_sleep() {
        tokio::time::sleep(std::time::Duration::from_millis(1)).await;
    }
}

const SIGNATURES: &str = "\
# Async steps

## Every signature

I add \"apple\". I add 2 pears synchronously. The basket holds 3 items.
The first item and the count are \"apple\" and 3. I note 4.

## Replacing

I add \"fig\". I start over with kiwi. The basket holds 1 item.

The items are:

| item |
| ---- |
| kiwi |

## An error

I note -1.

## An async panic

I add \"plum\". An async step panics.

## A sync panic

I add \"plum\". A sync step panics.

## Not Send

I hold an Rc across an await.

## Tokio

I sleep on tokio's timer.
";

#[test]
fn async_steps_take_every_signature_and_fail_like_sync_ones() {
    let p = Project::new(&[("varar/async.md", SIGNATURES)]);
    let (code, log) = p.run("lifecycle::async_steps::signatures", &[]);
    assert_eq!(code, failed(), "{log}");
    let r = p.results("varar/async.md");
    let status: Vec<(&str, &str)> = r["examples"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| (e["name"].as_str().unwrap(), e["status"].as_str().unwrap()))
        .collect();
    assert_eq!(status[0].1, "passed", "{log}");
    assert_eq!(status[1].1, "passed", "{log}");
    assert_eq!(
        failure_at(&r, line_of(SIGNATURES, "I note -1")).as_deref(),
        Some("cannot note -1")
    );
    // Same message, same anchor (the panicking step) for async and sync.
    let async_line = line_of(SIGNATURES, "I add \"plum\". An async");
    let sync_line = line_of(SIGNATURES, "I add \"plum\". A sync");
    assert_eq!(failure_at(&r, async_line).as_deref(), Some("kaboom"));
    assert_eq!(failure_at(&r, sync_line).as_deref(), Some("kaboom"));
    assert!(
        log.contains(&format!("varar/async.md:{async_line}:15: kaboom")),
        "{log}"
    );
    assert!(
        log.contains(&format!("varar/async.md:{sync_line}:15: kaboom")),
        "{log}"
    );
    assert_eq!(
        failure_at(&r, line_of(SIGNATURES, "I hold an Rc")),
        None,
        "{log}"
    );
    let tokio = failure_at(&r, line_of(SIGNATURES, "I sleep on tokio"));
    if cfg!(feature = "tokio") {
        assert_eq!(tokio, None, "{log}");
    } else {
        let message = tokio.expect("without the feature, tokio's timer has no reactor");
        assert!(
            message.contains("enable the \"tokio\" feature of varar"),
            "{message}"
        );
        assert!(message.contains("tokio said: "), "{message}");
    }
}
