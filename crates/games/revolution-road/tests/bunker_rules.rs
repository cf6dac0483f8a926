//! Bunker Hill rules, one test (or a few) per rule section, on hand-built positions.

mod bunker_support;
use bunker_support::*;
use muster_core::{Game, Options};
use muster_revolution_road::bunker::action::{Action, Event};
use muster_revolution_road::bunker::state::*;

fn dice_of(ev: &[Event]) -> Vec<(u8, u8)> {
    ev.iter()
        .filter_map(|e| match e {
            Event::Roll { dice, need, .. } => Some((*dice, *need)),
            _ => None,
        })
        .collect()
}

fn apply(g: &muster_revolution_road::Bunker, s: &mut State, a: Action) -> Vec<Event> {
    let side = g.to_act(s).unwrap();
    g.apply(s, side, a).unwrap()
}

// ----- 3.0 stacking -----

#[test]
fn rule_3_0_three_military_units_per_side_leaders_free() {
    let g = game();
    let mut s = empty(&g);
    for _ in 0..3 {
        put(&g, &mut s, PATRIOT, Kind::Minuteman, "redoubt");
    }
    let m = put(&g, &mut s, PATRIOT, Kind::Minuteman, "breeds-slope-n");
    let l = put(&g, &mut s, PATRIOT, Kind::Leader, "breeds-slope-n");
    act(&g, &mut s, Action::Move(r(&g, "breeds-slope-n")));
    let l2 = legal(&g, &s);
    let red = r(&g, "redoubt");
    assert!(
        !l2.contains(&Action::Go { unit: m, to: red }),
        "a fourth unit may not enter"
    );
    assert!(
        l2.contains(&Action::Go { unit: l, to: red }),
        "leaders do not count"
    );
}

#[test]
fn rule_3_5_staging_areas_unlimited_for_british_and_staging_number() {
    let g = game();
    let mut s = empty(&g);
    s.mover = BRITISH;
    let sa = r(&g, "point-n");
    for _ in 0..5 {
        put(&g, &mut s, BRITISH, Kind::Regular, "point-n");
    }
    assert_eq!(g.cap(BRITISH, sa), 255);
    assert_eq!(g.cap(PATRIOT, sa), 3);
    // Staging number of zone 2 is 3: with five Regulars the area may move.
    assert!(legal(&g, &s).contains(&Action::Move(sa)));
    let mut t = empty(&g);
    t.mover = BRITISH;
    put(&g, &mut t, BRITISH, Kind::Regular, "point-n");
    assert!(
        !legal(&g, &t).contains(&Action::Move(sa)),
        "below the staging number"
    );
    t.staged |= 1 << sa;
    assert!(
        legal(&g, &t).contains(&Action::Move(sa)),
        "once met, the number is ignored"
    );
}

#[test]
fn rule_faq_staging_area_moves_three_units_at_a_time() {
    let g = game();
    let mut s = empty(&g);
    s.mover = BRITISH;
    let sa = r(&g, "point-n");
    let regs: Vec<u8> = (0..5)
        .map(|_| put(&g, &mut s, BRITISH, Kind::Regular, "point-n"))
        .collect();
    act(&g, &mut s, Action::Move(sa));
    let pastures = r(&g, "pastures");
    for u in &regs[..3] {
        act(
            &g,
            &mut s,
            Action::Go {
                unit: *u,
                to: pastures,
            },
        );
    }
    assert!(
        !legal(&g, &s).iter().any(|a| matches!(a, Action::Go { .. })),
        "a fourth unit must wait for another action"
    );
}

#[test]
fn rule_faq_staging_area_volleys_three_units_at_a_time() {
    let g = game();
    let mut s = empty(&g);
    s.mover = BRITISH;
    let regs: Vec<u8> = (0..5)
        .map(|_| put(&g, &mut s, BRITISH, Kind::Regular, "point-n"))
        .collect();
    put(&g, &mut s, PATRIOT, Kind::Minuteman, "stone-wall");
    act(
        &g,
        &mut s,
        Action::Volley {
            from: r(&g, "point-n"),
            to: r(&g, "stone-wall"),
        },
    );
    for u in &regs[..3] {
        act(&g, &mut s, Action::Add(*u));
    }
    assert_eq!(legal(&g, &s), vec![Action::Done]);
}

// ----- 3.1 terrain -----

#[test]
fn rule_3_1_terrain_modifier_exceptions() {
    let g = game();
    let id = |x| r(&g, x);
    // Hilltops ignore modifiers, even of a hilltop next door; the Redoubt always counts.
    assert!(!g.terrain_applies(id("bunker-s"), id("bunker-slope-s")));
    assert!(!g.terrain_applies(id("breeds-s"), id("works-s")));
    assert!(g.terrain_applies(id("breeds-s"), id("redoubt")));
    assert!(g.terrain_applies(id("pastures"), id("redoubt")));
    // Slopes and ridges ignore each other's modifiers when adjacent.
    assert!(!g.terrain_applies(id("breeds-slope-n"), id("ridge-n")));
    assert!(g.terrain_applies(id("pastures"), id("ridge-n")));
    // The yellow wall modifiers count only from across the wall.
    assert!(g.terrain_applies(id("point-n"), id("stone-wall")));
    assert!(!g.terrain_applies(id("ridge-n"), id("stone-wall")));
    assert!(g.terrain_applies(id("ridge-n"), id("rail-fence")));
    assert!(!g.terrain_applies(id("works-n"), id("rail-fence")));
}

#[test]
fn rule_3_3_volley_into_town_rolls_one_less_die() {
    let g = game();
    let mut s = empty(&g);
    s.mover = BRITISH;
    let a = put(&g, &mut s, BRITISH, Kind::Regular, "breeds-slope-w");
    put(&g, &mut s, PATRIOT, Kind::Minuteman, "town-3");
    act(
        &g,
        &mut s,
        Action::Volley {
            from: r(&g, "breeds-slope-w"),
            to: r(&g, "town-3"),
        },
    );
    act(&g, &mut s, Action::Add(a));
    let ev = apply(&g, &mut s, Action::Done);
    assert_eq!(dice_of(&ev), vec![(1, 5)], "2 strength - 1 for the town");
}

#[test]
fn rule_3_3_british_stop_on_entering_town_patriots_do_not() {
    let g = game();
    let mut s = empty(&g);
    s.mover = BRITISH;
    let b = put(&g, &mut s, BRITISH, Kind::Regular, "bunker-slope-s");
    act(&g, &mut s, Action::Move(r(&g, "bunker-slope-s")));
    let dests: Vec<u8> = legal(&g, &s)
        .iter()
        .filter_map(|a| match a {
            Action::Go { unit, to } if *unit == b => Some(*to),
            _ => None,
        })
        .collect();
    assert!(dests.contains(&r(&g, "town-1")));
    assert!(
        !dests.contains(&r(&g, "town-5")),
        "must stop in town-1 or town-2"
    );
    let mut t = empty(&g);
    let p = put(&g, &mut t, PATRIOT, Kind::Minuteman, "bunker-slope-s");
    act(&g, &mut t, Action::Move(r(&g, "bunker-slope-s")));
    assert!(legal(&g, &t).contains(&Action::Go {
        unit: p,
        to: r(&g, "town-5")
    }));
}

#[test]
fn rule_3_4_neck_courage_check_when_the_fleet_is_in_the_charles() {
    let g = game();
    let mut s = empty(&g);
    s.fleet = 2;
    let m = militia(&g, &mut s, "muster", 0);
    act(&g, &mut s, Action::Move(MUSTER));
    let ev = apply(
        &g,
        &mut s,
        Action::Go {
            unit: m,
            to: r(&g, "neck"),
        },
    );
    let c = ev.iter().find_map(|e| match e {
        Event::Courage {
            die, total, passed, ..
        } => Some((*die, *total, *passed)),
        _ => None,
    });
    let (die, total, passed) = c.expect("a courage check");
    assert_eq!(total, die);
    assert_eq!(passed, total > 3);
    let at = s.units[m as usize].at;
    assert_eq!(at == MUSTER, !passed);
    assert!(s.units[m as usize].has(MOVED));
    // With the fleet elsewhere there is no check.
    let mut t = empty(&g);
    let m = militia(&g, &mut t, "muster", 0);
    act(&g, &mut t, Action::Move(MUSTER));
    let ev = apply(
        &g,
        &mut t,
        Action::Go {
            unit: m,
            to: r(&g, "neck"),
        },
    );
    assert!(!ev.iter().any(|e| matches!(e, Event::Courage { .. })));
}

// ----- 4.3 wrong ammunition -----

#[test]
fn rule_4_3_british_cannon_silent_until_the_ammo_arrives() {
    let g = game();
    let mut s = empty(&g);
    s.mover = BRITISH;
    put(&g, &mut s, BRITISH, Kind::Cannon, "moultons");
    put(&g, &mut s, PATRIOT, Kind::Minuteman, "breeds-slope-e");
    assert!(!legal(&g, &s).contains(&Action::Cannonade));
    s.ammo_arrived = true;
    assert!(legal(&g, &s).contains(&Action::Cannonade));
}

// ----- 5.2 the action round -----

#[test]
fn rule_5_2_pass_hands_the_action_over_and_cannot_be_returned() {
    let g = game();
    let mut s = empty(&g);
    put(&g, &mut s, PATRIOT, Kind::Minuteman, "redoubt");
    put(&g, &mut s, BRITISH, Kind::Regular, "point-n");
    assert!(legal(&g, &s).contains(&Action::Yield));
    act(&g, &mut s, Action::Yield);
    assert_eq!(s.mover, BRITISH);
    assert!(
        !legal(&g, &s).contains(&Action::Yield),
        "the opponent may not pass back"
    );
    // A player ahead on actions must act.
    let mut t = empty(&g);
    t.actions = [3, 2];
    assert!(!legal(&g, &t).contains(&Action::Yield));
}

#[test]
fn rule_6_11_plan_only_on_the_last_action_and_two_reserves_at_most() {
    let g = game();
    let mut s = empty(&g);
    assert!(!legal(&g, &s).contains(&Action::Plan));
    s.actions = [1, 1];
    act(&g, &mut s, Action::Plan);
    assert_eq!(s.reserves[0], 1);
    assert_eq!(s.actions[0], 0);
    let mut t = empty(&g);
    t.actions = [1, 1];
    t.reserves = [2, 0];
    assert!(!legal(&g, &t).contains(&Action::Plan));
}

#[test]
fn rule_5_2_reserve_action_leaves_the_action_track_alone() {
    let g = game();
    let mut s = empty(&g);
    s.reserves = [1, 0];
    put(&g, &mut s, PATRIOT, Kind::Minuteman, "redoubt");
    let m = s
        .units
        .iter()
        .position(|u| u.at == r(&g, "redoubt"))
        .unwrap() as u8;
    act(&g, &mut s, Action::Reserve);
    assert!(!legal(&g, &s).contains(&Action::Pass));
    act(&g, &mut s, Action::Move(r(&g, "redoubt")));
    act(
        &g,
        &mut s,
        Action::Go {
            unit: m,
            to: r(&g, "breeds-s"),
        },
    );
    act(&g, &mut s, Action::Done);
    assert_eq!(s.actions, [3, 3]);
    assert_eq!(s.reserves[0], 0);
    assert_eq!(s.mover, BRITISH);
}

// ----- 6.1 Volley Fire, 8.0 ammunition -----

#[test]
fn rule_6_1_volley_reaches_two_regions_and_hits_on_six_there() {
    let g = game();
    let mut s = empty(&g);
    let m = militia(&g, &mut s, "works-n", 2);
    put(&g, &mut s, BRITISH, Kind::Regular, "ridge-n");
    let (from, to) = (r(&g, "works-n"), r(&g, "ridge-n"));
    assert_eq!(g.dist(from, to), 2);
    act(&g, &mut s, Action::Volley { from, to });
    act(&g, &mut s, Action::Add(m));
    let ammo = s.ammo;
    let ev = apply(&g, &mut s, Action::Done);
    // Strength 2, ridge volley modifier -1: one die, hitting on 6 at two regions.
    assert_eq!(dice_of(&ev), vec![(1, 6)]);
    assert_eq!(s.ammo, ammo - 1, "8.0: a volley costs one ammunition");
    assert!(s.units[m as usize].has(FIRED));
    // Three regions away is out of range.
    let mut t = empty(&g);
    militia(&g, &mut t, "works-n", 2);
    put(&g, &mut t, BRITISH, Kind::Regular, "pastures");
    assert!(g.dist(from, r(&g, "pastures")) > 2);
    assert!(
        !legal(&g, &t)
            .iter()
            .any(|a| matches!(a, Action::Volley { .. }))
    );
}

#[test]
fn rule_8_0_low_ammo_caps_dice_and_forbids_sniping() {
    let g = game();
    let mut s = empty(&g);
    for _ in 0..3 {
        militia(&g, &mut s, "works-s", 2);
    }
    put(&g, &mut s, BRITISH, Kind::Regular, "pastures");
    put(&g, &mut s, BRITISH, Kind::Regular, "town-dock");
    s.ammo = 12;
    assert_eq!(g.patriot_cap(&s), 3);
    assert!(!legal(&g, &s).iter().any(|a| matches!(a, Action::Snipe(_))));
    s.ammo = 13;
    assert!(legal(&g, &s).iter().any(|a| matches!(a, Action::Snipe(_))));
    s.ammo = 0;
    assert_eq!(g.patriot_cap(&s), 2);
    assert!(
        !legal(&g, &s)
            .iter()
            .any(|a| matches!(a, Action::Assault { .. }))
    );
    let two_away = legal(&g, &s)
        .iter()
        .any(|a| matches!(a, Action::Volley { to, .. } if *to == r(&g, "pastures")));
    assert!(!two_away, "at 0 ammunition only adjacent volleys");
}

