//! Random play over many seeds per scenario: every game ends, nothing panics, every listed
//! action applies and others are refused without changing the state, and the invariants hold
//! after every decision. Also: replay determinism, position round trips, and views that never
//! carry the deck order, the other side's peek or the dice.

mod common;
use common::*;
use muster_core::{Dice, Game, Options, Viewer};
use muster_revolution_road::Concord;
use muster_revolution_road::concord::invariants;
use muster_revolution_road::concord::state::*;

const SCENARIOS: [&str; 3] = ["standard", "solitaire-british", "solitaire-patriot"];

/// The game's invariants (`concord::invariants::check`, the same checks `validate` makes on a
/// loaded position): units and the 21 militia pieces conserved, markers where the map has them,
/// tracks in bounds, every card once, VP for destroyed units matching the removed units, the
/// phase consistent with the board, and a decision for the side to act.
fn check_invariants(g: &Concord, s: &State) {
    if let Err(e) = invariants::check(g, s) {
        panic!("invariant broken: {e}\nphase {:?}", s.phase);
    }
}

#[test]
fn random_games_end_with_invariants_and_agreement() {
    let g = game();
    let games = if cfg!(debug_assertions) { 1000 } else { 2000 };
    for scenario in SCENARIOS {
        for seed in 0..games {
            let mut s = g.new_game(scenario, &Options::new(), seed).unwrap();
            let mut pick = Dice::from_seed(seed ^ 77);
            let mut actions = Vec::new();
            let mut steps = 0;
            check_invariants(&g, &s);
            while let Some(side) = g.to_act(&s) {
                g.legal_actions(&s, &mut actions);
                assert!(
                    !actions.is_empty(),
                    "{scenario} seed {seed}: no action in {:?}",
                    s.phase
                );
                if seed % 10 == 0 {
                    check_agreement(&g, &s, &actions);
                }
                let a = actions[pick.below(actions.len() as u32) as usize];
                g.apply(&mut s, side, a)
                    .unwrap_or_else(|e| panic!("{scenario} seed {seed}: {a:?} refused: {e}"));
                check_invariants(&g, &s);
                steps += 1;
                assert!(
                    steps < 20_000,
                    "{scenario} seed {seed}: the game does not end"
                );
            }
            assert!(g.outcome(&s).is_some());
        }
    }
}

#[test]
fn random_games_with_every_option_end() {
    let g = game();
    let mut o = Options::new();
    for k in [
        "leader-rerolls",
        "movement-fire",
        "hobbled-sons",
        "militia-six",
        "percy-turn-8",
    ] {
        o.insert(k.into(), "on".into());
    }
    // The players' decisions inside actions are reached by random play: 14.1 re-rolls, 7.1.2
    // escorts, 6.8 rally leaders, 8.0 search order, 4.3 free moves interrupting an action.
    let seen = std::cell::Cell::new([0u32; 5]);
    for arms in ["none", "card-any", "card-marks"] {
        o.insert("hidden-arms".into(), arms.into());
        let o = g.info().resolve_options(&o).unwrap();
        for scenario in SCENARIOS {
            for seed in 0..40 {
                let mut s = g.new_game(scenario, &o, seed).unwrap();
                play_random(&g, &mut s, seed, |s| {
                    check_invariants(&g, s);
                    let mut c = seen.get();
                    match s.phase {
                        Phase::Reroll { .. } => c[0] += 1,
                        Phase::Escort { .. } => c[1] += 1,
                        Phase::RallyLeaders { .. } => c[2] += 1,
                        Phase::SearchNext { .. } => c[3] += 1,
                        Phase::Muster { .. } if s.resume.is_some() => c[4] += 1,
                        _ => {}
                    }
                    seen.set(c);
                });
                assert!(g.outcome(&s).is_some());
            }
        }
    }
    // The search order needs both Sons of Liberty together with a Regular, which random
    // British play rarely brings about; `turn.rs::rule_8_0_…` covers it on a built position.
    let c = seen.get();
    assert!(
        [c[0], c[1], c[2], c[4]].iter().all(|n| *n > 0),
        "decisions never reached: {c:?}"
    );
}

#[test]
fn same_seed_and_actions_give_the_same_game() {
    let g = game();
    for scenario in SCENARIOS {
        for seed in 0..10 {
            let mut a = g.new_game(scenario, &Options::new(), seed).unwrap();
            let mut b = g.new_game(scenario, &Options::new(), seed).unwrap();
            assert_eq!(a, b);
            let mut pick = Dice::from_seed(seed);
            let mut actions = Vec::new();
            while let Some(side) = g.to_act(&a) {
                g.legal_actions(&a, &mut actions);
                let x = actions[pick.below(actions.len() as u32) as usize];
                let ea = g.apply(&mut a, side, x).unwrap();
                let eb = g.apply(&mut b, side, x).unwrap();
                assert_eq!(ea, eb);
                assert_eq!(a, b);
            }
        }
    }
}

