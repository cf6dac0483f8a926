//! §8.2 artillery fire at a unit, §9.3 rally, and the one-point-a-turn limits of §8 and §9.

mod common;
use common::*;
use muster_battles::action::Bombardment;
use muster_battles::state::{Loc, Phase};
use muster_battles::{Battles, Event, State};
use muster_core::Game;

/// The Americans have just ended movement; the British hold artillery.
fn after_movement(g: &Battles) -> State {
    let mut s = blank(g);
    s.phase = Phase::Movement {
        selected: None,
        force_march: false,
    };
    let _ = g;
    s
}

#[test]
fn rule_8_2_fire_window_after_movement_for_the_non_active_player() {
    let g = game();
    let mut s = after_movement(&g);
    put(&mut s, "a1", "C5");
    put(&mut s, "b1", "C2"); // 3 hexes away
    act(&g, &mut s, "end-movement");
    assert_eq!(s.phase, Phase::ArtilleryFire);
    assert_eq!(
        g.to_act(&s),
        Some(1),
        "the British fire during the American turn"
    );
    assert_eq!(legal(&g, &s), ["fire a1", "no-fire"]);
}

#[test]
fn rule_8_2_targets_must_be_within_three_hexes_of_friendly_infantry() {
    let g = game();
    let mut s = after_movement(&g);
    put(&mut s, "a1", "C6");
    put(&mut s, "b1", "C2"); // 4 hexes away
    act(&g, &mut s, "end-movement");
    assert_ne!(s.phase, Phase::ArtilleryFire, "nothing in range: no window");
}

#[test]
fn rule_8_2_example_a_five_makes_the_target_retreat() {
    // A unit 3 hexes from the firing side's infantry, in the open; a roll of 5 makes it
    // retreat one hex without a loss.
    let g = game();
    let mut s = after_movement(&g);
    put(&mut s, "a1", "C5");
    put(&mut s, "b1", "C2");
    act(&g, &mut s, "end-movement");
    s.dice = dice_rolling(&[5]);
    let ev = act(&g, &mut s, "fire a1");
    assert!(ev.iter().any(|e| matches!(
        e,
        Event::ArtilleryFire {
            roll: 5,
            terrain: false,
            result: muster_battles::action::Bombardment::Retreat,
            ..
        }
    )));
    if matches!(s.phase, Phase::ArtilleryRetreat { .. }) {
        assert_eq!(g.to_act(&s), Some(0), "the target's owner picks the hex");
        let l = legal(&g, &s);
        act(&g, &mut s, &l[0]);
    }
    let a1 = &s.units[idx(&s, "a1") as usize];
    assert!(!a1.reduced);
    let Loc::Map(hex) = a1.at else { panic!() };
    assert_ne!(hex, h("C5"));
    assert!(
        g.scenario(&s).map.distance(hex, h("C2")) > 3,
        "retreated away from the guns' infantry"
    );
    assert_eq!(s.artillery.british, 2);
}

#[test]
fn rule_8_2_chart_six_reduces_and_terrain_takes_one_off() {
    let g = game();
    // In the open, a 6 reduces and retreats.
    let mut s = after_movement(&g);
    put(&mut s, "a1", "C5");
    put(&mut s, "b1", "C2");
    act(&g, &mut s, "end-movement");
    s.dice = dice_rolling(&[6]);
    act(&g, &mut s, "fire a1");
    assert!(s.units[idx(&s, "a1") as usize].reduced);
    // In woods, a 6 counts as 5: retreat only; a 4 counts as 3: no effect.
    for (roll, retreats) in [(6u8, true), (4, false)] {
        let mut s = after_movement(&g);
        put(&mut s, "a1", "C3"); // woods
        put(&mut s, "b1", "C1");
        act(&g, &mut s, "end-movement");
        s.dice = dice_rolling(&[roll]);
        let ev = act(&g, &mut s, "fire a1");
        assert!(
            ev.iter()
                .any(|e| matches!(e, Event::ArtilleryFire { terrain: true, .. }))
        );
        assert!(!s.units[idx(&s, "a1") as usize].reduced, "roll {roll}");
        let moved = s.units[idx(&s, "a1") as usize].at != Loc::Map(h("C3"))
            || matches!(s.phase, Phase::ArtilleryRetreat { .. });
        assert_eq!(moved, retreats, "roll {roll}");
    }
}

