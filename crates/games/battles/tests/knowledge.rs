//! The bots' knowledge (issue 6): what it prunes must stay legal and keep a choice.

mod common;
use common::*;
use muster_battles::action::Action;
use muster_battles::data::AMERICAN;
use muster_battles::state::{Loc, Phase, SideId};
use muster_core::{Game, Knowledge, Options};

/// §12 (Oriskany): the British set up anywhere outside Area 1 and not next to an American;
/// the bots weigh only the hexes within three of an American, which are a real subset of the
/// legal ones and always leave a choice.
#[test]
fn rule_12_bots_weigh_british_set_up_hexes_within_reach_of_the_americans() {
    let g = game();
    let mut s = g.new_game("oriskany", &Options::new(), 1).unwrap();
    // The Americans' own set-up (all in Area 1) is not pruned: there is no enemy yet.
    let mut all = Vec::new();
    g.legal_actions(&s, &mut all);
    let mut kept = all.clone();
    g.prune(&s, &mut kept);
    assert_eq!(kept, all);
    while s.phase == (Phase::Setup { side: SideId(0) }) {
        let mut l = Vec::new();
        g.legal_actions(&s, &mut l);
        g.apply(&mut s, 0, l[0]).unwrap();
    }
    let sc = g.scenario(&s).clone();
    while s.phase == (Phase::Setup { side: SideId(1) }) {
        let americans: Vec<_> = s
            .units
            .iter()
            .enumerate()
            .filter(|(i, _)| sc.units[*i].side == AMERICAN)
            .filter_map(|(_, u)| u.hex())
            .collect();
        let mut all = Vec::new();
        g.legal_actions(&s, &mut all);
        let mut kept = all.clone();
        g.prune(&s, &mut kept);
        assert!(!kept.is_empty());
        assert!(kept.len() < all.len(), "far hexes are pruned");
        for a in &kept {
            assert!(all.contains(a), "{a:?} is legal");
            let Action::Place(hex) = a else {
                panic!("{a:?} is a placement")
            };
            assert!(
                americans.iter().any(|&m| sc.map.distance(m, *hex) <= 3),
                "{hex} is within three hexes of an American"
            );
        }
        // Place the unit on the far side of the kept list, so later units see a changed board.
        g.apply(&mut s, 1, kept[kept.len() - 1]).unwrap();
    }
    assert!(s.units.iter().all(|u| u.at != Loc::Unplaced));
}

/// §10 (issue 18): the search's evaluation credits a unit closing on a star of its colour
/// (Freeman's Farm: C9 and L9 score for the British), more the nearer it is and most once it
/// holds the star; standing next to a star of the other colour (A1, American) earns nothing.
#[test]
fn rule_10_the_evaluation_credits_units_closing_on_stars_of_their_colour() {
    let g = game();
    let mut s = blank_on(&g, "freemans-farm");
    let sc = g.scenario(&s).clone();
    put(&mut s, "morgan", "F5");
    let value_at = |s: &mut muster_battles::state::State, hex: &str| {
        put(s, "ranger", hex);
        g.evaluate(s, 1).unwrap()
    };
    for (hex, far) in [("L1", true), ("A2", true), ("C6", false), ("C8", false)] {
        let d = [h("C9"), h("L9")]
            .iter()
            .map(|&star| sc.map.distance(h(hex), star))
            .min()
            .unwrap();
        assert_eq!(d > 5, far, "{hex} is {d} from the nearest British star");
    }
    let far = value_at(&mut s, "L1");
    let beside_american_star = value_at(&mut s, "A2");
    let closer = value_at(&mut s, "C6");
    let next_to = value_at(&mut s, "C8");
    let on = value_at(&mut s, "C9");
    assert!(
        (beside_american_star - far).abs() < 1e-6,
        "A2 {beside_american_star} against L1 {far}"
    );
    assert!(
        far < closer && closer < next_to && next_to < on,
        "L1 {far}, C6 {closer}, C8 {next_to}, C9 {on}"
    );
}
