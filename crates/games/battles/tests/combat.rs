//! §6 Combat, with §8.1 artillery support and §9.2 charge.

mod common;
use common::*;
use muster_battles::state::{Loc, Phase};
use muster_battles::{Battles, Event, State};
use muster_core::Game;

/// The Americans in their attack step, the British without artillery unless a test adds it.
fn attack_position(g: &Battles) -> State {
    let mut s = blank(g);
    s.artillery.british = 0;
    s.phase = Phase::Attacks;
    s
}

/// Declares an attack and commits it with the given dice.
fn attack(
    g: &Battles,
    s: &mut State,
    target: &str,
    attackers: &[&str],
    rolls: &[u8],
) -> Vec<Event> {
    act(g, s, &format!("attack {target}"));
    for a in attackers {
        act(g, s, &format!("add {a}"));
    }
    s.dice = dice_rolling(rolls);
    act(g, s, "commit")
}

#[test]
fn rule_6_1_attack_with_any_subset_of_adjacent_units() {
    let g = game();
    let mut s = attack_position(&g);
    put(&mut s, "b1", "C5");
    put(&mut s, "a1", "C4");
    put(&mut s, "a2", "B5");
    put(&mut s, "a3", "D5");
    put(&mut s, "a4", "A1"); // not adjacent
    act(&g, &mut s, "attack b1");
    let mut l = legal(&g, &s);
    l.sort();
    assert_eq!(
        l,
        ["add a1", "add a2", "add a3"],
        "only adjacent units, commit needs one"
    );
    act(&g, &mut s, "add a2");
    assert!(legal(&g, &s).contains(&"commit".to_string()));
    assert!(!legal(&g, &s).contains(&"add a2".to_string()));
}

#[test]
fn rule_6_1_each_unit_attacks_once_and_each_defender_is_attacked_once() {
    let g = game();
    let mut s = attack_position(&g);
    put(&mut s, "b1", "C5");
    put(&mut s, "b2", "E5");
    put(&mut s, "a1", "D5"); // next to both
    put(&mut s, "a2", "B5");
    put(&mut s, "a4", "F5"); // next to E5 only
    attack(&g, &mut s, "b1", &["a1"], &[3, 3]); // a tie: the defender wins, no loss
    let l = legal(&g, &s);
    assert!(
        !l.contains(&"attack b1".to_string()),
        "b1 was attacked already: {l:?}"
    );
    act(&g, &mut s, "attack b2");
    let l = legal(&g, &s);
    assert!(
        !l.contains(&"add a1".to_string()),
        "a1 attacked already: {l:?}"
    );
}

#[test]
fn rule_6_2_woods_hill_and_farm_give_the_defender_two() {
    let g = game();
    for (hex, terrain) in [("C3", true), ("E3", true), ("F4", true), ("B2", false)] {
        let mut s = attack_position(&g);
        put(&mut s, "b2", hex);
        // An attacker on a non-river side of the defender.
        let attacker_hex = match hex {
            "C3" => "C4",
            "E3" => "F3",
            "F4" => "F5",
            _ => "B3",
        };
        put(&mut s, "a2", attacker_hex);
        let ev = attack(&g, &mut s, "b2", &["a2"], &[1, 1]);
        let r = combat(&ev).unwrap();
        assert_eq!(r.terrain, terrain, "{hex}");
        assert_eq!(r.defense_total, 3 + if terrain { 2 } else { 0 }, "{hex}");
    }
}

#[test]
fn rule_6_2_river_adds_two_once_if_any_attacker_crosses_and_bridges_count() {
    let g = game();
    // E2: D1|E2 is a river hexside, F2 is not across a river.
    let mut s = attack_position(&g);
    put(&mut s, "b2", "E2");
    put(&mut s, "a1", "D1");
    put(&mut s, "a2", "F2");
    let ev = attack(&g, &mut s, "b2", &["a1", "a2"], &[1, 1]);
    let r = combat(&ev).unwrap();
    assert!(r.river);
    assert_eq!(r.defense_total, 5, "3 + 2 for the river, once");
    // Two attackers both across the river (the ford D1|E2 and the bridge D2|E2): still +2
    // once.
    let mut s = attack_position(&g);
    put(&mut s, "b2", "E2");
    put(&mut s, "a1", "D1");
    put(&mut s, "a2", "D2");
    let ev = attack(&g, &mut s, "b2", &["a1", "a2"], &[1, 1]);
    let r = combat(&ev).unwrap();
    assert!(r.river);
    assert_eq!(r.defense_total, 5, "3 + 2, however many attackers cross");
    // Across the bridge D2|E2 the defender also gets +2 (rulings B5).
    let mut s = attack_position(&g);
    put(&mut s, "b2", "E2");
    put(&mut s, "a1", "D2");
    let ev = attack(&g, &mut s, "b2", &["a1"], &[1, 1]);
    assert_eq!(combat(&ev).unwrap().defense_total, 5);
    // No attacker across the river: no bonus.
    let mut s = attack_position(&g);
    put(&mut s, "b2", "E2");
    put(&mut s, "a2", "F2");
    let ev = attack(&g, &mut s, "b2", &["a2"], &[1, 1]);
    assert!(!combat(&ev).unwrap().river);
}

