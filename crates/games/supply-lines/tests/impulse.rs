//! Rule tests for §4.0 Sequence of Play, §6.0 Initiative and §7 Impulses, on hand-built
//! positions.

mod common;
use common::*;
use muster_core::Game;
use muster_supply_lines::Event;
use muster_supply_lines::state::{Phase, Pick};

#[test]
fn rule_6_0_initiative_high_roll_wins_and_places_the_pass_marker() {
    let g = game();
    let mut s = blank(&g, P);
    keep_leaders(&g, &mut s);
    s.phase = Phase::Request;
    s.dice = dice_rolling(&[2, 4]);
    play(&g, &mut s, &["no-request"]);
    assert!(matches!(s.phase, Phase::Impulse { side, .. } if side == C));
    assert_eq!(g.data().pass_labels[s.pass as usize], "3-4");
    // A tie goes to the Crown before the Declaration, with the marker on 5-6.
    s.phase = Phase::Request;
    s.dice = dice_rolling(&[2, 2]);
    play(&g, &mut s, &["no-request"]);
    assert!(matches!(s.phase, Phase::Impulse { side, .. } if side == C));
    assert_eq!(g.data().pass_labels[s.pass as usize], "5-6");
    // ... and to the Patriot after it (§11.1).
    s.declared = true;
    s.phase = Phase::Request;
    s.dice = dice_rolling(&[2, 2]);
    play(&g, &mut s, &["no-request"]);
    assert!(matches!(s.phase, Phase::Impulse { side, .. } if side == P));
}

#[test]
fn rule_7_0_a_pass_moves_the_marker_back_and_two_passes_end_the_phase() {
    let g = game();
    let mut s = blank(&g, P);
    keep_leaders(&g, &mut s);
    s.pass = 4;
    play(&g, &mut s, &["pass"]);
    assert_eq!(s.pass, 3);
    assert!(matches!(s.phase, Phase::Impulse { side, .. } if side == C));
    let ev = play(&g, &mut s, &["pass"]);
    assert!(ev.contains(&Event::ImpulsesEnd), "two passes in a row");
    assert_eq!(s.turn, 3, "the Turn End Phase ran and the next turn began");
    // With the marker on 1, a single pass ends it.
    let mut s = blank(&g, P);
    keep_leaders(&g, &mut s);
    s.pass = 1;
    let ev = play(&g, &mut s, &["pass"]);
    assert!(ev.contains(&Event::ImpulsesEnd));
}

#[test]
fn rule_7_0_an_impulse_that_moves_supplies_is_no_passing_impulse() {
    let g = game();
    let mut s = blank(&g, P);
    keep_leaders(&g, &mut s);
    put(&g, &mut s, "albany", P, 1, 0, 3, 0);
    put(&g, &mut s, "kinderhook", P, 1, 0, 0, 0);
    assert!(is_legal(&g, &s, "pass"));
    play(&g, &mut s, &["from albany", "to kinderhook", "food 1"]);
    assert!(!is_legal(&g, &s, "pass"));
    assert!(is_legal(&g, &s, "march kinderhook"));
    // With nothing left to activate, the impulse may still end.
    put(&g, &mut s, "kinderhook", P, 1, 0, 0, 0);
    s.area_mut(at(&g, "albany")).food = 0;
    s.area_mut(at(&g, "york")).units = 0;
    s.area_mut(at(&g, "york")).leaders = 0;
    s.area_mut(at(&g, "york")).side = None;
    s.area_mut(at(&g, "albany")).leaders = 1;
    assert_eq!(legal(&g, &s), vec!["pass", "concede"]);
}

#[test]
fn rule_4_0_after_the_twelfth_turn_without_victory_both_lose() {
    let g = game();
    let mut s = blank(&g, P);
    keep_leaders(&g, &mut s);
    s.turn = 12;
    s.pass = 1;
    play(&g, &mut s, &["pass"]);
    let e = s.ended.expect("over");
    assert_eq!(e.winner, None);
    assert!(g.outcome(&s).unwrap().winner.is_none());
}

