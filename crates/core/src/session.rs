//! A game at the table: the state, its record, its log, and undo within the rules' limits.

use crate::ENGINE_VERSION;
use crate::error::{Error, ErrorKind};
use crate::game::{Audience, Game, LogEntry, Options, Side, Viewer};
use crate::record::{
    FORMAT_VERSION, POSITION_FORMAT, Position, RECORD_FORMAT, Record, RecordedAction,
};
use rand_core::SeedableRng;
use serde_json::Value;
use std::sync::Arc;

/// A state as JSON, or an internal error saying that the game could not write it.
fn state_json<S: serde::Serialize>(state: &S) -> Result<Value, Error> {
    serde_json::to_value(state).map_err(|e| {
        Error::new(
            ErrorKind::Internal,
            format!("internal error: the game state cannot be written as JSON (a bug in the game, not in the request): {e}"),
        )
    })
}

/// One step that may still be taken back: one action, or a whole batch of them.
#[derive(Clone)]
struct UndoStep<S> {
    before: S,
    side: Side,
    log_len: usize,
    /// How many of the record's actions it takes back.
    actions: usize,
}

/// The most actions one batch ([`Session::act_batch`]) may hold.
pub const MAX_BATCH: usize = 64;

/// See [`Session::checkpoint`].
pub struct Checkpoint<S> {
    state: S,
    log_len: usize,
    actions: usize,
    undo: Vec<UndoStep<S>>,
}

fn readable(e: &LogEntry, viewer: Viewer) -> bool {
    match (e.audience, viewer) {
        (Audience::All, _) => true,
        (Audience::Side(s), Viewer::Side(v)) => s == v,
        (Audience::Side(_), Viewer::Spectator) => false,
    }
}

/// A game in progress with its record, log and undo stack.
pub struct Session<G: Game> {
    game: Arc<G>,
    state: G::State,
    record: Record,
    log: Vec<LogEntry>,
    undo: Vec<UndoStep<G::State>>,
}

impl<G: Game> Clone for Session<G> {
    fn clone(&self) -> Self {
        Self {
            game: self.game.clone(),
            state: self.state.clone(),
            record: self.record.clone(),
            log: self.log.clone(),
            undo: self.undo.clone(),
        }
    }
}

impl<G: Game> Session<G> {
    /// A new game from a seed.
    pub fn new(game: Arc<G>, scenario: &str, options: &Options, seed: u64) -> Result<Self, Error> {
        let info = game.info();
        if !info.scenarios.iter().any(|s| s.id == scenario) {
            let known: Vec<&str> = info.scenarios.iter().map(|s| s.id.as_str()).collect();
            return Err(Error::new(
                ErrorKind::UnknownScenario,
                format!(
                    "{} has no scenario {scenario:?}; its scenarios are {known:?}",
                    info.id
                ),
            ));
        }
        let options = info
            .resolve_options(options)
            .map_err(|m| Error::new(ErrorKind::BadOption, m))?;
        let state = game
            .new_game(scenario, &options, seed)
            .map_err(|m| Error::new(ErrorKind::BadOption, m))?;
        let record = Record {
            format: RECORD_FORMAT.into(),
            version: FORMAT_VERSION,
            engine: ENGINE_VERSION.into(),
            game: info.id.clone(),
            scenario: scenario.into(),
            options,
            seed: Some(seed),
            start: None,
            actions: Vec::new(),
            time: None,
            ended: None,
        };
        Ok(Self {
            game,
            state,
            record,
            log: Vec::new(),
            undo: Vec::new(),
        })
    }