#[test]
fn rule_8_0_zero_ammo_lets_the_british_assault_regardless_of_numbers() {
    let g = game();
    let mut s = empty(&g);
    s.mover = BRITISH;
    put(&g, &mut s, BRITISH, Kind::Regular, "pastures");
    for _ in 0..2 {
        put(&g, &mut s, PATRIOT, Kind::Minuteman, "breeds-slope-n");
    }
    let a = Action::Assault {
        from: r(&g, "pastures"),
        to: r(&g, "breeds-slope-n"),
    };
    assert!(
        !legal(&g, &s).contains(&a),
        "6.2: one against two may not assault"
    );
    s.ammo = 0;
    assert!(legal(&g, &s).contains(&a));
}

// ----- 6.2 Assault, 7.1 retreats -----

#[test]
fn rule_6_2_assault_gives_the_defender_a_free_round_and_costs_ammo() {
    let g = game();
    let mut s = empty(&g);
    s.mover = BRITISH;
    let a1 = put(&g, &mut s, BRITISH, Kind::Regular, "pastures");
    let a2 = put(&g, &mut s, BRITISH, Kind::Regular, "pastures");
    let d = militia(&g, &mut s, "breeds-slope-n", 1);
    act(
        &g,
        &mut s,
        Action::Assault {
            from: r(&g, "pastures"),
            to: r(&g, "breeds-slope-n"),
        },
    );
    act(&g, &mut s, Action::Add(a1));
    act(&g, &mut s, Action::Add(a2));
    act(&g, &mut s, Action::Done);
    assert_eq!(
        s.units[a1 as usize].at,
        r(&g, "breeds-slope-n"),
        "attackers move in"
    );
    assert_eq!(
        s.phase,
        Phase::Assault {
            stage: Stage::DefFire
        }
    );
    let ammo = s.ammo;
    let ev = apply(&g, &mut s, Action::Fire(5));
    // Strength 1 + slope assault modifier 1 (pastures is not a slope).
    assert_eq!(dice_of(&ev), vec![(2, 5)]);
    assert_eq!(
        s.ammo,
        ammo - 2,
        "8.0: one to take part, one for the free fire"
    );
    let _ = d;
}

#[test]
fn rule_8_0_patriot_may_hold_the_free_fire_to_save_ammo() {
    let g = game();
    let mut s = empty(&g);
    s.mover = BRITISH;
    let a1 = put(&g, &mut s, BRITISH, Kind::Regular, "pastures");
    militia(&g, &mut s, "breeds-slope-n", 1);
    act(
        &g,
        &mut s,
        Action::Assault {
            from: r(&g, "pastures"),
            to: r(&g, "breeds-slope-n"),
        },
    );
    act(&g, &mut s, Action::Add(a1));
    act(&g, &mut s, Action::Done);
    let ammo = s.ammo;
    let ev = apply(&g, &mut s, Action::Fire(0));
    assert_eq!(dice_of(&ev), vec![(0, 5)]);
    assert_eq!(s.ammo, ammo - 1);
}

#[test]
fn rule_7_1_minutemen_withdraw_and_take_militia_along() {
    let g = game();
    let mut s = empty(&g);
    s.mover = BRITISH;
    let a: Vec<u8> = (0..3)
        .map(|_| put(&g, &mut s, BRITISH, Kind::Regular, "pastures"))
        .collect();
    let mm = put(&g, &mut s, PATRIOT, Kind::Minuteman, "breeds-slope-n");
    let mil = militia(&g, &mut s, "breeds-slope-n", 1);
    let mil2 = militia(&g, &mut s, "breeds-slope-n", 1);
    act(
        &g,
        &mut s,
        Action::Assault {
            from: r(&g, "pastures"),
            to: r(&g, "breeds-slope-n"),
        },
    );
    for u in &a {
        act(&g, &mut s, Action::Add(*u));
    }
    act(&g, &mut s, Action::Done);
    assert_eq!(
        s.phase,
        Phase::Assault {
            stage: Stage::Withdraw
        }
    );
    act(&g, &mut s, Action::Add(mm));
    act(&g, &mut s, Action::Add(mil));
    assert!(
        !legal(&g, &s).contains(&Action::Add(mil2)),
        "one militia per Minuteman"
    );
    act(&g, &mut s, Action::Done);
    // Retreat destinations: away from the assault (not back toward the pastures).
    let dests = legal(&g, &s);
    assert!(!dests.is_empty());
    for d in &dests {
        if let Action::Dest(x) = d {
            assert!(g.dist(r(&g, "pastures"), *x) >= 2);
        }
    }
}

#[test]
fn rule_faq_wounded_leaders_and_broken_minutemen_cannot_pair_militia() {
    let g = game();
    let mut s = empty(&g);
    s.mover = BRITISH;
    let a: Vec<u8> = (0..2)
        .map(|_| put(&g, &mut s, BRITISH, Kind::Regular, "pastures"))
        .collect();
    let l = put(&g, &mut s, PATRIOT, Kind::Leader, "breeds-slope-n");
    s.units[l as usize].flags |= BROKEN;
    let mm = put(&g, &mut s, PATRIOT, Kind::Minuteman, "breeds-slope-n");
    s.units[mm as usize].flags |= BROKEN;
    let mil = militia(&g, &mut s, "breeds-slope-n", 1);
    act(
        &g,
        &mut s,
        Action::Assault {
            from: r(&g, "pastures"),
            to: r(&g, "breeds-slope-n"),
        },
    );
    for u in &a {
        act(&g, &mut s, Action::Add(*u));
    }
    act(&g, &mut s, Action::Done);
    let l2 = legal(&g, &s);
    assert!(!l2.contains(&Action::Add(mil)));
    assert!(
        l2.contains(&Action::Add(mm)) && l2.contains(&Action::Add(l)),
        "they may withdraw"
    );
}

// ----- 6.3 Cannonade, 6.4 Bombard, 6.9 Snipe -----

#[test]
fn rule_6_3_cannonade_hits_only_healthy_counters_with_unlimited_range() {
    let g = game();
    let mut s = empty(&g);
    let c = put(&g, &mut s, PATRIOT, Kind::Cannon, "redoubt");
    let b = put(&g, &mut s, BRITISH, Kind::Regular, "moultons");
    s.units[b as usize].flags |= BROKEN;
    put(&g, &mut s, BRITISH, Kind::Regular, "moultons");
    let (from, to) = (r(&g, "redoubt"), r(&g, "moultons"));
    assert!(g.dist(from, to) >= 2);
    act(&g, &mut s, Action::Cannonade);
    act(&g, &mut s, Action::Gun { from, to });
    assert!(s.units[c as usize].has(FIRED));
    if let Some(Task::Hits { .. }) = s.tasks.first() {
        assert!(
            !legal(&g, &s).contains(&Action::Hit(b)),
            "broken units may not take cannon hits"
        );
    }
}

#[test]
fn rule_6_4_bombard_needs_two_healthy_patriots_and_hot_shot_once_a_turn() {
    let g = game();
    let mut s = empty(&g);
    s.mover = BRITISH;
    put(&g, &mut s, PATRIOT, Kind::Minuteman, "town-7");
    act(&g, &mut s, Action::Bombard);
    let l = legal(&g, &s);
    assert!(
        !l.contains(&Action::Shell(r(&g, "town-7"))),
        "one healthy counter is no target"
    );
    assert!(l.contains(&Action::HotShot(r(&g, "town-7"))));
    s.hot_shot = true;
    assert!(
        !legal(&g, &s)
            .iter()
            .any(|a| matches!(a, Action::HotShot(_)))
    );
}

#[test]
fn rule_6_4_ablaze_region_is_left_at_once() {
    let g = game();
    let mut s = empty(&g);
    let m = put(&g, &mut s, PATRIOT, Kind::Minuteman, "town-5");
    let mut ev = Vec::new();
    g.set_ablaze(&mut s, r(&g, "town-5"), 6, &mut ev);
    assert!(matches!(s.tasks.first(), Some(Task::Evacuate { .. })));
    let dests = legal(&g, &s);
    assert!(
        dests
            .iter()
            .all(|a| matches!(a, Action::Dest(x) if *x != r(&g, "town-5")))
    );
    act(&g, &mut s, dests[0]);
    assert_ne!(s.units[m as usize].at, r(&g, "town-5"));
    // Entering a burning region is forbidden.
    let mut t = empty(&g);
    t.ablaze = 1 << r(&g, "town-1");
    let p = put(&g, &mut t, PATRIOT, Kind::Minuteman, "town-2");
    act(&g, &mut t, Action::Move(r(&g, "town-2")));
    assert!(!legal(&g, &t).contains(&Action::Go {
        unit: p,
        to: r(&g, "town-1")
    }));
}

#[test]
fn rule_6_9_snipe_needs_an_unburnt_town_region_next_to_the_target() {
    let g = game();
    let mut s = empty(&g);
    put(&g, &mut s, BRITISH, Kind::Regular, "town-dock");
    let dock = r(&g, "town-dock");
    assert!(legal(&g, &s).contains(&Action::Snipe(dock)));
    // Burn every town region next to the dock (FAQ: no sniping from a burning town).
    s.ablaze = g.data.map.regions[dock as usize].adj & g.data.map.town;
    assert!(!legal(&g, &s).contains(&Action::Snipe(dock)));
}

#[test]
fn rule_6_10_land_troops_transport_number_and_leaders_free() {
    let g = game();
    let mut s = empty(&g);
    s.mover = BRITISH;
    let z = r(&g, "zone-4");
    let regs: Vec<u8> = (0..3)
        .map(|_| put(&g, &mut s, BRITISH, Kind::Regular, "zone-4"))
        .collect();
    let l = put(&g, &mut s, BRITISH, Kind::Leader, "zone-4");
    let to = r(&g, "harbour-shore");
    act(&g, &mut s, Action::Land { zone: z, to });
    act(&g, &mut s, Action::Add(regs[0]));
    act(&g, &mut s, Action::Add(regs[1]));
    assert!(
        !legal(&g, &s).contains(&Action::Add(regs[2])),
        "zone 4 transports 2"
    );
    act(&g, &mut s, Action::Add(l));
    act(&g, &mut s, Action::Done);
    assert_eq!(s.units[l as usize].at, to);
    assert!(s.units[regs[0] as usize].has(MOVED));
    assert_eq!(
        s.staged >> to & 1,
        1,
        "two Regulars meet staging number 2; the leader does not count"
    );
}

// ----- 6.7 Rally, 9.0 morale -----

#[test]
fn rule_6_7_each_leader_rallies_one_unit_even_wounded() {
    let g = game();
    let mut s = empty(&g);
    let l = put(&g, &mut s, PATRIOT, Kind::Leader, "redoubt");
    s.units[l as usize].flags |= BROKEN;
    let a = put(&g, &mut s, PATRIOT, Kind::Minuteman, "redoubt");
    let b = put(&g, &mut s, PATRIOT, Kind::Minuteman, "redoubt");
    s.units[a as usize].flags |= BROKEN;
    s.units[b as usize].flags |= BROKEN;
    s.morale = [20, 24];
    act(&g, &mut s, Action::Rally(r(&g, "redoubt")));
    act(&g, &mut s, Action::Add(a));
    assert!(!s.units[a as usize].broken());
    assert_eq!(s.morale[0], 21, "9.0: a rally raises morale");
    assert_eq!(legal(&g, &s), vec![Action::Done], "one rally per leader");
}

#[test]
fn rule_9_0_hits_move_morale() {
    let g = game();
    let mut s = empty(&g);
    let m = put(&g, &mut s, PATRIOT, Kind::Minuteman, "redoubt");
    let l = put(&g, &mut s, PATRIOT, Kind::Leader, "redoubt");
    let mut ev = Vec::new();
    g.take_hit(&mut s, m, &mut ev);
    assert_eq!(s.morale[0], 23);
    g.take_hit(&mut s, m, &mut ev);
    assert_eq!(s.morale[0], 22);
    assert_eq!(s.units[m as usize].at, REMOVED);
    g.take_hit(&mut s, l, &mut ev);
    g.take_hit(&mut s, l, &mut ev);
    assert_eq!(s.morale[0], 19, "wounded -1, killed -2");
}

#[test]
fn rule_9_1_panic_check_at_the_start_of_a_turn() {
    let g = game();
    let mut s = empty(&g);
    let m = militia(&g, &mut s, "breeds-slope-n", 0);
    let b = put(&g, &mut s, PATRIOT, Kind::Minuteman, "breeds-slope-n");
    s.units[b as usize].flags |= BROKEN;
    put(&g, &mut s, BRITISH, Kind::Regular, "pastures");
    s.morale = [12, 24];
    let mut ev = Vec::new();
    g.begin_turn_2(&mut s, &mut ev);
    assert_eq!(s.phase, Phase::Panic);
    assert_eq!(g.to_act(&s), Some(BRITISH));
    act(&g, &mut s, Action::PanicAt(r(&g, "breeds-slope-n")));
    assert!(
        s.units[b as usize].has(PANIC),
        "broken units panic automatically"
    );
    let panicked = s.units[m as usize].has(PANIC);
    assert_eq!(panicked, s.units[m as usize].broken());
}

#[test]
fn rule_9_2_patriot_demoralization() {
    let g = game();
    let mut s = empty(&g);
    militia(&g, &mut s, "redoubt", 1);
    s.reserves = [2, 0];
    s.morale = [1, 24];
    let mut ev = Vec::new();
    g.morale(&mut s, PATRIOT, -1, &mut ev);
    assert!(s.demoralized[0]);
    assert_eq!(s.reserves[0], 0);
    assert!(
        matches!(s.tasks.first(), Some(Task::Flee { steps: 3, .. })),
        "militia run three regions"
    );
    assert!(!legal(&g, &s).is_empty());
}

