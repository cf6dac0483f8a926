//! Random play, measured: `cargo run --release -p muster-supply-lines --example bench [games]`.
//!
//! Prints two figures: `muster bench`'s random play (uniform among the actions weighed above
//! 0, so never the §13.4 concession), and the same play written out here with the concession
//! filtered by hand, as a check on the first (`docs/performance.md`).

use muster_core::bench::random_games;
use muster_core::{Dice, Game, Options};
use muster_supply_lines::{Action, SCENARIO, SupplyLines};
use std::time::Instant;

fn main() {
    let g = SupplyLines::new().expect("data");
    let n: u64 = std::env::args()
        .nth(1)
        .and_then(|x| x.parse().ok())
        .unwrap_or(500);
    let r = random_games(&g, SCENARIO, &Options::new(), n as usize, 0).expect("bench");
    println!(
        "muster bench: {} games, {} decisions, {:.0} decisions/s, {} state bytes, wins {:?}, draws {}",
        r.games, r.decisions, r.decisions_per_second, r.state_bytes, r.wins, r.draws
    );
    let mut legal = Vec::with_capacity(256);
    let mut decisions = 0u64;
    let mut wins = [0u32; 3];
    let start = Instant::now();
    for seed in 0..n {
        let mut s = g.new_game(SCENARIO, &Options::new(), seed).expect("game");
        let mut pick = Dice::from_seed(seed ^ 0x5eed);
        while let Some(side) = g.to_act(&s) {
            g.legal_actions(&s, &mut legal);
            legal.retain(|a| *a != Action::Concede);
            let a = legal[pick.below(legal.len() as u32) as usize];
            g.apply(&mut s, side, a).expect("legal");
            decisions += 1;
        }
        let w = s.ended.and_then(|e| e.winner).map_or(2, |w| w.0 as usize);
        wins[w] += 1;
    }
    let secs = start.elapsed().as_secs_f64();
    println!(
        "no concession: {n} games, {decisions} decisions, {:.0} decisions/s, {:.1} decisions/game, wins patriot/crown/none {:?}",
        decisions as f64 / secs,
        decisions as f64 / n as f64,
        wins
    );
}
