//! Rule tests for §7.4 Skirmish and §8 Battle, on hand-built positions with chosen dice.

mod common;
use common::*;
use muster_supply_lines::Event;
use muster_supply_lines::state::{EndReason, Phase};

fn committed(ev: &[Event]) -> Vec<(u8, u8)> {
    ev.iter()
        .filter_map(|e| match e {
            Event::Committed { war, dice, .. } => Some((*war, *dice)),
            _ => None,
        })
        .collect()
}

/// Hits scored by the attacker's roll (the second roll of a battle), if it rolled.
fn attacker_hits(ev: &[Event]) -> Option<u8> {
    ev.iter()
        .filter_map(|e| match e {
            Event::Rolled { hits, .. } => Some(*hits),
            _ => None,
        })
        .nth(1)
}

/// A Patriot army of `units` with a Leader at Roxbury attacking Boston, which cannot refuse
/// (Cambridge is Patriot-held and Roxbury is where the attack comes from).
fn patriots_attack_boston(
    units: u8,
    war: u8,
    crown_units: u8,
) -> (muster_supply_lines::SupplyLines, muster_supply_lines::State) {
    let g = game();
    let mut s = blank(&g, P);
    keep_leaders(&g, &mut s);
    put(&g, &mut s, "roxbury", P, units, 1, 1, war);
    put(&g, &mut s, "cambridge", P, 1, 0, 0, 0);
    put(&g, &mut s, "boston", C, crown_units, 0, 0, 0);
    (g, s)
}

#[test]
fn rule_8_2_patriot_attacking_a_city_rounds_down() {
    let (g, mut s) = patriots_attack_boston(3, 3, 4);
    s.dice = dice_rolling(&[6, 6, 6]);
    play(&g, &mut s, &["attack roxbury", "units 3"]);
    assert!(
        matches!(s.phase, Phase::AttackerCommit { .. }),
        "{:?}",
        s.phase
    );
    assert_eq!(legal(&g, &s), vec!["war 2", "war 3"]);
    let ev = play(&g, &mut s, &["war 3"]);
    assert_eq!(committed(&ev)[0], (3, 1), "3 War = 1 die for the Patriot");
}

#[test]
fn rule_8_2_crown_attacking_a_city_rounds_up() {
    let g = game();
    let mut s = blank(&g, C);
    keep_leaders(&g, &mut s);
    put(&g, &mut s, "roxbury", C, 3, 1, 1, 3);
    put(&g, &mut s, "boston", C, 1, 0, 0, 0);
    put(&g, &mut s, "cambridge", P, 2, 0, 0, 0);
    put(&g, &mut s, "watertown", C, 1, 0, 0, 0);
    put(&g, &mut s, "kennebec", C, 1, 0, 0, 0);
    s.dice = dice_rolling(&[6, 6, 6]);
    play(&g, &mut s, &["attack roxbury", "units 3"]);
    let ev = play(&g, &mut s, &["war 3"]);
    assert_eq!(committed(&ev)[0], (3, 2), "3 War = 2 dice for the Crown");
}

#[test]
fn rule_8_4_defender_rolls_first_and_every_two_losses_cost_a_die() {
    let (g, mut s) = patriots_attack_boston(3, 3, 4);
    s.area_mut(at(&g, "boston")).war = 2;
    // Defender: 1, 2 (two hits); the attacker's single die is lost, so it rolls nothing.
    s.dice = dice_rolling(&[1, 2, 1]);
    play(&g, &mut s, &["attack roxbury", "units 3", "war 3"]);
    let ev = play(&g, &mut s, &["war 2"]);
    let rolls: Vec<_> = ev
        .iter()
        .filter_map(|e| match e {
            Event::Rolled { rolls, hits, .. } => Some((rolls.len(), *hits)),
            _ => None,
        })
        .collect();
    assert_eq!(rolls, vec![(2, 2), (0, 0)]);
    // 1 Unit + 1 Leader against 4: the defender wins and the attacker goes home, its
    // carried supplies going to the defender (§8.7).
    assert_eq!(s.area(at(&g, "roxbury")).units, 1);
    assert_eq!(s.area(at(&g, "boston")).units, 4);
}

#[test]
fn rule_8_5_dug_in_defender_ignores_the_first_hit() {
    let (g, mut s) = patriots_attack_boston(3, 4, 4);
    s.area_mut(at(&g, "roxbury")).units = 4;
    s.area_mut(at(&g, "boston")).dug_in = true;
    s.dice = dice_rolling(&[1, 1]);
    play(&g, &mut s, &["attack roxbury", "units 4", "war 4"]);
    // No defender War: no defender dice; two attacker dice hit twice, one ignored.
    assert_eq!(s.area(at(&g, "boston")).units, 3);
}