#[test]
fn rule_9_4_mutual_demoralization_ends_the_game() {
    let g = game();
    let mut s = empty(&g);
    s.demoralized = [true, false];
    s.morale = [0, 1];
    let mut ev = Vec::new();
    g.morale(&mut s, BRITISH, -1, &mut ev);
    assert!(s.ended.is_some());
    assert_eq!(s.ended.unwrap().why, 1);
}

// ----- 5.3 end of turn, 10.0 victory -----

#[test]
fn rule_5_3_leaders_remove_panic_and_fire_spreads() {
    let g = game();
    let mut s = empty(&g);
    let m = put(&g, &mut s, PATRIOT, Kind::Minuteman, "redoubt");
    s.units[m as usize].flags |= BROKEN | PANIC | MOVED;
    put(&g, &mut s, PATRIOT, Kind::Leader, "redoubt");
    s.ablaze = 1 << r(&g, "town-5");
    let mut ev = Vec::new();
    g.end_turn(&mut s, &mut ev);
    assert!(!s.units[m as usize].has(PANIC));
    assert!(!s.units[m as usize].has(MOVED), "markers are removed");
    let rolls: Vec<(u8, bool)> = ev
        .iter()
        .filter_map(|e| match e {
            Event::SpreadRoll { die, spreads, .. } => Some((*die, *spreads)),
            _ => None,
        })
        .collect();
    assert_eq!(rolls.len(), 1, "one die for the burning region");
    let spread = s.tasks.iter().any(|t| matches!(t, Task::Spread { .. }));
    assert_eq!(
        spread, rolls[0].1,
        "the fire spreads exactly when the die says so"
    );
    assert_eq!(rolls[0].1, rolls[0].0 >= 5, "5-6 spreads");
}

#[test]
fn rule_faq_fires_beyond_five_score_one_point_each() {
    let g = game();
    let mut s = empty(&g);
    let towns: Vec<u8> = (0..64u8)
        .filter(|r| g.data.map.town >> r & 1 == 1)
        .collect();
    for (k, want) in [(5usize, 0i16), (6, 2), (7, 4), (10, 10)] {
        s.ablaze = towns[..k].iter().fold(0, |m, r| m | 1 << r);
        let fires: i16 = g
            .vp_items(&s)
            .iter()
            .filter(|i| i.cause.contains("ablaze"))
            .map(|i| i.halves)
            .sum();
        assert_eq!(fires, want, "{k} fires");
    }
}

#[test]
fn rule_10_0_ties_go_to_the_side_with_more_hill_regions() {
    let g = game();
    let mut s = empty(&g);
    put(&g, &mut s, BRITISH, Kind::Regular, "moultons");
    put(&g, &mut s, BRITISH, Kind::Regular, "breeds-s");
    put(&g, &mut s, PATRIOT, Kind::Minuteman, "bunker-c");
    // Moulton's Hill held: British 1 VP. Give the Patriot 1 VP back with a destroyed Regular.
    let x = put(&g, &mut s, BRITISH, Kind::Regular, "pastures");
    s.units[x as usize].at = REMOVED;
    let vp = g.vp_halves(&s);
    assert_eq!(vp[0], vp[1]);
    let mut ev = Vec::new();
    g.end_game(&mut s, 0, &mut ev);
    assert_eq!(s.ended.unwrap().winner, BRITISH, "2 hill regions to 1");
}

// ----- 12.1 set-up -----

#[test]
fn rule_12_1_setup_decisions_belong_to_each_side() {
    let g = game();
    let mut s = g.new_game("standard", &Options::new(), 3).unwrap();
    assert_eq!(s.phase, Phase::SetupBritish);
    let l = legal(&g, &s);
    assert_eq!(l.len(), 2, "either zone 2 staging area");
    for _ in 0..5 {
        act(&g, &mut s, Action::Place(r(&g, "point-ne")));
    }
    assert_eq!(s.phase, Phase::SetupPatriot);
    for a in legal(&g, &s) {
        let Action::Place(x) = a else { panic!() };
        assert!(g.setup_region(x), "only regions with a defensive modifier");
        assert_ne!(x, r(&g, "moultons"));
    }
    while s.phase == Phase::SetupPatriot {
        let a = legal(&g, &s)[0];
        act(&g, &mut s, a);
    }
    assert_eq!(s.turn, 1);
    assert_eq!(s.deck.draw.len() + s.deck.discard.len(), 10, "ten cards");
    assert_eq!(
        s.units.iter().filter(|u| u.kind == Kind::Militia).count(),
        21
    );
}

#[test]
fn rule_12_1_turn_six_reinforcements_choose_zone_two_or_three() {
    let g = game();
    let mut s = empty(&g);
    for u in s.units.iter_mut() {
        if u.side == BRITISH && u.kind == Kind::Marine {
            u.at = PENDING;
            u.arrive = 6;
        }
    }
    s.turn = 6;
    let mut ev = Vec::new();
    g.begin_turn(&mut s, &mut ev);
    assert_eq!(s.phase, Phase::Reinforce);
    assert_eq!(legal(&g, &s), vec![Action::Zone(2), Action::Zone(3)]);
    let mut o = Options::new();
    o.insert("any-zone".into(), "on".into());
    let mut t = empty_with(&g, o);
    for u in t.units.iter_mut() {
        if u.side == BRITISH && u.kind == Kind::Marine {
            u.at = PENDING;
            u.arrive = 3;
        }
    }
    t.turn = 3;
    g.begin_turn(&mut t, &mut ev);
    assert_eq!(legal(&g, &t).len(), 6, "11.3: any landing zone");
}

#[test]
fn rule_6_8_reorganize_swaps_counters_and_ends_within_stacking() {
    let g = game();
    let mut s = empty(&g);
    let a: Vec<u8> = (0..3)
        .map(|_| put(&g, &mut s, PATRIOT, Kind::Minuteman, "redoubt"))
        .collect();
    let b: Vec<u8> = (0..3)
        .map(|_| put(&g, &mut s, PATRIOT, Kind::Minuteman, "breeds-s"))
        .collect();
    let (ra, rb) = (r(&g, "redoubt"), r(&g, "breeds-s"));
    let (lo, hi) = if ra < rb { (ra, rb) } else { (rb, ra) };
    act(&g, &mut s, Action::Reorg { a: lo, b: hi });
    act(&g, &mut s, Action::Add(a[0]));
    assert!(
        !legal(&g, &s).contains(&Action::Done),
        "four in one region: not yet"
    );
    act(&g, &mut s, Action::Add(b[0]));
    act(&g, &mut s, Action::Done);
    assert_eq!(s.units[a[0] as usize].at, rb);
    assert_eq!(s.units[b[0] as usize].at, ra);
    assert!(s.units[a[0] as usize].has(MOVED) && !s.units[a[1] as usize].has(MOVED));
}

#[test]
fn rule_6_6_the_fleet_moves_to_an_adjacent_box() {
    let g = game();
    let mut s = empty(&g);
    s.mover = BRITISH;
    let l = legal(&g, &s);
    assert!(l.contains(&Action::Naval(0)) && l.contains(&Action::Naval(2)));
    act(&g, &mut s, Action::Naval(2));
    assert_eq!(s.fleet, 2);
    s.mover = BRITISH;
    let l = legal(&g, &s);
    assert!(
        l.contains(&Action::Naval(1)) && !l.contains(&Action::Naval(0)),
        "the rivers touch only the harbour"
    );
}

#[test]
fn rule_4_1_broken_units_without_a_leader_only_move_toward_the_rear() {
    let g = game();
    let mut s = empty(&g);
    let m = put(&g, &mut s, PATRIOT, Kind::Minuteman, "redoubt");
    s.units[m as usize].flags |= BROKEN;
    act(&g, &mut s, Action::Move(r(&g, "redoubt")));
    let from = g.muster_dist(r(&g, "redoubt"));
    for a in legal(&g, &s) {
        if let Action::Go { to, .. } = a {
            assert!(
                g.muster_dist(to) < from,
                "{} is not toward the Neck",
                g.region_id(to)
            );
        }
    }
    // With a leader in the region the unit moves freely.
    let mut t = empty(&g);
    let m = put(&g, &mut t, PATRIOT, Kind::Minuteman, "redoubt");
    t.units[m as usize].flags |= BROKEN;
    put(&g, &mut t, PATRIOT, Kind::Leader, "redoubt");
    act(&g, &mut t, Action::Move(r(&g, "redoubt")));
    let away = legal(&g, &t)
        .iter()
        .any(|a| matches!(a, Action::Go { unit, to } if *unit == m && g.muster_dist(*to) >= from));
    assert!(away);
}

#[test]
fn rule_9_3_british_demoralization() {
    let g = game();
    let mut s = empty(&g);
    s.mover = BRITISH;
    s.reserves = [0, 2];
    s.morale = [24, 1];
    let l = put(&g, &mut s, BRITISH, Kind::Leader, "pastures");
    let a = put(&g, &mut s, BRITISH, Kind::Regular, "pastures");
    let b = put(&g, &mut s, BRITISH, Kind::Regular, "pastures");
    s.units[b as usize].flags |= BROKEN;
    let mut ev = Vec::new();
    g.morale(&mut s, BRITISH, -1, &mut ev);
    assert!(s.demoralized[1]);
    assert_eq!(s.reserves[1], 0);
    assert!(
        !legal(&g, &s).iter().any(|x| matches!(x, Action::Rally(_))),
        "no more rallies"
    );
    s.actions = [1, 1];
    assert!(!legal(&g, &s).contains(&Action::Plan));
    // One die fewer on Volley Fire.
    put(&g, &mut s, PATRIOT, Kind::Minuteman, "breeds-slope-n");
    act(
        &g,
        &mut s,
        Action::Volley {
            from: r(&g, "pastures"),
            to: r(&g, "breeds-slope-n"),
        },
    );
    act(&g, &mut s, Action::Add(a));
    let ev = apply(&g, &mut s, Action::Done);
    assert_eq!(
        dice_of(&ev),
        vec![(1, 5)],
        "2 strength - 1 (slope volley modifier 0)"
    );
    let _ = l;
}

#[test]
fn rule_6_3_cannonade_beyond_two_regions_hits_only_on_six() {
    let g = game();
    let mut s = empty(&g);
    put(&g, &mut s, PATRIOT, Kind::Cannon, "redoubt");
    put(&g, &mut s, BRITISH, Kind::Regular, "moultons");
    let (from, to) = (r(&g, "redoubt"), r(&g, "moultons"));
    act(&g, &mut s, Action::Cannonade);
    let ev = apply(&g, &mut s, Action::Gun { from, to });
    let need = if g.dist(from, to) <= 2 { 5 } else { 6 };
    assert_eq!(
        dice_of(&ev),
        vec![(2, need)],
        "two dice, no terrain modifier"
    );
}

#[test]
fn rule_6_4_bombard_hits_on_six_and_on_five_in_staging_areas() {
    let g = game();
    let mut s = empty(&g);
    s.mover = BRITISH;
    s.fleet = 1;
    put(&g, &mut s, PATRIOT, Kind::Minuteman, "town-dock");
    put(&g, &mut s, PATRIOT, Kind::Minuteman, "town-dock");
    put(&g, &mut s, PATRIOT, Kind::Minuteman, "clay-pits");
    put(&g, &mut s, PATRIOT, Kind::Minuteman, "clay-pits");
    act(&g, &mut s, Action::Bombard);
    let ev = apply(&g, &mut s, Action::Shell(r(&g, "town-dock")));
    assert_eq!(dice_of(&ev), vec![(2, 5)], "Staging Area 6");
    take_hits(&g, &mut s);
    while matches!(s.tasks.first(), Some(Task::Flee { .. })) {
        let a = legal(&g, &s)[0];
        act(&g, &mut s, a);
    }
    let ev = apply(&g, &mut s, Action::Shell(r(&g, "clay-pits")));
    assert_eq!(dice_of(&ev), vec![(2, 6)]);
}

#[test]
fn rule_7_0_no_hits_rolled_means_no_counter_is_hit() {
    let g = game();
    let mut t = empty(&g);
    let m = militia(&g, &mut t, "works-s", 0);
    let b = put(&g, &mut t, BRITISH, Kind::Regular, "breeds-slope-n");
    act(
        &g,
        &mut t,
        Action::Volley {
            from: r(&g, "works-s"),
            to: r(&g, "breeds-slope-n"),
        },
    );
    act(&g, &mut t, Action::Add(m));
    let ev = apply(&g, &mut t, Action::Done);
    assert_eq!(
        dice_of(&ev),
        vec![(0, 5)],
        "a 0-strength militia without a leader rolls nothing"
    );
    assert!(!t.units[b as usize].broken(), "no die, no hit");
    assert!(t.tasks.is_empty());
}

#[test]
fn rule_7_1_each_assault_round_offers_the_retreats_again() {
    let g = game();
    for seed in 0..40u64 {
        let mut s = empty(&g);
        s.dice = muster_core::Dice::from_seed(seed);
        s.mover = BRITISH;
        let a = put(&g, &mut s, BRITISH, Kind::Regular, "pastures");
        let d = militia(&g, &mut s, "breeds-slope-n", 0);
        s.units[d as usize].flags |= BROKEN; // rolls nothing, so rounds go on
        act(
            &g,
            &mut s,
            Action::Assault {
                from: r(&g, "pastures"),
                to: r(&g, "breeds-slope-n"),
            },
        );
        act(&g, &mut s, Action::Add(a));
        act(&g, &mut s, Action::Done);
        while s.phase
            == (Phase::Assault {
                stage: Stage::Withdraw,
            })
        {
            act(&g, &mut s, Action::Done);
        }
        if s.phase
            == (Phase::Assault {
                stage: Stage::DefFire,
            })
        {
            act(&g, &mut s, Action::Fire(0));
        }
        take_hits(&g, &mut s);
        if s.phase
            != (Phase::Assault {
                stage: Stage::AttBack,
            })
        {
            continue;
        }
        act(&g, &mut s, Action::Done);
        assert_eq!(
            s.phase,
            Phase::Assault {
                stage: Stage::DefBack
            }
        );
        let ev = apply(&g, &mut s, Action::Done);
        assert_eq!(dice_of(&ev).len(), 2, "one round, both sides roll once");
        take_hits(&g, &mut s);
        if s.phase
            == (Phase::Assault {
                stage: Stage::AttBack,
            })
        {
            return;
        }
    }
    panic!("no seed kept the assault going for a second round");
}

