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
        .get(&game)?
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
        "levels": muster_ai::LEVELS.iter().map(|l| json!({"id": l.id(), "description": l.description()})).collect::<Vec<_>>(),
    }))
}

pub async fn not_found() -> ApiError {
    ApiError::not_found("no such page")
}
