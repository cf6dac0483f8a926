//! Battles of the American Revolution: Freeman's Farm (19 September 1777) and Oriskany
//! (6 August 1777).
//!
//! The rulebook has no section numbers; Muster numbers its headings in the order of its table
//! of contents (see `docs/rules/battles.md`): §1 Game Board, §2 Game Units, §3 Game Setup,
//! §4 Sequence of Play, §5 Unit Movement (§5.1 costs, §5.2 restrictions, §5.3
//! reinforcements), §6 Combat (§6.1 attacking, §6.2 defending, §6.3 resolution, §6.4 winning,
//! §6.5 losses, §6.6 retreats), §7 Board and Game Explanation, §8 Artillery (§8.1 support,
//! §8.2 targeting), §9 Leadership (§9.1 force march, §9.2 charge, §9.3 rally), §10 Victory,
//! §11 Freeman's Farm set-up, §12 Oriskany set-up, §13 Things to Remember.

pub mod action;
mod artillery;
mod board;
mod board_json;
mod combat;
pub mod data;
pub mod invariants;
mod knowledge;
mod leadership;
pub mod map;
mod movement;
mod notation;
mod sequence;
mod setup;
pub mod state;
mod text;
mod victory;

pub use action::{Action, Event};
pub use data::{AMERICAN, BRITISH, Scenario};
pub use state::State;

use muster_core::game::{
    Game, GameInfo, IllegalAction, IllegalKind, LogEntry, OptionInfo, Options,
};
use muster_core::{Outcome, Prompt, ScenarioInfo, Side, Viewer};
use std::path::Path;

/// The embedded scenario files: (file name, text).
pub const DATA_FILES: [(&str, &str); 2] = [
    (
        "freemans-farm.toml",
        include_str!("../data/freemans-farm.toml"),
    ),
    ("oriskany.toml", include_str!("../data/oriskany.toml")),
];

/// The game: its description and its checked scenarios.
pub struct Battles {
    info: GameInfo,
    scenarios: Vec<Scenario>,
}

impl Battles {
    /// The game with the scenario files built into the binary.
    pub fn new() -> Result<Battles, String> {
        Self::from_texts(
            DATA_FILES
                .iter()
                .map(|(f, t)| (format!("built-in {f}"), t.to_string())),
        )
    }

    /// The game with scenario files read from `dir/battles/` where present (the built-in file
    /// otherwise), so that a player can correct a map or a counter without rebuilding.
    pub fn from_dir(dir: &Path) -> Result<Battles, String> {
        if !dir.is_dir() {
            return Err(format!("{}: no such data folder", dir.display()));
        }
        let mut texts = Vec::new();
        for (file, builtin) in DATA_FILES {
            let path = dir.join("battles").join(file);
            match std::fs::read_to_string(&path) {
                Ok(t) => texts.push((path.display().to_string(), t)),
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                    texts.push((format!("built-in {file}"), builtin.to_string()))
                }
                Err(e) => return Err(format!("{}: {e}", path.display())),
            }
        }
        Self::from_texts(texts.into_iter())
    }

    /// The game from scenario texts given as (file name, TOML text) pairs: for tests, puzzles
    /// and variant maps.
    pub fn from_texts(files: impl Iterator<Item = (String, String)>) -> Result<Battles, String> {
        let mut scenarios = Vec::new();
        let mut sources = Vec::new();
        for (file, text) in files {
            let sc = data::load_scenario(&file, &text)?;
            if scenarios.iter().any(|s: &Scenario| s.id == sc.id) {
                return Err(format!("{file}: scenario id {:?} is used twice", sc.id));
            }
            scenarios.push(sc);
            sources.push(file);
        }
        let info = GameInfo {
            id: "battles".into(),
            name: "Battles of the American Revolution".into(),
            sides: data::SIDE_IDS.iter().map(|s| s.to_string()).collect(),
            scenarios: scenarios
                .iter()
                .zip(&sources)
                .map(|(s, source)| ScenarioInfo {
                    source: source.clone(),
                    reconstructed: s.reconstructed.clone(),
                    bot_side: None,
                    id: s.id.clone(),
                    name: s.name.clone(),
                    description: format!(
                        "{} ({}): {} turns, {} VP wins at once, {} moves first.",
                        s.name,
                        s.date,
                        s.turns,
                        s.vp_goal,
                        data::SIDE_NAMES[s.first as usize]
                    ),
                })
                .collect(),
            options: vec![OptionInfo {
                id: "storm".into(),
                description: "Oriskany (§12): the storm's -1 MP applies on turns 7-8 only \
                              (turns-7-8, Muster's reading) or on every turn (all-day)."
                    .into(),
                values: vec!["turns-7-8".into(), "all-day".into()],
                default: "turns-7-8".into(),
                scenarios: vec!["oriskany".into()],
            }],
        };
        Ok(Battles { info, scenarios })
    }

    /// Every scenario.
    pub fn scenarios(&self) -> &[Scenario] {
        &self.scenarios
    }

    /// The scenario a state is playing. States are checked on creation and load, so the
    /// scenario always exists; the first one stands in otherwise.
    pub fn scenario(&self, s: &State) -> &Scenario {
        self.scenarios
            .iter()
            .find(|sc| s.scenario.is(&sc.id))
            .unwrap_or(&self.scenarios[0])
    }
}

impl Game for Battles {
    type State = State;
    type Action = Action;
    type Event = Event;
    type View = state_view::View;

