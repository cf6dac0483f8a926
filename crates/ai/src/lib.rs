//! Bots for every side of every Muster game, and batch simulation.
//!
//! - [`mcts`]: information-set Monte Carlo tree search over the rules API; it determinizes for
//!   its own side, so it never reads what that side may not know.
//! - Baselines: a random bot and a greedy one-ply bot.
//! - [`Level`]: the named levels (`random`, `easy`, `medium`, `hard`) the CLI, the server and
//!   the solitaire scenarios ask for.
//! - [`Bots`]: the bots of every registered game behind the erased [`Match`] interface; with a
//!   [`Memory`] a bot continues its search tree across the steps of one decision.
//! - [`sim`]: many games between two bots, with statistics for balance studies.

pub mod ladder;
pub mod mcts;
pub mod sim;

use mcts::{Budget, Params};
use muster_core::{Dice, Error, ErrorKind, Knowledge, Match, Session, Side};
use serde::Serialize;
use std::marker::PhantomData;

/// A named bot level.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Level {
    /// Uniformly random legal actions.
    Random,
    /// Greedy: one-ply look-ahead, each action judged by a few short playouts.
    Easy,
    /// Tree search on one thread: [`MEDIUM_ITERATIONS`], a few hundredths of a second a
    /// decision on a quiet machine, 0.2 s at most in play.
    Medium,
    /// Tree search, one tree thirty times `medium`'s: [`HARD_ITERATIONS`], up to about 1 s a
    /// decision. One tree rather than two root-parallel ones: two trees of half the size often
    /// settle on different children, and summing their visits then turns the choice into a
    /// coin toss (issue 18, docs/performance.md). Thirty times, not six: at six times `hard`
    /// won 55-62% against `medium`, at thirty 71-79% (the ladder in docs/performance.md).
    Hard,
}

/// The iterations of a `medium` decision: its whole budget when iterations are counted
/// ([`Pace::Iterations`]), its cap when the clock is ([`Pace::Time`]).
pub const MEDIUM_ITERATIONS: u32 = 1_000;
/// The iterations of a `hard` decision, on one tree (budget or cap, as for medium).
pub const HARD_ITERATIONS: u32 = 30_000;
const _: () = assert!(
    MEDIUM_ITERATIONS < HARD_ITERATIONS,
    "hard searches more than medium"
);

/// The wall-clock limit of a `medium` decision under [`Pace::Time`].
pub const MEDIUM_TIME: std::time::Duration = std::time::Duration::from_millis(200);
/// The wall-clock limit of a `hard` decision under [`Pace::Time`].
pub const HARD_TIME: std::time::Duration = std::time::Duration::from_millis(1_000);

/// How the search levels measure their effort.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Pace {
    /// A fixed number of iterations a decision: the same seed gives the same decision on any
    /// machine under any load. Simulations, the ladder and tests use this.
    #[default]
    Iterations,
    /// A wall-clock limit a decision (what a player feels), capped at the same number of
    /// iterations, so that a quiet machine plays as [`Pace::Iterations`] does and a loaded one
    /// stops early. The play server uses this.
    Time,
}

/// Every level, weakest first.
pub const LEVELS: [Level; 4] = [Level::Random, Level::Easy, Level::Medium, Level::Hard];

impl Level {
    pub fn id(self) -> &'static str {
        match self {
            Level::Random => "random",
            Level::Easy => "easy",
            Level::Medium => "medium",
            Level::Hard => "hard",
        }
    }

    pub fn description(self) -> &'static str {
        match self {
            Level::Random => "plays any legal action at random, never resigning",
            Level::Easy => "looks one decision ahead, judging each by a few short playouts",
            Level::Medium => "quick tree search, well under 0.2 s a decision",
            Level::Hard => "deep tree search, thirty times medium's, up to about 1 s a decision",
        }
    }

    /// The fixed rating of this level on the Glicko-2 scale (1500 = an average new player),
    /// against which games with a bot are rated in the separate bots pool (issue 16 §6).
    /// Measured by the ladder (issue 18, docs/performance.md, "Step 4" and "Step 8"): `random`
    /// anchored at 1000 ([`ladder::RANDOM_RATING`]), each level above it by the rating gap its
    /// pooled score against the level below implies over every scenario measured: `easy` over
    /// `random` 516/576 (+374, all nine scenarios, step 8), `medium` over `easy` 431/592 (+171,
    /// all nine, step 8), `hard` (30,000 iterations) over `medium` 55/80 (+137, Freeman's Farm,
    /// Oriskany and Bunker Hill's two solitaire scenarios, step 4), rounded to tens.
    pub fn rating(self) -> f64 {
        match self {
            Level::Random => 1000.0,
            Level::Easy => 1370.0,
            Level::Medium => 1540.0,
            Level::Hard => 1680.0,
        }
    }

    pub fn parse(s: &str) -> Result<Level, Error> {
        LEVELS.iter().copied().find(|l| l.id() == s).ok_or_else(|| {
            Error::new(
                ErrorKind::BadRequest,
                format!(
                    "no bot level {s:?}; the levels are {:?}",
                    LEVELS.iter().map(|l| l.id()).collect::<Vec<_>>()
                ),
            )
        })
    }

    /// The search settings of the tree-search levels, counting iterations
    /// ([`Pace::Iterations`]).
    pub fn params(self) -> Option<Params> {
        self.params_at(Pace::Iterations)
    }

    /// The search settings of the tree-search levels at a pace.
    pub fn params_at(self, pace: Pace) -> Option<Params> {
        let (iterations, time, threads) = match self {
            Level::Medium => (MEDIUM_ITERATIONS, MEDIUM_TIME, 1),
            Level::Hard => (HARD_ITERATIONS, HARD_TIME, 1),
            _ => return None,
        };
        Some(Params {
            budget: match pace {
                Pace::Iterations => Budget::Iterations(iterations),
                Pace::Time => Budget::Time {
                    limit: time,
                    cap: iterations,
                },
            },
            threads,
            ..Params::default()
        })
    }

    /// The threads a decision of this level keeps busy (the play server's bot pool counts
    /// them).
    pub fn threads(self) -> usize {
        self.params().map_or(1, |p| p.threads)
    }
}

