//! Issue 15: loaded positions that break the rules are refused with `bad_position`, naming the
//! member at fault and the rule. Each test takes a real position from random play, breaks one
//! rule in it, and loads it the way `muster engine` does (`Session::load`).

use muster_battles::state::Phase;
use muster_battles::{Battles, State};
use muster_core::{Dice, ErrorKind, Game, Options, Session};
use serde_json::{Value, json};
use std::sync::Arc;

fn game() -> Arc<Battles> {
    Arc::new(Battles::new().unwrap())
}

/// The first state of random play (over many seeds) for which `pred` holds.
fn find(g: &Battles, scenario: &str, pred: impl Fn(&State) -> bool) -> State {
    let mut legal = Vec::new();
    for seed in 0..400 {
        let mut s = g.new_game(scenario, &Options::new(), seed).unwrap();
        let mut pick = Dice::from_seed(seed + 1000);
        while let Some(side) = g.to_act(&s) {
            if pred(&s) {
                return s;
            }
            g.legal_actions(&s, &mut legal);
            let a = legal[pick.below(legal.len() as u32) as usize];
            g.apply(&mut s, side, a).unwrap();
        }
        if pred(&s) {
            return s;
        }
    }
    panic!("no such state in random play");
}

fn position(state: &Value) -> Value {
    json!({"format": "muster-position", "version": 1, "game": "battles", "state": state})
}

/// Loads `state`; returns the refusal message (and checks its kind), or panics if accepted.
fn refused(g: &Arc<Battles>, state: &Value) -> String {
    match Session::load(g.clone(), &position(state)) {
        Ok(_) => panic!("accepted: {state}"),
        Err(e) => {
            assert_eq!(e.kind, ErrorKind::BadPosition, "{}", e.message);
            e.message
        }
    }
}

fn accepted(g: &Arc<Battles>, state: &Value) {
    if let Err(e) = Session::load(g.clone(), &position(state)) {
        panic!("refused: {}: {state}", e.message);
    }
}

#[test]
fn rule_6_1_an_attacker_must_stand_next_to_the_defender() {
    let g = game();
    let s = find(&g, "freemans-farm", |s| {
        matches!(s.phase, Phase::Support { .. })
    });
    let mut v = serde_json::to_value(&s).unwrap();
    accepted(&g, &v);
    // Swap the attacker for a unit of the same side far from the defender.
    let attacker = v["phase"]["battle"]["attackers"][0].as_u64().unwrap();
    let hex = v["phase"]["battle"]["hex"].as_str().unwrap().to_string();
    let far = s
        .units
        .iter()
        .enumerate()
        .find(|(i, u)| {
            *i as u64 != attacker
                && g.scenario(&s).units[*i].side == s.active.0
                && u.hex().is_some_and(|h| {
                    let t: muster_core::hex::Hex = hex.parse().unwrap();
                    g.scenario(&s).map.distance(h, t) > 3
                })
        })
        .map(|(i, _)| i)
        .expect("a unit far away");
    v["phase"]["battle"]["attackers"] = json!([far]);
    v["units"][far]["attacked"] = json!(true);
    let m = refused(&g, &v);
    assert!(m.contains("phase.battle.attackers[0]"), "{m}");
    assert!(m.contains("not next to") && m.contains("§6.1"), "{m}");
}

#[test]
fn rule_8_1_support_needs_an_artillery_point() {
    let g = game();
    let s = find(&g, "freemans-farm", |s| {
        matches!(s.phase, Phase::Support { .. })
    });
    let mut v = serde_json::to_value(&s).unwrap();
    let defender = ["american", "british"][1 - s.active.0 as usize];
    v["artillery"][defender] = json!(0);
    let m = refused(&g, &v);
    assert!(m.contains("Artillery point") && m.contains("§8.1"), "{m}");
}

#[test]
fn rule_9_2_a_charge_by_a_unit_that_does_not_exist_is_refused() {
    let g = game();
    let s = find(
        &g,
        "freemans-farm",
        |s| matches!(&s.phase, Phase::Declare { attackers, .. } if !attackers.is_empty()),
    );
    let mut v = serde_json::to_value(&s).unwrap();
    v["phase"]["charge"] = json!(99);
    v["leader_used"] = json!(true);
    let m = refused(&g, &v);
    assert!(m.contains("phase.charge") && m.contains("99"), "{m}");
    // A charge by an attacker without the Leadership point spent is refused too.
    let mut v = serde_json::to_value(&s).unwrap();
    v["phase"]["charge"] = v["phase"]["attackers"][0].clone();
    v["leader_used"] = json!(false);
    let m = refused(&g, &v);
    assert!(m.contains("leader_used") && m.contains("§9.2"), "{m}");
}