#[test]
fn rule_7_1_march_costs_a_food_per_four_units_rounded_up() {
    let g = game();
    let mut s = blank(&g, P);
    keep_leaders(&g, &mut s);
    put(&g, &mut s, "albany", P, 5, 0, 1, 0);
    assert!(
        !is_legal(&g, &s, "march albany"),
        "five Units need two Food"
    );
    s.area_mut(at(&g, "albany")).food = 2;
    play(&g, &mut s, &["march albany"]);
    assert_eq!(s.area(at(&g, "albany")).food, 0);
    // Splitting: three to Saratoga, two to Kinderhook, in one activation.
    play(
        &g,
        &mut s,
        &["to saratoga", "units 3", "to kinderhook", "units 2"],
    );
    assert_eq!(s.area(at(&g, "saratoga")).units, 3);
    assert_eq!(s.area(at(&g, "kinderhook")).units, 2);
    assert_eq!(s.area(at(&g, "albany")).units, 0);
    assert!(matches!(s.phase, Phase::Impulse { side, .. } if side == C));
}

#[test]
fn rule_7_1_a_leader_pays_only_for_the_units_that_move() {
    let g = game();
    let mut s = blank(&g, P);
    keep_leaders(&g, &mut s);
    put(&g, &mut s, "albany", P, 6, 1, 1, 0);
    play(&g, &mut s, &["march albany"]);
    let l = legal(&g, &s);
    assert!(
        l.contains(&"units 4".to_string()) && !l.contains(&"units 5".to_string()),
        "{l:?}"
    );
    play(
        &g,
        &mut s,
        &["units 4", "to saratoga", "units 4", "leaders 1"],
    );
    let x = s.area(at(&g, "saratoga"));
    assert_eq!((x.units, x.leaders), (4, 1));
    assert_eq!(s.area(at(&g, "albany")).units, 2);
    assert_eq!(s.area(at(&g, "albany")).food, 0);
}

#[test]
fn rule_7_1_marching_armies_merge_and_carry_up_to_units_plus_one() {
    let g = game();
    let mut s = blank(&g, P);
    keep_leaders(&g, &mut s);
    put(&g, &mut s, "albany", P, 2, 1, 8, 0);
    put(&g, &mut s, "saratoga", P, 1, 1, 0, 0);
    play(
        &g,
        &mut s,
        &["march albany", "units 2", "to saratoga", "units 2"],
    );
    // Two Units carry at most three cubes (§5.5); a Leader never counts.
    let l = legal(&g, &s);
    assert!(
        l.contains(&"food 3".to_string()) && !l.contains(&"food 4".to_string()),
        "{l:?}"
    );
    play(&g, &mut s, &["food 3"]);
    let x = s.area(at(&g, "saratoga"));
    assert_eq!((x.units, x.leaders, x.food), (3, 2, 3), "one larger army");
    // Marching into an enemy area is no march.
    let mut s = blank(&g, P);
    keep_leaders(&g, &mut s);
    put(&g, &mut s, "albany", P, 2, 0, 1, 0);
    put(&g, &mut s, "saratoga", C, 1, 0, 0, 0);
    play(&g, &mut s, &["march albany"]);
    assert!(!is_legal(&g, &s, "to saratoga"));
}

#[test]
fn rule_7_2_transport_moves_crown_units_through_the_sea_box_without_supplies() {
    let g = game();
    let mut s = blank(&g, C);
    keep_leaders(&g, &mut s);
    put(&g, &mut s, "boston", C, 3, 1, 4, 0);
    put(&g, &mut s, "new-york", P, 1, 0, 0, 0);
    play(&g, &mut s, &["transport boston", "units 3"]);
    let sea = s.area(at(&g, "sea"));
    assert_eq!((sea.units, sea.leaders, sea.food), (3, 1, 0));
    assert_eq!(s.area(at(&g, "boston")).food, 4, "supplies stay behind");
    s.phase = Phase::Impulse {
        side: C,
        pick: Pick::default(),
        moved: false,
    };
    play(&g, &mut s, &["transport sea"]);
    assert!(
        !is_legal(&g, &s, "to new-york"),
        "never into a Patriot-held port"
    );
    assert!(is_legal(&g, &s, "to philadelphia"));
    // The Patriot has no Transport.
    let mut s = blank(&g, P);
    keep_leaders(&g, &mut s);
    put(&g, &mut s, "boston", P, 3, 1, 4, 0);
    assert!(!is_legal(&g, &s, "transport boston"));
}