#[test]
fn rule_8_artillery_is_for_freemans_farm_only() {
    let g = game();
    let s = g.new_game("oriskany", &Default::default(), 1).unwrap();
    assert_eq!((s.artillery.american, s.artillery.british), (0, 0));
    assert!(!g.scenario(&s).artillery_rules);
}

#[test]
fn rule_9_3_rally_on_four_to_six_and_the_rallied_unit_may_not_move() {
    let g = game();
    let mut s = blank(&g);
    put(&mut s, "a1", "A1");
    reduce(&mut s, "a1");
    put(&mut s, "b1", "H8");
    // Begin the American turn: the rally step is offered.
    s.active = muster_battles::state::SideId(1);
    s.phase = Phase::Movement {
        selected: None,
        force_march: false,
    };
    s.artillery.american = 0;
    act(&g, &mut s, "end-movement"); // British turn 2 ends; American turn 3 begins
    assert_eq!(s.phase, Phase::Rally);
    assert_eq!(legal(&g, &s), ["rally a1", "no-rally"]);
    s.dice = dice_rolling(&[4]);
    act(&g, &mut s, "rally a1");
    assert!(!s.units[idx(&s, "a1") as usize].reduced);
    assert_eq!(s.leadership.american, 2);
    assert!(
        !legal(&g, &s).contains(&"select a1".to_string()),
        "a rallied unit may not move"
    );
}

#[test]
fn rule_9_3_a_failed_rally_still_spends_the_point() {
    let g = game();
    let mut s = blank(&g);
    put(&mut s, "a1", "A1");
    reduce(&mut s, "a1");
    s.phase = Phase::Rally;
    s.dice = dice_rolling(&[3]);
    act(&g, &mut s, "rally a1");
    assert!(s.units[idx(&s, "a1") as usize].reduced);
    assert_eq!(s.leadership.american, 2);
    assert!(s.leader_used);
    assert!(
        legal(&g, &s).contains(&"select a1".to_string()),
        "not rallied, so it may move"
    );
}

#[test]
fn rule_9_3_no_rally_next_to_an_enemy() {
    let g = game();
    let mut s = blank(&g);
    put(&mut s, "a1", "C5");
    reduce(&mut s, "a1");
    put(&mut s, "b1", "C4");
    s.active = muster_battles::state::SideId(1);
    s.artillery.american = 0;
    s.phase = Phase::Movement {
        selected: None,
        force_march: false,
    };
    act(&g, &mut s, "end-movement");
    // The British can attack a1: end that, then the American turn starts without a rally.
    if s.phase == Phase::Attacks {
        act(&g, &mut s, "end-attacks");
    }
    assert_eq!(s.active.0, 0);
    assert_ne!(s.phase, Phase::Rally);
}

#[test]
fn rule_8_a_battle_without_artillery_may_not_give_artillery_points() {
    let text = TEST_SCENARIO.replace("artillery = true", "artillery = false");
    let err = Battles::from_texts(std::iter::once(("no-guns.toml".to_string(), text.clone())))
        .err()
        .expect("Artillery points without artillery rules are refused");
    assert!(
        err.contains("sides.american.artillery is 3 but scenario.artillery is false"),
        "{err}"
    );
    // With no points on either side the same file loads.
    let text = text.replace("artillery = 3", "artillery = 0");
    assert!(Battles::from_texts(std::iter::once(("no-guns.toml".to_string(), text))).is_ok());
}

