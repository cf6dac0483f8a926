//! Bunker Hill solitaire (12.2-12.4), the optional rules (11.1-11.3, the FAQ rally) and the
//! remaining FAQ answers.

mod bunker_support;
use bunker_support::*;
use muster_core::{Game, Options};
use muster_revolution_road::bunker::action::{Action, Event};
use muster_revolution_road::bunker::state::*;

fn zone_count(s: &State, g: &muster_revolution_road::Bunker, z: u8) -> usize {
    s.units
        .iter()
        .filter(|u| u.side == BRITISH && u.kind == Kind::Regular && u.at == g.zone_region(z))
        .count()
}

#[test]
fn rule_12_3_objective_sets_turns_zones_and_the_patriot_setup() {
    let g = game();
    let mut s = g.new_game("solitaire-british", &Options::new(), 1).unwrap();
    assert_eq!(s.phase, Phase::Objective);
    assert_eq!(g.to_act(&s), Some(BRITISH));
    act(&g, &mut s, Action::Objective(2));
    assert_eq!(s.last_turn, 6, "Northern Defense Works: 6 turns");
    assert_eq!(
        (zone_count(&s, &g, 2), zone_count(&s, &g, 3)),
        (8, 8),
        "12.2 A: eight Regulars each"
    );
    // Northern Defense set-up a: one Minuteman on the southernmost Bunker hilltop.
    let bs = r(&g, "bunker-s");
    assert!(
        s.units
            .iter()
            .any(|u| u.at == bs && u.kind == Kind::Minuteman)
    );
    assert_eq!(s.turn, 1);
    // 12.2: cards with hash marks are left out.
    assert!(
        s.deck.draw.iter().chain(s.deck.discard.iter()).all(|c| g
            .data
            .cards
            .iter()
            .any(|x| x.id == *c && x.hash == 0))
    );
}

#[test]
fn rule_12_3_objectives_are_upgraded_never_downgraded() {
    let g = game();
    let mut s = g.new_game("solitaire-british", &Options::new(), 2).unwrap();
    act(&g, &mut s, Action::Objective(3));
    assert_eq!(s.last_turn, 7);
    if s.mover != BRITISH {
        s.mover = BRITISH;
    }
    let ups: Vec<Action> = legal(&g, &s)
        .into_iter()
        .filter(|a| matches!(a, Action::Upgrade(_)))
        .collect();
    assert_eq!(
        ups,
        vec![Action::Upgrade(4), Action::Upgrade(5), Action::Upgrade(6)]
    );
    act(&g, &mut s, Action::Upgrade(4));
    assert_eq!(s.last_turn, 8);
    assert_eq!(
        s.solo.zones,
        1 << 1 | 1 << 2,
        "landing zones change to 1 and 2"
    );
    let ups: Vec<Action> = legal(&g, &s)
        .into_iter()
        .filter(|a| matches!(a, Action::Upgrade(_)))
        .collect();
    assert!(!ups.contains(&Action::Upgrade(3)));
}

#[test]
fn rule_12_3_any_three_picks_three_objectives_and_three_zones() {
    let g = game();
    let mut s = g.new_game("solitaire-british", &Options::new(), 4).unwrap();
    act(&g, &mut s, Action::Objective(6));
    for k in [0, 2, 4] {
        act(&g, &mut s, Action::Target(k));
    }
    for z in [1, 3, 5] {
        act(&g, &mut s, Action::Zone(z));
    }
    assert_eq!(s.last_turn, 9);
    let n: usize = [1, 3, 5].iter().map(|z| zone_count(&s, &g, *z)).sum();
    assert_eq!(n, 16);
    for z in [1, 3, 5] {
        assert!(zone_count(&s, &g, z) >= 5);
    }
}

#[test]
fn rule_12_4_patriot_chooses_a_focus_then_the_objective_is_rolled() {
    let g = game();
    let mut s = g.new_game("solitaire-patriot", &Options::new(), 5).unwrap();
    assert_eq!(s.phase, Phase::Focus);
    assert_eq!(g.to_act(&s), Some(PATRIOT));
    act(&g, &mut s, Action::Focus(4));
    // Bunker Hill focus a: one militia on the Neck.
    assert!(
        s.units
            .iter()
            .any(|u| u.at == r(&g, "neck") && u.kind == Kind::Militia)
    );
    assert!([5, 6, 7, 8, 9].contains(&s.last_turn));
    assert!(s.solo.objective > 0);
}

