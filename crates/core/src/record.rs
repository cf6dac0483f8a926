//! Game records and positions: the two documented JSON forms a game is saved in.

use crate::game::Options;
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// Format tag of a record.
pub const RECORD_FORMAT: &str = "muster-record";
/// Format tag of a position.
pub const POSITION_FORMAT: &str = "muster-position";
/// Version of both formats.
pub const FORMAT_VERSION: u32 = 1;

/// A whole game: how it started and every decision since. Replaying it reproduces the game
/// exactly, byte for byte.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Record {
    pub format: String,
    pub version: u32,
    /// The engine that wrote it (informative; replay does not require the same one).
    #[serde(default)]
    pub engine: String,
    pub game: String,
    pub scenario: String,
    /// Every option with its value.
    pub options: Options,
    /// The seed the game started from; absent when it started from a position.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seed: Option<u64>,
    /// The position the game started from, when it did not start from a seed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub start: Option<Value>,
    pub actions: Vec<RecordedAction>,
    /// How the game ended outside the rules, when it did: a resignation or an agreed draw
    /// (the play server's, docs/server.md "Ending, offering, withdrawing"). Replay ignores it:
    /// the actions reproduce the position, and this says why play stopped there.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ended: Option<Ended>,
}

/// An ending outside the rules: the engine's state is unchanged by it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Ended {
    /// `"resigned"` or `"draw_agreed"`.
    pub reason: String,
    /// The side that resigned (absent for an agreed draw).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub side: Option<String>,
    /// The side that wins by it (absent for an agreed draw).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub winner: Option<String>,
}

/// One decision: which side made it and its notation.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RecordedAction {
    pub side: String,
    pub action: String,
}

/// A saved state: `state` is the game's own documented JSON form.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Position {
    pub format: String,
    pub version: u32,
    #[serde(default)]
    pub engine: String,
    pub game: String,
    pub state: Value,
}