#[test]
fn rule_8_one_artillery_point_a_turn_whichever_the_use() {
    // The British fire at a1 after movement; the attack that follows gets no support offer.
    let g = game();
    let mut s = after_movement(&g);
    put(&mut s, "a1", "C5");
    put(&mut s, "b2", "C4");
    act(&g, &mut s, "end-movement");
    assert_eq!(s.phase, Phase::ArtilleryFire);
    s.dice = dice_rolling(&[1]);
    act(&g, &mut s, "fire a1"); // 1: no effect
    assert_eq!(s.artillery.british, 2);
    assert_eq!(s.phase, Phase::Attacks);
    act(&g, &mut s, "attack b2");
    act(&g, &mut s, "add a1");
    s.dice = dice_rolling(&[1, 1]);
    let ev = act(&g, &mut s, "commit");
    assert!(
        combat(&ev).is_some(),
        "no support decision: the dice roll at once"
    );
    assert_eq!(s.artillery.british, 2);
}

#[test]
fn rule_8_2_chart_four_retreats_and_hills_and_farms_take_one_off() {
    let g = game();
    // In the open a 4 makes the target retreat, without a loss.
    let mut s = after_movement(&g);
    put(&mut s, "a1", "C5");
    put(&mut s, "b1", "C2");
    act(&g, &mut s, "end-movement");
    s.dice = dice_rolling(&[4]);
    let ev = act(&g, &mut s, "fire a1");
    assert!(ev.iter().any(|e| matches!(
        e,
        Event::ArtilleryFire {
            roll: 4,
            terrain: false,
            result: Bombardment::Retreat,
            ..
        }
    )));
    if matches!(s.phase, Phase::ArtilleryRetreat { .. }) {
        let l = legal(&g, &s);
        act(&g, &mut s, &l[0]);
    }
    assert_ne!(at(&s, "a1"), Loc::Map(h("C5")));
    assert!(!s.units[idx(&s, "a1") as usize].reduced);
    // On the hill E3 and the farm F4: a 4 counts as 3 (no effect), a 5 as 4 (retreat).
    for (target, guns) in [("E3", "E1"), ("F4", "F2")] {
        for (roll, result) in [(4u8, Bombardment::NoEffect), (5, Bombardment::Retreat)] {
            let mut s = after_movement(&g);
            put(&mut s, "a1", target);
            put(&mut s, "b1", guns);
            act(&g, &mut s, "end-movement");
            s.dice = dice_rolling(&[roll]);
            let ev = act(&g, &mut s, "fire a1");
            let fired = ev.iter().find_map(|e| match e {
                Event::ArtilleryFire {
                    terrain, result, ..
                } => Some((*terrain, *result)),
                _ => None,
            });
            assert_eq!(fired, Some((true, result)), "{target}, roll {roll}");
        }
    }
}

#[test]
fn rule_8_2_a_target_with_no_retreat_hex_takes_one_more_loss() {
    // Rulings B7, applied to fire: a1 in the corner A1, its two neighbours held by friends.
    let g = game();
    for (roll, after) in [(5u8, "reduced"), (6, "eliminated")] {
        let mut s = after_movement(&g);
        put(&mut s, "a1", "A1");
        put(&mut s, "a2", "A2");
        put(&mut s, "a3", "B1");
        put(&mut s, "b1", "D1"); // 3 hexes from A1
        act(&g, &mut s, "end-movement");
        s.dice = dice_rolling(&[roll]);
        let ev = act(&g, &mut s, "fire a1");
        assert!(
            ev.iter().any(|e| matches!(e, Event::CannotRetreat { .. })),
            "roll {roll}: {ev:?}"
        );
        let a1 = &s.units[idx(&s, "a1") as usize];
        match after {
            "reduced" => {
                assert!(a1.reduced, "5: no room to retreat, so one loss");
                assert_eq!(a1.at, Loc::Map(h("A1")));
            }
            _ => assert_eq!(a1.at, Loc::Eliminated, "6: reduced, then one more loss"),
        }
    }
}

