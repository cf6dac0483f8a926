//! §5 Unit Movement (§5.1 costs, §5.2 restrictions, §5.3 reinforcements) and §9.1 force march.

mod common;
use common::*;
use muster_battles::state::{Loc, Phase, SideId};
use muster_core::Game;

fn select(g: &muster_battles::Battles, s: &mut muster_battles::State, id: &str) {
    act(g, s, &format!("select {id}"));
}

#[test]
fn rule_5_1_clear_hexes_cost_one_mp_each() {
    let g = game();
    let mut s = blank(&g);
    put(&mut s, "a2", "A2"); // 3 MP in clear ground, far from roads
    select(&g, &mut s, "a2");
    let d = destinations(&g, &s);
    assert!(
        d.contains(&"D2".to_string()),
        "three clear hexes east: {d:?}"
    );
    assert!(
        !d.contains(&"E2".to_string()),
        "four hexes is beyond 3 MP: {d:?}"
    );
}

#[test]
fn rule_5_1_woods_and_hills_cost_one_more() {
    let g = game();
    let mut s = blank(&g);
    put(&mut s, "a2", "B3"); // next to woods C3
    select(&g, &mut s, "a2");
    let events = act(&g, &mut s, "move C3");
    assert!(
        matches!(events[0], muster_battles::Event::Moved { halves: 4, .. }),
        "woods: 1 + 1 MP: {events:?}"
    );
    // The hill E3 from E4 (no river on that hexside): exactly 1 + 1 MP.
    let mut s = blank(&g);
    put(&mut s, "a2", "E4");
    select(&g, &mut s, "a2");
    let events = act(&g, &mut s, "move E3");
    assert!(
        matches!(events[0], muster_battles::Event::Moved { halves: 4, .. }),
        "hill: 1 + 1 MP: {events:?}"
    );
    // From E5 the hill is 1 + 2 = 3 MP away, all of a 3 MP unit's allowance: E2 beyond it
    // is out of reach.
    let mut s = blank(&g);
    put(&mut s, "a2", "E5");
    select(&g, &mut s, "a2");
    let d = destinations(&g, &s);
    assert!(d.contains(&"E3".to_string()), "{d:?}");
    assert!(!d.contains(&"E2".to_string()), "{d:?}");
}

#[test]
fn rule_5_1_farms_cost_one_mp_like_clear() {
    // §7: farm hexes cost 1 MP to enter (they only help a defender).
    let g = game();
    let mut s = blank(&g);
    put(&mut s, "a2", "E4");
    select(&g, &mut s, "a2");
    let events = act(&g, &mut s, "move F4");
    assert!(
        matches!(events[0], muster_battles::Event::Moved { halves: 2, .. }),
        "{events:?}"
    );
}

#[test]
fn rule_5_1_costs_add_up_example_river_and_woods_cost_three() {
    // The printed example: across an unbridged river into woods, 1 + 1 + 1 = 3 MP. On the
    // second test map E2|F2 is such a river hexside and F2 is woods.
    let g = game();
    let mut s = blank_extras(&g);
    put(&mut s, "a1", "E2");
    select(&g, &mut s, "a1");
    let events = act(&g, &mut s, "move F2");
    assert!(
        matches!(events[0], muster_battles::Event::Moved { halves: 6, .. }),
        "{events:?}"
    );
    // The same on the first map with a hill: D3 to E3 crosses the river D3|E3.
    let mut s = blank(&g);
    put(&mut s, "a2", "D3");
    select(&g, &mut s, "a2");
    let events = act(&g, &mut s, "move E3");
    assert!(
        matches!(events[0], muster_battles::Event::Moved { halves: 6, .. }),
        "{events:?}"
    );
}

#[test]
fn rule_5_1_river_crossing_costs_one_more_and_a_bridge_negates_it() {
    let g = game();
    let mut s = blank(&g);
    put(&mut s, "a2", "D1");
    select(&g, &mut s, "a2");
    let ev = act(&g, &mut s, "move E1"); // across the river: 1 + 1
    assert!(
        matches!(ev[0], muster_battles::Event::Moved { halves: 4, .. }),
        "{ev:?}"
    );
    let mut s = blank(&g);
    put(&mut s, "a2", "D2");
    select(&g, &mut s, "a2");
    let ev = act(&g, &mut s, "move E2"); // the bridge D2|E2
    assert!(
        matches!(ev[0], muster_battles::Event::Moved { halves: 2, .. }),
        "{ev:?}"
    );
}

