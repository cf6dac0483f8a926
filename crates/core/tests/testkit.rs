//! The test kit itself (issue 15): on a sound toy game it finds nothing, and on toy games with
//! planted bugs (a panic on a loaded number, a side left with no legal action, a state that
//! does not round-trip, an action listed twice) it reports them with the mutation that found
//! them. Also: a state that cannot be written as JSON is an internal error, never a null state.

use muster_core::game::{GameInfo, IllegalAction, LogEntry, Prompt, ScenarioInfo};
use muster_core::registry::{DynGame, Entry, Match};
use muster_core::testkit::{FuzzConfig, fuzz};
use muster_core::{Audience, Dice, ErrorKind, Game, Knowledge, Options, Outcome, Side, Viewer};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::sync::Arc;

/// Take-away: a pile of stones, each side takes 1 to 3, whoever takes the last wins.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Bug {
    None,
    /// `legal_actions` indexes a fixed table by the pile: a loaded pile over 20 panics.
    PanicOnBigPile,
    /// `validate` accepts a pile of 0 with the game not over: a side with no legal action.
    NoActionAccepted,
    /// The state carries a map with non-string keys once the pile is 13: not writable as JSON.
    Unwritable,
    /// `legal_actions` lists "take 1" twice once the pile is under 10.
    ListedTwice,
}

struct Nim {
    info: GameInfo,
    bug: Bug,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct State {
    pile: u32,
    to_act: u8,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    winner: Option<u8>,
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    odd: BTreeMap<Vec<u8>, u8>,
    dice: Dice,
}

impl Nim {
    fn new(bug: Bug) -> Self {
        Self {
            bug,
            info: GameInfo {
                id: "nim".into(),
                name: "Nim".into(),
                sides: vec!["first".into(), "second".into()],
                scenarios: vec![ScenarioInfo {
                    id: "twenty".into(),
                    name: "Twenty".into(),
                    description: "20 stones".into(),
                    source: "built in".into(),
                    reconstructed: vec![],
                    bot_side: None,
                }],
                options: vec![],
            },
        }
    }
}

impl Knowledge for Nim {}

impl Game for Nim {
    type State = State;
    type Action = u8;
    type Event = String;
    type View = State;
    fn info(&self) -> &GameInfo {
        &self.info
    }
    fn new_game(&self, _: &str, _: &Options, seed: u64) -> Result<State, String> {
        Ok(State {
            pile: 20,
            to_act: 0,
            winner: None,
            odd: BTreeMap::new(),
            dice: Dice::from_seed(seed),
        })
    }
    fn scenario_of<'a>(&self, _: &'a State) -> &'a str {
        "twenty"
    }
    fn options_of(&self, _: &State) -> Options {
        Options::new()
    }
    fn to_act(&self, s: &State) -> Option<Side> {
        s.winner.is_none().then_some(s.to_act)
    }
    fn prompt(&self, _: &State) -> Prompt {
        Prompt {
            text: "take".into(),
            section: "1".into(),
        }
    }
    fn legal_actions(&self, s: &State, out: &mut Vec<u8>) {
        out.clear();
        if s.winner.is_some() {
            return;
        }
        if self.bug == Bug::PanicOnBigPile {
            let table = [0u8; 21];
            let _ = table[s.pile as usize];
        }
        out.extend((1..=3).filter(|&n| n as u32 <= s.pile));
        if self.bug == Bug::ListedTwice && s.pile < 10 {
            out.push(1);
        }
    }
    fn apply(&self, s: &mut State, side: Side, a: u8) -> Result<Vec<String>, IllegalAction> {
        let mut legal = Vec::new();
        self.legal_actions(s, &mut legal);
        if self.to_act(s) != Some(side) || !legal.contains(&a) {
            return Err(IllegalAction::not_legal("no"));
        }
        s.pile -= a as u32;
        if s.pile == 0 {
            s.winner = Some(side);
        }
        if self.bug == Bug::Unwritable && s.pile == 13 {
            s.odd.insert(vec![1], 1);
        }
        s.to_act = 1 - side;
        Ok(vec![format!("take {a}")])
    }
    fn view(&self, s: &State, _: Viewer) -> State {
        s.clone()
    }
    fn outcome(&self, s: &State) -> Option<Outcome> {
        s.winner.map(|w| Outcome {
            winner: Some(w),
            vp: vec![0, 0],
            reason: "took the last".into(),
        })
    }
    fn determinize(&self, _: &mut State, _: Side, _: &mut dyn rand_core::Rng) {}
    fn notation(&self, _: &State, a: u8) -> String {
        format!("take {a}")
    }
    fn parse_action(&self, _: &State, t: &str) -> Result<u8, IllegalAction> {
        t.strip_prefix("take ")
            .and_then(|n| n.parse().ok())
            .ok_or_else(|| IllegalAction::not_legal("unparsable"))
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
    fn validate(&self, s: &mut State) -> Result<(), String> {
        if s.to_act > 1 || s.winner.is_some_and(|w| w > 1) {
            return Err("to_act and winner must be 0 or 1".into());
        }
        if self.bug != Bug::PanicOnBigPile && s.pile > 20 {
            return Err(format!("pile: at most 20 stones, not {}", s.pile));
        }
        if self.bug != Bug::NoActionAccepted && (s.pile == 0) != s.winner.is_some() {
            return Err("winner: there is a winner exactly when the pile is empty".into());
        }
        Ok(())
    }
    fn render_text(&self, s: &State, _: Viewer) -> String {
        format!("{} stones", s.pile)
    }
}

