//! Movement rules on hand-built positions: 3.0 (Boston, Charlestown), 4.1 (broken units, the
//! cannon), 4.4 (Sons of Liberty), 6.4 (stopping tests, Scout, March, forced march, drop-offs,
//! the FAQ's five-Regular example), 6.5 Assemble, 6.11 Hinder Movement, 9.0 the landing,
//! 11.0 the Smith/Pitcairn penalty.

mod common;
use common::*;
use muster_revolution_road::Action;
use muster_revolution_road::concord::state::*;

#[test]
fn rule_6_4_faq_five_regulars_move_as_they_each_choose() {
    // FAQ: five Regulars in one region: two march three regions (one breaks), one marches two
    // the other way, one scouts off the road, one stays and may move later.
    let g = game();
    let mut s = empty_board(&g, 1);
    s.turn = 2;
    for r in ["r1", "r2", "r3", "r4", "r5"] {
        put(&g, &mut s, r, "cambridge");
    }
    round(&mut s, BRITISH, 3, 0);
    let (cam, men, lex, lin, wat, wal, fresh) = (
        region(&g, "cambridge"),
        region(&g, "menotomy"),
        region(&g, "lexington"),
        region(&g, "lincoln"),
        region(&g, "watertown"),
        region(&g, "waltham"),
        region(&g, "fresh-pond"),
    );
    apply(&g, &mut s, Action::Move(cam));
    let (r1, r2, r3, r4, r5) = (
        unit(&g, &s, "r1"),
        unit(&g, &s, "r2"),
        unit(&g, &s, "r3"),
        unit(&g, &s, "r4"),
        unit(&g, &s, "r5"),
    );
    apply(&g, &mut s, Action::Pick(r1));
    apply(&g, &mut s, Action::Pick(r2));
    apply(&g, &mut s, Action::To(men));
    assert!(
        !legal(&g, &s).contains(&Action::To(fresh)),
        "a march stays on the road"
    );
    apply(&g, &mut s, Action::To(lex));
    apply(&g, &mut s, Action::To(lin));
    assert!(
        matches!(s.phase, Phase::ForcedBreak { .. }),
        "the third region breaks a unit"
    );
    apply(&g, &mut s, Action::Pick(r2));
    assert!(s.units[r2 as usize].flipped && !s.units[r1 as usize].flipped);
    apply(&g, &mut s, Action::Pick(r3));
    apply(&g, &mut s, Action::To(wat));
    apply(&g, &mut s, Action::To(wal));
    apply(&g, &mut s, Action::Stop);
    apply(&g, &mut s, Action::Pick(r4));
    apply(&g, &mut s, Action::To(fresh));
    // A scout ends at once; r5 has not moved and may move with a later action.
    apply(&g, &mut s, Action::Done);
    assert_eq!(s.units[r1 as usize].at, Loc::At(lin));
    assert_eq!(s.units[r3 as usize].at, Loc::At(wal));
    assert_eq!(s.units[r4 as usize].at, Loc::At(fresh));
    assert_eq!(s.units[r5 as usize].at, Loc::At(cam));
    assert!(!s.units[r5 as usize].moved && s.units[r4 as usize].moved);
    assert!(
        s.units[r1 as usize].marched
            && s.units[r3 as usize].marched
            && !s.units[r4 as usize].marched
    );
    assert!(legal(&g, &s).contains(&Action::Move(cam)));
}

#[test]
fn rule_6_4_british_stop_where_patriots_are_at_least_half() {
    let g = game();
    for (militia, stops) in [(3u8, true), (2, false)] {
        let mut s = empty_board(&g, 2);
        s.turn = 2;
        for r in ["r1", "r2", "r3", "r4", "r5"] {
            put(&g, &mut s, r, "cambridge");
        }
        for i in 0..militia {
            put_militia(&g, &mut s, &format!("m{}", i + 1), "menotomy", 1);
        }
        round(&mut s, BRITISH, 3, 0);
        apply(&g, &mut s, Action::Move(region(&g, "cambridge")));
        for r in ["r1", "r2", "r3", "r4", "r5"] {
            pick(&g, &mut s, r);
        }
        apply(&g, &mut s, Action::To(region(&g, "menotomy")));
        let can_go_on = legal(&g, &s).contains(&Action::To(region(&g, "lexington")));
        assert_eq!(can_go_on, !stops, "{militia} militia against five Regulars");
    }
}

