//! Combat on hand-built positions: 4.1 strength and the "0" militia example, 6.1 Attack,
//! 6.2 Assault, 6.3 Charge, 7.0 participants and fire modes, 7.1 retreats (moved units'
//! order, no retreat into the assault's origin, the extra hit), 7.1.3 OpFire, 10.0 the first
//! shot, 11.0 the retreat penalty after Concord, the FAQ's cannon on defence.

mod common;
use common::*;
use muster_revolution_road::Action;
use muster_revolution_road::concord::sequence::to_act;
use muster_revolution_road::concord::state::*;

#[test]
fn rule_4_1_zero_militia_pair_with_leaders_one_for_one() {
    // The rulebook's example: two leaders and three "0" militia make strength 2.
    let g = game();
    let mut s = empty_board(&g, 1);
    put(&g, &mut s, "parker", "lexington");
    put(&g, &mut s, "barrett", "lexington");
    let mut set = 0u64;
    for i in 1..=3 {
        set |= 1u64 << put_militia(&g, &mut s, &format!("m{i}"), "lexington", 0);
    }
    assert_eq!(g.strength(&s, set), 2);
    let mm = put(&g, &mut s, "mm1", "lexington");
    let r = put(&g, &mut s, "r1", "lexington");
    assert_eq!(g.strength(&s, set | 1u64 << mm | 1u64 << r), 5);
    s.units[r as usize].flipped = true;
    assert_eq!(
        g.strength(&s, 1u64 << r),
        0,
        "broken units have no strength"
    );
}

fn attack_setup(seed: u64) -> (muster_revolution_road::Concord, State) {
    let g = game();
    let mut s = empty_board(&g, seed);
    put(&g, &mut s, "r1", "lexington");
    put(&g, &mut s, "r2", "lexington");
    put_militia(&g, &mut s, "m1", "lexington", 2);
    put(&g, &mut s, "mm1", "lexington");
    round(&mut s, BRITISH, 3, 3);
    (g, s)
}

#[test]
fn rule_7_0_simultaneous_combat_costs_the_attacker_a_hit_first() {
    let (g, mut s) = attack_setup(2);
    let lex = region(&g, "lexington");
    apply(&g, &mut s, Action::Attack(lex));
    pick(&g, &mut s, "r1");
    pick(&g, &mut s, "r2");
    apply(&g, &mut s, Action::Done);
    assert_eq!(
        to_act(&s),
        Some(PATRIOT),
        "the defender decides on retreat first"
    );
    apply(&g, &mut s, Action::Done);
    pick(&g, &mut s, "m1");
    apply(&g, &mut s, Action::Done);
    apply(&g, &mut s, Action::Simultaneous);
    assert!(matches!(
        s.phase,
        Phase::Hits {
            side: BRITISH,
            n: 1,
            ..
        }
    ));
    let r1 = unit(&g, &s, "r1");
    apply(&g, &mut s, Action::Hit(r1));
    assert!(s.units[r1 as usize].flipped);
    assert!(
        s.shot || !s.units.iter().any(|u| u.fired),
        "dice rolled fire the Shot (10.0)"
    );
}

#[test]
fn rule_7_0_hits_go_to_participants_first() {
    let (g, mut s) = attack_setup(3);
    let lex = region(&g, "lexington");
    s.dice = dice_rolling(&[6, 6, 6, 6]);
    apply(&g, &mut s, Action::Attack(lex));
    pick(&g, &mut s, "r1");
    pick(&g, &mut s, "r2");
    apply(&g, &mut s, Action::Done);
    apply(&g, &mut s, Action::Done);
    pick(&g, &mut s, "m1");
    apply(&g, &mut s, Action::Done);
    apply(&g, &mut s, Action::DefensiveFire);
    // Defensive fire: the militia (2 dice) fires first; the British take its hits.
    while let Phase::Hits { side: BRITISH, .. } = s.phase {
        let h = legal(&g, &s)[0];
        apply(&g, &mut s, h);
    }
    if let Phase::Hits { side: PATRIOT, .. } = s.phase {
        let l = legal(&g, &s);
        let m1 = unit(&g, &s, "m1");
        assert_eq!(
            l,
            vec![Action::Hit(m1)],
            "the participant takes the first hit"
        );
    }
}