// ----- review additions -----

#[test]
fn rule_3_4_a_broken_militia_adds_no_strength_to_its_neck_courage_check() {
    // 4.1: broken militia have no strength, so the die alone decides at the Neck.
    let g = game();
    let mut s = empty(&g);
    s.fleet = 2;
    let m = militia(&g, &mut s, "muster", 2);
    s.units[m as usize].flags |= BROKEN;
    // A healthy leader lets the broken unit move away from the rear (4.1).
    put(&g, &mut s, PATRIOT, Kind::Leader, "muster");
    act(&g, &mut s, Action::Move(MUSTER));
    let ev = apply(
        &g,
        &mut s,
        Action::Go {
            unit: m,
            to: r(&g, "neck"),
        },
    );
    let (die, total) = ev
        .iter()
        .find_map(|e| match e {
            Event::Courage { die, total, .. } => Some((*die, *total)),
            _ => None,
        })
        .expect("a courage check");
    assert_eq!(total, die, "a broken militia adds nothing to the die");
}

#[test]
fn rule_7_0_the_owner_places_each_hit_one_decision_at_a_time() {
    // 7.0: the side that is hit chooses, hit by hit, among all its counters in the region,
    // leaders and cannon included even when other units are there.
    let g = game();
    let mut s = empty(&g);
    let redoubt = r(&g, "redoubt");
    let mm = put(&g, &mut s, PATRIOT, Kind::Minuteman, "redoubt");
    let gun = put(&g, &mut s, PATRIOT, Kind::Cannon, "redoubt");
    let ldr = put(&g, &mut s, PATRIOT, Kind::Leader, "redoubt");
    s.mover = BRITISH;
    s.tasks.push(Task::Hits {
        side: PATRIOT,
        region: redoubt,
        n: 2,
        mode: HitMode::Any,
    });
    assert_eq!(g.to_act(&s), Some(PATRIOT), "the owner decides");
    let l = legal(&g, &s);
    for u in [mm, gun, ldr] {
        assert!(l.contains(&Action::Hit(u)), "{u} may take the hit: {l:?}");
    }
    assert_eq!(l.len(), 3, "one counter per decision: {l:?}");
    act(&g, &mut s, Action::Hit(ldr));
    assert!(s.units[ldr as usize].broken(), "the leader is wounded");
    assert_eq!(
        g.to_act(&s),
        Some(PATRIOT),
        "the second hit is a second decision"
    );
    act(&g, &mut s, Action::Hit(ldr));
    assert_eq!(
        s.units[ldr as usize].at, REMOVED,
        "a wounded leader hit again is killed"
    );
    assert!(!s.units[mm as usize].broken() && !s.units[gun as usize].broken());
}

#[test]
fn rule_9_1_panicked_units_are_destroyed_when_assaulted() {
    let g = game();
    let mut s = empty(&g);
    s.mover = BRITISH;
    let a = put(&g, &mut s, BRITISH, Kind::Regular, "pastures");
    let m = militia(&g, &mut s, "breeds-slope-n", 1);
    s.units[m as usize].flags |= BROKEN | PANIC;
    act(
        &g,
        &mut s,
        Action::Assault {
            from: r(&g, "pastures"),
            to: r(&g, "breeds-slope-n"),
        },
    );
    act(&g, &mut s, Action::Add(a));
    act(&g, &mut s, Action::Done);
    assert_eq!(
        s.units[m as usize].at, REMOVED,
        "a panicked defender is destroyed"
    );
}

#[test]
fn rule_9_1_panicked_units_cannot_be_activated() {
    let g = game();
    let mut s = empty(&g);
    let b = put(&g, &mut s, PATRIOT, Kind::Minuteman, "works-s");
    s.units[b as usize].flags |= BROKEN;
    let ws = r(&g, "works-s");
    assert!(
        legal(&g, &s).contains(&Action::Move(ws)),
        "a broken unit may still move toward the rear (4.1)"
    );
    s.units[b as usize].flags |= PANIC;
    assert!(
        !legal(&g, &s).contains(&Action::Move(ws)),
        "a panicked one may not be activated"
    );
}

#[test]
fn rule_9_1_panicked_survivors_of_ranged_fire_run_three_more_regions() {
    let g = game();
    let mut ran = 0;
    for seed in 0..12u64 {
        let mut s = empty(&g);
        s.dice = muster_core::Dice::from_seed(seed);
        s.mover = BRITISH;
        let a1 = put(&g, &mut s, BRITISH, Kind::Regular, "pastures");
        let a2 = put(&g, &mut s, BRITISH, Kind::Regular, "pastures");
        let m = militia(&g, &mut s, "breeds-slope-n", 1);
        s.units[m as usize].flags |= BROKEN | PANIC;
        let mm: Vec<u8> = (0..2)
            .map(|_| put(&g, &mut s, PATRIOT, Kind::Minuteman, "breeds-slope-n"))
            .collect();
        let (from, to) = (r(&g, "pastures"), r(&g, "breeds-slope-n"));
        act(&g, &mut s, Action::Volley { from, to });
        act(&g, &mut s, Action::Add(a1));
        act(&g, &mut s, Action::Add(a2));
        act(&g, &mut s, Action::Done);
        // The Patriot keeps the panicked unit alive by taking every hit on the Minutemen.
        while let Some(Task::Hits { .. }) = s.tasks.first() {
            let l = legal(&g, &s);
            let pick = mm
                .iter()
                .map(|u| Action::Hit(*u))
                .find(|a| l.contains(a))
                .unwrap_or(l[0]);
            act(&g, &mut s, pick);
        }
        assert_ne!(s.units[m as usize].at, REMOVED);
        // It runs: the Patriot picks each destination until it has gone three regions.
        while matches!(
            s.tasks.first(),
            Some(Task::Flee { .. } | Task::Scatter { .. })
        ) {
            let a = legal(&g, &s)[0];
            act(&g, &mut s, a);
        }
        if s.units[m as usize].at != to {
            ran += 1;
            let d = g.dist(s.units[m as usize].at, to);
            assert!(
                s.units[m as usize].at == MUSTER || d >= 3,
                "three regions away (or home), got {d}"
            );
        }
    }
    assert_eq!(ran, 12, "every surviving panicked unit runs");
}

#[test]
fn rule_9_1_only_regions_where_militia_touches_british_units_check_for_panic() {
    let g = game();
    let mut s = empty(&g);
    militia(&g, &mut s, "breeds-slope-n", 1);
    militia(&g, &mut s, "bunker-c", 1);
    put(&g, &mut s, BRITISH, Kind::Regular, "pastures");
    s.morale = [12, 24];
    let mut ev = Vec::new();
    g.begin_turn_2(&mut s, &mut ev);
    assert_eq!(s.phase, Phase::Panic);
    assert_eq!(
        legal(&g, &s),
        vec![Action::PanicAt(r(&g, "breeds-slope-n"))],
        "bunker-c has no British neighbour"
    );
    // Above 12 there is no check at all.
    let mut t = empty(&g);
    militia(&g, &mut t, "breeds-slope-n", 1);
    put(&g, &mut t, BRITISH, Kind::Regular, "pastures");
    t.morale = [13, 24];
    g.begin_turn_2(&mut t, &mut ev);
    assert_ne!(t.phase, Phase::Panic);
}

// ----- 6.2 / 7.1: a fall-back during an assault -----

/// Three Regulars on the east ridge assault two Minutemen in the slough; the Patriot keeps
/// his men and holds the free fire, so after the free round three attackers face two.
fn ridge_assault(
    g: &muster_revolution_road::Bunker,
    defenders: usize,
) -> (State, Vec<u8>, Vec<u8>) {
    let mut s = empty(g);
    s.mover = BRITISH;
    let regs: Vec<u8> = (0..3)
        .map(|_| put(g, &mut s, BRITISH, Kind::Regular, "ridge-e"))
        .collect();
    let mm: Vec<u8> = (0..defenders)
        .map(|_| put(g, &mut s, PATRIOT, Kind::Minuteman, "slough"))
        .collect();
    act(
        g,
        &mut s,
        Action::Assault {
            from: r(g, "ridge-e"),
            to: r(g, "slough"),
        },
    );
    for u in &regs {
        act(g, &mut s, Action::Add(*u));
    }
    act(g, &mut s, Action::Done);
    // 7.1: the Patriot may withdraw before combat; he stays.
    assert_eq!(
        s.phase,
        Phase::Assault {
            stage: Stage::Withdraw
        }
    );
    act(g, &mut s, Action::Done);
    // 8.0: he holds the free defensive fire, so nobody is hit in the free round.
    act(g, &mut s, Action::Fire(0));
    take_hits(g, &mut s);
    assert_eq!(
        s.phase,
        Phase::Assault {
            stage: Stage::AttBack
        }
    );
    assert_eq!(s.fight.round, 1);
    (s, regs, mm)
}

#[test]
fn rule_7_1_a_partial_fall_back_that_leaves_too_few_attackers_ends_the_assault() {
    // 6.2: whenever the attacker has fewer healthy units in the region than the defender,
    // the assault is over and the attacker goes back where he came from; 7.1 lets him fall
    // back with some units after a round, and doing so can bring that about at once.
    let g = game();
    let (mut s, regs, mm) = ridge_assault(&g, 2);
    act(&g, &mut s, Action::Add(regs[0]));
    act(&g, &mut s, Action::Add(regs[1]));
    let ev = apply(&g, &mut s, Action::Done);
    assert!(
        dice_of(&ev).is_empty(),
        "no further round is fought: {:?}",
        dice_of(&ev)
    );
    assert_eq!(s.fight.round, 1, "the assault ended after the free round");
    assert!(
        ev.iter().any(|e| matches!(
            e,
            Event::AssaultEnds {
                attacker_won: false
            }
        )),
        "the assault is thrown back"
    );
    assert_eq!(s.phase, Phase::Main);
    let ridge = r(&g, "ridge-e");
    for u in &regs {
        let x = s.units[*u as usize];
        assert_eq!(x.at, ridge, "every attacker is back on the ridge");
        assert!(
            x.has(MOVED) && x.has(FIRED),
            "6.2: Moved/Fired on the attackers"
        );
    }
    let slough = r(&g, "slough");
    for u in &mm {
        let x = s.units[*u as usize];
        assert_eq!(x.at, slough, "the defenders hold the slough");
        assert!(x.has(FIRED), "6.2: Fired on the defenders");
    }
}

#[test]
fn rule_7_1_after_a_partial_fall_back_the_defender_may_still_retreat() {
    // 7.1: after each round either side may retreat some or all of its counters. When the
    // attacker's partial fall-back still leaves him enough units, the defender is asked next,
    // before any further round is rolled.
    let g = game();
    let (mut s, regs, mm) = ridge_assault(&g, 1);
    act(&g, &mut s, Action::Add(regs[0]));
    let ev = apply(&g, &mut s, Action::Done);
    assert!(
        dice_of(&ev).is_empty(),
        "no round before the defender decides"
    );
    assert_eq!(
        s.phase,
        Phase::Assault {
            stage: Stage::DefBack
        }
    );
    assert_eq!(g.to_act(&s), Some(PATRIOT));
    assert!(legal(&g, &s).contains(&Action::Add(mm[0])));
    assert_eq!(s.units[regs[0] as usize].at, r(&g, "ridge-e"));
    // Standing, the defender gets the next round fought: both sides roll.
    let ev = apply(&g, &mut s, Action::Done);
    assert_eq!(dice_of(&ev).len(), 2, "one round, both sides roll once");
    assert_eq!(s.fight.round, 2);
}

// ----- 9.2 / 6.8: demoralized militia and Reorganize the Line -----

#[test]
fn rule_9_2_demoralized_militia_reorganize_only_toward_the_muster_box() {
    // 9.2: once the Patriot is demoralized, militia that move may only go toward the Muster
    // Box; a Reorganize the Line shift (6.8) is a move (it earns a Moved marker), so it obeys
    // the same restriction (ruling B60). Minutemen are unaffected by demoralization.
    let g = game();
    let mut s = empty(&g);
    s.demoralized = [true, false];
    s.morale = [0, 24];
    let (neck, slope, top) = (r(&g, "neck"), r(&g, "bunker-slope-n"), r(&g, "bunker-c"));
    assert!(g.muster_dist(neck) < g.muster_dist(slope));
    assert!(g.muster_dist(top) > g.muster_dist(slope));
    let m = militia(&g, &mut s, "bunker-slope-n", 1);
    let pair = |x: u8, y: u8| Action::Reorg {
        a: x.min(y),
        b: x.max(y),
    };
    let l = legal(&g, &s);
    assert!(l.contains(&pair(neck, slope)), "toward the Muster Box");
    assert!(
        !l.contains(&pair(slope, top)),
        "a lone demoralized militia cannot be reorganized away from the Muster Box"
    );
    // With a Minuteman beside it, the pair is open, but only the Minuteman may go uphill.
    let mm = put(&g, &mut s, PATRIOT, Kind::Minuteman, "bunker-slope-n");
    act(&g, &mut s, pair(slope, top));
    let l = legal(&g, &s);
    assert!(l.contains(&Action::Add(mm)));
    assert!(!l.contains(&Action::Add(m)), "{l:?}");
    let side = g.to_act(&s).unwrap();
    assert!(g.apply(&mut s.clone(), side, Action::Add(m)).is_err());
    // Coming down the other way is allowed.
    let mut t = empty(&g);
    t.demoralized = [true, false];
    t.morale = [0, 24];
    let m2 = militia(&g, &mut t, "bunker-c", 1);
    act(&g, &mut t, pair(slope, top));
    act(&g, &mut t, Action::Add(m2));
    act(&g, &mut t, Action::Done);
    assert_eq!(t.units[m2 as usize].at, slope);
    assert!(t.units[m2 as usize].has(MOVED));
    // Not demoralized, the same militia may go uphill.
    let mut u = empty(&g);
    let m3 = militia(&g, &mut u, "bunker-slope-n", 1);
    act(&g, &mut u, pair(slope, top));
    act(&g, &mut u, Action::Add(m3));
    act(&g, &mut u, Action::Done);
    assert_eq!(u.units[m3 as usize].at, top);
}

