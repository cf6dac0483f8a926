//! The bots' knowledge of Bunker Hill (`bunker/knowledge.rs`): the estimate the search bots
//! stop their playouts with. It only guides bots; a player is offered every legal action.

mod bunker_support;
use bunker_support::*;
use muster_core::{Dice, Game, Knowledge, Options};
use muster_revolution_road::bunker::state::*;

/// Over positions of random games the two sides' estimates are complementary and within
/// (0, 1): the bots on either side read the same position the same way.
#[test]
fn knowledge_estimates_of_the_two_sides_add_up_to_one() {
    let g = game();
    let mut checked = 0;
    for seed in 0..20u64 {
        let mut s = g.new_game("standard", &Options::new(), seed).unwrap();
        let mut pick = Dice::from_seed(seed ^ 0x5eed);
        let mut n = 0;
        while let Some(side) = g.to_act(&s) {
            if n % 7 == 0 {
                let p = g.evaluate(&s, PATRIOT).unwrap();
                let b = g.evaluate(&s, BRITISH).unwrap();
                assert!(p > 0.0 && p < 1.0, "seed {seed}: {p}");
                assert!((p + b - 1.0).abs() < 1e-5, "seed {seed}: {p} + {b}");
                checked += 1;
            }
            let mut legal = Vec::new();
            g.legal_actions(&s, &mut legal);
            let a = legal[pick.below(legal.len() as u32) as usize];
            g.apply(&mut s, side, a).unwrap();
            n += 1;
        }
    }
    assert!(checked > 200);
}

/// A Regular in a British staging area and a Minuteman on Breed's Hill's east slope.
fn two_armies() -> (muster_revolution_road::Bunker, State) {
    let g = game();
    let mut s = empty(&g);
    put(&g, &mut s, BRITISH, Kind::Regular, "point-n");
    put(&g, &mut s, PATRIOT, Kind::Minuteman, "breeds-slope-e");
    (g, s)
}

/// 10.0: holding a whole hill is worth its Victory Points, and each hilltop region held counts
/// a little toward it; an enemy unit in a hilltop region takes the hold away.
#[test]
fn rule_10_0_knowledge_values_hills_held() {
    let (g, s) = two_armies();
    let base = g.judged_lead(&s, PATRIOT);
    let mut one = s.clone();
    put(&g, &mut one, PATRIOT, Kind::Minuteman, "redoubt");
    let one_lead = g.judged_lead(&one, PATRIOT);
    assert!(one_lead > base, "a hilltop region: {one_lead} vs {base}");
    let mut both = one.clone();
    put(&g, &mut both, PATRIOT, Kind::Minuteman, "breeds-s");
    let both_lead = g.judged_lead(&both, PATRIOT);
    // The whole of Breed's Hill adds its VP (4 half points on the reconstructed aid, R11).
    assert!(both_lead >= one_lead + 4.0, "{both_lead} vs {one_lead}");
    assert!(g.evaluate(&both, PATRIOT).unwrap() > g.evaluate(&one, PATRIOT).unwrap());
    let mut contested = both.clone();
    put(&g, &mut contested, BRITISH, Kind::Regular, "breeds-s");
    assert!(g.judged_lead(&contested, PATRIOT) < both_lead);
}

/// 9.0: with the score level, the side whose morale stands higher is judged ahead.
#[test]
fn rule_9_0_knowledge_prefers_higher_morale() {
    let (g, mut s) = two_armies();
    let level = g.judged_lead(&s, BRITISH);
    s.morale[PATRIOT as usize] = s.morale[PATRIOT as usize].saturating_sub(6);
    assert!(g.judged_lead(&s, BRITISH) > level);
}

/// 7.0: hits fired into a region may all fall on a leader there, so the bots judge a leader
/// without a unit of his own worse placed than one beside his men (a wounded one worse still).
#[test]
fn rule_7_0_knowledge_keeps_leaders_beside_their_units() {
    let (g, s) = two_armies();
    let mut beside = s.clone();
    put(&g, &mut beside, PATRIOT, Kind::Leader, "breeds-slope-e");
    let mut alone = s.clone();
    let l = put(&g, &mut alone, PATRIOT, Kind::Leader, "breeds-slope-n");
    let (b, a) = (
        g.judged_lead(&beside, PATRIOT),
        g.judged_lead(&alone, PATRIOT),
    );
    assert!(b > a, "beside {b}, alone {a}");
    alone.units[l as usize].flags |= BROKEN;
    assert!(g.judged_lead(&alone, PATRIOT) < a, "a wounded leader alone");
}