#[test]
fn rule_6_2_terrain_modifiers_are_cumulative() {
    // A hill behind a river: 3 + 2 + 2.
    let g = game();
    let mut s = attack_position(&g);
    put(&mut s, "b2", "E3");
    put(&mut s, "a2", "D3");
    let ev = attack(&g, &mut s, "b2", &["a2"], &[1, 1]);
    assert_eq!(combat(&ev).unwrap().defense_total, 7);
}

#[test]
fn rule_6_3_cf_differential_is_capped_at_ten_either_way() {
    let g = game();
    let mut s = attack_position(&g);
    put(&mut s, "b3", "C5"); // 2 CF in the open
    put(&mut s, "a4", "C4"); // 6
    put(&mut s, "a3", "B5"); // 5
    put(&mut s, "a1", "D5"); // 4
    let ev = attack(&g, &mut s, "b3", &["a4", "a3", "a1"], &[1, 1]);
    let r = combat(&ev).unwrap();
    assert_eq!(
        (r.attack_cf, r.attack_total, r.defense_total),
        (15, 12, 2),
        "rulings B4"
    );
    // The defender's total is capped the same way.
    let mut s = attack_position(&g);
    s.artillery.british = 3;
    put(&mut s, "b4", "E3"); // 8 on a hill behind the river
    put(&mut s, "a2", "D3");
    reduce(&mut s, "a2"); // 2 CF
    act(&g, &mut s, "attack b4");
    act(&g, &mut s, "add a2");
    s.dice = dice_rolling(&[1, 1]);
    act(&g, &mut s, "commit");
    s.dice = dice_rolling(&[1, 1]);
    let ev = act(&g, &mut s, "support"); // 8 + 2 + 2 + 2 = 14
    let r = combat(&ev).unwrap();
    assert_eq!((r.attack_total, r.defense_total), (2, 12));
}

#[test]
fn rule_6_3_example_five_against_three_in_woods() {
    // 5 CF against a full 3 CF unit in woods: 5 vs 5; rolls 5 and 1: 10 vs 6; the attacker
    // wins by 4, the defender flips and retreats.
    let g = game();
    let mut s = attack_position(&g);
    put(&mut s, "b2", "C3");
    put(&mut s, "a3", "C4");
    put(&mut s, "b1", "C1"); // a friend to retreat toward
    let ev = attack(&g, &mut s, "b2", &["a3"], &[5, 1]);
    let r = combat(&ev).unwrap();
    assert_eq!((r.attack_total, r.defense_total), (5, 5));
    assert!(r.attacker_won);
    assert_eq!(r.losses, 1);
    let b2 = &s.units[idx(&s, "b2") as usize];
    assert!(b2.reduced, "one loss flips the unit");
    assert_eq!(
        b2.at,
        Loc::Map(h("C2")),
        "retreated one hex away, toward its friend"
    );
}

#[test]
fn rule_6_4_ties_go_to_the_defender_and_the_attackers_retreat() {
    let g = game();
    let mut s = attack_position(&g);
    put(&mut s, "b2", "C5");
    put(&mut s, "a2", "C6"); // 3 vs 3
    put(&mut s, "a1", "A8");
    let ev = attack(&g, &mut s, "b2", &["a2"], &[4, 4]);
    let r = combat(&ev).unwrap();
    assert!(!r.attacker_won);
    assert_eq!(r.losses, 0);
    assert!(matches!(s.phase, Phase::Retreat { .. }));
    assert_eq!(g_to_act(&g, &s), 0, "the attacker's owner picks the hex");
    let l = legal(&g, &s);
    assert!(l.iter().all(|a| a.starts_with("retreat ")), "{l:?}");
    act(&g, &mut s, &l[0]);
    assert_ne!(at(&s, "a2"), Loc::Map(h("C6")), "the attacker retreated");
    assert_eq!(at(&s, "b2"), Loc::Map(h("C5")));
}