// ----- issue 19 review: sentences of Part Two that no test checked yet -----

fn has(l: &[Action], f: impl Fn(&Action) -> bool) -> bool {
    l.iter().any(f)
}

#[test]
fn rule_2_0_each_side_takes_only_the_actions_flagged_for_it() {
    // 2.0 / 6.0: Bombard, Naval Move and Land Troops are British actions; Snipe is Patriot.
    let g = game();
    let mut s = empty(&g);
    put(&g, &mut s, BRITISH, Kind::Regular, "town-dock");
    put(&g, &mut s, BRITISH, Kind::Regular, "zone-4");
    put(&g, &mut s, PATRIOT, Kind::Minuteman, "town-7");
    put(&g, &mut s, PATRIOT, Kind::Minuteman, "town-7");
    let p = legal(&g, &s);
    assert!(has(&p, |a| matches!(a, Action::Snipe(_))), "{p:?}");
    assert!(!has(&p, |a| matches!(
        a,
        Action::Bombard | Action::Naval(_) | Action::Land { .. }
    )));
    s.mover = BRITISH;
    let b = legal(&g, &s);
    assert!(has(&b, |a| matches!(a, Action::Bombard)));
    assert!(has(&b, |a| matches!(a, Action::Naval(_))));
    assert!(has(&b, |a| matches!(a, Action::Land { .. })));
    assert!(!has(&b, |a| matches!(a, Action::Snipe(_))));
}

#[test]
fn rule_2_0_the_discards_are_reshuffled_when_the_deck_runs_out() {
    let g = game();
    let mut s = empty(&g);
    while let Some(c) = s.deck.draw.pop() {
        s.deck.discard.push(c);
    }
    assert_eq!(s.deck.discard.len(), 10);
    let mut ev = Vec::new();
    g.begin_turn_2(&mut s, &mut ev);
    assert!(ev.iter().any(|e| matches!(e, Event::Card { .. })));
    assert_eq!(
        (s.deck.draw.len(), s.deck.discard.len()),
        (9, 1),
        "the discards became the deck and one card was drawn"
    );
}

#[test]
fn rule_3_2_the_muster_box_is_never_a_target_and_closed_to_the_british() {
    let g = game();
    let mut s = empty(&g);
    s.mover = BRITISH;
    for _ in 0..5 {
        put(&g, &mut s, PATRIOT, Kind::Minuteman, "muster");
    }
    assert!(g.cap(PATRIOT, MUSTER) >= 21, "any number of Patriot pieces");
    let b = put(&g, &mut s, BRITISH, Kind::Regular, "neck");
    put(&g, &mut s, BRITISH, Kind::Regular, "neck");
    let l = legal(&g, &s);
    assert!(
        !has(
            &l,
            |a| matches!(a, Action::Volley { to, .. } | Action::Assault { to, .. } if *to == MUSTER)
        ),
        "{l:?}"
    );
    act(&g, &mut s, Action::Move(r(&g, "neck")));
    assert!(!legal(&g, &s).contains(&Action::Go {
        unit: b,
        to: MUSTER
    }));
}

#[test]
fn rule_3_3_defenders_in_a_town_region_roll_one_more_die() {
    let g = game();
    let mut s = empty(&g);
    s.mover = BRITISH;
    let a = put(&g, &mut s, BRITISH, Kind::Regular, "breeds-slope-w");
    put(&g, &mut s, PATRIOT, Kind::Minuteman, "town-3");
    let (from, to) = (r(&g, "breeds-slope-w"), r(&g, "town-3"));
    assert!(!g.terrain_applies(from, to), "no printed modifier in town");
    act(&g, &mut s, Action::Assault { from, to });
    act(&g, &mut s, Action::Add(a));
    act(&g, &mut s, Action::Done);
    while s.phase
        == (Phase::Assault {
            stage: Stage::Withdraw,
        })
    {
        act(&g, &mut s, Action::Done);
    }
    let ev = apply(&g, &mut s, Action::Fire(5));
    assert_eq!(dice_of(&ev), vec![(2, 5)], "1 strength + 1 in town");
}

#[test]
fn rule_3_5_patriot_pieces_never_enter_a_landing_zone() {
    let g = game();
    let mut s = empty(&g);
    let m = put(&g, &mut s, PATRIOT, Kind::Minuteman, "point-n");
    let z = r(&g, "zone-2");
    assert!(g.data.map.regions[r(&g, "point-n") as usize].adj >> z & 1 == 1);
    act(&g, &mut s, Action::Move(r(&g, "point-n")));
    let l = legal(&g, &s);
    assert!(has(
        &l,
        |a| matches!(a, Action::Go { unit, .. } if *unit == m)
    ));
    assert!(!l.contains(&Action::Go { unit: m, to: z }));
}

#[test]
fn rule_4_1_broken_british_units_without_a_leader_only_move_toward_their_staging_area() {
    let g = game();
    let mut s = empty(&g);
    s.mover = BRITISH;
    let from = r(&g, "breeds-s");
    let b = put(&g, &mut s, BRITISH, Kind::Regular, "breeds-s");
    s.units[b as usize].flags |= BROKEN;
    act(&g, &mut s, Action::Move(from));
    let here = g.data.map.staging_dist[from as usize];
    let dests: Vec<u8> = legal(&g, &s)
        .iter()
        .filter_map(|a| match a {
            Action::Go { to, .. } => Some(*to),
            _ => None,
        })
        .collect();
    assert!(!dests.is_empty());
    for to in &dests {
        assert!(
            g.data.map.staging_dist[*to as usize] < here,
            "{} is not toward a staging area",
            g.region_id(*to)
        );
    }
    // With a leader beside it the unit may go elsewhere too.
    let mut t = empty(&g);
    t.mover = BRITISH;
    let b = put(&g, &mut t, BRITISH, Kind::Regular, "breeds-s");
    t.units[b as usize].flags |= BROKEN;
    put(&g, &mut t, BRITISH, Kind::Leader, "breeds-s");
    act(&g, &mut t, Action::Move(from));
    assert!(has(&legal(&g, &t), |a| matches!(
        a,
        Action::Go { unit, to } if *unit == b && g.data.map.staging_dist[*to as usize] >= here
    )));
}

#[test]
fn rule_4_1_strengths_marines_three_cannon_two_damaged_cannon_one() {
    let g = game();
    let fire = |kind: Kind, damaged: bool| {
        let mut s = empty(&g);
        s.mover = BRITISH;
        s.ammo_arrived = true;
        let u = put(&g, &mut s, BRITISH, kind, "pastures");
        if damaged {
            s.units[u as usize].flags |= BROKEN;
        }
        put(&g, &mut s, PATRIOT, Kind::Minuteman, "breeds-slope-n");
        act(
            &g,
            &mut s,
            Action::Volley {
                from: r(&g, "pastures"),
                to: r(&g, "breeds-slope-n"),
            },
        );
        act(&g, &mut s, Action::Add(u));
        dice_of(&apply(&g, &mut s, Action::Done))
    };
    // The slope's volley modifier is 0, so the dice are the strength.
    assert_eq!(fire(Kind::Regular, false), vec![(2, 5)]);
    assert_eq!(fire(Kind::Marine, false), vec![(3, 5)]);
    assert_eq!(fire(Kind::Cannon, false), vec![(2, 5)]);
    assert_eq!(fire(Kind::Cannon, true), vec![(1, 5)]);
}

#[test]
fn rule_4_1_cannon_count_for_stacking_and_are_never_rallied() {
    let g = game();
    let mut s = empty(&g);
    put(&g, &mut s, PATRIOT, Kind::Cannon, "redoubt");
    put(&g, &mut s, PATRIOT, Kind::Minuteman, "redoubt");
    put(&g, &mut s, PATRIOT, Kind::Minuteman, "redoubt");
    let m = put(&g, &mut s, PATRIOT, Kind::Minuteman, "breeds-s");
    act(&g, &mut s, Action::Move(r(&g, "breeds-s")));
    assert!(
        !legal(&g, &s).contains(&Action::Go {
            unit: m,
            to: r(&g, "redoubt")
        }),
        "two Minutemen and a cannon fill the Redoubt"
    );
    // 4.1 / 6.7: a damaged cannon with a leader beside it offers no Rally.
    let mut t = empty(&g);
    let c = put(&g, &mut t, PATRIOT, Kind::Cannon, "redoubt");
    t.units[c as usize].flags |= BROKEN;
    put(&g, &mut t, PATRIOT, Kind::Leader, "redoubt");
    assert!(!legal(&g, &t).contains(&Action::Rally(r(&g, "redoubt"))));
}

#[test]
fn rule_4_2_wounded_leaders_are_never_flipped_back() {
    let g = game();
    let mut s = empty(&g);
    let w = put(&g, &mut s, PATRIOT, Kind::Leader, "redoubt");
    s.units[w as usize].flags |= BROKEN;
    put(&g, &mut s, PATRIOT, Kind::Leader, "redoubt");
    let m = put(&g, &mut s, PATRIOT, Kind::Minuteman, "redoubt");
    s.units[m as usize].flags |= BROKEN;
    act(&g, &mut s, Action::Rally(r(&g, "redoubt")));
    let l = legal(&g, &s);
    assert!(l.contains(&Action::Add(m)));
    assert!(!l.contains(&Action::Add(w)), "{l:?}");
}

#[test]
fn rule_4_3_the_ammo_roll_starts_on_turn_four_and_needs_ten() {
    let g = game();
    let mut ev = Vec::new();
    let mut s = empty(&g);
    s.turn = 3;
    g.begin_turn_2(&mut s, &mut ev);
    assert!(!ev.iter().any(|e| matches!(e, Event::AmmoRoll { .. })));
    assert!(!s.ammo_arrived);
    let mut seen = [false; 2];
    for seed in 0..40u64 {
        let mut t = empty(&g);
        t.dice = muster_core::Dice::from_seed(seed);
        t.turn = 4;
        let mut ev = Vec::new();
        g.begin_turn_2(&mut t, &mut ev);
        let (die, arrived) = ev
            .iter()
            .find_map(|e| match e {
                Event::AmmoRoll { die, arrived } => Some((*die, *arrived)),
                _ => None,
            })
            .expect("a roll from turn 4");
        assert_eq!(arrived, die + 4 >= 10);
        assert_eq!(t.ammo_arrived, arrived);
        seen[arrived as usize] = true;
        if arrived {
            // Once arrived it stays: no roll on later turns.
            t.turn = 5;
            let mut ev = Vec::new();
            g.begin_turn_2(&mut t, &mut ev);
            assert!(!ev.iter().any(|e| matches!(e, Event::AmmoRoll { .. })));
            assert!(t.ammo_arrived);
        }
    }
    assert_eq!(seen, [true, true], "both outcomes seen");
}

#[test]
fn rule_4_4_copps_hill_battery_fires_only_into_its_range_and_never_moves() {
    let g = game();
    let mut s = empty(&g);
    s.mover = BRITISH;
    let (red, top) = (r(&g, "redoubt"), r(&g, "bunker-c"));
    assert!(g.data.map.copps >> red & 1 == 1);
    assert!(g.data.map.copps >> top & 1 == 0, "Bunker Hill is darkened");
    for at in ["redoubt", "redoubt", "bunker-c", "bunker-c"] {
        put(&g, &mut s, PATRIOT, Kind::Minuteman, at);
    }
    let battery = s
        .units
        .iter()
        .position(|u| u.kind == Kind::Battery)
        .unwrap();
    let l = legal(&g, &s);
    assert!(!has(&l, |a| matches!(a, Action::Move(x) if *x == COPPS)));
    act(&g, &mut s, Action::Bombard);
    // The fleet fires (or holds) first, then the battery, each on its own target.
    act(&g, &mut s, Action::Hold);
    assert_eq!(s.phase, Phase::Bombard { which: 1 });
    let l = legal(&g, &s);
    assert!(l.contains(&Action::Shell(red)));
    assert!(!l.contains(&Action::Shell(top)));
    for a in &l {
        if let Action::Shell(x) | Action::HotShot(x) = a {
            assert!(g.data.map.copps >> x & 1 == 1);
        }
    }
    act(&g, &mut s, Action::Shell(red));
    assert!(!s.units[battery].has(FIRED), "6.4: no Fired marker");
    assert_eq!(s.units[battery].at, COPPS);
}

