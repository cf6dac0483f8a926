//! The engine protocol: one JSON request per line in, one JSON answer per line out.
//! Version 1; see `docs/protocol.md` for every command with worked examples.

use muster_core::{Error, ErrorKind, LogEntry, Match, Options, Record, Registry};
use serde::Deserialize;
use serde_json::{Value, json};

/// The protocol version, answered by `version` and `games`.
pub const PROTOCOL_VERSION: u32 = 1;
/// Longest request line accepted, in bytes.
pub const MAX_LINE: usize = 4 << 20;

#[derive(Deserialize)]
#[serde(tag = "cmd", rename_all = "snake_case", deny_unknown_fields)]
enum Request {
    Version {},
    Games {},
    New {
        game: String,
        scenario: String,
        #[serde(default)]
        seed: u64,
        #[serde(default)]
        options: Options,
    },
    Load {
        position: Value,
    },
    Replay {
        record: Value,
    },
    Act {
        #[serde(default)]
        action: Option<String>,
        /// A batch: several decisions applied as one, all or none (docs/protocol.md, `act`).
        #[serde(default)]
        actions: Option<Vec<String>>,
        #[serde(default)]
        side: Option<String>,
    },
    Undo {
        #[serde(default)]
        side: Option<String>,
    },
    Legal {},
    View {
        #[serde(default)]
        side: Option<String>,
    },
    Log {
        #[serde(default)]
        side: Option<String>,
    },
    Text {
        #[serde(default)]
        side: Option<String>,
    },
    Position {},
    Record {},
    Outcome {},
}

/// An engine session: the registry and at most one game in progress.
pub struct Engine {
    registry: Registry,
    game: Option<Box<dyn Match>>,
}

fn error_line(e: &Error) -> String {
    json!({"ok": false, "error": e}).to_string()
}

impl Engine {
    pub fn new(registry: Registry) -> Engine {
        Engine {
            registry,
            game: None,
        }
    }

    /// An error answer line.
    pub fn error_answer(kind: ErrorKind, message: &str) -> String {
        error_line(&Error::new(kind, message))
    }

    /// Answers one request line. Never panics on input; on error the game is unchanged.
    pub fn handle(&mut self, line: &str) -> String {
        if line.len() > MAX_LINE {
            return error_line(&Error::new(
                ErrorKind::BadRequest,
                format!("request longer than {MAX_LINE} bytes"),
            ));
        }
        let value: Value = match serde_json::from_str(line) {
            Ok(v) => v,
            Err(e) => {
                return error_line(&Error::new(ErrorKind::BadRequest, format!("not JSON: {e}")));
            }
        };
        let cmd = value.get("cmd").and_then(Value::as_str).map(str::to_string);
        let request: Request = match serde_json::from_value(value) {
            Ok(r) => r,
            Err(e) => {
                let known = [
                    "version", "games", "new", "load", "replay", "act", "undo", "legal", "view",
                    "log", "text", "position", "record", "outcome",
                ];
                let kind = match &cmd {
                    Some(c) if !known.contains(&c.as_str()) => ErrorKind::UnknownCommand,
                    _ => ErrorKind::BadRequest,
                };
                return error_line(&Error::new(kind, e.to_string()));
            }
        };
        match self.run(request) {
            Ok(v) => v.to_string(),
            Err(e) => error_line(&e),
        }
    }

    fn current(&self) -> Result<&dyn Match, Error> {
        self.game.as_deref().ok_or_else(|| {
            Error::new(
                ErrorKind::NoGame,
                "no game in progress: send new, load or replay first",
            )
        })
    }

    fn current_mut(&mut self) -> Result<&mut Box<dyn Match>, Error> {
        self.game.as_mut().ok_or_else(|| {
            Error::new(
                ErrorKind::NoGame,
                "no game in progress: send new, load or replay first",
            )
        })
    }

    fn run(&mut self, request: Request) -> Result<Value, Error> {
        match request {
            Request::Version {} => Ok(json!({
                "ok": true, "protocol": PROTOCOL_VERSION, "engine": muster_core::ENGINE_VERSION,
            })),
            Request::Games {} => Ok(json!({
                "ok": true, "protocol": PROTOCOL_VERSION, "games": self.registry.games(),
            })),
            Request::New {
                game,
                scenario,
                seed,
                options,
            } => {
                self.game = Some(self.registry.new_match(&game, &scenario, &options, seed)?);
                self.status(Vec::new())
            }
            Request::Load { position } => {
                self.game = Some(self.registry.load(&position)?);
                self.status(Vec::new())
            }
            Request::Replay { record } => {
                let record: Record = serde_json::from_value(record)
                    .map_err(|e| Error::new(ErrorKind::BadRecord, format!("not a record: {e}")))?;
                self.game = Some(self.registry.replay(&record)?);
                self.status(Vec::new())
            }
            Request::Act {
                action,
                actions,
                side,
            } => {
                let m = self.current_mut()?;
                let events = match (action, actions) {
                    (Some(a), None) => m.act(side.as_deref(), &a)?,
                    (None, Some(list)) => {
                        let list: Vec<&str> = list.iter().map(String::as_str).collect();
                        m.act_batch(side.as_deref(), &list)?
                    }
                    _ => {
                        return Err(Error::new(
                            ErrorKind::BadRequest,
                            "act takes either action (one decision) or actions (a batch), not both or neither",
                        ));
                    }
                };
                self.status(events)
            }
            Request::Undo { side } => {
                self.current_mut()?.undo(side.as_deref())?;
                self.status(Vec::new())
            }
            Request::Legal {} => self.status(Vec::new()),
            Request::View { side } => {
                Ok(json!({"ok": true, "view": self.current()?.view(side.as_deref())?}))
            }
            Request::Log { side } => {
                Ok(json!({"ok": true, "log": self.current()?.log(side.as_deref())?}))
            }
            Request::Text { side } => {
                Ok(json!({"ok": true, "text": self.current()?.render_text(side.as_deref())?}))
            }
            Request::Position {} => {
                Ok(json!({"ok": true, "position": self.current()?.try_position()?}))
            }
            Request::Record {} => Ok(json!({"ok": true, "record": self.current()?.record()})),
            Request::Outcome {} => {
                Ok(json!({"ok": true, "outcome": outcome_json(self.current()?)}))
            }
        }
    }

    /// The answer after a game-changing command.
    fn status(&self, events: Vec<LogEntry>) -> Result<Value, Error> {
        let m = self.current()?;
        let to_act = m.to_act();
        Ok(json!({
            "ok": true,
            "game": m.info().id,
            "to_act": to_act,
            "prompt": m.prompt(),
            "legal": m.legal(),
            "can_undo": to_act.as_deref().is_some_and(|s| m.can_undo(s)),
            "outcome": outcome_json(m),
            "events": events,
        }))
    }
}

/// The outcome with side names: `{"winner": "american", "vp": {"american": 7, ...}, "reason"}`.
pub fn outcome_json(m: &dyn Match) -> Value {
    match m.outcome() {
        None => Value::Null,
        Some(o) => {
            let info = m.info();
            let vp: serde_json::Map<String, Value> =
                o.vp.iter()
                    .enumerate()
                    .map(|(i, v)| (info.side_name(i as u8).to_string(), json!(v)))
                    .collect();
            json!({
                "winner": o.winner.map(|w| info.side_name(w).to_string()),
                "vp": vp,
                "reason": o.reason,
            })
        }
    }
}
