//! The engine protocol (docs/protocol.md) and the `muster` command, driven from outside: every
//! test runs the real binary as a subprocess and talks to it through its stdin and stdout.

use serde_json::{Value, json};
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Output, Stdio};
use std::sync::mpsc::{Receiver, channel};
use std::time::Duration;

const BIN: &str = env!("CARGO_BIN_EXE_muster");
/// How long one answer may take before the test gives up (a dead or hung engine).
const ANSWER_TIMEOUT: Duration = Duration::from_secs(30);

// ---- the engine as a subprocess ------------------------------------------------------------

/// `muster engine` running in a child process; one request line in, one answer line out.
struct Engine {
    child: Child,
    stdin: Option<ChildStdin>,
    answers: Receiver<String>,
}

impl Engine {
    fn start() -> Engine {
        Self::start_with(&["engine"])
    }

    fn start_with(args: &[&str]) -> Engine {
        let mut child = Command::new(BIN)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("start muster engine");
        let stdout = child.stdout.take().expect("piped stdout");
        let stdin = child.stdin.take();
        // A reader thread, so that a hung or dead engine fails the test instead of blocking it.
        let (tx, answers) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Engine {
            child,
            stdin,
            answers,
        }
    }

    /// Writes bytes as they are (the caller adds any newline).
    fn write(&mut self, bytes: &[u8]) {
        let stdin = self.stdin.as_mut().expect("stdin open");
        stdin.write_all(bytes).expect("write to the engine");
        stdin.flush().expect("flush to the engine");
    }

    /// The next answer line.
    fn read(&mut self) -> String {
        self.answers
            .recv_timeout(ANSWER_TIMEOUT)
            .expect("the engine answers within the timeout (did it die?)")
    }

    /// Sends one line (bytes, a newline is added) and reads one answer line.
    fn send_raw(&mut self, line: &[u8]) -> String {
        let mut bytes = line.to_vec();
        bytes.push(b'\n');
        self.write(&bytes);
        self.read()
    }

    /// Sends one line of text and reads the answer as JSON.
    fn send(&mut self, line: &str) -> Value {
        let answer = self.send_raw(line.as_bytes());
        serde_json::from_str(&answer)
            .unwrap_or_else(|e| panic!("answer to {line:?} is not JSON ({e}): {answer}"))
    }

    fn req(&mut self, request: Value) -> Value {
        self.send(&request.to_string())
    }

    /// A request that must succeed.
    fn ok(&mut self, request: Value) -> Value {
        let answer = self.req(request.clone());
        assert_eq!(answer["ok"], true, "request {request} failed: {answer}");
        answer
    }

    /// A request line that must fail with `kind`; returns the message.
    fn error_line(&mut self, line: &str, kind: &str) -> String {
        let answer = self.send(line);
        assert_eq!(answer["ok"], false, "{line} should fail: {answer}");
        assert_eq!(answer["error"]["kind"], kind, "{line}: {answer}");
        let message = answer["error"]["message"]
            .as_str()
            .unwrap_or_else(|| panic!("{line}: error without a message: {answer}"))
            .to_string();
        assert!(!message.is_empty(), "{line}: empty message");
        // An error answer holds exactly ok and error {kind, message}.
        assert_eq!(answer.as_object().map(|o| o.len()), Some(2), "{answer}");
        assert_eq!(
            answer["error"].as_object().map(|o| o.len()),
            Some(2),
            "{answer}"
        );
        message
    }

    fn error(&mut self, request: Value, kind: &str) -> String {
        self.error_line(&request.to_string(), kind)
    }