#[test]
fn rule_7_1_2_moved_patriots_retreat_in_order() {
    // A moved leader and two moved unbroken militia retreat: one hit first, the leader takes
    // one militia along, the other militia breaks after retreating.
    let g = game();
    let mut s = empty_board(&g, 4);
    let lex = region(&g, "lexington");
    put(&g, &mut s, "r1", "lexington");
    let p = put(&g, &mut s, "parker", "lexington");
    let m1 = put_militia(&g, &mut s, "m1", "lexington", 1);
    let m2 = put_militia(&g, &mut s, "m2", "lexington", 1);
    let m3 = put_militia(&g, &mut s, "m3", "lexington", 1);
    for u in [p, m1, m2, m3] {
        s.units[u as usize].moved = true;
    }
    round(&mut s, BRITISH, 3, 3);
    apply(&g, &mut s, Action::Attack(lex));
    pick(&g, &mut s, "r1");
    apply(&g, &mut s, Action::Done);
    for u in [p, m1, m2, m3] {
        apply(&g, &mut s, Action::Pick(u));
    }
    apply(&g, &mut s, Action::Done);
    let lin = region(&g, "lincoln");
    assert!(
        !legal(&g, &s).contains(&Action::To(region(&g, "menotomy"))),
        "toward Concord if possible"
    );
    apply(&g, &mut s, Action::To(lin));
    assert!(matches!(
        s.phase,
        Phase::Hits {
            side: PATRIOT,
            n: 1,
            ..
        }
    ));
    apply(&g, &mut s, Action::Hit(m3));
    // m3 is now broken and moved: it retreats only with an escort, and the leader escorts it
    // first; m1 and m2 go alone and break.
    assert_eq!(s.units[m3 as usize].at, Loc::At(lin));
    assert!(s.units[m1 as usize].flipped && s.units[m2 as usize].flipped);
    assert_eq!(s.units[p as usize].at, Loc::At(lin));
    assert!(
        matches!(s.phase, Phase::OpFire),
        "all defenders left: the attacker may OpFire"
    );
}

#[test]
fn rule_7_1_3_british_opfire_rolls_half_rounded_up() {
    let g = game();
    let mut s = empty_board(&g, 5);
    let lex = region(&g, "lexington");
    put(&g, &mut s, "r1", "lexington");
    for i in 1..=3 {
        put_militia(&g, &mut s, &format!("m{i}"), "lexington", 1);
    }
    round(&mut s, BRITISH, 3, 3);
    apply(&g, &mut s, Action::Attack(lex));
    pick(&g, &mut s, "r1");
    apply(&g, &mut s, Action::Done);
    for i in 1..=3 {
        pick(&g, &mut s, &format!("m{i}"));
    }
    apply(&g, &mut s, Action::Done);
    apply(&g, &mut s, Action::To(region(&g, "lincoln")));
    assert!(!s.shot);
    s.dice = dice_rolling(&[6, 6]);
    let side = to_act(&s).unwrap();
    let ev = muster_core::Game::apply(&g, &mut s, side, Action::OpFire).unwrap();
    // Three retreating units: two British dice, both 6.
    assert!(ev.iter().any(|e| matches!(
        e,
        muster_revolution_road::Event::Roll {
            dice: 2,
            hits: 2,
            ..
        }
    )));
    assert!(s.shot, "British OpFire fires the Shot");
    assert!(s.units[unit(&g, &s, "r1") as usize].fired);
}