impl std::fmt::Display for Level {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.id())
    }
}

/// A random legal action of the side to act, uniformly among those the game does not weigh
/// at 0 for playouts ([`Knowledge::playout_weight`]): a game gives that weight to a
/// resignation (Supply Lines' §13.4 concession), which no baseline should pick because a
/// uniform pick would take it early in most games. Only when every legal action weighs 0 is
/// any of them picked.
pub fn random_action<G: Knowledge>(game: &G, state: &G::State, seed: u64) -> Option<G::Action> {
    let mut legal = Vec::new();
    game.legal_actions(state, &mut legal);
    if legal.is_empty() {
        return None;
    }
    if legal.len() > 1 {
        let all = legal.clone();
        legal.retain(|&a| game.playout_weight(state, a) > 0);
        if legal.is_empty() {
            legal = all;
        }
    }
    let mut dice = Dice::from_seed(seed);
    Some(legal[dice.below(legal.len() as u32) as usize])
}

/// The actions a search bot weighs in `state`: the legal ones less what the game's knowledge
/// prunes (never all of them).
pub(crate) fn candidates<G: Knowledge>(game: &G, state: &G::State, out: &mut Vec<G::Action>) {
    game.legal_actions(state, out);
    if out.len() > 1 {
        let all = out.len();
        game.prune(state, out);
        if out.is_empty() {
            game.legal_actions(state, out);
        }
        debug_assert!(out.len() <= all);
    }
}

/// Greedy one-ply bot: every legal action is tried on a few determinizations (the game's
/// [`Knowledge::greedy_samples`]) and judged by a short playout (with the game's evaluation,
/// when it has one); the best mean wins.
pub fn greedy_action<G: Knowledge>(game: &G, state: &G::State, seed: u64) -> Option<G::Action> {
    let me = game.to_act(state)?;
    let mut legal = Vec::new();
    candidates(game, state, &mut legal);
    if legal.len() <= 1 {
        return legal.first().copied();
    }
    let mut dice = Dice::from_seed(seed);
    let mut best = (f32::NEG_INFINITY, legal[0]);
    let mut scratch = Vec::new();
    let samples = game.greedy_samples().max(1);
    for &a in &legal {
        let mut total = 0.0;
        for _ in 0..samples {
            let mut s = state.clone();
            game.determinize(&mut s, me, &mut mcts::DiceRng(&mut dice));
            if game.apply(&mut s, me, a).is_err() {
                continue;
            }
            total += playout_value(game, &mut s, me, &mut dice, &mut scratch);
        }
        if total > best.0 {
            best = (total, a);
        }
    }
    Some(best.1)
}

/// A playout by the game's playout policy to its depth, valued for `me`.
fn playout_value<G: Knowledge>(
    game: &G,
    s: &mut G::State,
    me: Side,
    dice: &mut Dice,
    legal: &mut Vec<G::Action>,
) -> f32 {
    let depth = game.playout_depth().min(200);
    let mut steps = 0;
    while let Some(side) = game.to_act(s) {
        if steps >= depth && game.evaluate(s, side).is_some() {
            break;
        }
        crate::candidates(game, s, legal);
        if legal.is_empty() {
            break;
        }
        let a = legal[dice.below(legal.len() as u32) as usize];
        if game.apply(s, side, a).is_err() {
            break;
        }
        steps += 1;
    }
    match game.outcome(s) {
        Some(o) => match o.winner {
            Some(w) if w == me => 1.0,
            Some(_) => 0.0,
            None => 0.5,
        },
        None => game.evaluate(s, me).unwrap_or(0.5),
    }
}