/// The log cites where each objective comes from: chosen (or rolled) by the British player in
/// 12.3's scenario, rolled for the British bot in 12.4's.
#[test]
fn rule_12_3_and_12_4_the_objective_log_entry_cites_its_scenario() {
    let g = game();
    for (scenario, action, section) in [
        ("solitaire-british", Action::Objective(2), "12.3"),
        ("solitaire-british", Action::Objective(0), "12.3"),
        ("solitaire-patriot", Action::Focus(4), "12.4"),
    ] {
        let mut s = g.new_game(scenario, &Options::new(), 5).unwrap();
        let side = g.to_act(&s).unwrap();
        let events = g.apply(&mut s, side, action).unwrap();
        let cited: Vec<String> = events
            .iter()
            .filter(|e| matches!(e, Event::Objective { .. }))
            .map(|e| g.describe(&s, e).section)
            .collect();
        assert_eq!(cited, vec![section.to_string()], "{scenario} {action:?}");
    }
}

#[test]
fn rule_12_2_solitaire_hits_fall_on_a_random_counter() {
    let g = game();
    let mut s = g.new_game("solitaire-patriot", &Options::new(), 6).unwrap();
    let mut acts = Vec::new();
    let mut pick = muster_core::Dice::from_seed(9);
    while let Some(side) = g.to_act(&s) {
        assert!(
            !matches!(s.tasks.first(), Some(Task::Hits { .. })),
            "no hit is ever a decision"
        );
        g.legal_actions(&s, &mut acts);
        let a = acts[pick.below(acts.len() as u32) as usize];
        g.apply(&mut s, side, a).unwrap();
    }
}

#[test]
fn rule_12_2_solitaire_vp_schedule() {
    let g = game();
    let mut s = g.new_game("solitaire-british", &Options::new(), 1).unwrap();
    act(&g, &mut s, Action::Objective(3));
    let base = g.vp_halves(&s);
    let m = s
        .units
        .iter()
        .position(|u| u.side == PATRIOT && u.kind == Kind::Minuteman && u.at < MUSTER)
        .unwrap();
    s.units[m].flags |= BROKEN;
    assert_eq!(
        g.vp_halves(&s)[1],
        base[1] + 1,
        "half a point for a broken unit"
    );
    s.units[m].at = REMOVED;
    assert_eq!(
        g.vp_halves(&s)[1],
        base[1] + 2,
        "one point for a destroyed unit"
    );
    s.demoralized[0] = true;
    assert_eq!(
        g.vp_halves(&s)[0],
        base[0] - 2,
        "-1 to the demoralized Patriot"
    );
}

#[test]
fn rule_12_4_british_final_fire_before_the_turn_ends() {
    let g = game();
    let mut s = empty(&g);
    s.mode = Mode::SolitairePatriot;
    put(&g, &mut s, BRITISH, Kind::Regular, "pastures");
    put(&g, &mut s, PATRIOT, Kind::Minuteman, "breeds-slope-n");
    s.actions = [1, 0];
    act(&g, &mut s, Action::Pass);
    assert_eq!(s.phase, Phase::FinalFire);
    assert_eq!(g.to_act(&s), Some(BRITISH));
    assert!(
        legal(&g, &s)
            .iter()
            .any(|a| matches!(a, Action::Volley { .. }))
    );
    let before = s.actions;
    act(&g, &mut s, Action::Done);
    assert_eq!(before, [0, 0]);
}

#[test]
fn rule_12_2_two_units_land_per_action_in_zones_1_and_2() {
    let g = game();
    let mut s = empty(&g);
    s.mode = Mode::SolitaireBritish;
    s.mover = BRITISH;
    let regs: Vec<u8> = (0..3)
        .map(|_| put(&g, &mut s, BRITISH, Kind::Regular, "zone-1"))
        .collect();
    act(
        &g,
        &mut s,
        Action::Land {
            zone: r(&g, "zone-1"),
            to: r(&g, "landing-1"),
        },
    );
    act(&g, &mut s, Action::Add(regs[0]));
    act(&g, &mut s, Action::Add(regs[1]));
    assert!(!legal(&g, &s).contains(&Action::Add(regs[2])));
}

// ----- optional rules -----

fn with(k: &str) -> Options {
    let mut o = Options::new();
    o.insert(k.into(), "on".into());
    o
}

#[test]
fn rule_11_1_works_ignore_the_first_british_hit() {
    let g = game();
    let mut s = empty_with(&g, with("strong-works"));
    let mut ev = Vec::new();
    s.mover = BRITISH;
    let regs: Vec<u8> = (0..3)
        .map(|_| put(&g, &mut s, BRITISH, Kind::Marine, "breeds-slope-n"))
        .collect();
    put(&g, &mut s, PATRIOT, Kind::Minuteman, "redoubt");
    act(
        &g,
        &mut s,
        Action::Volley {
            from: r(&g, "breeds-slope-n"),
            to: r(&g, "redoubt"),
        },
    );
    for u in &regs {
        act(&g, &mut s, Action::Add(*u));
    }
    let side = g.to_act(&s).unwrap();
    ev.extend(g.apply(&mut s, side, Action::Done).unwrap());
    let hits = ev.iter().find_map(|e| match e {
        Event::Roll { hits, .. } => Some(*hits),
        _ => None,
    });
    let ignored = ev.iter().any(|e| matches!(e, Event::Ignored { .. }));
    assert_eq!(ignored, hits.unwrap() > 0);
    if let Some(Task::Hits { n, .. }) = s.tasks.first() {
        assert_eq!(*n, hits.unwrap() - 1);
    }
}

