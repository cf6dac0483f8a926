//! Bunker Hill positions (issue 15): every position of random play in every scenario saves
//! (`state` is never null, also with counters of index 64 or more selected) and loads back to
//! the identical state and the byte-identical position. `BUNKER_POSITION_GAMES` sets the games
//! per scenario (default 60).

use muster_core::{Dice, Game, Options, Session};
use muster_revolution_road::Bunker;
use muster_revolution_road::bunker::state::*;
use std::sync::Arc;

fn games() -> u64 {
    std::env::var("BUNKER_POSITION_GAMES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(60)
}

fn all_options() -> Options {
    let mut o = Options::new();
    for k in ["strong-works", "more-ammo", "any-zone", "solo-rally"] {
        o.insert(k.into(), "on".into());
    }
    o
}

/// Checks one position: saved, loaded, saved again byte for byte. Returns whether a counter
/// of index 64 or more was selected (the case the old u128 masks could not write).
fn round_trip(g: &Arc<Bunker>, m: &Session<Bunker>) -> bool {
    let p = m.position();
    assert!(
        !p["state"].is_null(),
        "position state is null: {:?}",
        m.state().phase
    );
    let text = serde_json::to_string(&p).unwrap();
    let back: serde_json::Value = serde_json::from_str(&text).unwrap();
    let l = Session::load(g.clone(), &back)
        .unwrap_or_else(|e| panic!("a played position is refused: {e:?}\n{text}"));
    assert_eq!(l.state(), m.state(), "load gives the same state");
    assert_eq!(
        serde_json::to_string(&l.position()).unwrap(),
        text,
        "position -> load -> position is byte-identical"
    );
    let s = m.state();
    (s.sel | s.fight.att | s.fight.def) >> 64 != 0
}

#[test]
fn every_position_of_random_play_saves_and_loads_back_identically() {
    let g = Arc::new(Bunker::new().unwrap());
    let mut total = 0u64;
    let mut high = 0u64;
    for (scenario, opts) in [
        ("standard", Options::new()),
        ("standard", all_options()),
        ("solitaire-british", Options::new()),
        ("solitaire-patriot", Options::new()),
    ] {
        let (mut n, mut h) = (0u64, 0u64);
        for seed in 0..games() {
            let mut m = Session::new(g.clone(), scenario, &opts, seed).unwrap();
            let mut pick = Dice::from_seed(seed ^ 0x9051);
            let mut acts = Vec::new();
            loop {
                n += 1;
                if round_trip(&g, &m) {
                    h += 1;
                }
                let Some(side) = g.to_act(m.state()) else {
                    break;
                };
                g.legal_actions(m.state(), &mut acts);
                let a = acts[pick.below(acts.len() as u32) as usize];
                m.act_parsed(side, a).unwrap();
            }
        }
        println!(
            "{scenario} ({} options on): {n} positions, {h} with a counter of index 64+ selected",
            opts.len()
        );
        assert!(h > 0, "{scenario}: the high-index case is exercised");
        total += n;
        high += h;
    }
    println!("total: {total} positions round-tripped, {high} with high indices");
}

#[test]
fn selections_are_written_as_lists_of_counter_indices() {
    let g = Bunker::new().unwrap();
    let mut s = g.new_game("standard", &Options::new(), 1).unwrap();
    s.sel = (1u128 << 3) | (1u128 << 70);
    s.fight.att = 1u128 << 65;
    let v = serde_json::to_value(&s).unwrap();
    assert_eq!(v["sel"], serde_json::json!([3, 70]));
    assert_eq!(v["fight"]["att"], serde_json::json!([65]));
    assert_eq!(v["fight"]["def"], serde_json::json!([]));
    let back: State = serde_json::from_value(v.clone()).unwrap();
    assert_eq!(back, s);
    for bad in [
        serde_json::json!([80]),
        serde_json::json!([3, 3]),
        serde_json::json!([5, 2]),
        serde_json::json!([-1]),
        serde_json::json!(12),
    ] {
        let mut w = v.clone();
        w["sel"] = bad.clone();
        assert!(
            serde_json::from_value::<State>(w).is_err(),
            "sel {bad} is refused"
        );
    }
}
