//! §4 sequence of play, §10 victory, §11 Freeman's Farm and §12 Oriskany set-ups and special
//! rules.

mod common;
use common::*;
use muster_battles::data::Start;
use muster_battles::state::{EndReason, Loc, Phase, SideId};
use muster_core::{Game, Options};

#[test]
fn rule_10_one_vp_per_eliminated_enemy_and_instant_victory_at_the_goal() {
    let g = game();
    let mut s = blank(&g);
    // Four British units already eliminated: one more reaches the test goal of 5.
    for id in ["b1", "b2", "b3"] {
        let i = idx(&s, id) as usize;
        s.units[i].at = Loc::Eliminated;
    }
    put(&mut s, "a4", "C6");
    put(&mut s, "b4", "C5");
    reduce(&mut s, "b4");
    put(&mut s, "a1", "H1"); // on the American star: +1
    s.artillery.british = 0;
    s.phase = Phase::Attacks;
    act(&g, &mut s, "attack b4");
    act(&g, &mut s, "add a4");
    s.dice = dice_rolling(&[6, 1]); // 6+6 vs 4+1
    act(&g, &mut s, "commit");
    let e = s.ended.expect("instant victory");
    assert_eq!(e.winner, SideId(0));
    assert_eq!(e.reason, EndReason::VpGoal);
    assert_eq!(e.vp.american, 5);
    assert_eq!(g.to_act(&s), None);
    assert!(g.outcome(&s).unwrap().reason.contains("§10"));
}

#[test]
fn rule_10_stars_score_only_for_their_own_colour() {
    let g = game();
    let mut s = blank(&g);
    put(&mut s, "a1", "A7"); // a British star
    put(&mut s, "b1", "H1"); // an American star
    let v = g.view(&s, muster_core::Viewer::Spectator);
    assert_eq!((v.vp.american, v.vp.british), (0, 0));
    put(&mut s, "a1", "H2");
    let b1 = idx(&s, "b1") as usize;
    s.units[b1].at = Loc::Absent;
    put(&mut s, "a2", "H1");
    let v = g.view(&s, muster_core::Viewer::Spectator);
    assert_eq!(v.vp.american, 1);
}

#[test]
fn rule_10_most_vp_at_the_end_wins_and_ties_go_to_the_americans() {
    let g = game();
    let mut s = blank(&g);
    s.turn = 4; // the last turn of the test scenario
    s.active = SideId(1); // the second player
    put(&mut s, "a1", "A1");
    put(&mut s, "b1", "H8");
    act(&g, &mut s, "end-movement");
    let e = s.ended.expect("the game ends after the last turn");
    assert_eq!(e.reason, EndReason::LastTurn);
    assert_eq!(e.winner, SideId(0), "0-0: ties go to the Americans");
    // With a British VP lead the British win.
    let mut s = blank(&g);
    s.turn = 4;
    s.active = SideId(1);
    put(&mut s, "b1", "A7");
    act(&g, &mut s, "end-movement");
    assert_eq!(s.ended.unwrap().winner, SideId(1));
}

#[test]
fn rule_4_first_player_moves_and_attacks_then_the_second() {
    let g = game();
    let mut s = blank(&g);
    s.turn = 1;
    put(&mut s, "a1", "A1");
    put(&mut s, "b1", "H8");
    let ev = act(&g, &mut s, "end-movement");
    assert!(ev.iter().any(|e| matches!(
        e,
        muster_battles::Event::TurnBegins {
            turn: 1,
            side: SideId(1)
        }
    )));
    let ev = act(&g, &mut s, "end-movement");
    assert!(ev.iter().any(|e| matches!(
        e,
        muster_battles::Event::TurnBegins {
            turn: 2,
            side: SideId(0)
        }
    )));
}