#[test]
fn rule_11_2_more_ammunition_choices() {
    let g = game();
    let mut s = empty_with(&g, with("more-ammo"));
    let m = put(&g, &mut s, PATRIOT, Kind::Minuteman, "works-s");
    put(&g, &mut s, BRITISH, Kind::Regular, "breeds-slope-n");
    act(
        &g,
        &mut s,
        Action::Volley {
            from: r(&g, "works-s"),
            to: r(&g, "breeds-slope-n"),
        },
    );
    act(&g, &mut s, Action::Add(m));
    act(&g, &mut s, Action::Boost);
    let ammo = s.ammo;
    act(&g, &mut s, Action::Done);
    assert_eq!(
        s.ammo,
        ammo - 2,
        "one for the volley and one for the extra die"
    );
    let mut t = empty_with(&g, with("more-ammo"));
    t.mover = BRITISH;
    let a = put(&g, &mut t, BRITISH, Kind::Regular, "pastures");
    militia(&g, &mut t, "breeds-slope-n", 1);
    act(
        &g,
        &mut t,
        Action::Assault {
            from: r(&g, "pastures"),
            to: r(&g, "breeds-slope-n"),
        },
    );
    act(&g, &mut t, Action::Add(a));
    act(&g, &mut t, Action::Done);
    let l = legal(&g, &t);
    assert!(l.contains(&Action::Fire(4)) && l.contains(&Action::Fire(3)));
    let ammo = t.ammo;
    act(&g, &mut t, Action::Fire(3));
    assert_eq!(
        t.ammo,
        ammo - 6,
        "1 to take part, 1 to fire, 4 to hit on 3-6"
    );
}

#[test]
fn rule_faq_solitaire_rally_as_an_option() {
    let g = game();
    let mut s = empty_with(&g, with("solo-rally"));
    let a = put(&g, &mut s, PATRIOT, Kind::Minuteman, "redoubt");
    s.units[a as usize].flags |= BROKEN;
    // No leader needed: the unit rolls for itself.
    act(&g, &mut s, Action::Rally(r(&g, "redoubt")));
    assert_eq!(legal(&g, &s), vec![Action::Done]);
    act(&g, &mut s, Action::Done);
}

#[test]
fn rule_faq_low_ammo_terrain_cannot_exceed_three_dice() {
    let g = game();
    let mut s = empty(&g);
    s.mover = BRITISH;
    s.ammo = 12;
    let regs: Vec<u8> = (0..3)
        .map(|_| put(&g, &mut s, BRITISH, Kind::Regular, "breeds-slope-n"))
        .collect();
    for _ in 0..3 {
        militia(&g, &mut s, "redoubt", 1);
    }
    act(
        &g,
        &mut s,
        Action::Assault {
            from: r(&g, "breeds-slope-n"),
            to: r(&g, "redoubt"),
        },
    );
    for u in &regs {
        act(&g, &mut s, Action::Add(*u));
    }
    act(&g, &mut s, Action::Done);
    while s.phase
        == (Phase::Assault {
            stage: Stage::Withdraw,
        })
    {
        act(&g, &mut s, Action::Done);
    }
    let side = g.to_act(&s).unwrap();
    let ev = g.apply(&mut s, side, Action::Fire(5)).unwrap();
    let dice = ev.iter().find_map(|e| match e {
        Event::Roll { dice, .. } => Some(*dice),
        _ => None,
    });
    assert_eq!(dice, Some(3), "3 strength + 2 for the Redoubt, capped at 3");
}

#[test]
fn rule_faq_retreating_units_go_to_the_same_region_while_stacking_allows() {
    let g = game();
    let mut s = empty(&g);
    s.mover = BRITISH;
    let regs: Vec<u8> = (0..2)
        .map(|_| put(&g, &mut s, BRITISH, Kind::Regular, "pastures"))
        .collect();
    let m1 = put(&g, &mut s, PATRIOT, Kind::Minuteman, "breeds-slope-n");
    let m2 = put(&g, &mut s, PATRIOT, Kind::Minuteman, "breeds-slope-n");
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
    act(&g, &mut s, Action::Add(m1));
    act(&g, &mut s, Action::Add(m2));
    act(&g, &mut s, Action::Done);
    let first = legal(&g, &s)[0];
    act(&g, &mut s, first);
    let Action::Dest(d) = first else { panic!() };
    assert_eq!(
        legal(&g, &s),
        vec![Action::Dest(d)],
        "the second follows the first"
    );
}

