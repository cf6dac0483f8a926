//! Errors of the erased, JSON-speaking interface (registry, sessions, engine protocol).

use crate::game::{IllegalAction, IllegalKind};
use serde::Serialize;
use std::fmt;

/// What kind of failure: stable snake_case names, part of the engine protocol.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ErrorKind {
    /// The request itself is malformed (not JSON, missing or mistyped fields).
    BadRequest,
    UnknownCommand,
    UnknownGame,
    UnknownScenario,
    UnknownSide,
    BadOption,
    /// A command needs a game in progress and there is none.
    NoGame,
    /// The action is not legal now.
    IllegalAction,
    /// The action's text is not an action of this game.
    Unparsable,
    /// Another side must decide now.
    NotYourTurn,
    GameOver,
    BadPosition,
    BadRecord,
    CannotUndo,
    /// A data file failed to load.
    BadData,
    /// A file could not be written or read (a path and the system's reason are in the message).
    Io,
    /// A bug in the engine, not in the request: e.g. a game state that cannot be written as
    /// JSON. Nothing was changed.
    Internal,
}

/// An error with its kind and a message for people.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Error {
    pub kind: ErrorKind,
    pub message: String,
    /// For a refused batch of actions: the position (from 0) of the first action refused.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub index: Option<usize>,
}

impl Error {
    pub fn new(kind: ErrorKind, message: impl Into<String>) -> Self {
        Self {
            kind,
            message: message.into(),
            index: None,
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Error {}

impl From<IllegalAction> for Error {
    fn from(e: IllegalAction) -> Self {
        let kind = match e.kind {
            IllegalKind::GameOver => ErrorKind::GameOver,
            IllegalKind::NotYourTurn => ErrorKind::NotYourTurn,
            IllegalKind::NotLegal => ErrorKind::IllegalAction,
            IllegalKind::Unparsable => ErrorKind::Unparsable,
        };
        Error::new(kind, e.message)
    }
}