#[test]
fn rule_6_5_winning_by_seven_or_more_inflicts_two_losses() {
    let g = game();
    let mut s = attack_position(&g);
    put(&mut s, "b2", "C5");
    put(&mut s, "a4", "C6"); // 6 vs 3; rolls 6 and 1: 12 vs 4
    let ev = attack(&g, &mut s, "b2", &["a4"], &[6, 1]);
    assert_eq!(combat(&ev).unwrap().losses, 2);
    assert_eq!(at(&s, "b2"), Loc::Eliminated, "flipped, then removed");
    assert!(ev.iter().any(|e| matches!(
        e,
        Event::Loss {
            eliminated: true,
            ..
        }
    )));
}

#[test]
fn rule_6_5_the_losing_attacker_chooses_which_unit_takes_each_loss() {
    let g = game();
    let mut s = attack_position(&g);
    put(&mut s, "b4", "C5"); // 8
    put(&mut s, "a1", "C6");
    put(&mut s, "a2", "B5");
    // 4+3 = 7 vs 8; rolls 1 and 6: 8 vs 14, the defender wins by 6: one loss.
    attack(&g, &mut s, "b4", &["a1", "a2"], &[1, 6]);
    let mut l = legal(&g, &s);
    l.sort();
    assert_eq!(l, ["loss a1", "loss a2"]);
    assert_eq!(g_to_act(&g, &s), 0, "the American player chooses");
    act(&g, &mut s, "loss a2");
    assert!(s.units[idx(&s, "a2") as usize].reduced);
    assert!(!s.units[idx(&s, "a1") as usize].reduced);
}

#[test]
fn rule_6_1_only_the_active_player_attacks() {
    // The American attack step: a1 is next to b2 and to its friend a2, and b1 is next to a1
    // and b2. Only British units are targets and only American units are attackers.
    let g = game();
    let mut s = attack_position(&g);
    put(&mut s, "a1", "C6");
    put(&mut s, "a2", "C7"); // next to a1 only
    put(&mut s, "b2", "C5");
    put(&mut s, "b1", "B5"); // next to a1 and to b2
    assert_eq!(g_to_act(&g, &s), 0);
    let mut l = legal(&g, &s);
    l.sort();
    assert_eq!(l, ["attack b1", "attack b2", "end-attacks"]);
    act(&g, &mut s, "attack b2");
    assert_eq!(legal(&g, &s), ["add a1"], "b1 cannot join either side");
    // The British side may not declare anything in the American turn.
    let b = muster_battles::state::SideId(1);
    let a = g.parse_action(&s, "add a1").unwrap();
    assert!(muster_core::Game::apply(&g, &mut s, b.0, a).is_err());
}

#[test]
fn rule_6_1_a_unit_that_moved_may_still_attack() {
    let g = game();
    let mut s = blank(&g);
    s.artillery.british = 0;
    put(&mut s, "a2", "A6");
    put(&mut s, "b2", "C7");
    act(&g, &mut s, "select a2");
    act(&g, &mut s, "move B7");
    act(&g, &mut s, "end-movement");
    assert_eq!(s.phase, Phase::Attacks);
    act(&g, &mut s, "attack b2");
    assert_eq!(legal(&g, &s), ["add a2"]);
}

#[test]
fn rule_6_4_every_surviving_attacker_retreats_when_the_defender_wins() {
    let g = game();
    let mut s = attack_position(&g);
    put(&mut s, "b2", "C5");
    put(&mut s, "a1", "C6");
    put(&mut s, "a2", "B5");
    // 4 + 3 = 7 against 3; rolls 1 and 6: 8 against 9, the defender wins by 1, no loss.
    let ev = attack(&g, &mut s, "b2", &["a1", "a2"], &[1, 6]);
    let r = combat(&ev).unwrap();
    assert!(!r.attacker_won);
    assert_eq!(r.losses, 0);
    while matches!(s.phase, Phase::Retreat { .. }) {
        let l = legal(&g, &s);
        act(&g, &mut s, &l[0]);
    }
    let map = &g.scenario(&s).map;
    for (id, from) in [("a1", "C6"), ("a2", "B5")] {
        let Loc::Map(now) = at(&s, id) else {
            panic!("{id} left the map")
        };
        assert_ne!(now, h(from), "{id} retreated");
        assert_eq!(map.distance(now, h("C5")), 2, "{id}: one hex away from b2");
    }
}