#[test]
fn rule_faq_british_units_do_not_move_between_landing_zones() {
    let g = game();
    let mut s = empty(&g);
    s.mover = BRITISH;
    put(&g, &mut s, BRITISH, Kind::Regular, "zone-2");
    assert!(!legal(&g, &s).iter().any(|a| matches!(a, Action::Move(_))));
}

#[test]
fn rule_4_1_printed_example_two_leaders_lift_two_of_three_zero_militia() {
    let g = game();
    let mut s = empty(&g);
    let m: Vec<u8> = (0..3).map(|_| militia(&g, &mut s, "works-s", 0)).collect();
    put(&g, &mut s, PATRIOT, Kind::Leader, "works-s");
    put(&g, &mut s, PATRIOT, Kind::Leader, "works-s");
    put(&g, &mut s, BRITISH, Kind::Regular, "breeds-slope-n");
    act(
        &g,
        &mut s,
        Action::Volley {
            from: r(&g, "works-s"),
            to: r(&g, "breeds-slope-n"),
        },
    );
    for u in &m {
        act(&g, &mut s, Action::Add(*u));
    }
    let side = g.to_act(&s).unwrap();
    let ev = g.apply(&mut s, side, Action::Done).unwrap();
    let dice = ev.iter().find_map(|e| match e {
        Event::Roll { dice, .. } => Some(*dice),
        _ => None,
    });
    // Two of the three count as strength 1; the slope's volley modifier is 0.
    assert_eq!(dice, Some(2));
}

#[test]
fn rule_faq_staging_area_assaults_with_three_units_at_most() {
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
        Action::Assault {
            from: r(&g, "point-n"),
            to: r(&g, "stone-wall"),
        },
    );
    for u in &regs[..3] {
        act(&g, &mut s, Action::Add(*u));
    }
    assert!(
        !legal(&g, &s)
            .iter()
            .any(|a| matches!(a, Action::Add(u) if regs.contains(u)))
    );
}

#[test]
fn rule_faq_minutemen_do_not_rally_militia() {
    let g = game();
    let mut s = empty(&g);
    put(&g, &mut s, PATRIOT, Kind::Minuteman, "redoubt");
    let m = militia(&g, &mut s, "redoubt", 1);
    s.units[m as usize].flags |= BROKEN;
    assert!(
        !legal(&g, &s).contains(&Action::Rally(r(&g, "redoubt"))),
        "a leader is needed"
    );
}

#[test]
fn rule_12_4_the_scenario_ends_when_the_british_objective_is_met() {
    let g = game();
    let mut s = empty(&g);
    s.mode = Mode::SolitairePatriot;
    s.solo.objective = 2;
    put(&g, &mut s, BRITISH, Kind::Regular, "works-n");
    put(&g, &mut s, BRITISH, Kind::Regular, "works-s");
    put(&g, &mut s, PATRIOT, Kind::Minuteman, "bunker-c");
    act(&g, &mut s, Action::Pass);
    let e = s.ended.expect("the game is over");
    assert_eq!(e.why, 2);
    assert_eq!(e.winner, BRITISH, "4 VP for the two works regions");
}

#[test]
fn rule_faq_one_move_action_sends_units_of_a_region_to_different_regions() {
    let g = game();
    let mut s = empty(&g);
    let a = put(&g, &mut s, PATRIOT, Kind::Minuteman, "bunker-c");
    let b = put(&g, &mut s, PATRIOT, Kind::Minuteman, "bunker-c");
    act(&g, &mut s, Action::Move(r(&g, "bunker-c")));
    act(
        &g,
        &mut s,
        Action::Go {
            unit: a,
            to: r(&g, "neck"),
        },
    );
    act(
        &g,
        &mut s,
        Action::Go {
            unit: b,
            to: r(&g, "town-1"),
        },
    );
    act(&g, &mut s, Action::Done);
    assert_eq!(s.units[a as usize].at, r(&g, "neck"));
    assert_eq!(s.units[b as usize].at, r(&g, "town-1"));
    assert_eq!(s.actions[0], 2, "one action");
}

