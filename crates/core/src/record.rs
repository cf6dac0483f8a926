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
    /// The time control the game was played under, when it had one (the play server's,
    /// docs/server.md "Time controls"). Replay ignores it: no rule reads a clock.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub time: Option<TimeControl>,
    /// How the game ended outside the rules, when it did: a resignation, an agreed draw or a
    /// side out of time (the play server's, docs/server.md "Ending, offering, withdrawing").
    /// Replay ignores it: the actions reproduce the position, and this says why play stopped
    /// there.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ended: Option<Ended>,
}

/// A time control (none is its absence): a pace, or a clock with an increment.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "lowercase", deny_unknown_fields)]
pub enum TimeControl {
    /// Every decision within `days` days (the time left is reset when a side's turn starts).
    Pace { days: i64 },
    /// `initial_minutes` for the whole game per side, `increment_minutes` added after each
    /// decision the side hands over.
    Clock {
        initial_minutes: i64,
        increment_minutes: i64,
    },
}

impl TimeControl {
    /// The seconds a side starts with (a clock), or each decision starts with (a pace).
    pub fn budget(&self) -> i64 {
        match self {
            TimeControl::Pace { days } => days * 24 * 3600,
            TimeControl::Clock {
                initial_minutes, ..
            } => initial_minutes * 60,
        }
    }

    /// The seconds added to a side's time when it hands the decision over.
    pub fn increment(&self) -> i64 {
        match self {
            TimeControl::Pace { .. } => 0,
            TimeControl::Clock {
                increment_minutes, ..
            } => increment_minutes * 60,
        }
    }
}

/// An ending outside the rules: the engine's state is unchanged by it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Ended {
    /// `"resigned"`, `"draw_agreed"` or `"time"`.
    pub reason: String,
    /// The side that resigned, or ran out of time (absent for an agreed draw).
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
