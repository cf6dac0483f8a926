//! The trait every game implements, and the small types it speaks in.

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fmt::Debug;

/// A side, as an index into [`GameInfo::sides`].
pub type Side = u8;

/// Game options as given by a player: option id to value. Missing options take their default.
pub type Options = BTreeMap<String, String>;

/// Who is looking at a state.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Viewer {
    /// A player of this side: sees what that side may know.
    Side(Side),
    /// Anybody else: sees only what both sides may know.
    Spectator,
}

/// Who may read a log entry.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Audience {
    All,
    Side(Side),
}

/// What a game is: its id, name, sides, scenarios and options.
#[derive(Clone, Debug, Serialize)]
pub struct GameInfo {
    pub id: String,
    pub name: String,
    /// Side names, indexed by [`Side`]; lowercase ids such as `american`.
    pub sides: Vec<String>,
    pub scenarios: Vec<ScenarioInfo>,
    pub options: Vec<OptionInfo>,
}

impl GameInfo {
    /// The index of a side by name.
    pub fn side(&self, name: &str) -> Option<Side> {
        self.sides.iter().position(|s| s == name).map(|i| i as Side)
    }

    /// The name of a side.
    pub fn side_name(&self, side: Side) -> &str {
        self.sides.get(side as usize).map_or("?", |s| s.as_str())
    }

    /// Checks options against this game's list and fills in defaults.
    pub fn resolve_options(&self, given: &Options) -> Result<Options, String> {
        for (k, v) in given {
            let Some(info) = self.options.iter().find(|o| &o.id == k) else {
                let known: Vec<&str> = self.options.iter().map(|o| o.id.as_str()).collect();
                return Err(format!(
                    "unknown option {k:?}; this game's options are {known:?}"
                ));
            };
            if !info.values.iter().any(|x| x == v) {
                return Err(format!(
                    "option {k:?} cannot be {v:?}; its values are {:?}",
                    info.values
                ));
            }
        }
        Ok(self
            .options
            .iter()
            .map(|o| {
                (
                    o.id.clone(),
                    given
                        .get(&o.id)
                        .cloned()
                        .unwrap_or_else(|| o.default.clone()),
                )
            })
            .collect())
    }
}

/// One scenario of a game.
#[derive(Clone, Debug, Serialize)]
pub struct ScenarioInfo {
    pub id: String,
    pub name: String,
    pub description: String,
    /// Where its data came from (a built-in file or a path given with `--data`).
    pub source: String,
    /// Data items marked reconstructed (not printed in the rulebook), e.g. `map`.
    pub reconstructed: Vec<String>,
    /// In a solitaire scenario, the side a bot plays (the CLI and the server seat a bot there,
    /// at the level the player chooses); `None` for a game between two players.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bot_side: Option<String>,
}

/// One game option, with its possible values.
#[derive(Clone, Debug, Serialize)]
pub struct OptionInfo {
    pub id: String,
    pub description: String,
    pub values: Vec<String>,
    pub default: String,
    /// The scenarios the option concerns; empty for every scenario. The new-game form shows
    /// an option only under the scenarios it names (issue 17).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub scenarios: Vec<String>,
}

/// What the side to act is asked to decide now.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Prompt {
    /// Plain words, e.g. "Choose a unit to move, or end movement."
    pub text: String,
    /// The rulebook section that governs this decision, e.g. "5.2".
    pub section: String,
}

/// The end of a game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Outcome {
    /// The winning side, or `None` for a draw (or a loss for everyone).
    pub winner: Option<Side>,
    /// Victory points by side.
    pub vp: Vec<i32>,
    /// Why the game ended, in plain words with the rule section.
    pub reason: String,
}

/// A log entry: what happened, with its rule section.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LogEntry {
    pub section: String,
    pub text: String,
    /// True for a die roll, a draw or a reveal: undo cannot go back past it.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub chance: bool,
    pub audience: Audience,
}

/// Why an action was refused. The state is unchanged.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct IllegalAction {
    pub kind: IllegalKind,
    pub message: String,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum IllegalKind {
    /// The game is over.
    GameOver,
    /// Another side must decide now.
    NotYourTurn,
    /// The action is not one of the legal actions now.
    NotLegal,
    /// The text is not an action of this game.
    Unparsable,
}