    /// The raw answer line to `position`: compared byte for byte.
    fn position_line(&mut self) -> String {
        let line = self.send_raw(br#"{"cmd":"position"}"#);
        assert!(
            line.starts_with('{') && line.contains(r#""ok":true"#),
            "{line}"
        );
        line
    }

    fn position(&mut self) -> Value {
        self.ok(json!({"cmd": "position"}))["position"].clone()
    }

    fn record(&mut self) -> Value {
        self.ok(json!({"cmd": "record"}))["record"].clone()
    }

    fn new_game(&mut self, scenario: &str, seed: u64) -> Value {
        self.ok(json!({"cmd": "new", "game": "battles", "scenario": scenario, "seed": seed}))
    }

    /// Plays up to `n` decisions, always `legal[(start + i) % len]`; returns the last status.
    fn play(&mut self, mut status: Value, n: usize, start: usize) -> Value {
        for i in start..start + n {
            if status["to_act"].is_null() {
                break;
            }
            let action = pick(&status, i);
            status = self.ok(json!({"cmd": "act", "action": action}));
        }
        status
    }

    /// Closes stdin and checks that the engine exits cleanly.
    fn finish(mut self) {
        drop(self.stdin.take());
        let status = self.child.wait().expect("wait for the engine");
        assert!(status.success(), "the engine exited with {status}");
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        drop(self.stdin.take());
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The deterministic choice among the legal actions of a status answer.
fn pick(status: &Value, i: usize) -> String {
    let legal = status["legal"].as_array().expect("legal is a list");
    assert!(
        !legal.is_empty(),
        "someone must act but nothing is legal: {status}"
    );
    legal[i % legal.len()]["action"]
        .as_str()
        .expect("action is text")
        .to_string()
}

/// Checks the fields every status answer has.
fn assert_status(status: &Value) {
    assert_eq!(status["ok"], true, "{status}");
    assert_eq!(status["game"], "battles", "{status}");
    for key in ["to_act", "prompt", "legal", "can_undo", "outcome", "events"] {
        assert!(status.get(key).is_some(), "status lacks {key}: {status}");
    }
    assert!(status["can_undo"].is_boolean(), "{status}");
    assert!(status["events"].is_array(), "{status}");
    let legal = status["legal"].as_array().expect("legal is a list");
    if status["to_act"].is_null() {
        assert!(
            legal.is_empty(),
            "nobody acts but actions are legal: {status}"
        );
        assert!(status["outcome"].is_object(), "{status}");
    } else {
        let side = status["to_act"].as_str().expect("to_act is text");
        assert!(["american", "british"].contains(&side), "{status}");
        assert!(status["outcome"].is_null(), "{status}");
        assert!(!legal.is_empty(), "{status}");
        assert!(
            status["prompt"]["text"]
                .as_str()
                .is_some_and(|t| !t.is_empty())
        );
        assert!(
            status["prompt"]["section"]
                .as_str()
                .is_some_and(|t| !t.is_empty())
        );
    }
    for entry in legal {
        assert!(
            entry["action"].as_str().is_some_and(|a| !a.is_empty()),
            "{entry}"
        );
        assert!(
            entry["label"].as_str().is_some_and(|a| !a.is_empty()),
            "{entry}"
        );
        assert_eq!(entry.as_object().map(|o| o.len()), Some(2), "{entry}");
    }
    for event in status["events"].as_array().expect("events") {
        assert_event(event);
    }
}

fn assert_event(event: &Value) {
    assert!(
        event["text"].as_str().is_some_and(|t| !t.is_empty()),
        "{event}"
    );
    assert!(
        event["section"].as_str().is_some_and(|t| !t.is_empty()),
        "{event}"
    );
    assert!(event.get("audience").is_some(), "{event}");
    if let Some(chance) = event.get("chance") {
        // Written only when true.
        assert_eq!(chance, &json!(true), "{event}");
    }
}

/// Every object key anywhere in a JSON value.
fn keys(v: &Value, out: &mut Vec<String>) {
    match v {
        Value::Object(m) => {
            for (k, x) in m {
                out.push(k.clone());
                keys(x, out);
            }
        }
        Value::Array(a) => a.iter().for_each(|x| keys(x, out)),
        _ => {}
    }
}

// ---- version and games ---------------------------------------------------------------------

#[test]
fn version_answers_protocol_1_and_the_engine_version() {
    let mut e = Engine::start();
    let v = e.ok(json!({"cmd": "version"}));
    assert_eq!(v["protocol"], 1);
    assert!(v["engine"].as_str().is_some_and(|s| !s.is_empty()), "{v}");
    e.finish();
}

#[test]
fn games_lists_battles_with_its_scenarios_sides_and_storm_option() {
    let mut e = Engine::start();
    let g = e.ok(json!({"cmd": "games"}));
    assert_eq!(g["protocol"], 1);
    let games = g["games"].as_array().expect("games is a list");
    let battles = games
        .iter()
        .find(|x| x["id"] == "battles")
        .unwrap_or_else(|| panic!("battles is listed: {g}"));
    assert!(battles["name"].as_str().is_some_and(|n| !n.is_empty()));
    assert_eq!(battles["sides"], json!(["american", "british"]));
    let scenarios: Vec<&str> = battles["scenarios"]
        .as_array()
        .expect("scenarios")
        .iter()
        .map(|s| s["id"].as_str().expect("scenario id"))
        .collect();
    assert_eq!(scenarios, ["freemans-farm", "oriskany"]);
    for s in battles["scenarios"].as_array().unwrap() {
        assert!(s["name"].as_str().is_some_and(|n| !n.is_empty()), "{s}");
        assert!(
            s["description"].as_str().is_some_and(|n| !n.is_empty()),
            "{s}"
        );
    }
    let storm = battles["options"]
        .as_array()
        .expect("options")
        .iter()
        .find(|o| o["id"] == "storm")
        .unwrap_or_else(|| panic!("the storm option is listed: {battles}"));
    assert_eq!(storm["values"], json!(["turns-7-8", "all-day"]));
    assert_eq!(storm["default"], "turns-7-8");
    // The storm is Oriskany's (§12): the option names that scenario alone (issue 17).
    assert_eq!(storm["scenarios"], json!(["oriskany"]));
    assert!(storm["description"].as_str().is_some_and(|d| !d.is_empty()));
    e.finish();
}

// ---- new and act ---------------------------------------------------------------------------

#[test]
fn new_answers_a_full_status_and_the_first_legal_action_is_accepted() {
    let mut e = Engine::start();
    let s = e.new_game("oriskany", 3);
    assert_status(&s);
    assert_eq!(
        s["to_act"], "american",
        "Oriskany begins with the American set-up"
    );
    assert_eq!(s["prompt"]["section"], "12");
    assert_eq!(s["can_undo"], false);
    assert_eq!(s["outcome"], Value::Null);
    assert_eq!(s["events"], json!([]));
    let first = pick(&s, 0);
    assert!(first.starts_with("place "), "{first}");

    let after = e.ok(json!({"cmd": "act", "action": first, "side": "american"}));
    assert_status(&after);
    let events = after["events"].as_array().expect("events");
    assert!(!events.is_empty(), "placing a unit is reported: {after}");
    assert!(
        events[0]["text"]
            .as_str()
            .is_some_and(|t| t.contains(&first["place ".len()..])),
        "the event names the hex: {after}"
    );
    // A set-up placement is the side's own decision with no dice: it may be taken back.
    assert_eq!(after["can_undo"], true);
    // The record holds the decision in notation.
    let record = e.record();
    assert_eq!(
        record["actions"],
        json!([{"side": "american", "action": first}])
    );
    // `legal` answers the same status, without events.
    let legal = e.ok(json!({"cmd": "legal"}));
    assert_eq!(legal["legal"], after["legal"]);
    assert_eq!(legal["events"], json!([]));
    e.finish();
}

#[test]
fn new_without_seed_or_options_uses_seed_0_and_the_default_options() {
    let mut e = Engine::start();
    e.ok(json!({"cmd": "new", "game": "battles", "scenario": "oriskany"}));
    let record = e.record();
    assert_eq!(record["seed"], 0);
    assert_eq!(record["options"], json!({"storm": "turns-7-8"}));
    let p0 = e.position_line();
    e.new_game("oriskany", 0);
    assert_eq!(e.position_line(), p0);
    e.ok(
        json!({"cmd": "new", "game": "battles", "scenario": "oriskany",
                "options": {"storm": "all-day"}}),
    );
    assert_eq!(e.record()["options"], json!({"storm": "all-day"}));
    assert_eq!(
        e.position()["state"]["options"],
        json!({"storm-all-day": true})
    );
    e.finish();
}

// ---- errors --------------------------------------------------------------------------------

#[test]
fn requests_before_any_game_are_refused_with_no_game() {
    let mut e = Engine::start();
    for request in [
        json!({"cmd": "act", "action": "end-movement"}),
        json!({"cmd": "undo"}),
        json!({"cmd": "legal"}),
        json!({"cmd": "view", "side": "american"}),
        json!({"cmd": "log"}),
        json!({"cmd": "text"}),
        json!({"cmd": "position"}),
        json!({"cmd": "record"}),
        json!({"cmd": "outcome"}),
    ] {
        e.error(request, "no_game");
    }
    // The engine is still there.
    e.ok(json!({"cmd": "version"}));
    e.finish();
}

#[test]
fn malformed_requests_are_bad_request_or_unknown_command() {
    let mut e = Engine::start();
    e.error_line("this is not json", "bad_request");
    e.error_line("{\"cmd\": \"version\"", "bad_request");
    e.error_line("[1, 2]", "bad_request");
    e.error_line("{}", "bad_request");
    e.error_line(r#"{"cmd": 3}"#, "bad_request");
    let m = e.error(json!({"cmd": "fly"}), "unknown_command");
    assert!(m.contains("fly"), "{m}");
    // Missing fields.
    let m = e.error(json!({"cmd": "new", "game": "battles"}), "bad_request");
    assert!(m.contains("scenario"), "{m}");
    let m = e.error(json!({"cmd": "new", "scenario": "oriskany"}), "bad_request");
    assert!(m.contains("game"), "{m}");
    e.error(json!({"cmd": "load"}), "bad_request");
    e.error(json!({"cmd": "replay"}), "bad_request");
    // Mistyped and unknown fields.
    e.error(
        json!({"cmd": "new", "game": "battles", "scenario": "oriskany", "seed": "1"}),
        "bad_request",
    );
    e.error(
        json!({"cmd": "new", "game": "battles", "scenario": "oriskany", "seed": -1}),
        "bad_request",
    );
    e.error(
        json!({"cmd": "new", "game": "battles", "scenario": "oriskany", "options": {"storm": 1}}),
        "bad_request",
    );
    let m = e.error(
        json!({"cmd": "new", "game": "battles", "scenario": "oriskany", "colour": "red"}),
        "bad_request",
    );
    assert!(m.contains("colour"), "{m}");
    e.finish();
}

#[test]
fn new_with_unknown_game_scenario_or_option_is_refused() {
    let mut e = Engine::start();
    let m = e.error(
        json!({"cmd": "new", "game": "chess", "scenario": "oriskany"}),
        "unknown_game",
    );
    assert!(m.contains("chess") && m.contains("battles"), "{m}");
    let m = e.error(
        json!({"cmd": "new", "game": "battles", "scenario": "saratoga"}),
        "unknown_scenario",
    );
    assert!(m.contains("saratoga") && m.contains("oriskany"), "{m}");
    let m = e.error(
        json!({"cmd": "new", "game": "battles", "scenario": "oriskany",
               "options": {"storm": "hurricane"}}),
        "bad_option",
    );
    assert!(m.contains("hurricane") && m.contains("all-day"), "{m}");
    let m = e.error(
        json!({"cmd": "new", "game": "battles", "scenario": "oriskany",
               "options": {"rain": "yes"}}),
        "bad_option",
    );
    assert!(m.contains("rain") && m.contains("storm"), "{m}");
    // None of these started a game.
    e.error(json!({"cmd": "position"}), "no_game");
    e.finish();
}

/// A game in progress (Freeman's Farm, the British to act after the American hand-over) meets
/// every kind of bad request; after each one the game is exactly as it was.
#[test]
fn every_error_in_a_game_leaves_it_unchanged() {
    let mut e = Engine::start();
    e.new_game("freemans-farm", 1);
    let s = e.ok(json!({"cmd": "act", "action": "end-movement", "side": "american"}));
    assert_eq!(s["to_act"], "british", "{s}");
    assert_eq!(s["can_undo"], false);
    let position = e.position_line();
    let record = e.send_raw(br#"{"cmd":"record"}"#);
    let legal = e.send_raw(br#"{"cmd":"legal"}"#);
    let log = e.send_raw(br#"{"cmd":"log"}"#);
    let good_position = e.position();

    let mut bad_position = good_position.clone();
    bad_position["state"]["units"][14]["at"] = json!("P16");
    let mut bad_record = e.record();
    bad_record["actions"]
        .as_array_mut()
        .unwrap()
        .push(json!({"side": "british", "action": "move Z1"}));

    let cases: Vec<(String, &str)> = vec![
        ("not json at all".into(), "bad_request"),
        (r#"{"cmd":"act"}"#.into(), "bad_request"),
        (r#"{"cmd":"act","action":7}"#.into(), "bad_request"),
        (
            r#"{"cmd":"act","action":"end-movement","when":"now"}"#.into(),
            "bad_request",
        ),
        (r#"{"cmd":"resign"}"#.into(), "unknown_command"),
        (
            json!({"cmd": "new", "game": "chess", "scenario": "x"}).to_string(),
            "unknown_game",
        ),
        (
            json!({"cmd": "new", "game": "battles", "scenario": "x"}).to_string(),
            "unknown_scenario",
        ),
        (
            json!({"cmd": "new", "game": "battles", "scenario": "oriskany",
                   "options": {"storm": "never"}})
            .to_string(),
            "bad_option",
        ),
        (
            json!({"cmd": "new", "game": "battles", "scenario": "oriskany",
                   "options": {"fog": "thick"}})
            .to_string(),
            "bad_option",
        ),
        (
            json!({"cmd": "act", "action": "frobnicate"}).to_string(),
            "unparsable",
        ),
        (
            json!({"cmd": "act", "action": "select nobody"}).to_string(),
            "unparsable",
        ),
        (
            json!({"cmd": "act", "action": "move Z1"}).to_string(),
            "unparsable",
        ),
        (
            json!({"cmd": "act", "action": "move"}).to_string(),
            "unparsable",
        ),
        (
            json!({"cmd": "act", "action": "hold D5"}).to_string(),
            "unparsable",
        ),
        (
            json!({"cmd": "act", "action": ""}).to_string(),
            "unparsable",
        ),
        (
            json!({"cmd": "act", "action": "end-attacks"}).to_string(),
            "illegal_action",
        ),
        (
            json!({"cmd": "act", "action": "select morgan"}).to_string(),
            "illegal_action",
        ),
        (
            json!({"cmd": "act", "action": "move E5"}).to_string(),
            "illegal_action",
        ),
        (
            json!({"cmd": "act", "action": "select 21st", "side": "american"}).to_string(),
            "not_your_turn",
        ),
        (
            json!({"cmd": "act", "action": "select 21st", "side": "french"}).to_string(),
            "unknown_side",
        ),
        (
            json!({"cmd": "view", "side": "french"}).to_string(),
            "unknown_side",
        ),
        (json!({"cmd": "undo"}).to_string(), "cannot_undo"),
        (
            json!({"cmd": "undo", "side": "american"}).to_string(),
            "cannot_undo",
        ),
        (
            json!({"cmd": "undo", "side": "french"}).to_string(),
            "unknown_side",
        ),
        (
            json!({"cmd": "load", "position": bad_position}).to_string(),
            "bad_position",
        ),
        (
            json!({"cmd": "load", "position": {"state": {}}}).to_string(),
            "bad_position",
        ),
        (
            json!({"cmd": "replay", "record": bad_record}).to_string(),
            "bad_record",
        ),
        (
            json!({"cmd": "replay", "record": {"game": "battles"}}).to_string(),
            "bad_record",
        ),
    ];
    for (line, kind) in &cases {
        e.error_line(line, kind);
        assert_eq!(e.position_line(), position, "the game changed after {line}");
    }
    // Nothing else changed either: record, legal actions, log.
    assert_eq!(e.send_raw(br#"{"cmd":"record"}"#), record);
    assert_eq!(e.send_raw(br#"{"cmd":"legal"}"#), legal);
    assert_eq!(e.send_raw(br#"{"cmd":"log"}"#), log);
    // And the game goes on.
    let s = e.ok(json!({"cmd": "act", "action": "select 21st", "side": "british"}));
    assert_eq!(s["to_act"], "british");
    e.finish();
}

#[test]
fn illegal_and_unparsable_actions_explain_themselves() {
    let mut e = Engine::start();
    e.new_game("freemans-farm", 1);
    let m = e.error(json!({"cmd": "act", "action": "move E5"}), "illegal_action");
    assert!(m.contains("move E5"), "{m}");
    let m = e.error(
        json!({"cmd": "act", "action": "select nobody"}),
        "unparsable",
    );
    assert!(m.contains("nobody"), "{m}");
    let m = e.error(json!({"cmd": "act", "action": "march D5"}), "unparsable");
    assert!(m.contains("march"), "{m}");
    let m = e.error(
        json!({"cmd": "act", "action": "select 21st", "side": "british"}),
        "not_your_turn",
    );
    assert!(m.contains("american"), "{m}");
    e.finish();
}

#[test]
fn a_finished_game_refuses_actions_with_game_over() {
    let mut e = Engine::start();
    let s = e.new_game("oriskany", 3);
    let end = e.play(s, 2000, 0);
    assert!(end["to_act"].is_null(), "the game ended: {end}");
    let position = e.position_line();
    e.error(json!({"cmd": "act", "action": "end-movement"}), "game_over");
    e.error(
        json!({"cmd": "act", "action": "end-movement", "side": "british"}),
        "game_over",
    );
    e.error(json!({"cmd": "undo"}), "cannot_undo");
    assert_eq!(e.position_line(), position);
    e.finish();
}

#[test]
fn bad_bytes_empty_lines_and_huge_lines_do_not_kill_the_engine() {
    let mut e = Engine::start();
    e.new_game("freemans-farm", 1);
    let position = e.position_line();
    // Not UTF-8: an error answer, and the engine goes on.
    let answer: Value = serde_json::from_str(&e.send_raw(b"\xff\xfe{\"cmd\":\"version\"}\x80"))
        .expect("the answer to a non-UTF-8 line is JSON");
    assert_eq!(answer["ok"], false);
    assert_eq!(answer["error"]["kind"], "bad_request");
    assert!(
        answer["error"]["message"]
            .as_str()
            .unwrap()
            .contains("UTF-8"),
        "{answer}"
    );
    assert_eq!(e.position_line(), position);
    // Empty and blank lines get no answer at all: the next answer is the version's.
    e.write(b"\n\n   \n\t\n");
    let v = e.ok(json!({"cmd": "version"}));
    assert_eq!(v["protocol"], 1);
    // Windows line ends are fine.
    e.write(b"{\"cmd\":\"version\"}\r\n");
    assert_eq!(
        serde_json::from_str::<Value>(&e.read()).unwrap()["ok"],
        true
    );
    // A line over the limit (4 MiB) is refused, not read as a request.
    let mut huge = br#"{"cmd":"act","action":""#.to_vec();
    huge.extend(std::iter::repeat_n(b'x', 4 << 20));
    huge.extend(br#""}"#);
    let m = e.error_line(&String::from_utf8(huge).unwrap(), "bad_request");
    assert!(m.contains("longer"), "{m}");
    assert_eq!(e.position_line(), position);
    e.finish();
}

#[test]
fn the_last_line_needs_no_newline_and_eof_ends_the_engine_cleanly() {
    let mut e = Engine::start();
    e.write(br#"{"cmd":"version"}"#);
    drop(e.stdin.take());
    let v: Value = serde_json::from_str(&e.read()).unwrap();
    assert_eq!(v["protocol"], 1);
    e.finish();
}

// ---- undo ----------------------------------------------------------------------------------

#[test]
fn undo_of_a_selection_restores_the_position_exactly() {
    let mut e = Engine::start();
    let s = e.new_game("freemans-farm", 1);
    assert_eq!(s["can_undo"], false);
    let before = e.position_line();
    let record_before = e.send_raw(br#"{"cmd":"record"}"#);
    let legal_before = e.send_raw(br#"{"cmd":"legal"}"#);

    let s = e.ok(json!({"cmd": "act", "action": "select morgan"}));
    assert_eq!(s["to_act"], "american");
    assert_eq!(s["can_undo"], true, "{s}");
    assert_ne!(e.position_line(), before);

    let s = e.ok(json!({"cmd": "undo", "side": "american"}));
    assert_status(&s);
    assert_eq!(s["can_undo"], false, "{s}");
    assert_eq!(e.position_line(), before);
    assert_eq!(e.send_raw(br#"{"cmd":"record"}"#), record_before);
    assert_eq!(e.send_raw(br#"{"cmd":"legal"}"#), legal_before);
    e.error(json!({"cmd": "undo"}), "cannot_undo");
    e.finish();
}

#[test]
fn undo_walks_back_several_own_decisions_and_the_log_with_them() {
    let mut e = Engine::start();
    e.new_game("freemans-farm", 1);
    let p0 = e.position_line();
    e.ok(json!({"cmd": "act", "action": "select morgan"}));
    let p1 = e.position_line();
    let s = e.ok(json!({"cmd": "act", "action": "move D5"}));
    assert_eq!(s["events"].as_array().map(|v| v.len()), Some(1), "{s}");
    assert_eq!(
        e.ok(json!({"cmd": "log"}))["log"]
            .as_array()
            .map(|v| v.len()),
        Some(1)
    );
    e.ok(json!({"cmd": "undo"}));
    assert_eq!(e.position_line(), p1);
    assert_eq!(e.ok(json!({"cmd": "log"}))["log"], json!([]));
    e.ok(json!({"cmd": "undo"}));
    assert_eq!(e.position_line(), p0);
    assert_eq!(e.record()["actions"], json!([]));
    e.finish();
}

#[test]
fn undo_is_refused_after_a_hand_over_to_the_other_side() {
    let mut e = Engine::start();
    e.new_game("freemans-farm", 1);
    e.ok(json!({"cmd": "act", "action": "select morgan"}));
    e.ok(json!({"cmd": "act", "action": "move D5"}));
    let s = e.ok(json!({"cmd": "act", "action": "end-movement"}));
    assert_eq!(s["to_act"], "british", "{s}");
    assert_eq!(s["can_undo"], false);
    let position = e.position_line();
    e.error(json!({"cmd": "undo"}), "cannot_undo");
    e.error(json!({"cmd": "undo", "side": "british"}), "cannot_undo");
    e.error(json!({"cmd": "undo", "side": "american"}), "cannot_undo");
    assert_eq!(e.position_line(), position);
    e.finish();
}

#[test]
fn undo_is_refused_after_a_die_roll_even_when_the_same_side_goes_on() {
    let mut e = Engine::start();
    e.new_game("freemans-farm", 1);
    // A hand-written position: Dearborn reduced, the Americans about to try a rally.
    let mut p = e.position();
    p.as_object_mut().unwrap().remove("engine");
    p["state"]["dice"] = json!({"seed": 5});
    p["state"]["units"][15]["reduced"] = json!(true);
    p["state"]["phase"] = json!({"step": "rally"});
    let s = e.ok(json!({"cmd": "load", "position": p}));
    assert_eq!(s["prompt"]["section"], "9.3", "{s}");
    let s = e.ok(json!({"cmd": "act", "action": "rally dearborn"}));
    assert_eq!(s["to_act"], "american", "{s}");
    let events = s["events"].as_array().unwrap();
    assert!(
        events.iter().any(|ev| ev["chance"] == true),
        "a die was rolled: {s}"
    );
    assert_eq!(s["can_undo"], false);
    e.error(json!({"cmd": "undo"}), "cannot_undo");
    e.finish();
}

// ---- records and replay --------------------------------------------------------------------

#[test]
fn replay_of_a_record_reproduces_the_position_byte_for_byte() {
    let mut e = Engine::start();
    let s = e.new_game("freemans-farm", 11);
    let s = e.play(s, 60, 0);
    assert!(!s["to_act"].is_null(), "still going after 60 decisions");
    let position = e.position_line();
    let record = e.record();
    assert_eq!(record["format"], "muster-record");
    assert_eq!(record["version"], 1);
    assert_eq!(record["game"], "battles");
    assert_eq!(record["scenario"], "freemans-farm");
    assert_eq!(record["seed"], 11);
    assert!(record.get("start").is_none());
    assert_eq!(record["actions"].as_array().map(|a| a.len()), Some(60));
    let record_line = e.send_raw(br#"{"cmd":"record"}"#);

    // In this engine (replacing the game) and in a fresh one.
    let r = e.ok(json!({"cmd": "replay", "record": record.clone()}));
    assert_eq!(r["legal"], s["legal"]);
    assert_eq!(e.position_line(), position);
    assert_eq!(e.send_raw(br#"{"cmd":"record"}"#), record_line);
    let mut fresh = Engine::start();
    fresh.ok(json!({"cmd": "replay", "record": record}));
    assert_eq!(fresh.position_line(), position);
    fresh.finish();
    e.finish();
}

/// A record the play server wrote carries its time control and how the game ended outside
/// the rules (docs/protocol.md §9): the engine accepts both and replays the actions alone.
#[test]
fn replay_accepts_a_servers_record_with_its_time_control_and_ending() {
    let mut e = Engine::start();
    let s = e.new_game("oriskany", 5);
    e.play(s, 12, 0);
    let position = e.position_line();
    let mut record = e.record();
    record["time"] = json!({"kind": "pace", "days": 3});
    record["ended"] = json!({"reason": "time", "side": "american", "winner": "british"});
    let mut fresh = Engine::start();
    fresh.ok(json!({"cmd": "replay", "record": record.clone()}));
    assert_eq!(fresh.position_line(), position);
    // A time control that is not one is a bad record, and the game in the engine stays.
    record["time"] = json!({"kind": "pace", "days": 3, "hours": 1});
    fresh.error(json!({"cmd": "replay", "record": record}), "bad_record");
    assert_eq!(fresh.position_line(), position);
    fresh.finish();
    e.finish();
}

#[test]
fn a_whole_game_ends_with_an_outcome_and_replays_to_the_same_end() {
    for (scenario, seed) in [("oriskany", 3), ("freemans-farm", 3)] {
        let mut e = Engine::start();
        let s = e.new_game(scenario, seed);
        let mut status = s;
        let mut decisions = 0;
        while !status["to_act"].is_null() {
            assert!(decisions < 5000, "{scenario}: the game does not end");
            let action = pick(&status, decisions);
            status = e.ok(json!({"cmd": "act", "action": action}));
            assert_status(&status);
            decisions += 1;
        }
        // The last decision reports the end of the game (§10).
        let events = status["events"].as_array().unwrap();
        assert!(
            events.iter().any(|ev| ev["section"] == "10"),
            "{scenario}: the end is in the events: {status}"
        );
        let outcome = e.ok(json!({"cmd": "outcome"}))["outcome"].clone();
        assert_eq!(outcome, status["outcome"]);
        let winner = outcome["winner"].as_str().expect("a winner");
        assert!(["american", "british"].contains(&winner), "{outcome}");
        for side in ["american", "british"] {
            assert!(
                outcome["vp"][side].is_i64(),
                "{scenario}: vp for {side}: {outcome}"
            );
        }
        assert!(outcome["reason"].as_str().is_some_and(|r| !r.is_empty()));
        let view = e.ok(json!({"cmd": "view", "side": "american"}))["view"].clone();
        assert_eq!(
            view["turn"], 12,
            "{scenario}: the game went the full 12 turns"
        );
        assert_eq!(view["to_act"], Value::Null);

        let end = e.position_line();
        let record = e.record();
        assert_eq!(
            record["actions"].as_array().map(|a| a.len()),
            Some(decisions)
        );
        let mut fresh = Engine::start();
        let r = fresh.ok(json!({"cmd": "replay", "record": record}));
        assert_eq!(r["to_act"], Value::Null);
        assert_eq!(r["outcome"], outcome);
        assert_eq!(
            fresh.position_line(),
            end,
            "{scenario}: replay reaches the same end"
        );
        fresh.finish();
        e.finish();
    }
}

#[test]
fn replay_refuses_a_record_with_an_illegal_action_naming_it() {
    let mut e = Engine::start();
    e.new_game("freemans-farm", 1);
    e.ok(json!({"cmd": "act", "action": "end-movement"}));
    let mut record = e.record();
    record["actions"]
        .as_array_mut()
        .unwrap()
        .push(json!({"side": "british", "action": "select morgan"}));
    let m = e.error(json!({"cmd": "replay", "record": record}), "bad_record");
    assert!(m.contains("action 2") && m.contains("select morgan"), "{m}");
    let mut record = e.record();
    record["format"] = json!("pgn");
    e.error(json!({"cmd": "replay", "record": record}), "bad_record");
    e.finish();
}

// ---- views ---------------------------------------------------------------------------------

#[test]
fn views_never_show_the_dice() {
    let mut e = Engine::start();
    let mut status = e.new_game("freemans-farm", 5);
    for round in 0..12 {
        let position = e.position();
        let dice = &position["state"]["dice"];
        let key = dice["key"]
            .as_str()
            .expect("the position holds the dice key");
        assert_eq!(key.len(), 64);
        assert!(dice["word_pos"].is_string(), "{dice}");
        assert!(e.position_line().contains("\"dice\""));
        for side in [json!("american"), json!("british"), Value::Null] {
            let request = if side.is_null() {
                json!({"cmd": "view"})
            } else {
                json!({"cmd": "view", "side": side})
            };
            let view = e.ok(request)["view"].clone();
            let mut all = Vec::new();
            keys(&view, &mut all);
            for secret in ["dice", "key", "word_pos"] {
                assert!(
                    !all.iter().any(|k| k == secret),
                    "{side} sees {secret}: {view}"
                );
            }
            let text = view.to_string();
            for secret in ["dice", "key", "word_pos", key] {
                assert!(!text.contains(secret), "{side} sees {secret}: {text}");
            }
            assert_eq!(view["scenario"], "freemans-farm");
            assert_eq!(view["units"].as_array().map(|u| u.len()), Some(28));
        }
        for cmd in ["log", "text"] {
            let line = e.send_raw(
                json!({"cmd": cmd, "side": "british"})
                    .to_string()
                    .as_bytes(),
            );
            assert!(!line.contains(key), "{cmd} shows the dice key");
        }
        status = e.play(status, 25, round * 25);
    }
    e.finish();
}

// ---- positions -----------------------------------------------------------------------------

#[test]
fn load_of_a_position_round_trips_and_plays_on_identically() {
    let mut a = Engine::start();
    let s = a.new_game("freemans-farm", 21);
    let s = a.play(s, 45, 0);
    let position = a.position();
    let position_line = a.position_line();
    assert_eq!(position["format"], "muster-position");
    assert_eq!(position["version"], 1);
    assert_eq!(position["game"], "battles");

    let mut b = Engine::start();
    let loaded = b.ok(json!({"cmd": "load", "position": position.clone()}));
    assert_eq!(b.position_line(), position_line);
    assert_eq!(loaded["legal"], s["legal"]);
    assert_eq!(
        loaded["can_undo"], false,
        "nothing before a load can be undone"
    );
    // A loaded game's record starts from the position, not from a seed.
    let record = b.record();
    assert!(record.get("seed").is_none(), "{record}");
    assert_eq!(record["start"], position["state"]);
    assert_eq!(record["actions"], json!([]));

    // Both engines play the same decisions, dice included, and stay identical.
    let mut status = s;
    for i in 0..40 {
        if status["to_act"].is_null() {
            break;
        }
        let action = pick(&status, i * 3 + 1);
        status = a.ok(json!({"cmd": "act", "action": action}));
        let same = b.ok(json!({"cmd": "act", "action": action}));
        assert_eq!(status, same);
        assert_eq!(a.position_line(), b.position_line());
    }
    // The loaded game's record replays too.
    let end = b.position_line();
    let record = b.record();
    let mut c = Engine::start();
    c.ok(json!({"cmd": "replay", "record": record}));
    assert_eq!(c.position_line(), end);
    c.finish();
    b.finish();
    a.finish();
}

#[test]
fn a_hand_written_position_may_give_the_dice_as_a_seed() {
    let mut e = Engine::start();
    e.new_game("freemans-farm", 9);
    let mut p = e.position();
    let line = e.position_line();
    p["state"]["dice"] = json!({"seed": 9});
    p.as_object_mut().unwrap().remove("engine");
    e.ok(json!({"cmd": "load", "position": p}));
    assert_eq!(
        e.position_line(),
        line,
        "{{\"seed\": 9}} is the dice of a game of seed 9"
    );
    e.finish();
}

#[test]
fn malformed_positions_are_refused_naming_the_problem() {
    let mut e = Engine::start();
    e.new_game("freemans-farm", 1);
    let good = e.position();
    let line = e.position_line();
    // Morgan (units[14]) stands at D6 and Dearborn (units[15]) at E6.
    type Edit = Box<dyn Fn(&mut Value)>;
    let cases: Vec<(&str, Edit, &str, Vec<&str>)> = vec![
        (
            "a hex that is not on the map",
            Box::new(|p| p["state"]["units"][14]["at"] = json!("P16")),
            "bad_position",
            vec!["P16", "morgan"],
        ),
        (
            "a hex just off the map's edge",
            Box::new(|p| p["state"]["units"][14]["at"] = json!("M1")),
            "bad_position",
            vec!["M1", "morgan"],
        ),
        (
            "not a hex label",
            Box::new(|p| p["state"]["units"][14]["at"] = json!("Z9")),
            "bad_position",
            vec!["Z9", "units[14]"],
        ),
        (
            "two units in one hex",
            Box::new(|p| p["state"]["units"][14]["at"] = json!("E6")),
            "bad_position",
            vec!["E6", "another unit"],
        ),
        (
            "units out of roster order",
            Box::new(|p| p["state"]["units"][14]["id"] = json!("dearborn")),
            "bad_position",
            vec!["units[14]", "morgan", "roster order"],
        ),
        (
            "a unit missing",
            Box::new(|p| {
                p["state"]["units"].as_array_mut().unwrap().pop();
            }),
            "bad_position",
            vec!["28", "27"],
        ),
        (
            "an unknown field",
            Box::new(|p| p["state"]["weather"] = json!("rain")),
            "bad_position",
            vec!["weather"],
        ),
        (
            "a turn past the last",
            Box::new(|p| p["state"]["turn"] = json!(13)),
            "bad_position",
            vec!["turn", "13"],
        ),
        (
            "a phase naming a unit that does not exist",
            Box::new(|p| p["state"]["phase"] = json!({"step": "movement", "selected": 99})),
            "bad_position",
            vec!["phase.selected", "99"],
        ),
        (
            "a phase that is not a step",
            Box::new(|p| p["state"]["phase"] = json!({"step": "lunch"})),
            "bad_position",
            vec!["phase"],
        ),
        (
            "malformed dice",
            Box::new(|p| p["state"]["dice"] = json!({"key": "00", "word_pos": "0"})),
            "bad_position",
            vec!["dice"],
        ),
        (
            "an unknown scenario",
            Box::new(|p| p["state"]["scenario"] = json!("saratoga")),
            "bad_position",
            vec!["saratoga"],
        ),
        (
            "the wrong format",
            Box::new(|p| p["format"] = json!("muster-record")),
            "bad_position",
            vec!["muster-position"],
        ),
        (
            "a later version",
            Box::new(|p| p["version"] = json!(2)),
            "bad_position",
            vec!["version"],
        ),
        (
            "no game name",
            Box::new(|p| {
                p.as_object_mut().unwrap().remove("game");
            }),
            "bad_position",
            vec!["game"],
        ),
        (
            "a game name that is not text",
            Box::new(|p| p["game"] = json!(7)),
            "bad_position",
            vec!["game"],
        ),
        // A game this engine does not have: the registry answers as for `new`.
        (
            "a wrong game name",
            Box::new(|p| p["game"] = json!("chess")),
            "unknown_game",
            vec!["chess"],
        ),
    ];
    for (what, edit, kind, words) in cases {
        let mut p = good.clone();
        edit(&mut p);
        let m = e.error(json!({"cmd": "load", "position": p}), kind);
        for w in words {
            assert!(m.contains(w), "{what}: the message should name {w:?}: {m}");
        }
        assert_eq!(
            e.position_line(),
            line,
            "{what}: the game in progress changed"
        );
    }
    e.finish();
}

// ---- muster check-data ---------------------------------------------------------------------

/// A fresh directory under the system temp dir, removed on drop.
struct TempDir(PathBuf);

impl TempDir {
    fn new(name: &str) -> TempDir {
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos());
        let dir =
            std::env::temp_dir().join(format!("muster-test-{name}-{}-{nanos}", std::process::id()));
        std::fs::create_dir_all(dir.join("battles")).expect("create temp dir");
        TempDir(dir)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn oriskany_toml() -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../games/battles/data/oriskany.toml");
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn check_data(dir: &Path) -> Output {
    Command::new(BIN)
        .arg("--data")
        .arg(dir)
        .arg("check-data")
        .output()
        .expect("run muster check-data")
}

/// Writes `text` as DIR/battles/oriskany.toml and runs check-data: (success, stdout+stderr).
fn check_oriskany(name: &str, text: &str) -> (bool, String) {
    let dir = TempDir::new(name);
    std::fs::write(dir.0.join("battles/oriskany.toml"), text).expect("write data file");
    let out = check_data(&dir.0);
    let all = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    (out.status.success(), all)
}

#[test]
fn check_data_accepts_an_unbroken_copy() {
    let (ok, out) = check_oriskany("good", &oriskany_toml());
    assert!(ok, "{out}");
    assert!(out.contains("battles"), "{out}");
    // It says which file each scenario came from and what is reconstructed.
    assert!(out.contains("battles/oriskany.toml"), "{out}");
    assert!(out.contains("built-in freemans-farm.toml"), "{out}");
    assert!(
        out.contains("reconstructed: ") && out.contains("map"),
        "{out}"
    );
}

#[test]
fn data_folder_that_does_not_exist_is_an_error() {
    let out = check_data(Path::new("/nonexistent/muster-data"));
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("no such data folder"));
}

#[test]
fn commands_without_fields_refuse_unknown_fields() {
    let mut e = Engine::start();
    e.new_game("oriskany", 1);
    for cmd in ["version", "games", "legal", "position", "record", "outcome"] {
        e.error(json!({"cmd": cmd, "side": "x"}), "bad_request");
    }
    e.finish();
}

#[test]
fn check_data_refuses_a_unit_set_up_on_a_bad_hex() {
    let text = oriskany_toml();
    let place = r#"place = { area = "1" }"#;
    assert!(text.contains(place), "the file still places Cox in Area 1");
    let (ok, out) = check_oriskany("bad-label", &text.replacen(place, r#"setup = "Z99""#, 1));
    assert!(!ok, "{out}");
    for w in ["oriskany.toml", "cox", "Z99"] {
        assert!(out.contains(w), "the message should name {w:?}: {out}");
    }
    // A well-formed label, but off this 12-column map.
    let (ok, out) = check_oriskany("off-map", &text.replacen(place, r#"setup = "M3""#, 1));
    assert!(!ok, "{out}");
    for w in ["oriskany.toml", "cox", "M3", "not on the map"] {
        assert!(out.contains(w), "the message should name {w:?}: {out}");
    }
}

#[test]
fn check_data_refuses_a_road_between_hexes_that_do_not_touch() {
    let text = oriskany_toml();
    let road = "\"A5 B5 C5 D5 E5 F5 G5 H5 I6 J6 K6 L6\"";
    assert!(text.contains(road), "the file still has the military road");
    let (ok, out) = check_oriskany("bad-road", &text.replacen(road, "\"A5 C5\"", 1));
    assert!(!ok, "{out}");
    for w in ["oriskany.toml", "map.roads[0]", "A5", "C5", "not adjacent"] {
        assert!(out.contains(w), "the message should name {w:?}: {out}");
    }
}

#[test]
fn check_data_refuses_a_file_that_is_not_toml() {
    let (ok, out) = check_oriskany("not-toml", "[scenario\nid = ");
    assert!(!ok, "{out}");
    assert!(out.contains("oriskany.toml"), "{out}");
}

// ---- muster play ---------------------------------------------------------------------------

fn play(args: &[&str], input: &str) -> (Output, String) {
    let mut child = Command::new(BIN)
        .arg("play")
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run muster play");
    // The script is small: it fits in the pipe before the game reads it.
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(input.as_bytes())
        .expect("write the script");
    let out = child.wait_with_output().expect("muster play ends");
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    (out, stdout)
}

#[test]
fn play_against_random_shows_the_board_and_numbered_actions() {
    let script = format!("{}q\n", "1\n".repeat(40));
    let (out, stdout) = play(
        &[
            "battles",
            "--scenario",
            "oriskany",
            "--vs",
            "random",
            "--seed",
            "3",
        ],
        &script,
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}\n{stdout}");
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert!(stdout.contains("Oriskany"), "{stdout}");
    assert!(
        stdout.contains("turn 1/12"),
        "the board is printed: {stdout}"
    );
    assert!(stdout.contains("American units:"), "{stdout}");
    assert!(
        stdout.contains("    1. place "),
        "numbered legal actions: {stdout}"
    );
    assert!(stdout.contains("american to act"), "{stdout}");
    // The answers were taken: the set-up went on and the British (random) set up too.
    assert!(stdout.contains("sets up at"), "{stdout}");
    assert!(!stdout.contains("Refused"), "{stdout}");
}

#[test]
fn play_hot_seat_with_undo_lines_does_not_crash() {
    let script = "u\n1\nu\nu\n1\n1\nu\nb\nnonsense\n99\nplace Z1\nu\n1\n1\n1\n1\n1\nu\nq\n";
    let (out, stdout) = play(
        &[
            "battles",
            "--scenario",
            "oriskany",
            "--vs",
            "human",
            "--seed",
            "3",
        ],
        script,
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}\n{stdout}");
    assert!(!stderr.contains("panicked"), "{stderr}");
    // The first `u` has nothing to take back.
    assert!(stdout.contains("Refused (\"cannot_undo\")"), "{stdout}");
    assert!(stdout.contains("Refused (\"unparsable\")"), "{stdout}");
    assert!(stdout.contains("Choose 1 to"), "{stdout}");
    assert!(stdout.contains("sets up at"), "{stdout}");
}

#[test]
fn play_ends_quietly_when_input_runs_out() {
    let (out, stdout) = play(
        &["battles", "--scenario", "freemans-farm", "--seed", "2"],
        "",
    );
    assert!(out.status.success(), "{stdout}");
    assert!(stdout.contains("Freeman's Farm"), "{stdout}");
}