#[test]
fn rule_8_6_ties_go_to_the_defender_and_patriot_victory_advances_support() {
    // 3 Units + 1 Leader against 4 Units: a tie, the defender wins.
    let (g, mut s) = patriots_attack_boston(3, 2, 4);
    s.dice = dice_rolling(&[6]);
    let before = s.support;
    let ev = play(&g, &mut s, &["attack roxbury", "units 3"]);
    assert!(
        ev.contains(&Event::BattleResult {
            attacker_won: false,
            attacker: 4,
            defender: 4
        }),
        "{ev:?}"
    );
    assert_eq!(s.support, before);
    // 3 + 1 against 2: the Patriot wins; the Crown makes one morale check needing 2+.
    let (g, mut s) = patriots_attack_boston(3, 2, 2);
    // One Patriot Unit stays in Roxbury, so the only area open to a retreat is held (§8.7).
    s.area_mut(at(&g, "roxbury")).units = 4;
    s.dice = dice_rolling(&[6, 1]);
    let before = s.support;
    let ev = play(&g, &mut s, &["attack roxbury", "units 3"]);
    assert!(
        ev.iter()
            .any(|e| matches!(e, Event::Support { section: "8.6", to, .. } if *to == before + 1))
    );
    // Morale failed (1 < 2), Boston's lines lead to Patriot Roxbury and Cambridge: surrender.
    assert!(s.area(at(&g, "boston")).held_by(P));
    assert_eq!(s.support, before + 2, "a Crown army surrendered too");
}

#[test]
fn rule_8_6_crown_beating_a_patriot_leader_regresses_support() {
    let g = game();
    let mut s = blank(&g, C);
    keep_leaders(&g, &mut s);
    // One Crown Unit stays in Boston: the retreat has nowhere to go (§8.7).
    put(&g, &mut s, "boston", C, 5, 1, 1, 1);
    put(&g, &mut s, "roxbury", P, 1, 1, 0, 0);
    put(&g, &mut s, "cambridge", C, 1, 0, 0, 0);
    put(&g, &mut s, "attleboro", C, 1, 0, 0, 0);
    s.support = 4;
    s.dice = dice_rolling(&[6]);
    play(&g, &mut s, &["attack boston", "units 4"]);
    // At a Point the morale check fails by itself; nowhere to go: surrender.
    assert_eq!(
        s.support, 1,
        "victory over a Leader, the army and its Leader: three spaces"
    );
    assert!(s.area(at(&g, "roxbury")).held_by(C));
}

#[test]
fn rule_8_1_refusing_battle_abandons_supplies_unless_a_leader_carries_half() {
    let g = game();
    let mut s = blank(&g, C);
    keep_leaders(&g, &mut s);
    put(&g, &mut s, "boston", C, 4, 1, 2, 2);
    put(&g, &mut s, "cambridge", P, 5, 1, 4, 3);
    play(&g, &mut s, &["attack boston", "units 4", "food 0", "war 2"]);
    assert!(matches!(s.phase, Phase::Refuse { .. }));
    let l = legal(&g, &s);
    assert!(l.contains(&"accept".to_string()));
    assert!(
        !l.contains(&"to boston".to_string()),
        "not where the attack came from"
    );
    assert!(l.contains(&"to watertown".to_string()));
    play(&g, &mut s, &["to watertown"]);
    // Five Units: a Leader takes two cubes.
    assert_eq!(legal(&g, &s), vec!["food 0", "food 1", "food 2"]);
    play(&g, &mut s, &["food 1", "war 1"]);
    let w = s.area(at(&g, "watertown"));
    assert_eq!((w.units, w.leaders, w.food, w.war), (5, 1, 1, 1));
    let c = s.area(at(&g, "cambridge"));
    assert!(c.held_by(C));
    assert_eq!(
        (c.food, c.war),
        (3, 2 + 2),
        "abandoned cubes plus what the attacker carried"
    );
}