#[test]
fn rule_12_2_reinforcement_schedule_by_turn() {
    let g = game();
    let mut s = g.new_game("solitaire-british", &Options::new(), 3).unwrap();
    // Breed's Hill: the Patriot set-up uses five militia, so all sixteen others arrive.
    act(&g, &mut s, Action::Objective(3));
    let count = |side: u8, kind: Kind, t: u8| {
        s.units
            .iter()
            .filter(|u| {
                u.side == side && u.kind == kind && u.arrive == t && u.at != UNUSED && u.at != SETUP
            })
            .count()
    };
    let militia: Vec<usize> = (1..=5).map(|t| count(PATRIOT, Kind::Militia, t)).collect();
    assert_eq!(militia, vec![3, 3, 3, 3, 4], "12.2 B militia by turn");
    assert_eq!(
        count(PATRIOT, Kind::Leader, 1),
        2,
        "Stark and Nixon on turn 1"
    );
    assert_eq!(
        count(PATRIOT, Kind::Leader, 5),
        2,
        "Reed and Woodbridge on turn 5"
    );
    assert_eq!(count(BRITISH, Kind::Regular, 3), 6);
    assert_eq!(count(BRITISH, Kind::Marine, 3), 2);
    assert_eq!(count(BRITISH, Kind::Leader, 3), 2, "Howe and Abercrombie");
    assert_eq!(count(BRITISH, Kind::Regular, 5), 4);
    assert_eq!(count(BRITISH, Kind::Marine, 5), 2);
    assert_eq!(count(BRITISH, Kind::Leader, 5), 1, "Clinton");
    for t in [2u8, 4, 6, 7] {
        assert_eq!(
            count(BRITISH, Kind::Regular, t) + count(BRITISH, Kind::Marine, t),
            0,
            "no British arrive on turn {t}"
        );
    }
}

#[test]
fn rule_faq_leaders_do_not_count_toward_the_staging_number() {
    let g = game();
    let mut s = empty(&g);
    s.mover = BRITISH;
    let sa = r(&g, "point-n");
    for _ in 0..2 {
        put(&g, &mut s, BRITISH, Kind::Regular, "point-n");
    }
    for _ in 0..3 {
        put(&g, &mut s, BRITISH, Kind::Leader, "point-n");
    }
    assert!(
        !legal(&g, &s).contains(&Action::Move(sa)),
        "two Regulars and three leaders do not meet a staging number of 3"
    );
    put(&g, &mut s, BRITISH, Kind::Regular, "point-n");
    assert!(legal(&g, &s).contains(&Action::Move(sa)));
}

#[test]
fn rule_faq_cannon_of_one_region_fire_at_one_target() {
    let g = game();
    let mut s = empty(&g);
    s.mover = BRITISH;
    s.ammo_arrived = true;
    let c1 = put(&g, &mut s, BRITISH, Kind::Cannon, "pastures");
    let c2 = put(&g, &mut s, BRITISH, Kind::Cannon, "pastures");
    put(&g, &mut s, PATRIOT, Kind::Minuteman, "breeds-slope-n");
    put(&g, &mut s, PATRIOT, Kind::Minuteman, "ridge-n");
    let from = r(&g, "pastures");
    act(&g, &mut s, Action::Cannonade);
    let targets: Vec<u8> = legal(&g, &s)
        .iter()
        .filter_map(|a| match a {
            Action::Gun { from: f, to } if *f == from => Some(*to),
            _ => None,
        })
        .collect();
    assert!(targets.len() >= 2, "two regions in sight: {targets:?}");
    act(
        &g,
        &mut s,
        Action::Gun {
            from,
            to: targets[0],
        },
    );
    assert!(s.units[c1 as usize].has(FIRED) && s.units[c2 as usize].has(FIRED));
    take_hits(&g, &mut s);
    assert!(
        !legal(&g, &s)
            .iter()
            .any(|a| matches!(a, Action::Gun { from: f, .. } if *f == from)),
        "both cannon of the region fired at the same target"
    );
}

// ----- issue 19 review -----

#[test]
fn rule_12_2_each_patriot_leader_spares_one_militia_the_neck_check() {
    let g = game();
    let mut s = empty(&g);
    s.mode = Mode::SolitairePatriot;
    s.fleet = 2;
    put(&g, &mut s, PATRIOT, Kind::Leader, "muster");
    let a = militia(&g, &mut s, "muster", 1);
    let b = militia(&g, &mut s, "muster", 1);
    act(&g, &mut s, Action::Move(MUSTER));
    let neck = r(&g, "neck");
    let side = g.to_act(&s).unwrap();
    let ev = g
        .apply(&mut s, side, Action::Go { unit: a, to: neck })
        .unwrap();
    assert!(!ev.iter().any(|e| matches!(e, Event::Courage { .. })));
    assert_eq!(s.units[a as usize].at, neck);
    let ev = g
        .apply(&mut s, side, Action::Go { unit: b, to: neck })
        .unwrap();
    assert!(
        ev.iter().any(|e| matches!(e, Event::Courage { .. })),
        "one leader spares one unit"
    );
}