    /// A game from a saved position (its `state` part), validated.
    pub fn load(game: Arc<G>, position: &Value) -> Result<Self, Error> {
        let bad = |m: String| Error::new(ErrorKind::BadPosition, m);
        let pos: Position = serde_json::from_value(position.clone())
            .map_err(|e| bad(format!("not a position: {e}")))?;
        if pos.format != POSITION_FORMAT {
            return Err(bad(format!(
                "format must be {POSITION_FORMAT:?}, not {:?}",
                pos.format
            )));
        }
        if pos.version != FORMAT_VERSION {
            return Err(bad(format!(
                "this engine reads position version {FORMAT_VERSION}, not {}",
                pos.version
            )));
        }
        if pos.game != game.info().id {
            return Err(bad(format!(
                "the position is of game {:?}, not {:?}",
                pos.game,
                game.info().id
            )));
        }
        let mut state: G::State = serde_path_to_error::deserialize(&pos.state).map_err(|e| {
            let path = e.path().to_string();
            let at = if path == "." {
                "state".to_string()
            } else {
                format!("state.{path}")
            };
            bad(format!("{at}: {}", e.inner()))
        })?;
        game.validate(&mut state).map_err(bad)?;
        let record = Record {
            format: RECORD_FORMAT.into(),
            version: FORMAT_VERSION,
            engine: ENGINE_VERSION.into(),
            game: game.info().id.clone(),
            scenario: game.scenario_of(&state).to_string(),
            options: game.options_of(&state),
            seed: None,
            start: Some(state_json(&state)?),
            actions: Vec::new(),
            time: None,
            ended: None,
        };
        Ok(Self {
            game,
            state,
            record,
            log: Vec::new(),
            undo: Vec::new(),
        })
    }

    /// Replays a record from its start, checking every action.
    pub fn replay(game: Arc<G>, record: &Record) -> Result<Self, Error> {
        let bad = |m: String| Error::new(ErrorKind::BadRecord, m);
        if record.format != RECORD_FORMAT || record.version != FORMAT_VERSION {
            return Err(bad(format!(
                "expected format {RECORD_FORMAT:?} version {FORMAT_VERSION}, found {:?} version {}",
                record.format, record.version
            )));
        }
        if record.game != game.info().id {
            return Err(bad(format!("the record is of game {:?}", record.game)));
        }
        let mut session = match (&record.seed, &record.start) {
            (Some(seed), None) => Self::new(game, &record.scenario, &record.options, *seed)?,
            (None, Some(start)) => {
                let position = serde_json::json!({
                    "format": POSITION_FORMAT, "version": FORMAT_VERSION,
                    "game": record.game, "state": start,
                });
                let session = Self::load(game, &position)
                    .map_err(|e| bad(format!("start: {}", e.message)))?;
                let g = &session.game;
                if g.scenario_of(&session.state) != record.scenario
                    || g.options_of(&session.state) != record.options
                {
                    return Err(bad(format!(
                        "the start position is of scenario {:?} with options {:?}, but the record says {:?} with {:?}",
                        g.scenario_of(&session.state),
                        g.options_of(&session.state),
                        record.scenario,
                        record.options
                    )));
                }
                session
            }
            _ => return Err(bad("a record has either a seed or a start position".into())),
        };
        for (i, a) in record.actions.iter().enumerate() {
            let side = session
                .game
                .info()
                .side(&a.side)
                .ok_or_else(|| bad(format!("action {}: unknown side {:?}", i + 1, a.side)))?;
            session.act(Some(side), &a.action).map_err(|e| {
                bad(format!(
                    "action {} ({} {:?}): {}",
                    i + 1,
                    a.side,
                    a.action,
                    e.message
                ))
            })?;
        }
        Ok(session)
    }

    pub fn game(&self) -> &G {
        &self.game
    }

    pub fn state(&self) -> &G::State {
        &self.state
    }

    pub fn record(&self) -> &Record {
        &self.record
    }

    pub fn log(&self) -> &[LogEntry] {
        &self.log
    }

    /// Applies a decision given in notation. `side`, when given, must be the side to act.
    pub fn act(&mut self, side: Option<Side>, text: &str) -> Result<Vec<LogEntry>, Error> {
        self.act_checked(side, text).map(|(entries, _)| entries)
    }

