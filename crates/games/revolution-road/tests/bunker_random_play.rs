//! Bunker Hill random play to the end over many seeds per scenario, with invariants checked
//! after every decision (the position invariants of `bunker::validate`, which `load` checks
//! too: stacking 3.0, the sides apart outside a combat, tracks 8.0/9.0, the deck, the phase;
//! and here: unit conservation, VP = sum of its causes), exhaustive legal/apply agreement on sampled positions, and determinism.
//! `BUNKER_GAMES` sets the number of games per scenario (default 2,000: the standard game
//! 2,000 times plain and 1,000 times with every option, each solitaire scenario 1,000 times).

use muster_core::{Dice, Game, Options};
use muster_revolution_road::Bunker;
use muster_revolution_road::bunker::action::Action;
use muster_revolution_road::bunker::sequence::to_act;
use muster_revolution_road::bunker::state::*;
use muster_revolution_road::bunker::validate;

fn games() -> u64 {
    std::env::var("BUNKER_GAMES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(2000)
}

fn check_invariants(g: &Bunker, s: &State, total: usize) {
    assert_eq!(
        s.units.len(),
        total,
        "units are never created or lost (conservation)"
    );
    // The position invariants `load` checks (bunker/validate.rs): indices and references in
    // range, the roster, stacking (3.0) and the two sides apart outside a combat, the deck,
    // the tracks, the phase against the board, `over` exactly when `ended`.
    if let Err(e) = validate::check(g, s) {
        panic!(
            "a position reached in play breaks an invariant: {e}\n{:?} {:?} {:?}\n{}",
            s.phase,
            s.fight,
            s.tasks,
            g.render_text(s, muster_core::Viewer::Spectator)
        );
    }
    let items = g.vp_items(s);
    let vp = g.vp_halves(s);
    for side in 0..2u8 {
        let sum: i16 = items
            .iter()
            .filter(|i| i.side == side)
            .map(|i| i.halves)
            .sum();
        assert_eq!(sum, vp[side as usize], "VP equals the sum of its causes");
    }
    // The destroyed-unit causes match the counters actually removed (an independent count).
    if s.mode == Mode::Standard {
        for side in 0..2u8 {
            let removed = s
                .units
                .iter()
                .filter(|u| u.side != side && u.at == REMOVED && u.kind.military())
                .count() as i16;
            let item: i16 = items
                .iter()
                .filter(|i| i.side == side && i.cause == "enemy units destroyed")
                .map(|i| i.halves)
                .sum();
            assert_eq!(item, removed * g.data.vp.unit_destroyed);
        }
    }
    if let Some(e) = s.ended {
        assert!(s.ablaze & !g.data.map.town == 0);
        assert_eq!(e.vp, vp);
    }
    let drawn = s
        .units
        .iter()
        .filter(|u| u.kind == Kind::Militia && !u.has(HIDDEN))
        .count();
    assert!(drawn + s.pool.len() as usize <= 21);
}

/// Every action of the whole action space (within the map's and roster's bounds).
fn action_space(g: &Bunker) -> Vec<Action> {
    let n = g.data.map.n() as u8;
    let places: Vec<u8> = (0..n).chain([MUSTER]).collect();
    let mut v = vec![
        Action::Yield,
        Action::Pass,
        Action::Plan,
        Action::Reserve,
        Action::Cannonade,
        Action::Bombard,
        Action::Done,
        Action::Boost,
        Action::Hold,
    ];
    for k in 0..10u8 {
        v.extend([
            Action::Objective(k),
            Action::Target(k),
            Action::Zone(k),
            Action::Focus(k),
        ]);
        v.extend([Action::Upgrade(k), Action::Fire(k), Action::Naval(k)]);
    }
    for &a in &places {
        v.extend([
            Action::Place(a),
            Action::PanicAt(a),
            Action::Move(a),
            Action::Rally(a),
        ]);
        v.extend([
            Action::Snipe(a),
            Action::Shell(a),
            Action::HotShot(a),
            Action::Dest(a),
        ]);
        v.push(Action::Spread(a));
        for &b in &places {
            v.extend([
                Action::Volley { from: a, to: b },
                Action::Assault { from: a, to: b },
            ]);
            v.extend([Action::Reorg { a, b }, Action::Gun { from: a, to: b }]);
            v.push(Action::Land { zone: a, to: b });
        }
    }
    for u in 0..MAX_UNITS as u8 {
        v.extend([Action::Add(u), Action::Hit(u)]);
        for &a in &places {
            v.push(Action::Go { unit: u, to: a });
        }
    }
    v
}

fn play(g: &Bunker, scenario: &str, opts: &Options, seed: u64, check_legal: bool) -> (State, u64) {
    let mut s = g.new_game(scenario, opts, seed).unwrap();
    let total = s.units.len();
    let mut pick = Dice::from_seed(seed ^ 0x5eed);
    let mut acts = Vec::new();
    let mut n = 0u64;
    let mut last: Vec<String> = Vec::new();
    while let Some(side) = g.to_act(&s) {
        g.legal_actions(&s, &mut acts);
        assert!(
            !acts.is_empty(),
            "no legal action in a live game: {:?} {:?} {:?}\n{}\n{:?}",
            s.phase,
            s.fight,
            s.tasks,
            g.render_text(&s, muster_core::Viewer::Spectator),
            last
        );
        if check_legal && n % 7 == 0 {
            // Exhaustive agreement: every listed action applies; the other side is refused.
            for a in acts.iter() {
                let mut t = s.clone();
                assert!(
                    g.apply(&mut t, side, *a).is_ok(),
                    "listed action {a:?} refused"
                );
                let mut t = s.clone();
                assert!(g.apply(&mut t, 1 - side, *a).is_err());
                assert_eq!(t, s, "a refused action changes nothing");
                let text = g.notation(&s, *a);
                assert_eq!(
                    g.parse_action(&s, &text).unwrap(),
                    *a,
                    "notation round trip {text}"
                );
            }
            if n % 49 == 0 {
                // Everything not listed is refused and changes nothing.
                for a in action_space(g) {
                    if !acts.contains(&a) {
                        let mut t = s.clone();
                        assert!(
                            g.apply(&mut t, side, a).is_err(),
                            "{a:?} applies but is not listed"
                        );
                        assert_eq!(t, s);
                    }
                }
            }
        }
        let a = acts[pick.below(acts.len() as u32) as usize];
        if last.len() > 12 {
            last.remove(0);
        }
        last.push(g.notation(&s, a));
        g.apply(&mut s, side, a).unwrap();
        check_invariants(g, &s, total);
        n += 1;
        assert!(n < 200_000, "game too long");
    }
    assert!(g.outcome(&s).is_some());
    assert_eq!(to_act(&s), None);
    (s, n)
}

#[test]
fn random_play_standard_reaches_the_end() {
    let g = Bunker::new().unwrap();
    for seed in 0..games() {
        play(&g, "standard", &Options::new(), seed, seed < 4);
    }
}

#[test]
fn random_play_with_every_option_reaches_the_end() {
    let g = Bunker::new().unwrap();
    let mut o = Options::new();
    for k in ["strong-works", "more-ammo", "any-zone", "solo-rally"] {
        o.insert(k.into(), "on".into());
    }
    for seed in 0..games() / 2 {
        play(&g, "standard", &o, seed, seed < 2);
    }
}

#[test]
fn random_play_solitaire_reaches_the_end() {
    let g = Bunker::new().unwrap();
    for scenario in ["solitaire-british", "solitaire-patriot"] {
        for seed in 0..games() / 2 {
            play(&g, scenario, &Options::new(), seed, seed < 2);
        }
    }
}

#[test]
fn same_seed_and_choices_give_the_same_game() {
    let g = Bunker::new().unwrap();
    for scenario in ["standard", "solitaire-british", "solitaire-patriot"] {
        let (a, na) = play(&g, scenario, &Options::new(), 11, false);
        let (b, nb) = play(&g, scenario, &Options::new(), 11, false);
        assert_eq!(na, nb);
        assert_eq!(a, b);
    }
}