#[test]
fn rule_11_freemans_farm_setup_is_as_printed() {
    let g = game();
    let s = g.new_game("freemans-farm", &Options::new(), 1).unwrap();
    let sc = g.scenario(&s);
    let hex_of = |id: &str| match s.units[idx(&s, id) as usize].at {
        Loc::Map(h) => h.to_string(),
        other => format!("{other:?}"),
    };
    for (id, hex) in [
        ("ranger", "B1"),
        ("indian", "C1"),
        ("21st", "E2"),
        ("9th", "F2"),
        ("morgan", "D6"),
        ("dearborn", "E6"),
        ("latimer", "B8"),
        ("cook", "B9"),
        ("20th", "G2"),
        ("62nd", "H2"),
    ] {
        assert_eq!(hex_of(id), hex, "{id}");
    }
    let strength = |id: &str| {
        let d = &sc.units[sc.unit_index(id).unwrap()];
        (d.cf, d.mp)
    };
    assert_eq!(strength("morgan"), (4, 4));
    assert_eq!(strength("dearborn"), (3, 4));
    assert_eq!(strength("balcarres"), (5, 3));
    assert_eq!(strength("grenadiers"), (3, 4));
    let entry = |id: &str| match sc.units[sc.unit_index(id).unwrap()].start {
        Start::Entry { turn, area } => (turn, sc.areas[area as usize].name.clone()),
        other => panic!("{id}: {other:?}"),
    };
    for id in ["1st-nh", "2nd-nh", "3rd-nh"] {
        assert_eq!(entry(id), (3, "3".to_string()));
    }
    for id in [
        "2nd-ny",
        "4th-ny",
        "2nd-ma",
        "8th-ma",
        "9th-ma",
        "10th-ma",
        "am-canadian",
    ] {
        assert_eq!(entry(id), (5, "3".to_string()));
    }
    for id in ["24th", "balcarres", "br-canadian", "ny-loyalist"] {
        assert_eq!(entry(id), (4, "1".to_string()));
    }
    for id in ["grenadiers", "riedesel", "rhetz", "jaegers"] {
        assert_eq!(entry(id), (8, "2".to_string()));
    }
    assert_eq!((s.leadership.american, s.leadership.british), (10, 5));
    assert_eq!((s.artillery.american, s.artillery.british), (0, 5));
    assert_eq!(sc.vp_goal, 7);
    assert_eq!(s.active, SideId(0), "the Americans move first");
    assert_eq!(s.turn, 1);
    let stars: Vec<String> = sc.stars.iter().map(|(h, _)| h.to_string()).collect();
    assert_eq!(stars, ["A1", "C9", "L9"]);
    assert!(
        s.units.iter().all(|u| !u.reduced),
        "all units start at full strength"
    );
}

#[test]
fn rule_12_oriskany_setup_americans_in_area_1_then_british_outside_not_adjacent() {
    let g = game();
    let mut s = g.new_game("oriskany", &Options::new(), 1).unwrap();
    let sc = g.scenario(&s).clone();
    let area1 = &sc.areas[sc.area("1").unwrap() as usize];
    assert_eq!(s.phase, Phase::Setup { side: SideId(0) });
    assert_eq!(g.to_act(&s), Some(0));
    let places = legal(&g, &s);
    assert_eq!(places.len(), area1.hexes.len());
    assert!(places.iter().all(|p| area1.mask[h(&p[6..]).slot()]));
    // Place every American unit at the first offered hex.
    while s.phase == (Phase::Setup { side: SideId(0) }) {
        let l = legal(&g, &s);
        act(&g, &mut s, &l[0]);
    }
    assert_eq!(s.phase, Phase::Setup { side: SideId(1) });
    assert_eq!(g.to_act(&s), Some(1));
    let american_hexes: Vec<_> = s.units.iter().filter_map(|u| u.hex()).collect();
    for p in legal(&g, &s) {
        let hex = h(&p[6..]);
        assert!(!area1.mask[hex.slot()], "{hex} is in Area 1");
        assert!(
            american_hexes.iter().all(|a| !sc.map.adjacent(*a, hex)),
            "{hex} is next to an American"
        );
    }
    while matches!(s.phase, Phase::Setup { .. }) {
        let l = legal(&g, &s);
        act(&g, &mut s, &l[l.len() / 2]);
    }
    assert_eq!(s.active, SideId(1), "the British move first");
    assert_eq!(s.turn, 1);
    assert_eq!((s.leadership.american, s.leadership.british), (7, 5));
    assert_eq!(sc.vp_goal, 6);
}

