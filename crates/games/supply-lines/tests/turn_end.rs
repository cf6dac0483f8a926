//! Rule tests for §9 Turn End, §10 Winter, §11 Support, §12 Crown Expectations and §13
//! Victory, on hand-built positions.

mod common;
use common::*;
use muster_core::Game;
use muster_supply_lines::Event;
use muster_supply_lines::state::{EndReason, Phase, Pick};

/// Ends the Impulse Phase at once (the Pass Marker on 1, the Patriot passing).
fn end_impulses(
    g: &muster_supply_lines::SupplyLines,
    s: &mut muster_supply_lines::State,
) -> Vec<Event> {
    s.pass = 1;
    s.phase = Phase::Impulse {
        side: P,
        pick: Pick::default(),
        moved: false,
    };
    play(g, s, &["pass"])
}

#[test]
fn rule_9_0_patriot_reinforcements_by_the_support_track_none_in_crown_cities() {
    let g = game();
    let mut s = blank(&g, P);
    keep_leaders(&g, &mut s);
    s.support = 2; // three draws
    let d = g.data();
    // Leave only three markers in the cup: Boston (Crown-held), Albany and Hartford.
    let pick = |city: &str| {
        d.patriot_markers
            .iter()
            .position(|&c| c == at(&g, city))
            .unwrap()
    };
    s.cup = 1 << pick("boston") | 1 << pick("albany") | 1 << pick("hartford");
    put(&g, &mut s, "boston", C, 2, 0, 0, 0);
    let ev = end_impulses(&g, &mut s);
    let drawn = ev
        .iter()
        .filter(|e| matches!(e, Event::Drew { .. }))
        .count();
    assert_eq!(drawn, 3);
    assert_eq!(s.area(at(&g, "albany")).units, 2);
    assert_eq!(s.area(at(&g, "hartford")).units, 2);
    assert_eq!(
        s.area(at(&g, "boston")).units,
        2,
        "no Patriots in a Crown-held City"
    );
    assert_eq!(s.cup, 0);
    assert_eq!(s.drawn.count_ones(), 3);
    // An empty cup gives nothing more.
    let ev = end_impulses(&g, &mut s);
    assert!(ev.contains(&Event::CupEmpty));
}

#[test]
fn rule_9_0_no_reinforcements_in_the_last_four_turns() {
    let g = game();
    let mut s = blank(&g, P);
    keep_leaders(&g, &mut s);
    s.turn = 9;
    let cup = s.cup;
    let ev = end_impulses(&g, &mut s);
    assert!(!ev.iter().any(|e| matches!(e, Event::Drew { .. })));
    assert_eq!(s.cup, cup);
}

#[test]
fn rule_9_0_dug_in_markers_come_off_at_turn_end() {
    let g = game();
    let mut s = blank(&g, P);
    keep_leaders(&g, &mut s);
    put(&g, &mut s, "albany", P, 2, 0, 0, 0);
    s.area_mut(at(&g, "albany")).dug_in = true;
    end_impulses(&g, &mut s);
    assert!(!s.area(at(&g, "albany")).dug_in);
}

#[test]
fn rule_10_1_winter_disbanding_in_three_cases() {
    let g = game();
    let mut s = blank(&g, P);
    put(&g, &mut s, "nova-scotia", C, 1, 1, 0, 0);
    s.turn = 4; // the first Winter Turn
    s.cup = 0;
    put(&g, &mut s, "hartford", P, 5, 1, 0, 0); // a Leader: loses half, rounded down
    put(&g, &mut s, "albany", P, 5, 0, 3, 2); // a Victory City: keeps two
    put(&g, &mut s, "trenton", P, 3, 0, 3, 2); // anything else goes home, Food with it
    put(&g, &mut s, "kinderhook", P, 1, 0, 1, 1); // at a Point: carried cubes lost
    end_impulses(&g, &mut s);
    assert_eq!(s.area(at(&g, "hartford")).units, 3);
    assert_eq!(s.area(at(&g, "albany")).units, 2);
    assert_eq!(s.area(at(&g, "albany")).food, 3);
    let t = s.area(at(&g, "trenton"));
    assert_eq!((t.units, t.food, t.war), (0, 0, 2));
    assert_eq!(s.area(at(&g, "kinderhook")).cubes(), 0);
    // The first winter brings the third Leader: the Patriot places it.
    assert_eq!(s.phase, Phase::PlaceLeader);
    play(&g, &mut s, &["to albany"]);
    assert_eq!(s.area(at(&g, "albany")).leaders, 1);
    assert_eq!(s.turn, 5);
}