#[test]
fn rule_5_1_example_three_mp_unit_moves_six_road_hexes() {
    let g = game();
    let mut s = blank(&g);
    put(&mut s, "a2", "A6");
    select(&g, &mut s, "a2");
    let d = destinations(&g, &s);
    assert!(
        d.contains(&"G6".to_string()),
        "six road hexes for 3 MP: {d:?}"
    );
    assert!(
        !d.contains(&"H6".to_string()),
        "a seventh road hex is beyond 3 MP: {d:?}"
    );
}

#[test]
fn rule_5_1_example_woods_to_road_to_clear_costs_four() {
    // A 4 MP unit in woods next to a road: 2 MP into the road hex (woods), 1 MP for two more
    // road hexes, 1 MP into a clear hex off the road.
    let g = game();
    let mut s = blank(&g);
    put(&mut s, "a1", "A8");
    select(&g, &mut s, "a1");
    assert!(destinations(&g, &s).contains(&"E8".to_string()));
    let ev = act(&g, &mut s, "move E8");
    assert!(
        matches!(ev[0], muster_battles::Event::Moved { halves: 8, .. }),
        "{ev:?}"
    );
    let mut s = blank(&g);
    put(&mut s, "a1", "A8");
    select(&g, &mut s, "a1");
    assert!(
        !destinations(&g, &s).contains(&"F8".to_string()),
        "one more hex would cost 5 MP"
    );
}

#[test]
fn rule_5_1_a_road_waives_an_unbridged_river() {
    // Rulings B3: a road step costs ½ MP whatever stream it crosses. On the second test map
    // the road along row 4 crosses the river E4|F4, which has no bridge.
    let g = game();
    let mut s = blank_extras(&g);
    put(&mut s, "a1", "E4");
    select(&g, &mut s, "a1");
    let events = act(&g, &mut s, "move F4");
    assert!(
        matches!(events[0], muster_battles::Event::Moved { halves: 1, .. }),
        "{events:?}"
    );
    // So a 3 MP unit still covers six road hexes, river and all.
    let mut s = blank_extras(&g);
    put(&mut s, "a1", "A4");
    select(&g, &mut s, "a1");
    let d = destinations(&g, &s);
    assert!(d.contains(&"G4".to_string()), "{d:?}");
    assert!(!d.contains(&"H4".to_string()), "{d:?}");
}

#[test]
fn rule_5_1_the_enemy_cost_still_applies_on_a_road() {
    // Rulings B3: the road waives terrain costs only; entering a road hex next to an enemy
    // costs ½ + 1 MP. D6 is the only road hex next to the enemy at D7.
    let g = game();
    let mut s = blank(&g);
    put(&mut s, "a2", "A6");
    put(&mut s, "b1", "D7");
    select(&g, &mut s, "a2");
    let events = act(&g, &mut s, "move D6");
    assert!(
        matches!(events[0], muster_battles::Event::Moved { halves: 5, .. }),
        "½ + ½ + (½ + 1) MP: {events:?}"
    );
}

#[test]
fn rule_5_1_entering_a_hex_next_to_an_enemy_costs_one_more() {
    let g = game();
    let mut s = blank(&g);
    put(&mut s, "a2", "A7");
    put(&mut s, "b1", "D7");
    select(&g, &mut s, "a2");
    // B7 is clear and not next to D7; C7 is next to D7: 1 + 1 + 1 = 3 MP.
    let ev = act(&g, &mut s, "move C7");
    assert!(
        matches!(ev[0], muster_battles::Event::Moved { halves: 6, .. }),
        "{ev:?}"
    );
}