#[test]
fn rule_6_6_no_retreat_onto_a_friend_or_into_swamp() {
    // b2 at G4 loses to a2 at G3. The hexes farther from G3 are G5 (swamp), H4 (held by the
    // friend b1) and F4. Only F4 is allowed, though the other two are nearer the friend.
    let g = game();
    let mut s = attack_position(&g);
    put(&mut s, "b2", "G4");
    put(&mut s, "a2", "G3");
    put(&mut s, "b1", "H4");
    // 3 against 3; rolls 4 and 2: 7 against 5, the attacker wins by 2, no loss.
    let ev = attack(&g, &mut s, "b2", &["a2"], &[4, 2]);
    assert!(combat(&ev).unwrap().attacker_won);
    assert!(!ev.iter().any(|e| matches!(e, Event::CannotRetreat { .. })));
    assert_eq!(at(&s, "b2"), Loc::Map(h("F4")));
    assert_eq!(at(&s, "b1"), Loc::Map(h("H4")));
}

#[test]
fn rule_6_6_retreating_spends_no_mp() {
    // a2 (3 MP) spends all of it to reach B7 (1 MP to A7, 2 MP into B7 next to the enemy),
    // attacks and loses; it still retreats, even into woods that would cost 2 MP to enter.
    let g = game();
    let mut s = blank(&g);
    s.artillery.british = 0;
    put(&mut s, "a2", "A6");
    put(&mut s, "b2", "C7");
    act(&g, &mut s, "select a2");
    let ev = act(&g, &mut s, "move B7");
    assert!(
        matches!(ev[0], Event::Moved { halves: 6, .. }),
        "all 3 MP spent: {ev:?}"
    );
    act(&g, &mut s, "end-movement");
    let ev = attack(&g, &mut s, "b2", &["a2"], &[4, 4]); // 7 against 7: the defender wins
    assert!(!combat(&ev).unwrap().attacker_won);
    let mut l = legal(&g, &s);
    l.sort();
    assert_eq!(l, ["retreat A7", "retreat A8", "retreat B8"]);
    act(&g, &mut s, "retreat B8");
    assert_eq!(at(&s, "a2"), Loc::Map(h("B8")));
    assert!(!s.units[idx(&s, "a2") as usize].reduced);
}

fn g_to_act(g: &Battles, s: &State) -> u8 {
    use muster_core::Game;
    g.to_act(s).unwrap()
}

#[test]
fn rule_6_6_retreat_is_one_hex_away_and_toward_friends_chosen_by_the_owner() {
    let g = game();
    let mut s = attack_position(&g);
    put(&mut s, "b2", "D4");
    put(&mut s, "a2", "D5"); // 3 vs 3
    put(&mut s, "b1", "H1");
    attack(&g, &mut s, "b2", &["a2"], &[4, 2]); // 7 vs 5: the attacker wins by 2, no loss
    assert_eq!(g_to_act(&g, &s), 1, "the defender's owner chooses the hex");
    let mut l = legal(&g, &s);
    l.sort();
    // Away from D5: D3, C4, E4 are farther; the nearest to H1 among them are D3 and E4
    // (both 4 hexes away); C4 is 5 away.
    assert_eq!(l, ["retreat D3", "retreat E4"]);
    act(&g, &mut s, "retreat E4");
    assert_eq!(at(&s, "b2"), Loc::Map(h("E4")));
}

#[test]
fn rule_6_6_no_retreat_hex_costs_one_more_loss() {
    let g = game();
    let mut s = attack_position(&g);
    // b2 at A1 (corner): neighbours B1, A2 (B1's row... ) all blocked or not away.
    put(&mut s, "b2", "A1");
    put(&mut s, "a2", "A2");
    put(&mut s, "a1", "B1");
    // 7 vs 3: rolls 2, 3 -> 9 vs 6, by 3: no loss, but no retreat hex: one loss.
    let ev = attack(&g, &mut s, "b2", &["a2", "a1"], &[2, 3]);
    assert!(ev.iter().any(|e| matches!(e, Event::CannotRetreat { .. })));
    assert!(s.units[idx(&s, "b2") as usize].reduced);
    assert_eq!(at(&s, "b2"), Loc::Map(h("A1")));
}

