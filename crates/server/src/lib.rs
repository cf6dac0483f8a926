//! The Muster play server: accounts, a lobby, games played over HTTP with live updates over
//! WebSocket, bots moving on the server, every game stored as its record plus a snapshot in
//! SQLite or PostgreSQL, and the browser client. See `docs/server.md`.

pub mod account;
pub mod auth;
pub mod chat;
pub mod clock;
pub mod db;
pub mod error;
pub mod history;
pub mod notify;
pub mod offers;
pub mod patch;
pub mod play;
pub mod ratings;
pub mod talk;
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
use std::collections::HashMap;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::Mutex;

/// Largest request body accepted.
pub const MAX_BODY: usize = 64 * 1024;

/// Server settings.
#[derive(Clone, Debug)]
pub struct Config {
    pub addr: SocketAddr,
    /// `sqlite://FILE` or `postgres://...` (SQLite needs a file: its writer and readers share it).
    pub database: String,
    /// Mark cookies `Secure` (on by default; browsers accept them on localhost over HTTP).
    pub secure_cookies: bool,
    /// How SQLite makes commits durable (`--sync`).
    pub sync: db::Sync,
    /// Connection and timing limits.
    pub limits: Limits,
    /// Mail and webhook notifications.
    pub notify: notify::Settings,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            addr: SocketAddr::from(([127, 0, 0, 1], 8080)),
            database: "sqlite://muster.db".into(),
            secure_cookies: true,
            sync: db::Sync::Normal,
            limits: Limits::default(),
            notify: notify::Settings::default(),
        }
    }
}

/// What keeps slow or idle clients from holding the server's connections (docs/server.md,
/// "Limits").
#[derive(Clone, Debug)]
pub struct Limits {
    /// A request's headers must arrive within this time of the connection opening (or of the
    /// previous answer, on a kept-alive connection).
    pub header_timeout: Duration,
    /// Each piece of a request body must arrive within this time of the previous one.
    pub body_timeout: Duration,
    /// Connections open at once; one more is answered 503 and closed.
    pub max_connections: usize,
    /// A WebSocket that answers nothing (not even a ping) for this long is closed.
    pub socket_idle: Duration,
    /// A finished game nobody has touched for this long leaves memory (loaded back on demand).
    pub finished_idle: Duration,
    /// Any game nobody has touched for this long leaves memory (loaded back on demand).
    pub game_idle: Duration,
    /// Threads bot searches may keep busy at once, over every game (issue 18): the bot pool's
    /// slots (default: the cores). A `hard` decision takes two.
    pub bot_threads: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            header_timeout: Duration::from_secs(10),
            body_timeout: Duration::from_secs(10),
            max_connections: default_max_connections(),
            socket_idle: Duration::from_secs(30),
            finished_idle: Duration::from_secs(60),
            game_idle: Duration::from_secs(15 * 60),
            bot_threads: std::thread::available_parallelism().map_or(1, |n| n.get()),
        }
    }
}

/// Connections at once: the process's file descriptor limit less a reserve for the database
/// and the listener, so that the cap, not the operating system, refuses the extra ones.
pub fn default_max_connections() -> usize {
    let soft = rustix::process::getrlimit(rustix::process::Resource::Nofile)
        .current
        .unwrap_or(1024);
    (soft.saturating_sub(64) as usize).clamp(16, 10_000)
}