#[test]
fn rule_7_3_attack_needs_a_leader_food_and_war_for_one_die() {
    let g = game();
    let mut s = blank(&g, C);
    keep_leaders(&g, &mut s);
    put(&g, &mut s, "boston", C, 4, 0, 2, 2);
    put(&g, &mut s, "cambridge", P, 2, 0, 0, 0);
    assert!(!is_legal(&g, &s, "attack boston"), "no Leader");
    s.area_mut(at(&g, "boston")).leaders = 1;
    s.area_mut(at(&g, "boston")).war = 0;
    assert!(!is_legal(&g, &s, "attack boston"), "no War");
    s.area_mut(at(&g, "boston")).war = 1;
    assert!(
        is_legal(&g, &s, "attack boston"),
        "the Crown earns a die per War, rounding up"
    );
    // The Patriot needs two War against a City.
    let mut s = blank(&g, P);
    keep_leaders(&g, &mut s);
    put(&g, &mut s, "cambridge", P, 4, 1, 2, 1);
    put(&g, &mut s, "boston", C, 2, 0, 0, 0);
    assert!(!is_legal(&g, &s, "attack cambridge"));
    s.area_mut(at(&g, "cambridge")).war = 2;
    assert!(is_legal(&g, &s, "attack cambridge"));
    // A leader's units must all go to one area: the target is a single decision.
    play(&g, &mut s, &["attack cambridge"]);
    assert!(
        legal(&g, &s).iter().all(|a| a.starts_with("units")),
        "{:?}",
        legal(&g, &s)
    );
}

#[test]
fn rule_7_5_dig_in_costs_one_food_one_war_and_blocks_activation() {
    let g = game();
    let mut s = blank(&g, P);
    keep_leaders(&g, &mut s);
    put(&g, &mut s, "albany", P, 6, 1, 2, 2);
    put(&g, &mut s, "saratoga", P, 1, 0, 0, 0);
    assert!(
        !is_legal(&g, &s, "dig-in saratoga"),
        "only in a City or Fort"
    );
    play(&g, &mut s, &["dig-in albany"]);
    let x = s.area(at(&g, "albany"));
    assert!(x.dug_in);
    assert_eq!((x.food, x.war), (1, 1));
    s.phase = Phase::Impulse {
        side: P,
        pick: Pick::default(),
        moved: false,
    };
    assert!(
        !legal(&g, &s)
            .iter()
            .any(|a| a.ends_with(" albany") && !a.starts_with("from"))
    );
}

#[test]
fn rule_7_6_bombard_spends_all_sea_war_and_hits_on_ones() {
    let g = game();
    let mut s = blank(&g, C);
    keep_leaders(&g, &mut s);
    s.area_mut(at(&g, "sea")).war = 3;
    put(&g, &mut s, "boston", C, 2, 1, 0, 0);
    put(&g, &mut s, "new-york", P, 3, 1, 0, 0);
    put(&g, &mut s, "albany", P, 3, 0, 0, 0);
    put(&g, &mut s, "providence", P, 1, 0, 0, 0);
    s.dice = dice_rolling(&[1, 4, 1]);
    play(&g, &mut s, &["bombard boston"]);
    assert!(!is_legal(&g, &s, "to albany"), "only ports");
    play(&g, &mut s, &["to new-york"]);
    assert_eq!(s.area(at(&g, "new-york")).units, 1);
    assert_eq!(s.area(at(&g, "sea")).war, 0);
}

#[test]
fn rule_7_7_destroy_costs_two_war_spares_victory_cities_and_advances_support() {
    let g = game();
    let mut s = blank(&g, C);
    keep_leaders(&g, &mut s);
    put(&g, &mut s, "hartford", C, 1, 0, 0, 2);
    put(&g, &mut s, "boston", C, 1, 0, 0, 2);
    assert!(!is_legal(&g, &s, "destroy boston"), "a Victory City");
    let before = s.support;
    play(&g, &mut s, &["destroy hartford"]);
    assert!(s.area(at(&g, "hartford")).destroyed);
    assert_eq!(s.area(at(&g, "hartford")).war, 0);
    assert_eq!(s.support, before + 1);
}