#[test]
fn rule_8_1_dug_in_armies_cannot_refuse() {
    let g = game();
    let mut s = blank(&g, C);
    keep_leaders(&g, &mut s);
    put(&g, &mut s, "boston", C, 4, 1, 2, 2);
    put(&g, &mut s, "cambridge", P, 2, 0, 0, 0);
    s.area_mut(at(&g, "cambridge")).dug_in = true;
    s.dice = dice_rolling(&[6, 6]);
    play(&g, &mut s, &["attack boston", "units 4", "food 0", "war 2"]);
    assert!(!matches!(s.phase, Phase::Refuse { .. }));
}

#[test]
fn rule_8_7_morale_passed_the_defender_stands_and_the_attacker_goes_home() {
    let g = game();
    let mut s = blank(&g, C);
    keep_leaders(&g, &mut s);
    put(&g, &mut s, "boston", C, 4, 1, 1, 1);
    put(&g, &mut s, "cambridge", P, 3, 0, 0, 0);
    s.area_mut(at(&g, "cambridge")).dug_in = true;
    // Attack die 6 (miss); 5 against 3, difference 2; Patriot checks 2 and 5 pass.
    s.dice = dice_rolling(&[6, 2, 5]);
    let ev = play(&g, &mut s, &["attack boston", "units 4"]);
    assert!(
        ev.iter().any(|e| matches!(e, Event::Stood { .. })),
        "{ev:?}"
    );
    assert_eq!(s.area(at(&g, "boston")).units, 4);
    assert!(s.area(at(&g, "cambridge")).held_by(P));
}

#[test]
fn rule_8_7_morale_failed_the_defender_retreats_and_abandons_supplies() {
    let g = game();
    let mut s = blank(&g, C);
    keep_leaders(&g, &mut s);
    put(&g, &mut s, "boston", C, 4, 1, 1, 1);
    put(&g, &mut s, "cambridge", P, 3, 0, 2, 1);
    s.area_mut(at(&g, "cambridge")).dug_in = true;
    s.dice = dice_rolling(&[6, 1, 5]);
    play(&g, &mut s, &["attack boston", "units 4", "war 0"]);
    assert!(matches!(s.phase, Phase::Retreat { .. }));
    assert!(is_legal(&g, &s, "to kennebec"));
    play(&g, &mut s, &["to kennebec"]);
    let k = s.area(at(&g, "kennebec"));
    assert_eq!((k.units, k.food, k.war), (3, 0, 0));
    let c = s.area(at(&g, "cambridge"));
    assert!(c.held_by(C));
    assert_eq!((c.food, c.war), (2, 1), "abandoned to the attacker");
}

#[test]
fn rule_8_7_losing_the_last_leader_loses_the_game() {
    let g = game();
    let mut s = blank(&g, C);
    put(&g, &mut s, "nova-scotia", C, 1, 1, 0, 0);
    // One Crown Unit stays in Boston: the retreat has nowhere to go (§8.7).
    put(&g, &mut s, "boston", C, 5, 1, 1, 1);
    put(&g, &mut s, "roxbury", P, 1, 1, 0, 0);
    put(&g, &mut s, "cambridge", C, 1, 0, 0, 0);
    put(&g, &mut s, "attleboro", C, 1, 0, 0, 0);
    s.dice = dice_rolling(&[6]);
    play(&g, &mut s, &["attack boston", "units 4"]);
    let e = s.ended.expect("over");
    assert_eq!(e.winner, Some(C));
    assert_eq!(e.reason, EndReason::NoLeaders);
}

#[test]
fn rule_7_4_skirmish_needs_two_units_or_fewer_and_a_point_target() {
    let g = game();
    let mut s = blank(&g, P);
    keep_leaders(&g, &mut s);
    put(&g, &mut s, "cambridge", P, 3, 0, 1, 2);
    put(&g, &mut s, "roxbury", C, 2, 0, 0, 0);
    put(&g, &mut s, "boston", C, 2, 1, 0, 0);
    assert!(
        !is_legal(&g, &s, "skirmish cambridge"),
        "three Units and no Leader"
    );
    s.area_mut(at(&g, "cambridge")).leaders = 1;
    play(&g, &mut s, &["skirmish cambridge"]);
    assert!(!is_legal(&g, &s, "to boston"), "only Points");
    assert_eq!(legal(&g, &s), vec!["units 1", "units 2"]);
}

