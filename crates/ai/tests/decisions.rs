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
    let p = Level::Hard.params().unwrap();
    let a = mcts::search(&g, &s, &p, 7).unwrap();
    let b = mcts::search(&g, &s, &p, 7).unwrap();
    assert_eq!(a.action, b.action);
    assert_eq!(a.root, b.root);
    assert!(a.iterations >= 6_000);
}