#[test]
fn rule_7_1_4_no_retreat_into_the_assault_origin() {
    let g = game();
    let mut s = empty_board(&g, 6);
    put(&g, &mut s, "r1", "menotomy");
    put(&g, &mut s, "r2", "menotomy");
    put_militia(&g, &mut s, "m1", "lexington", 1);
    round(&mut s, BRITISH, 3, 3);
    apply(
        &g,
        &mut s,
        Action::Assault(region(&g, "menotomy"), region(&g, "lexington")),
    );
    pick(&g, &mut s, "r1");
    pick(&g, &mut s, "r2");
    apply(&g, &mut s, Action::Done);
    assert_eq!(
        s.units[unit(&g, &s, "r1") as usize].at,
        Loc::At(region(&g, "lexington"))
    );
    pick(&g, &mut s, "m1");
    apply(&g, &mut s, Action::Done);
    let l = legal(&g, &s);
    assert!(!l.contains(&Action::To(region(&g, "menotomy"))));
    assert!(l.contains(&Action::To(region(&g, "lincoln"))));
}

#[test]
fn rule_10_0_a_patriot_first_attack_gives_the_british_5_vp() {
    let g = game();
    let mut s = empty_board(&g, 7);
    let lex = region(&g, "lexington");
    put(&g, &mut s, "r1", "lexington");
    put_militia(&g, &mut s, "m1", "lexington", 2);
    round(&mut s, PATRIOT, 3, 3);
    assert!(
        !legal(&g, &s).contains(&Action::Ambush(lex)),
        "no Ambush before the Shot"
    );
    apply(&g, &mut s, Action::Attack(lex));
    pick(&g, &mut s, "m1");
    apply(&g, &mut s, Action::Done);
    apply(&g, &mut s, Action::Done);
    apply(&g, &mut s, Action::Done);
    apply(&g, &mut s, Action::DefensiveFire);
    assert!(s.shot);
    assert_eq!(s.vp.0[BRITISH as usize][Cause::FirstShot as usize], 10);
}

#[test]
fn rule_6_3_charge_hits_both_sides_and_drives_off_broken_patriots() {
    let g = game();
    let mut s = empty_board(&g, 8);
    let lex = region(&g, "lexington");
    put(&g, &mut s, "r1", "lexington");
    put(&g, &mut s, "r2", "lexington");
    put(&g, &mut s, "smith", "lexington");
    let m1 = put_militia(&g, &mut s, "m1", "lexington", 1);
    let m2 = put_militia(&g, &mut s, "m2", "lexington", 1);
    let p = put(&g, &mut s, "parker", "lexington");
    round(&mut s, BRITISH, 3, 3);
    apply(&g, &mut s, Action::Charge(lex));
    assert!(s.shot, "a Charge fires the Shot");
    pick_hit(&g, &mut s, "r2");
    assert!(
        s.units
            .iter()
            .enumerate()
            .filter(|(i, _)| g.side_of(&s, *i as u8) == BRITISH)
            .all(|(_, u)| !matches!(u.at, Loc::At(_)) || (u.moved && u.fired))
    );
    // The Patriot takes two hits.
    apply(&g, &mut s, Action::Hit(m1));
    apply(&g, &mut s, Action::Hit(m2));
    assert!(matches!(s.phase, Phase::ChargeLeaders { .. }));
    apply(&g, &mut s, Action::Pick(p));
    apply(&g, &mut s, Action::Done);
    apply(&g, &mut s, Action::To(region(&g, "lincoln")));
    for u in [m1, m2, p] {
        assert_eq!(s.units[u as usize].at, Loc::At(region(&g, "lincoln")));
    }
}

fn pick_hit(g: &muster_revolution_road::Concord, s: &mut State, id: &str) {
    let u = unit(g, s, id);
    apply(g, s, Action::Hit(u));
}

#[test]
fn rule_4_1_faq_the_cannon_breaks_militia_when_defending() {
    let g = game();
    let mut s = empty_board(&g, 9);
    let lex = region(&g, "lexington");
    put(&g, &mut s, "p1", "lexington");
    put(&g, &mut s, "cannon", "lexington");
    let m1 = put_militia(&g, &mut s, "m1", "lexington", 2);
    put_militia(&g, &mut s, "m2", "lexington", 2);
    round(&mut s, PATRIOT, 3, 3);
    s.shot = true;
    apply(&g, &mut s, Action::Attack(lex));
    pick(&g, &mut s, "m1");
    apply(&g, &mut s, Action::Done);
    apply(&g, &mut s, Action::Done);
    pick(&g, &mut s, "p1");
    pick(&g, &mut s, "cannon");
    apply(&g, &mut s, Action::Done);
    assert!(matches!(s.phase, Phase::CannonBreak { in_move: false, .. }));
    apply(&g, &mut s, Action::Pick(m1));
    assert!(s.units[m1 as usize].flipped);
    assert!(matches!(s.phase, Phase::FireMode));
}