#[test]
fn rule_8_8_skirmish_one_sided_then_home() {
    let g = game();
    let mut s = blank(&g, P);
    keep_leaders(&g, &mut s);
    put(&g, &mut s, "cambridge", P, 2, 0, 1, 2);
    put(&g, &mut s, "roxbury", C, 2, 0, 0, 0);
    s.dice = dice_rolling(&[2, 5]);
    let before = s.support;
    play(&g, &mut s, &["skirmish cambridge", "war 2"]);
    assert_eq!(s.area(at(&g, "roxbury")).units, 1);
    let c = s.area(at(&g, "cambridge"));
    assert_eq!(
        (c.units, c.food, c.war),
        (2, 0, 0),
        "home again, supplies spent"
    );
    assert_eq!(s.support, before, "a skirmish is no battle victory");
}

/// §8.7's last sentence: when every Unit of the defender falls, it surrenders at once and the
/// battle ends there, so the §8.6 step (and its support change) never comes; the surrender
/// moves the marker for the army and for each Leader (rulings S11, S17).
#[test]
fn rule_8_7_a_defender_losing_every_unit_surrenders_without_the_8_6_step() {
    // The Patriot attacker wipes out Boston's one Unit and its Leader goes with it.
    let (g, mut s) = patriots_attack_boston(3, 2, 1);
    s.area_mut(at(&g, "boston")).leaders = 1;
    s.dice = dice_rolling(&[1]);
    let before = s.support;
    let ev = play(&g, &mut s, &["attack roxbury", "units 3"]);
    assert!(
        !ev.iter()
            .any(|e| matches!(e, Event::BattleResult { .. } | Event::Morale { .. })),
        "{ev:?}"
    );
    assert!(
        !ev.iter()
            .any(|e| matches!(e, Event::Support { section: "8.6", .. })),
        "{ev:?}"
    );
    assert_eq!(s.support, before + 2, "the army and its Leader, not three");
    assert!(s.area(at(&g, "boston")).held_by(P), "the attacker occupies");
    // The Crown wipes out a Patriot army with a Leader at a Point: two spaces back, not three.
    let g = game();
    let mut s = blank(&g, C);
    keep_leaders(&g, &mut s);
    // One Crown Unit stays in Boston: the retreat has nowhere to go (§8.7).
    put(&g, &mut s, "boston", C, 5, 1, 1, 1);
    put(&g, &mut s, "roxbury", P, 1, 1, 0, 0);
    put(&g, &mut s, "cambridge", C, 1, 0, 0, 0);
    put(&g, &mut s, "attleboro", C, 1, 0, 0, 0);
    s.support = 4;
    s.dice = dice_rolling(&[1]);
    let ev = play(&g, &mut s, &["attack boston", "units 4"]);
    assert!(
        !ev.iter()
            .any(|e| matches!(e, Event::Support { section: "8.6", .. })),
        "{ev:?}"
    );
    assert_eq!(s.support, 2);
    assert!(s.area(at(&g, "roxbury")).held_by(C));
}

#[test]
fn rule_8_2_a_point_gives_a_die_per_war_a_fort_or_destroyed_city_one_per_two() {
    // Patriots attack Roxbury (a Point) from Cambridge; Roxbury cannot refuse.
    let g = game();
    let mut s = blank(&g, P);
    keep_leaders(&g, &mut s);
    put(&g, &mut s, "cambridge", P, 3, 1, 1, 3);
    put(&g, &mut s, "roxbury", C, 2, 0, 0, 0);
    put(&g, &mut s, "boston", P, 1, 0, 0, 0);
    put(&g, &mut s, "attleboro", P, 1, 0, 0, 0);
    s.dice = dice_rolling(&[3, 3, 3]);
    play(&g, &mut s, &["attack cambridge", "units 3", "war 3"]);
    let ev = play(&g, &mut s, &["war 3"]);
    assert_eq!(committed(&ev)[0], (3, 3), "one die per War at a Point");
    // §8.5: a Patriot attacker's 3s miss.
    assert_eq!(attacker_hits(&ev), Some(0));
    // The Crown attacks Ticonderoga (a Fort) from Crown Point.
    let mut s = blank(&g, C);
    keep_leaders(&g, &mut s);
    put(&g, &mut s, "crown-point", C, 3, 1, 1, 3);
    put(&g, &mut s, "ticonderoga", P, 3, 0, 0, 2);
    put(&g, &mut s, "lake-george", C, 1, 0, 0, 0);
    s.dice = dice_rolling(&[3, 4]);
    play(&g, &mut s, &["attack crown-point", "units 3", "war 3"]);
    let ev = play(&g, &mut s, &["war 3"]);
    assert_eq!(
        committed(&ev)[0],
        (3, 2),
        "a Fort halves, the Crown rounding up"
    );
    // §8.3: the defender may commit any of its War, or none.
    assert_eq!(legal(&g, &s), vec!["war 0", "war 1", "war 2"]);
    let ev = play(&g, &mut s, &["war 0"]);
    // §8.5: a Crown attacker's 3 hits, its 4 does not.
    assert_eq!(attacker_hits(&ev), Some(1));
    // A Destroyed City keeps its Defensive Bonus (§7.7).
    let mut s = blank(&g, C);
    keep_leaders(&g, &mut s);
    put(&g, &mut s, "springfield", C, 3, 1, 1, 3);
    put(&g, &mut s, "hartford", P, 3, 0, 0, 0);
    s.area_mut(at(&g, "hartford")).destroyed = true;
    put(&g, &mut s, "norwalk", C, 1, 0, 0, 0);
    s.dice = dice_rolling(&[6, 6]);
    play(&g, &mut s, &["attack springfield", "units 3"]);
    let ev = play(&g, &mut s, &["war 3"]);
    assert_eq!(committed(&ev)[0], (3, 2));
}

