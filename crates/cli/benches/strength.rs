//! Bot strength, measured (issue 6, §4): `hard` against `random` and against `easy`, on each
//! side of each scenario of each game, with 95% intervals; and the search speed of `hard`
//! (iterations per second, seconds per decision) on positions from games between `easy` bots.
//!
//!     STRENGTH_GAMES=20 cargo bench -p muster-cli --bench strength
//!     STRENGTH_GAMES=0 cargo bench -p muster-cli --bench strength   # search speed only
//!
//! Prints Markdown tables for `docs/performance.md`. Not a test: nothing here asserts.

use muster_ai::sim::{self, Seating, SimConfig};
use muster_ai::{Level, Thought};
use muster_core::Options;

fn main() {
    // `cargo bench` passes `--bench`; any other argument filters by game id.
    let filter: Option<String> = std::env::args().skip(1).find(|a| !a.starts_with("--"));
    let games: usize = std::env::var("STRENGTH_GAMES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(20);
    let registry = muster_cli::registry(None).expect("built-in data loads");
    let bots = muster_cli::bots();
    if games > 0 {
        println!(
            "| game | scenario | hard plays | opponent | hard wins | 95% interval | mean decisions | s/game |"
        );
        println!("|---|---|---|---|---|---|---|---|");
    }
    let mut speed = Vec::new();
    for info in registry.games() {
        if filter.as_ref().is_some_and(|f| f != &info.id) {
            continue;
        }
        for scenario in &info.scenarios {
            // `STRENGTH_GAMES=0` measures only the search speed below.
            for (side_index, side) in info.sides.iter().enumerate().filter(|_| games > 0) {
                for opponent in [Level::Random, Level::Easy] {
                    let config = SimConfig {
                        game: info.id.clone(),
                        scenario: scenario.id.clone(),
                        options: Options::new(),
                        a: Level::Hard,
                        b: opponent,
                        games,
                        seed: 1000,
                        threads: 1,
                        seating: Seating::Fixed(side_index as u8),
                        records: None,
                        pace: muster_ai::Pace::Iterations,
                    };
                    let r =
                        sim::run(&registry, &bots, &config, &|_, _| {}).expect("simulation runs");
                    let w = &r.bots[0].wins;
                    println!(
                        "| {} | {} | {} | {} | {}/{} = {:.0}% | {:.0}–{:.0}% | {:.0} | {:.1} |",
                        info.id,
                        scenario.id,
                        side,
                        opponent,
                        w.wins,
                        w.games,
                        100.0 * w.rate,
                        100.0 * w.low,
                        100.0 * w.high,
                        r.mean_decisions,
                        r.seconds / games as f64
                    );
                }
            }
            // Search speed of `hard` on every tenth position of a game between `easy` bots
            // (random players concede or blunder early, so their positions are unlike real ones).
            let mut m = registry
                .new_match(&info.id, &scenario.id, &Options::new(), 7)
                .expect("new game");
            let mut thoughts: Vec<Thought> = Vec::new();
            let mut step = 0u64;
            while let Some(side) = m.to_act() {
                if step % 10 == 0 {
                    let t = bots
                        .think(m.as_ref(), Level::Hard, step)
                        .expect("bot thinks");
                    if t.iterations > 0 {
                        thoughts.push(t);
                    }
                }
                let a = bots
                    .choose(m.as_ref(), Level::Easy, step)
                    .expect("easy bot");
                m.act(Some(&side), &a).expect("legal");
                step += 1;
            }
            let iterations: u64 = thoughts.iter().map(|t| t.iterations).sum();
            let seconds: f64 = thoughts.iter().map(|t| t.seconds).sum();
            let worst = thoughts.iter().map(|t| t.seconds).fold(0.0, f64::max);
            speed.push(format!(
                "| {} | {} | {} | {:.0} | {:.3} | {:.3} |",
                info.id,
                scenario.id,
                thoughts.len(),
                iterations as f64 / seconds.max(1e-9),
                seconds / thoughts.len().max(1) as f64,
                worst
            ));
        }
    }
    println!();
    println!(
        "| game | scenario | searched decisions | hard iterations/s | mean s/decision | max s/decision |"
    );
    println!("|---|---|---|---|---|---|");
    for row in speed {
        println!("{row}");
    }
}