#[test]
fn rule_12_2_british_leaders_landing_are_not_sniped() {
    let g = game();
    let dock = r(&g, "town-dock");
    for (mode, moved, snipe) in [
        (Mode::SolitairePatriot, true, false),
        (Mode::SolitairePatriot, false, true),
        (Mode::Standard, true, true),
    ] {
        let mut s = empty(&g);
        s.mode = mode;
        let l = put(&g, &mut s, BRITISH, Kind::Leader, "town-dock");
        if moved {
            s.units[l as usize].flags |= MOVED;
        }
        assert!(g.is_staging(dock));
        assert_eq!(
            legal(&g, &s).contains(&Action::Snipe(dock)),
            snipe,
            "{mode:?}, moved {moved}"
        );
    }
}

#[test]
fn rule_12_3_charlestown_objective_two_of_three_units_fire_in_town() {
    let g = game();
    let dice = |objective: u8, mode: Mode| {
        let mut s = empty(&g);
        s.mode = mode;
        s.solo.objective = objective;
        let us: Vec<u8> = (0..3)
            .map(|_| put(&g, &mut s, PATRIOT, Kind::Minuteman, "town-3"))
            .collect();
        put(&g, &mut s, BRITISH, Kind::Regular, "breeds-slope-w");
        act(
            &g,
            &mut s,
            Action::Volley {
                from: r(&g, "town-3"),
                to: r(&g, "breeds-slope-w"),
            },
        );
        for u in &us {
            act(&g, &mut s, Action::Add(*u));
        }
        let side = g.to_act(&s).unwrap();
        let ev = g.apply(&mut s, side, Action::Done).unwrap();
        ev.iter()
            .find_map(|e| match e {
                Event::Roll { dice, .. } => Some(*dice),
                _ => None,
            })
            .unwrap()
    };
    assert_eq!(dice(1, Mode::SolitairePatriot), 2);
    assert_eq!(dice(3, Mode::SolitairePatriot), 3, "other objectives");
    assert_eq!(dice(0, Mode::Standard), 3);
}

#[test]
fn rule_12_2_the_patriot_loses_a_point_when_the_ammunition_runs_out() {
    let g = game();
    let mut s = g.new_game("solitaire-british", &Options::new(), 1).unwrap();
    act(&g, &mut s, Action::Objective(3));
    let base = g.vp_halves(&s)[0];
    s.ammo = 0;
    s.ammo_out = true;
    assert_eq!(g.vp_halves(&s)[0], base - 2);
}

#[test]
fn rule_12_2_at_most_three_british_units_rally_at_a_time_in_a_staging_area() {
    let g = game();
    let mut s = empty(&g);
    s.mode = Mode::SolitaireBritish;
    s.mover = BRITISH;
    for _ in 0..5 {
        let u = put(&g, &mut s, BRITISH, Kind::Regular, "point-n");
        s.units[u as usize].flags |= BROKEN;
    }
    act(&g, &mut s, Action::Rally(r(&g, "point-n")));
    let side = g.to_act(&s).unwrap();
    let ev = g.apply(&mut s, side, Action::Done).unwrap();
    let tries = ev
        .iter()
        .filter(|e| matches!(e, Event::Rallied { .. }))
        .count();
    assert_eq!(tries, 3, "three roll, the other two wait");
}

#[test]
fn rule_12_2_gage_pigot_and_the_two_cannon_go_to_separate_landing_zones() {
    let g = game();
    let mut s = g.new_game("solitaire-british", &Options::new(), 1).unwrap();
    act(&g, &mut s, Action::Objective(2));
    for kind in [Kind::Leader, Kind::Cannon] {
        let at: Vec<u8> = s
            .units
            .iter()
            .filter(|u| u.side == BRITISH && u.kind == kind && g.is_zone(u.at))
            .map(|u| u.at)
            .collect();
        assert_eq!(at.len(), 2, "{kind:?}");
        assert_ne!(at[0], at[1], "{kind:?} in separate zones");
        assert!(at.contains(&g.zone_region(2)) && at.contains(&g.zone_region(3)));
    }
    assert!(
        s.units
            .iter()
            .any(|u| u.kind == Kind::Battery && u.at == COPPS)
    );
}

#[test]
fn rule_12_3_the_charlestown_objective_leaves_out_the_artillery_and_lands_at_five_and_six() {
    let g = game();
    let mut s = g.new_game("solitaire-british", &Options::new(), 1).unwrap();
    act(&g, &mut s, Action::Objective(1));
    assert_eq!(s.last_turn, 5);
    assert!(
        !s.units
            .iter()
            .any(|u| u.side == BRITISH && u.kind == Kind::Cannon && u.on_map()),
        "no field cannon"
    );
    assert_eq!((zone_count(&s, &g, 5), zone_count(&s, &g, 6)), (8, 8));
}

