//! Combat on hand-built positions: 4.1 strength and the "0" militia example, 6.1 Attack,
//! 6.2 Assault, 6.3 Charge, 7.0 participants and fire modes, 7.1 retreats (moved units'
//! order, no retreat into the assault's origin, the extra hit), 7.1.3 OpFire, 10.0 the first
//! shot, 11.0 the retreat penalty after Concord, the FAQ's cannon on defence.

mod common;
use common::*;
use muster_core::{Game, Viewer};
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

/// A British attack on Lexington where Parker and three militia, all moved, retreat to
/// Lincoln; m3 takes the 7.1.2 hit and is broken. Returns the game at the escort choice.
fn moved_patriot_retreat(seed: u64) -> (muster_revolution_road::Concord, State, [u8; 4]) {
    let g = game();
    let mut s = empty_board(&g, seed);
    let lex = region(&g, "lexington");
    put(&g, &mut s, "r1", "lexington");
    let p = put(&g, &mut s, "parker", "lexington");
    let m1 = put_militia(&g, &mut s, "m1", "lexington", 1);
    let m2 = put_militia(&g, &mut s, "m2", "lexington", 2);
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
    (g, s, [p, m1, m2, m3])
}

#[test]
fn rule_7_1_2_the_patriot_chooses_which_militia_his_leader_escorts() {
    // One escort (Parker) for three militia: the Patriot names the one he accompanies.
    let (g, mut s, [p, m1, m2, m3]) = moved_patriot_retreat(4);
    assert!(matches!(s.phase, Phase::Escort { .. }));
    assert_eq!(to_act(&s), Some(PATRIOT), "the retreating side decides");
    let l = legal(&g, &s);
    for u in [m1, m2, m3] {
        assert!(l.contains(&Action::Pick(u)), "any militia may be the one");
    }
    assert!(!l.contains(&Action::Pick(p)), "the leader is the escort");
    let board = g.render_text(&s, Viewer::Side(PATRIOT));
    assert!(
        board.contains("7.1.2 retreat: 1 escort for: Militia 1, Militia 2, Militia 3"),
        "{board}"
    );
    check_agreement(&g, &s, &l);
    // He keeps the strong m2 whole rather than save the broken m3.
    apply(&g, &mut s, Action::Pick(m2));
    let lin = Loc::At(region(&g, "lincoln"));
    let lex = Loc::At(region(&g, "lexington"));
    assert_eq!(s.units[p as usize].at, lin);
    assert_eq!(s.units[m2 as usize].at, lin);
    assert!(!s.units[m2 as usize].flipped, "accompanied: not broken");
    assert_eq!(s.units[m1 as usize].at, lin);
    assert!(s.units[m1 as usize].flipped, "alone: retreats and breaks");
    assert_eq!(
        s.units[m3 as usize].at, lex,
        "broken and alone: cannot retreat"
    );
    assert!(
        matches!(s.phase, Phase::Defenders),
        "m3 stayed, so the combat goes on"
    );
}

#[test]
fn rule_7_1_2_an_escort_may_take_a_broken_militia_instead() {
    let (g, mut s, [p, m1, m2, m3]) = moved_patriot_retreat(4);
    apply(&g, &mut s, Action::Pick(m3));
    let lin = Loc::At(region(&g, "lincoln"));
    for u in [p, m1, m2, m3] {
        assert_eq!(s.units[u as usize].at, lin);
    }
    assert!(s.units[m1 as usize].flipped && s.units[m2 as usize].flipped);
    assert!(
        matches!(s.phase, Phase::OpFire),
        "all defenders left: the attacker may OpFire"
    );
}

#[test]
fn rule_7_1_2_the_defender_may_decline_an_escort() {
    // "May be accompanied": done without a choice leaves every militia alone.
    let (g, mut s, [p, m1, m2, m3]) = moved_patriot_retreat(4);
    apply(&g, &mut s, Action::Done);
    let lin = Loc::At(region(&g, "lincoln"));
    assert_eq!(s.units[p as usize].at, lin);
    assert!(s.units[m1 as usize].flipped && s.units[m2 as usize].flipped);
    assert_eq!(s.units[m3 as usize].at, Loc::At(region(&g, "lexington")));
}