#[test]
fn rule_10_1_markers_return_to_the_cup_unless_their_city_is_crown_held() {
    let g = game();
    let mut s = blank(&g, P);
    keep_leaders(&g, &mut s);
    s.turn = 8; // the second Winter Turn (the last with reinforcements)
    let d = g.data();
    let pick = |city: &str| {
        d.patriot_markers
            .iter()
            .position(|&c| c == at(&g, city))
            .unwrap()
    };
    s.support = 0; // one draw + two in winter
    s.cup = 0;
    s.drawn = 1 << pick("boston") | 1 << pick("york");
    put(&g, &mut s, "boston", C, 2, 0, 0, 0);
    let ev = end_impulses(&g, &mut s);
    assert!(ev.contains(&Event::MarkersReturned {
        to_cup: 1,
        to_box: 1
    }));
    // Three draws wanted (1 + 2), one marker in the cup: it is drawn, then the cup is empty.
    assert!(ev.contains(&Event::CupEmpty));
    assert_eq!(s.drawn, 1 << pick("york"));
}

#[test]
fn rule_10_0_one_attack_per_side_in_winter() {
    let g = game();
    let mut s = blank(&g, P);
    keep_leaders(&g, &mut s);
    s.turn = 4;
    put(&g, &mut s, "cambridge", P, 2, 1, 3, 3);
    put(&g, &mut s, "roxbury", C, 1, 0, 0, 0);
    put(&g, &mut s, "boston", C, 1, 1, 0, 0);
    assert!(is_legal(&g, &s, "skirmish cambridge"));
    s.winter_attack[0] = true;
    assert!(!is_legal(&g, &s, "skirmish cambridge"));
    assert!(!is_legal(&g, &s, "attack cambridge"));
    s.turn = 5;
    assert!(
        is_legal(&g, &s, "attack cambridge"),
        "no limit in a Campaign Turn"
    );
}

#[test]
fn rule_11_0_quebec_and_philadelphia_move_support_at_turn_end() {
    let g = game();
    let mut s = blank(&g, P);
    keep_leaders(&g, &mut s);
    s.cup = 0;
    put(&g, &mut s, "quebec", P, 1, 0, 0, 0);
    let before = s.support;
    end_impulses(&g, &mut s);
    assert_eq!(s.support, before + 1);
    put(&g, &mut s, "quebec", P, 0, 0, 0, 0);
    put(&g, &mut s, "philadelphia", C, 1, 0, 0, 0);
    end_impulses(&g, &mut s);
    assert_eq!(s.support, before);
}

#[test]
fn rule_11_0_the_first_patriot_attack_on_quebec_advances_support_once() {
    let g = game();
    let mut s = blank(&g, P);
    keep_leaders(&g, &mut s);
    put(&g, &mut s, "chaudiere", P, 2, 1, 1, 2);
    put(&g, &mut s, "quebec", C, 4, 1, 0, 0);
    put(&g, &mut s, "trois-rivieres", C, 1, 0, 0, 0);
    let before = s.support;
    s.dice = dice_rolling(&[6]);
    play(&g, &mut s, &["attack chaudiere", "units 2"]);
    assert!(s.quebec_attacked);
    assert_eq!(s.support, before + 1);
}