#[test]
fn rule_6_4_patriots_stop_where_regulars_are_at_least_half() {
    let g = game();
    let mut s = empty_board(&g, 3);
    for (i, _) in (0..4).enumerate() {
        put_militia(&g, &mut s, &format!("m{}", i + 1), "lincoln", 1);
    }
    put(&g, &mut s, "r1", "lexington");
    let r2 = put(&g, &mut s, "r2", "lexington");
    s.units[r2 as usize].flipped = true;
    round(&mut s, PATRIOT, 3, 0);
    apply(&g, &mut s, Action::Move(region(&g, "lincoln")));
    for i in 1..=4 {
        pick(&g, &mut s, &format!("m{i}"));
    }
    apply(&g, &mut s, Action::To(region(&g, "lexington")));
    // Two Regulars, broken or not, against four militia: 2 >= 4/2, so the militia stop.
    assert!(!legal(&g, &s).contains(&Action::To(region(&g, "menotomy"))));
}

#[test]
fn rule_3_0_patriots_never_enter_boston_or_a_held_charlestown() {
    let g = game();
    let mut s = empty_board(&g, 4);
    put_militia(&g, &mut s, "m1", "roxbury", 1);
    put_militia(&g, &mut s, "m2", "prospect-hill", 1);
    put(&g, &mut s, "r1", "charlestown");
    round(&mut s, PATRIOT, 3, 0);
    let l = legal(&g, &s);
    assert!(!l.contains(&Action::Assemble(
        region(&g, "roxbury"),
        region(&g, "boston")
    )));
    assert!(!l.contains(&Action::Assemble(
        region(&g, "prospect-hill"),
        region(&g, "charlestown")
    )));
    assert!(l.contains(&Action::Assemble(
        region(&g, "prospect-hill"),
        region(&g, "cambridge")
    )));
}

#[test]
fn rule_9_0_british_land_from_boston_on_the_first_turn_only() {
    let g = game();
    for (turn, can) in [(1u8, true), (2, false)] {
        let mut s = empty_board(&g, 5);
        s.turn = turn;
        put(&g, &mut s, "r1", "boston");
        round(&mut s, BRITISH, 3, 0);
        apply(&g, &mut s, Action::Move(region(&g, "boston")));
        pick(&g, &mut s, "r1");
        let lech = region(&g, "lechmere-point");
        assert_eq!(
            legal(&g, &s).contains(&Action::To(lech)),
            can,
            "turn {turn}"
        );
        if can {
            apply(&g, &mut s, Action::To(lech));
            // Landed units stop and are marked moved.
            assert!(s.units[unit(&g, &s, "r1") as usize].moved);
        }
    }
}

#[test]
fn rule_4_1_the_cannon_breaks_a_unit_of_the_patriots_choice_on_entering() {
    let g = game();
    let mut s = empty_board(&g, 6);
    s.turn = 9;
    put(&g, &mut s, "cannon", "roxbury");
    put(&g, &mut s, "p1", "roxbury");
    for r in ["p2", "p3", "p4", "p5", "p6", "p7"] {
        put(&g, &mut s, r, "roxbury");
    }
    let m1 = put_militia(&g, &mut s, "m1", "brookline", 2);
    let mm = put(&g, &mut s, "mm1", "brookline");
    round(&mut s, BRITISH, 3, 0);
    apply(&g, &mut s, Action::Move(region(&g, "roxbury")));
    for id in ["cannon", "p1", "p2", "p3", "p4", "p5", "p6", "p7"] {
        pick(&g, &mut s, id);
    }
    apply(&g, &mut s, Action::To(region(&g, "brookline")));
    assert!(matches!(s.phase, Phase::CannonBreak { in_move: true, .. }));
    assert_eq!(
        muster_revolution_road::concord::sequence::to_act(&s),
        Some(PATRIOT)
    );
    let l = legal(&g, &s);
    assert!(l.contains(&Action::Pick(m1)) && l.contains(&Action::Pick(mm)));
    apply(&g, &mut s, Action::Pick(mm));
    assert!(s.units[mm as usize].flipped);
    // One unbroken Patriot against seven Regulars: the march may go on (4.1, 6.4).
    assert!(legal(&g, &s).contains(&Action::To(region(&g, "cambridge"))));
}