#[test]
fn rule_7_0_putting_a_limit_right_does_not_stop_a_pass_but_a_free_move_does() {
    let g = game();
    let mut s = blank(&g, P);
    keep_leaders(&g, &mut s);
    // Kinderhook (one Unit, carries two) holds three: one over, as a battle may leave it.
    put(&g, &mut s, "kinderhook", P, 1, 0, 3, 0);
    put(&g, &mut s, "albany", P, 1, 0, 0, 0);
    // While it is over, the next move takes its excess (one cube) and nothing else.
    assert_eq!(legal(&g, &s), vec!["from kinderhook"]);
    play(&g, &mut s, &["from kinderhook", "to albany"]);
    assert!(!is_legal(&g, &s, "food 2"), "no more than the excess");
    play(&g, &mut s, &["food 1"]);
    assert!(
        is_legal(&g, &s, "pass"),
        "putting a limit right is no free move"
    );
    // A free move now makes the impulse a non-passing one.
    play(&g, &mut s, &["from kinderhook", "to albany", "food 1"]);
    assert!(!is_legal(&g, &s, "pass"));
    assert!(is_legal(&g, &s, "march albany"));
}

/// Albany's leaderless army of three, Fort Edward's garrison holding War, Saratoga empty
/// between them: no supply line joins Albany and Fort Edward until someone stands at Saratoga.
fn albany_and_fort_edward() -> (muster_supply_lines::SupplyLines, muster_supply_lines::State) {
    let g = game();
    let mut s = blank(&g, P);
    keep_leaders(&g, &mut s);
    put(&g, &mut s, "albany", P, 3, 0, 1, 0);
    put(&g, &mut s, "fort-edward", P, 1, 0, 0, 4);
    (g, s)
}

#[test]
fn rule_5_3_supplies_move_between_the_detachments_of_a_march() {
    let (g, mut s) = albany_and_fort_edward();
    // Before the impulse the War at Fort Edward cannot reach Albany (§5.3: no line).
    assert!(!is_legal(&g, &s, "from fort-edward"), "{:?}", legal(&g, &s));
    play(&g, &mut s, &["march albany"]);
    // Before the first detachment a move would be no different from one made before the
    // activation: none is offered (rulings S16).
    assert!(!is_legal(&g, &s, "from fort-edward"), "{:?}", legal(&g, &s));
    play(&g, &mut s, &["to saratoga", "units 1"]);
    assert_eq!(
        s.area(at(&g, "saratoga")).units,
        1,
        "the first detachment went"
    );
    // Saratoga joins Albany and Fort Edward into one line: supplies may move now, during the
    // impulse (§5.3), and the next detachment may still go.
    let l = legal(&g, &s);
    assert!(l.contains(&"from fort-edward".to_string()), "{l:?}");
    assert!(l.contains(&"to mohawk-valley".to_string()), "{l:?}");
    assert!(l.contains(&"end-march".to_string()), "{l:?}");
    play(&g, &mut s, &["from fort-edward", "to albany", "war 3"]);
    assert_eq!(s.area(at(&g, "albany")).war, 3);
    assert_eq!(s.area(at(&g, "fort-edward")).war, 1);
    assert!(matches!(s.phase, Phase::Activate { .. }), "{:?}", s.phase);
    // §5.5: leaving Albany the second detachment picks up what two Units carry.
    play(&g, &mut s, &["to mohawk-valley", "units 2", "war 3"]);
    let m = s.area(at(&g, "mohawk-valley"));
    assert_eq!((m.units, m.war), (2, 3));
    assert_eq!(s.area(at(&g, "albany")).units, 0);
    // No Unit is left to march: the activation is over, the impulse's last supply moves follow.
    assert!(matches!(s.phase, Phase::After { .. }), "{:?}", s.phase);
}

#[test]
fn rule_5_3_a_supply_move_between_detachments_can_be_cancelled_and_names_its_steps() {
    let (g, mut s) = albany_and_fort_edward();
    play(&g, &mut s, &["march albany", "to saratoga", "units 1"]);
    let before = s.clone();
    play(&g, &mut s, &["from fort-edward"]);
    // While the move is being chosen, "to" names where the supplies go, not a detachment.
    let mut acts = Vec::new();
    g.legal_actions(&s, &mut acts);
    let to_albany = action(&g, &s, "to albany");
    assert!(acts.contains(&to_albany));
    assert!(
        g.label(&s, to_albany).contains('…'),
        "{}",
        g.label(&s, to_albany)
    );
    assert!(!is_legal(&g, &s, "end-march"), "{:?}", legal(&g, &s));
    play(&g, &mut s, &["cancel"]);
    assert_eq!(s, before, "cancelling leaves the march where it was");
}

