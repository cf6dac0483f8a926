//! Accounts: sign-up, log-in, log-out; argon2id password hashes; session cookies; the CSRF
//! double-submit check; log-in rate limiting.

use crate::db::{Stmt, WriteError};
use crate::error::{ApiError, ApiResult};
use crate::{AppState, Body, now, parse_body};
use argon2::password_hash::phc::PasswordHash;
use argon2::{Argon2, PasswordHasher, PasswordVerifier};
use axum::Json;
use axum::extract::{FromRequestParts, State};
use axum::http::header::{COOKIE, SET_COOKIE};
use axum::http::request::Parts;
use axum::http::{HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use serde::Deserialize;
use serde_json::json;
use sha2::{Digest, Sha256};
use sqlx::Row;
use std::collections::HashMap;
use std::net::{IpAddr, SocketAddr};
use std::sync::Mutex;
use std::time::{Duration, Instant};

pub const SESSION_COOKIE: &str = "muster_session";
pub const CSRF_COOKIE: &str = "muster_csrf";
pub const CSRF_HEADER: &str = "x-csrf-token";
const SESSION_DAYS: i64 = 30;

/// 256 random bits as hex.
pub fn random_token() -> String {
    let mut bytes = [0u8; 32];
    // The OS generator failing leaves no safe fallback; the server cannot run without it.
    getrandom::fill(&mut bytes).expect("the operating system's random generator");
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// A random 64-bit number (game seeds).
pub fn random_u64() -> u64 {
    let mut bytes = [0u8; 8];
    getrandom::fill(&mut bytes).expect("the operating system's random generator");
    u64::from_le_bytes(bytes)
}

pub fn hash_token(token: &str) -> String {
    Sha256::digest(token.as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// A cookie's value from the request headers.
pub fn cookie(headers: &HeaderMap, name: &str) -> Option<String> {
    headers
        .get_all(COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .find_map(|line| {
            line.split(';').find_map(|kv| {
                let (k, v) = kv.trim().split_once('=')?;
                (k == name).then(|| v.to_string())
            })
        })
}

/// The logged-in user, if any.
#[derive(Clone, Debug)]
pub struct User {
    pub id: String,
    pub name: String,
}

/// Extracts the user from the session cookie (or none).
pub struct MaybeUser(pub Option<User>);

impl FromRequestParts<AppState> for MaybeUser {
    type Rejection = ApiError;
    async fn from_request_parts(
        parts: &mut Parts,
        state: &AppState,
    ) -> Result<Self, Self::Rejection> {
        let Some(token) = cookie(&parts.headers, SESSION_COOKIE) else {
            return Ok(MaybeUser(None));
        };
        Ok(MaybeUser(session_user(state, &hash_token(&token)).await?))
    }
}

/// The user of the session whose token hashes to `key`, if it is live: from memory, or read
/// once from the database.
pub async fn session_user(state: &AppState, key: &str) -> ApiResult<Option<User>> {
    if let Some(user) = state.sessions.get(key) {
        return Ok(Some(user));
    }
    let epoch = state.sessions.epoch();
    let row = sqlx::query(
        "SELECT u.id, u.name, s.expires FROM sessions s JOIN users u ON u.id = s.user_id WHERE s.token = $1 AND s.expires > $2 AND u.deleted IS NULL",
    )
    .bind(key)
    .bind(now())
    .fetch_optional(&state.db.pool)
    .await?;
    Ok(match row {
        Some(r) => {
            let user = User {
                id: r.try_get(0)?,
                name: r.try_get(1)?,
            };
            // Not cached when sessions were ended meanwhile (the row read may be one of them).
            state
                .sessions
                .put_since(key.to_string(), user.clone(), r.try_get(2)?, epoch);
            Some(user)
        }
        None => None,
    })
}

/// Extracts the user, refusing anonymous requests.
pub struct RequireUser(pub User);

impl FromRequestParts<AppState> for RequireUser {
    type Rejection = ApiError;
    async fn from_request_parts(
        parts: &mut Parts,
        state: &AppState,
    ) -> Result<Self, Self::Rejection> {
        match MaybeUser::from_request_parts(parts, state).await?.0 {
            Some(u) => Ok(RequireUser(u)),
            None => Err(ApiError::unauthenticated()),
        }
    }
}

/// The client's address, when the server knows it.
pub struct ClientAddr(pub Option<IpAddr>);

impl<S: Send + Sync> FromRequestParts<S> for ClientAddr {
    type Rejection = std::convert::Infallible;
    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Self, Self::Rejection> {
        Ok(ClientAddr(
            parts
                .extensions
                .get::<axum::extract::ConnectInfo<SocketAddr>>()
                .map(|c| c.0.ip()),
        ))
    }
}

/// The CSRF check for every state-changing request: the header must equal the cookie.
pub fn check_csrf(headers: &HeaderMap) -> ApiResult<()> {
    let cookie = cookie(headers, CSRF_COOKIE).unwrap_or_default();
    let header = headers
        .get(CSRF_HEADER)
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default();
    if cookie.len() < 32 || header != cookie {
        return Err(ApiError::new(
            StatusCode::FORBIDDEN,
            "csrf",
            "missing or wrong CSRF token: fetch /api/session and send its csrf value in X-CSRF-Token",
        ));
    }
    Ok(())
}

/// Log-in attempts within [`WINDOW`] for one name from one address; one more is refused (429)
/// before its password is looked at.
pub const PAIR_LIMIT: usize = 10;
/// Attempts within [`WINDOW`] from one address, whatever the names; one more is refused (429).
pub const ADDR_LIMIT: usize = 100;
/// Failed attempts for one name from all addresses within [`WINDOW`] after which every further
/// attempt for that name is slowed (never refused, so that nobody can lock the owner out).
pub const NAME_SLOW_AFTER: usize = 10;
/// The longest such slowing.
pub const NAME_MAX_DELAY: Duration = Duration::from_secs(4);
const WINDOW: Duration = Duration::from_secs(300);

/// Moments by key within a sliding window of `span`, in a map that drops expired keys once it
/// holds more than 100,000 (bounded memory under a flood of distinct names or addresses).
struct Windows<K> {
    span: Duration,
    map: HashMap<K, Vec<Instant>>,
}

impl<K: Eq + std::hash::Hash + Clone> Windows<K> {
    fn new(span: Duration) -> Self {
        Windows {
            span,
            map: HashMap::new(),
        }
    }

    /// The key's moments still within the window, oldest first.
    fn recent(&mut self, key: &K, now: Instant) -> &mut Vec<Instant> {
        let span = self.span;
        let live = |t: &Instant| now.duration_since(*t) < span;
        if self.map.len() > 100_000 {
            self.map.retain(|_, list| {
                list.retain(live);
                !list.is_empty()
            });
        }
        let list = self.map.entry(key.clone()).or_default();
        list.retain(live);
        list
    }
}

/// Log-in attempts by key (a name and address pair, an address, a name). An attempt is counted
/// when it starts, before the password is checked, so that guesses sent at once cannot slip
/// past the limit; a successful one is taken back. Policy in docs/server.md.
pub struct Limiter {
    attempts: Mutex<Windows<String>>,
}

impl Default for Limiter {
    fn default() -> Self {
        Limiter {
            attempts: Mutex::new(Windows::new(WINDOW)),
        }
    }
}

/// An attempt counted by [`Limiter::begin`].
pub struct Attempt {
    keys: [String; 3],
    at: Instant,
    /// How long to wait before checking the password (a name under attack).
    pub delay: Duration,
}

impl Limiter {
    /// Counts an attempt for `name` from `addr`, or refuses it with the time until the next
    /// one may be made.
    pub fn begin(&self, name: &str, addr: &str) -> Result<Attempt, Duration> {
        let now = Instant::now();
        let keys = [
            format!("pair:{name}@{addr}"),
            format!("addr:{addr}"),
            format!("name:{name}"),
        ];
        let mut windows = self.attempts.lock().unwrap_or_else(|p| p.into_inner());
        for (key, limit) in [(&keys[0], PAIR_LIMIT), (&keys[1], ADDR_LIMIT)] {
            let list = windows.recent(key, now);
            if list.len() >= limit {
                let wait = WINDOW.saturating_sub(now.duration_since(list[0]));
                return Err(wait.max(Duration::from_secs(1)));
            }
        }
        let over = windows
            .recent(&keys[2], now)
            .len()
            .saturating_sub(NAME_SLOW_AFTER - 1);
        let delay = if over == 0 {
            Duration::ZERO
        } else {
            (Duration::from_millis(250) * 2u32.saturating_pow(over.min(8) as u32 - 1))
                .min(NAME_MAX_DELAY)
        };
        for k in &keys {
            windows.recent(k, now).push(now);
        }
        Ok(Attempt {
            keys,
            at: now,
            delay,
        })
    }

    /// Takes back an attempt that succeeded (or that the server, not the password, failed).
    pub fn take_back(&self, attempt: Attempt) {
        let mut windows = self.attempts.lock().unwrap_or_else(|p| p.into_inner());
        for k in &attempt.keys {
            if let Some(list) = windows.map.get_mut(k)
                && let Some(i) = list.iter().position(|t| *t == attempt.at)
            {
                list.remove(i);
            }
        }
    }
}

/// Expensive reads (replays, records) per address within a minute.
pub const READ_LIMIT: usize = 60;

/// A per-address limit on expensive reads.
pub struct ReadLimiter {
    reads: Mutex<Windows<IpAddr>>,
}

impl Default for ReadLimiter {
    fn default() -> Self {
        ReadLimiter {
            reads: Mutex::new(Windows::new(Duration::from_secs(60))),
        }
    }
}

impl ReadLimiter {
    /// Counts a read from `addr`; refuses it (429) past [`READ_LIMIT`] a minute.
    pub fn check(&self, addr: Option<IpAddr>) -> ApiResult<()> {
        let Some(addr) = addr else { return Ok(()) };
        let now = Instant::now();
        let mut windows = self.reads.lock().unwrap_or_else(|p| p.into_inner());
        let list = windows.recent(&addr, now);
        if list.len() >= READ_LIMIT {
            return Err(ApiError::rate_limited(format!(
                "at most {READ_LIMIT} replays and records a minute from one address; wait a little"
            )));
        }
        list.push(now);
        Ok(())
    }
}

/// A hash of a password nobody has, checked for unknown names so that a log-in takes as long
/// whether or not the name exists.
fn dummy_hash() -> &'static str {
    static DUMMY: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    DUMMY.get_or_init(|| {
        Argon2::default()
            .hash_password(random_token().as_bytes())
            .map(|h| h.to_string())
            .unwrap_or_default()
    })
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Credentials {
    name: String,
    password: String,
}

pub fn check_name(name: &str) -> ApiResult<()> {
    let ok = (3..=24).contains(&name.chars().count())
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_');
    if ok {
        Ok(())
    } else {
        Err(ApiError::bad_request(
            "a name is 3 to 24 letters, digits, '-' or '_'",
        ))
    }
}

fn secure(state: &AppState) -> &'static str {
    if state.config.secure_cookies {
        "; Secure"
    } else {
        ""
    }
}

fn session_cookie(state: &AppState, token: &str, max_age: i64) -> HeaderValue {
    HeaderValue::from_str(&format!(
        "{SESSION_COOKIE}={token}; Path=/; HttpOnly; SameSite=Lax; Max-Age={max_age}{}",
        secure(state)
    ))
    .unwrap_or(HeaderValue::from_static(""))
}

fn csrf_cookie(state: &AppState, token: &str) -> HeaderValue {
    HeaderValue::from_str(&format!(
        "{CSRF_COOKIE}={token}; Path=/; SameSite=Strict{}",
        secure(state)
    ))
    .unwrap_or(HeaderValue::from_static(""))
}

/// An answer that gives the client a new CSRF token (at log-in, sign-up and log-out, so that
/// a token seen before the session changed is worth nothing after it).
fn with_new_csrf(state: &AppState, mut body: serde_json::Value) -> Response {
    let csrf = random_token();
    body["csrf"] = json!(csrf);
    let mut response = Json(body).into_response();
    response
        .headers_mut()
        .append(SET_COOKIE, csrf_cookie(state, &csrf));
    response
}

/// A new session for `user`: its token, and the statement that stores it (in the caller's
/// write). Call [`Sessions::put`] once that write is stored.
fn new_session(user: &User) -> (String, Stmt, i64) {
    let token = random_token();
    let expires = now() + SESSION_DAYS * 86_400;
    let stmt = Stmt::new(
        "INSERT INTO sessions (token, user_id, created, expires) VALUES ($1, $2, $3, $4)",
        vec![
            hash_token(&token).into(),
            (&user.id).into(),
            now().into(),
            expires.into(),
        ],
    );
    (token, stmt, expires)
}

fn session_answer(state: &AppState, user: &User, token: &str) -> Response {
    let mut response = with_new_csrf(state, json!({"user": {"name": user.name}}));
    response.headers_mut().append(
        SET_COOKIE,
        session_cookie(state, token, SESSION_DAYS * 86_400),
    );
    response
}

/// `GET /api/session`
pub async fn session(
    State(state): State<AppState>,
    headers: HeaderMap,
    MaybeUser(user): MaybeUser,
) -> Response {
    let existing = cookie(&headers, CSRF_COOKIE)
        .filter(|c| c.len() >= 32 && c.bytes().all(|b| b.is_ascii_hexdigit()));
    let csrf = existing.clone().unwrap_or_else(random_token);
    let mut response = Json(json!({
        "user": user.map(|u| json!({"name": u.name})),
        "csrf": csrf,
    }))
    .into_response();
    if existing.is_none() {
        response
            .headers_mut()
            .append(SET_COOKIE, csrf_cookie(&state, &csrf));
    }
    response
}

/// The key that makes names unique without regard to case.
pub fn name_key(name: &str) -> String {
    name.to_ascii_lowercase()
}

fn name_taken() -> ApiError {
    ApiError::new(StatusCode::CONFLICT, "name_taken", "that name is taken")
}

/// `POST /api/signup`
pub async fn signup(
    State(state): State<AppState>,
    headers: HeaderMap,
    Body(body): Body,
) -> ApiResult<Response> {
    check_csrf(&headers)?;
    let c: Credentials = parse_body(&body)?;
    check_name(&c.name)?;
    check_password(&c.password)?;
    let key = name_key(&c.name);
    let hash = hash_password(&c.password).await?;
    let user = User {
        id: random_token(),
        name: c.name.clone(),
    };
    // The name is checked inside the write itself: the unique index says the same, but a
    // database whose old names clash has no index yet (see `db::ensure_unique_names`).
    let (token, session, expires) = new_session(&user);
    let stored = state
        .db
        .write(vec![
            Stmt::new(
                "INSERT INTO users (id, name, name_key, pass_hash, created)
                 SELECT $1, $2, $3, $4, $5 WHERE NOT EXISTS (SELECT 1 FROM users WHERE name_key = $3)",
                vec![
                    (&user.id).into(),
                    (&user.name).into(),
                    (&key).into(),
                    hash.into(),
                    now().into(),
                ],
            )
            .expect_rows(1, "name_taken"),
            session,
        ])
        .await;
    match stored {
        Err(WriteError::Unmet(_) | WriteError::Unique) => return Err(name_taken()),
        other => other?,
    }
    state
        .sessions
        .put(hash_token(&token), user.clone(), expires);
    Ok(session_answer(&state, &user, &token))
}

/// `POST /api/login` (the limits: [`Limiter`])
pub async fn login(
    State(state): State<AppState>,
    ClientAddr(addr): ClientAddr,
    headers: HeaderMap,
    Body(body): Body,
) -> ApiResult<Response> {
    check_csrf(&headers)?;
    let c: Credentials = parse_body(&body)?;
    let key = name_key(&c.name);
    let addr = addr.map(|a| a.to_string()).unwrap_or_default();
    let attempt = state.limiter.begin(&key, &addr).map_err(|wait| {
        ApiError::rate_limited(format!(
            "too many log-in attempts for this name from this address; try again in {} s",
            wait.as_secs().max(1)
        ))
    })?;
    let rows = match sqlx::query(
        "SELECT id, name, pass_hash FROM users WHERE name_key = $1 AND deleted IS NULL",
    )
    .bind(&key)
    .fetch_all(&state.db.pool)
    .await
    {
        Ok(rows) => rows,
        Err(e) => {
            state.limiter.take_back(attempt);
            return Err(e.into());
        }
    };
    let mut found: Vec<(String, String, String)> = rows
        .iter()
        .map(|r| Ok((r.try_get(0)?, r.try_get(1)?, r.try_get(2)?)))
        .collect::<Result<_, sqlx::Error>>()?;
    // Names that clashed before names were unique without regard to case: the exact one.
    found.sort_by_key(|(_, name, _)| *name != c.name);
    let stored = found.into_iter().next();
    if !attempt.delay.is_zero() {
        tokio::time::sleep(attempt.delay).await;
    }
    let password = c.password.clone();
    // Unknown names are checked against a dummy hash: the answer takes as long either way.
    let hash = stored
        .as_ref()
        .map_or_else(|| dummy_hash().to_string(), |s| s.2.clone());
    let known = stored.is_some();
    let slot = match hashing_slot().await {
        Ok(s) => s,
        Err(e) => {
            state.limiter.take_back(attempt);
            return Err(e);
        }
    };
    let ok = tokio::task::spawn_blocking(move || {
        let ok = PasswordHash::new(&hash)
            .map(|parsed| {
                Argon2::default()
                    .verify_password(password.as_bytes(), &parsed)
                    .is_ok()
            })
            .unwrap_or(false);
        ok && known
    })
    .await
    .map_err(ApiError::internal)?;
    drop(slot);
    let Some((id, name, _)) = stored.filter(|_| ok) else {
        return Err(ApiError::new(
            StatusCode::UNAUTHORIZED,
            "unauthenticated",
            "wrong name or password",
        ));
    };
    let user = User { id, name };
    let (token, session, expires) = new_session(&user);
    let stored_session = state.db.write(vec![session]).await.map(|()| {
        state
            .sessions
            .put(hash_token(&token), user.clone(), expires);
        token
    });
    state.limiter.take_back(attempt);
    Ok(session_answer(&state, &user, &stored_session?))
}

/// An answer that ends the caller's session in the browser (the cookie cleared, a new CSRF
/// token): after a log-out, and after the account was deleted.
pub fn signed_out(state: &AppState, body: serde_json::Value) -> Response {
    let mut response = with_new_csrf(state, body);
    response
        .headers_mut()
        .append(SET_COOKIE, session_cookie(state, "", 0));
    response
}

/// `POST /api/logout`: the session is deleted before the answer says so; if the database
/// cannot be written, the answer is 503 and the session stays as it was.
pub async fn logout(State(state): State<AppState>, headers: HeaderMap) -> ApiResult<Response> {
    check_csrf(&headers)?;
    if let Some(token) = cookie(&headers, SESSION_COOKIE) {
        let key = hash_token(&token);
        state
            .db
            .write(vec![Stmt::new(
                "DELETE FROM sessions WHERE token = $1",
                vec![(&key).into()],
            )])
            .await?;
        state.sessions.remove(&key);
    }
    Ok(signed_out(&state, json!({"ok": true})))
}

/// Sessions looked up or made since the start, so that a request costs no database read: a
/// log-out removes its entry once the database has, and an entry past its expiry is not used.
#[derive(Default)]
pub struct Sessions {
    by_token: Mutex<HashMap<String, (User, i64)>>,
    /// Counts the times sessions were ended by account (a password changed, an account
    /// deleted): a session read from the database before one of them is not cached.
    ended: std::sync::atomic::AtomicU64,
}

/// Sessions kept in memory at most; past that, expired ones go, then all (they are read back
/// from the database as they are used).
pub const SESSION_CACHE: usize = 100_000;

impl Sessions {
    fn get(&self, key: &str) -> Option<User> {
        let map = self.by_token.lock().unwrap_or_else(|p| p.into_inner());
        map.get(key)
            .filter(|(_, expires)| *expires > now())
            .map(|(u, _)| u.clone())
    }

    fn put(&self, key: String, user: User, expires: i64) {
        let mut map = self.by_token.lock().unwrap_or_else(|p| p.into_inner());
        Self::insert(&mut map, key, user, expires);
    }

    fn insert(map: &mut HashMap<String, (User, i64)>, key: String, user: User, expires: i64) {
        if map.len() >= SESSION_CACHE {
            let t = now();
            map.retain(|_, (_, e)| *e > t);
            if map.len() >= SESSION_CACHE {
                map.clear();
            }
        }
        map.insert(key, (user, expires));
    }

    fn remove(&self, key: &str) {
        let mut map = self.by_token.lock().unwrap_or_else(|p| p.into_inner());
        map.remove(key);
    }

    fn epoch(&self) -> u64 {
        self.ended.load(std::sync::atomic::Ordering::SeqCst)
    }

    /// [`Sessions::put`], unless sessions were ended by account since `epoch`.
    fn put_since(&self, key: String, user: User, expires: i64, epoch: u64) {
        let mut map = self.by_token.lock().unwrap_or_else(|p| p.into_inner());
        if self.epoch() != epoch {
            return;
        }
        Self::insert(&mut map, key, user, expires);
    }

    /// Forgets every session of the account `user_id` but the one whose token hashes to
    /// `keep` (call once the database rows are deleted).
    pub fn end_account(&self, user_id: &str, keep: Option<&str>) {
        let mut map = self.by_token.lock().unwrap_or_else(|p| p.into_inner());
        self.ended.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        map.retain(|k, (u, _)| u.id != user_id || Some(k.as_str()) == keep);
    }
}

/// Password hashes computed at once at most. Each takes argon2's working memory (19 MiB) for
/// its ~tens of milliseconds; without a bound, a burst of sign-ups or log-ins would take that
/// much per request (hundreds of MiB) and leave the allocator holding it.
pub const HASHING_AT_ONCE: usize = 2;

/// Waits for one of the [`HASHING_AT_ONCE`] hashing slots (in arrival order).
pub async fn hashing_slot() -> ApiResult<tokio::sync::SemaphorePermit<'static>> {
    static SLOTS: tokio::sync::Semaphore = tokio::sync::Semaphore::const_new(HASHING_AT_ONCE);
    SLOTS.acquire().await.map_err(ApiError::internal)
}

/// The rule for a new password (sign-up, change, reset).
pub fn check_password(password: &str) -> ApiResult<()> {
    if !(8..=200).contains(&password.chars().count()) {
        return Err(ApiError::bad_request("a password is 8 to 200 characters"));
    }
    Ok(())
}

/// An argon2id hash of a new password, in one of the hashing slots.
pub async fn hash_password(password: &str) -> ApiResult<String> {
    let password = password.to_string();
    let _slot = hashing_slot().await?;
    tokio::task::spawn_blocking(move || {
        Argon2::default()
            .hash_password(password.as_bytes())
            .map(|h| h.to_string())
            .map_err(|e| ApiError::internal(e.to_string()))
    })
    .await
    .map_err(ApiError::internal)?
}

/// Whether `password` matches the stored `hash` (false for a hash that is not one, as a
/// deleted account's), in one of the hashing slots.
pub async fn password_matches(hash: &str, password: &str) -> ApiResult<bool> {
    let (hash, password) = (hash.to_string(), password.to_string());
    let _slot = hashing_slot().await?;
    tokio::task::spawn_blocking(move || {
        PasswordHash::new(&hash)
            .map(|parsed| {
                Argon2::default()
                    .verify_password(password.as_bytes(), &parsed)
                    .is_ok()
            })
            .unwrap_or(false)
    })
    .await
    .map_err(ApiError::internal)
}

/// Password-reset requests within an hour from one address; one more is refused (429).
pub const RESET_ADDR_LIMIT: usize = 10;
/// Account mails (reset and confirmation links) per account within an hour; more are not
/// sent (the answer does not change, so that it tells nothing about the account).
pub const ACCOUNT_MAIL_LIMIT: usize = 5;

/// The limits on password-reset requests and account mails, in the style of [`Limiter`].
pub struct MailLimiter {
    windows: Mutex<Windows<String>>,
}

impl Default for MailLimiter {
    fn default() -> Self {
        MailLimiter {
            windows: Mutex::new(Windows::new(Duration::from_secs(3600))),
        }
    }
}

impl MailLimiter {
    /// Counts a reset request from `addr`; refuses it past [`RESET_ADDR_LIMIT`] an hour.
    pub fn request(&self, addr: Option<IpAddr>) -> ApiResult<()> {
        let Some(addr) = addr else { return Ok(()) };
        let now = Instant::now();
        let mut w = self.windows.lock().unwrap_or_else(|p| p.into_inner());
        let list = w.recent(&format!("addr:{addr}"), now);
        if list.len() >= RESET_ADDR_LIMIT {
            return Err(ApiError::rate_limited(format!(
                "at most {RESET_ADDR_LIMIT} password-reset requests an hour from one address; wait a little"
            )));
        }
        list.push(now);
        Ok(())
    }

    /// Counts an account mail for `user_id`; false past [`ACCOUNT_MAIL_LIMIT`] an hour.
    pub fn mail(&self, user_id: &str) -> bool {
        let now = Instant::now();
        let mut w = self.windows.lock().unwrap_or_else(|p| p.into_inner());
        let list = w.recent(&format!("user:{user_id}"), now);
        if list.len() >= ACCOUNT_MAIL_LIMIT {
            return false;
        }
        list.push(now);
        true
    }
}