#[test]
fn rule_8_1_no_refusal_into_the_sea_box_and_refusing_spends_nothing() {
    let (g, mut s) = patriots_attack_boston(3, 2, 2);
    put(&g, &mut s, "cambridge", P, 0, 0, 0, 0);
    s.area_mut(at(&g, "boston")).food = 3;
    s.area_mut(at(&g, "boston")).war = 2;
    play(&g, &mut s, &["attack roxbury", "units 3"]);
    assert_eq!(legal(&g, &s), vec!["accept", "to cambridge"]);
    play(&g, &mut s, &["to cambridge"]);
    let c = s.area(at(&g, "cambridge"));
    assert_eq!((c.units, c.cubes()), (2, 0), "no Leader: nothing taken");
    let b = s.area(at(&g, "boston"));
    assert!(b.held_by(P), "the attacker occupies");
    assert_eq!((b.food, b.war), (3, 2 + 2), "nothing spent by the refusal");
}

#[test]
fn rule_8_7_a_victorious_defender_takes_the_attackers_supplies_and_puts_limits_right_in_its_own_impulse()
 {
    let (g, mut s) = patriots_attack_boston(3, 3, 4);
    s.area_mut(at(&g, "boston")).food = 8;
    s.dice = dice_rolling(&[6]);
    play(&g, &mut s, &["attack roxbury", "units 3", "war 2"]);
    // A tie: the defender wins and the War the attacker did not spend is Boston's: nine.
    assert_eq!(s.area(at(&g, "boston")).cubes(), 9);
    assert_eq!(s.area(at(&g, "roxbury")).units, 3, "home again");
    // The Crown is asked nothing until its own impulse, which starts with putting it right.
    assert!(
        matches!(s.phase, Phase::Impulse { side, .. } if side == C),
        "{:?}",
        s.phase
    );
    assert_eq!(legal(&g, &s), vec!["from boston"]);
}

#[test]
fn rule_8_7_an_attacker_losing_every_unit_surrenders_and_its_supplies_go_to_the_defender() {
    let (g, mut s) = patriots_attack_boston(3, 3, 4);
    s.area_mut(at(&g, "boston")).war = 3;
    s.dice = dice_rolling(&[1, 2, 1]);
    let before = s.support;
    play(&g, &mut s, &["attack roxbury", "units 3", "war 2", "war 3"]);
    assert_eq!(s.area(at(&g, "roxbury")).units, 0);
    assert_eq!(s.area(at(&g, "boston")).war, 1, "the War it still carried");
    assert_eq!(s.support, before - 2, "a Patriot army and its Leader");
    assert_eq!(s.leaders_of(P), 1);
    assert!(s.ended.is_none());
}

/// Rulings S20: a refusal ends the activation, not the window of §7.0 for moving supplies
/// after it.
#[test]
fn rule_8_1_after_a_refusal_the_attacker_may_still_move_supplies() {
    let (g, mut s) = patriots_attack_boston(3, 2, 2);
    put(&g, &mut s, "cambridge", P, 0, 0, 0, 0);
    s.area_mut(at(&g, "boston")).food = 3;
    play(&g, &mut s, &["attack roxbury", "units 2", "to cambridge"]);
    assert!(
        matches!(s.phase, Phase::After { side, .. } if side == P),
        "{:?}",
        s.phase
    );
    assert!(is_legal(&g, &s, "from boston"), "{:?}", legal(&g, &s));
    assert!(is_legal(&g, &s, "done"));
}