#[test]
fn rule_10_the_winner_must_be_the_side_the_vp_make_the_winner() {
    let g = game();
    let s = find(&g, "oriskany", |s| s.ended.is_some());
    let mut v = serde_json::to_value(&s).unwrap();
    accepted(&g, &v);
    let winner = v["ended"]["winner"].as_str().unwrap();
    let loser = if winner == "american" {
        "british"
    } else {
        "american"
    };
    v["ended"]["winner"] = json!(loser);
    let m = refused(&g, &v);
    assert!(m.contains("ended.winner") && m.contains("§10"), "{m}");
    let mut v = serde_json::to_value(&s).unwrap();
    v["ended"]["vp"][loser] = json!(20);
    let m = refused(&g, &v);
    assert!(m.contains("ended.vp"), "{m}");
}

#[test]
fn rule_10_over_needs_ended_and_ended_needs_over() {
    let g = game();
    let s = find(&g, "freemans-farm", |s| s.ended.is_some());
    let mut v = serde_json::to_value(&s).unwrap();
    v.as_object_mut().unwrap().remove("ended");
    let m = refused(&g, &v);
    assert!(m.contains("\"over\" needs \"ended\""), "{m}");
    let mut v = serde_json::to_value(&s).unwrap();
    v["phase"] = json!({"step": "attacks"});
    let m = refused(&g, &v);
    assert!(m.contains("ended"), "{m}");
}

#[test]
fn rule_4_a_loaded_position_never_leaves_the_side_to_act_without_a_legal_action() {
    let g = game();
    let s = find(
        &g,
        "freemans-farm",
        |s| matches!(&s.phase, Phase::Declare { attackers, .. } if attackers.is_empty()),
    );
    let mut v = serde_json::to_value(&s).unwrap();
    accepted(&g, &v);
    // Every unit of the active side has attacked: nobody can be added, nothing committed.
    for (i, _) in s.units.iter().enumerate() {
        if g.scenario(&s).units[i].side == s.active.0 {
            v["units"][i]["attacked"] = json!(true);
        }
    }
    let m = refused(&g, &v);
    assert!(m.contains("no legal action"), "{m}");
}

#[test]
fn unknown_members_inside_every_phase_step_are_refused() {
    let g = game();
    let s = find(&g, "freemans-farm", |_| true);
    for step in [
        json!({"step": "rally", "zzz": 1}),
        json!({"step": "reinforce", "zzz": 1}),
        json!({"step": "artillery-fire", "zzz": 1}),
        json!({"step": "attacks", "zzz": 1}),
        json!({"step": "over", "zzz": 1}),
        json!({"step": "movement", "zzz": 1}),
        json!({"step": "setup", "side": "american", "zzz": 1}),
        json!({"step": "declare", "target": 0, "attackers": [], "zzz": 1}),
        json!({"step": "support", "battle": {"target": 0, "attackers": [14], "hex": "E2", "zzz": 1}}),
    ] {
        let mut v = serde_json::to_value(&s).unwrap();
        v["phase"] = step.clone();
        let m = refused(&g, &v);
        assert!(m.contains("zzz"), "{step}: {m}");
    }
}

#[test]
fn rule_6_5_losses_take_one_or_two_and_rule_6_6_only_the_loser_retreats() {
    let g = game();
    let s = find(&g, "freemans-farm", |s| {
        matches!(s.phase, Phase::Retreat { .. })
    });
    let mut v = serde_json::to_value(&s).unwrap();
    accepted(&g, &v);
    let won = v["phase"]["battle"]["attacker_won"]
        .as_bool()
        .unwrap_or(false);
    // Queue a unit of the winning side.
    let winner_unit = if won {
        v["phase"]["battle"]["attackers"][0].clone()
    } else {
        v["phase"]["battle"]["target"].clone()
    };
    v["phase"]["queue"] = json!([winner_unit]);
    let m = refused(&g, &v);
    assert!(m.contains("phase.queue[0]") && m.contains("§6.6"), "{m}");
    // Losses of 0 (which counted down past zero before) or 3 are refused.
    for remaining in [0, 3, 255] {
        let mut v = serde_json::to_value(&s).unwrap();
        let battle = v["phase"]["battle"].clone();
        let mut battle = battle.as_object().unwrap().clone();
        battle.remove("attacker_won");
        v["phase"] = json!({"step": "losses", "battle": battle, "remaining": remaining});
        let m = refused(&g, &v);
        assert!(
            m.contains("phase.remaining") || m.contains("no legal action"),
            "{m}"
        );
    }
}
