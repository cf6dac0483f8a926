//! Root statistics (visits / mean value of the root's children, five most visited) of
//! `medium`, `hard` and `hard` on two root-parallel trees, twice each with different seeds,
//! at every seventh decision of a Freeman's Farm (or `SC=oriskany`) game between two `medium`
//! bots: how much a search's visits concentrate, and whether it settles on the same child
//! from another seed (issue 18; docs/performance.md).
//!
//!     cargo run --release --example root_stats -p muster-ai
use muster_ai::{Level, choose, mcts};
use muster_battles::Battles;
use muster_core::{Game, Options};

fn main() {
    let g = Battles::new().unwrap();
    let sc = std::env::var("SC").unwrap_or("freemans-farm".into());
    let mut s = g.new_game(&sc, &Options::new(), 7).unwrap();
    let mut legal = Vec::new();
    let mut n = 0u64;
    let mut shown = 0;
    while let Some(side) = g.to_act(&s) {
        g.legal_actions(&s, &mut legal);
        if legal.len() >= 4 && n % 7 == 0 && shown < 12 {
            shown += 1;
            println!("== decision {n} side {side} legal {}", legal.len());
            for (name, p) in [
                ("medium", Level::Medium.params().unwrap()),
                ("hard", Level::Hard.params().unwrap()),
                (
                    "hard1",
                    mcts::Params {
                        threads: 1,
                        ..Level::Hard.params().unwrap()
                    },
                ),
            ] {
                for seed in [1u64, 2] {
                    let r = mcts::search(&g, &s, &p, seed).unwrap();
                    let top: Vec<String> = r
                        .root
                        .iter()
                        .take(5)
                        .map(|(a, v, m)| format!("{}:{}/{:.3}", g.notation(&s, *a), v, m))
                        .collect();
                    println!("{name:7} s{seed} {}", top.join("  "));
                }
            }
        }
        let a = choose(&g, &s, Level::Medium, n).unwrap();
        g.apply(&mut s, side, a).unwrap();
        n += 1;
    }
}