#[test]
fn rule_12_3_a_leader_alone_does_not_capture_a_region() {
    let g = game();
    let mut s = empty(&g);
    s.mode = Mode::SolitaireBritish;
    s.solo.objective = 2;
    let l = put(&g, &mut s, BRITISH, Kind::Leader, "works-n");
    assert_eq!(g.captured(&s, 1), 0, "a leader cannot hold a region");
    let u = put(&g, &mut s, BRITISH, Kind::Regular, "works-n");
    assert_eq!(g.captured(&s, 1), 1);
    s.units[u as usize].flags |= BROKEN;
    assert_eq!(g.captured(&s, 1), 0, "nor can a broken unit");
    let _ = l;
}

#[test]
fn rule_12_4_the_british_bot_cannot_upgrade_its_objective() {
    let g = game();
    for (mode, offered) in [
        (Mode::SolitaireBritish, true),
        (Mode::SolitairePatriot, false),
    ] {
        let mut s = empty(&g);
        s.mode = mode;
        s.solo.objective = 3;
        s.turn = 2;
        s.mover = BRITISH;
        let l = legal(&g, &s);
        assert_eq!(
            l.iter().any(|a| matches!(a, Action::Upgrade(_))),
            offered,
            "{mode:?}"
        );
    }
}

#[test]
fn rule_12_4_the_patriot_scores_when_no_objective_region_is_captured() {
    let g = game();
    let mut s = empty(&g);
    s.mode = Mode::SolitairePatriot;
    s.solo.objective = 3;
    let none = g.vp_halves(&s)[0];
    put(&g, &mut s, BRITISH, Kind::Regular, "redoubt");
    assert_eq!(g.captured(&s, 2), 1, "the Redoubt is a Breed's Hill region");
    assert_eq!(g.vp_halves(&s)[0], none - 2, "the Patriot's point is gone");
}

#[test]
fn rule_4_3_british_cannon_without_ammunition_neither_volley_nor_roll_in_defence() {
    let g = game();
    let mut s = empty(&g);
    s.mover = BRITISH;
    let reg = put(&g, &mut s, BRITISH, Kind::Regular, "pastures");
    let gun = put(&g, &mut s, BRITISH, Kind::Cannon, "pastures");
    let mm: Vec<u8> = (0..2)
        .map(|_| put(&g, &mut s, PATRIOT, Kind::Minuteman, "breeds-slope-n"))
        .collect();
    let (pa, sl) = (r(&g, "pastures"), r(&g, "breeds-slope-n"));
    let mut v = s.clone();
    act(&g, &mut v, Action::Volley { from: pa, to: sl });
    let l = legal(&g, &v);
    assert!(l.contains(&Action::Add(reg)) && !l.contains(&Action::Add(gun)));
    let defend = |arrived: bool| {
        let mut t = s.clone();
        t.mover = PATRIOT;
        t.ammo_arrived = arrived;
        act(&g, &mut t, Action::Assault { from: sl, to: pa });
        for u in &mm {
            act(&g, &mut t, Action::Add(*u));
        }
        let side = g.to_act(&t).unwrap();
        let ev = g.apply(&mut t, side, Action::Done).unwrap();
        ev.iter()
            .find_map(|e| match e {
                Event::Roll { dice, .. } => Some(*dice),
                _ => None,
            })
            .unwrap()
    };
    assert_eq!(defend(false), 2, "the Regular alone");
    assert_eq!(defend(true), 4, "Regular and cannon");
}

#[test]
fn rule_12_2_the_british_lose_a_point_without_an_objective_region_unless_next_to_one() {
    let g = game();
    let mut s = empty(&g);
    s.mode = Mode::SolitaireBritish;
    s.solo.objective = 2;
    let far = g.vp_halves(&s)[1];
    let u = put(&g, &mut s, BRITISH, Kind::Regular, "rail-fence");
    assert!(g.data.map.adjacent(r(&g, "rail-fence"), r(&g, "works-n")));
    assert_eq!(
        g.vp_halves(&s)[1],
        far + 2,
        "next to an objective region: no penalty"
    );
    s.units[u as usize].flags |= BROKEN;
    let broken = g.vp_halves(&s)[1];
    assert!(broken < far + 2, "a broken unit does not lift the penalty");
}

#[test]
fn rule_12_3_charlestown_scores_one_point_achieved_and_one_per_region_beyond_six() {
    let g = game();
    let towns: Vec<u8> = (0..64u8)
        .filter(|r| g.data.map.town >> r & 1 == 1)
        .collect();
    let objective = |n: usize| {
        let mut s = empty(&g);
        s.mode = Mode::SolitaireBritish;
        s.solo.objective = 1;
        s.ablaze = towns[..n].iter().fold(0, |m, r| m | 1 << r);
        g.vp_items(&s)
            .iter()
            .filter(|i| i.side == BRITISH && i.cause.contains("Charlestown"))
            .map(|i| i.halves)
            .sum::<i16>()
    };
    assert_eq!(objective(5), 0, "five regions: not achieved");
    assert_eq!(objective(6), 2);
    assert_eq!(objective(8), 6, "1 + 2 beyond six");
}

