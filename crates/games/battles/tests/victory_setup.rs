//! §4 sequence of play, §10 victory, §11 Freeman's Farm and §12 Oriskany set-ups and special
//! rules.

mod common;
use common::*;
use muster_battles::data::{StarSide, Start};
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
fn rule_10_a_shared_star_scores_for_either_side() {
    // The second test map has a star for both sides at C3.
    let g = game();
    let mut s = blank_extras(&g);
    put(&mut s, "a1", "C3");
    let v = g.view(&s, muster_core::Viewer::Spectator).vp;
    assert_eq!((v.american, v.british), (1, 0));
    set_loc(&mut s, "a1", Loc::Absent);
    put(&mut s, "b1", "C3");
    let v = g.view(&s, muster_core::Viewer::Spectator).vp;
    assert_eq!((v.american, v.british), (0, 1));
}

#[test]
fn rule_10_both_sides_reaching_the_goal_at_once_go_to_the_americans() {
    // Second test map, goal 2. Each side has 1 VP (one enemy unit eliminated). a1 and a
    // reduced a2 attack b1 and lose without a loss; a1's only retreat hex is the blue star
    // D1 (2 American VP), and a2, cornered at A1, takes one more loss and is eliminated
    // (2 British VP), all in one decision.
    let g = game();
    let mut s = blank_extras(&g);
    s.phase = Phase::Attacks;
    set_loc(&mut s, "b2", Loc::Eliminated);
    set_loc(&mut s, "a3", Loc::Eliminated);
    put(&mut s, "b1", "B1");
    put(&mut s, "a1", "C1");
    put(&mut s, "a2", "A1");
    reduce(&mut s, "a2");
    act(&g, &mut s, "attack b1");
    act(&g, &mut s, "add a1");
    act(&g, &mut s, "add a2");
    s.dice = dice_rolling(&[1, 1]); // 3 + 1 against 3 + 1: the defender wins the tie
    act(&g, &mut s, "commit");
    assert_eq!(at(&s, "a1"), Loc::Map(h("D1")));
    assert_eq!(at(&s, "a2"), Loc::Eliminated);
    let e = s.ended.expect("a side reached the goal");
    assert_eq!((e.vp.american, e.vp.british), (2, 2));
    assert_eq!(e.reason, EndReason::VpGoal);
    assert_eq!(e.winner, SideId(0), "both at the goal: the Americans win");
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
    let stars: Vec<(String, StarSide)> = sc
        .stars
        .iter()
        .map(|(h, side)| (h.to_string(), *side))
        .collect();
    assert_eq!(
        stars,
        [
            ("A1".to_string(), StarSide::Side(0)),
            ("C9".to_string(), StarSide::Side(1)),
            ("L9".to_string(), StarSide::Side(1)),
        ],
        "a blue star at A1, red stars at C9 and L9"
    );
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

/// Oriskany in play with every unit off the map, the Americans moving on `turn`.
fn oriskany_empty(turn: u8) -> (muster_battles::Battles, muster_battles::State) {
    let (g, mut s) = oriskany_in_play();
    for u in s.units.iter_mut() {
        u.at = Loc::Absent;
        u.moved = false;
        u.rallied = false;
    }
    s.turn = turn;
    s.active = SideId(0);
    s.phase = Phase::Movement {
        selected: None,
        force_march: false,
    };
    (g, s)
}

#[test]
fn rule_12_no_attacks_on_turns_7_and_8_and_the_storm_costs_one_mp() {
    // No attacks on turns 7 and 8, though an American unit stands next to a British one.
    for (turn, storm) in [(6, false), (7, true), (8, true), (9, false)] {
        let (g, mut s) = oriskany_empty(turn);
        put(&mut s, "cox", "C3");
        put(&mut s, "krrny", "C4");
        s.active = SideId(1);
        let ev = act(&g, &mut s, "end-movement");
        let no_attacks = ev
            .iter()
            .any(|e| matches!(e, muster_battles::Event::StormNoAttacks { .. }));
        assert_eq!(no_attacks, storm, "turn {turn}");
        assert_eq!(s.phase == Phase::Attacks, !storm, "turn {turn}");
    }
    // The storm takes exactly 1 MP on turns 7 and 8 (rulings B2): Cox (3 MP) on the road at
    // G5 goes six road hexes west (to A5) in fair weather, four (to C5) in the storm.
    let reach = |turn: u8, all_day: bool| {
        let (g, mut s) = oriskany_empty(turn);
        s.options.storm_all_day = all_day;
        put(&mut s, "cox", "G5");
        act(&g, &mut s, "select cox");
        destinations(&g, &s)
    };
    for turn in [6, 9] {
        let d = reach(turn, false);
        assert!(d.contains(&"A5".to_string()), "turn {turn}: 3 MP: {d:?}");
    }
    for turn in [7, 8] {
        let d = reach(turn, false);
        assert!(d.contains(&"C5".to_string()), "turn {turn}: 2 MP: {d:?}");
        assert!(
            !d.contains(&"B5".to_string()),
            "turn {turn}: not 3 MP: {d:?}"
        );
    }
    assert_eq!(reach(6, true), reach(8, false), "option storm=all-day");
}

#[test]
fn rule_12_leaving_at_a5_costs_one_mp_more_and_not_when_stopped_next_to_an_enemy() {
    // Rulings B14, with Cox (3 MP) on the road in fair weather (turn 6).
    let exit_offered = |from: &str, enemy: Option<&str>| {
        let (g, mut s) = oriskany_empty(6);
        put(&mut s, "cox", from);
        if let Some(e) = enemy {
            put(&mut s, "krrny", e);
        }
        act(&g, &mut s, "select cox");
        legal(&g, &s).contains(&"exit".to_string())
    };
    // E5 is four road hexes from A5 (2 MP): 2 + 1 = 3 MP.
    assert!(exit_offered("E5", None));
    // F5 is five (2½ MP): 3½ MP, more than Cox has, though A5 itself is in reach.
    assert!(!exit_offered("F5", None));
    // An enemy at A4 is next to A5: a unit reaching A5 must stop there, so cannot leave...
    assert!(!exit_offered("C5", Some("A4")));
    assert!(exit_offered("C5", None));
    // ...but a unit already standing on A5 may leave.
    assert!(exit_offered("A5", Some("A4")));
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