    /// Applies an already parsed action of the side to act.
    pub fn act_parsed(&mut self, side: Side, action: G::Action) -> Result<Vec<LogEntry>, Error> {
        self.apply_parsed(side, action).map(|(entries, _)| entries)
    }

    /// [`Session::act_parsed`], also saying whether the action ended what undo can reach (a
    /// die roll, a draw or reveal, a hand-over to another side, the end of the game).
    fn apply_parsed(
        &mut self,
        side: Side,
        action: G::Action,
    ) -> Result<(Vec<LogEntry>, bool), Error> {
        let notation = self.game.notation(&self.state, action);
        // Apply to a copy, so that nothing changes unless the whole action succeeds.
        let mut next = self.state.clone();
        let events = self.game.apply(&mut next, side, action)?;
        let entries: Vec<LogEntry> = events
            .iter()
            .map(|e| self.game.describe(&next, e))
            .collect();
        let chance = entries.iter().any(|e| e.chance);
        debug_assert!(
            events
                .iter()
                .zip(&entries)
                .all(|(e, entry)| self.game.is_chance(&next, e) == entry.chance),
            "Game::is_chance disagrees with describe's chance flag after {notation}"
        );
        let before = std::mem::replace(&mut self.state, next);
        let log_len = self.log.len();
        self.log.extend(entries.iter().cloned());
        self.record.actions.push(RecordedAction {
            side: self.game.info().side_name(side).to_string(),
            action: notation,
        });
        let last = chance || self.game.to_act(&self.state) != Some(side);
        if last {
            // A die, a reveal or a hand-over: nothing before this may be taken back.
            self.undo.clear();
        } else {
            self.undo.push(UndoStep {
                before,
                side,
                log_len,
                actions: 1,
            });
        }
        Ok((entries, last))
    }

    /// Applies several decisions of one side, in order, as one change: each must be legal in
    /// the position the ones before it left, and only the last may roll dice, draw, reveal or
    /// hand play over (a batch whose later actions were chosen before a die fell would let a
    /// refusal tell the roll). Either all are applied or none, and the error names the first
    /// one refused (`Error::index`, from 0). One undo takes the whole batch back, where undo
    /// may reach it. `side`, when given, must be the side to act; at most [`MAX_BATCH`].
    pub fn act_batch(
        &mut self,
        side: Option<Side>,
        texts: &[&str],
    ) -> Result<Vec<LogEntry>, Error> {
        if texts.is_empty() {
            return Err(Error::new(
                ErrorKind::BadRequest,
                "a batch holds at least one action",
            ));
        }
        if texts.len() > MAX_BATCH {
            return Err(Error::new(
                ErrorKind::BadRequest,
                format!(
                    "a batch holds at most {MAX_BATCH} actions, not {}",
                    texts.len()
                ),
            ));
        }
        let side = match side {
            Some(s) => Some(s),
            None => self.game.to_act(&self.state),
        };
        let mark = self.checkpoint();
        let steps_before = self.undo.len();
        let n = texts.len();
        let mut all = Vec::new();
        for (i, text) in texts.iter().enumerate() {
            let refuse = |this: &mut Self, mark, e: Error| {
                this.restore(mark);
                let mut e = Error::new(
                    e.kind,
                    format!(
                        "action {} of {n} ({text:?}) was refused: {}; nothing was applied",
                        i + 1,
                        e.message
                    ),
                );
                e.index = Some(i);
                Err(e)
            };
            let applied = self.act_checked(side, text);
            match applied {
                Err(e) => return refuse(self, mark, e),
                Ok((entries, last)) => {
                    if last && i + 1 < n {
                        let e = Error::new(
                            ErrorKind::IllegalAction,
                            "it rolls dice, draws, reveals or hands play over, which only the \
                             last action of a batch may",
                        );
                        return refuse(self, mark, e);
                    }
                    all.extend(entries);
                }
            }
        }
        // The batch's own undo steps (none when its last action ended undo) become one.
        if self.undo.len() == steps_before + n && n > 1 {
            let mut steps = self.undo.split_off(steps_before);
            let first = steps.swap_remove(0);
            self.undo.push(UndoStep {
                actions: n,
                ..first
            });
        }
        Ok(all)
    }