fn cfg() -> FuzzConfig {
    FuzzConfig {
        inputs: 600,
        ..FuzzConfig::default()
    }
}

#[test]
fn a_sound_game_passes_with_inputs_both_refused_and_accepted() {
    let r = fuzz(&Entry(Arc::new(Nim::new(Bug::None))), &cfg());
    assert_eq!((r.panics, r.invalid), (0, 0), "{r}");
    assert!(r.refused > 0 && r.accepted > 0 && r.actions > 0, "{r}");
    assert_eq!(r.inputs, 600);
}

#[test]
fn a_panic_on_a_loaded_number_is_caught_and_reported_with_its_mutation() {
    let r = fuzz(&Entry(Arc::new(Nim::new(Bug::PanicOnBigPile))), &cfg());
    assert!(r.panics > 0, "{r}");
    let f = &r.failures[0];
    assert!(f.problem.contains("panicked"), "{}", f.problem);
    assert!(f.mutation.contains("state.pile"), "{}", f.mutation);
    assert!(f.input.contains("\"pile\""));
}

#[test]
fn a_side_left_with_no_legal_action_is_reported() {
    let r = fuzz(&Entry(Arc::new(Nim::new(Bug::NoActionAccepted))), &cfg());
    assert!(r.invalid > 0, "{r}");
    assert!(
        r.failures
            .iter()
            .any(|f| f.problem.contains("no legal action")),
        "{r}"
    );
}

#[test]
fn an_action_listed_twice_among_the_legal_ones_is_reported() {
    let r = fuzz(&Entry(Arc::new(Nim::new(Bug::ListedTwice))), &cfg());
    assert!(
        r.failures.iter().any(|f| f
            .problem
            .contains("the legal action take 1 is listed twice")),
        "{r}"
    );
    let sound = fuzz(&Entry(Arc::new(Nim::new(Bug::None))), &cfg());
    assert!(
        !sound
            .failures
            .iter()
            .any(|f| f.problem.contains("listed twice")),
        "{sound}"
    );
}

#[test]
fn a_state_that_cannot_be_written_is_an_internal_error_not_a_null_state() {
    let game = Entry(Arc::new(Nim::new(Bug::Unwritable)));
    let mut m = game.new_match("twenty", &Options::new(), 1).unwrap();
    for a in ["take 3", "take 3", "take 1"] {
        m.act(None, a).unwrap();
    }
    let e = m.try_position().unwrap_err();
    assert_eq!(e.kind, ErrorKind::Internal);
    assert!(e.message.contains("internal error"), "{}", e.message);
    // The view (here the state itself) cannot be written either: internal, not bad_request.
    let e = m.view(None).unwrap_err();
    assert_eq!(e.kind, ErrorKind::Internal);
    assert!(e.message.contains("internal error"), "{}", e.message);
    let p = m.position();
    assert!(p.get("state").is_none(), "{p}");
    assert_eq!(
        game.load(&p).err().map(|e| e.kind),
        Some(ErrorKind::BadPosition)
    );
}

#[test]
fn the_same_configuration_gives_the_same_counts() {
    let game = Entry(Arc::new(Nim::new(Bug::NoActionAccepted)));
    let (a, b) = (fuzz(&game, &cfg()), fuzz(&game, &cfg()));
    assert_eq!(
        (a.refused, a.accepted, a.invalid, a.actions),
        (b.refused, b.accepted, b.invalid, b.actions)
    );
    let _: &dyn DynGame = &game;
    let _: Option<&dyn Match> = None;
}
