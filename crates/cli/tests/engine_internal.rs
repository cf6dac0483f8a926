//! The engine protocol's `internal` error kind (issue 15): a game whose state cannot be
//! written as JSON is a bug in the engine, answered as `internal` (it used to be `bad_data`,
//! the kind of a broken scenario file), and the game in progress is unchanged. No real game
//! fails so, hence a toy game here whose state stops being writable after its one move.

use muster_cli::engine::Engine;
use muster_core::{
    Audience, Game, GameInfo, IllegalAction, Knowledge, LogEntry, Options, Outcome, Prompt,
    Registry, ScenarioInfo, Side, Viewer,
};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use std::collections::BTreeMap;

struct Unwritable {
    info: GameInfo,
}

/// After `break`, `odd` holds a map with non-string keys, which JSON cannot hold.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
struct State {
    broken: bool,
    odd: BTreeMap<Vec<u8>, u8>,
}

impl Game for Unwritable {
    type State = State;
    type Action = u8;
    type Event = String;
    type View = bool;
    fn info(&self) -> &GameInfo {
        &self.info
    }
    fn new_game(&self, _: &str, _: &Options, _: u64) -> Result<State, String> {
        Ok(State {
            broken: false,
            odd: BTreeMap::new(),
        })
    }
    fn scenario_of<'a>(&self, _: &'a State) -> &'a str {
        "one"
    }
    fn options_of(&self, _: &State) -> Options {
        Options::new()
    }
    fn to_act(&self, _: &State) -> Option<Side> {
        Some(0)
    }
    fn prompt(&self, _: &State) -> Prompt {
        Prompt {
            text: "break it".into(),
            section: "1".into(),
        }
    }
    fn legal_actions(&self, s: &State, out: &mut Vec<u8>) {
        out.clear();
        out.push(u8::from(s.broken));
    }
    fn apply(&self, s: &mut State, _: Side, a: u8) -> Result<Vec<String>, IllegalAction> {
        if a == 0 && !s.broken {
            s.broken = true;
            s.odd.insert(vec![1], 1);
        }
        Ok(vec!["broken".into()])
    }
    fn view(&self, s: &State, _: Viewer) -> bool {
        s.broken
    }
    fn outcome(&self, _: &State) -> Option<Outcome> {
        None
    }
    fn determinize(&self, _: &mut State, _: Side, _: &mut dyn rand_core::Rng) {}
    fn notation(&self, _: &State, a: u8) -> String {
        if a == 0 { "break" } else { "wait" }.into()
    }
    fn parse_action(&self, _: &State, t: &str) -> Result<u8, IllegalAction> {
        match t {
            "break" => Ok(0),
            "wait" => Ok(1),
            _ => Err(IllegalAction::not_legal("unparsable")),
        }
    }
    fn label(&self, s: &State, a: u8) -> String {
        self.notation(s, a)
    }
    fn describe(&self, _: &State, e: &String) -> LogEntry {
        LogEntry {
            section: "1".into(),
            text: e.clone(),
            chance: false,
            audience: Audience::All,
        }
    }
    fn validate(&self, _: &mut State) -> Result<(), String> {
        Ok(())
    }
    fn render_text(&self, _: &State, _: Viewer) -> String {
        String::new()
    }
}

impl Knowledge for Unwritable {}

fn engine() -> Engine {
    let mut r = Registry::new();
    r.add(Unwritable {
        info: GameInfo {
            id: "unwritable".into(),
            name: "Unwritable".into(),
            sides: vec!["only".into()],
            scenarios: vec![ScenarioInfo {
                id: "one".into(),
                name: "One".into(),
                description: "one move".into(),
                source: "built in".into(),
                reconstructed: vec![],
                bot_side: None,
            }],
            options: vec![],
        },
    });
    Engine::new(r)
}

fn ask(e: &mut Engine, request: Value) -> Value {
    serde_json::from_str(&e.handle(&request.to_string())).unwrap()
}

#[test]
fn a_position_the_game_cannot_write_answers_internal_and_changes_nothing() {
    let mut e = engine();
    let new = json!({"cmd": "new", "game": "unwritable", "scenario": "one", "seed": 1});
    assert_eq!(ask(&mut e, new)["ok"], true);
    // Writable before the move.
    assert_eq!(ask(&mut e, json!({"cmd": "position"}))["ok"], true);
    assert_eq!(
        ask(&mut e, json!({"cmd": "act", "action": "break"}))["ok"],
        true
    );
    let a = ask(&mut e, json!({"cmd": "position"}));
    assert_eq!(a["ok"], false, "{a}");
    assert_eq!(a["error"]["kind"], "internal", "{a}");
    let m = a["error"]["message"].as_str().unwrap();
    assert!(m.contains("cannot be written as JSON"), "{m}");
    // The game goes on: the same legal list and record as before the refusal.
    let legal = ask(&mut e, json!({"cmd": "legal"}));
    assert_eq!(legal["legal"][0]["action"], "wait", "{legal}");
    let record = ask(&mut e, json!({"cmd": "record"}));
    assert_eq!(
        record["record"]["actions"].as_array().map(Vec::len),
        Some(1)
    );
}
