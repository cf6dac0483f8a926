//! Prints random-play speed and state size (run in release with --nocapture; it asserts only
//! the 4 KB state budget, since speed depends on the machine).

use muster_core::bench::play_out;
use muster_core::{Dice, Game, Options};
use muster_revolution_road::Bunker;
use muster_revolution_road::bunker::State;

#[test]
fn state_fits_in_4_kb() {
    assert!(
        std::mem::size_of::<State>() <= 4096,
        "{}",
        std::mem::size_of::<State>()
    );
}

#[test]
fn random_play_speed_report() {
    let g = Bunker::new().unwrap();
    let n: u64 = std::env::var("BUNKER_SPEED_GAMES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(5);
    for scenario in ["standard", "solitaire-british", "solitaire-patriot"] {
        let t = std::time::Instant::now();
        let mut decisions = 0;
        let mut actions = Vec::new();
        for seed in 0..n {
            let mut s = g.new_game(scenario, &Options::new(), seed).unwrap();
            let mut pick = Dice::from_seed(seed);
            decisions += play_out(&g, &mut s, &mut pick, &mut actions).unwrap_or_else(|e| {
                panic!(
                    "{e:?}\n{}",
                    g.render_text(&s, muster_core::Viewer::Spectator)
                )
            });
        }
        let secs = t.elapsed().as_secs_f64();
        println!(
            "{scenario}: {decisions} decisions in {n} games, {:.0} decisions/s, state {} bytes",
            decisions as f64 / secs,
            std::mem::size_of::<State>()
        );
    }
}