#[test]
fn rule_11_1_declaration_gives_war_sets_a_floor_and_raises_the_hudson_goal() {
    let g = game();
    let mut s = blank(&g, C);
    keep_leaders(&g, &mut s);
    let d = g.data();
    s.support = d.declaration - 1;
    put(&g, &mut s, "albany", P, 2, 0, 0, 0);
    put(&g, &mut s, "hartford", C, 1, 0, 0, 2);
    play(&g, &mut s, &["destroy hartford"]);
    assert!(s.declared);
    assert_eq!(
        s.area(at(&g, "albany")).war,
        2,
        "two War in each Patriot City"
    );
    assert_eq!(s.area(at(&g, "york")).war, 2);
    // The floor: no regress below the first Declaration space.
    put(&g, &mut s, "philadelphia", C, 1, 0, 0, 0);
    end_impulses(&g, &mut s);
    assert_eq!(s.support, d.declaration);
}

#[test]
fn rule_11_2_the_treaty_of_alliance_ends_the_game() {
    let g = game();
    let mut s = blank(&g, C);
    keep_leaders(&g, &mut s);
    s.declared = true;
    s.support = g.data().treaty - 1;
    put(&g, &mut s, "hartford", C, 1, 0, 0, 2);
    play(&g, &mut s, &["destroy hartford"]);
    let e = s.ended.unwrap();
    assert_eq!((e.winner, e.reason), (Some(P), EndReason::Treaty));
    assert_eq!(g.to_act(&s), None);
}

#[test]
fn rule_12_0_an_asterisk_deadline_missed_loses_the_game_for_the_crown() {
    let g = game();
    let d = g.data();
    let mut s = blank(&g, P);
    keep_leaders(&g, &mut s);
    s.turn = 5;
    s.crown_taken = 2;
    s.phase = Phase::Request;
    play(&g, &mut s, &["request"]);
    assert_eq!(d.crown_markers[2].vc, 5);
    assert!(d.crown_markers[2].asterisk);
    // Due at the end of 1776's last Campaign Turn (turn 7).
    assert_eq!(s.deadlines, 1 << 7);
    s.turn = 7;
    s.cup = 0;
    end_impulses(&g, &mut s);
    let e = s.ended.unwrap();
    assert_eq!((e.winner, e.reason), (Some(P), EndReason::Expectations));
}

#[test]
fn rule_12_1_the_triumvirate_replaces_every_crown_leader_and_raises_the_goal() {
    let g = game();
    let mut s = blank(&g, P);
    keep_leaders(&g, &mut s);
    put(&g, &mut s, "boston", C, 3, 2, 0, 0);
    s.phase = Phase::Request;
    play(&g, &mut s, &["triumvirate"]);
    assert_eq!(muster_supply_lines::victory::required(g.data(), &s), 4);
    assert!(!legal(&g, &s).is_empty());
    s.turn = 3;
    s.phase = Phase::Over;
    let mut ev = Vec::new();
    muster_supply_lines::sequence::begin_turn(g.data(), &mut s, &mut ev);
    assert_eq!(s.area(at(&g, "boston")).leaders, 0);
    assert_eq!(s.area(at(&g, "nova-scotia")).leaders, 3);
    assert_eq!(s.leaders_of(C), 3);
}

#[test]
fn rule_13_1_the_fourth_marker_must_bring_victory_that_year() {
    let g = game();
    let mut s = blank(&g, P);
    keep_leaders(&g, &mut s);
    s.turn = 9;
    s.crown_taken = 3;
    s.phase = Phase::Request;
    play(&g, &mut s, &["request"]);
    assert_eq!(s.last_chance, 12);
    s.turn = 12;
    end_impulses(&g, &mut s);
    let e = s.ended.unwrap();
    assert_eq!((e.winner, e.reason), (Some(P), EndReason::FourthMarker));
}

#[test]
fn rule_13_2_the_hudson_line_at_turn_end_wins_for_the_crown() {
    let g = game();
    let mut s = blank(&g, P);
    keep_leaders(&g, &mut s);
    put(&g, &mut s, "new-york", C, 1, 0, 0, 0);
    put(&g, &mut s, "albany", C, 1, 0, 0, 0);
    end_impulses(&g, &mut s);
    let e = s.ended.unwrap();
    assert_eq!((e.winner, e.reason), (Some(C), EndReason::HudsonLine));
    // After the Declaration Philadelphia is needed too.
    let mut s = blank(&g, P);
    keep_leaders(&g, &mut s);
    s.declared = true;
    s.support = g.data().declaration;
    s.cup = 0;
    put(&g, &mut s, "new-york", C, 1, 0, 0, 0);
    put(&g, &mut s, "albany", C, 1, 0, 0, 0);
    end_impulses(&g, &mut s);
    assert!(s.ended.is_none());
}

