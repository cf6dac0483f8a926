//! The object-safe face of every game: JSON in, JSON out. The CLI and the server reach games
//! only through this module, so adding a game touches neither.

use crate::bench::{self, BenchReport};
use crate::error::{Error, ErrorKind};
use crate::game::{Game, GameInfo, LogEntry, Options, Outcome, Prompt, Side, Viewer};
use crate::knowledge::Knowledge;
use crate::record::{Record, RecordedAction};
use crate::session::Session;
use serde::Serialize;
use serde_json::Value;
use std::sync::Arc;

/// One legal action: its notation (what to send back) and a label for people.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct LegalEntry {
    pub action: String,
    pub label: String,
}

/// A game type, erased.
pub trait DynGame: Send + Sync {
    fn info(&self) -> &GameInfo;
    fn new_match(
        &self,
        scenario: &str,
        options: &Options,
        seed: u64,
    ) -> Result<Box<dyn Match>, Error>;
    fn load(&self, position: &Value) -> Result<Box<dyn Match>, Error>;
    fn replay(&self, record: &Record) -> Result<Box<dyn Match>, Error>;
    /// Random play from the start of a scenario, measured (see `docs/performance.md`).
    fn bench(&self, scenario: &str, games: usize, seed: u64) -> Result<BenchReport, Error>;
    /// The static board description of a scenario, for clients.
    fn board(&self, scenario: &str) -> Result<Value, Error>;
    /// The game's browser board renderer, if it has one.
    fn client_script(&self) -> Option<&'static str>;
}

/// A game in progress, erased.
pub trait Match: Send {
    fn info(&self) -> &GameInfo;
    /// The side to act, by name, or `None` when the game is over.
    fn to_act(&self) -> Option<String>;
    fn prompt(&self) -> Prompt;
    fn legal(&self) -> Vec<LegalEntry>;
    /// Applies an action given in notation; `side`, when given, must be the side to act.
    fn act(&mut self, side: Option<&str>, action: &str) -> Result<Vec<LogEntry>, Error>;
    /// Applies several actions as one change, all or none; see [`Session::act_batch`].
    fn act_batch(&mut self, side: Option<&str>, actions: &[&str]) -> Result<Vec<LogEntry>, Error>;
    /// For each entry of [`Match::legal`], whether it cannot be taken back (it rolls dice,
    /// draws, reveals, hands play over or ends the game); see [`Session::irreversible`].
    fn irreversible(&self) -> Vec<bool>;
    /// [`Match::legal`] with [`Match::irreversible`]'s mark of each entry, finding the legal
    /// actions once.
    fn legal_marked(&self) -> (Vec<LegalEntry>, Vec<bool>);
    fn can_undo(&self, side: &str) -> bool;
    fn undo(&mut self, side: Option<&str>) -> Result<(), Error>;
    /// What `side` may see (`None`: a spectator).
    fn view(&self, side: Option<&str>) -> Result<Value, Error>;
    /// [`Match::view`] as compact JSON text, written straight from the game's view (several
    /// times cheaper than building the value).
    fn view_text(&self, side: Option<&str>) -> Result<String, Error>;
    fn outcome(&self) -> Option<Outcome>;
    /// The position; see [`Session::try_position`]: a state the game cannot write as JSON is
    /// an internal error, never a null state.
    fn try_position(&self) -> Result<Value, Error>;
    /// [`Match::try_position`] as JSON text, written straight from the state.
    fn try_position_text(&self) -> Result<String, Error>;
    /// [`Match::try_position`] as a plain value: on that error `{"error": message}`, which
    /// has no `state` and which `load` refuses.
    fn position(&self) -> Value;
    fn record(&self) -> Record;
    /// The log as `side` may read it (`None`: a spectator).
    fn log(&self, side: Option<&str>) -> Result<Vec<LogEntry>, Error>;
    /// How many actions the record holds (without copying it, as `record` does).
    fn actions_len(&self) -> usize;
    /// The record's actions from index `from` on.
    fn actions_from(&self, from: usize) -> Vec<RecordedAction>;
    /// How many entries the whole log holds (every audience's).
    fn log_len(&self) -> usize;
    /// Of the whole log's entries from index `from` on, those `side` may read, and how many it
    /// may read before `from`; see [`Session::log_from`].
    fn log_from(&self, side: Option<&str>, from: usize) -> Result<(usize, Vec<LogEntry>), Error>;
    /// The entries `side` may read after the first `skip` of them, and how many it may read in
    /// all; see [`Session::log_after`].
    fn log_after(&self, side: Option<&str>, skip: usize) -> Result<(usize, Vec<LogEntry>), Error>;
    /// A mark to come back to with [`Match::restore`] after `act`s (not after an undo).
    fn checkpoint(&self) -> Box<dyn std::any::Any + Send>;
    /// Goes back to a mark of [`Match::checkpoint`]; false (nothing changed) for a mark of
    /// another game.
    fn restore(&mut self, mark: Box<dyn std::any::Any + Send>) -> bool;
    /// The board as text for `side`.
    fn render_text(&self, side: Option<&str>) -> Result<String, Error>;
    fn clone_box(&self) -> Box<dyn Match>;
    /// The concrete session, for code that knows the game type (bots downcast to
    /// `Session<G>`).
    fn as_any(&self) -> &dyn std::any::Any;
    /// A copy in which everything `side` cannot know is resampled and the dice reseeded, as a
    /// search bot sees it (for tests that a bot reads nothing hidden).
    fn determinized(&self, side: &str, seed: u64) -> Result<Box<dyn Match>, Error>;
}