#[test]
fn rule_13_1_the_crown_losing_its_last_leader_loses_the_game() {
    let (g, mut s) = patriots_attack_boston(3, 2, 1);
    put(&g, &mut s, "nova-scotia", C, 0, 0, 0, 0);
    s.area_mut(at(&g, "boston")).leaders = 1;
    assert_eq!(s.leaders_of(C), 1);
    s.dice = dice_rolling(&[1]);
    play(&g, &mut s, &["attack roxbury", "units 3"]);
    let e = s.ended.expect("over");
    assert_eq!((e.winner, e.reason), (Some(P), EndReason::NoLeaders));
    assert_eq!(s.phase, Phase::Over);
}

/// A Skirmish that eliminates every Crown Unit at the Point is a surrender there (§8.7): the
/// support advances, and the load at the Point is lost (rulings S4); the skirmishers still
/// go home (§8.8).
#[test]
fn rule_8_8_a_skirmish_that_eliminates_every_unit_is_a_surrender() {
    let g = game();
    let mut s = blank(&g, P);
    keep_leaders(&g, &mut s);
    put(&g, &mut s, "cambridge", P, 2, 0, 1, 2);
    put(&g, &mut s, "roxbury", C, 1, 0, 1, 1);
    s.dice = dice_rolling(&[1, 6]);
    let before = s.support;
    play(&g, &mut s, &["skirmish cambridge", "war 2"]);
    let r = s.area(at(&g, "roxbury"));
    assert_eq!((r.units, r.cubes(), r.side), (0, 0, None));
    assert_eq!(s.support, before + 1, "a Crown army surrendered");
    assert_eq!(s.area(at(&g, "cambridge")).units, 2);
}

/// §8.7 (rulings S6): a beaten defender retreats to any adjacent friendly or unoccupied area,
/// the one the attacker left empty included; only a refusal (§8.1) may not go there.
#[test]
fn rule_8_7_a_beaten_army_may_retreat_into_the_area_the_attacker_left() {
    let g = game();
    let mut s = blank(&g, C);
    keep_leaders(&g, &mut s);
    put(&g, &mut s, "boston", C, 4, 1, 1, 1);
    put(&g, &mut s, "cambridge", P, 3, 0, 2, 1);
    s.area_mut(at(&g, "cambridge")).dug_in = true;
    s.dice = dice_rolling(&[6, 1, 5]);
    play(&g, &mut s, &["attack boston", "units 4", "war 0"]);
    assert!(matches!(s.phase, Phase::Retreat { .. }), "{:?}", s.phase);
    assert_eq!(
        s.area(at(&g, "boston")).units,
        0,
        "the attacker left Boston empty"
    );
    assert!(
        is_legal(&g, &s, "to boston"),
        "Boston is adjacent and unoccupied: {:?}",
        legal(&g, &s)
    );
    play(&g, &mut s, &["to boston"]);
    let b = s.area(at(&g, "boston"));
    assert!(b.held_by(P));
    assert_eq!(b.units, 3);
    assert!(s.area(at(&g, "cambridge")).held_by(C));
}

/// §7.3, §8.3, §8.4 in the log: an attack's activation is logged once, with the Food really
/// paid; a defender who spends no War and rolls no dice is logged in plain words.
#[test]
fn rule_8_3_the_log_says_what_an_attack_paid_and_that_a_defender_without_war_rolls_nothing() {
    use muster_core::game::Game;
    let (g, mut s) = patriots_attack_boston(3, 3, 4);
    s.dice = dice_rolling(&[6, 6, 6]);
    let mut texts = Vec::new();
    for m in ["attack roxbury", "units 3", "war 3"] {
        let ev = play(&g, &mut s, &[m]);
        texts.extend(ev.iter().map(|e| g.describe(&s, e).text));
    }
    let activations: Vec<&String> = texts.iter().filter(|t| t.contains("activates")).collect();
    assert_eq!(
        activations,
        vec!["Patriot activates the army in Roxbury to attack, paying 1 Food."],
        "{texts:#?}"
    );
    assert!(
        texts
            .iter()
            .any(|t| t == "Crown expends no War and has no Battle Dice."),
        "{texts:#?}"
    );
    assert!(
        texts
            .iter()
            .any(|t| t == "Crown has no Battle Dice to roll: no Units eliminated."),
        "{texts:#?}"
    );
    assert!(
        !texts
            .iter()
            .any(|t| t.contains("rolls :") || t.contains(" 0 Food, 0 War")),
        "{texts:#?}"
    );
}