#[test]
fn rule_7_1_2_with_an_escort_for_every_militia_nobody_is_asked() {
    let g = game();
    let mut s = empty_board(&g, 4);
    let lex = region(&g, "lexington");
    put(&g, &mut s, "r1", "lexington");
    let p = put(&g, &mut s, "parker", "lexington");
    let mm = put(&g, &mut s, "mm1", "lexington");
    let m1 = put_militia(&g, &mut s, "m1", "lexington", 1);
    for u in [p, mm, m1] {
        s.units[u as usize].moved = true;
    }
    round(&mut s, BRITISH, 3, 3);
    apply(&g, &mut s, Action::Attack(lex));
    pick(&g, &mut s, "r1");
    apply(&g, &mut s, Action::Done);
    for u in [p, mm, m1] {
        apply(&g, &mut s, Action::Pick(u));
    }
    apply(&g, &mut s, Action::Done);
    apply(&g, &mut s, Action::To(region(&g, "lincoln")));
    apply(&g, &mut s, Action::Hit(p));
    assert!(
        !matches!(s.phase, Phase::Escort { .. }),
        "the Minuteman alone escorts m1"
    );
    assert!(!s.units[m1 as usize].flipped);
    assert_eq!(s.units[m1 as usize].at, Loc::At(region(&g, "lincoln")));
}