#[test]
fn rule_13_2_victory_cities_at_the_end_of_the_game() {
    let g = game();
    let mut s = blank(&g, P);
    keep_leaders(&g, &mut s);
    s.turn = 12;
    for c in ["boston", "quebec", "providence"] {
        put(&g, &mut s, c, C, 1, 0, 0, 0);
    }
    end_impulses(&g, &mut s);
    let e = s.ended.unwrap();
    assert_eq!((e.winner, e.reason), (Some(C), EndReason::VictoryCities));
}

#[test]
fn rule_13_4_concession_is_an_action() {
    let g = game();
    let mut s = blank(&g, C);
    keep_leaders(&g, &mut s);
    play(&g, &mut s, &["concede"]);
    let e = s.ended.unwrap();
    assert_eq!((e.winner, e.reason), (Some(P), EndReason::Concession));
}

/// Runs the next turn's start (arrivals, §5.7, §12.1) from turn `turn`.
fn start_turn(g: &muster_supply_lines::SupplyLines, s: &mut muster_supply_lines::State, turn: u8) {
    s.turn = turn;
    s.phase = Phase::Over;
    let mut ev = Vec::new();
    muster_supply_lines::sequence::begin_turn(g.data(), s, &mut ev);
}

/// A numbered marker and the Triumvirate waiting in Nova Scotia together (one taken before a
/// Winter Turn, the other in it) arrive in the order the Crown took them (rulings S18): the
/// Triumvirs remove the Leaders who would have been on the map had each arrived in its own
/// turn, no more and no fewer.
#[test]
fn rule_12_1_a_marker_and_the_triumvirate_waiting_together_arrive_in_the_order_taken() {
    let g = game();
    let markers = &g.data().crown_markers;
    assert!(
        markers[1].leaders > 0,
        "marker 2 brings a Leader (rulings R12)"
    );
    for triumvirate_first in [false, true] {
        let mut s = blank(&g, P);
        keep_leaders(&g, &mut s);
        put(&g, &mut s, "boston", C, 3, 1, 0, 0);
        s.crown_taken = 1;
        let order = if triumvirate_first {
            ["triumvirate", "request"]
        } else {
            ["request", "triumvirate"]
        };
        // Turn 3, the last Campaign Turn of 1775, then the Winter Turn 4.
        for (turn, a) in [3, 4].into_iter().zip(order) {
            s.turn = turn;
            s.phase = Phase::Request;
            play(&g, &mut s, &[a]);
        }
        assert_eq!(s.crown_taken, 2);
        start_turn(&g, &mut s, 5);
        let nova = s.area(at(&g, "nova-scotia"));
        assert_eq!(s.area(at(&g, "boston")).leaders, 0, "{order:?}");
        assert_eq!(nova.units, 1 + markers[1].units, "{order:?}");
        let expected = if triumvirate_first {
            3 + markers[1].leaders
        } else {
            3
        };
        assert_eq!(nova.leaders, expected, "{order:?}");
        assert_eq!(s.leaders_of(C), expected as u32, "{order:?}");
        assert_eq!(s.in_nova, 0);
    }
}

#[test]
fn rule_10_1_disbanding_is_no_surrender_and_the_third_leader_comes_only_in_the_first_winter() {
    let g = game();
    let mut s = blank(&g, P);
    keep_leaders(&g, &mut s);
    s.turn = 8; // the second Winter Turn
    s.cup = 0;
    put(&g, &mut s, "trenton", P, 3, 0, 0, 0);
    let (support, leaders) = (s.support, s.leaders_of(P));
    end_impulses(&g, &mut s);
    assert_eq!(s.area(at(&g, "trenton")).units, 0, "gone home");
    assert_eq!(s.support, support, "going home moves no support");
    assert_ne!(s.phase, Phase::PlaceLeader);
    assert_eq!(s.leaders_of(P), leaders);
    assert_eq!(s.turn, 9);
}