#[test]
fn rule_4_1_the_cannon_never_moves_without_a_regular() {
    let g = game();
    let mut s = empty_board(&g, 7);
    put(&g, &mut s, "cannon", "roxbury");
    put(&g, &mut s, "percy", "roxbury");
    round(&mut s, BRITISH, 3, 0);
    apply(&g, &mut s, Action::Move(region(&g, "roxbury")));
    pick(&g, &mut s, "cannon");
    pick(&g, &mut s, "percy");
    assert!(!legal(&g, &s).iter().any(|a| matches!(a, Action::To(_))));
}

#[test]
fn rule_4_1_broken_patriots_without_a_leader_only_go_toward_concord() {
    let g = game();
    let mut s = empty_board(&g, 8);
    let m = put_militia(&g, &mut s, "m1", "lexington", 1);
    s.units[m as usize].flipped = true;
    round(&mut s, PATRIOT, 3, 0);
    apply(&g, &mut s, Action::Move(region(&g, "lexington")));
    apply(&g, &mut s, Action::Pick(m));
    let l = legal(&g, &s);
    assert!(l.contains(&Action::To(region(&g, "lincoln"))));
    assert!(!l.contains(&Action::To(region(&g, "menotomy"))));
    // With a leader it may go anywhere (but never into Regulars).
    let mut s2 = s.clone();
    let p = put(&g, &mut s2, "parker", "lexington");
    s2.phase = Phase::Move {
        from: region(&g, "lexington"),
        group: 1u64 << m | 1u64 << p,
        at: region(&g, "lexington"),
        steps: 0,
        road: false,
        cannon_used: false,
        hits: 0,
        fire_hits: 0,
    };
    assert!(legal(&g, &s2).contains(&Action::To(region(&g, "menotomy"))));
    put(&g, &mut s2, "r1", "menotomy");
    assert!(!legal(&g, &s2).contains(&Action::To(region(&g, "menotomy"))));
}

#[test]
fn rule_11_0_broken_regulars_of_smith_move_one_region_after_concord() {
    let g = game();
    let mut s = empty_board(&g, 9);
    let r1 = put(&g, &mut s, "r1", "lincoln");
    put(&g, &mut s, "smith", "lincoln");
    s.units[r1 as usize].flipped = true;
    s.concord = true;
    round(&mut s, BRITISH, 3, 0);
    apply(&g, &mut s, Action::Move(region(&g, "lincoln")));
    apply(&g, &mut s, Action::Pick(r1));
    pick(&g, &mut s, "smith");
    apply(&g, &mut s, Action::To(region(&g, "lexington")));
    assert!(
        !matches!(s.phase, Phase::Move { steps: 1, .. }),
        "the move ends after one region"
    );
    assert_eq!(s.units[r1 as usize].at, Loc::At(region(&g, "lexington")));
}

#[test]
fn rule_6_11_hinder_movement_stops_british_entering() {
    let g = game();
    let mut s = empty_board(&g, 10);
    s.turn = 2;
    put(&g, &mut s, "r1", "cambridge");
    s.hinder[HINDER_MOVEMENT as usize] = HinderAt::Map {
        region: region(&g, "menotomy"),
        turns: 2,
    };
    round(&mut s, BRITISH, 3, 0);
    apply(&g, &mut s, Action::Move(region(&g, "cambridge")));
    pick(&g, &mut s, "r1");
    apply(&g, &mut s, Action::To(region(&g, "menotomy")));
    assert!(!legal(&g, &s).contains(&Action::To(region(&g, "lexington"))));
}

