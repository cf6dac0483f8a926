//! Random play, measured: the figure the performance targets are stated in.

use crate::dice::Dice;
use crate::error::{Error, ErrorKind};
use crate::game::Options;
use crate::knowledge::Knowledge;
use serde::Serialize;
use std::time::Instant;

/// What a run of random games measured.
#[derive(Clone, Debug, Serialize)]
pub struct BenchReport {
    pub game: String,
    pub scenario: String,
    pub games: usize,
    /// Decisions made (each is one `legal_actions` plus one `apply`).
    pub decisions: u64,
    pub seconds: f64,
    pub decisions_per_second: f64,
    pub games_per_second: f64,
    /// Bytes of one state in memory.
    pub state_bytes: usize,
    /// Games won by each side (indexed like `GameInfo::sides`) under random play.
    pub wins: Vec<u64>,
    /// Games with no winner.
    pub draws: u64,
}

/// Plays `games` random games on one thread and times them (each decision as [`play_out`]
/// makes it).
pub fn random_games<G: Knowledge>(
    game: &G,
    scenario: &str,
    options: &Options,
    games: usize,
    seed: u64,
) -> Result<BenchReport, Error> {
    let options = game
        .info()
        .resolve_options(options)
        .map_err(|m| Error::new(ErrorKind::BadOption, m))?;
    let mut pick = Dice::from_seed(seed ^ 0x9e37_79b9_7f4a_7c15);
    let mut actions = Vec::with_capacity(256);
    let mut decisions = 0u64;
    let mut state_bytes = 0;
    let mut wins = vec![0u64; game.info().sides.len()];
    let mut draws = 0;
    let start = Instant::now();
    for g in 0..games {
        let mut state = game
            .new_game(scenario, &options, seed.wrapping_add(g as u64))
            .map_err(|m| Error::new(ErrorKind::UnknownScenario, m))?;
        state_bytes = game.state_bytes(&state);
        decisions += play_out(game, &mut state, &mut pick, &mut actions)?;
        match game.outcome(&state).and_then(|o| o.winner) {
            Some(w) => wins[w as usize] += 1,
            None => draws += 1,
        }
    }
    let seconds = start.elapsed().as_secs_f64();
    Ok(BenchReport {
        game: game.info().id.clone(),
        scenario: scenario.to_string(),
        games,
        decisions,
        seconds,
        decisions_per_second: decisions as f64 / seconds.max(1e-9),
        games_per_second: games as f64 / seconds.max(1e-9),
        state_bytes,
        wins,
        draws,
    })
}

/// Plays random legal actions to the end; returns the number of decisions. Each decision is
/// uniform among the legal actions the game weighs above 0 for playouts
/// ([`Knowledge::playout_weight`]), as the `random` bot picks: a game weighs a resignation 0
/// (Supply Lines' §13.4 concession), which a uniform pick would take early in most games, so
/// that the figures would measure only the opening. Only when every legal action weighs 0 is
/// any of them picked.
pub fn play_out<G: Knowledge>(
    game: &G,
    state: &mut G::State,
    pick: &mut Dice,
    actions: &mut Vec<G::Action>,
) -> Result<u64, Error> {
    let mut decisions = 0;
    while let Some(side) = game.to_act(state) {
        game.legal_actions(state, actions);
        if actions.is_empty() {
            return Err(Error::new(
                ErrorKind::IllegalAction,
                format!("no legal action for side {side} in a live game"),
            ));
        }
        let a = pick_weighed(game, state, pick, actions);
        game.apply(state, side, a)?;
        decisions += 1;
    }
    Ok(decisions)
}

/// A uniform pick among the actions weighed above 0 (among all when none is). One weight is
/// asked in the common case: a first uniform pick that weighs above 0 is kept, and only after
/// one that weighs 0 are the rest sorted out and picked from, which keeps the pick uniform
/// among those above 0 (each has `1/n + z/n · 1/(n-z) = 1/(n-z)`, `z` of `n` weighing 0).
fn pick_weighed<G: Knowledge>(
    game: &G,
    state: &G::State,
    pick: &mut Dice,
    actions: &mut Vec<G::Action>,
) -> G::Action {
    let a = actions[pick.below(actions.len() as u32) as usize];
    if game.playout_weight(state, a) > 0 {
        return a;
    }
    actions.retain(|&b| game.playout_weight(state, b) > 0);
    if actions.is_empty() {
        return a;
    }
    actions[pick.below(actions.len() as u32) as usize]
}