#[test]
fn rule_6_4_the_fleet_fires_only_into_the_target_area_of_its_box() {
    let g = game();
    for fleet in 0..3u8 {
        let mut s = empty(&g);
        s.mover = BRITISH;
        s.fleet = fleet;
        // Two healthy Patriot counters in every land region, as far as they go.
        for x in 0..g.data.map.n() as u8 {
            if g.data.map.land >> x & 1 == 1 && !g.is_zone(x) && x != MUSTER {
                for _ in 0..2 {
                    if let Some(i) = s
                        .units
                        .iter()
                        .position(|u| u.side == PATRIOT && u.at == UNUSED && u.kind == Kind::Leader)
                        .or_else(|| {
                            s.units.iter().position(|u| {
                                u.side == PATRIOT && u.at == UNUSED && u.kind.military()
                            })
                        })
                    {
                        s.units[i].at = x;
                        s.units[i].flags &= !HIDDEN;
                    }
                }
            }
        }
        let pairs = g.patriot_pairs(&s);
        act(&g, &mut s, Action::Bombard);
        let area = g.data.map.fleet[fleet as usize].targets;
        let shells: u64 = legal(&g, &s)
            .iter()
            .filter_map(|a| match a {
                Action::Shell(x) => Some(1u64 << x),
                _ => None,
            })
            .fold(0, |m, b| m | b);
        assert_eq!(shells, area & pairs, "fleet box {fleet}");
        assert_ne!(shells, 0);
    }
}

#[test]
fn rule_4_10_a_counter_moves_once_and_fires_once_a_turn() {
    let g = game();
    let mut s = empty(&g);
    s.actions = [3, 0];
    let m = put(&g, &mut s, PATRIOT, Kind::Minuteman, "breeds-s");
    act(&g, &mut s, Action::Move(r(&g, "breeds-s")));
    act(
        &g,
        &mut s,
        Action::Go {
            unit: m,
            to: r(&g, "redoubt"),
        },
    );
    act(&g, &mut s, Action::Done);
    assert!(s.units[m as usize].has(MOVED));
    assert!(
        !legal(&g, &s).contains(&Action::Move(r(&g, "redoubt"))),
        "moved once this turn"
    );
    let f = put(&g, &mut s, PATRIOT, Kind::Minuteman, "works-s");
    s.units[f as usize].flags |= FIRED;
    put(&g, &mut s, BRITISH, Kind::Regular, "breeds-slope-n");
    assert!(
        !has(
            &legal(&g, &s),
            |a| matches!(a, Action::Volley { from, .. } if *from == r(&g, "works-s"))
        ),
        "fired once this turn"
    );
    // 5.3: the markers go at the end of the turn, and both may act again.
    let mut ev = Vec::new();
    g.end_turn(&mut s, &mut ev);
    assert!(!s.units[m as usize].has(MOVED) && !s.units[f as usize].has(FIRED));
    s.tasks.clear();
    s.actions = [3, 3];
    s.mover = PATRIOT;
    let l = legal(&g, &s);
    assert!(l.contains(&Action::Move(r(&g, "redoubt"))));
    assert!(has(
        &l,
        |a| matches!(a, Action::Volley { from, .. } if *from == r(&g, "works-s"))
    ));
}

#[test]
fn rule_5_1_actions_come_from_the_card_one_fewer_when_demoralized() {
    let g = game();
    let s0 = empty(&g);
    for demoralized in [[false, false], [true, false], [false, true]] {
        let mut s = s0.clone();
        s.demoralized = demoralized;
        let mut ev = Vec::new();
        g.begin_turn_2(&mut s, &mut ev);
        let (p, b) = ev
            .iter()
            .find_map(|e| match e {
                Event::Card {
                    patriot, british, ..
                } => Some((*patriot, *british)),
                _ => None,
            })
            .expect("a card is drawn");
        let less = |v: u8, d: bool| if d { v.saturating_sub(1) } else { v };
        assert_eq!(
            s.actions,
            [less(p, demoralized[0]), less(b, demoralized[1])],
            "{demoralized:?}"
        );
    }
}

#[test]
fn rule_5_2_the_side_with_more_actions_goes_first_ties_by_an_even_or_odd_die() {
    let g = game();
    let mut ev = Vec::new();
    for (actions, first) in [([3u8, 2u8], PATRIOT), ([2, 3], BRITISH)] {
        let mut s = empty(&g);
        s.actions = actions;
        g.begin_actions(&mut s, &mut ev);
        assert_eq!(s.mover, first);
    }
    let mut sides = [false; 2];
    for seed in 0..20u64 {
        let mut s = empty(&g);
        s.dice = muster_core::Dice::from_seed(seed);
        s.actions = [2, 2];
        let mut ev = Vec::new();
        g.begin_actions(&mut s, &mut ev);
        let die = ev
            .iter()
            .find_map(|e| match e {
                Event::First { die, .. } => Some(*die),
                _ => None,
            })
            .unwrap();
        assert!((1..=6).contains(&die));
        let want = if die % 2 == 0 { PATRIOT } else { BRITISH };
        assert_eq!(s.mover, want, "die {die}");
        sides[s.mover as usize] = true;
    }
    assert_eq!(sides, [true, true]);
}

#[test]
fn rule_5_2_reserve_actions_only_when_not_ahead_or_on_the_last_action() {
    let g = game();
    let mut s = empty(&g);
    put(&g, &mut s, PATRIOT, Kind::Minuteman, "redoubt");
    s.reserves = [1, 1];
    s.actions = [3, 2];
    assert!(
        !legal(&g, &s).contains(&Action::Reserve),
        "ahead: no reserve"
    );
    s.actions = [2, 2];
    assert!(legal(&g, &s).contains(&Action::Reserve));
    s.actions = [1, 0];
    assert!(legal(&g, &s).contains(&Action::Reserve), "the last action");
    // The action phase ends when the regular actions are spent, reserves or not.
    act(&g, &mut s, Action::Pass);
    assert_eq!(s.turn, 5, "the turn ended");
    assert_eq!(s.reserves, [1, 1], "unused reserves are kept");
}

#[test]
fn rule_6_12_pass_spends_an_action() {
    let g = game();
    let mut s = empty(&g);
    act(&g, &mut s, Action::Pass);
    assert_eq!(s.actions, [2, 3]);
    assert_eq!(s.mover, BRITISH);
    // 5.2: a player with no actions left only passes; the other spends the rest in a row.
    let mut t = empty(&g);
    t.actions = [3, 0];
    act(&g, &mut t, Action::Pass);
    assert_eq!((t.actions, t.mover), ([2, 0], PATRIOT));
    act(&g, &mut t, Action::Pass);
    assert_eq!((t.actions, t.mover), ([1, 0], PATRIOT));
}

#[test]
fn rule_5_3_only_healthy_leaders_remove_panic_and_not_at_zero_morale() {
    let g = game();
    for (wounded, morale, removed) in [(false, 5, true), (true, 5, false), (false, 0, false)] {
        let mut s = empty(&g);
        s.morale = [morale, 24];
        let m = put(&g, &mut s, PATRIOT, Kind::Minuteman, "redoubt");
        s.units[m as usize].flags |= BROKEN | PANIC;
        let l = put(&g, &mut s, PATRIOT, Kind::Leader, "redoubt");
        if wounded {
            s.units[l as usize].flags |= BROKEN;
        }
        let mut ev = Vec::new();
        g.end_turn(&mut s, &mut ev);
        assert_eq!(
            !s.units[m as usize].has(PANIC),
            removed,
            "wounded {wounded}, morale {morale}"
        );
    }
}

#[test]
fn rule_5_3_at_the_end_of_the_game_every_town_region_next_to_a_fire_may_catch() {
    let g = game();
    let mut s = empty(&g);
    let t5 = r(&g, "town-5");
    s.ablaze = 1 << t5;
    s.turn = s.last_turn;
    let exposed = g.data.map.regions[t5 as usize].adj & g.data.map.town & !s.ablaze;
    let mut ev = Vec::new();
    g.next_turn(&mut s, &mut ev);
    let mut rolled = 0u64;
    for e in &ev {
        match e {
            Event::Ablaze { region, die } => {
                assert!(*die >= 5);
                rolled |= 1 << region;
            }
            Event::NoFire { region, die } => {
                assert!(*die < 5);
                rolled |= 1 << region;
            }
            _ => {}
        }
    }
    assert_eq!(
        rolled, exposed,
        "one die for each unburnt neighbour, no more"
    );
    assert!(s.ended.is_some());
}

#[test]
fn rule_6_1_units_left_out_of_a_volley_may_fire_later_and_cannon_may_join() {
    let g = game();
    let mut s = empty(&g);
    s.actions = [3, 0];
    let a = put(&g, &mut s, PATRIOT, Kind::Minuteman, "works-s");
    let b = put(&g, &mut s, PATRIOT, Kind::Minuteman, "works-s");
    let c = put(&g, &mut s, PATRIOT, Kind::Cannon, "works-s");
    for _ in 0..3 {
        put(&g, &mut s, BRITISH, Kind::Marine, "breeds-slope-n");
    }
    let v = Action::Volley {
        from: r(&g, "works-s"),
        to: r(&g, "breeds-slope-n"),
    };
    act(&g, &mut s, v);
    act(&g, &mut s, Action::Add(a));
    act(&g, &mut s, Action::Done);
    take_hits(&g, &mut s);
    assert!(s.units[a as usize].has(FIRED));
    assert!(!s.units[b as usize].has(FIRED) && !s.units[c as usize].has(FIRED));
    act(&g, &mut s, v);
    let l = legal(&g, &s);
    assert!(l.contains(&Action::Add(b)) && l.contains(&Action::Add(c)));
    assert!(!l.contains(&Action::Add(a)), "it fired already");
    act(&g, &mut s, Action::Add(b));
    act(&g, &mut s, Action::Add(c));
    let ev = apply(&g, &mut s, Action::Done);
    assert_eq!(dice_of(&ev), vec![(3, 5)], "Minuteman 1 + cannon 2");
}

#[test]
fn rule_6_2_only_fresh_units_assault_and_broken_units_or_leaders_do_not_count() {
    let g = game();
    let assault = Action::Assault {
        from: r(&g, "pastures"),
        to: r(&g, "breeds-slope-n"),
    };
    let mut s = empty(&g);
    s.mover = BRITISH;
    let a = put(&g, &mut s, BRITISH, Kind::Regular, "pastures");
    put(&g, &mut s, BRITISH, Kind::Regular, "pastures");
    put(&g, &mut s, PATRIOT, Kind::Minuteman, "breeds-slope-n");
    put(&g, &mut s, PATRIOT, Kind::Minuteman, "breeds-slope-n");
    assert!(legal(&g, &s).contains(&assault));
    for flag in [MOVED, FIRED] {
        let mut t = s.clone();
        t.units[a as usize].flags |= flag;
        assert!(
            !legal(&g, &t).contains(&assault),
            "one fresh Regular against two"
        );
    }
    // One Regular against one healthy Minuteman, a broken one and two leaders.
    let mut t = empty(&g);
    t.mover = BRITISH;
    put(&g, &mut t, BRITISH, Kind::Regular, "pastures");
    put(&g, &mut t, PATRIOT, Kind::Minuteman, "breeds-slope-n");
    let br = put(&g, &mut t, PATRIOT, Kind::Minuteman, "breeds-slope-n");
    t.units[br as usize].flags |= BROKEN;
    put(&g, &mut t, PATRIOT, Kind::Leader, "breeds-slope-n");
    put(&g, &mut t, PATRIOT, Kind::Leader, "breeds-slope-n");
    assert!(legal(&g, &t).contains(&assault));
}

#[test]
fn rule_6_2_defenders_that_already_fired_still_defend_but_may_not_attack() {
    let g = game();
    let mut s = empty(&g);
    let m = put(&g, &mut s, PATRIOT, Kind::Minuteman, "breeds-slope-n");
    s.units[m as usize].flags |= FIRED;
    let a = put(&g, &mut s, BRITISH, Kind::Regular, "pastures");
    let l = legal(&g, &s);
    assert!(!has(&l, |x| matches!(
        x,
        Action::Volley { .. } | Action::Assault { .. }
    )));
    s.mover = BRITISH;
    act(
        &g,
        &mut s,
        Action::Assault {
            from: r(&g, "pastures"),
            to: r(&g, "breeds-slope-n"),
        },
    );
    act(&g, &mut s, Action::Add(a));
    act(&g, &mut s, Action::Done);
    while s.phase
        == (Phase::Assault {
            stage: Stage::Withdraw,
        })
    {
        act(&g, &mut s, Action::Done);
    }
    let ev = apply(&g, &mut s, Action::Fire(5));
    assert_eq!(dice_of(&ev), vec![(2, 5)], "1 strength + 1 for the slope");
}

#[test]
fn rule_6_3_cannon_of_different_regions_fire_separately_and_spend_no_ammunition() {
    let g = game();
    let mut s = empty(&g);
    s.mover = BRITISH;
    s.ammo_arrived = true;
    let c1 = put(&g, &mut s, BRITISH, Kind::Cannon, "pastures");
    let c2 = put(&g, &mut s, BRITISH, Kind::Cannon, "moultons");
    put(&g, &mut s, PATRIOT, Kind::Minuteman, "breeds-slope-n");
    put(&g, &mut s, PATRIOT, Kind::Minuteman, "breeds-slope-e");
    let (pa, mo) = (r(&g, "pastures"), r(&g, "moultons"));
    act(&g, &mut s, Action::Cannonade);
    let l = legal(&g, &s);
    let first = *l
        .iter()
        .find(|a| matches!(a, Action::Gun { from, .. } if *from == pa))
        .expect("the pastures gun has a target");
    assert!(has(
        &l,
        |a| matches!(a, Action::Gun { from, .. } if *from == mo)
    ));
    act(&g, &mut s, first);
    take_hits(&g, &mut s);
    let l = legal(&g, &s);
    assert!(!has(
        &l,
        |a| matches!(a, Action::Gun { from, .. } if *from == pa)
    ));
    assert!(
        has(&l, |a| matches!(a, Action::Gun { from, .. } if *from == mo)),
        "the other region's cannon still fire, at a target of their own"
    );
    assert!(l.contains(&Action::Done));
    assert!(s.units[c1 as usize].has(FIRED) && !s.units[c2 as usize].has(FIRED));
    // 8.0: a Patriot Cannonade costs no ammunition.
    let mut t = empty(&g);
    put(&g, &mut t, PATRIOT, Kind::Cannon, "redoubt");
    put(&g, &mut t, BRITISH, Kind::Regular, "breeds-slope-e");
    act(&g, &mut t, Action::Cannonade);
    let gun = *legal(&g, &t)
        .iter()
        .find(|a| matches!(a, Action::Gun { .. }))
        .unwrap();
    act(&g, &mut t, gun);
    assert!(t.units.iter().any(|u| u.side == PATRIOT && u.has(FIRED)));
    assert_eq!(t.ammo, 24);
}