    /// [`Session::act`], saying whether the action ended what undo can reach.
    fn act_checked(
        &mut self,
        side: Option<Side>,
        text: &str,
    ) -> Result<(Vec<LogEntry>, bool), Error> {
        let to_act = self.check_side(side)?;
        let action = self.game.parse_action(&self.state, text)?;
        self.apply_parsed(to_act, action)
    }

    /// The side to act, checked against `side` when given.
    fn check_side(&self, side: Option<Side>) -> Result<Side, Error> {
        let Some(to_act) = self.game.to_act(&self.state) else {
            return Err(Error::new(ErrorKind::GameOver, "the game is over"));
        };
        if let Some(side) = side
            && side != to_act
        {
            return Err(Error::new(
                ErrorKind::NotYourTurn,
                format!(
                    "{} cannot act now: {} must decide",
                    self.game.info().side_name(side),
                    self.game.info().side_name(to_act)
                ),
            ));
        }
        Ok(to_act)
    }

    /// For each legal action, in [`Game::legal_actions`] order: whether it cannot be taken
    /// back, because it rolls dice, draws or reveals (an entry marked chance), hands the
    /// decision to another side or ends the game. Found by applying it to a copy; what a
    /// player learns from it is only whether chance or a hand-over follows, which depends on
    /// what that player sees (the test `irreversible_marks_read_nothing_hidden` checks it).
    pub fn irreversible(&self) -> Vec<bool> {
        let mut actions = Vec::new();
        self.game.legal_actions(&self.state, &mut actions);
        self.marks(&actions)
    }

    /// [`Session::irreversible`] of `actions`, the legal actions now in their order (the
    /// caller has them already: finding them again is the costly part in some games).
    pub fn marks(&self, actions: &[G::Action]) -> Vec<bool> {
        let Some(side) = self.game.to_act(&self.state) else {
            return Vec::new();
        };
        actions
            .iter()
            .map(|&a| {
                let mut next = self.state.clone();
                match self.game.apply(&mut next, side, a) {
                    Ok(events) => {
                        self.game.to_act(&next) != Some(side)
                            || events.iter().any(|e| self.game.is_chance(&next, e))
                    }
                    Err(_) => true,
                }
            })
            .collect()
    }

    /// Can `side` take back its last decision?
    pub fn can_undo(&self, side: Side) -> bool {
        self.undo.last().is_some_and(|s| s.side == side)
            && self.game.to_act(&self.state) == Some(side)
    }

    /// Takes back the last decision of `side` (or of the side to act): one action, or the
    /// whole of a batch ([`Session::act_batch`]).
    pub fn undo(&mut self, side: Option<Side>) -> Result<(), Error> {
        let side = match side.or_else(|| self.game.to_act(&self.state)) {
            Some(s) => s,
            None => return Err(Error::new(ErrorKind::CannotUndo, "the game is over")),
        };
        if !self.can_undo(side) {
            return Err(Error::new(
                ErrorKind::CannotUndo,
                "nothing to undo: only your own decisions since the last die roll, reveal or \
                 hand-over to the other side can be taken back",
            ));
        }
        let step = self.undo.pop().expect("checked by can_undo");
        self.state = step.before;
        self.log.truncate(step.log_len);
        let keep = self.record.actions.len().saturating_sub(step.actions);
        self.record.actions.truncate(keep);
        Ok(())
    }

    /// The position: the full state (dice included) in its documented JSON form.
    ///
    /// A state that cannot be written as JSON (a bug in the game's `Serialize`, such as a map
    /// with keys that are not strings) is an error, never a position with a null state.
    pub fn try_position(&self) -> Result<Value, Error> {
        let state = state_json(&self.state)?;
        Ok(serde_json::json!({
            "format": POSITION_FORMAT,
            "version": FORMAT_VERSION,
            "engine": ENGINE_VERSION,
            "game": self.game.info().id,
            "state": state,
        }))
    }

