//! §5 Unit Movement (§5.1 costs, §5.2 restrictions, §5.3 reinforcements) and §9.1 force march.

mod common;
use common::*;
use muster_battles::state::Loc;

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
        "{events:?}"
    );
    let mut s = blank(&g);
    put(&mut s, "a2", "D4");
    select(&g, &mut s, "a2");
    // D4 to E4 is clear (1), E4 to E3 is the hill (2): 3 MP, reachable.
    assert!(destinations(&g, &s).contains(&"E3".to_string()));
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
    let g = game();
    let mut s = blank(&g);
    put(&mut s, "a1", "A5");
    put(&mut s, "b1", "C4");
    select(&g, &mut s, "a1");
    let d = destinations(&g, &s);
    // B5 is next to C4, so the unit stops there and cannot go on to C5's far side.
    assert!(d.contains(&"B5".to_string()));
    // D6 is reachable only around the enemy's flank, not through B5.
    assert!(!d.iter().any(|x| x == "C4"), "never into an enemy: {d:?}");
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
    let g = game();
    let mut s = blank(&g);
    put(&mut s, "a2", "A7");
    put(&mut s, "a1", "B7");
    select(&g, &mut s, "a2");
    let d = destinations(&g, &s);
    assert!(!d.contains(&"B7".to_string()), "cannot end on a friend");
    assert!(
        d.contains(&"C7".to_string()),
        "may pass through a friend: {d:?}"
    );
    assert_eq!(
        try_act(&g, &mut s, "move B7").unwrap_err().kind,
        muster_core::IllegalKind::NotLegal
    );
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
    let g = game();
    let mut s = blank(&g);
    put(&mut s, "a2", "A7");
    put(&mut s, "a3", "A1");
    select(&g, &mut s, "a2");
    assert!(!destinations(&g, &s).contains(&"F7".to_string()));
    act(&g, &mut s, "force-march");
    assert_eq!(s.leadership.american, 2);
    assert!(
        destinations(&g, &s).contains(&"F7".to_string()),
        "5 MP reach F7"
    );
    act(&g, &mut s, "move F7");
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