#[test]
fn rule_12_2_solitaire_rally_rolls_by_kind_and_wounded_leaders_need_four() {
    let g = game();
    let cases = [
        (BRITISH, Kind::Marine, 3u8),
        (BRITISH, Kind::Regular, 5),
        (PATRIOT, Kind::Minuteman, 5),
        (PATRIOT, Kind::Militia, 6),
    ];
    for (side, kind, need) in cases {
        let mut below = false;
        for seed in 0..40u64 {
            let mut s = empty(&g);
            s.mode = Mode::SolitaireBritish;
            s.mover = side;
            s.dice = muster_core::Dice::from_seed(seed);
            let u = if kind == Kind::Militia {
                militia(&g, &mut s, "bunker-c", 1)
            } else {
                put(&g, &mut s, side, kind, "bunker-c")
            };
            s.units[u as usize].flags |= BROKEN;
            act(&g, &mut s, Action::Rally(r(&g, "bunker-c")));
            let side_to_act = g.to_act(&s).unwrap();
            let ev = g.apply(&mut s, side_to_act, Action::Done).unwrap();
            let die = ev
                .iter()
                .find_map(|e| match e {
                    Event::Rallied { die, .. } => Some(*die),
                    _ => None,
                })
                .expect("the unit rolls");
            assert_eq!(
                !s.units[u as usize].broken(),
                die >= need,
                "{kind:?} on {die}"
            );
            below |= die < need && die >= need.saturating_sub(2);
        }
        assert!(below, "{kind:?}: a die just under the need was seen");
    }
    // A wounded leader rallies on 4-6.
    let mut seen = [false; 2];
    for seed in 0..40u64 {
        let mut s = empty(&g);
        s.mode = Mode::SolitaireBritish;
        s.dice = muster_core::Dice::from_seed(seed);
        let l = put(&g, &mut s, PATRIOT, Kind::Leader, "bunker-c");
        s.units[l as usize].flags |= BROKEN;
        let m = put(&g, &mut s, PATRIOT, Kind::Minuteman, "bunker-c");
        s.units[m as usize].flags |= BROKEN;
        act(&g, &mut s, Action::Rally(r(&g, "bunker-c")));
        let side = g.to_act(&s).unwrap();
        let ev = g.apply(&mut s, side, Action::Add(m)).unwrap();
        let die = ev
            .iter()
            .find_map(|e| match e {
                Event::Rallied { die, .. } => Some(*die),
                _ => None,
            })
            .unwrap();
        let rallied = !s.units[m as usize].broken();
        assert_eq!(rallied, die >= 4, "wounded leader on {die}");
        seen[rallied as usize] = true;
    }
    assert_eq!(seen, [true, true]);
}

#[test]
fn rule_12_4_the_rolled_objective_sets_the_turns_and_the_landing_zones() {
    let g = game();
    // By die: turns, then the two landing zones.
    let table = [
        (5u8, [5u8, 6]),
        (6, [2, 3]),
        (7, [3, 4]),
        (7, [3, 4]),
        (8, [1, 2]),
        (9, [1, 2]),
    ];
    let mut seen = [false; 6];
    for seed in 0..60u64 {
        let mut s = g
            .new_game("solitaire-patriot", &Options::new(), seed)
            .unwrap();
        let side = g.to_act(&s).unwrap();
        let ev = g.apply(&mut s, side, Action::Focus(2)).unwrap();
        let die = ev
            .iter()
            .find_map(|e| match e {
                Event::Objective { die, .. } => Some(*die),
                _ => None,
            })
            .expect("the objective is rolled");
        let (turns, zones) = table[die as usize - 1];
        assert_eq!(s.last_turn, turns, "die {die}");
        assert_eq!(s.solo.zones, 1 << zones[0] | 1 << zones[1], "die {die}");
        seen[die as usize - 1] = true;
    }
    assert_eq!(seen, [true; 6]);
}

#[test]
fn rule_12_2_a_wounded_leader_scores_nothing() {
    let g = game();
    let mut s = g.new_game("solitaire-british", &Options::new(), 1).unwrap();
    act(&g, &mut s, Action::Objective(3));
    let base = g.vp_halves(&s)[1];
    let l = s
        .units
        .iter()
        .position(|u| u.side == PATRIOT && u.kind == Kind::Leader && u.on_map())
        .unwrap();
    s.units[l].flags |= BROKEN;
    assert_eq!(g.vp_halves(&s)[1], base, "a wounded leader is worth 0");
    s.units[l].at = REMOVED;
    assert_eq!(g.vp_halves(&s)[1], base + 2, "a killed one 1");
}