#[test]
fn rule_4_4_sons_move_two_regions_but_a_stream_is_the_whole_move() {
    let g = game();
    let mut s = empty_board(&g, 11);
    let adams = put(&g, &mut s, "adams", "medford");
    round(&mut s, PATRIOT, 3, 0);
    apply(&g, &mut s, Action::MoveSon(adams));
    // Medford - woods above the Mystic is a stream without a road.
    let mut t = s.clone();
    apply(&g, &mut t, Action::To(region(&g, "mystic-woods")));
    assert!(t.units[adams as usize].moved && matches!(t.phase, Phase::Round { .. }));
    apply(&g, &mut s, Action::To(region(&g, "menotomy")));
    apply(&g, &mut s, Action::To(region(&g, "lexington")));
    assert_eq!(s.units[adams as usize].at, Loc::At(region(&g, "lexington")));
    // 14.3: hobbled, only one region.
    let mut h = empty_board(&g, 11);
    h.options.hobbled_sons = true;
    let adams = put(&g, &mut h, "adams", "medford");
    round(&mut h, PATRIOT, 3, 0);
    apply(&g, &mut h, Action::MoveSon(adams));
    apply(&g, &mut h, Action::To(region(&g, "menotomy")));
    assert!(matches!(h.phase, Phase::Round { .. }));
}

#[test]
fn rule_14_2_moving_through_an_enemy_region_draws_fire() {
    let g = game();
    let mut s = empty_board(&g, 12);
    s.turn = 2;
    s.options.movement_fire = true;
    put(&g, &mut s, "r1", "cambridge");
    put(&g, &mut s, "r2", "cambridge");
    put(&g, &mut s, "r3", "cambridge");
    put(&g, &mut s, "r4", "cambridge");
    put(&g, &mut s, "r5", "cambridge");
    put_militia(&g, &mut s, "m1", "menotomy", 1);
    s.dice = dice_rolling(&[6]);
    round(&mut s, BRITISH, 3, 0);
    apply(&g, &mut s, Action::Move(region(&g, "cambridge")));
    for r in ["r1", "r2", "r3", "r4", "r5"] {
        pick(&g, &mut s, r);
    }
    apply(&g, &mut s, Action::To(region(&g, "menotomy")));
    apply(&g, &mut s, Action::To(region(&g, "lexington")));
    // Leaving Menotomy past the militia: a 6 is one hit the British apply.
    assert!(matches!(s.phase, Phase::Move { hits: 1, .. }));
    let r3 = unit(&g, &s, "r3");
    apply(&g, &mut s, Action::Hit(r3));
    assert!(s.units[r3 as usize].flipped);
}

#[test]
fn rule_4_1_broken_regulars_without_a_leader_go_only_toward_boston_and_never_into_minutemen() {
    let g = game();
    let mut s = empty_board(&g, 13);
    s.turn = 2;
    let r1 = put(&g, &mut s, "r1", "lexington");
    s.units[r1 as usize].flipped = true;
    round(&mut s, BRITISH, 3, 0);
    let (men, lin) = (region(&g, "menotomy"), region(&g, "lincoln"));
    let mut t = s.clone();
    apply(&g, &mut t, Action::Move(region(&g, "lexington")));
    apply(&g, &mut t, Action::Pick(r1));
    let l = legal(&g, &t);
    assert!(l.contains(&Action::To(men)), "toward Boston");
    assert!(!l.contains(&Action::To(lin)), "away from Boston");
    // A Minuteman in Menotomy closes it to the broken Regular alone...
    let mm = put(&g, &mut s, "mm1", "menotomy");
    let mut t = s.clone();
    apply(&g, &mut t, Action::Move(region(&g, "lexington")));
    apply(&g, &mut t, Action::Pick(r1));
    assert!(!legal(&g, &t).contains(&Action::To(men)));
    // (4.1 says Minutemen units, broken or not; one still under its marker is not on the
    // board, C2) ...but a leader going with it lifts the limit.
    let mut b = t.clone();
    b.units[mm as usize].flipped = true;
    assert!(!legal(&g, &b).contains(&Action::To(men)));
    b.units[mm as usize].under = true;
    assert!(legal(&g, &b).contains(&Action::To(men)));
    put(&g, &mut t, "smith", "lexington");
    pick(&g, &mut t, "smith");
    let l = legal(&g, &t);
    assert!(l.contains(&Action::To(men)) && l.contains(&Action::To(lin)));
}

