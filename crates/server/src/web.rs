//! The browser client, served from the binary (no build step), and each game's board renderer.

use crate::AppState;
use crate::error::{ApiError, ApiResult};
use axum::Json;
use axum::extract::{Path, State};
use axum::http::header::{CACHE_CONTROL, CONTENT_TYPE};
use axum::response::{IntoResponse, Response};
use serde_json::{Value, json};

const INDEX: &str = include_str!("../web/index.html");
const APP_JS: &str = include_str!("../web/app.js");
const APP_CSS: &str = include_str!("../web/app.css");

fn text(kind: &'static str, body: &'static str) -> Response {
    ([(CONTENT_TYPE, kind), (CACHE_CONTROL, "no-cache")], body).into_response()
}

pub async fn index() -> Response {
    text("text/html; charset=utf-8", INDEX)
}

pub async fn app_js() -> Response {
    text("text/javascript; charset=utf-8", APP_JS)
}

pub async fn app_css() -> Response {
    text("text/css; charset=utf-8", APP_CSS)
}

/// `GET /games/{game}/board.js`
pub async fn board_script(
    State(state): State<AppState>,
    Path(game): Path<String>,
) -> ApiResult<Response> {
    let script = state
        .registry
        .get(&game)
        .map_err(|_| ApiError::not_found(format!("no game {game:?}")))?
        .client_script()
        .ok_or_else(|| ApiError::not_found(format!("{game} has no board renderer")))?;
    Ok(text("text/javascript; charset=utf-8", script))
}

/// `GET /api/catalog`
pub async fn catalog(State(state): State<AppState>) -> Json<Value> {
    let games: Vec<Value> = state
        .registry
        .games()
        .into_iter()
        .map(|g| {
            let mut v = serde_json::to_value(g).unwrap_or(Value::Null);
            let script = state
                .registry
                .get(&g.id)
                .ok()
                .and_then(|d| d.client_script())
                .map(|_| format!("/games/{}/board.js", g.id));
            v["board_script"] = json!(script);
            v
        })
        .collect();
    Json(json!({
        "games": games,
        "levels": muster_ai::LEVELS.iter().map(|l| json!({"id": l.id(), "description": l.description(), "rating": l.rating()})).collect::<Vec<_>>(),
    }))
}

pub async fn not_found() -> ApiError {
    ApiError::not_found("no such page")
}

pub async fn method_not_allowed(method: axum::http::Method) -> ApiError {
    ApiError::new(
        axum::http::StatusCode::METHOD_NOT_ALLOWED,
        "method_not_allowed",
        format!("{method} is not served at this address"),
    )
}

/// The policy every answer carries: scripts, styles and connections only from this server
/// (board scripts included), no framing by other sites, no type sniffing, no referrer sent
/// to other sites.
pub const CONTENT_SECURITY_POLICY: &str = "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'; object-src 'none'";

/// Adds the security headers to every answer, pages and API alike.
pub async fn security_headers(mut response: Response) -> Response {
    use axum::http::HeaderValue;
    let h = response.headers_mut();
    h.insert(
        "content-security-policy",
        HeaderValue::from_static(CONTENT_SECURITY_POLICY),
    );
    h.insert("x-frame-options", HeaderValue::from_static("DENY"));
    h.insert(
        "x-content-type-options",
        HeaderValue::from_static("nosniff"),
    );
    h.insert("referrer-policy", HeaderValue::from_static("same-origin"));
    response
}