#[test]
fn rule_5_2_must_stop_when_moving_next_to_an_enemy() {
    // a1 (4 MP) stands in the woods at B8, at the end of the road B8-C8-D8. C8 is next to the
    // enemy at C7, D8 is not. Without the stop, D8 would cost ½ + 1 then ½: 2 MP. With it,
    // the unit stops at C8, and every other way to D8 is too long.
    let g = game();
    let mut s = blank(&g);
    put(&mut s, "a1", "B8");
    put(&mut s, "b1", "C7");
    select(&g, &mut s, "a1");
    let d = destinations(&g, &s);
    assert!(
        d.contains(&"C8".to_string()),
        "may enter a hex next to the enemy: {d:?}"
    );
    assert!(d.contains(&"B7".to_string()), "{d:?}");
    for beyond in ["D8", "E8", "B6"] {
        assert!(!d.contains(&beyond.to_string()), "{beyond}: {d:?}");
    }
    assert!(!d.iter().any(|x| x == "C7"), "never into an enemy: {d:?}");
    let events = act(&g, &mut s, "move C8");
    assert!(
        matches!(events[0], muster_battles::Event::Moved { halves: 3, .. }),
        "{events:?}"
    );
    // Rulings B13: with a friend on C8 the unit cannot pass through it either, since it would
    // have to stop in a hex it may not end in.
    let mut s = blank(&g);
    put(&mut s, "a1", "B8");
    put(&mut s, "a2", "C8");
    put(&mut s, "b1", "C7");
    select(&g, &mut s, "a1");
    let d = destinations(&g, &s);
    assert!(
        !d.contains(&"C8".to_string()) && !d.contains(&"D8".to_string()),
        "{d:?}"
    );
}

#[test]
fn rule_5_2_may_not_move_from_next_to_an_enemy_straight_to_next_to_one() {
    let g = game();
    let mut s = blank(&g);
    put(&mut s, "a1", "C5");
    put(&mut s, "b1", "C4");
    select(&g, &mut s, "a1");
    let d = destinations(&g, &s);
    assert!(
        d.contains(&"C6".to_string()),
        "moving away is allowed: {d:?}"
    );
    // B4 is next to both C5 and the enemy at C4: not in one step (2 MP), only by stepping
    // away to B5 first (1 MP) and then in (2 MP).
    let ev = act(&g, &mut s, "move B4");
    assert!(
        matches!(ev[0], muster_battles::Event::Moved { halves: 6, .. }),
        "{ev:?}"
    );
}

#[test]
fn rule_5_2_swamps_cannot_be_entered() {
    let g = game();
    let mut s = blank(&g);
    put(&mut s, "a1", "F5");
    select(&g, &mut s, "a1");
    assert!(!destinations(&g, &s).contains(&"G5".to_string()));
}

#[test]
fn rule_5_move_through_friends_but_not_end_on_them_nor_pass_enemies() {
    // Friends: a2 (3 MP) at the west end of the road along row 6, a friend on the next road
    // hex B6. G6 is six road hexes away (3 MP); every way round B6 costs at least 4 MP.
    let g = game();
    let mut s = blank(&g);
    put(&mut s, "a2", "A6");
    put(&mut s, "a1", "B6");
    select(&g, &mut s, "a2");
    let d = destinations(&g, &s);
    assert!(
        !d.contains(&"B6".to_string()),
        "cannot end on a friend: {d:?}"
    );
    assert!(
        d.contains(&"G6".to_string()),
        "may pass through the friend at B6: {d:?}"
    );
    assert_eq!(
        try_act(&g, &mut s, "move B6").unwrap_err().kind,
        muster_core::IllegalKind::NotLegal
    );
    let events = act(&g, &mut s, "move G6");
    assert!(
        matches!(events[0], muster_battles::Event::Moved { halves: 6, .. }),
        "{events:?}"
    );
    // Enemies: a2 starts at C6, next to an enemy on the road at D6. Through D6, E6 would
    // cost ½ + 1½ = 2 MP; round it, 5 MP. So E6 is out of reach.
    let mut s = blank(&g);
    put(&mut s, "a2", "C6");
    put(&mut s, "b1", "D6");
    select(&g, &mut s, "a2");
    let d = destinations(&g, &s);
    assert!(!d.contains(&"D6".to_string()), "{d:?}");
    assert!(
        !d.contains(&"E6".to_string()),
        "may not pass through an enemy: {d:?}"
    );
}