#[test]
fn rule_6_6_the_attacker_may_occupy_the_vacated_hex() {
    let g = game();
    let mut s = attack_position(&g);
    put(&mut s, "b3", "C5"); // 2 CF
    put(&mut s, "a4", "C6"); // 6 CF: 6+3 vs 2+4: by 3, no loss, retreat
    put(&mut s, "b1", "C1");
    attack(&g, &mut s, "b3", &["a4"], &[3, 4]);
    // b3 retreats (one hex toward b1 in the north).
    while matches!(s.phase, Phase::Retreat { .. }) {
        let l = legal(&g, &s);
        act(&g, &mut s, &l[0]);
    }
    let l = legal(&g, &s);
    assert_eq!(l, ["advance a4", "no-advance"]);
    act(&g, &mut s, "advance a4");
    assert_eq!(at(&s, "a4"), Loc::Map(h("C5")));
}

#[test]
fn rule_8_1_example_artillery_support_six_against_two() {
    // 6 CF against 2 CF; artillery makes it 4; rolls 3 and 4: 9 vs 8; the attacker wins by
    // one: the defender retreats without a loss.
    let g = game();
    let mut s = attack_position(&g);
    s.artillery.british = 3;
    put(&mut s, "b3", "C5");
    put(&mut s, "a4", "C6");
    put(&mut s, "b1", "C1");
    act(&g, &mut s, "attack b3");
    act(&g, &mut s, "add a4");
    act(&g, &mut s, "commit");
    assert_eq!(
        g_to_act(&g, &s),
        1,
        "the non-active player decides on support"
    );
    assert_eq!(legal(&g, &s), ["support", "no-support"]);
    s.dice = dice_rolling(&[3, 4]);
    let ev = act(&g, &mut s, "support");
    let r = combat(&ev).unwrap();
    assert_eq!((r.attack_total, r.defense_total), (6, 4));
    assert!(r.attacker_won);
    assert_eq!(r.losses, 0);
    assert_eq!(s.artillery.british, 2);
    assert!(!s.units[idx(&s, "b3") as usize].reduced);
    assert_ne!(at(&s, "b3"), Loc::Map(h("C5")));
}

#[test]
fn rule_8_one_artillery_point_per_turn() {
    let g = game();
    let mut s = attack_position(&g);
    s.artillery.british = 3;
    put(&mut s, "b3", "C5");
    put(&mut s, "b2", "E5");
    put(&mut s, "a4", "C6");
    put(&mut s, "a3", "E6");
    act(&g, &mut s, "attack b3");
    act(&g, &mut s, "add a4");
    act(&g, &mut s, "commit");
    s.dice = dice_rolling(&[1, 6]);
    act(&g, &mut s, "support");
    // Second attack: no support offered, the dice roll at once.
    act(&g, &mut s, "attack b2");
    act(&g, &mut s, "add a3");
    let ev = act(&g, &mut s, "commit");
    assert!(
        combat(&ev).is_some(),
        "no artillery window after the point was spent"
    );
}

#[test]
fn rule_9_2_charge_adds_two_and_is_declared_before_artillery() {
    let g = game();
    let mut s = attack_position(&g);
    s.artillery.british = 3;
    put(&mut s, "b2", "C5");
    put(&mut s, "a1", "C6");
    act(&g, &mut s, "attack b2");
    assert!(
        !legal(&g, &s).iter().any(|a| a.starts_with("charge")),
        "charge needs an attacker"
    );
    act(&g, &mut s, "add a1");
    act(&g, &mut s, "charge a1");
    assert_eq!(s.leadership.american, 2);
    assert!(
        !legal(&g, &s).iter().any(|a| a.starts_with("charge")),
        "one point a turn"
    );
    act(&g, &mut s, "commit");
    assert!(
        matches!(s.phase, Phase::Support { .. }),
        "artillery comes after the charge"
    );
    s.dice = dice_rolling(&[1, 1]);
    let ev = act(&g, &mut s, "no-support");
    let r = combat(&ev).unwrap();
    assert!(r.charge);
    assert_eq!(r.attack_total, 6);
}

#[test]
fn rule_6_1_attacking_is_optional() {
    // a1 stands next to b2 when the attack step begins; the Americans may end their attacks
    // without fighting, and the British turn begins with nobody hurt.
    let g = game();
    let mut s = attack_position(&g);
    put(&mut s, "a1", "C6");
    put(&mut s, "b2", "C5");
    let l = legal(&g, &s);
    assert!(l.contains(&"attack b2".to_string()), "{l:?}");
    assert!(l.contains(&"end-attacks".to_string()), "{l:?}");
    let ev = act(&g, &mut s, "end-attacks");
    assert!(combat(&ev).is_none(), "{ev:?}");
    assert_eq!(s.active.0, 1, "the British turn begins");
    for id in ["a1", "b2"] {
        assert!(!s.units[idx(&s, id) as usize].reduced, "{id}");
    }
    assert_eq!(at(&s, "b2"), Loc::Map(h("C5")));
    assert_eq!(at(&s, "a1"), Loc::Map(h("C6")));
}

