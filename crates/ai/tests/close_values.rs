//! Search on close values (issue 18): when the root's children differ in value by far less
//! than the exploration term, UCT on raw means spreads its visits almost evenly and the most
//! visited child is close to a random pick. Selection rescales the siblings' means to their
//! spread, so a small but real difference still decides the visits.
//!
//! The toy game: the first side picks one of eight moves; the position after it is judged by
//! `evaluate` at once (playout depth 0), move 3 a little better than the others.

use muster_ai::mcts::{Budget, Params, search};
use muster_core::game::{GameInfo, IllegalAction, LogEntry, Prompt, ScenarioInfo};
use muster_core::{Audience, Game, Knowledge, Options, Outcome, Side, Viewer};
use serde::{Deserialize, Serialize};

struct Close {
    info: GameInfo,
    /// The value of each move for the side that picks it.
    values: [f32; 8],
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
struct State {
    picked: Option<u8>,
}

impl Close {
    fn new(values: [f32; 8]) -> Self {
        Close {
            values,
            info: GameInfo {
                id: "close".into(),
                name: "Close".into(),
                sides: vec!["first".into(), "second".into()],
                scenarios: vec![ScenarioInfo {
                    id: "one".into(),
                    name: "One".into(),
                    description: "one pick".into(),
                    source: "built in".into(),
                    reconstructed: vec![],
                    bot_side: None,
                }],
                options: vec![],
            },
        }
    }
}

impl Knowledge for Close {
    fn evaluate(&self, s: &State, side: Side) -> Option<f32> {
        let v = s.picked.map_or(0.5, |p| self.values[p as usize]);
        Some(if side == 0 { v } else { 1.0 - v })
    }
    fn playout_depth(&self) -> u32 {
        0
    }
}

impl Game for Close {
    type State = State;
    type Action = u8;
    type Event = String;
    type View = State;
    fn info(&self) -> &GameInfo {
        &self.info
    }
    fn new_game(&self, _: &str, _: &Options, _: u64) -> Result<State, String> {
        Ok(State { picked: None })
    }
    fn scenario_of<'a>(&self, _: &'a State) -> &'a str {
        "one"
    }
    fn options_of(&self, _: &State) -> Options {
        Options::new()
    }
    /// The first side picks; then the second side has one move forever (the game is judged
    /// by `evaluate`, never ended).
    fn to_act(&self, s: &State) -> Option<Side> {
        Some(if s.picked.is_none() { 0 } else { 1 })
    }
    fn prompt(&self, _: &State) -> Prompt {
        Prompt {
            text: "pick".into(),
            section: "1".into(),
        }
    }
    fn legal_actions(&self, s: &State, out: &mut Vec<u8>) {
        out.clear();
        if s.picked.is_none() {
            out.extend(0..8);
        } else {
            out.push(0);
        }
    }
    fn apply(&self, s: &mut State, side: Side, a: u8) -> Result<Vec<String>, IllegalAction> {
        let mut legal = Vec::new();
        self.legal_actions(s, &mut legal);
        if self.to_act(s) != Some(side) || !legal.contains(&a) {
            return Err(IllegalAction::not_legal("no"));
        }
        if s.picked.is_none() {
            s.picked = Some(a);
        }
        Ok(vec![format!("pick {a}")])
    }
    fn view(&self, s: &State, _: Viewer) -> State {
        s.clone()
    }
    fn outcome(&self, _: &State) -> Option<Outcome> {
        None
    }
    fn determinize(&self, _: &mut State, _: Side, _: &mut dyn rand_core::Rng) {}
    fn notation(&self, _: &State, a: u8) -> String {
        format!("pick {a}")
    }
    fn parse_action(&self, _: &State, t: &str) -> Result<u8, IllegalAction> {
        t.strip_prefix("pick ")
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
        match s.picked {
            Some(p) if p >= 8 => Err(format!("picked: 0 to 7, not {p}")),
            _ => Ok(()),
        }
    }
    fn render_text(&self, s: &State, _: Viewer) -> String {
        format!("{:?}", s.picked)
    }
}

fn params(iterations: u32) -> Params {
    Params {
        budget: Budget::Iterations(iterations),
        threads: 1,
        exploration: 0.7,
    }
}

/// Seven moves worth 0.500–0.506 and one worth 0.515: a difference of 0.01 against an
/// exploration term of 0.7. The search must find the better move and give it most of its
/// visits (on raw means it gave every move about an eighth).
#[test]
fn a_small_real_difference_between_siblings_decides_the_visits() {
    let values = [0.500, 0.503, 0.501, 0.515, 0.506, 0.502, 0.504, 0.500];
    let g = Close::new(values);
    let s = g.new_game("one", &Options::new(), 1).unwrap();
    for seed in 1..=5 {
        let r = search(&g, &s, &params(4_000), seed).unwrap();
        assert_eq!(r.action, 3, "seed {seed}: {:?}", r.root);
        let best = r.root.iter().find(|e| e.0 == 3).unwrap().1;
        let total: u32 = r.root.iter().map(|e| e.1).sum();
        assert!(
            best * 2 > total,
            "seed {seed}: the best move has {best} of {total} visits: {:?}",
            r.root
        );
    }
}

/// Differences below the floor of the rescaling (0.01) are not blown up into certainty: with
/// values a thousandth apart the visits stay spread, every move tried many times.
#[test]
fn differences_below_the_spread_floor_keep_exploring_every_move() {
    let values = [
        0.5000, 0.5004, 0.5001, 0.5008, 0.5002, 0.5003, 0.5005, 0.5006,
    ];
    let g = Close::new(values);
    let s = g.new_game("one", &Options::new(), 1).unwrap();
    let r = search(&g, &s, &params(4_000), 1).unwrap();
    assert_eq!(r.root.len(), 8);
    for &(a, visits, _) in &r.root {
        assert!(
            visits >= 100,
            "move {a} has only {visits} visits: {:?}",
            r.root
        );
    }
}