#[test]
fn rule_5_unused_mp_is_lost_and_cannot_pass_to_another_unit() {
    let g = game();
    let mut s = blank(&g);
    s.artillery.british = 0;
    put(&mut s, "a1", "A2"); // 4 MP
    put(&mut s, "a2", "A4"); // 3 MP
    put(&mut s, "a3", "A8");
    put(&mut s, "b1", "H8");
    // a1 spends 1 of its 4 MP; the other 3 cannot be used later in the turn.
    select(&g, &mut s, "a1");
    act(&g, &mut s, "move B2");
    assert!(!legal(&g, &s).contains(&"select a1".to_string()));
    // A force march spent on a unit that then stays put is lost too: the next unit moves
    // with its own 3 MP, not 5.
    select(&g, &mut s, "a3");
    act(&g, &mut s, "force-march");
    act(&g, &mut s, "hold");
    select(&g, &mut s, "a2");
    let d = destinations(&g, &s);
    assert!(d.contains(&"D4".to_string()), "three clear hexes: {d:?}");
    assert!(!d.contains(&"E4".to_string()), "no MP passed on: {d:?}");
    act(&g, &mut s, "hold");
    // Next turn a1 has its 4 MP again, no more: nothing was saved.
    act(&g, &mut s, "end-movement");
    act(&g, &mut s, "end-movement"); // the British turn
    assert_eq!((s.turn, s.active.0), (3, 0));
    select(&g, &mut s, "a1");
    let d = destinations(&g, &s);
    assert!(
        d.contains(&"F2".to_string()),
        "four hexes east of B2: {d:?}"
    );
    assert!(
        !d.contains(&"G2".to_string()),
        "a fifth is beyond 4 MP: {d:?}"
    );
}

#[test]
fn rule_5_2_all_movement_ends_before_attacks() {
    let g = game();
    let mut s = blank(&g);
    s.artillery.british = 0;
    put(&mut s, "a1", "C6"); // next to the enemy already
    put(&mut s, "a2", "A2"); // will not move
    put(&mut s, "b2", "C5");
    // While units move, no attack is offered, though a1 could attack b2.
    let l = legal(&g, &s);
    assert!(!l.iter().any(|a| a.starts_with("attack")), "{l:?}");
    act(&g, &mut s, "end-movement");
    assert_eq!(s.phase, Phase::Attacks);
    // Once attacks begin, no unit may move, not even one that has not moved.
    let l = legal(&g, &s);
    assert_eq!(l, ["attack b2", "end-attacks"]);
    assert!(try_act(&g, &mut s, "select a2").is_err());
}

#[test]
fn rule_5_units_move_once_per_turn_one_at_a_time() {
    let g = game();
    let mut s = blank(&g);
    put(&mut s, "a1", "A2");
    put(&mut s, "a2", "A3");
    select(&g, &mut s, "a1");
    assert!(
        !legal(&g, &s).iter().any(|a| a.starts_with("select")),
        "one unit at a time"
    );
    act(&g, &mut s, "move B2");
    let l = legal(&g, &s);
    assert!(!l.contains(&"select a1".to_string()), "a1 has moved: {l:?}");
    assert!(l.contains(&"select a2".to_string()));
}

#[test]
fn rule_9_1_force_march_adds_two_mp_once_per_turn() {
    // a2 (3 MP) on row 2, clear all the way (D2|E2 is bridged): each hex east costs 1 MP.
    let g = game();
    let mut s = blank(&g);
    put(&mut s, "a2", "A2");
    put(&mut s, "a3", "A8");
    select(&g, &mut s, "a2");
    let d = destinations(&g, &s);
    assert!(d.contains(&"D2".to_string()) && !d.contains(&"E2".to_string()));
    act(&g, &mut s, "force-march");
    assert_eq!(s.leadership.american, 2);
    let d = destinations(&g, &s);
    assert!(d.contains(&"F2".to_string()), "5 MP reach F2: {d:?}");
    assert!(
        !d.contains(&"G2".to_string()),
        "6 MP would be needed for G2: {d:?}"
    );
    let events = act(&g, &mut s, "move F2");
    assert!(
        matches!(events[0], muster_battles::Event::Moved { halves: 10, .. }),
        "{events:?}"
    );
    select(&g, &mut s, "a3");
    assert!(
        !legal(&g, &s).contains(&"force-march".to_string()),
        "one Leadership point a turn"
    );
}

