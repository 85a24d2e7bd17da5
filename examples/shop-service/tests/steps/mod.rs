//! The steps of the shop's oaths, in the order a new user meets them:
//!
//! 1. a **resource**: the service, started once per run on a free loopback
//!    port, with its SQLite file in a temporary directory and one HTTP
//!    client that every example shares;
//! 2. a **state factory**: each example opens a shop of its own, so
//!    examples running in parallel never see each other's orders;
//! 3. **teardowns**: each example's shop is closed after it, passed or
//!    failed; the service is stopped and its database deleted after the
//!    last example;
//! 4. the **steps**, `async fn`s that talk to the service over HTTP.

use reqwest::StatusCode;
use serde::Deserialize;
use shop_service::{Created, Db, NewOrder, Order};
use tokio::sync::oneshot;
use varar::{Table, sensor, stimulus};

/// Run-wide: the running service and a client for it.
pub struct Shop {
    base: String,
    http: reqwest::Client,
    stop: oneshot::Sender<()>,
    server: tokio::task::JoinHandle<std::io::Result<()>>,
    database: tempfile::TempDir,
}

/// Built by the first example that needs it; every other example waits for
/// that one build and then shares it. The server task runs on the run's
/// tokio runtime, so it keeps serving between examples.
#[varar::resource]
async fn shop() -> Result<Shop, std::io::Error> {
    let database = tempfile::tempdir()?;
    let db = Db::open(&database.path().join("shop.sqlite3")).map_err(std::io::Error::other)?;
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
    let base = format!("http://{}", listener.local_addr()?);
    let (stop, stopped) = oneshot::channel::<()>();
    let server = tokio::spawn(shop_service::serve(listener, db, async {
        let _ = stopped.await;
    }));
    Ok(Shop {
        base,
        http: reqwest::Client::new(),
        stop,
        server,
        database,
    })
}

/// After the last example: stop the server, then delete the database.
#[varar::teardown]
async fn close_the_service(shop: Shop) -> Result<(), String> {
    let _ = shop.stop.send(());
    match shop.server.await {
        Ok(Ok(())) => {}
        Ok(Err(e)) => return Err(format!("the server failed: {e}")),
        Err(e) => return Err(format!("the server task failed: {e}")),
    }
    shop.database
        .close()
        .map_err(|e| format!("cannot delete the database: {e}"))
}

/// Per example: a shop of its own and the last order placed in it.
pub struct Customer {
    base: String,
    http: reqwest::Client,
    shop: i64,
    last_order: Option<i64>,
}

impl Customer {
    fn url(&self, path: &str) -> String {
        format!("{}/shops/{}{path}", self.base, self.shop)
    }

    async fn place(&self, quantity: i64, item: &str) -> Result<reqwest::Response, reqwest::Error> {
        let order = NewOrder {
            item: item.to_string(),
            quantity,
        };
        self.http.post(self.url("/orders")).json(&order).send().await
    }
}

/// Instead of `Default`: a fresh shop on the running service.
#[varar::state]
async fn customer(shop: &Shop) -> Result<Customer, reqwest::Error> {
    let created: Created = shop
        .http
        .post(format!("{}/shops", shop.base))
        .send()
        .await?
        .error_for_status()?
        .json()
        .await?;
    Ok(Customer {
        base: shop.base.clone(),
        http: shop.http.clone(),
        shop: created.id,
        last_order: None,
    })
}

/// After each example, passed or failed: close its shop.
#[varar::teardown]
async fn leave(customer: Customer) -> Result<(), reqwest::Error> {
    customer
        .http
        .delete(customer.url(""))
        .send()
        .await?
        .error_for_status()?;
    Ok(())
}

/// What is ordered: a lowercase word (`croissants`), so a sentence's full
/// stop is never part of it.
#[derive(Clone, Debug, PartialEq)]
pub struct Item(String);

impl std::fmt::Display for Item {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

#[varar::parameter(name = "item", regex = "[a-z]+", format)]
fn item(name: &str) -> Item {
    Item(name.to_string())
}

#[sensor("The service answers its health check with {string}")]
async fn health(shop: &Shop) -> Result<String, reqwest::Error> {
    let url = format!("{}/health", shop.base);
    shop.http.get(url).send().await?.error_for_status()?.text().await
}

#[stimulus("I order {int} {item}")]
async fn order(customer: &mut Customer, quantity: i64, item: Item) -> Result<(), String> {
    let response = customer.place(quantity, &item.0).await.map_err(|e| e.to_string())?;
    if response.status() != StatusCode::CREATED {
        return Err(format!("the shop answered {}", response.status()));
    }
    let created: Created = response.json().await.map_err(|e| e.to_string())?;
    customer.last_order = Some(created.id);
    Ok(())
}

#[sensor("My last order reads back as {int} {item}")]
async fn last_order(customer: &Customer) -> Result<(i64, Item), String> {
    let id = customer.last_order.ok_or("no order was placed")?;
    let order: Order = customer
        .http
        .get(customer.url(&format!("/orders/{id}")))
        .send()
        .await
        .and_then(reqwest::Response::error_for_status)
        .map_err(|e| e.to_string())?
        .json()
        .await
        .map_err(|e| e.to_string())?;
    Ok((order.quantity, Item(order.item)))
}

async fn orders(customer: &Customer) -> Result<Vec<Order>, reqwest::Error> {
    customer
        .http
        .get(customer.url("/orders"))
        .send()
        .await?
        .error_for_status()?
        .json()
        .await
}

#[sensor("My shop has {int} order(s)")]
async fn order_count(customer: &Customer) -> Result<usize, reqwest::Error> {
    Ok(orders(customer).await?.len())
}

#[sensor("My shop lists these orders:")]
async fn listed(customer: &Customer, _expected: &Table) -> Result<Vec<Vec<String>>, reqwest::Error> {
    let rows = orders(customer).await?.into_iter();
    Ok(rows.map(|o| vec![o.item, o.quantity.to_string()]).collect())
}

#[derive(Deserialize)]
struct Refusal {
    error: String,
}

#[sensor("Ordering {int} {item} is refused with {string}")]
async fn refused(
    customer: &Customer,
    quantity: i64,
    item: Item,
    _message: String,
) -> Result<(i64, Item, String), String> {
    let response = customer.place(quantity, &item.0).await.map_err(|e| e.to_string())?;
    if response.status() != StatusCode::UNPROCESSABLE_ENTITY {
        return Err(format!("the shop answered {}", response.status()));
    }
    let refusal: Refusal = response.json().await.map_err(|e| e.to_string())?;
    Ok((quantity, item, refusal.error))
}