#[test]
fn rule_4_1_the_cannon_breaks_a_unit_only_in_the_first_region_with_patriots() {
    let g = game();
    let mut s = empty_board(&g, 14);
    s.turn = 9;
    for id in ["cannon", "p1", "p2", "p3", "p4", "p5", "p6", "p7"] {
        put(&g, &mut s, id, "roxbury");
    }
    let m1 = put_militia(&g, &mut s, "m1", "brookline", 2);
    let m2 = put_militia(&g, &mut s, "m2", "cambridge", 1);
    round(&mut s, BRITISH, 3, 0);
    apply(&g, &mut s, Action::Move(region(&g, "roxbury")));
    for id in ["cannon", "p1", "p2", "p3", "p4", "p5", "p6", "p7"] {
        pick(&g, &mut s, id);
    }
    apply(&g, &mut s, Action::To(region(&g, "brookline")));
    apply(&g, &mut s, Action::Pick(m1));
    assert!(s.units[m1 as usize].flipped);
    apply(&g, &mut s, Action::To(region(&g, "cambridge")));
    assert!(
        matches!(s.phase, Phase::Move { steps: 2, .. }),
        "no second break: {:?}",
        s.phase
    );
    assert!(!s.units[m2 as usize].flipped);
}

#[test]
fn rule_4_1_the_cannon_alone_with_unbroken_patriots_is_destroyed() {
    let g = game();
    let mut s = empty_board(&g, 15);
    s.turn = 9;
    let cannon = put(&g, &mut s, "cannon", "lexington");
    let p1 = put(&g, &mut s, "p1", "lexington");
    let m1 = put_militia(&g, &mut s, "m1", "lexington", 1);
    round(&mut s, BRITISH, 3, 3);
    let mut kept = s.clone();
    apply(&g, &mut kept, Action::Intel);
    assert_eq!(
        kept.units[cannon as usize].at,
        Loc::At(region(&g, "lexington"))
    );
    // Without its Regular (here: moved away) the cannon is lost.
    s.units[p1 as usize].at = Loc::At(region(&g, "lincoln"));
    let mut broken = s.clone();
    broken.units[m1 as usize].flipped = true;
    apply(&g, &mut broken, Action::Intel);
    assert_eq!(
        broken.units[cannon as usize].at,
        Loc::At(region(&g, "lexington")),
        "broken Patriots do not take it"
    );
    apply(&g, &mut s, Action::Intel);
    assert_eq!(s.units[cannon as usize].at, Loc::Removed);
}

#[test]
fn rule_6_4_2_units_may_be_dropped_off_along_the_road_but_never_picked_up() {
    let g = game();
    let mut s = empty_board(&g, 16);
    s.turn = 2;
    for id in ["r1", "r2", "r3"] {
        put(&g, &mut s, id, "cambridge");
    }
    let r4 = put(&g, &mut s, "r4", "menotomy");
    round(&mut s, BRITISH, 3, 0);
    apply(&g, &mut s, Action::Move(region(&g, "cambridge")));
    for id in ["r1", "r2", "r3"] {
        pick(&g, &mut s, id);
    }
    let (men, lex) = (region(&g, "menotomy"), region(&g, "lexington"));
    apply(&g, &mut s, Action::To(men));
    let l = legal(&g, &s);
    let r3 = unit(&g, &s, "r3");
    assert!(l.contains(&Action::Drop(r3)));
    assert!(
        !l.iter().any(|a| matches!(a, Action::Pick(_))),
        "no pick-ups on the way, not even r4: {l:?}"
    );
    apply(&g, &mut s, Action::Drop(r3));
    apply(&g, &mut s, Action::To(lex));
    apply(&g, &mut s, Action::Stop);
    let r1 = unit(&g, &s, "r1");
    assert_eq!(s.units[r3 as usize].at, Loc::At(men));
    assert!(s.units[r3 as usize].moved);
    assert_eq!(s.units[r1 as usize].at, Loc::At(lex));
    assert!(!s.units[r4 as usize].moved);
}