#[test]
fn rule_6_4_a_counter_with_no_way_out_of_a_fire_is_destroyed() {
    let g = game();
    let mut s = empty(&g);
    let t5 = r(&g, "town-5");
    s.ablaze = g.data.map.regions[t5 as usize].adj & g.data.map.town;
    let m = put(&g, &mut s, PATRIOT, Kind::Minuteman, "town-5");
    let mut ev = Vec::new();
    g.set_ablaze(&mut s, t5, 6, &mut ev);
    g.run(&mut s, &mut ev);
    assert_eq!(s.units[m as usize].at, REMOVED);
    assert_eq!(s.morale[0], 23);
}

#[test]
fn rule_6_5_three_regions_leaders_four_stopping_next_to_unbroken_enemy_units() {
    let g = game();
    let neck = r(&g, "neck");
    let far = |s: &State, u: u8| {
        legal(&g, s)
            .iter()
            .filter_map(|a| match a {
                Action::Go { unit, to } if *unit == u && *to != MUSTER => Some(g.dist(neck, *to)),
                _ => None,
            })
            .max()
            .unwrap_or(0)
    };
    let mut s = empty(&g);
    let m = put(&g, &mut s, PATRIOT, Kind::Minuteman, "neck");
    let l = put(&g, &mut s, PATRIOT, Kind::Leader, "neck");
    act(&g, &mut s, Action::Move(neck));
    assert_eq!(far(&s, m), 3);
    assert_eq!(far(&s, l), 4);
    // Never through a region the unit would over-stack: with both neighbours of the Neck
    // full, a Minuteman can only go back to the Muster Box; a leader passes.
    let mut f = empty(&g);
    for at in ["bunker-slope-n", "bunker-slope-w"] {
        for _ in 0..3 {
            militia(&g, &mut f, at, 1);
        }
    }
    let m2 = put(&g, &mut f, PATRIOT, Kind::Minuteman, "neck");
    let l2 = put(&g, &mut f, PATRIOT, Kind::Leader, "neck");
    act(&g, &mut f, Action::Move(neck));
    let fl = legal(&g, &f);
    assert!(fl.contains(&Action::Go {
        unit: m2,
        to: MUSTER
    }));
    assert!(!has(
        &fl,
        |a| matches!(a, Action::Go { unit, to } if *unit == m2 && *to != MUSTER)
    ));
    assert_eq!(far(&f, l2), 4);
    // An unbroken Regular on Bunker's centre hilltop touches both regions next to the Neck.
    let dests = |kind: Kind, broken: bool| {
        let mut t = empty(&g);
        let m = put(&g, &mut t, PATRIOT, Kind::Minuteman, "neck");
        let e = put(&g, &mut t, BRITISH, kind, "bunker-c");
        if broken {
            t.units[e as usize].flags |= BROKEN;
        }
        act(&g, &mut t, Action::Move(neck));
        legal(&g, &t)
            .iter()
            .filter(|a| matches!(a, Action::Go { unit, to } if *unit == m && *to != MUSTER))
            .count()
    };
    assert_eq!(dests(Kind::Regular, false), 2, "stops on entering either");
    assert!(
        dests(Kind::Regular, true) > 2,
        "a broken unit does not stop it"
    );
    assert!(
        dests(Kind::Leader, false) > 2,
        "a leader alone does not stop it"
    );
}

#[test]
fn rule_6_7_a_leader_rallies_once_a_turn() {
    let g = game();
    let mut s = empty(&g);
    s.actions = [3, 0];
    put(&g, &mut s, PATRIOT, Kind::Leader, "redoubt");
    let a = put(&g, &mut s, PATRIOT, Kind::Minuteman, "redoubt");
    let b = put(&g, &mut s, PATRIOT, Kind::Minuteman, "redoubt");
    s.units[a as usize].flags |= BROKEN;
    s.units[b as usize].flags |= BROKEN;
    let red = r(&g, "redoubt");
    act(&g, &mut s, Action::Rally(red));
    act(&g, &mut s, Action::Add(a));
    act(&g, &mut s, Action::Done);
    assert!(s.units[b as usize].broken());
    assert!(
        !legal(&g, &s).contains(&Action::Rally(red)),
        "the leader has rallied this turn"
    );
    let mut ev = Vec::new();
    g.end_turn(&mut s, &mut ev);
    s.tasks.clear();
    s.actions = [3, 3];
    assert!(legal(&g, &s).contains(&Action::Rally(red)));
}

#[test]
fn rule_6_8_counters_with_a_moved_marker_stay_out_of_a_reorganization() {
    let g = game();
    let mut s = empty(&g);
    let a = put(&g, &mut s, PATRIOT, Kind::Minuteman, "redoubt");
    let b = put(&g, &mut s, PATRIOT, Kind::Minuteman, "redoubt");
    s.units[a as usize].flags |= MOVED;
    let (x, y) = (r(&g, "redoubt"), r(&g, "breeds-s"));
    act(
        &g,
        &mut s,
        Action::Reorg {
            a: x.min(y),
            b: x.max(y),
        },
    );
    let l = legal(&g, &s);
    assert!(l.contains(&Action::Add(b)));
    assert!(!l.contains(&Action::Add(a)));
}

#[test]
fn rule_6_9_snipe_rolls_one_die_and_spares_cannon_and_broken_units() {
    let g = game();
    let dock = r(&g, "town-dock");
    let mut s = empty(&g);
    put(&g, &mut s, BRITISH, Kind::Cannon, "town-dock");
    let br = put(&g, &mut s, BRITISH, Kind::Regular, "town-dock");
    s.units[br as usize].flags |= BROKEN;
    assert!(
        !legal(&g, &s).contains(&Action::Snipe(dock)),
        "no healthy target"
    );
    let ok = put(&g, &mut s, BRITISH, Kind::Regular, "town-dock");
    assert!(legal(&g, &s).contains(&Action::Snipe(dock)));
    let mut hit_seen = false;
    for seed in 0..30u64 {
        let mut t = s.clone();
        t.dice = muster_core::Dice::from_seed(seed);
        let ev = apply(&g, &mut t, Action::Snipe(dock));
        assert_eq!(dice_of(&ev), vec![(1, 5)]);
        assert_eq!(t.ammo, 24, "no ammunition spent");
        if let Some(Task::Hits { .. }) = t.tasks.first() {
            hit_seen = true;
            assert_eq!(legal(&g, &t), vec![Action::Hit(ok)]);
        }
    }
    assert!(hit_seen);
}

#[test]
fn rule_8_0_ammunition_and_morale_start_at_24() {
    let g = game();
    let s = g.new_game("standard", &Options::new(), 1).unwrap();
    assert_eq!(s.ammo, 24);
    assert_eq!(s.morale, [24, 24]);
    assert_eq!(s.fleet, 1, "4.5: the fleet starts in Boston Harbor");
}

#[test]
fn rule_9_2_demoralized_patriot_penalties() {
    let g = game();
    let mut s = empty(&g);
    s.demoralized = [true, false];
    s.morale = [0, 24];
    let top = r(&g, "bunker-c");
    let here = g.muster_dist(top);
    let m = militia(&g, &mut s, "bunker-c", 1);
    let mm = put(&g, &mut s, PATRIOT, Kind::Minuteman, "bunker-c");
    let l = put(&g, &mut s, PATRIOT, Kind::Leader, "bunker-c");
    let br = put(&g, &mut s, PATRIOT, Kind::Minuteman, "bunker-c");
    s.units[br as usize].flags |= BROKEN;
    let _ = l;
    // No Rally, no Plan.
    s.actions = [1, 1];
    let acts = legal(&g, &s);
    assert!(!acts.contains(&Action::Rally(top)));
    assert!(!acts.contains(&Action::Plan));
    // Militia move only toward the Muster Box; Minutemen are unaffected.
    act(&g, &mut s, Action::Move(top));
    let l2 = legal(&g, &s);
    for a in &l2 {
        if let Action::Go { unit, to } = a {
            if *unit == m {
                assert!(g.muster_dist(*to) < here);
            }
        }
    }
    assert!(has(
        &l2,
        |a| matches!(a, Action::Go { unit, to } if *unit == mm && g.muster_dist(*to) >= here)
    ));
    // No recovery.
    let mut ev = Vec::new();
    g.morale(&mut s, PATRIOT, 1, &mut ev);
    assert!(s.demoralized[0]);
    // Militia hit only on a 6: find dice with a 5 among them and count the hits.
    let mut checked = false;
    for seed in 0..60u64 {
        let mut t = empty(&g);
        t.demoralized = [true, false];
        t.morale = [0, 24];
        t.dice = muster_core::Dice::from_seed(seed);
        let m = militia(&g, &mut t, "works-s", 2);
        for _ in 0..3 {
            put(&g, &mut t, BRITISH, Kind::Marine, "breeds-slope-n");
        }
        let mut d = t.dice.clone();
        let faces = [d.d6(), d.d6()];
        if !faces.contains(&5) {
            continue;
        }
        act(
            &g,
            &mut t,
            Action::Volley {
                from: r(&g, "works-s"),
                to: r(&g, "breeds-slope-n"),
            },
        );
        act(&g, &mut t, Action::Add(m));
        let ev = apply(&g, &mut t, Action::Done);
        let hits = ev
            .iter()
            .find_map(|e| match e {
                Event::Roll { hits, dice, .. } => Some((*dice, *hits)),
                _ => None,
            })
            .unwrap();
        let sixes = faces.iter().filter(|f| **f == 6).count() as u8;
        assert_eq!(hits, (2, sixes), "faces {faces:?}");
        checked = true;
        break;
    }
    assert!(checked);
}

#[test]
fn rule_9_3_demoralized_british_defend_with_one_die_fewer() {
    let g = game();
    let mut s = empty(&g);
    s.demoralized = [false, true];
    s.morale = [24, 0];
    let m = put(&g, &mut s, PATRIOT, Kind::Minuteman, "breeds-slope-n");
    put(&g, &mut s, BRITISH, Kind::Regular, "pastures");
    let (from, to) = (r(&g, "breeds-slope-n"), r(&g, "pastures"));
    assert!(!g.terrain_applies(from, to));
    act(&g, &mut s, Action::Assault { from, to });
    act(&g, &mut s, Action::Add(m));
    let ev = apply(&g, &mut s, Action::Done);
    assert_eq!(dice_of(&ev), vec![(1, 5)], "2 strength - 1");
}

#[test]
fn rule_12_1_the_reinforcement_schedule() {
    let g = game();
    let s = g.new_game("standard", &Options::new(), 2).unwrap();
    let count = |side: u8, kind: Kind, at: u8, t: u8| {
        s.units
            .iter()
            .filter(|u| u.side == side && u.kind == kind && u.at == at && u.arrive == t)
            .count()
    };
    let z2 = g.zone_region(2);
    assert_eq!(count(BRITISH, Kind::Regular, z2, 0), 10);
    assert_eq!(count(BRITISH, Kind::Cannon, z2, 0), 2);
    assert_eq!(count(BRITISH, Kind::Leader, z2, 0), 2, "Gage and Pigot");
    assert_eq!(count(PATRIOT, Kind::Militia, MUSTER, 0), 3);
    assert_eq!(
        count(PATRIOT, Kind::Leader, MUSTER, 0),
        2,
        "Stark and Nixon"
    );
    let pm: Vec<usize> = (2..=5)
        .map(|t| count(PATRIOT, Kind::Militia, PENDING, t))
        .collect();
    assert_eq!(pm, vec![3, 3, 3, 4]);
    assert_eq!(
        count(PATRIOT, Kind::Leader, PENDING, 5),
        2,
        "Reed, Woodbridge"
    );
    assert_eq!(count(BRITISH, Kind::Regular, PENDING, 3), 5);
    assert_eq!(count(BRITISH, Kind::Marine, PENDING, 3), 2);
    assert_eq!(
        count(BRITISH, Kind::Leader, PENDING, 3),
        2,
        "Howe, Abercrombie"
    );
    assert_eq!(count(BRITISH, Kind::Regular, PENDING, 6), 4);
    assert_eq!(count(BRITISH, Kind::Marine, PENDING, 6), 2);
    assert_eq!(count(BRITISH, Kind::Leader, PENDING, 6), 1, "Clinton");
    // Patriot reinforcements enter the Muster Box at the start of their turn.
    let mut t = s.clone();
    t.turn = 2;
    t.phase = Phase::Main;
    let mut ev = Vec::new();
    g.begin_turn(&mut t, &mut ev);
    let arrived = t
        .units
        .iter()
        .filter(|u| u.kind == Kind::Militia && u.arrive == 2 && u.at == MUSTER)
        .count();
    assert_eq!(arrived, 3);
}

