//! How the core's error kinds reach HTTP: a bug in the engine (a state that cannot be written
//! as JSON) is a 500 `internal`, not a 500 `bad_data` as before issue 15.

use axum::http::StatusCode;
use muster_core::{Error, ErrorKind};
use muster_server::error::ApiError;

#[test]
fn an_internal_engine_error_answers_500_internal() {
    let e = ApiError::from(Error::new(
        ErrorKind::Internal,
        "internal error: the game state cannot be written as JSON",
    ));
    assert_eq!(e.status, StatusCode::INTERNAL_SERVER_ERROR);
    assert_eq!(e.kind, "internal");
    assert!(e.message.contains("cannot be written"), "{}", e.message);
}

#[test]
fn a_request_error_is_not_mapped_to_internal() {
    let e = ApiError::from(Error::new(ErrorKind::BadPosition, "turn: 13"));
    assert_eq!(e.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(e.kind, "bad_position");
}