#[test]
fn rule_12_1_removing_every_leader_for_the_triumvirs_does_not_lose_and_they_leave_only_with_units()
{
    let g = game();
    let mut s = blank(&g, C);
    put(&g, &mut s, "york", P, 1, 1, 0, 0);
    put(&g, &mut s, "boston", C, 3, 1, 0, 0);
    s.triumvirate = true;
    s.in_nova = 0x80; // the Triumvirate marker waiting in Nova Scotia
    let support = s.support;
    start_turn(&g, &mut s, 3);
    assert!(s.ended.is_none(), "§2.2: the exception of §12.1");
    assert_eq!(
        s.support, support,
        "removed, not eliminated: no support change"
    );
    let n = s.area(at(&g, "nova-scotia"));
    assert_eq!((n.units, n.leaders), (0, 3));
    s.phase = Phase::Impulse {
        side: C,
        pick: Pick::default(),
        moved: false,
    };
    assert!(
        !is_legal(&g, &s, "transport nova-scotia"),
        "no Units to go with"
    );
    // With Units to sail, the Triumvirs may go with them or some may stay (rulings S14).
    s.area_mut(at(&g, "nova-scotia")).units = 2;
    play(&g, &mut s, &["transport nova-scotia", "units 2"]);
    let l = legal(&g, &s);
    assert!(l.contains(&"leaders 1".to_string()), "{l:?}");
    assert!(l.contains(&"leaders 3".to_string()), "{l:?}");
    play(&g, &mut s, &["leaders 1"]);
    let n = s.area(at(&g, "nova-scotia"));
    assert_eq!((n.units, n.leaders), (0, 2));
    assert_eq!(s.area(at(&g, "sea")).leaders, 1);
}

#[test]
fn rule_10_0_two_winter_turns_the_second_the_last_with_reinforcements() {
    let g = game();
    let d = g.data();
    let winters: Vec<u8> = (1..=d.turns()).filter(|&t| d.is_winter(t)).collect();
    assert_eq!(d.turns(), 12, "rulings R9");
    assert_eq!(
        winters,
        vec![4, 8],
        "two Winter Turns (§10.0), the second before the last four (§9.0)"
    );
}

/// The first Patriot attack on Quebec advances support as the battle begins (§11.0); if that
/// declares Independence (§11.1), the War the attackers carry is in play, not in the stock
/// (rulings S22).
#[test]
fn rule_11_0_a_declaration_on_the_first_attack_on_quebec_counts_the_cubes_carried() {
    let g = game();
    let d = g.data();
    let mut s = blank(&g, P);
    keep_leaders(&g, &mut s);
    put(&g, &mut s, "chaudiere", P, 3, 1, 1, 3);
    put(&g, &mut s, "quebec", C, 2, 0, 0, 0);
    put(&g, &mut s, "cambridge", P, 1, 0, 0, 0);
    let mut left = d.war_cubes - 3;
    for f in [
        "ticonderoga",
        "crown-point",
        "st-johns",
        "fort-edward",
        "fort-stanwix",
        "trenton",
    ] {
        let n = left.min(8);
        s.area_mut(at(&g, f)).war = n;
        left -= n;
    }
    s.support = d.declaration - 1;
    let ev = play(&g, &mut s, &["attack chaudiere", "units 3"]);
    assert!(ev.contains(&Event::Declaration), "{ev:?}");
    assert!(
        !ev.iter()
            .any(|e| matches!(e, Event::DeclarationSupplies { war, .. } if *war > 0)),
        "every War cube is on the map or with the attackers: {ev:?}"
    );
    let (_, carried) = muster_supply_lines::supply::carried_in_battle(&s);
    assert_eq!(s.war_on_map() + carried as u32, d.war_cubes as u32);
}