#[test]
fn rule_6_4_units_with_a_moved_marker_do_not_move_again() {
    let g = game();
    let mut s = empty_board(&g, 17);
    s.turn = 2;
    let r1 = put(&g, &mut s, "r1", "cambridge");
    s.units[r1 as usize].moved = true;
    round(&mut s, BRITISH, 3, 0);
    let cam = region(&g, "cambridge");
    assert!(!legal(&g, &s).contains(&Action::Move(cam)));
    let r2 = put(&g, &mut s, "r2", "cambridge");
    apply(&g, &mut s, Action::Move(cam));
    let l = legal(&g, &s);
    assert!(l.contains(&Action::Pick(r2)) && !l.contains(&Action::Pick(r1)));
    // The Moved marker comes with the move.
    apply(&g, &mut s, Action::Pick(r2));
    apply(&g, &mut s, Action::To(region(&g, "fresh-pond")));
    assert!(s.units[r2 as usize].moved);
}

#[test]
fn rule_12_0_percy_s_broken_regulars_are_not_slowed_after_concord() {
    let g = game();
    let mut s = empty_board(&g, 18);
    s.turn = 9;
    s.concord = true;
    let p1 = put(&g, &mut s, "p1", "lincoln");
    s.units[p1 as usize].flipped = true;
    put(&g, &mut s, "percy", "lincoln");
    round(&mut s, BRITISH, 3, 0);
    apply(&g, &mut s, Action::Move(region(&g, "lincoln")));
    apply(&g, &mut s, Action::Pick(p1));
    pick(&g, &mut s, "percy");
    apply(&g, &mut s, Action::To(region(&g, "lexington")));
    assert!(legal(&g, &s).contains(&Action::To(region(&g, "menotomy"))));
}

#[test]
fn rule_6_11_british_starting_in_the_hindered_region_move_normally() {
    let g = game();
    let mut s = empty_board(&g, 19);
    s.turn = 2;
    put(&g, &mut s, "r1", "menotomy");
    s.hinder[HINDER_MOVEMENT as usize] = HinderAt::Map {
        region: region(&g, "menotomy"),
        turns: 2,
    };
    round(&mut s, BRITISH, 3, 0);
    apply(&g, &mut s, Action::Move(region(&g, "menotomy")));
    pick(&g, &mut s, "r1");
    apply(&g, &mut s, Action::To(region(&g, "lexington")));
    assert!(legal(&g, &s).contains(&Action::To(region(&g, "lincoln"))));
}

#[test]
fn rule_6_5_assemble_takes_some_unmoved_units_to_one_adjacent_region() {
    let g = game();
    let mut s = empty_board(&g, 20);
    let m1 = put_militia(&g, &mut s, "m1", "lincoln", 1);
    let m2 = put_militia(&g, &mut s, "m2", "lincoln", 1);
    let m3 = put_militia(&g, &mut s, "m3", "lincoln", 1);
    s.units[m3 as usize].moved = true;
    let (lin, lex) = (region(&g, "lincoln"), region(&g, "lexington"));
    round(&mut s, PATRIOT, 3, 3);
    assert!(!legal(&g, &s).contains(&Action::Assemble(lin, region(&g, "menotomy"))));
    apply(&g, &mut s, Action::Assemble(lin, lex));
    let l = legal(&g, &s);
    assert!(l.contains(&Action::Pick(m1)) && !l.contains(&Action::Pick(m3)));
    apply(&g, &mut s, Action::Pick(m1));
    apply(&g, &mut s, Action::Done);
    assert_eq!(s.units[m1 as usize].at, Loc::At(lex));
    assert!(s.units[m1 as usize].moved);
    assert_eq!(s.units[m2 as usize].at, Loc::At(lin));
    assert!(!s.units[m2 as usize].moved, "not all units need go");
}

#[test]
fn rule_3_0_charlestown_held_only_by_broken_regulars_is_open_to_patriots() {
    let g = game();
    let mut s = empty_board(&g, 21);
    put_militia(&g, &mut s, "m1", "prospect-hill", 1);
    let r1 = put(&g, &mut s, "r1", "charlestown");
    s.units[r1 as usize].flipped = true;
    round(&mut s, PATRIOT, 3, 0);
    assert!(legal(&g, &s).contains(&Action::Assemble(
        region(&g, "prospect-hill"),
        region(&g, "charlestown")
    )));
}