#[test]
fn rule_5_3_reinforcements_enter_in_their_area_or_next_to_it_when_blocked() {
    let g = game();
    let mut s = blank(&g);
    let a5 = idx(&s, "a5") as usize;
    s.units[a5].at = Loc::Pending;
    put(&mut s, "a1", "H8");
    put(&mut s, "b1", "H1");
    // End the American turn 2 movement; the British turn passes; turn 3 begins.
    s.turn = 2;
    act(&g, &mut s, "end-movement");
    assert_eq!(s.active.0, 1);
    // Nothing to attack: the British move phase; end it.
    act(&g, &mut s, "end-movement");
    // Turn 3: the entry turn (2) has passed, so the reinforcement is placed now.
    assert_eq!(s.turn, 3);
    let mut places: Vec<String> = legal(&g, &s);
    places.sort();
    assert_eq!(places, ["place A1", "place B1"]);
    // Both area hexes blocked: the hexes next to the area.
    let mut s2 = s.clone();
    put(&mut s2, "a2", "A1");
    put(&mut s2, "a3", "B1");
    let mut places = legal(&g, &s2);
    places.sort();
    assert_eq!(places, ["place A2", "place B2", "place C1", "place C2"]);
    act(&g, &mut s, "place B1");
    assert_eq!(at(&s, "a5"), Loc::Map(h("B1")));
    // Entered units move in the same turn.
    assert!(legal(&g, &s).contains(&"select a5".to_string()));
}

#[test]
fn rule_5_3_a_reinforcement_arrives_on_its_entry_turn() {
    // a5 enters on turn 2 in the area "north" (A1, B1).
    let g = game();
    let mut s = g.new_game("test", &muster_core::Options::new(), 1).unwrap();
    assert_eq!(s.turn, 1);
    assert_eq!(at(&s, "a5"), Loc::Pending);
    assert!(
        matches!(s.phase, Phase::Movement { .. }),
        "not before its turn: {:?}",
        s.phase
    );
    act(&g, &mut s, "end-movement"); // American turn 1
    act(&g, &mut s, "end-movement"); // British turn 1
    assert_eq!((s.turn, s.active), (2, SideId(0)));
    assert_eq!(
        s.phase,
        Phase::Reinforce,
        "on turn 2, before anything moves"
    );
    let mut places = legal(&g, &s);
    places.sort();
    assert_eq!(places, ["place A1", "place B1"]);
}

#[test]
fn rule_5_3_a_reinforcement_with_no_free_hex_waits() {
    // Rulings B12: the area (A1, B1) and every hex next to it (A2, B2, C1, C2) are full, so
    // a5 stays off the map this turn and enters the next turn once a hex is free.
    let g = game();
    let mut s = blank(&g);
    s.artillery.american = 0;
    s.artillery.british = 0;
    let a5 = idx(&s, "a5") as usize;
    s.units[a5].at = Loc::Pending;
    for (id, hex) in [
        ("a1", "A1"),
        ("a2", "B1"),
        ("a3", "A2"),
        ("a4", "B2"),
        ("b1", "C1"),
        ("b2", "C2"),
    ] {
        put(&mut s, id, hex);
    }
    // Begin American turn 2 from the end of the British turn 1.
    s.turn = 1;
    s.active = SideId(1);
    act(&g, &mut s, "end-movement");
    if s.phase == Phase::Attacks {
        act(&g, &mut s, "end-attacks");
    }
    assert_eq!((s.turn, s.active), (2, SideId(0)));
    assert!(matches!(s.phase, Phase::Movement { .. }), "{:?}", s.phase);
    assert_eq!(at(&s, "a5"), Loc::Pending, "it waits");
    // a1 leaves A1 (through its friend at A2); a5 still waits for its next turn.
    select(&g, &mut s, "a1");
    act(&g, &mut s, "move A3");
    assert!(!legal(&g, &s).iter().any(|a| a.starts_with("place")));
    act(&g, &mut s, "end-movement");
    if s.phase == Phase::Attacks {
        act(&g, &mut s, "end-attacks");
    }
    act(&g, &mut s, "end-movement"); // the British turn
    if s.phase == Phase::Attacks {
        act(&g, &mut s, "end-attacks");
    }
    assert_eq!((s.turn, s.active), (3, SideId(0)));
    assert_eq!(legal(&g, &s), ["place A1"]);
}