#[test]
fn rule_5_3_limits_are_checked_when_the_player_has_finished_moving() {
    let (g, mut s) = albany_and_fort_edward();
    play(&g, &mut s, &["march albany", "to saratoga", "units 1"]);
    // One Unit at Saratoga carries two cubes (§5.5); four may pass through it for a while.
    play(&g, &mut s, &["from fort-edward", "to saratoga", "war 4"]);
    assert_eq!(s.area(at(&g, "saratoga")).war, 4);
    play(&g, &mut s, &["to mohawk-valley", "units 2"]);
    // The activation is over: now the excess must go (§5.3, §5.5) before the impulse ends.
    // Saratoga is the only over-full area, so the move out of it is already begun.
    let Phase::After { pick, .. } = s.phase else {
        panic!("{:?}", s.phase)
    };
    assert_eq!(pick.from, Some(at(&g, "saratoga")));
    let l = legal(&g, &s);
    assert!(!l.contains(&"done".to_string()), "{l:?}");
    assert!(l.contains(&"to fort-edward".to_string()), "{l:?}");
    play(&g, &mut s, &["to fort-edward", "war 2"]);
    assert!(is_legal(&g, &s, "done"), "{:?}", legal(&g, &s));
}

/// §5.2 calls Nova Scotia a "City" only in quotation marks: a base whose output comes from
/// the Crown track whether or not anyone is there, which a Destroyed marker (no more
/// production, §7.7) could not touch. So it is never a target of Destroy (rulings S19).
#[test]
fn rule_7_7_nova_scotia_is_never_destroyed() {
    let g = game();
    let mut s = blank(&g, C);
    keep_leaders(&g, &mut s);
    put(&g, &mut s, "nova-scotia", C, 2, 1, 0, 2);
    put(&g, &mut s, "montreal", C, 2, 0, 0, 2);
    assert!(!g.data().is(g.data().victory, at(&g, "nova-scotia")));
    assert!(is_legal(&g, &s, "destroy montreal"), "{:?}", legal(&g, &s));
    assert!(!is_legal(&g, &s, "destroy nova-scotia"));
    assert!(try_play(&g, &mut s, "destroy nova-scotia").is_err());
}

#[test]
fn rule_7_0_an_army_may_be_activated_again_in_the_same_turn() {
    let g = game();
    let mut s = blank(&g, P);
    keep_leaders(&g, &mut s);
    put(&g, &mut s, "albany", P, 2, 0, 2, 0);
    play(
        &g,
        &mut s,
        &["march albany", "to saratoga", "units 2", "food 1"],
    );
    assert!(
        matches!(s.phase, Phase::Impulse { side, .. } if side == C),
        "{:?}",
        s.phase
    );
    play(&g, &mut s, &["pass"]);
    assert!(is_legal(&g, &s, "march saratoga"), "{:?}", legal(&g, &s));
}

#[test]
fn rule_7_3_an_army_in_the_sea_box_cannot_attack() {
    let g = game();
    let mut s = blank(&g, C);
    keep_leaders(&g, &mut s);
    put(&g, &mut s, "sea", C, 3, 1, 0, 2);
    put(&g, &mut s, "boston", P, 2, 0, 0, 0);
    assert!(!is_legal(&g, &s, "attack sea"));
    assert!(is_legal(&g, &s, "transport sea"));
}

#[test]
fn rule_7_3_one_leader_is_enough_and_several_may_go_together() {
    let g = game();
    let mut s = blank(&g, C);
    keep_leaders(&g, &mut s);
    put(&g, &mut s, "boston", C, 6, 2, 4, 4);
    put(&g, &mut s, "cambridge", P, 2, 0, 0, 0);
    play(&g, &mut s, &["attack boston", "units 4"]);
    assert_eq!(legal(&g, &s), vec!["leaders 1", "leaders 2"]);
}