    fn info(&self) -> &GameInfo {
        &self.info
    }

    fn new_game(&self, scenario: &str, options: &Options, seed: u64) -> Result<State, String> {
        let sc = self
            .scenarios
            .iter()
            .find(|s| s.id == scenario)
            .ok_or_else(|| format!("no scenario {scenario:?}"))?;
        let opts = state::Opts {
            storm_all_day: options.get("storm").is_some_and(|v| v == "all-day"),
        };
        Ok(setup::new_game(sc, opts, seed))
    }

    fn scenario_of<'a>(&self, s: &'a State) -> &'a str {
        s.scenario.as_str()
    }

    fn options_of(&self, s: &State) -> Options {
        let mut o = Options::new();
        o.insert(
            "storm".into(),
            if s.options.storm_all_day {
                "all-day"
            } else {
                "turns-7-8"
            }
            .into(),
        );
        o
    }

    fn to_act(&self, s: &State) -> Option<Side> {
        sequence::to_act(s).map(|x| x.0)
    }

    fn prompt(&self, s: &State) -> Prompt {
        sequence::prompt(self.scenario(s), s)
    }

    fn legal_actions(&self, s: &State, out: &mut Vec<Action>) {
        out.clear();
        sequence::legal_actions(self.scenario(s), s, out);
    }

    fn apply(&self, s: &mut State, side: Side, a: Action) -> Result<Vec<Event>, IllegalAction> {
        let Some(to_act) = sequence::to_act(s) else {
            return Err(IllegalAction::new(
                IllegalKind::GameOver,
                "the game is over",
            ));
        };
        if side != to_act.0 {
            return Err(IllegalAction::new(
                IllegalKind::NotYourTurn,
                format!(
                    "it is the {} player's decision",
                    data::SIDE_NAMES[to_act.0 as usize & 1]
                ),
            ));
        }
        let mut events = Vec::new();
        sequence::apply(self.scenario(s), s, a, &mut events)?;
        Ok(events)
    }

    fn view(&self, s: &State, viewer: Viewer) -> state_view::View {
        state_view::View::new(self.scenario(s), s, viewer)
    }

    fn outcome(&self, s: &State) -> Option<Outcome> {
        let e = s.ended?;
        Some(Outcome {
            winner: Some(e.winner.0),
            vp: vec![e.vp.american as i32, e.vp.british as i32],
            reason: victory::reason_text(self.scenario(s), &e),
        })
    }

    fn determinize(&self, s: &mut State, _viewer: Side, rng: &mut dyn rand_core::Rng) {
        // Nothing on this board is hidden from either side; only the dice are unknown.
        s.dice = muster_core::Dice::from_rng(rng);
    }

    fn notation(&self, s: &State, a: Action) -> String {
        notation::notation(s, a)
    }

    fn parse_action(&self, s: &State, text: &str) -> Result<Action, IllegalAction> {
        notation::parse(s, text)
    }

    fn label(&self, s: &State, a: Action) -> String {
        notation::label(self.scenario(s), s, a)
    }

    fn describe(&self, s: &State, e: &Event) -> LogEntry {
        notation::describe(self.scenario(s), s, e)
    }

    fn is_chance(&self, _s: &State, e: &Event) -> bool {
        notation::is_chance(e)
    }

    fn validate(&self, s: &mut State) -> Result<(), String> {
        let sc = self
            .scenarios
            .iter()
            .find(|sc| sc.id == s.scenario.as_str())
            .ok_or_else(|| format!("scenario: no scenario {:?}", s.scenario.as_str()))?;
        setup::validate(sc, s)
    }

    fn render_text(&self, s: &State, viewer: Viewer) -> String {
        text::render(self.scenario(s), s, viewer)
    }

    fn board(&self, scenario: &str) -> serde_json::Value {
        match self.scenarios.iter().find(|s| s.id == scenario) {
            Some(sc) => board_json::describe(sc),
            None => serde_json::Value::Null,
        }
    }

    fn client_script(&self) -> Option<&'static str> {
        Some(include_str!("../web/board.js"))
    }
}

/// What a side sees: the whole board (nothing is hidden in these battles) but never the dice.
pub mod state_view {
    use crate::data::Scenario;
    use crate::state::{Ended, Opts, PerSide, Phase, SideId, State, Unit};
    use muster_core::{Key, Viewer};
    use serde::Serialize;

    #[derive(Serialize)]
    pub struct View {
        pub scenario: Key,
        pub options: Opts,
        pub turn: u8,
        pub turns: u8,
        pub active: SideId,
        pub to_act: Option<SideId>,
        pub phase: Phase,
        pub leadership: PerSide,
        pub artillery: PerSide,
        pub leader_used: bool,
        pub artillery_used: bool,
        pub vp: PerSide,
        pub vp_goal: u8,
        pub units: Vec<Unit>,
        pub ended: Option<Ended>,
    }

    impl View {
        pub fn new(sc: &Scenario, s: &State, _viewer: Viewer) -> View {
            View {
                scenario: s.scenario,
                options: s.options,
                turn: s.turn,
                turns: sc.turns,
                active: s.active,
                to_act: crate::sequence::to_act(s),
                phase: s.phase.clone(),
                leadership: s.leadership,
                artillery: s.artillery,
                leader_used: s.leader_used,
                artillery_used: s.artillery_used,
                vp: crate::victory::vp(sc, s),
                vp_goal: sc.vp_goal,
                units: s.units.to_vec(),
                ended: s.ended,
            }
        }
    }
}
