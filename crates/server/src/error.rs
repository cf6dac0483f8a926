//! API errors: a kind, a message, and an HTTP status. A refused request changes nothing.

use axum::Json;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use muster_core::{Error, ErrorKind};
use serde_json::json;

#[derive(Debug)]
pub struct ApiError {
    pub status: StatusCode,
    pub kind: &'static str,
    pub message: String,
    /// For a refused batch of actions: the position (from 0) of the first one refused.
    pub index: Option<usize>,
}

impl ApiError {
    pub fn new(status: StatusCode, kind: &'static str, message: impl Into<String>) -> Self {
        ApiError {
            status,
            kind,
            message: message.into(),
            index: None,
        }
    }
    pub fn bad_request(m: impl Into<String>) -> Self {
        Self::new(StatusCode::BAD_REQUEST, "bad_request", m)
    }
    pub fn unauthenticated() -> Self {
        Self::new(StatusCode::UNAUTHORIZED, "unauthenticated", "log in first")
    }
    pub fn forbidden(m: impl Into<String>) -> Self {
        Self::new(StatusCode::FORBIDDEN, "forbidden", m)
    }
    pub fn not_found(m: impl Into<String>) -> Self {
        Self::new(StatusCode::NOT_FOUND, "not_found", m)
    }
    pub fn internal(m: impl std::fmt::Display) -> Self {
        Self::new(StatusCode::INTERNAL_SERVER_ERROR, "internal", m.to_string())
    }
    /// The database could not be read or written (a full disk, a lock held too long, a lost
    /// connection): nothing was changed, and the same request may succeed later.
    pub fn unavailable(detail: impl std::fmt::Display) -> Self {
        Self::new(
            StatusCode::SERVICE_UNAVAILABLE,
            "unavailable",
            format!(
                "the server cannot store changes right now ({detail}); nothing was changed: try again shortly"
            ),
        )
    }
    pub fn rate_limited(m: impl Into<String>) -> Self {
        Self::new(StatusCode::TOO_MANY_REQUESTS, "rate_limited", m)
    }
}

impl From<Error> for ApiError {
    fn from(e: Error) -> Self {
        let (status, kind) = match e.kind {
            ErrorKind::BadRequest => (StatusCode::BAD_REQUEST, "bad_request"),
            ErrorKind::UnknownCommand => (StatusCode::BAD_REQUEST, "unknown_command"),
            ErrorKind::UnknownGame => (StatusCode::UNPROCESSABLE_ENTITY, "unknown_game"),
            ErrorKind::UnknownScenario => (StatusCode::UNPROCESSABLE_ENTITY, "unknown_scenario"),
            ErrorKind::UnknownSide => (StatusCode::UNPROCESSABLE_ENTITY, "unknown_side"),
            ErrorKind::BadOption => (StatusCode::UNPROCESSABLE_ENTITY, "bad_option"),
            ErrorKind::NoGame => (StatusCode::NOT_FOUND, "not_found"),
            ErrorKind::IllegalAction => (StatusCode::UNPROCESSABLE_ENTITY, "illegal_action"),
            ErrorKind::Unparsable => (StatusCode::UNPROCESSABLE_ENTITY, "unparsable"),
            ErrorKind::NotYourTurn => (StatusCode::CONFLICT, "not_your_turn"),
            ErrorKind::GameOver => (StatusCode::UNPROCESSABLE_ENTITY, "game_over"),
            ErrorKind::BadPosition => (StatusCode::UNPROCESSABLE_ENTITY, "bad_position"),
            ErrorKind::BadRecord => (StatusCode::INTERNAL_SERVER_ERROR, "bad_record"),
            ErrorKind::CannotUndo => (StatusCode::UNPROCESSABLE_ENTITY, "cannot_undo"),
            ErrorKind::BadData => (StatusCode::INTERNAL_SERVER_ERROR, "bad_data"),
            ErrorKind::Io => (StatusCode::INTERNAL_SERVER_ERROR, "io"),
            ErrorKind::Internal => (StatusCode::INTERNAL_SERVER_ERROR, "internal"),
        };
        let mut out = ApiError::new(status, kind, e.message);
        out.index = e.index;
        out
    }
}

impl From<sqlx::Error> for ApiError {
    /// A failure of the database itself (its disk, its lock, its connection) is 503: the
    /// request was sound and may be sent again. A row that does not decode is a bug: 500.
    fn from(e: sqlx::Error) -> Self {
        use sqlx::Error as E;
        match e {
            E::Database(_)
            | E::Io(_)
            | E::Tls(_)
            | E::Protocol(_)
            | E::PoolTimedOut
            | E::PoolClosed
            | E::WorkerCrashed => {
                eprintln!("muster serve: database: {e}");
                ApiError::unavailable(e)
            }
            _ => ApiError::internal(format!("database: {e}")),
        }
    }
}

impl From<crate::db::WriteError> for ApiError {
    /// A write the database could not store is 503 (nothing changed; it may be sent again);
    /// a write whose condition failed is a conflict with a change made meanwhile.
    fn from(e: crate::db::WriteError) -> Self {
        use crate::db::WriteError as W;
        match e {
            W::Failed(e) => {
                eprintln!("muster serve: database: {e}");
                ApiError::unavailable(e)
            }
            W::Unmet(kind) => ApiError::new(
                StatusCode::CONFLICT,
                kind,
                "another change was made meanwhile; nothing was changed",
            ),
            W::Unique => ApiError::new(
                StatusCode::CONFLICT,
                "conflict",
                "another change was made meanwhile; nothing was changed",
            ),
        }
    }
}

impl ApiError {
    /// The `error` member of an answer or a socket message: kind, message and, for a refused
    /// batch, the index of the action refused.
    pub fn body(&self) -> serde_json::Value {
        let mut e = json!({"kind": self.kind, "message": self.message});
        if let Some(i) = self.index {
            e["index"] = json!(i);
        }
        e
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        (
            self.status,
            Json(json!({"ok": false, "error": self.body()})),
        )
            .into_response()
    }
}

pub type ApiResult<T> = Result<T, ApiError>;