/// The action a bot of `level` chooses for the side to act, or `None` when the game is over.
/// The same state, level and seed always give the same action.
pub fn choose<G: Knowledge>(
    game: &G,
    state: &G::State,
    level: Level,
    seed: u64,
) -> Option<G::Action> {
    match level {
        Level::Random => random_action(game, state, seed),
        Level::Easy => greedy_action(game, state, seed),
        Level::Medium | Level::Hard => {
            mcts::search(game, state, &level.params().unwrap_or_default(), seed).map(|r| r.action)
        }
    }
}

/// What a bot remembers between its decisions in one game: the part of its last search tree
/// that its next decision can start from ([`mcts::Reuse`], issue 18), for the level that grew
/// it. Empty by default; a search level's decision refills it or empties it, any other
/// level's empties it. It holds only what the bot's own searches saw.
#[derive(Default)]
pub struct Memory {
    slot: Option<(Level, Box<dyn std::any::Any + Send>)>,
}

impl Memory {
    /// Takes out the kept tree, if `level` grew it in game type `G`.
    fn take<G: Knowledge>(&mut self, level: Level) -> Option<mcts::Reuse<G>> {
        match self.slot.take() {
            Some((l, tree)) if l == level => tree.downcast().ok().map(|b| *b),
            _ => None,
        }
    }
}

/// A bot's decision with what it cost.
#[derive(Clone, Debug, Serialize)]
pub struct Thought {
    /// The action in notation.
    pub action: String,
    /// Search iterations spent (0 for the baselines and forced moves).
    pub iterations: u64,
    /// The root visits the search started with from the tree the bot's previous decision kept
    /// (0 when it started afresh; [`mcts::Reuse`]).
    pub reused: u64,
    pub seconds: f64,
}

/// A change to a search level's settings, made only to measure what they buy (`muster sim`
/// and `muster ladder` with `--iterations LEVEL=N` or `--depth LEVEL=N`; issue 18,
/// docs/performance.md). The levels as players meet them are never tuned: the play server and
/// the new-game form use [`Level::params_at`] as it stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Tuning {
    pub level: Level,
    /// Iterations a decision in place of the level's (its budget, or its cap under
    /// [`Pace::Time`]).
    pub iterations: Option<u32>,
    /// Playout depth in place of the game's ([`mcts::Params::playout_depth`]).
    pub playout_depth: Option<u32>,
}

impl Tuning {
    /// `params` with this tuning applied.
    fn apply(&self, mut params: Params) -> Params {
        if let Some(n) = self.iterations {
            params.budget = match params.budget {
                Budget::Iterations(_) => Budget::Iterations(n),
                Budget::Time { limit, .. } => Budget::Time { limit, cap: n },
            };
        }
        if self.playout_depth.is_some() {
            params.playout_depth = self.playout_depth;
        }
        params
    }
}

/// The bots of one game type, erased.
pub trait GameBots: Send + Sync {
    /// The decision, or `None` when `m` is not of this game type. A search level searches
    /// with `params` (its own, tuned or not); the other levels are given `None`.
    fn think(
        &self,
        m: &dyn Match,
        level: Level,
        seed: u64,
        params: Option<Params>,
        memory: Option<&mut Memory>,
    ) -> Option<Result<Thought, Error>>;
}

struct Adapter<G>(PhantomData<fn() -> G>);

impl<G: Knowledge> GameBots for Adapter<G> {
    fn think(
        &self,
        m: &dyn Match,
        level: Level,
        seed: u64,
        params: Option<Params>,
        memory: Option<&mut Memory>,
    ) -> Option<Result<Thought, Error>> {
        let session = m.as_any().downcast_ref::<Session<G>>()?;
        let (game, state) = (session.game(), session.state());
        let start = std::time::Instant::now();
        // The tree the last decision kept, if it was grown by this level in this game type.
        let mut memory = memory;
        let mut kept = memory.as_deref_mut().and_then(|m| m.take::<G>(level));
        let (action, iterations, reused) = match params {
            Some(params) => {
                let reuse = memory.is_some().then_some(&mut kept);
                match mcts::search_reusing(game, state, &params, seed, reuse) {
                    Some(r) => (Some(r.action), r.iterations, r.reused),
                    None => (None, 0, 0),
                }
            }
            None => (choose(game, state, level, seed), 0, 0),
        };
        if let Some(mem) = memory {
            mem.slot = kept.map(|tree| (level, Box::new(tree) as Box<dyn std::any::Any + Send>));
        }
        Some(
            action
                .map(|a| Thought {
                    action: game.notation(state, a),
                    iterations,
                    reused,
                    seconds: start.elapsed().as_secs_f64(),
                })
                .ok_or_else(|| Error::new(ErrorKind::GameOver, "the game is over")),
        )
    }
}