#[test]
fn rule_8_2_example_fire_at_one_of_three_adjacent_attackers() {
    // Rulings B8: the three American units stand next to b1 when movement ends; the British
    // fire at one of them before any attack; a 4 makes it step back, away from b1.
    let g = game();
    let mut s = after_movement(&g);
    s.leadership.american = 0;
    put(&mut s, "b1", "C5");
    put(&mut s, "a1", "C4");
    put(&mut s, "a2", "B5");
    put(&mut s, "a3", "D5");
    act(&g, &mut s, "end-movement");
    assert_eq!(
        s.phase,
        Phase::ArtilleryFire,
        "before any attack is declared"
    );
    s.dice = dice_rolling(&[4]);
    act(&g, &mut s, "fire a2");
    assert!(matches!(s.phase, Phase::ArtilleryRetreat { .. }));
    let map = g.scenario(&s).map.clone();
    let l = legal(&g, &s);
    assert!(!l.is_empty());
    for a in &l {
        let hex = h(a.strip_prefix("retreat ").expect("a retreat"));
        assert_eq!(map.distance(hex, h("C5")), 2, "{a}: away from b1");
    }
    act(&g, &mut s, &l[0]);
    assert!(!s.units[idx(&s, "a2") as usize].reduced);
    assert_eq!(s.phase, Phase::Attacks);
    act(&g, &mut s, "attack b1");
    let mut adds = legal(&g, &s);
    adds.sort();
    assert_eq!(adds, ["add a1", "add a3"], "a2 is no longer next to b1");
}

/// The American turn on Freeman's Farm with every unit off the map and movement under way.
fn freemans_farm_after_movement(g: &Battles) -> State {
    blank_on(g, "freemans-farm")
}

/// The retreat hexes offered after `fire <target>` with the given roll, or the events when
/// the retreat was carried out at once.
fn retreat_options(g: &Battles, s: &mut State, target: &str, roll: u8) -> Vec<String> {
    act(g, s, "end-movement");
    assert_eq!(s.phase, Phase::ArtilleryFire);
    s.dice = dice_rolling(&[roll]);
    let ev = act(g, s, &format!("fire {target}"));
    assert!(
        !ev.iter().any(|e| matches!(e, Event::CannotRetreat { .. })),
        "{ev:?}"
    );
    assert!(
        matches!(s.phase, Phase::ArtilleryRetreat { .. }),
        "{:?}",
        s.phase
    );
    let mut l = legal(g, s);
    l.sort();
    l
}

#[test]
fn rule_8_2_guns_on_both_sides_at_range_leave_a_step_aside() {
    // Rulings B7, the case seen in play: Latimer on the river road at L5, British units at
    // L2 and L8, three hexes up and down the road. L4 and L6 close on one of them; the woods
    // hexes K5 and K6 are each farther from one and no nearer the other, so Latimer steps
    // aside there (its owner picks) instead of taking a loss for having nowhere to go.
    let g = game();
    let mut s = freemans_farm_after_movement(&g);
    put(&mut s, "latimer", "L5");
    put(&mut s, "20th", "L2");
    put(&mut s, "62nd", "L8");
    let map = g.scenario(&s).map.clone();
    assert_eq!(map.distance(h("L5"), h("L2")), 3);
    assert_eq!(map.distance(h("L5"), h("L8")), 3);
    let options = retreat_options(&g, &mut s, "latimer", 5);
    assert_eq!(options, ["retreat K5", "retreat K6"]);
    assert_eq!(g.to_act(&s), Some(0), "the Americans choose");
    assert!(
        try_act(&g, &mut s.clone(), "retreat L4").is_err(),
        "L4 is nearer the 20th"
    );
    assert!(
        try_act(&g, &mut s.clone(), "retreat L6").is_err(),
        "L6 is nearer the 62nd"
    );
    act(&g, &mut s, "retreat K6");
    let latimer = &s.units[idx(&s, "latimer") as usize];
    assert_eq!(latimer.at, Loc::Map(h("K6")));
    assert!(
        !latimer.reduced,
        "a 5 costs no loss when there is a hex to go to"
    );
}

