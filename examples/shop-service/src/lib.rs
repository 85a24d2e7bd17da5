//! A small shop as an HTTP service: shops take orders, kept in SQLite.
//!
//! | request                           | answer                                   |
//! |-----------------------------------|------------------------------------------|
//! | `GET /health`                     | `200 ok`                                 |
//! | `POST /shops`                     | `201 {"id": 1}`: a new, empty shop       |
//! | `DELETE /shops/{shop}`            | `204`: the shop and its orders are gone  |
//! | `POST /shops/{shop}/orders`       | `201 {"id": 1}` for `{"item", "quantity"}`; `422 {"error"}` when refused |
//! | `GET /shops/{shop}/orders`        | `200 [{"id", "item", "quantity"}]`       |
//! | `GET /shops/{shop}/orders/{id}`   | `200 {"id", "item", "quantity"}` or `404` |
//!
//! Every shop is separate: nothing one shop does shows in another, which is
//! what lets the oaths in `varar/` run their examples in parallel.

use std::future::Future;
use std::path::Path;
use std::sync::{Arc, Mutex};

use axum::Json;
use axum::Router;
use axum::extract::{Path as UrlPath, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::routing::{delete, get, post};
use serde::{Deserialize, Serialize};

/// The most of one item a single order may ask for.
pub const MAX_QUANTITY: i64 = 50;

/// The shop's database: one SQLite connection, used off the async threads.
#[derive(Clone)]
pub struct Db {
    connection: Arc<Mutex<rusqlite::Connection>>,
}

impl Db {
    /// Open (or create) the database at `path` and make sure its tables exist.
    pub fn open(path: &Path) -> rusqlite::Result<Db> {
        let connection = rusqlite::Connection::open(path)?;
        connection.execute_batch(
            "PRAGMA foreign_keys = ON;
             CREATE TABLE IF NOT EXISTS shops (id INTEGER PRIMARY KEY);
             CREATE TABLE IF NOT EXISTS orders (
                 id INTEGER PRIMARY KEY,
                 shop INTEGER NOT NULL REFERENCES shops(id) ON DELETE CASCADE,
                 item TEXT NOT NULL,
                 quantity INTEGER NOT NULL
             );",
        )?;
        Ok(Db {
            connection: Arc::new(Mutex::new(connection)),
        })
    }

    /// Run `f` on the connection on tokio's blocking pool, so a slow query
    /// never holds up the threads that serve requests.
    async fn with<T: Send + 'static>(
        &self,
        f: impl FnOnce(&rusqlite::Connection) -> rusqlite::Result<T> + Send + 'static,
    ) -> Result<T, ApiError> {
        let connection = Arc::clone(&self.connection);
        tokio::task::spawn_blocking(move || {
            let guard = connection
                .lock()
                .map_err(|_| ApiError::internal("the database lock is poisoned"))?;
            f(&guard).map_err(|e| ApiError::internal(&e.to_string()))
        })
        .await
        .map_err(|e| ApiError::internal(&e.to_string()))?
    }
}

/// An order as the API shows it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Order {
    /// The order's id within the service.
    pub id: i64,
    /// What was ordered.
    pub item: String,
    /// How many.
    pub quantity: i64,
}

/// The body of `POST /shops/{shop}/orders`.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct NewOrder {
    /// What to order.
    pub item: String,
    /// How many, 1 to [`MAX_QUANTITY`].
    pub quantity: i64,
}

/// The body of a `201 Created`: the new row's id.
#[derive(Clone, Copy, Debug, Serialize, Deserialize)]
pub struct Created {
    /// The id.
    pub id: i64,
}

/// An error answer: a status and `{"error": "…"}`.
#[derive(Debug)]
pub struct ApiError {
    status: StatusCode,
    message: String,
}

impl ApiError {
    fn internal(message: &str) -> ApiError {
        ApiError {
            status: StatusCode::INTERNAL_SERVER_ERROR,
            message: message.to_string(),
        }
    }

    fn not_found(what: &str) -> ApiError {
        ApiError {
            status: StatusCode::NOT_FOUND,
            message: format!("{what} not found"),
        }
    }

