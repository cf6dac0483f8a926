//! Accounts: sign-up, log-in, log-out; argon2id password hashes; session cookies; the CSRF
//! double-submit check; log-in rate limiting.

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
/// Failed log-ins allowed per name and per address within [`WINDOW`].
pub const MAX_FAILURES: usize = 10;
const WINDOW: Duration = Duration::from_secs(300);

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

fn hash_token(token: &str) -> String {
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
        let row = sqlx::query(
            "SELECT u.id, u.name FROM sessions s JOIN users u ON u.id = s.user_id WHERE s.token = $1 AND s.expires > $2",
        )
        .bind(hash_token(&token))
        .bind(now())
        .fetch_optional(&state.db)
        .await?;
        let user = match row {
            Some(r) => Some(User {
                id: r.try_get(0)?,
                name: r.try_get(1)?,
            }),
            None => None,
        };
        Ok(MaybeUser(user))
    }
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

/// Failed log-ins by key (a name or an address).
#[derive(Default)]
pub struct Limiter {
    failures: Mutex<HashMap<String, Vec<Instant>>>,
}

impl Limiter {
    fn blocked(&self, keys: &[String]) -> bool {
        let mut map = self.failures.lock().unwrap_or_else(|p| p.into_inner());
        let cutoff = Instant::now() - WINDOW;
        keys.iter().any(|k| {
            let list = map.entry(k.clone()).or_default();
            list.retain(|t| *t > cutoff);
            list.len() >= MAX_FAILURES
        })
    }
    fn fail(&self, keys: &[String]) {
        let mut map = self.failures.lock().unwrap_or_else(|p| p.into_inner());
        if map.len() > 100_000 {
            map.clear(); // bounded memory under a flood of distinct names
        }
        for k in keys {
            map.entry(k.clone()).or_default().push(Instant::now());
        }
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Credentials {
    name: String,
    password: String,
}

fn check_name(name: &str) -> ApiResult<()> {
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

fn session_cookie(state: &AppState, token: &str, max_age: i64) -> HeaderValue {
    let secure = if state.config.secure_cookies {
        "; Secure"
    } else {
        ""
    };
    HeaderValue::from_str(&format!(
        "{SESSION_COOKIE}={token}; Path=/; HttpOnly; SameSite=Lax; Max-Age={max_age}{secure}"
    ))
    .unwrap_or(HeaderValue::from_static(""))
}

async fn start_session(state: &AppState, user: &User) -> ApiResult<Response> {
    let token = random_token();
    sqlx::query("INSERT INTO sessions (token, user_id, created, expires) VALUES ($1, $2, $3, $4)")
        .bind(hash_token(&token))
        .bind(&user.id)
        .bind(now())
        .bind(now() + SESSION_DAYS * 86_400)
        .execute(&state.db)
        .await?;
    let mut response = Json(json!({"user": {"name": user.name}})).into_response();
    response.headers_mut().append(
        SET_COOKIE,
        session_cookie(state, &token, SESSION_DAYS * 86_400),
    );
    Ok(response)
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
        let secure = if state.config.secure_cookies {
            "; Secure"
        } else {
            ""
        };
        if let Ok(v) = HeaderValue::from_str(&format!(
            "{CSRF_COOKIE}={csrf}; Path=/; SameSite=Strict{secure}"
        )) {
            response.headers_mut().append(SET_COOKIE, v);
        }
    }
    response
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
    if !(8..=200).contains(&c.password.chars().count()) {
        return Err(ApiError::bad_request("a password is 8 to 200 characters"));
    }
    let password = c.password.clone();
    let hash = tokio::task::spawn_blocking(move || {
        Argon2::default()
            .hash_password(password.as_bytes())
            .map(|h| h.to_string())
            .map_err(|e| ApiError::internal(e.to_string()))
    })
    .await
    .map_err(ApiError::internal)??;
    let user = User {
        id: random_token(),
        name: c.name.clone(),
    };
    let inserted =
        sqlx::query("INSERT INTO users (id, name, pass_hash, created) VALUES ($1, $2, $3, $4)")
            .bind(&user.id)
            .bind(&user.name)
            .bind(&hash)
            .bind(now())
            .execute(&state.db)
            .await;
    if inserted.is_err() {
        return Err(ApiError::new(
            StatusCode::CONFLICT,
            "name_taken",
            "that name is taken",
        ));
    }
    start_session(&state, &user).await
}

/// `POST /api/login`
pub async fn login(
    State(state): State<AppState>,
    ClientAddr(addr): ClientAddr,
    headers: HeaderMap,
    Body(body): Body,
) -> ApiResult<Response> {
    check_csrf(&headers)?;
    let c: Credentials = parse_body(&body)?;
    let keys = vec![
        format!("name:{}", c.name.to_lowercase()),
        format!("addr:{}", addr.map(|a| a.to_string()).unwrap_or_default()),
    ];
    if state.limiter.blocked(&keys) {
        return Err(ApiError::new(
            StatusCode::TOO_MANY_REQUESTS,
            "rate_limited",
            "too many failed log-ins; wait a few minutes",
        ));
    }
    let row = sqlx::query("SELECT id, pass_hash FROM users WHERE name = $1")
        .bind(&c.name)
        .fetch_optional(&state.db)
        .await?;
    let stored: Option<(String, String)> = match row {
        Some(r) => Some((r.try_get(0)?, r.try_get(1)?)),
        None => None,
    };
    let password = c.password.clone();
    let hash = stored.as_ref().map(|s| s.1.clone());
    let ok = tokio::task::spawn_blocking(move || match hash {
        Some(h) => PasswordHash::new(&h)
            .map(|parsed| {
                Argon2::default()
                    .verify_password(password.as_bytes(), &parsed)
                    .is_ok()
            })
            .unwrap_or(false),
        None => false,
    })
    .await
    .map_err(ApiError::internal)?;
    match (ok, stored) {
        (true, Some((id, _))) => start_session(&state, &User { id, name: c.name }).await,
        _ => {
            state.limiter.fail(&keys);
            Err(ApiError::new(
                StatusCode::UNAUTHORIZED,
                "unauthenticated",
                "wrong name or password",
            ))
        }
    }
}

/// `POST /api/logout`
pub async fn logout(State(state): State<AppState>, headers: HeaderMap) -> ApiResult<Response> {
    check_csrf(&headers)?;
    if let Some(token) = cookie(&headers, SESSION_COOKIE) {
        sqlx::query("DELETE FROM sessions WHERE token = $1")
            .bind(hash_token(&token))
            .execute(&state.db)
            .await?;
    }
    let mut response = Json(json!({"ok": true})).into_response();
    response
        .headers_mut()
        .append(SET_COOKIE, session_cookie(&state, "", 0));
    Ok(response)
}