#[test]
fn rule_7_1_2_the_british_choose_the_regular_their_leader_brings_along() {
    let g = game();
    let mut s = empty_board(&g, 6);
    let lex = region(&g, "lexington");
    put_militia(&g, &mut s, "m1", "lexington", 2);
    let smith = put(&g, &mut s, "smith", "lexington");
    let r1 = put(&g, &mut s, "r1", "lexington");
    let r2 = put(&g, &mut s, "r2", "lexington");
    let r3 = put(&g, &mut s, "r3", "lexington");
    for u in [smith, r1, r2, r3] {
        s.units[u as usize].moved = true;
    }
    s.shot = true;
    round(&mut s, PATRIOT, 3, 3);
    apply(&g, &mut s, Action::Attack(lex));
    pick(&g, &mut s, "m1");
    apply(&g, &mut s, Action::Done);
    for u in [smith, r1, r2] {
        apply(&g, &mut s, Action::Pick(u));
    }
    apply(&g, &mut s, Action::Done);
    apply(&g, &mut s, Action::To(region(&g, "menotomy")));
    apply(&g, &mut s, Action::Hit(smith));
    // Smith is wounded by the 7.1.2 hit: no escort is left, so nobody is asked.
    assert!(!matches!(s.phase, Phase::Escort { .. }));
    // Again, with the hit on a Regular: Smith escorts one of the two.
    let mut s = empty_board(&g, 6);
    put_militia(&g, &mut s, "m1", "lexington", 2);
    for id in ["smith", "r1", "r2", "r3"] {
        let u = put(&g, &mut s, id, "lexington");
        s.units[u as usize].moved = true;
    }
    s.shot = true;
    round(&mut s, PATRIOT, 3, 3);
    apply(&g, &mut s, Action::Attack(lex));
    pick(&g, &mut s, "m1");
    apply(&g, &mut s, Action::Done);
    for u in [smith, r1, r2, r3] {
        apply(&g, &mut s, Action::Pick(u));
    }
    apply(&g, &mut s, Action::Done);
    apply(&g, &mut s, Action::To(region(&g, "menotomy")));
    apply(&g, &mut s, Action::Hit(r3));
    assert!(matches!(s.phase, Phase::Escort { .. }));
    assert_eq!(to_act(&s), Some(BRITISH));
    let l = legal(&g, &s);
    assert!(l.contains(&Action::Pick(r1)) && l.contains(&Action::Pick(r2)));
    assert!(!l.contains(&Action::Pick(r3)), "broken: it needs no escort");
    // r2 goes with Smith; r1 rolls alone and the 6 breaks it.
    s.dice = dice_rolling(&[6]);
    apply(&g, &mut s, Action::Pick(r2));
    let men = Loc::At(region(&g, "menotomy"));
    for u in [smith, r1, r2, r3] {
        assert_eq!(s.units[u as usize].at, men);
    }
    assert!(s.units[r1 as usize].flipped, "unaccompanied: rolled a 6");
    assert!(!s.units[r2 as usize].flipped, "accompanied: no roll");
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

/// A Patriot attack in Lexington by m1 (strength 2) with Parker against r1, the option
/// 14.1 set as given; the British fire first (defensive fire). The dice roll `rolls`.
fn reroll_setup(rerolls: bool, rolls: &[u8]) -> (muster_revolution_road::Concord, State) {
    let g = game();
    let mut s = empty_board(&g, 12);
    s.options.leader_rerolls = rerolls;
    let lex = region(&g, "lexington");
    put(&g, &mut s, "r1", "lexington");
    put_militia(&g, &mut s, "m1", "lexington", 2);
    put(&g, &mut s, "parker", "lexington");
    s.shot = true;
    round(&mut s, PATRIOT, 3, 3);
    apply(&g, &mut s, Action::Attack(lex));
    pick(&g, &mut s, "m1");
    pick(&g, &mut s, "parker");
    apply(&g, &mut s, Action::Done);
    apply(&g, &mut s, Action::Done);
    pick(&g, &mut s, "r1");
    apply(&g, &mut s, Action::Done);
    s.dice = dice_rolling(rolls);
    // The British roll two misses (no British leader: no re-roll), then the Patriot two.
    apply(&g, &mut s, Action::DefensiveFire);
    (g, s)
}

#[test]
fn rule_14_1_the_side_with_a_healthy_leader_chooses_to_reroll_a_miss() {
    let (g, mut s) = reroll_setup(true, &[1, 1, 1, 2, 6]);
    let m1 = unit(&g, &s, "m1");
    assert!(
        matches!(s.phase, Phase::Reroll { side: PATRIOT, .. }),
        "{:?}",
        s.phase
    );
    assert_eq!(to_act(&s), Some(PATRIOT));
    assert_eq!(legal(&g, &s), vec![Action::Reroll(m1), Action::KeepRoll]);
    let board = g.render_text(&s, Viewer::Side(PATRIOT));
    assert!(board.contains("missed dice: Militia 1"), "{board}");
    check_agreement(&g, &s, &legal(&g, &s));
    apply(&g, &mut s, Action::Reroll(m1));
    // The re-rolled 6 is a hit the British must take.
    let r1 = unit(&g, &s, "r1");
    assert!(
        matches!(
            s.phase,
            Phase::Hits {
                side: BRITISH,
                n: 1,
                ..
            }
        ),
        "{:?}",
        s.phase
    );
    apply(&g, &mut s, Action::Hit(r1));
    assert!(s.units[r1 as usize].flipped);
    assert!(
        !legal(&g, &s).contains(&Action::KeepRoll),
        "one re-roll only"
    );
}

#[test]
fn rule_14_1_the_side_may_keep_its_roll() {
    let (g, mut s) = reroll_setup(true, &[1, 1, 1, 2, 6]);
    apply(&g, &mut s, Action::KeepRoll);
    let r1 = unit(&g, &s, "r1");
    assert!(!s.units[r1 as usize].flipped, "no hits, no re-roll");
    assert!(!matches!(
        s.phase,
        Phase::Reroll { .. } | Phase::Hits { .. }
    ));
}

#[test]
fn rule_14_1_no_reroll_without_the_option_or_without_a_miss() {
    let (_, s) = reroll_setup(false, &[1, 1, 1, 2]);
    assert!(!matches!(s.phase, Phase::Reroll { .. }), "option off");
    let (_, s) = reroll_setup(true, &[1, 1, 5, 6]);
    assert!(
        !matches!(s.phase, Phase::Reroll { .. }),
        "both dice hit: nothing to re-roll"
    );
}

/// Finishes whatever decision is open, always declining what can be declined.
fn play_out(g: &muster_revolution_road::Concord, s: &mut State) {
    let mut n = 0;
    while !matches!(s.phase, Phase::Round { .. } | Phase::Over) {
        let l = legal(g, s);
        let a = if l.contains(&Action::Done) {
            Action::Done
        } else if l.contains(&Action::NoOpFire) {
            Action::NoOpFire
        } else {
            l[0]
        };
        apply(g, s, a);
        n += 1;
        assert!(n < 100);
    }
}

#[test]
fn rule_6_1_units_with_a_fired_marker_cannot_attack() {
    let g = game();
    let mut s = empty_board(&g, 30);
    let lex = region(&g, "lexington");
    let r1 = put(&g, &mut s, "r1", "lexington");
    s.units[r1 as usize].fired = true;
    put_militia(&g, &mut s, "m1", "lexington", 1);
    round(&mut s, BRITISH, 3, 3);
    assert!(!legal(&g, &s).contains(&Action::Attack(lex)));
    let r2 = put(&g, &mut s, "r2", "lexington");
    apply(&g, &mut s, Action::Attack(lex));
    let l = legal(&g, &s);
    assert!(l.contains(&Action::Pick(r2)) && !l.contains(&Action::Pick(r1)));
}

#[test]
fn rule_6_1_no_fired_markers_when_every_defender_retreats_and_7_1_1_unmoved_retreaters_get_moved() {
    let g = game();
    let mut s = empty_board(&g, 31);
    let lex = region(&g, "lexington");
    let r1 = put(&g, &mut s, "r1", "lexington");
    let m1 = put_militia(&g, &mut s, "m1", "lexington", 1);
    round(&mut s, BRITISH, 3, 3);
    apply(&g, &mut s, Action::Attack(lex));
    apply(&g, &mut s, Action::Pick(r1));
    apply(&g, &mut s, Action::Done);
    apply(&g, &mut s, Action::Pick(m1));
    apply(&g, &mut s, Action::Done);
    apply(&g, &mut s, Action::To(region(&g, "lincoln")));
    assert!(
        !s.units[m1 as usize].flipped,
        "an unmoved unit retreats without a hit"
    );
    assert!(s.units[m1 as usize].moved, "and then gets a Moved marker");
    apply(&g, &mut s, Action::NoOpFire);
    assert!(matches!(s.phase, Phase::Round { .. }));
    assert!(!s.units[r1 as usize].fired && !s.units[m1 as usize].fired);
    assert!(!s.shot, "no dice rolled, no Shot");
}

#[test]
fn rule_6_2_assault_needs_unmoved_units_and_marks_attackers_moved_and_fired() {
    let g = game();
    let mut s = empty_board(&g, 32);
    let (men, lex) = (region(&g, "menotomy"), region(&g, "lexington"));
    let r1 = put(&g, &mut s, "r1", "menotomy");
    let r2 = put(&g, &mut s, "r2", "menotomy");
    s.units[r2 as usize].moved = true;
    let r3 = put(&g, &mut s, "r3", "menotomy");
    s.units[r3 as usize].fired = true;
    let m1 = put_militia(&g, &mut s, "m1", "lexington", 2);
    round(&mut s, BRITISH, 3, 3);
    apply(&g, &mut s, Action::Assault(men, lex));
    let l = legal(&g, &s);
    assert!(l.contains(&Action::Pick(r1)));
    assert!(!l.contains(&Action::Pick(r2)) && !l.contains(&Action::Pick(r3)));
    apply(&g, &mut s, Action::Pick(r1));
    apply(&g, &mut s, Action::Done);
    apply(&g, &mut s, Action::Done);
    apply(&g, &mut s, Action::Pick(m1));
    apply(&g, &mut s, Action::Done);
    // The militia's two dice miss, so r1 is still unbroken when it fires (a unit broken
    // before it rolls adds no strength and gets no Fired marker, 7.0).
    s.dice = dice_rolling(&[1, 2]);
    apply(&g, &mut s, Action::DefensiveFire);
    play_out(&g, &mut s);
    let x = s.units[r1 as usize];
    assert_eq!(x.at, Loc::At(lex));
    assert!(
        x.moved && x.fired,
        "the assaulting unit: Moved and Fired: {x:?}"
    );
    let m = s.units[m1 as usize];
    if matches!(m.at, Loc::At(_)) {
        assert!(m.fired, "the defender that fired");
    }
    assert_eq!(s.units[r2 as usize].at, Loc::At(men));
}

#[test]
fn rule_7_0_a_defender_fielding_nobody_rolls_no_dice() {
    let g = game();
    let mut s = empty_board(&g, 33);
    let lex = region(&g, "lexington");
    put(&g, &mut s, "r1", "lexington");
    let m1 = put_militia(&g, &mut s, "m1", "lexington", 2);
    round(&mut s, BRITISH, 3, 3);
    apply(&g, &mut s, Action::Attack(lex));
    pick(&g, &mut s, "r1");
    apply(&g, &mut s, Action::Done);
    apply(&g, &mut s, Action::Done);
    assert!(matches!(s.phase, Phase::Defenders));
    apply(&g, &mut s, Action::Done);
    let side = to_act(&s).unwrap();
    let ev = muster_core::Game::apply(&g, &mut s, side, Action::DefensiveFire).unwrap();
    assert!(!ev.iter().any(|e| matches!(
        e,
        muster_revolution_road::Event::Roll { side: PATRIOT, dice, .. } if *dice > 0
    )));
    play_out(&g, &mut s);
    assert!(
        !s.units[m1 as usize].fired,
        "a non-participant gets no Fired marker"
    );
}

#[test]
fn rule_7_0_only_units_adding_strength_are_marked_fired_and_a_leader_may_take_a_hit() {
    let g = game();
    let mut s = empty_board(&g, 34);
    let lex = region(&g, "lexington");
    let r1 = put(&g, &mut s, "r1", "lexington");
    let smith = put(&g, &mut s, "smith", "lexington");
    put_militia(&g, &mut s, "m1", "lexington", 2);
    put_militia(&g, &mut s, "m2", "lexington", 2);
    round(&mut s, BRITISH, 3, 3);
    apply(&g, &mut s, Action::Attack(lex));
    apply(&g, &mut s, Action::Pick(r1));
    apply(&g, &mut s, Action::Pick(smith));
    apply(&g, &mut s, Action::Done);
    apply(&g, &mut s, Action::Done);
    pick(&g, &mut s, "m1");
    pick(&g, &mut s, "m2");
    apply(&g, &mut s, Action::Done);
    // Simultaneous combat: the British apply their hit first, and may give it to Smith.
    apply(&g, &mut s, Action::Simultaneous);
    let l = legal(&g, &s);
    assert!(l.contains(&Action::Hit(smith)) && l.contains(&Action::Hit(r1)));
    apply(&g, &mut s, Action::Hit(smith));
    assert!(s.units[smith as usize].flipped, "Smith is wounded");
    play_out(&g, &mut s);
    if matches!(s.units[smith as usize].at, Loc::At(_)) {
        assert!(!s.units[smith as usize].fired, "a leader adds no dice");
    }
    if matches!(s.units[r1 as usize].at, Loc::At(_)) {
        assert!(s.units[r1 as usize].fired);
    }
}

#[test]
fn rule_4_1_the_cannon_attacks_only_with_a_regular() {
    let g = game();
    let mut s = empty_board(&g, 35);
    s.turn = 9;
    let lex = region(&g, "lexington");
    let cannon = put(&g, &mut s, "cannon", "lexington");
    let p1 = put(&g, &mut s, "p1", "lexington");
    put_militia(&g, &mut s, "m1", "lexington", 1);
    round(&mut s, BRITISH, 3, 3);
    apply(&g, &mut s, Action::Attack(lex));
    apply(&g, &mut s, Action::Pick(cannon));
    assert!(!legal(&g, &s).contains(&Action::Done), "the cannon alone");
    apply(&g, &mut s, Action::Pick(p1));
    assert!(legal(&g, &s).contains(&Action::Done));
}

#[test]
fn rule_7_1_3_patriot_opfire_rolls_a_die_for_each_retreating_unit_and_healthy_leader() {
    let g = game();
    let mut s = empty_board(&g, 36);
    s.shot = true;
    let lex = region(&g, "lexington");
    put_militia(&g, &mut s, "m1", "lexington", 2);
    let mut british = Vec::new();
    for id in ["r1", "r2", "r3", "smith", "pitcairn"] {
        british.push(put(&g, &mut s, id, "lexington"));
    }
    s.units[british[2] as usize].flipped = true; // r3 broken: counted
    s.units[british[4] as usize].flipped = true; // Pitcairn wounded: not counted
    round(&mut s, PATRIOT, 3, 3);
    apply(&g, &mut s, Action::Attack(lex));
    pick(&g, &mut s, "m1");
    apply(&g, &mut s, Action::Done);
    for u in &british {
        apply(&g, &mut s, Action::Pick(*u));
    }
    apply(&g, &mut s, Action::Done);
    apply(&g, &mut s, Action::To(region(&g, "menotomy")));
    assert!(matches!(s.phase, Phase::OpFire));
    let side = to_act(&s).unwrap();
    assert_eq!(side, PATRIOT);
    let ev = muster_core::Game::apply(&g, &mut s, side, Action::OpFire).unwrap();
    let dice = ev.iter().find_map(|e| match e {
        muster_revolution_road::Event::Roll {
            side: PATRIOT,
            dice,
            ..
        } => Some(*dice),
        _ => None,
    });
    assert_eq!(dice, Some(4), "two Regulars, the broken one and Smith");
    assert!(s.units[unit(&g, &s, "m1") as usize].fired);
}

#[test]
fn rule_3_0_british_in_boston_are_never_a_patriot_target() {
    let g = game();
    let mut s = empty_board(&g, 37);
    s.shot = true;
    let boston = region(&g, "boston");
    for id in ["r1", "r2", "r3", "r4"] {
        let u = put(&g, &mut s, id, "boston");
        s.units[u as usize].moved = true;
        s.units[u as usize].marched = true;
    }
    put_militia(&g, &mut s, "m1", "roxbury", 2);
    round(&mut s, PATRIOT, 3, 3);
    let l = legal(&g, &s);
    assert!(!l.iter().any(|a| matches!(a,
        Action::Ambush(r) | Action::Snipe(r) | Action::Attack(r) | Action::Assault(_, r)
            if *r == boston)));
    // The same force outside Boston is a target.
    for id in ["r1", "r2", "r3", "r4"] {
        let u = unit(&g, &s, id);
        s.units[u as usize].at = Loc::At(region(&g, "roxbury"));
    }
    let l = legal(&g, &s);
    let rox = region(&g, "roxbury");
    assert!(l.contains(&Action::Ambush(rox)) && l.contains(&Action::Snipe(rox)));
}

#[test]
fn rule_6_3_charge_needs_a_leader_and_an_unmoved_unbroken_regular() {
    let g = game();
    let mut s = empty_board(&g, 38);
    let lex = region(&g, "lexington");
    let r1 = put(&g, &mut s, "r1", "lexington");
    s.units[r1 as usize].moved = true;
    put_militia(&g, &mut s, "m1", "lexington", 1);
    put(&g, &mut s, "smith", "lexington");
    round(&mut s, BRITISH, 3, 3);
    assert!(
        !legal(&g, &s).contains(&Action::Charge(lex)),
        "r1 has moved"
    );
    let r2 = put(&g, &mut s, "r2", "lexington");
    assert!(legal(&g, &s).contains(&Action::Charge(lex)));
    s.units[r2 as usize].flipped = true;
    assert!(
        !legal(&g, &s).contains(&Action::Charge(lex)),
        "r2 is broken"
    );
    s.units[r2 as usize].flipped = false;
    let smith = unit(&g, &s, "smith");
    s.units[smith as usize].at = Loc::At(region(&g, "lincoln"));
    assert!(!legal(&g, &s).contains(&Action::Charge(lex)), "no leader");
}

#[test]
fn rule_6_3_the_cannon_in_a_charge_makes_three_patriot_hits_and_no_advance() {
    let g = game();
    let mut s = empty_board(&g, 39);
    s.turn = 9;
    let lex = region(&g, "lexington");
    for id in ["percy", "p1", "p2", "cannon"] {
        put(&g, &mut s, id, "lexington");
    }
    let mut m = Vec::new();
    for i in 1..=4 {
        m.push(put_militia(&g, &mut s, &format!("m{i}"), "lexington", 1));
    }
    round(&mut s, BRITISH, 3, 3);
    apply(&g, &mut s, Action::Charge(lex));
    pick_hit(&g, &mut s, "p2");
    assert!(
        matches!(
            s.phase,
            Phase::Hits {
                side: PATRIOT,
                n: 3,
                ..
            }
        ),
        "{:?}",
        s.phase
    );
    for u in &m[..3] {
        apply(&g, &mut s, Action::Hit(*u));
    }
    let mut n = 0;
    while !matches!(s.phase, Phase::Round { .. }) {
        assert!(
            !matches!(s.phase, Phase::Advance { .. }),
            "no advance after a Charge"
        );
        let l = legal(&g, &s);
        let a = if l.contains(&Action::Done) {
            Action::Done
        } else {
            l[0]
        };
        apply(&g, &mut s, a);
        n += 1;
        assert!(n < 20);
    }
    assert_eq!(
        s.units[m[3] as usize].at,
        Loc::At(lex),
        "the unbroken militia stays"
    );
    for u in &m[..3] {
        assert_ne!(
            s.units[*u as usize].at,
            Loc::At(lex),
            "broken units must go"
        );
    }
}

#[test]
fn rule_15_2_patriots_in_concord_may_also_retreat_toward_lexington() {
    let g = game();
    let mut s = g
        .new_game("solitaire-patriot", &muster_core::Options::new(), 70)
        .unwrap();
    let con = region(&g, "concord");
    round(&mut s, BRITISH, 3, 3);
    apply(&g, &mut s, Action::Attack(con));
    let first = legal(&g, &s)
        .into_iter()
        .find(|a| matches!(a, Action::Pick(_)))
        .unwrap();
    apply(&g, &mut s, first);
    apply(&g, &mut s, Action::Done);
    let militia = legal(&g, &s)
        .into_iter()
        .find(|a| matches!(a, Action::Pick(u) if s.units[*u as usize].kind.militia()))
        .expect("a militia in Concord to retreat");
    apply(&g, &mut s, militia);
    apply(&g, &mut s, Action::Done);
    assert!(matches!(s.phase, Phase::RetreatTo { side: PATRIOT, .. }));
    let l = legal(&g, &s);
    // 15.2 adds the way toward Lexington (Lincoln) to what 7.1 allows from Concord, where
    // nothing lies nearer Concord; it does not close the other ways (ruling C34).
    assert!(l.contains(&Action::To(region(&g, "lincoln"))), "{l:?}");
    assert!(
        l.contains(&Action::To(region(&g, "barretts-farm"))),
        "{l:?}"
    );
    check_agreement(&g, &s, &l);
}

#[test]
fn rule_10_0_patriot_opfire_as_the_first_combat_gives_the_british_5_vp() {
    let g = game();
    let mut s = empty_board(&g, 80);
    let lex = region(&g, "lexington");
    put_militia(&g, &mut s, "m1", "lexington", 2);
    let r1 = put(&g, &mut s, "r1", "lexington");
    round(&mut s, PATRIOT, 3, 3);
    apply(&g, &mut s, Action::Attack(lex));
    pick(&g, &mut s, "m1");
    apply(&g, &mut s, Action::Done);
    apply(&g, &mut s, Action::Pick(r1));
    apply(&g, &mut s, Action::Done);
    apply(&g, &mut s, Action::To(region(&g, "menotomy")));
    assert!(!s.shot, "a retreat before combat fires no Shot by itself");
    apply(&g, &mut s, Action::OpFire);
    assert!(s.shot);
    assert_eq!(s.vp.0[BRITISH as usize][Cause::FirstShot as usize], 10);
}

#[test]
fn rule_7_1_4_an_assaulting_force_retreats_only_to_where_it_came_from() {
    let g = game();
    let mut s = empty_board(&g, 81);
    let (men, lex) = (region(&g, "menotomy"), region(&g, "lexington"));
    let r1 = put(&g, &mut s, "r1", "menotomy");
    put(&g, &mut s, "r2", "menotomy");
    put_militia(&g, &mut s, "m1", "lexington", 2);
    round(&mut s, BRITISH, 3, 3);
    apply(&g, &mut s, Action::Assault(men, lex));
    pick(&g, &mut s, "r1");
    pick(&g, &mut s, "r2");
    apply(&g, &mut s, Action::Done);
    apply(&g, &mut s, Action::Done);
    pick(&g, &mut s, "m1");
    apply(&g, &mut s, Action::Done);
    s.dice = dice_rolling(&[6, 6]);
    apply(&g, &mut s, Action::DefensiveFire);
    // Both Regulars broken: they have no dice left to fire back.
    apply(&g, &mut s, Action::Hit(r1));
    let r2 = unit(&g, &s, "r2");
    apply(&g, &mut s, Action::Hit(r2));
    assert!(
        matches!(s.phase, Phase::AfterPick { side: BRITISH }),
        "the attacker, who lost, decides first: {:?}",
        s.phase
    );
    apply(&g, &mut s, Action::Pick(r1));
    apply(&g, &mut s, Action::Done);
    assert_eq!(legal(&g, &s), vec![Action::To(men)]);
}

#[test]
fn rule_7_1_4_only_a_side_that_lost_may_retreat_after_combat() {
    let g = game();
    let mut s = empty_board(&g, 82);
    let lex = region(&g, "lexington");
    put(&g, &mut s, "r1", "lexington");
    let m1 = put_militia(&g, &mut s, "m1", "lexington", 1);
    put_militia(&g, &mut s, "m2", "lexington", 1);
    round(&mut s, BRITISH, 3, 3);
    apply(&g, &mut s, Action::Attack(lex));
    pick(&g, &mut s, "r1");
    apply(&g, &mut s, Action::Done);
    apply(&g, &mut s, Action::Done);
    apply(&g, &mut s, Action::Pick(m1));
    apply(&g, &mut s, Action::Done);
    // The militia's die misses; the Regular's two dice hit once.
    s.dice = dice_rolling(&[1, 6, 1]);
    apply(&g, &mut s, Action::DefensiveFire);
    if let Phase::Hits { side: PATRIOT, .. } = s.phase {
        apply(&g, &mut s, Action::Hit(m1));
    }
    assert!(s.units[m1 as usize].flipped);
    assert!(
        matches!(s.phase, Phase::AfterPick { side: PATRIOT }),
        "the British lost nothing and are not asked: {:?}",
        s.phase
    );
}

#[test]
fn rule_7_0_defenders_may_fire_even_with_a_fired_marker() {
    let g = game();
    let mut s = empty_board(&g, 83);
    let lex = region(&g, "lexington");
    put(&g, &mut s, "r1", "lexington");
    let m1 = put_militia(&g, &mut s, "m1", "lexington", 1);
    s.units[m1 as usize].fired = true;
    s.units[m1 as usize].moved = true;
    round(&mut s, BRITISH, 3, 3);
    apply(&g, &mut s, Action::Attack(lex));
    pick(&g, &mut s, "r1");
    apply(&g, &mut s, Action::Done);
    apply(&g, &mut s, Action::Done);
    assert!(matches!(s.phase, Phase::Defenders));
    assert!(legal(&g, &s).contains(&Action::Pick(m1)));
}

#[test]
fn rule_7_1_retreating_british_go_toward_boston_if_they_can() {
    let g = game();
    let mut s = empty_board(&g, 88);
    s.shot = true;
    let lex = region(&g, "lexington");
    put_militia(&g, &mut s, "m1", "lexington", 2);
    let r1 = put(&g, &mut s, "r1", "lexington");
    round(&mut s, PATRIOT, 3, 3);
    apply(&g, &mut s, Action::Attack(lex));
    pick(&g, &mut s, "m1");
    apply(&g, &mut s, Action::Done);
    apply(&g, &mut s, Action::Pick(r1));
    apply(&g, &mut s, Action::Done);
    let l = legal(&g, &s);
    assert!(l.contains(&Action::To(region(&g, "menotomy"))));
    assert!(!l.contains(&Action::To(region(&g, "lincoln"))), "{l:?}");
    assert!(!l.contains(&Action::To(region(&g, "waltham"))));
}

#[test]
fn rule_4_1_a_hit_on_the_cannon_destroys_it() {
    let g = game();
    let mut s = empty_board(&g, 89);
    let cannon = put(&g, &mut s, "cannon", "lexington");
    put(&g, &mut s, "p1", "lexington");
    let mut ev = Vec::new();
    g.hit(&mut s, cannon, &mut ev);
    assert_eq!(s.units[cannon as usize].at, Loc::Removed);
}

#[test]
fn rule_6_2_an_assault_met_by_a_full_retreat_leaves_no_fired_markers() {
    let g = game();
    let mut s = empty_board(&g, 90);
    let (men, lex) = (region(&g, "menotomy"), region(&g, "lexington"));
    let r1 = put(&g, &mut s, "r1", "menotomy");
    let m1 = put_militia(&g, &mut s, "m1", "lexington", 2);
    round(&mut s, BRITISH, 3, 3);
    apply(&g, &mut s, Action::Assault(men, lex));
    apply(&g, &mut s, Action::Pick(r1));
    apply(&g, &mut s, Action::Done);
    apply(&g, &mut s, Action::Pick(m1));
    apply(&g, &mut s, Action::Done);
    apply(&g, &mut s, Action::To(region(&g, "lincoln")));
    if matches!(s.phase, Phase::OpFire) {
        apply(&g, &mut s, Action::NoOpFire);
    }
    play_out(&g, &mut s);
    let x = s.units[r1 as usize];
    assert_eq!(x.at, Loc::At(lex), "the assaulting unit moved in");
    assert!(x.moved, "and has its Moved marker");
    assert!(
        !x.fired && !s.units[m1 as usize].fired,
        "no Fired markers on either side"
    );
}

#[test]
fn rule_4_1_the_attacking_cannon_breaks_one_unbroken_militia_before_combat() {
    let g = game();
    let mut s = empty_board(&g, 94);
    s.turn = 9;
    let lex = region(&g, "lexington");
    put(&g, &mut s, "p1", "lexington");
    put(&g, &mut s, "cannon", "lexington");
    let m1 = put_militia(&g, &mut s, "m1", "lexington", 2);
    let m2 = put_militia(&g, &mut s, "m2", "lexington", 1);
    s.units[m2 as usize].flipped = true;
    let mm = put(&g, &mut s, "mm1", "lexington");
    round(&mut s, BRITISH, 3, 3);
    apply(&g, &mut s, Action::Attack(lex));
    pick(&g, &mut s, "p1");
    pick(&g, &mut s, "cannon");
    apply(&g, &mut s, Action::Done);
    apply(&g, &mut s, Action::Done);
    apply(&g, &mut s, Action::Done);
    assert!(matches!(s.phase, Phase::CannonBreak { in_move: false, .. }));
    assert_eq!(to_act(&s), Some(PATRIOT));
    // Only the unbroken militia: not the broken one, not the Minuteman (in combat the cannon
    // breaks militia).
    assert_eq!(legal(&g, &s), vec![Action::Pick(m1)]);
    apply(&g, &mut s, Action::Pick(m1));
    assert!(s.units[m1 as usize].flipped && !s.units[mm as usize].flipped);
    assert!(matches!(s.phase, Phase::FireMode));
}

#[test]
fn rule_3_0_british_retreating_into_boston_before_combat_are_safe_from_opfire() {
    let g = game();
    let mut s = empty_board(&g, 41);
    s.shot = true;
    let rox = region(&g, "roxbury");
    let boston = region(&g, "boston");
    put_militia(&g, &mut s, "m1", "roxbury", 2);
    let mut british = Vec::new();
    for id in ["r1", "r2", "smith"] {
        british.push(put(&g, &mut s, id, "roxbury"));
    }
    round(&mut s, PATRIOT, 3, 3);
    apply(&g, &mut s, Action::Attack(rox));
    pick(&g, &mut s, "m1");
    apply(&g, &mut s, Action::Done);
    for u in &british {
        apply(&g, &mut s, Action::Pick(*u));
    }
    apply(&g, &mut s, Action::Done);
    if legal(&g, &s).contains(&Action::To(boston)) {
        apply(&g, &mut s, Action::To(boston));
    }
    for u in &british {
        assert_eq!(s.units[*u as usize].at, Loc::At(boston));
    }
    assert!(
        !matches!(s.phase, Phase::OpFire | Phase::Hits { .. }),
        "no OpFire on units in Boston: {:?}",
        s.phase
    );
    assert!(!legal(&g, &s).contains(&Action::OpFire));
    assert!(
        !s.units[unit(&g, &s, "m1") as usize].fired,
        "no fire, no Fired marker"
    );
}