#[test]
fn rule_8_2_a_unit_fired_at_must_break_contact_with_firing_units_next_to_it() {
    // Rulings B7 and the second printed example ("away from the defender"): a2 at B5 stands
    // next to b1 at C5, with b2 three hexes off at E7. B4 and C6 stay next to b1 although
    // they are no nearer b2 (C6 even moves away from it), so they are refused; A5, A6 and B6
    // leave b1 behind.
    let g = game();
    let mut s = after_movement(&g);
    s.leadership.american = 0;
    put(&mut s, "a2", "B5");
    put(&mut s, "b1", "C5");
    put(&mut s, "b2", "E7");
    let map = g.scenario(&s).map.clone();
    assert_eq!(map.distance(h("B5"), h("E7")), 3);
    assert!(map.distance(h("C6"), h("E7")) <= 3);
    let options = retreat_options(&g, &mut s, "a2", 4);
    assert!(!options.is_empty());
    for a in &options {
        let hex = h(a.strip_prefix("retreat ").expect("a retreat"));
        assert_eq!(map.distance(hex, h("C5")), 2, "{a}: out of contact with b1");
        assert!(map.distance(hex, h("E7")) >= 3, "{a}: no nearer b2");
    }
    assert!(!options.contains(&"retreat B4".to_string()));
    assert!(!options.contains(&"retreat C6".to_string()));
}

#[test]
fn rule_8_artillery_belongs_to_the_inactive_side_and_only_while_its_points_last() {
    // The American turn: the British have no Artillery points left, the Americans three.
    // No fire window opens and the attack gets no support decision: nobody may spend the
    // Americans' points in their own turn, and the British have none.
    let g = game();
    let mut s = after_movement(&g);
    s.artillery.british = 0;
    s.leadership.american = 0;
    put(&mut s, "a1", "C6");
    put(&mut s, "b2", "C5");
    act(&g, &mut s, "end-movement");
    assert_eq!(s.phase, Phase::Attacks, "no fire window");
    act(&g, &mut s, "attack b2");
    act(&g, &mut s, "add a1");
    s.dice = dice_rolling(&[1, 6]);
    let ev = act(&g, &mut s, "commit");
    assert!(combat(&ev).is_some(), "no support decision: {ev:?}");
    assert_eq!((s.artillery.american, s.artillery.british), (3, 0));
    // In the British turn the Americans are the inactive side, and their points are usable.
    let mut s = after_movement(&g);
    s.active = muster_battles::state::SideId(1);
    put(&mut s, "a1", "C6");
    put(&mut s, "b2", "C5");
    act(&g, &mut s, "end-movement");
    assert_eq!(s.phase, Phase::ArtilleryFire);
    assert_eq!(
        g.to_act(&s),
        Some(0),
        "the Americans fire in the British turn"
    );
    assert_eq!(legal(&g, &s), ["fire b2", "no-fire"]);
}

#[test]
fn rule_8_2_no_fire_during_movement_or_once_attacks_begin() {
    // Fire comes only in the window between movement and the first attack. Holding fire
    // there spends nothing, so the point can still support the defender.
    let g = game();
    let mut s = after_movement(&g);
    s.leadership.american = 0;
    put(&mut s, "a1", "C6");
    put(&mut s, "b2", "C5");
    assert!(!legal(&g, &s).iter().any(|a| a.starts_with("fire")));
    let fire = g.parse_action(&s, "fire a1").unwrap();
    assert!(
        g.apply(&mut s.clone(), 1, fire).is_err(),
        "the British may not fire while the Americans move"
    );
    act(&g, &mut s, "end-movement");
    assert_eq!(s.phase, Phase::ArtilleryFire);
    act(&g, &mut s, "no-fire");
    assert_eq!(s.phase, Phase::Attacks);
    assert!(!legal(&g, &s).iter().any(|a| a.starts_with("fire")));
    assert!(g.apply(&mut s.clone(), 1, fire).is_err());
    assert_eq!(s.artillery.british, 3, "holding fire spends nothing");
    act(&g, &mut s, "attack b2");
    act(&g, &mut s, "add a1");
    act(&g, &mut s, "commit");
    assert!(matches!(s.phase, Phase::Support { .. }), "{:?}", s.phase);
}

/// Ends a British turn so that the American turn 3 begins (the Americans hold no artillery,
/// so no fire window opens in the British turn).
fn begin_american_turn(g: &Battles, s: &mut State) {
    s.active = muster_battles::state::SideId(1);
    s.artillery.american = 0;
    s.phase = Phase::Movement {
        selected: None,
        force_march: false,
    };
    act(g, s, "end-movement");
    if s.phase == Phase::Attacks {
        act(g, s, "end-attacks");
    }
    assert_eq!((s.active.0, s.turn), (0, 3));
}