impl IllegalAction {
    pub fn new(kind: IllegalKind, message: impl Into<String>) -> Self {
        Self {
            kind,
            message: message.into(),
        }
    }
    pub fn not_legal(message: impl Into<String>) -> Self {
        Self::new(IllegalKind::NotLegal, message)
    }
}

impl std::fmt::Display for IllegalAction {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

/// A game: a pure state machine over plain-data states.
///
/// Contract:
/// - `legal_actions` lists exactly the actions `apply` accepts from `to_act`; `apply` refuses
///   everything else with an [`IllegalAction`] and leaves the state untouched.
/// - All chance goes through the state's own seeded dice; no I/O, clocks or globals.
/// - `view` never contains what the viewer may not know, nor the dice's key.
pub trait Game: Send + Sync + 'static {
    type State: Clone + PartialEq + Debug + Serialize + DeserializeOwned + Send + Sync;
    type Action: Copy + Eq + Debug + Send + Sync;
    type Event: Clone + Debug + Send + Sync;
    type View: Serialize;

    fn info(&self) -> &GameInfo;

    /// A new game. `options` have been resolved (every option present, values checked).
    fn new_game(&self, scenario: &str, options: &Options, seed: u64)
    -> Result<Self::State, String>;

    /// The scenario id and resolved options a state was started with.
    fn scenario_of<'a>(&self, state: &'a Self::State) -> &'a str;
    fn options_of(&self, state: &Self::State) -> Options;

    /// Who must decide now, or `None` when the game is over.
    fn to_act(&self, state: &Self::State) -> Option<Side>;

    /// What the side to act is asked now.
    fn prompt(&self, state: &Self::State) -> Prompt;

    /// Appends every legal action of the side to act to `out` (which is cleared first).
    fn legal_actions(&self, state: &Self::State, out: &mut Vec<Self::Action>);

    /// Applies one decision of `side`.
    fn apply(
        &self,
        state: &mut Self::State,
        side: Side,
        action: Self::Action,
    ) -> Result<Vec<Self::Event>, IllegalAction>;

    /// The state as `viewer` may see it.
    fn view(&self, state: &Self::State, viewer: Viewer) -> Self::View;

    /// The result, once the game is over.
    fn outcome(&self, state: &Self::State) -> Option<Outcome>;

    /// Resamples everything `viewer` cannot know and reseeds the dice (for search bots).
    fn determinize(&self, state: &mut Self::State, viewer: Side, rng: &mut dyn rand_core::Rng);

    /// The action's notation: short, stable text that [`Game::parse_action`] reads back.
    fn notation(&self, state: &Self::State, action: Self::Action) -> String;

    /// Reads an action's notation in the context of a state.
    fn parse_action(&self, state: &Self::State, text: &str) -> Result<Self::Action, IllegalAction>;

    /// A human label for a legal action, e.g. "Move Morgan's Riflemen D6 → D5 (1 MP)".
    fn label(&self, state: &Self::State, action: Self::Action) -> String;

    /// A log entry for an event; `state` is the state after the action.
    fn describe(&self, state: &Self::State, event: &Self::Event) -> LogEntry;

    /// Whether `event` is chance (a die rolled, a card drawn or revealed): the `chance` of its
    /// [`Game::describe`] entry, which is what this default reads. The irreversible marks ask
    /// it for the events of every legal action on every decision, so a game may answer without
    /// writing the entry's text; it must agree with `describe` (in debug builds every action a
    /// session applies checks that it does).
    fn is_chance(&self, state: &Self::State, event: &Self::Event) -> bool {
        self.describe(state, event).chance
    }

    /// Checks a state read from a position (ids, hexes, counters, phase) and may normalise it.
    fn validate(&self, state: &mut Self::State) -> Result<(), String>;

    /// The board as text, for terminal play.
    fn render_text(&self, state: &Self::State, viewer: Viewer) -> String;

    /// A static description of a scenario's board for clients (map geometry, terrain, tracks,
    /// counters' printed values), as JSON; `Null` when the game offers none.
    fn board(&self, _scenario: &str) -> serde_json::Value {
        serde_json::Value::Null
    }

    /// The browser client's board renderer for this game: a JavaScript file that the web
    /// server serves as it is (see `docs/server.md`).
    fn client_script(&self) -> Option<&'static str> {
        None
    }

    /// Bytes one state occupies in memory (override if the state owns heap data).
    fn state_bytes(&self, _state: &Self::State) -> usize {
        std::mem::size_of::<Self::State>()
    }
}
