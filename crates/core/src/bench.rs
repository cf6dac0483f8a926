//! Random play, measured: the figure the performance targets are stated in.

use crate::dice::Dice;
use crate::error::{Error, ErrorKind};
use crate::game::{Game, Options};
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

/// Plays `games` random games on one thread and times them.
pub fn random_games<G: Game>(
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

/// Plays uniformly random legal actions to the end; returns the number of decisions.
pub fn play_out<G: Game>(
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
        let a = actions[pick.below(actions.len() as u32) as usize];
        game.apply(state, side, a)?;
        decisions += 1;
    }
    Ok(decisions)
}
