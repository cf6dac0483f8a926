//! Muster's rules API.
//!
//! Every game is a pure state machine implementing [`Game`]: plain-data state, small actions
//! (one decision each), `legal_actions` and `apply` that agree exactly, a redacted `view` per
//! side, an `outcome`, and `determinize` for bots. Chance comes from [`Dice`], a seeded ChaCha
//! generator stored inside the state, so a seed, the options and the action list reproduce a
//! game on any machine.
//!
//! [`Session`] adds what a table needs around a game (the record, the log, undo within the
//! rules' limits), and [`registry`] erases the game type behind an object-safe, JSON-speaking
//! interface so that the CLI and the server never name a game type.

pub mod bench;
pub mod dice;
pub mod error;
pub mod game;
pub mod hex;
pub mod key;
pub mod knowledge;
pub mod record;
pub mod registry;
pub mod session;
pub mod testkit;
pub mod words;

pub use dice::Dice;
pub use error::{Error, ErrorKind};
pub use game::{
    Audience, Game, GameInfo, IllegalAction, IllegalKind, LogEntry, OptionInfo, Options, Outcome,
    Prompt, ScenarioInfo, Side, Viewer,
};
pub use key::Key;
pub use knowledge::Knowledge;
pub use record::{Position, Record, RecordedAction};
pub use registry::{DynGame, LegalEntry, Match, Registry};
pub use session::Session;

/// The version of the engine, written into every record and position.
pub const ENGINE_VERSION: &str = env!("CARGO_PKG_VERSION");