/// What every handler shares.
#[derive(Clone)]
pub struct AppState {
    pub db: db::Db,
    pub registry: Arc<Registry>,
    pub bots: Arc<Bots>,
    pub live: Arc<Mutex<HashMap<String, play::LiveRef>>>,
    pub limiter: Arc<auth::Limiter>,
    pub sessions: Arc<auth::Sessions>,
    pub reads: Arc<auth::ReadLimiter>,
    /// The limits on password-reset requests and account mails.
    pub mails: Arc<auth::MailLimiter>,
    pub replays: Arc<play::ReplayCache>,
    /// Games whose bot task is running (so that none is started twice).
    pub bot_tasks: Arc<std::sync::Mutex<std::collections::HashSet<String>>>,
    /// The slots bot searches queue for.
    pub bot_pool: Arc<play::BotPool>,
    pub config: Arc<Config>,
    /// The notifications' queue and who looked at which game.
    pub notify: Arc<notify::Notifier>,
    /// History cursors (issue 16 §5).
    pub history: Arc<history::HistoryCache>,
    /// The game sockets open, by game: the spectator counts.
    pub watchers: Arc<history::Watchers>,
    /// Every account's latest vacation (time controls, issue 16 §2).
    pub vacations: Arc<clock::Vacations>,
    /// The ratings read or changed so far, and the lock that orders games' endings.
    pub ratings: Arc<ratings::Ratings>,
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

impl FromRequest<AppState> for Body {
    type Rejection = ApiError;
    async fn from_request(req: Request, state: &AppState) -> Result<Self, Self::Rejection> {
        let patience = state.config.limits.body_timeout;
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
        loop {
            let Ok(next) = tokio::time::timeout(patience, stream.next()).await else {
                return Err(ApiError::new(
                    StatusCode::REQUEST_TIMEOUT,
                    "timeout",
                    format!("the request body stalled for over {} s", patience.as_secs()),
                ));
            };
            let Some(chunk) = next else { break };
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

/// Reads a body that must be empty or `{}` (routes that take no members): anything else is
/// a clear 400.
pub fn parse_empty(body: &[u8]) -> ApiResult<()> {
    #[derive(serde::Deserialize)]
    #[serde(deny_unknown_fields)]
    struct Empty {}
    if !body.is_empty() {
        let _: Empty = parse_body(body)?;
    }
    Ok(())
}

/// Opens the database and builds the shared state.
pub async fn state(config: Config, registry: Registry, bots: Bots) -> Result<AppState, String> {
    let db = db::open(&config.database, config.sync)
        .await
        .map_err(|e| format!("{}: {e}", config.database))?;
    let clashes = db::ensure_unique_names(&db)
        .await
        .map_err(|e| format!("{}: {e}", config.database))?;
    for names in clashes {
        eprintln!(
            "muster serve: the accounts {} differ only in case; names are unique without regard to case, so rename all but one (set name and name_key = LOWER(name) in users) and restart",
            names.join(", ")
        );
    }
    let (notifier, queue) = notify::Notifier::new(config.notify.clone());
    let vacations = clock::Vacations::load(&db, notifier.settings().now())
        .await
        .map_err(|e| format!("{}: {e}", config.database))?;
    let state = AppState {
        db,
        registry: Arc::new(registry),
        bots: Arc::new(bots),
        live: Arc::new(Mutex::new(HashMap::new())),
        limiter: Arc::new(auth::Limiter::default()),
        sessions: Arc::default(),
        reads: Arc::new(auth::ReadLimiter::default()),
        mails: Arc::default(),
        replays: Arc::new(play::ReplayCache::default()),
        bot_tasks: Arc::default(),
        bot_pool: Arc::new(play::BotPool::new(config.limits.bot_threads)),
        config: Arc::new(config),
        notify: Arc::new(notifier),
        history: Arc::default(),
        watchers: Arc::default(),
        vacations: Arc::new(vacations),
        ratings: Arc::default(),
    };
    tokio::spawn(notify::run(state.clone(), queue));
    Ok(state)
}

/// Every route.
pub fn app(state: AppState) -> Router {
    Router::new()
        .route("/api/session", get(auth::session))
        .route("/api/signup", post(auth::signup))
        .route("/api/login", post(auth::login))
        .route("/api/logout", post(auth::logout))
        .route(
            "/api/account/notifications",
            get(account::get_notifications).post(account::set_notifications),
        )
        .route("/api/unsubscribe", get(account::unsubscribe))
        .route("/api/account", get(account::get_account))
        .route(
            "/api/account/confirm",
            get(account::confirm).post(account::resend_confirmation),
        )
        .route("/api/account/password", post(account::change_password))
        .route("/api/account/delete", post(account::delete))
        .route("/api/password-reset", post(account::reset_request))
        .route(
            "/api/password-reset/complete",
            post(account::reset_complete),
        )
        .route("/api/users/{name}", get(account::profile))
        .route(
            "/api/account/vacation",
            get(clock::get_vacation).post(clock::vacation),
        )
        .route("/api/account/vacation/end", post(clock::end_vacation))
        .route("/api/catalog", get(web::catalog))
        .route("/api/ratings/{game}", get(ratings::leaderboard))
        .route("/api/lobby", get(play::lobby))
        .route("/api/games", post(play::create))
        .route("/api/games/live", get(history::live_games))
        .route("/api/games/finished", get(history::finished_games))
        .route("/api/games/{id}", get(play::get))
        .route("/api/games/{id}/history", get(history::history))
        .route("/api/games/{id}/board", get(play::board))
        .route("/api/games/{id}/act", post(play::act))
        .route("/api/games/{id}/undo", post(play::undo))
        .route("/api/games/{id}/preview", post(play::preview))
        .route("/api/games/{id}/join", post(play::join))
        .route("/api/games/{id}/resign", post(offers::resign))
        .route("/api/games/{id}/withdraw", post(offers::withdraw))
        .route(
            "/api/games/{id}/offers",
            get(offers::get).post(offers::make),
        )
        .route("/api/games/{id}/offers/accept", post(offers::accept))
        .route("/api/games/{id}/offers/decline", post(offers::decline))
        .route("/api/games/{id}/offers/withdraw", post(offers::take_back))
        .route("/api/games/{id}/chat", get(chat::get).post(chat::post))
        .route("/api/games/{id}/chat/seen", post(chat::seen))
        .route(
            "/api/games/{id}/notes",
            get(chat::notes).post(chat::save_notes),
        )
        .route("/api/account/mutes", get(chat::mutes).post(chat::mute))
        .route("/api/games/{id}/record", get(play::record))
        .route("/api/games/{id}/replay", get(play::replay))
        .route("/api/games/{id}/ws", get(play::ws))
        .route("/games/{game}/board.js", get(web::board_script))
        .route("/", get(web::index))
        .route("/app.js", get(web::app_js))
        .route("/app.css", get(web::app_css))
        .fallback(web::not_found)
        .method_not_allowed_fallback(web::method_not_allowed)
        .layer(axum::middleware::map_response(web::security_headers))
        .with_state(state)
}

/// Runs the server until the process ends: start-up checks, then [`serve_on`].
pub async fn serve(config: Config, registry: Registry, bots: Bots) -> Result<(), String> {
    let addr = config.addr;
    if config.secure_cookies && !addr.ip().is_loopback() {
        eprintln!(
            "muster serve: cookies are marked Secure: browsers reaching {addr} over plain HTTP (not localhost) will not keep a session; serve it behind HTTPS or pass --insecure-cookies"
        );
    }
    let state = state(config, registry, bots).await?;
    if let Some(warning) = state
        .db
        .check_writable()
        .await
        .map_err(|e| format!("{}: {e}", state.config.database))?
    {
        eprintln!("muster serve: warning: {warning}");
    }
    let listener = tokio::net::TcpListener::bind(addr)
        .await
        .map_err(|e| format!("{addr}: {e}"))?;
    eprintln!(
        "muster serve: listening on http://{}",
        listener.local_addr().map_err(|e| e.to_string())?
    );
    serve_on(listener, state).await;
    Ok(())
}

/// Serves the app on a bound listener with the limits of `state.config.limits`, and
/// supervises the bots (resumed at once, then watched). Tests and the load test use this too.
///
/// At the connection cap, the oldest connection that is between requests (still sending its
/// headers, or kept alive and idle) is closed to make room, so that stalled clients cannot
/// starve the others; only when every connection is inside a request is the newcomer refused,
/// with a JSON 503.
pub async fn serve_on(listener: tokio::net::TcpListener, state: AppState) {
    use hyper_util::rt::{TokioIo, TokioTimer};
    use std::sync::atomic::{AtomicUsize, Ordering};
    use tower::ServiceExt;
    play::supervise_bots(state.clone());
    clock::watch(state.clone());
    let limits = state.config.limits.clone();
    let slots = Arc::new(tokio::sync::Semaphore::new(limits.max_connections));
    let conns: Arc<std::sync::Mutex<Connections>> = Arc::default();
    let router = app(state);
    let mut next_id = 0u64;
    loop {
        let (stream, peer) = match listener.accept().await {
            Ok(c) => c,
            Err(e) => {
                // Out of descriptors, or a connection reset before it was taken: wait, go on.
                eprintln!("muster serve: accept: {e}");
                tokio::time::sleep(Duration::from_millis(100)).await;
                continue;
            }
        };
        let _ = stream.set_nodelay(true);
        let slot = match slots.clone().try_acquire_owned() {
            Ok(slot) => slot,
            Err(_) => {
                let evicted = conns
                    .lock()
                    .unwrap_or_else(|p| p.into_inner())
                    .evict_oldest_idle();
                let waited = if evicted {
                    tokio::time::timeout(Duration::from_millis(200), slots.clone().acquire_owned())
                        .await
                        .ok()
                        .and_then(Result::ok)
                } else {
                    None
                };
                match waited {
                    Some(slot) => slot,
                    None => {
                        tokio::spawn(refuse_connection(stream));
                        continue;
                    }
                }
            }
        };
        next_id += 1;
        let id = next_id;
        let in_request = Arc::new(AtomicUsize::new(0));
        let (kill, killed) = tokio::sync::oneshot::channel::<()>();
        conns
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .open
            .insert(id, (kill, in_request.clone()));
        let router = router.clone();
        let conns = conns.clone();
        let header_timeout = limits.header_timeout;
        tokio::spawn(async move {
            let service = hyper::service::service_fn(move |mut req: hyper::Request<_>| {
                req.extensions_mut()
                    .insert(axum::extract::ConnectInfo(peer));
                let busy = InRequest::new(in_request.clone());
                let call = router.clone().oneshot(req.map(axum::body::Body::new));
                async move {
                    let answer = call.await;
                    drop(busy);
                    answer
                }
            });
            let connection = hyper::server::conn::http1::Builder::new()
                .timer(TokioTimer::new())
                .header_read_timeout(header_timeout)
                .serve_connection(TokioIo::new(stream), service)
                .with_upgrades();
            tokio::select! {
                _ = connection => {}
                _ = killed => {}
            }
            conns
                .lock()
                .unwrap_or_else(|p| p.into_inner())
                .open
                .remove(&id);
            drop(slot);
        });
    }

    /// Open connections, oldest first: how to close each, and how many requests it is serving.
    #[derive(Default)]
    struct Connections {
        open: std::collections::BTreeMap<u64, (tokio::sync::oneshot::Sender<()>, Arc<AtomicUsize>)>,
    }

    impl Connections {
        fn evict_oldest_idle(&mut self) -> bool {
            let Some(id) = self
                .open
                .iter()
                .find(|(_, (_, n))| n.load(Ordering::Relaxed) == 0)
                .map(|(id, _)| *id)
            else {
                return false;
            };
            if let Some((kill, _)) = self.open.remove(&id) {
                let _ = kill.send(());
            }
            true
        }
    }

    /// Counts a request in progress on its connection while it lives.
    struct InRequest(Arc<AtomicUsize>);

    impl InRequest {
        fn new(n: Arc<AtomicUsize>) -> Self {
            n.fetch_add(1, Ordering::Relaxed);
            InRequest(n)
        }
    }

    impl Drop for InRequest {
        fn drop(&mut self) {
            self.0.fetch_sub(1, Ordering::Relaxed);
        }
    }
}

/// The answer to a connection over the cap: a JSON 503, then the connection closes.
async fn refuse_connection(mut stream: tokio::net::TcpStream) {
    use tokio::io::AsyncWriteExt;
    let body = r#"{"ok":false,"error":{"kind":"busy","message":"the server has too many open connections; try again in a moment"}}"#;
    let answer = format!(
        "HTTP/1.1 503 Service Unavailable\r\ncontent-type: application/json\r\ncontent-length: {}\r\nretry-after: 1\r\nconnection: close\r\n\r\n{body}",
        body.len()
    );
    let _ = tokio::time::timeout(Duration::from_secs(2), stream.write_all(answer.as_bytes())).await;
}