/// The bots of every registered game.
#[derive(Default)]
pub struct Bots {
    games: Vec<Box<dyn GameBots>>,
    pace: Pace,
    tuning: Vec<Tuning>,
}

impl Bots {
    pub fn new() -> Bots {
        Bots::default()
    }

    /// How [`Bots::choose`] and [`Bots::think`] budget a search ([`Pace::Iterations`] unless
    /// set): the play server sets [`Pace::Time`].
    pub fn set_pace(&mut self, pace: Pace) {
        self.pace = pace;
    }

    pub fn pace(&self) -> Pace {
        self.pace
    }

    /// Tunes a search level for a measurement ([`Tuning`]): `iterations` a decision and the
    /// playout depth, each where given (a later call for the same level keeps what it does not
    /// give). Refused for the levels that do not search and for zeros.
    pub fn tune(
        &mut self,
        level: Level,
        iterations: Option<u32>,
        playout_depth: Option<u32>,
    ) -> Result<(), Error> {
        if level.params().is_none() {
            return Err(Error::new(
                ErrorKind::BadRequest,
                format!(
                    "{level} does not search, so it has no iterations or playout depth to tune; medium and hard do"
                ),
            ));
        }
        if iterations == Some(0) || playout_depth == Some(0) {
            return Err(Error::new(
                ErrorKind::BadRequest,
                format!("{level}: iterations and playout depth must be at least 1"),
            ));
        }
        let i = match self.tuning.iter().position(|t| t.level == level) {
            Some(i) => i,
            None => {
                self.tuning.push(Tuning {
                    level,
                    iterations: None,
                    playout_depth: None,
                });
                self.tuning.len() - 1
            }
        };
        let t = &mut self.tuning[i];
        t.iterations = iterations.or(t.iterations);
        t.playout_depth = playout_depth.or(t.playout_depth);
        Ok(())
    }

    /// The levels tuned with [`Bots::tune`] (empty as the levels ship).
    pub fn tuning(&self) -> &[Tuning] {
        &self.tuning
    }

    /// The search settings a decision of `level` uses at `pace`, tuning applied; `None` for
    /// the levels that do not search.
    pub fn params_at(&self, level: Level, pace: Pace) -> Option<Params> {
        let params = level.params_at(pace)?;
        Some(match self.tuning.iter().find(|t| t.level == level) {
            Some(t) => t.apply(params),
            None => params,
        })
    }

    /// Registers the bots of a game type.
    pub fn add<G: Knowledge>(&mut self) {
        self.games.push(Box::new(Adapter::<G>(PhantomData)));
    }

    /// The action (in notation) a bot of `level` picks in `m`.
    pub fn choose(&self, m: &dyn Match, level: Level, seed: u64) -> Result<String, Error> {
        self.think(m, level, seed).map(|t| t.action)
    }

    /// The decision of a bot of `level` in `m`, with its search effort.
    pub fn think(&self, m: &dyn Match, level: Level, seed: u64) -> Result<Thought, Error> {
        self.think_at(m, level, seed, self.pace)
    }

    /// The decision of a bot of `level` in `m` at a given pace, with its search effort.
    pub fn think_at(
        &self,
        m: &dyn Match,
        level: Level,
        seed: u64,
        pace: Pace,
    ) -> Result<Thought, Error> {
        self.think_inner(m, level, seed, pace, None)
    }

    /// [`Bots::think_at`] for a bot that keeps `memory` between its decisions in one game, so
    /// that a decision made in steps (select, then move) continues the search of the step
    /// before ([`mcts::Reuse`]). With [`Pace::Iterations`] the decision depends only on the
    /// state, level, seed and what `memory` held, so a game of such bots replays exactly.
    pub fn think_remembering(
        &self,
        m: &dyn Match,
        level: Level,
        seed: u64,
        pace: Pace,
        memory: &mut Memory,
    ) -> Result<Thought, Error> {
        self.think_inner(m, level, seed, pace, Some(memory))
    }

    fn think_inner(
        &self,
        m: &dyn Match,
        level: Level,
        seed: u64,
        pace: Pace,
        mut memory: Option<&mut Memory>,
    ) -> Result<Thought, Error> {
        let params = self.params_at(level, pace);
        self.games
            .iter()
            .find_map(|g| g.think(m, level, seed, params, memory.as_deref_mut()))
            .unwrap_or_else(|| {
                Err(Error::new(
                    ErrorKind::UnknownGame,
                    format!("no bots for game {:?}", m.info().id),
                ))
            })
    }
}