    fn refused(message: String) -> ApiError {
        ApiError {
            status: StatusCode::UNPROCESSABLE_ENTITY,
            message,
        }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let body = serde_json::json!({ "error": self.message });
        (self.status, Json(body)).into_response()
    }
}

/// The service's routes over `db`.
pub fn app(db: Db) -> Router {
    Router::new()
        .route("/health", get(|| async { "ok" }))
        .route("/shops", post(open_shop))
        .route("/shops/{shop}", delete(close_shop))
        .route("/shops/{shop}/orders", post(place_order).get(list_orders))
        .route("/shops/{shop}/orders/{order}", get(one_order))
        .with_state(db)
}

/// Serve the app on `listener` until `shutdown` completes.
pub async fn serve(
    listener: tokio::net::TcpListener,
    db: Db,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    axum::serve(listener, app(db))
        .with_graceful_shutdown(shutdown)
        .await
}

async fn open_shop(State(db): State<Db>) -> Result<(StatusCode, Json<Created>), ApiError> {
    let id = db
        .with(|c| {
            c.execute("INSERT INTO shops DEFAULT VALUES", [])?;
            Ok(c.last_insert_rowid())
        })
        .await?;
    Ok((StatusCode::CREATED, Json(Created { id })))
}

async fn close_shop(State(db): State<Db>, UrlPath(shop): UrlPath<i64>) -> Result<StatusCode, ApiError> {
    let deleted = db
        .with(move |c| c.execute("DELETE FROM shops WHERE id = ?1", [shop]))
        .await?;
    match deleted {
        0 => Err(ApiError::not_found("shop")),
        _ => Ok(StatusCode::NO_CONTENT),
    }
}

async fn shop_exists(db: &Db, shop: i64) -> Result<(), ApiError> {
    let found = db
        .with(move |c| {
            c.query_row("SELECT COUNT(*) FROM shops WHERE id = ?1", [shop], |r| {
                r.get::<_, i64>(0)
            })
        })
        .await?;
    if found == 0 {
        return Err(ApiError::not_found("shop"));
    }
    Ok(())
}

async fn place_order(
    State(db): State<Db>,
    UrlPath(shop): UrlPath<i64>,
    Json(order): Json<NewOrder>,
) -> Result<(StatusCode, Json<Created>), ApiError> {
    if order.quantity < 1 {
        return Err(ApiError::refused(format!(
            "an order needs at least one {}",
            order.item
        )));
    }
    if order.quantity > MAX_QUANTITY {
        return Err(ApiError::refused(format!(
            "at most {MAX_QUANTITY} of one item per order"
        )));
    }
    shop_exists(&db, shop).await?;
    let id = db
        .with(move |c| {
            c.execute(
                "INSERT INTO orders (shop, item, quantity) VALUES (?1, ?2, ?3)",
                rusqlite::params![shop, order.item, order.quantity],
            )?;
            Ok(c.last_insert_rowid())
        })
        .await?;
    Ok((StatusCode::CREATED, Json(Created { id })))
}

fn read_order(row: &rusqlite::Row<'_>) -> rusqlite::Result<Order> {
    Ok(Order {
        id: row.get(0)?,
        item: row.get(1)?,
        quantity: row.get(2)?,
    })
}

async fn list_orders(
    State(db): State<Db>,
    UrlPath(shop): UrlPath<i64>,
) -> Result<Json<Vec<Order>>, ApiError> {
    shop_exists(&db, shop).await?;
    let orders = db
        .with(move |c| {
            let mut statement =
                c.prepare("SELECT id, item, quantity FROM orders WHERE shop = ?1 ORDER BY id")?;
            let rows = statement.query_map([shop], read_order)?;
            rows.collect()
        })
        .await?;
    Ok(Json(orders))
}

async fn one_order(
    State(db): State<Db>,
    UrlPath((shop, order)): UrlPath<(i64, i64)>,
) -> Result<Json<Order>, ApiError> {
    let found = db
        .with(move |c| {
            let mut statement = c.prepare(
                "SELECT id, item, quantity FROM orders WHERE shop = ?1 AND id = ?2",
            )?;
            let mut rows = statement.query_map([shop, order], read_order)?;
            rows.next().transpose()
        })
        .await?;
    found.map(Json).ok_or_else(|| ApiError::not_found("order"))
}