#[test]
fn rule_11_0_smith_s_units_retreating_after_concord_roll_for_a_hit() {
    let g = game();
    let mut s = empty_board(&g, 10);
    let lex = region(&g, "lexington");
    let r1 = put(&g, &mut s, "r1", "lexington");
    put_militia(&g, &mut s, "m1", "lexington", 2);
    s.concord = true;
    s.shot = true;
    round(&mut s, PATRIOT, 3, 3);
    apply(&g, &mut s, Action::Attack(lex));
    pick(&g, &mut s, "m1");
    apply(&g, &mut s, Action::Done);
    apply(&g, &mut s, Action::Pick(r1));
    apply(&g, &mut s, Action::Done);
    s.dice = dice_rolling(&[6]);
    apply(&g, &mut s, Action::To(region(&g, "menotomy")));
    assert!(
        s.units[r1 as usize].flipped,
        "the 6 costs the Regular a hit"
    );
}

#[test]
fn rule_7_1_retreating_into_unbroken_enemies_costs_a_hit() {
    let g = game();
    let mut s = empty_board(&g, 11);
    let lex = region(&g, "lexington");
    put(&g, &mut s, "r1", "lexington");
    let m1 = put_militia(&g, &mut s, "m1", "lexington", 1);
    put(&g, &mut s, "r2", "lincoln");
    round(&mut s, BRITISH, 3, 3);
    apply(&g, &mut s, Action::Attack(lex));
    pick(&g, &mut s, "r1");
    apply(&g, &mut s, Action::Done);
    apply(&g, &mut s, Action::Pick(m1));
    apply(&g, &mut s, Action::Done);
    apply(&g, &mut s, Action::To(region(&g, "lincoln")));
    assert!(matches!(
        s.phase,
        Phase::Hits {
            side: PATRIOT,
            n: 1,
            ..
        }
    ));
}

#[test]
fn rule_4_1_the_cannon_may_advance_after_a_patriot_retreat_before_combat() {
    let g = game();
    let mut s = empty_board(&g, 12);
    s.turn = 9;
    let lex = region(&g, "lexington");
    put(&g, &mut s, "p1", "lexington");
    put(&g, &mut s, "p2", "lexington");
    let cannon = put(&g, &mut s, "cannon", "lexington");
    let m1 = put_militia(&g, &mut s, "m1", "lexington", 1);
    round(&mut s, BRITISH, 3, 3);
    apply(&g, &mut s, Action::Attack(lex));
    pick(&g, &mut s, "p1");
    pick(&g, &mut s, "cannon");
    apply(&g, &mut s, Action::Done);
    apply(&g, &mut s, Action::Pick(m1));
    apply(&g, &mut s, Action::Done);
    apply(&g, &mut s, Action::To(region(&g, "lincoln")));
    apply(&g, &mut s, Action::NoOpFire);
    assert!(matches!(s.phase, Phase::Advance { .. }));
    apply(&g, &mut s, Action::Pick(cannon));
    assert!(
        !legal(&g, &s).iter().any(|a| matches!(a, Action::To(_))),
        "not without a Regular"
    );
    pick(&g, &mut s, "p1");
    let men = region(&g, "menotomy");
    apply(&g, &mut s, Action::To(men));
    assert_eq!(s.units[cannon as usize].at, Loc::At(men));
    assert_eq!(
        s.units[unit(&g, &s, "p2") as usize].at,
        Loc::At(lex),
        "p2 did not attack"
    );
    assert!(matches!(s.phase, Phase::Round { .. }));
}