fn oriskany_in_play() -> (muster_battles::Battles, muster_battles::State) {
    let g = game();
    let mut s = g.new_game("oriskany", &Options::new(), 1).unwrap();
    while matches!(s.phase, Phase::Setup { .. }) {
        let l = legal(&g, &s);
        act(&g, &mut s, &l[0]);
    }
    (g, s)
}

#[test]
fn rule_12_an_american_unit_leaving_at_a5_scores_one_vp() {
    let (g, mut s) = oriskany_in_play();
    for u in s.units.iter_mut() {
        u.at = Loc::Absent;
    }
    let first_american = g
        .scenario(&s)
        .units
        .iter()
        .position(|d| d.side == 0)
        .unwrap();
    s.units[first_american].at = Loc::Map(h("B5"));
    s.active = SideId(0);
    s.phase = Phase::Movement {
        selected: None,
        force_march: false,
    };
    let id = s.units[first_american].id.to_string();
    act(&g, &mut s, &format!("select {id}"));
    assert!(legal(&g, &s).contains(&"exit".to_string()));
    act(&g, &mut s, "exit");
    assert_eq!(s.units[first_american].at, Loc::Exited);
    let v = g.view(&s, muster_core::Viewer::Spectator);
    assert_eq!(v.vp.american, 1);
    // British units may not exit.
    let first_british = g
        .scenario(&s)
        .units
        .iter()
        .position(|d| d.side == 1)
        .unwrap();
    s.units[first_british].at = Loc::Map(h("A5"));
    s.active = SideId(1);
    s.phase = Phase::Movement {
        selected: None,
        force_march: false,
    };
    let id = s.units[first_british].id.to_string();
    act(&g, &mut s, &format!("select {id}"));
    assert!(!legal(&g, &s).contains(&"exit".to_string()));
}

#[test]
fn rule_12_no_attacks_on_turns_7_and_8_and_the_storm_costs_one_mp() {
    let (g, mut s) = oriskany_in_play();
    for u in s.units.iter_mut() {
        u.at = Loc::Absent;
    }
    let sc = g.scenario(&s).clone();
    let am = sc.units.iter().position(|d| d.side == 0).unwrap();
    let br = sc.units.iter().position(|d| d.side == 1).unwrap();
    s.units[am].at = Loc::Map(h("C3"));
    s.units[br].at = Loc::Map(h("C4"));
    s.active = SideId(1);
    s.turn = 7;
    s.phase = Phase::Movement {
        selected: None,
        force_march: false,
    };
    let ev = act(&g, &mut s, "end-movement");
    assert!(
        ev.iter()
            .any(|e| matches!(e, muster_battles::Event::StormNoAttacks { turn: 7 }))
    );
    assert_ne!(s.phase, Phase::Attacks);
    // The storm: a unit's reach shrinks by one MP on turns 7-8 only.
    let reach_count = |s: &muster_battles::State| {
        let mut s = s.clone();
        for u in s.units.iter_mut() {
            u.moved = false;
            u.rallied = false;
        }
        s.units[br].at = Loc::Absent;
        s.units[am].at = Loc::Map(h("A5"));
        s.active = SideId(0);
        s.phase = Phase::Movement {
            selected: Some(am as u8),
            force_march: false,
        };
        destinations(&g, &s).len()
    };
    let mut t6 = s.clone();
    t6.turn = 6;
    let mut t8 = s.clone();
    t8.turn = 8;
    assert!(reach_count(&t8) < reach_count(&t6), "the storm takes 1 MP");
    let mut all_day = t6.clone();
    all_day.options.storm_all_day = true;
    assert_eq!(
        reach_count(&all_day),
        reach_count(&t8),
        "option storm=all-day"
    );
}

#[test]
fn rule_3_all_units_start_full_and_turn_marker_on_one() {
    let g = game();
    for sc in ["freemans-farm", "oriskany"] {
        let s = g.new_game(sc, &Options::new(), 9).unwrap();
        assert_eq!(s.turn, 1);
        assert!(s.units.iter().all(|u| !u.reduced && !u.moved));
    }
}
