//! How often three `hard` searches from different seeds pick the same action, at every fifth
//! decision (with three or more choices) of a Battles game between two `medium` bots: a cheap
//! measure of whether the search's signal beats its noise (issue 18).
//!
//!     SC=freemans-farm cargo run --release --example agreement -p muster-ai
use muster_ai::{Level, choose, mcts};
use muster_battles::Battles;
use muster_core::{Game, Options};

fn main() {
    let g = Battles::new().unwrap();
    let sc = std::env::var("SC").unwrap_or("freemans-farm".into());
    let game_seed: u64 = std::env::var("SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(7);
    let mut s = g.new_game(&sc, &Options::new(), game_seed).unwrap();
    let p = Level::Hard.params().unwrap();
    let mut legal = Vec::new();
    let (mut n, mut asked, mut pairs_agree) = (0u64, 0u32, 0u32);
    while let Some(side) = g.to_act(&s) {
        g.legal_actions(&s, &mut legal);
        if legal.len() >= 3 && n % 5 == 0 && asked < 30 {
            asked += 1;
            let picks: Vec<_> = (1u64..=3)
                .map(|seed| mcts::search(&g, &s, &p, seed).unwrap().action)
                .collect();
            pairs_agree += (picks[0] == picks[1]) as u32
                + (picks[0] == picks[2]) as u32
                + (picks[1] == picks[2]) as u32;
        }
        let a = choose(&g, &s, Level::Medium, n).unwrap();
        g.apply(&mut s, side, a).unwrap();
        n += 1;
    }
    println!(
        "{sc} seed {game_seed}: {asked} decisions, pairwise agreement {:.0}%",
        100.0 * pairs_agree as f64 / (3.0 * asked as f64)
    );
}