/// Wraps a [`Game`] as a [`DynGame`]. The game's [`Knowledge`] is asked only by `bench`, for
/// the weights of its random player (a game that knows nothing implements it empty).
pub struct Entry<G: Knowledge>(pub Arc<G>);

impl<G: Knowledge> DynGame for Entry<G> {
    fn info(&self) -> &GameInfo {
        self.0.info()
    }
    fn new_match(
        &self,
        scenario: &str,
        options: &Options,
        seed: u64,
    ) -> Result<Box<dyn Match>, Error> {
        Ok(Box::new(Session::new(
            self.0.clone(),
            scenario,
            options,
            seed,
        )?))
    }
    fn load(&self, position: &Value) -> Result<Box<dyn Match>, Error> {
        Ok(Box::new(Session::load(self.0.clone(), position)?))
    }
    fn replay(&self, record: &Record) -> Result<Box<dyn Match>, Error> {
        Ok(Box::new(Session::replay(self.0.clone(), record)?))
    }
    fn bench(&self, scenario: &str, games: usize, seed: u64) -> Result<BenchReport, Error> {
        bench::random_games(&*self.0, scenario, &Options::new(), games, seed)
    }
    fn board(&self, scenario: &str) -> Result<Value, Error> {
        if !self.0.info().scenarios.iter().any(|s| s.id == scenario) {
            return Err(Error::new(
                ErrorKind::UnknownScenario,
                format!("{} has no scenario {scenario:?}", self.0.info().id),
            ));
        }
        Ok(self.0.board(scenario))
    }
    fn client_script(&self) -> Option<&'static str> {
        self.0.client_script()
    }
}

fn side_of<G: Game>(game: &G, name: &str) -> Result<Side, Error> {
    game.info().side(name).ok_or_else(|| {
        Error::new(
            ErrorKind::UnknownSide,
            format!("no side {name:?}; the sides are {:?}", game.info().sides),
        )
    })
}

fn view_unwritable(e: serde_json::Error) -> Error {
    Error::new(
        ErrorKind::Internal,
        format!(
            "internal error: the view cannot be written as JSON (a bug in the game, not in the request): {e}"
        ),
    )
}

fn viewer_of<G: Game>(game: &G, side: Option<&str>) -> Result<Viewer, Error> {
    Ok(match side {
        Some(name) => Viewer::Side(side_of(game, name)?),
        None => Viewer::Spectator,
    })
}

/// The legal entries (notation and label) of `actions`, the legal actions of `session` now.
fn legal_entries<G: Game>(session: &Session<G>, actions: &[G::Action]) -> Vec<LegalEntry> {
    let (g, s) = (session.game(), session.state());
    actions
        .iter()
        .map(|&a| LegalEntry {
            action: g.notation(s, a),
            label: g.label(s, a),
        })
        .collect()
}