#[test]
fn positions_round_trip_through_json() {
    let g = game();
    for scenario in SCENARIOS {
        for seed in 0..10 {
            let mut s = g.new_game(scenario, &Options::new(), seed).unwrap();
            let mut pick = Dice::from_seed(seed);
            let mut actions = Vec::new();
            let mut n = 0;
            while let Some(side) = g.to_act(&s) {
                if n % 25 == 0 {
                    let json = serde_json::to_string(&s).unwrap();
                    let mut back: State = serde_json::from_str(&json).unwrap();
                    g.validate(&mut back).unwrap();
                    assert_eq!(back, s);
                }
                g.legal_actions(&s, &mut actions);
                let x = actions[pick.below(actions.len() as u32) as usize];
                g.apply(&mut s, side, x).unwrap();
                n += 1;
            }
        }
    }
}

#[test]
fn state_is_small_and_plain() {
    assert!(
        std::mem::size_of::<State>() <= 4096,
        "{} bytes",
        std::mem::size_of::<State>()
    );
}

#[test]
fn views_never_leak_the_deck_the_other_peek_or_the_dice() {
    let g = game();
    for seed in 0..30 {
        let mut s = g.new_game("standard", &Options::new(), seed).unwrap();
        let mut pick = Dice::from_seed(seed);
        let mut actions = Vec::new();
        let mut n = 0;
        while let Some(side) = g.to_act(&s) {
            if n % 7 == 0 {
                for viewer in [
                    Viewer::Side(PATRIOT),
                    Viewer::Side(BRITISH),
                    Viewer::Spectator,
                ] {
                    let v = serde_json::to_value(g.view(&s, viewer)).unwrap();
                    let text = v.to_string();
                    assert!(
                        !text.contains("word_pos") && !text.contains("\"key\""),
                        "dice leak"
                    );
                    assert!(v.get("deck").is_none(), "the deck order is never in a view");
                    // Only the viewer's own peek is shown, and only as far as it still holds.
                    let seen: Vec<u8> = serde_json::from_value(v["seen"].clone()).unwrap();
                    match viewer {
                        Viewer::Side(x) => assert_eq!(seen, s.deck.seen_by(x).to_vec()),
                        Viewer::Spectator => assert!(seen.is_empty()),
                    }
                }
                // Two states that differ only in what a side cannot know look the same to it.
                for viewer in [PATRIOT, BRITISH] {
                    let mut other = s.clone();
                    let mut rng = rand_chacha_rng(seed + n);
                    g.determinize(&mut other, viewer, &mut rng);
                    let a = serde_json::to_value(g.view(&s, Viewer::Side(viewer))).unwrap();
                    let b = serde_json::to_value(g.view(&other, Viewer::Side(viewer))).unwrap();
                    assert_eq!(a, b, "determinize changes only what the viewer cannot see");
                    assert_eq!(other.deck.seen_by(viewer), s.deck.seen_by(viewer));
                    // The resample depends only on what the viewer knows: a state with the
                    // unseen cards in another order resamples to the same state.
                    let mut shuffled = s.clone();
                    let keep = shuffled.deck.seen_by(viewer).len();
                    let unseen = shuffled.deck.draw.len() - keep;
                    shuffled.deck.draw[..unseen].reverse();
                    shuffled.dice = Dice::from_seed(unseen as u64 + 1000);
                    let mut rng2 = rand_chacha_rng(seed + n);
                    g.determinize(&mut shuffled, viewer, &mut rng2);
                    assert_eq!(
                        shuffled, other,
                        "determinize reads nothing the viewer cannot see"
                    );
                }
            }
            g.legal_actions(&s, &mut actions);
            let x = actions[pick.below(actions.len() as u32) as usize];
            g.apply(&mut s, side, x).unwrap();
            n += 1;
        }
    }
}

#[test]
fn log_entries_of_a_peek_go_only_to_the_peeking_side() {
    let g = game();
    let mut s = g.new_game("standard", &Options::new(), 5).unwrap();
    finish_opening(&g, &mut s);
    let side = g.to_act(&s).unwrap();
    let ev = g
        .apply(&mut s, side, muster_revolution_road::Action::Intel)
        .unwrap();
    let entries: Vec<_> = ev.iter().map(|e| g.describe(&s, e)).collect();
    // The action itself is public (its line is 6.14 too); what was seen is the side's own.
    let peek = entries
        .iter()
        .find(|e| e.section == "6.14" && e.text.contains("the next cards are"))
        .unwrap();
    assert_eq!(peek.audience, muster_core::Audience::Side(side));
    assert_eq!(s.deck.seen_by(side).len(), 2);
    assert_eq!(s.deck.seen_by(1 - side).len(), 0);
}