#[test]
fn rule_7_1_a_leader_may_stay_behind_or_go_with_any_one_detachment() {
    let g = game();
    let mut s = blank(&g, P);
    keep_leaders(&g, &mut s);
    put(&g, &mut s, "albany", P, 4, 1, 2, 0);
    play(
        &g,
        &mut s,
        &["march albany", "units 4", "to saratoga", "units 2"],
    );
    assert_eq!(legal(&g, &s), vec!["leaders 0", "leaders 1"]);
    play(
        &g,
        &mut s,
        &["leaders 0", "food 0", "to kinderhook", "units 2"],
    );
    assert!(!is_legal(&g, &s, "leaders 0"), "{:?}", legal(&g, &s));
    play(&g, &mut s, &["food 1"]);
    // The last Units to leave take the Leader: a Leader is no army by himself (rulings S14).
    assert_eq!(s.area(at(&g, "kinderhook")).leaders, 1);
    assert_eq!(s.area(at(&g, "saratoga")).leaders, 0);
}

#[test]
fn rule_7_6_bombard_ignores_dug_in_and_may_target_a_port_point() {
    let g = game();
    let mut s = blank(&g, C);
    keep_leaders(&g, &mut s);
    s.area_mut(at(&g, "sea")).war = 1;
    put(&g, &mut s, "boston", C, 2, 1, 0, 0);
    put(&g, &mut s, "new-york", P, 2, 0, 0, 0);
    s.area_mut(at(&g, "new-york")).dug_in = true;
    put(&g, &mut s, "long-island", P, 1, 0, 0, 0);
    s.dice = dice_rolling(&[1]);
    play(&g, &mut s, &["bombard boston"]);
    assert!(is_legal(&g, &s, "to long-island"), "a port Point");
    play(&g, &mut s, &["to new-york"]);
    assert_eq!(
        s.area(at(&g, "new-york")).units,
        1,
        "digging in does not help"
    );
}

#[test]
fn rule_7_2_transport_works_from_a_port_point() {
    let g = game();
    let mut s = blank(&g, C);
    keep_leaders(&g, &mut s);
    put(&g, &mut s, "long-island", C, 2, 0, 0, 0);
    put(&g, &mut s, "saratoga", C, 2, 0, 0, 0);
    assert!(is_legal(&g, &s, "transport long-island"));
    assert!(!is_legal(&g, &s, "transport saratoga"), "not a port");
}

/// §5.5: an army marching from a Point into an empty City stores what it carried there.
#[test]
fn rule_5_5_supplies_carried_into_a_friendly_or_empty_city_are_stored_there() {
    let g = game();
    let mut s = blank(&g, P);
    keep_leaders(&g, &mut s);
    put(&g, &mut s, "kinderhook", P, 2, 0, 2, 1);
    play(&g, &mut s, &["march kinderhook", "to albany", "units 2"]);
    let k = s.area(at(&g, "kinderhook"));
    assert_eq!(
        (k.units, k.cubes()),
        (0, 0),
        "the whole army and its load left"
    );
    let a = s.area(at(&g, "albany"));
    assert_eq!(
        (a.units, a.food, a.war),
        (2, 1, 1),
        "one Food paid, the rest stored"
    );
    // In a City the limit is eight, not the army's carrying limit of three.
    s.area_mut(at(&g, "albany")).food = 7;
    assert_eq!(
        muster_supply_lines::supply::excess(g.data(), &s, P, at(&g, "albany")),
        0
    );
}

/// Rulings S7: a Bombardment that eliminates every Unit in the port is a surrender there
/// (§8.7): the Leaders go too and the support moves for the army and each Leader.
#[test]
fn rule_7_6_a_bombardment_that_eliminates_every_unit_is_a_surrender() {
    let g = game();
    let mut s = blank(&g, C);
    keep_leaders(&g, &mut s);
    s.area_mut(at(&g, "sea")).war = 1;
    put(&g, &mut s, "boston", C, 2, 1, 0, 0);
    put(&g, &mut s, "new-york", P, 1, 1, 0, 0);
    s.support = 4;
    s.dice = dice_rolling(&[1]);
    play(&g, &mut s, &["bombard boston"]); // the only target: taken without asking (rulings S15)
    let n = s.area(at(&g, "new-york"));
    assert_eq!((n.units, n.leaders), (0, 0));
    assert_eq!(s.support, 2, "the army and its Leader");
    assert!(s.ended.is_none(), "the Patriot keeps his Leader at York");
}
