//! Supply Lines of the American Revolution (Northern Theater, 1775-77).
//!
//! One module per chapter of the rulebook: §3 `setup`, §4 `sequence`, §5 `supply` (and §5.7
//! in `crown`), §6-§7 `impulse` (initiative in `sequence`), §8 `battle`, §9-§10 `turn_end`,
//! §11 `support`, §12 `crown`, §13 `victory`. The map, the tracks and the Patriot
//! reinforcement markers, which the rulebook does not print, are reconstructed in `data/`
//! (see `docs/rulings/supply-lines.md`); `docs/rules/supply-lines.md` maps every section to
//! its code and tests. `knowledge` gives the search bots an estimate of who is winning.

pub mod action;
mod battle;
mod board;
mod crown;
pub mod data;
mod impulse;
mod knowledge;
mod notation;
pub mod sequence;
mod setup;
pub mod state;
pub mod supply;
mod support;
mod text;
mod turn_end;
pub mod victory;

pub use action::{Action, Event};
pub use data::{CROWN, Data, PATRIOT};
pub use state::State;

use muster_core::game::{Game, GameInfo, IllegalAction, IllegalKind, LogEntry, Options};
use muster_core::{Outcome, Prompt, ScenarioInfo, Side, Viewer};
use std::path::Path;

/// The embedded data files: (file name, text), in the order map, tracks, reinforcements.
pub const DATA_FILES: [(&str, &str); 3] = [
    ("map.toml", include_str!("../data/map.toml")),
    ("tracks.toml", include_str!("../data/tracks.toml")),
    (
        "reinforcements.toml",
        include_str!("../data/reinforcements.toml"),
    ),
];

/// The only scenario: the campaign of 1775-1777 as the rulebook sets it up.
pub const SCENARIO: &str = "standard";

/// The game: its description and its checked data.
pub struct SupplyLines {
    info: GameInfo,
    data: Data,
}

impl SupplyLines {
    /// The game with the data files built into the binary.
    pub fn new() -> Result<SupplyLines, String> {
        let texts: Vec<(String, String)> = DATA_FILES
            .iter()
            .map(|(f, t)| (format!("built-in {f}"), t.to_string()))
            .collect();
        Self::from_texts(&texts)
    }

    /// The game with data files read from `dir/supply-lines/` where present (the built-in
    /// file otherwise), so that a player can correct the map or a track without rebuilding.
    pub fn from_dir(dir: &Path) -> Result<SupplyLines, String> {
        if !dir.is_dir() {
            return Err(format!("{}: no such data folder", dir.display()));
        }
        let mut texts = Vec::new();
        for (file, builtin) in DATA_FILES {
            let path = dir.join("supply-lines").join(file);
            match std::fs::read_to_string(&path) {
                Ok(t) => texts.push((path.display().to_string(), t)),
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                    texts.push((format!("built-in {file}"), builtin.to_string()))
                }
                Err(e) => return Err(format!("{}: {e}", path.display())),
            }
        }
        Self::from_texts(&texts)
    }

    /// The game from (file name, text) pairs for the map, the tracks and the reinforcement
    /// markers, in that order: for tests and variant maps.
    pub fn from_texts(files: &[(String, String)]) -> Result<SupplyLines, String> {
        let [m, t, r] = files else {
            return Err("supply-lines needs three data files: map, tracks, reinforcements".into());
        };
        let data = data::load((&m.0, &m.1), (&t.0, &t.1), (&r.0, &r.1))?;
        let info = GameInfo {
            id: "supply-lines".into(),
            name: "Supply Lines of the American Revolution: The Northern Theater".into(),
            sides: data::SIDE_IDS.iter().map(|s| s.to_string()).collect(),
            scenarios: vec![ScenarioInfo {
                id: SCENARIO.into(),
                name: "The Northern Theater, 1775-1777".into(),
                description: format!(
                    "{} turns from 1775; the Crown needs {} Victory Cities at first, the Patriot \
                     the Treaty of Alliance.",
                    data.turns(),
                    data.base_vc
                ),
                source: files
                    .iter()
                    .map(|f| f.0.as_str())
                    .collect::<Vec<_>>()
                    .join(", "),
                reconstructed: data.reconstructed.clone(),
                bot_side: None,
            }],
            options: vec![],
        };
        Ok(SupplyLines { info, data })
    }

    /// The checked data.
    pub fn data(&self) -> &Data {
        &self.data
    }

    /// Every invariant of a state (`setup::validate`): what a position must satisfy to be
    /// loaded, and what the random-play tests check after every decision. The error names the
    /// member at fault and the rule.
    pub fn check(&self, s: &State) -> Result<(), String> {
        if s.scenario.as_str() != SCENARIO {
            return Err(format!("scenario: no scenario {:?}", s.scenario.as_str()));
        }
        setup::validate(&self.data, s)
    }
}

impl Game for SupplyLines {
    type State = State;
    type Action = Action;
    type Event = Event;
    type View = View;

    fn info(&self) -> &GameInfo {
        &self.info
    }