impl<G: Game> Match for Session<G> {
    fn info(&self) -> &GameInfo {
        self.game().info()
    }
    fn to_act(&self) -> Option<String> {
        let g = self.game();
        g.to_act(self.state())
            .map(|s| g.info().side_name(s).to_string())
    }
    fn prompt(&self) -> Prompt {
        self.game().prompt(self.state())
    }
    fn legal(&self) -> Vec<LegalEntry> {
        let mut actions = Vec::new();
        self.game().legal_actions(self.state(), &mut actions);
        legal_entries(self, &actions)
    }
    fn act(&mut self, side: Option<&str>, action: &str) -> Result<Vec<LogEntry>, Error> {
        let side = side.map(|s| side_of(self.game(), s)).transpose()?;
        Session::act(self, side, action)
    }
    fn act_batch(&mut self, side: Option<&str>, actions: &[&str]) -> Result<Vec<LogEntry>, Error> {
        let side = side.map(|s| side_of(self.game(), s)).transpose()?;
        Session::act_batch(self, side, actions)
    }
    fn irreversible(&self) -> Vec<bool> {
        Session::irreversible(self)
    }
    fn legal_marked(&self) -> (Vec<LegalEntry>, Vec<bool>) {
        let mut actions = Vec::new();
        self.game().legal_actions(self.state(), &mut actions);
        (legal_entries(self, &actions), self.marks(&actions))
    }
    fn can_undo(&self, side: &str) -> bool {
        side_of(self.game(), side).is_ok_and(|s| Session::can_undo(self, s))
    }
    fn undo(&mut self, side: Option<&str>) -> Result<(), Error> {
        let side = side.map(|s| side_of(self.game(), s)).transpose()?;
        Session::undo(self, side)
    }
    fn view(&self, side: Option<&str>) -> Result<Value, Error> {
        let viewer = viewer_of(self.game(), side)?;
        serde_json::to_value(self.game().view(self.state(), viewer)).map_err(view_unwritable)
    }
    fn view_text(&self, side: Option<&str>) -> Result<String, Error> {
        let viewer = viewer_of(self.game(), side)?;
        serde_json::to_string(&self.game().view(self.state(), viewer)).map_err(view_unwritable)
    }
    fn outcome(&self) -> Option<Outcome> {
        self.game().outcome(self.state())
    }
    fn try_position(&self) -> Result<Value, Error> {
        Session::try_position(self)
    }
    fn try_position_text(&self) -> Result<String, Error> {
        Session::try_position_text(self)
    }
    fn position(&self) -> Value {
        Session::position(self)
    }
    fn record(&self) -> Record {
        Session::record(self).clone()
    }
    fn log(&self, side: Option<&str>) -> Result<Vec<LogEntry>, Error> {
        Ok(self.log_for(viewer_of(self.game(), side)?))
    }
    fn actions_len(&self) -> usize {
        Session::record(self).actions.len()
    }
    fn actions_from(&self, from: usize) -> Vec<RecordedAction> {
        Session::record(self)
            .actions
            .get(from..)
            .unwrap_or_default()
            .to_vec()
    }
    fn log_len(&self) -> usize {
        self.log().len()
    }
    fn log_from(&self, side: Option<&str>, from: usize) -> Result<(usize, Vec<LogEntry>), Error> {
        Ok(Session::log_from(self, viewer_of(self.game(), side)?, from))
    }
    fn log_after(&self, side: Option<&str>, skip: usize) -> Result<(usize, Vec<LogEntry>), Error> {
        Ok(Session::log_after(
            self,
            viewer_of(self.game(), side)?,
            skip,
        ))
    }
    fn checkpoint(&self) -> Box<dyn std::any::Any + Send> {
        Box::new(Session::checkpoint(self))
    }
    fn restore(&mut self, mark: Box<dyn std::any::Any + Send>) -> bool {
        match mark.downcast::<crate::session::Checkpoint<G::State>>() {
            Ok(c) => {
                Session::restore(self, *c);
                true
            }
            Err(_) => false,
        }
    }
    fn render_text(&self, side: Option<&str>) -> Result<String, Error> {
        let viewer = viewer_of(self.game(), side)?;
        Ok(self.game().render_text(self.state(), viewer))
    }
    fn clone_box(&self) -> Box<dyn Match> {
        Box::new(self.clone())
    }
    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
    fn determinized(&self, side: &str, seed: u64) -> Result<Box<dyn Match>, Error> {
        let side = side_of(self.game(), side)?;
        let mut copy = self.clone();
        copy.determinize(side, seed);
        Ok(Box::new(copy))
    }
}

/// Every game Muster holds.
#[derive(Default)]
pub struct Registry {
    games: Vec<Box<dyn DynGame>>,
}

impl Registry {
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds a game.
    pub fn add<G: Knowledge>(&mut self, game: G) {
        self.games.push(Box::new(Entry(Arc::new(game))));
    }

    /// Every game's description.
    pub fn games(&self) -> Vec<&GameInfo> {
        self.games.iter().map(|g| g.info()).collect()
    }

    /// A game by id.
    pub fn get(&self, id: &str) -> Result<&dyn DynGame, Error> {
        self.games
            .iter()
            .find(|g| g.info().id == id)
            .map(|g| g.as_ref())
            .ok_or_else(|| {
                let known: Vec<&str> = self.games.iter().map(|g| g.info().id.as_str()).collect();
                Error::new(
                    ErrorKind::UnknownGame,
                    format!("no game {id:?}; the games are {known:?}"),
                )
            })
    }

    pub fn new_match(
        &self,
        game: &str,
        scenario: &str,
        options: &Options,
        seed: u64,
    ) -> Result<Box<dyn Match>, Error> {
        self.get(game)?.new_match(scenario, options, seed)
    }

    /// Loads a position; the game is named inside it.
    pub fn load(&self, position: &Value) -> Result<Box<dyn Match>, Error> {
        let game = position
            .get("game")
            .and_then(Value::as_str)
            .ok_or_else(|| {
                Error::new(ErrorKind::BadPosition, "a position needs a \"game\" field")
            })?;
        self.get(game)?.load(position)
    }

    pub fn replay(&self, record: &Record) -> Result<Box<dyn Match>, Error> {
        self.get(&record.game)?.replay(record)
    }
}
