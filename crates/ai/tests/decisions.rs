//! The bot decides whatever the rules ask of its side, not only on its own turn: set-up
//! placement, artillery support during the other side's attack, retreat hexes, which unit
//! takes a loss (issue 6, §1).

use muster_ai::{Level, choose, mcts};
use muster_battles::Battles;
use muster_battles::state::{Loc, Phase, SideId};
use muster_core::{Game, Options};

fn game() -> Battles {
    Battles::new().unwrap()
}

#[test]
fn bot_places_units_in_the_oriskany_setup() {
    let g = game();
    let mut s = g.new_game("oriskany", &Options::new(), 3).unwrap();
    let mut n = 0;
    while matches!(s.phase, Phase::Setup { .. }) {
        let side = g.to_act(&s).unwrap();
        let a = choose(&g, &s, Level::Medium, n).unwrap();
        g.apply(&mut s, side, a).unwrap();
        n += 1;
    }
    assert!(
        s.units.iter().all(|u| matches!(u.at, Loc::Map(_))),
        "every unit set up"
    );
    assert_eq!(s.active, SideId(1));
}

#[test]
fn bot_decides_for_the_non_active_side() {
    // Play random moves until the British must decide during an American turn (artillery
    // fire or support, or a retreat), then let the bot decide.
    let g = game();
    let mut found = 0;
    for seed in 0..200u64 {
        let mut s = g.new_game("freemans-farm", &Options::new(), seed).unwrap();
        let mut legal = Vec::new();
        let mut pick = muster_core::Dice::from_seed(seed);
        while let Some(side) = g.to_act(&s) {
            if side != s.active.0 {
                let r = mcts::search(&g, &s, &Level::Medium.params().unwrap(), seed).unwrap();
                g.legal_actions(&s, &mut legal);
                assert!(legal.contains(&r.action));
                found += 1;
                break;
            }
            g.legal_actions(&s, &mut legal);
            let a = legal[pick.below(legal.len() as u32) as usize];
            g.apply(&mut s, side, a).unwrap();
        }
        if found >= 3 {
            break;
        }
    }
    assert!(
        found >= 3,
        "non-active decisions occur and the bot makes them"
    );
}

#[test]
fn search_with_an_iteration_budget_is_deterministic_for_a_seed() {
    let g = game();
    let s = g.new_game("freemans-farm", &Options::new(), 1).unwrap();
    // Two root-parallel trees, as `hard` searches, on a small budget.
    let p = mcts::Params {
        budget: mcts::Budget::Iterations(1_200),
        threads: 2,
        ..mcts::Params::default()
    };
    let a = mcts::search(&g, &s, &p, 7).unwrap();
    let b = mcts::search(&g, &s, &p, 7).unwrap();
    assert_eq!(a.action, b.action);
    assert_eq!(a.root, b.root);
    assert_eq!(a.iterations, 1_200);
}

#[test]
fn a_time_budget_stops_at_its_iteration_cap_on_any_machine() {
    // A minute allowed but 500 iterations capped: the cap ends the search (issue 18: the
    // server's clock-budgeted levels never search past the iterations the simulations count).
    let g = game();
    let s = g.new_game("freemans-farm", &Options::new(), 1).unwrap();
    let p = mcts::Params {
        budget: mcts::Budget::Time {
            limit: std::time::Duration::from_secs(60),
            cap: 500,
        },
        threads: 2,
        ..mcts::Params::default()
    };
    let r = mcts::search(&g, &s, &p, 3).unwrap();
    assert_eq!(r.iterations, 500);
}

#[test]
fn a_time_budget_ends_the_search_at_its_limit() {
    // No cap to speak of: only the clock can end this search, and it does.
    let g = game();
    let s = g.new_game("freemans-farm", &Options::new(), 1).unwrap();
    let p = mcts::Params {
        budget: mcts::Budget::Time {
            limit: std::time::Duration::from_millis(20),
            cap: u32::MAX,
        },
        threads: 1,
        ..mcts::Params::default()
    };
    let r = mcts::search(&g, &s, &p, 3).unwrap();
    assert!(r.iterations >= 1 && r.iterations < u32::MAX as u64);
}

#[test]
fn the_server_pace_caps_each_level_at_the_iterations_the_simulations_count() {
    use muster_ai::Pace;
    for level in [Level::Medium, Level::Hard] {
        let counted = level.params_at(Pace::Iterations).unwrap();
        let timed = level.params_at(Pace::Time).unwrap();
        let mcts::Budget::Iterations(n) = counted.budget else {
            panic!("{level}: iterations")
        };
        let mcts::Budget::Time { limit, cap } = timed.budget else {
            panic!("{level}: time")
        };
        assert_eq!(cap, n, "{level}");
        assert_eq!(timed.threads, counted.threads, "{level}");
        assert!(limit <= std::time::Duration::from_secs(1), "{level}");
    }
    assert!(muster_ai::MEDIUM_TIME < muster_ai::HARD_TIME);
    assert_eq!(Level::Hard.threads(), 1, "hard grows one tree");
    assert!(Level::Easy.params_at(Pace::Time).is_none());
}

#[test]
fn a_playout_depth_in_the_settings_replaces_the_games_and_nothing_else() {
    // Issue 18's measurements of what depth buys (`muster sim --depth`): the game's own depth
    // given explicitly searches exactly as no setting does; a depth of one decision changes
    // what the playouts see, and so the root's values.
    use muster_core::Knowledge;
    let g = game();
    let s = g.new_game("freemans-farm", &Options::new(), 1).unwrap();
    let p = mcts::Params {
        budget: mcts::Budget::Iterations(400),
        ..mcts::Params::default()
    };
    let shipped = mcts::search(&g, &s, &p, 5).unwrap();
    let own = mcts::Params {
        playout_depth: Some(g.playout_depth()),
        ..p
    };
    assert_eq!(mcts::search(&g, &s, &own, 5).unwrap().root, shipped.root);
    let short = mcts::Params {
        playout_depth: Some(1),
        ..p
    };
    let r = mcts::search(&g, &s, &short, 5).unwrap();
    assert_eq!(r.iterations, 400);
    assert_ne!(
        r.root, shipped.root,
        "a one-decision playout reads other values"
    );
}