#[test]
fn rule_9_only_the_active_player_spends_leadership() {
    let g = game();
    // A reduced unit of each side, both far from the enemy: when the American turn begins
    // only the American one may be rallied.
    let mut s = blank(&g);
    put(&mut s, "a1", "A1");
    reduce(&mut s, "a1");
    put(&mut s, "b3", "H8");
    reduce(&mut s, "b3");
    begin_american_turn(&g, &mut s);
    assert_eq!(s.phase, Phase::Rally);
    assert_eq!(legal(&g, &s), ["rally a1", "no-rally"]);
    // When the Americans attack, the British decide on support only: no charge for them.
    let mut s = blank(&g);
    s.leadership.american = 0;
    put(&mut s, "a1", "C6");
    put(&mut s, "b2", "C5");
    s.phase = Phase::Attacks;
    act(&g, &mut s, "attack b2");
    act(&g, &mut s, "add a1");
    act(&g, &mut s, "commit");
    assert_eq!(g.to_act(&s), Some(1));
    assert_eq!(legal(&g, &s), ["support", "no-support"]);
    let charge = g.parse_action(&s, "charge b2").unwrap();
    assert!(g.apply(&mut s.clone(), 1, charge).is_err());
    assert_eq!(s.leadership.british, 3);
}

#[test]
fn rule_9_one_leadership_point_a_turn_whichever_the_use() {
    let g = game();
    // A rally (failed) uses the turn's point: no force march, no charge afterwards.
    let mut s = blank(&g);
    put(&mut s, "a1", "A1");
    reduce(&mut s, "a1");
    put(&mut s, "a2", "C6");
    put(&mut s, "b2", "C5");
    begin_american_turn(&g, &mut s);
    assert_eq!(s.phase, Phase::Rally);
    s.dice = dice_rolling(&[3]);
    act(&g, &mut s, "rally a1");
    assert_eq!(s.leadership.american, 2);
    act(&g, &mut s, "select a2");
    assert!(!legal(&g, &s).contains(&"force-march".to_string()));
    act(&g, &mut s, "hold");
    act(&g, &mut s, "end-movement");
    if s.phase == Phase::ArtilleryFire {
        act(&g, &mut s, "no-fire");
    }
    act(&g, &mut s, "attack b2");
    act(&g, &mut s, "add a2");
    assert_eq!(legal(&g, &s), ["commit"], "no charge after a rally");
    // A force march uses the turn's point: no charge in the attack that follows.
    let mut s = blank(&g);
    s.artillery.british = 0;
    put(&mut s, "a2", "C8");
    put(&mut s, "b2", "C5");
    act(&g, &mut s, "select a2");
    act(&g, &mut s, "force-march");
    act(&g, &mut s, "move C6");
    act(&g, &mut s, "end-movement");
    act(&g, &mut s, "attack b2");
    act(&g, &mut s, "add a2");
    assert_eq!(legal(&g, &s), ["commit"], "no charge after a force march");
    assert_eq!(s.leadership.american, 2);
}

#[test]
fn rule_9_no_leadership_use_once_the_points_are_spent() {
    // The Americans have no Leadership points left: no rally step although a reduced unit
    // could rally, no force march, no charge.
    let g = game();
    let mut s = blank(&g);
    s.leadership.american = 0;
    s.artillery.british = 0;
    put(&mut s, "a1", "A1");
    reduce(&mut s, "a1");
    put(&mut s, "a2", "C7");
    put(&mut s, "b2", "C5");
    begin_american_turn(&g, &mut s);
    assert!(matches!(s.phase, Phase::Movement { .. }), "{:?}", s.phase);
    act(&g, &mut s, "select a2");
    assert!(!legal(&g, &s).contains(&"force-march".to_string()));
    act(&g, &mut s, "move C6");
    act(&g, &mut s, "end-movement");
    act(&g, &mut s, "attack b2");
    act(&g, &mut s, "add a2");
    assert_eq!(legal(&g, &s), ["commit"], "no charge");
}