#[test]
fn rule_10_0_more_victory_points_win_even_when_demoralized() {
    let g = game();
    let mut s = empty(&g);
    s.demoralized = [false, true];
    let x = put(&g, &mut s, PATRIOT, Kind::Minuteman, "redoubt");
    s.units[x as usize].at = REMOVED;
    put(&g, &mut s, PATRIOT, Kind::Minuteman, "bunker-c");
    let vp = g.vp_halves(&s);
    assert!(vp[1] > vp[0]);
    let mut ev = Vec::new();
    g.end_game(&mut s, 0, &mut ev);
    assert_eq!(s.ended.unwrap().winner, BRITISH);
}

#[test]
fn rule_7_1_a_retreat_goes_one_region_further_only_when_stacking_forces_it() {
    let g = game();
    let setup = |fill: bool| {
        let mut s = empty(&g);
        s.mover = BRITISH;
        let regs: Vec<u8> = (0..2)
            .map(|_| put(&g, &mut s, BRITISH, Kind::Regular, "pastures"))
            .collect();
        let m = put(&g, &mut s, PATRIOT, Kind::Minuteman, "breeds-slope-n");
        if fill {
            // The rear regions of breeds-slope-n against an assault from the pastures.
            for at in ["works-s", "redoubt", "rail-fence"] {
                for _ in 0..3 {
                    militia(&g, &mut s, at, 1);
                }
            }
        }
        act(
            &g,
            &mut s,
            Action::Assault {
                from: r(&g, "pastures"),
                to: r(&g, "breeds-slope-n"),
            },
        );
        for u in &regs {
            act(&g, &mut s, Action::Add(*u));
        }
        act(&g, &mut s, Action::Done);
        act(&g, &mut s, Action::Add(m));
        act(&g, &mut s, Action::Done);
        let dests: Vec<u8> = legal(&g, &s)
            .iter()
            .filter_map(|a| match a {
                Action::Dest(x) => Some(*x),
                _ => None,
            })
            .collect();
        dests
    };
    let slope = r(&g, "breeds-slope-n");
    let near = setup(false);
    assert!(!near.is_empty());
    for d in &near {
        assert!(g.data.map.adjacent(slope, *d), "a rear region next door");
    }
    let far = setup(true);
    assert!(!far.is_empty(), "somewhere one region further");
    let pastures = r(&g, "pastures");
    for d in &far {
        assert!(
            !g.data.map.adjacent(slope, *d) && *d != slope,
            "{} is not beyond the full rear regions",
            g.region_id(*d)
        );
        assert!(
            *d == MUSTER || g.dist(pastures, *d) >= 2,
            "{} is back next to the attackers' region",
            g.region_id(*d)
        );
    }
}

#[test]
fn rule_6_2_the_winner_stays_in_the_region() {
    let g = game();
    let mut s = empty(&g);
    s.mover = BRITISH;
    let a = put(&g, &mut s, BRITISH, Kind::Regular, "pastures");
    let m = put(&g, &mut s, PATRIOT, Kind::Minuteman, "breeds-slope-n");
    s.units[m as usize].flags |= BROKEN;
    let slope = r(&g, "breeds-slope-n");
    act(
        &g,
        &mut s,
        Action::Assault {
            from: r(&g, "pastures"),
            to: slope,
        },
    );
    act(&g, &mut s, Action::Add(a));
    act(&g, &mut s, Action::Done);
    act(&g, &mut s, Action::Done); // no withdrawal
    act(&g, &mut s, Action::Fire(0));
    take_hits(&g, &mut s);
    act(&g, &mut s, Action::Done); // the attacker stays
    assert_eq!(g.to_act(&s), Some(PATRIOT));
    act(&g, &mut s, Action::Add(m));
    act(&g, &mut s, Action::Done);
    let dest = legal(&g, &s)[0];
    let ev = apply(&g, &mut s, dest);
    assert!(
        ev.iter()
            .any(|e| matches!(e, Event::AssaultEnds { attacker_won: true }))
    );
    assert_eq!(s.units[a as usize].at, slope, "the winner holds the region");
    assert!(s.units[a as usize].has(MOVED) && s.units[a as usize].has(FIRED));
    assert_ne!(s.units[m as usize].at, slope);
}

#[test]
fn rule_6_4_hot_shot_sets_a_town_region_ablaze_on_four_to_six_once_a_turn() {
    let g = game();
    let t7 = r(&g, "town-7");
    let mut seen = [false; 2];
    for seed in 0..30u64 {
        let mut s = empty(&g);
        s.dice = muster_core::Dice::from_seed(seed);
        s.mover = BRITISH;
        act(&g, &mut s, Action::Bombard);
        let first = legal(&g, &s)
            .into_iter()
            .find(|a| matches!(a, Action::HotShot(_)))
            .expect("a town region to set ablaze");
        let Action::HotShot(x) = first else {
            unreachable!()
        };
        let ev = apply(&g, &mut s, first);
        assert!(dice_of(&ev).is_empty(), "one die, no dice pool");
        let lit = ev.iter().find_map(|e| match e {
            Event::Ablaze { region, die } if *region == x => Some((true, *die)),
            Event::NoFire { region, die } if *region == x => Some((false, *die)),
            _ => None,
        });
        let (lit, die) = lit.expect("the Hot Shot die");
        assert_eq!(lit, die >= 4);
        assert_eq!(s.ablaze >> x & 1 == 1, lit);
        seen[lit as usize] = true;
        if lit {
            assert!(
                !has(&legal(&g, &s), |a| matches!(a, Action::HotShot(_))),
                "one Ablaze marker a turn from Bombard"
            );
        }
    }
    assert_eq!(seen, [true, true]);
    let _ = t7;
}

/// An empty position with `region` ablaze and the dice seeded by `seed`, taken through the end
/// of the turn (5.3): the position after it and the events it made.
fn end_turn_with_fire_in(
    g: &muster_revolution_road::Bunker,
    region: u8,
    seed: u64,
) -> (State, Vec<Event>) {
    let mut s = empty(g);
    s.dice = muster_core::Dice::from_seed(seed);
    s.ablaze = 1 << region;
    let mut ev = Vec::new();
    g.end_turn(&mut s, &mut ev);
    (s, ev)
}

#[test]
fn rule_5_3_the_british_choose_where_a_fire_spreads() {
    let g = game();
    let t5 = r(&g, "town-5");
    let open = g.data.map.regions[t5 as usize].adj & g.data.map.town;
    for seed in 0..30u64 {
        let (mut s, _) = end_turn_with_fire_in(&g, t5, seed);
        if !matches!(s.tasks.first(), Some(Task::Spread { .. })) {
            continue;
        }
        assert_eq!(g.to_act(&s), Some(BRITISH));
        let l = legal(&g, &s);
        let offered = l
            .iter()
            .filter_map(|a| match a {
                Action::Spread(x) => Some(1u64 << x),
                _ => None,
            })
            .fold(0, |m, b| m | b);
        assert_eq!(offered, open, "any unburnt neighbouring town region");
        act(&g, &mut s, l[l.len() - 1]);
        assert_eq!(s.ablaze.count_ones(), 2);
        return;
    }
    panic!("no seed spread the fire");
}

#[test]
fn rule_5_3_the_spread_die_is_logged_as_a_roll_before_the_british_choose_where() {
    // 5.3: the die of a burning region is rolled at the end of the turn, and the British then
    // choose where a fire of 5-6 goes. The roll is a chance entry of the log, made before the
    // choice (found by `irreversible_marks_read_nothing_hidden`: a spreading roll was silent,
    // so the action ending the turn looked as if undo could take it back).
    let g = game();
    let t5 = r(&g, "town-5");
    let mut seen = [false, false];
    for seed in 0..40u64 {
        let (s, ev) = end_turn_with_fire_in(&g, t5, seed);
        let spreads = matches!(s.tasks.first(), Some(Task::Spread { .. }));
        let roll = ev
            .iter()
            .find(|e| matches!(e, Event::SpreadRoll { from, .. } if *from == t5))
            .expect("the die of the burning region is logged");
        let Event::SpreadRoll {
            die, spreads: said, ..
        } = *roll
        else {
            unreachable!()
        };
        assert_eq!(said, spreads);
        assert_eq!(spreads, die >= 5);
        let entry = g.describe(&s, roll);
        assert!(entry.chance, "a die roll: undo cannot take it back");
        assert!(
            entry.text.contains(muster_core::words::face(die)),
            "{}",
            entry.text
        );
        assert!(
            entry.text.contains(&g.data.map.regions[t5 as usize].name),
            "{}",
            entry.text
        );
        seen[spreads as usize] = true;
    }
    assert_eq!(seen, [true, true], "both outcomes tried");
}

#[test]
fn rule_10_0_the_vp_aid_pays_for_broken_destroyed_wounded_and_killed() {
    let g = game();
    let mut s = empty(&g);
    let u = put(&g, &mut s, BRITISH, Kind::Regular, "pastures");
    let l = put(&g, &mut s, BRITISH, Kind::Leader, "pastures");
    let base = g.vp_halves(&s)[0];
    s.units[u as usize].flags |= BROKEN;
    assert_eq!(g.vp_halves(&s)[0], base + 1, "half a point while broken");
    s.units[u as usize].at = REMOVED;
    assert_eq!(g.vp_halves(&s)[0], base + 2, "one point destroyed");
    s.units[l as usize].flags |= BROKEN;
    assert_eq!(g.vp_halves(&s)[0], base + 3, "half a point while wounded");
    s.units[l as usize].at = REMOVED;
    assert_eq!(g.vp_halves(&s)[0], base + 6, "two points killed");
}

#[test]
fn rule_4_1_broken_units_without_a_leader_reorganize_only_toward_the_rear() {
    // 4.1: a broken unit moving without a leader goes only toward the Neck (the British:
    // toward their staging area). A Reorganize the Line shift is a move (ruling B61).
    let g = game();
    let pair = |x: u8, y: u8| Action::Reorg {
        a: x.min(y),
        b: x.max(y),
    };
    let (neck, slope, top) = (r(&g, "neck"), r(&g, "bunker-slope-n"), r(&g, "bunker-c"));
    let mut s = empty(&g);
    let m = put(&g, &mut s, PATRIOT, Kind::Minuteman, "bunker-slope-n");
    s.units[m as usize].flags |= BROKEN;
    let l = legal(&g, &s);
    assert!(l.contains(&pair(neck, slope)));
    assert!(!l.contains(&pair(slope, top)), "not away from the Neck");
    // With a healthy leader in its region it goes either way, even once the leader shifted.
    let ldr = put(&g, &mut s, PATRIOT, Kind::Leader, "bunker-slope-n");
    assert!(legal(&g, &s).contains(&pair(slope, top)));
    act(&g, &mut s, pair(slope, top));
    act(&g, &mut s, Action::Add(ldr));
    act(&g, &mut s, Action::Add(m));
    act(&g, &mut s, Action::Done);
    assert_eq!(s.units[m as usize].at, top);
    // A wounded leader is no help.
    let mut t = empty(&g);
    let m = put(&g, &mut t, PATRIOT, Kind::Minuteman, "bunker-slope-n");
    t.units[m as usize].flags |= BROKEN;
    let w = put(&g, &mut t, PATRIOT, Kind::Leader, "bunker-slope-n");
    t.units[w as usize].flags |= BROKEN;
    act(&g, &mut t, pair(slope, top));
    assert!(!legal(&g, &t).contains(&Action::Add(m)));
    // The British: only toward a staging area.
    let mut u = empty(&g);
    u.mover = BRITISH;
    let b = put(&g, &mut u, BRITISH, Kind::Regular, "breeds-s");
    u.units[b as usize].flags |= BROKEN;
    let from = r(&g, "breeds-s");
    let here = g.data.map.staging_dist[from as usize];
    let mut offered = 0;
    for a in legal(&g, &u) {
        if let Action::Reorg { a: x, b: y } = a {
            let other = if x == from { y } else { x };
            assert!(
                g.data.map.staging_dist[other as usize] < here,
                "{} is not toward a staging area",
                g.region_id(other)
            );
            offered += 1;
        }
    }
    assert!(offered > 0);
}

#[test]
fn rule_12_1_the_ten_cards_and_the_militia_pool() {
    let g = game();
    let s = g.new_game("standard", &Options::new(), 4).unwrap();
    let mut ids: Vec<u8> = s
        .deck
        .draw
        .iter()
        .chain(s.deck.discard.iter())
        .copied()
        .collect();
    ids.sort();
    assert_eq!(ids, vec![1, 6, 8, 10, 11, 12, 13, 14, 16, 17]);
    assert_eq!(s.pool.0, [5, 11, 5], "five 0s, eleven 1s, five 2s");
    assert!(
        s.units
            .iter()
            .filter(|u| u.kind == Kind::Militia)
            .all(|u| u.flags & HIDDEN != 0),
        "every militia piece starts with an unknown strength"
    );
}

#[test]
fn rule_9_1_a_panicked_unit_runs_further_only_when_stacking_forces_it() {
    let g = game();
    let mut s = empty(&g);
    let m = militia(&g, &mut s, "works-s", 1);
    s.units[m as usize].flags |= BROKEN | PANIC;
    let start = g.muster_dist(r(&g, "works-s"));
    assert!(start > 4);
    let three = g.flee_options(&s, m, 3);
    assert_ne!(three, 0);
    for x in (0..64u8).filter(|x| three >> x & 1 == 1) {
        assert_eq!(g.muster_dist(x), start - 3, "exactly three regions nearer");
    }
    // Fill every such region: the unit must run one region more.
    let mut filled = 0;
    for x in (0..64u8).filter(|x| three >> x & 1 == 1) {
        for _ in 0..3 {
            militia(&g, &mut s, g.region_id(x), 1);
            filled += 1;
        }
    }
    assert!(filled > 0);
    let four = g.flee_options(&s, m, 3);
    assert_ne!(four, 0, "somewhere one region further");
    for x in (0..64u8).filter(|x| four >> x & 1 == 1) {
        assert_eq!(g.muster_dist(x), start - 4, "one region further, no more");
    }
}