    fn new_game(&self, scenario: &str, _options: &Options, seed: u64) -> Result<State, String> {
        if scenario != SCENARIO {
            return Err(format!(
                "no scenario {scenario:?}; the scenario is {SCENARIO:?}"
            ));
        }
        setup::new_game(&self.data, scenario, seed)
    }

    fn scenario_of<'a>(&self, s: &'a State) -> &'a str {
        s.scenario.as_str()
    }

    fn options_of(&self, _s: &State) -> Options {
        Options::new()
    }

    fn to_act(&self, s: &State) -> Option<Side> {
        sequence::to_act(s).map(|x| x.0)
    }

    fn prompt(&self, s: &State) -> Prompt {
        sequence::prompt(&self.data, s)
    }

    fn legal_actions(&self, s: &State, out: &mut Vec<Action>) {
        out.clear();
        let mut buf = sequence::Actions::new();
        sequence::legal(&self.data, s, &mut buf);
        out.extend_from_slice(&buf);
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
        sequence::apply(&self.data, s, a, &mut events)?;
        Ok(events)
    }

    fn view(&self, s: &State, viewer: Viewer) -> View {
        View::new(&self.data, s, viewer)
    }

    fn outcome(&self, s: &State) -> Option<Outcome> {
        let e = s.ended?;
        Some(Outcome {
            winner: e.winner.map(|w| w.0),
            vp: vec![0, 0],
            reason: notation::reason_text(e.reason),
        })
    }

    fn determinize(&self, s: &mut State, _viewer: Side, rng: &mut dyn rand_core::Rng) {
        // Both sides see the whole board, the cup's contents and the markers drawn; what
        // neither knows is the next draw and the next roll, which come from the dice.
        s.dice = muster_core::Dice::from_rng(rng);
    }

    fn notation(&self, s: &State, a: Action) -> String {
        notation::notation(s, a)
    }

    fn parse_action(&self, s: &State, text: &str) -> Result<Action, IllegalAction> {
        notation::parse(s, text)
    }

    fn label(&self, s: &State, a: Action) -> String {
        notation::label(&self.data, s, a)
    }

    fn describe(&self, s: &State, e: &Event) -> LogEntry {
        notation::describe(&self.data, s, e)
    }

    fn validate(&self, s: &mut State) -> Result<(), String> {
        self.check(s)
    }

    fn render_text(&self, s: &State, viewer: Viewer) -> String {
        text::render(&self.data, s, viewer)
    }

    fn board(&self, scenario: &str) -> serde_json::Value {
        if scenario != SCENARIO {
            return serde_json::Value::Null;
        }
        board::describe(&self.data, scenario, &self.info.scenarios[0].name)
    }

    fn client_script(&self) -> Option<&'static str> {
        Some(include_str!("../web/board.js"))
    }
}

/// What a side sees: the whole board and every track (nothing is hidden in this game), but
/// never the dice.
#[derive(serde::Serialize)]
pub struct View {
    pub scenario: muster_core::Key,
    pub turn: u8,
    pub turns: u8,
    pub year: u16,
    pub winter: bool,
    pub to_act: Option<state::SideId>,
    pub phase: state::Phase,
    pub areas: Vec<state::Area>,
    pub support: u8,
    pub support_draws: u8,
    pub declared: bool,
    pub pass: u8,
    pub crown_taken: u8,
    pub triumvirate: bool,
    pub in_nova: u8,
    pub crown_victory_cities: u8,
    pub crown_required: u8,
    /// Patriot reinforcement markers (by City id) in the cup and set aside.
    pub cup: Vec<muster_core::Key>,
    pub drawn: Vec<muster_core::Key>,
    pub stock_food: u8,
    pub stock_war: u8,
    pub ended: Option<state::Ended>,
}

impl View {
    pub fn new(d: &Data, s: &State, _viewer: Viewer) -> View {
        let markers = |bits: u32| {
            d.patriot_markers
                .iter()
                .enumerate()
                .filter(|(i, _)| bits >> i & 1 == 1)
                .map(|(_, &c)| d.areas[c as usize].id)
                .collect()
        };
        let (stock_food, stock_war) = supply::stock(d, s);
        View {
            scenario: s.scenario,
            turn: s.turn,
            turns: d.turns(),
            year: d.years.get(s.turn as usize - 1).copied().unwrap_or(0),
            winter: d.is_winter(s.turn),
            to_act: sequence::to_act(s),
            phase: s.phase,
            areas: s.areas.to_vec(),
            support: s.support,
            support_draws: d.support.get(s.support as usize).map_or(0, |x| x.draws),
            declared: s.declared,
            pass: s.pass,
            crown_taken: s.crown_taken,
            triumvirate: s.triumvirate,
            in_nova: s.in_nova,
            crown_victory_cities: victory::crown_cities(d, s),
            crown_required: victory::required(d, s),
            cup: markers(s.cup),
            drawn: markers(s.drawn),
            stock_food,
            stock_war,
            ended: s.ended,
        }
    }
}
