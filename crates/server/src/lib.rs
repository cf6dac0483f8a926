//! The Muster play server: accounts, a lobby, games played over HTTP with live updates over
//! WebSocket, bots moving on the server, every game stored as its record plus a snapshot in
//! SQLite or PostgreSQL, and the browser client. See `docs/server.md`.

pub mod auth;
pub mod db;
pub mod error;
pub mod play;
pub mod testing;
pub mod web;

use axum::Router;
use axum::extract::{FromRequest, Request};
use axum::http::StatusCode;
use axum::routing::{get, post};
use error::{ApiError, ApiResult};
use futures_util::StreamExt;
use muster_ai::Bots;
use muster_core::Registry;
use serde::de::DeserializeOwned;
use sqlx::AnyPool;
use std::collections::HashMap;
use std::net::SocketAddr;
use std::sync::Arc;
use tokio::sync::Mutex;

/// Largest request body accepted.
pub const MAX_BODY: usize = 64 * 1024;

/// Server settings.
#[derive(Clone, Debug)]
pub struct Config {
    pub addr: SocketAddr,
    /// `sqlite://FILE`, `sqlite::memory:` or `postgres://...`.
    pub database: String,
    /// Mark cookies `Secure` (on by default; browsers accept them on localhost over HTTP).
    pub secure_cookies: bool,
}

/// What every handler shares.
#[derive(Clone)]
pub struct AppState {
    pub db: AnyPool,
    pub registry: Arc<Registry>,
    pub bots: Arc<Bots>,
    pub live: Arc<Mutex<HashMap<String, play::LiveRef>>>,
    pub limiter: Arc<auth::Limiter>,
    pub config: Arc<Config>,
    /// SQLite allows one writer at a time; queueing writers here, in order, avoids SQLite's
    /// sleep-and-retry on a busy database (PostgreSQL needs no such queue).
    pub writer: Option<Arc<Mutex<()>>>,
}

impl AppState {
    /// Begins a write transaction, queued behind other writers on SQLite.
    pub async fn begin_write(
        &self,
    ) -> Result<
        (
            Option<tokio::sync::OwnedMutexGuard<()>>,
            sqlx::Transaction<'static, sqlx::Any>,
        ),
        sqlx::Error,
    > {
        let guard = match &self.writer {
            Some(w) => Some(w.clone().lock_owned().await),
            None => None,
        };
        let tx = self.db.begin().await?;
        Ok((guard, tx))
    }
}

/// Seconds since 1970 (server bookkeeping only; rules code never reads a clock).
pub fn now() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() as i64)
}

/// How much of an oversized body is still read, and thrown away, before the 413 goes out. A
/// server that answers while the client is still sending closes a connection with unread
/// data, and the client can then lose the answer (a reset instead of a readable refusal); so
/// bodies up to this size are drained first. Larger ones (by their declared length, or once
/// this much has arrived) are refused at once.
pub const DRAIN_LIMIT: usize = 16 * MAX_BODY;

fn too_large() -> ApiError {
    ApiError::new(
        StatusCode::PAYLOAD_TOO_LARGE,
        "too_large",
        format!("request bodies are limited to {MAX_BODY} bytes"),
    )
}

/// A request body of at most [`MAX_BODY`] bytes; larger bodies get a JSON 413.
pub struct Body(pub axum::body::Bytes);

impl<S: Send + Sync> FromRequest<S> for Body {
    type Rejection = ApiError;
    async fn from_request(req: Request, _state: &S) -> Result<Self, Self::Rejection> {
        let declared = req
            .headers()
            .get(axum::http::header::CONTENT_LENGTH)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.parse::<usize>().ok());
        if declared.is_some_and(|n| n > DRAIN_LIMIT) {
            return Err(too_large());
        }
        let mut stream = req.into_body().into_data_stream();
        let mut body = Vec::new();
        let mut seen = 0usize;
        while let Some(chunk) = stream.next().await {
            let chunk = chunk.map_err(|e| {
                ApiError::bad_request(format!("could not read the request body: {e}"))
            })?;
            seen += chunk.len();
            if seen <= MAX_BODY {
                body.extend_from_slice(&chunk);
            } else if seen > DRAIN_LIMIT {
                break;
            }
        }
        if seen > MAX_BODY {
            return Err(too_large());
        }
        Ok(Body(body.into()))
    }
}

/// Reads a JSON body (already held to [`MAX_BODY`] by [`Body`]), with a clear error for
/// malformed input.
pub fn parse_body<T: DeserializeOwned>(body: &[u8]) -> ApiResult<T> {
    serde_json::from_slice(body)
        .map_err(|e| ApiError::bad_request(format!("malformed JSON body: {e}")))
}

/// Opens the database and builds the shared state.
pub async fn state(config: Config, registry: Registry, bots: Bots) -> Result<AppState, String> {
    let db = db::open(&config.database)
        .await
        .map_err(|e| format!("{}: {e}", config.database))?;
    let writer = config
        .database
        .starts_with("sqlite:")
        .then(|| Arc::new(Mutex::new(())));
    Ok(AppState {
        writer,
        db,
        registry: Arc::new(registry),
        bots: Arc::new(bots),
        live: Arc::new(Mutex::new(HashMap::new())),
        limiter: Arc::new(auth::Limiter::default()),
        config: Arc::new(config),
    })
}

/// Every route.
pub fn app(state: AppState) -> Router {
    Router::new()
        .route("/api/session", get(auth::session))
        .route("/api/signup", post(auth::signup))
        .route("/api/login", post(auth::login))
        .route("/api/logout", post(auth::logout))
        .route("/api/catalog", get(web::catalog))
        .route("/api/lobby", get(play::lobby))
        .route("/api/games", post(play::create))
        .route("/api/games/{id}", get(play::get))
        .route("/api/games/{id}/board", get(play::board))
        .route("/api/games/{id}/act", post(play::act))
        .route("/api/games/{id}/undo", post(play::undo))
        .route("/api/games/{id}/join", post(play::join))
        .route("/api/games/{id}/rematch", post(play::rematch))
        .route("/api/games/{id}/record", get(play::record))
        .route("/api/games/{id}/replay", get(play::replay))
        .route("/api/games/{id}/ws", get(play::ws))
        .route("/games/{game}/board.js", get(web::board_script))
        .route("/", get(web::index))
        .route("/app.js", get(web::app_js))
        .route("/app.css", get(web::app_css))
        .fallback(web::not_found)
        .with_state(state)
}

/// Runs the server until the process ends.
pub async fn serve(config: Config, registry: Registry, bots: Bots) -> Result<(), String> {
    let addr = config.addr;
    if config.secure_cookies && !addr.ip().is_loopback() {
        eprintln!(
            "muster serve: cookies are marked Secure: browsers reaching {addr} over plain HTTP (not localhost) will not keep a session; serve it behind HTTPS or pass --insecure-cookies"
        );
    }
    let state = state(config, registry, bots).await?;
    let resume = state.clone();
    tokio::spawn(async move {
        if let Err(e) = play::resume_bots(&resume).await {
            eprintln!("muster serve: resuming bots: {}", e.message);
        }
    });
    let listener = tokio::net::TcpListener::bind(addr)
        .await
        .map_err(|e| format!("{addr}: {e}"))?;
    eprintln!(
        "muster serve: listening on http://{}",
        listener.local_addr().map_err(|e| e.to_string())?
    );
    axum::serve(
        listener,
        app(state).into_make_service_with_connect_info::<SocketAddr>(),
    )
    .await
    .map_err(|e| e.to_string())
}