#[test]
fn rule_6_1_example_one_two_or_all_three_adjacent_units_may_attack() {
    // The printed example: three units next to the defender; the attacker may use one, two
    // or all three of them. Each choice is accepted and the attack totals exactly the units
    // named.
    let g = game();
    let cfs = [("a1", "C4", 4u8), ("a2", "B5", 3), ("a3", "D5", 5)];
    for n in 1..=3 {
        let mut s = attack_position(&g);
        s.leadership.american = 0;
        put(&mut s, "b4", "C5");
        for (id, hex, _) in cfs {
            put(&mut s, id, hex);
        }
        let names: Vec<&str> = cfs[..n].iter().map(|c| c.0).collect();
        let ev = attack(&g, &mut s, "b4", &names, &[1, 1]);
        let r = combat(&ev).expect("the attack is fought");
        assert_eq!(r.attackers.len(), n);
        assert_eq!(
            r.attack_cf,
            cfs[..n].iter().map(|c| c.2).sum::<u8>(),
            "{names:?}"
        );
    }
    // With all three named, no fourth unit is offered: only the commit remains.
    let mut s = attack_position(&g);
    s.leadership.american = 0;
    put(&mut s, "b4", "C5");
    for (id, hex, _) in cfs {
        put(&mut s, id, hex);
    }
    act(&g, &mut s, "attack b4");
    for (id, _, _) in cfs {
        act(&g, &mut s, &format!("add {id}"));
    }
    assert_eq!(legal(&g, &s), ["commit"]);
}

#[test]
fn rule_6_6_no_retreat_onto_an_enemy_unit() {
    // b2 at D4 loses to a2 at D5. Of the hexes farther from D5 (D3, C4, E4), D3 and E4 are
    // the nearest to b2's friend at H1, but American units that took no part in the attack
    // stand on them; b2 must go to C4.
    let g = game();
    let mut s = attack_position(&g);
    put(&mut s, "b2", "D4");
    put(&mut s, "a2", "D5");
    put(&mut s, "a3", "D3");
    put(&mut s, "a4", "E4");
    put(&mut s, "b1", "H1");
    // 3 against 3; rolls 4 and 2: the attacker wins by 2, no loss.
    let ev = attack(&g, &mut s, "b2", &["a2"], &[4, 2]);
    assert!(combat(&ev).unwrap().attacker_won);
    assert!(!ev.iter().any(|e| matches!(e, Event::CannotRetreat { .. })));
    assert_eq!(at(&s, "b2"), Loc::Map(h("C4")));
    assert!(!s.units[idx(&s, "b2") as usize].reduced);
}

#[test]
fn rule_6_1_each_attack_has_exactly_one_defender() {
    // a1 at D5 is next to b1 (C5) and b2 (E5). Once b1 is named, b2 cannot be added to the
    // same attack; the attack is fought against b1 alone, and b2 may still be attacked by
    // another unit afterwards.
    let g = game();
    let mut s = attack_position(&g);
    s.leadership.american = 0;
    put(&mut s, "a1", "D5");
    put(&mut s, "a4", "F5"); // next to b2 only
    put(&mut s, "b1", "C5");
    put(&mut s, "b2", "E5");
    act(&g, &mut s, "attack b1");
    assert!(!legal(&g, &s).iter().any(|a| a.starts_with("attack")));
    assert!(try_act(&g, &mut s.clone(), "attack b2").is_err());
    act(&g, &mut s, "add a1");
    s.dice = dice_rolling(&[1, 6]); // 4 + 1 against 4 + 6: b1 wins by 5
    let ev = act(&g, &mut s, "commit");
    let r = combat(&ev).unwrap();
    assert_eq!(r.target, idx(&s, "b1"));
    assert_eq!(r.defense_cf, 4, "b1's CF only");
    while matches!(s.phase, Phase::Retreat { .. } | Phase::Losses { .. }) {
        let l = legal(&g, &s);
        act(&g, &mut s, &l[0]);
    }
    assert_eq!(s.phase, Phase::Attacks);
    assert!(legal(&g, &s).contains(&"attack b2".to_string()));
}