    /// [`Session::try_position`] written as JSON text straight from the state (no `Value` on
    /// the way: what the play server stores after every action). The same position, with its
    /// members in another order.
    pub fn try_position_text(&self) -> Result<String, Error> {
        #[derive(serde::Serialize)]
        struct Out<'a, S> {
            format: &'static str,
            version: u32,
            engine: &'static str,
            game: &'a str,
            state: &'a S,
        }
        serde_json::to_string(&Out {
            format: POSITION_FORMAT,
            version: FORMAT_VERSION,
            engine: ENGINE_VERSION,
            game: &self.game.info().id,
            state: &self.state,
        })
        .map_err(|e| {
            Error::new(
                ErrorKind::Internal,
                format!("internal error: the game state cannot be written as JSON (a bug in the game, not in the request): {e}"),
            )
        })
    }

    /// [`Session::try_position`] for callers that take a plain value: on the error (a bug in
    /// the game) it gives `{"error": message}`, which has no `state` and which `load` refuses,
    /// rather than a position that would claim the state is null.
    pub fn position(&self) -> Value {
        self.try_position()
            .unwrap_or_else(|e| serde_json::json!({ "error": e.message }))
    }

    /// Resamples what `side` cannot know and reseeds the dice (see [`Game::determinize`]).
    pub fn determinize(&mut self, side: Side, seed: u64) {
        let mut dice = crate::Dice::from_seed(seed);
        let mut key = [0u8; 32];
        for chunk in key.chunks_mut(8) {
            chunk.copy_from_slice(&dice.next_u64().to_le_bytes());
        }
        let mut rng = rand_chacha::ChaCha8Rng::from_seed(key);
        self.game.determinize(&mut self.state, side, &mut rng);
        self.undo.clear();
    }

    /// The log as `viewer` may read it.
    pub fn log_for(&self, viewer: Viewer) -> Vec<LogEntry> {
        self.log
            .iter()
            .filter(|e| readable(e, viewer))
            .cloned()
            .collect()
    }

    /// Of the whole log's entries from index `from` on, those `viewer` may read; and how many
    /// it may read before `from` (the index its reading of the first one has).
    pub fn log_from(&self, viewer: Viewer, from: usize) -> (usize, Vec<LogEntry>) {
        let from = from.min(self.log.len());
        let before = self.log[..from]
            .iter()
            .filter(|e| readable(e, viewer))
            .count();
        let after = self.log[from..]
            .iter()
            .filter(|e| readable(e, viewer))
            .cloned()
            .collect();
        (before, after)
    }

    /// The entries `viewer` may read after the first `skip` of them, and how many it may read
    /// in all: the tail of [`Session::log_for`] without copying the rest.
    pub fn log_after(&self, viewer: Viewer, skip: usize) -> (usize, Vec<LogEntry>) {
        let mut total = 0;
        let mut after = Vec::new();
        for e in self.log.iter().filter(|e| readable(e, viewer)) {
            if total >= skip {
                after.push(e.clone());
            }
            total += 1;
        }
        (total, after)
    }

    /// What puts this session back as it is now, after [`Session::act`] or
    /// [`Session::act_parsed`] (for a caller that must take an action back when it cannot be
    /// stored). Cheaper than a clone: the log and record are only cut back.
    pub fn checkpoint(&self) -> Checkpoint<G::State> {
        Checkpoint {
            state: self.state.clone(),
            log_len: self.log.len(),
            actions: self.record.actions.len(),
            undo: self.undo.clone(),
        }
    }

    /// Goes back to `c`, taken from this session before actions were applied (never after an
    /// undo, which cuts the log).
    pub fn restore(&mut self, c: Checkpoint<G::State>) {
        self.state = c.state;
        self.log.truncate(c.log_len);
        self.record.actions.truncate(c.actions);
        self.undo = c.undo;
    }
}
