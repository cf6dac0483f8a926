//! Random play benchmarks (criterion) for both games of the crate, From Boston to Concord and
//! Bunker Hill: whole games, and decisions (one `legal_actions` plus one `apply`) per second;
//! state clone; legal actions at the start. Figures and commands are in `docs/performance.md`.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use muster_core::bench::play_out;
use muster_core::{Dice, Knowledge, Options};
use muster_revolution_road::{Bunker, Concord};
use std::hint::black_box;

const SEEDS: std::ops::Range<u64> = 0..10;

fn decisions_in<G: Knowledge>(g: &G, scenario: &str) -> u64 {
    let mut actions = Vec::new();
    SEEDS
        .map(|seed| {
            let mut s = g.new_game(scenario, &Options::new(), seed).unwrap();
            let mut pick = Dice::from_seed(seed);
            play_out(g, &mut s, &mut pick, &mut actions).unwrap()
        })
        .sum()
}

const SCENARIOS: [&str; 3] = ["standard", "solitaire-british", "solitaire-patriot"];

fn random_games(c: &mut Criterion) {
    bench_game(c, "concord", &Concord::new().unwrap());
    bench_game(c, "bunker-hill", &Bunker::new().unwrap());
}

fn bench_game<G: Knowledge>(c: &mut Criterion, id: &str, g: &G) {
    for scenario in SCENARIOS {
        let mut group = c.benchmark_group(format!("{id}/{scenario}"));
        let decisions = decisions_in(g, scenario);
        group.throughput(Throughput::Elements(decisions));
        group.bench_function("decisions (10 random games)", |b| {
            let mut actions = Vec::with_capacity(256);
            b.iter(|| {
                for seed in SEEDS {
                    let mut s = g.new_game(scenario, &Options::new(), seed).unwrap();
                    let mut pick = Dice::from_seed(seed);
                    black_box(play_out(g, &mut s, &mut pick, &mut actions).unwrap());
                }
            })
        });
        group.finish();
        let mut group = c.benchmark_group(format!("{id}/{scenario}"));
        let s = g.new_game(scenario, &Options::new(), 0).unwrap();
        group.bench_function("state clone", |b| b.iter(|| black_box(s.clone())));
        group.bench_function("legal_actions at start", |b| {
            let mut actions = Vec::with_capacity(256);
            b.iter(|| {
                g.legal_actions(black_box(&s), &mut actions);
                black_box(actions.len())
            })
        });
        group.finish();
    }
}

criterion_group!(benches, random_games);
criterion_main!(benches);
